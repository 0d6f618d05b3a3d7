"""Replaying the recorded 18xx.games games in tests/data/records (engine.replay).

Every record is replayed and every position solved.  In every ``run_routes``:

- the declared routes validate under our rules;
- where the record stores a route's revenue, our score of that route equals it;
- our optimum is at least the declared total (proven optimal).

Exceptions are listed in :data:`RULE_DIFFERENCES` with the rule that explains them.  The
records are MIT-licensed 18xx.games fixtures (tests/data/records/SOURCE.md).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.games import build_problem, check_position, load_position, load_record
from engine.model.position import position_from_dict
from engine.model.routes import fast_problem
from engine.replay import Replayer, ReplayError, replay

RECORDS = Path(__file__).parent / "data" / "records"
FILES = sorted(RECORDS.glob("*/*.json"))

#: (record, action id) -> (text of the rejection, why).  The lead's rule: the rules come from
#: the rulebook; where a record contradicts it, the difference is documented here.
WEST_WEST = (
    "1846: the German rules summary forbids West-West routes (St. Louis I1 to Chicago "
    "Connections C5; engine/games/g1846/data.py FORBID_WEST_WEST); 18xx.games puts the two "
    "West offboards in no common group and allows them.  Without that restriction our score "
    "of the declared routes equals what 18xx.games paid."
)
RULE_DIFFERENCES: dict[tuple[str, int], tuple[str, str]] = {
    ("10264", 201): ("may not run from 'I1.o' to 'C5.o'", WEST_WEST),
    ("10264", 267): ("may not run from 'I1.o' to 'C5.o'", WEST_WEST),
    ("10264", 296): ("may not run from 'I1.o' to 'C5.o'", WEST_WEST),
    ("20381", 274): ("may not run from 'I1.o' to 'C5.o'", WEST_WEST),
}


@functools.cache
def _report(path: Path):
    return replay(path, solve=True)


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_record_is_here():
    assert len(FILES) == 21
    assert (RECORDS / "SOURCE.md").is_file()


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_record_replays(path):
    report = _report(path)
    # the replay keeps in step with the record: no action left unapplied, and every share
    # price a record states agrees with the replayed 1846 market
    assert not [n for n in report.notes if "not replayed" in n or "resynchronised" in n]
    for turn in report.turns:
        key = (path.stem, turn.action_id)
        where = f"{path.stem} action {turn.action_id} ({turn.company})"
        assert turn.optimum is not None and turn.optimal, where
        if key in RULE_DIFFERENCES:
            text, _why = RULE_DIFFERENCES[key]
            assert turn.scored is None and text in (turn.error or ""), where
            assert turn.relaxed is not None, where
            if turn.declared is not None:
                assert turn.relaxed == turn.declared, where
            continue
        assert turn.error is None, f"{where}: {turn.error}"
        assert turn.scored is not None, where
        assert turn.matches, f"{where}: {turn.scored_routes} != {turn.declared_routes}"
        assert turn.optimum >= turn.reference, where


def test_rule_differences_are_all_seen():
    seen = set()
    for path in FILES:
        for turn in _report(path).turns:
            if turn.error:
                seen.add((path.stem, turn.action_id))
    assert seen == set(RULE_DIFFERENCES)


def test_stored_revenues_are_compared():
    """Records that keep per-route revenue (SOURCE.md) really are checked route by route."""
    checked = 0
    for path in FILES:
        for turn in _report(path).turns:
            if turn.matches and any(d is not None for d in turn.declared_routes):
                checked += 1
    assert checked >= 250  # positions with stored revenue (the 9 records in SOURCE.md)


def test_positions_are_valid_position_files():
    """A sample of replayed positions loads with every engine check, and the replay's fast
    problem equals engine.model.title.build_problem's."""
    for path in FILES[::4]:
        rep = Replayer(load_record(path), solve=False)
        for k, turn in enumerate(rep.turns()):
            if k % 10:
                continue
            position = load_position(turn.position, check=True)
            problem, _ = build_problem(position)
            fast, _ = fast_problem(rep.title, position, rep.state.board)
            assert fast.network.node_names == problem.network.node_names
            for name in ("node_kind", "node_value", "node_terminal", "node_group", "seg_u"):
                assert (getattr(fast.network, name) == getattr(problem.network, name)).all()
            assert [t.name for t in fast.trains] == [t.name for t in problem.trains]
            assert fast.rules == problem.rules


def test_1846_setup_draws_match_the_record():
    """18xx.games' random removals (its LCG seeded by the game): removed corporations never
    par and removed privates are never drafted."""
    rep = Replayer(load_record(RECORDS / "1846" / "12666.json"), solve=False)
    assert rep.rules.removed_corporations == ["C&O", "PRR"]
    assert rep.rules.removed_companies == ["LSL", "O&I", "SC", "TBC"]
    # their home tokens stay on the map
    assert "C&O" in rep.state.tokens[("I15", 0)]
    assert "PRR" in rep.state.tokens[("F20", 0)]


def test_2p_variant_places_second_tokens():
    rep = Replayer(load_record(RECORDS / "18462pVariant" / "18462pVariant_game_end_bank.json"))
    assert set(rep.rules.removed_corporations) == {"ERIE", "B&O"}
    assert "ERIE" in rep.state.tokens[("D20", 0)]  # Erie's second token goes down at once
    assert rep.rules.second_tokens == {"H12": "B&O"}  # B&O's waits for a green Cincinnati


def test_closures_remove_tokens():
    """1846 corporations at the 0 share price close and lose their station tokens."""
    rep = Replayer(load_record(RECORDS / "1846" / "1846_game_end_reason_all_closed.json"))
    for _ in rep.turns():
        pass
    closed = {s for s, op in rep.state.operators.items() if op.closed and op.kind != "minor"}
    assert {"B&O", "ERIE", "PRR"} <= closed
    for sym in closed:
        assert not rep.state.tokens_of(sym)
        assert not rep.state.trains_of(sym)


def test_record_position_export(tmp_path):
    report = _report(RECORDS / "1846" / "222264.json")
    from engine.replay import export_positions

    written = export_positions(report, tmp_path)
    assert len(written) == len(report.turns) == 2
    for path in written:
        position = load_position(path)
        check_position(position)
        assert position.extras["record"] == "222264"


def test_bad_record_input(tmp_path):
    with pytest.raises(ReplayError, match="no such file"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ReplayError, match="invalid JSON"):
        load_record(bad)
    other = tmp_path / "other.json"
    other.write_text('{"title": "1830", "players": [], "actions": []}')
    with pytest.raises(ReplayError, match="not supported"):
        load_record(other)


def test_position_dict_round_trip():
    turn = _report(RECORDS / "1836jr56" / "hotseat003.json").turns[-1]
    assert position_from_dict(turn.position).to_dict() == turn.position
