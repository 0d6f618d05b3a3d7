"""Replaying the recorded 18xx.games games in tests/data/records through the rules engine:
setup draws, closures, the positions the replay report exports.

The records are MIT-licensed 18xx.games fixtures (tests/data/records/SOURCE.md).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.app.report import export_positions, game_before, open_replay, replay
from engine.games import build_problem, check_position, load_position, load_record
from engine.games.records import new_record_game
from engine.model.position import position_from_dict
from engine.model.record import ReplayError
from engine.model.routes import fast_problem

RECORDS = Path(__file__).parent / "data" / "records"
FILES = sorted(RECORDS.glob("*/*.json"))


@functools.cache
def _report(path: Path):
    return replay(path, solve=True)


def test_positions_are_valid_position_files():
    """A sample of replayed positions loads with every check of a position file, and the
    engine's fast problem on its own board equals build_problem's from the title data."""
    for path in FILES[::4]:
        rep = open_replay(path)
        k = 0

        def look(_i, raw, rep=rep):
            nonlocal k
            if raw.get("type") != "run_routes" or rep.game.finished:
                return
            k += 1
            if k % 10 != 1:
                return
            position = rep.game.turn_position(str(raw["entity"]))
            position = load_position(position.to_dict(), check=True)
            problem, _ = build_problem(position)
            fast, _ = fast_problem(rep.game.title, position, rep.game.state.board)
            assert fast.network.node_names == problem.network.node_names
            for name in ("node_kind", "node_value", "node_terminal", "node_group", "seg_u"):
                assert (getattr(fast.network, name) == getattr(problem.network, name)).all()
            assert [t.name for t in fast.trains] == [t.name for t in problem.trains]
            assert fast.rules == problem.rules

        for _step in rep.steps(before=look):
            pass
        assert k or path.stem.startswith("hs_"), path.name  # hotseat stubs run no routes


def test_1846_setup_draws_match_the_record():
    """18xx.games' random removals (its LCG seeded by the game): removed corporations never
    par and removed privates are never drafted; their home tokens stay on the map."""
    game = new_record_game(load_record(RECORDS / "1846" / "12666.json"))
    assert game.removed_corporations == ["C&O", "PRR"]
    assert game.removed_companies == ["LSL", "O&I", "SC", "TBC"]
    assert "C&O" in game.state.tokens[("I15", 0)]
    assert "PRR" in game.state.tokens[("F20", 0)]


def test_2p_variant_places_second_tokens():
    path = RECORDS / "18462pVariant" / "18462pVariant_game_end_bank.json"
    game = new_record_game(load_record(path))
    assert set(game.removed_corporations) == {"ERIE", "B&O"}
    assert "ERIE" in game.state.tokens[("D20", 0)]  # Erie's second token goes down at once
    assert game.second_tokens == {"H12": "B&O"}  # B&O's waits for a green Cincinnati


def test_closures_remove_tokens():
    """1846 corporations at the 0 share price close and lose their station tokens."""
    game = game_before(RECORDS / "1846" / "1846_game_end_reason_all_closed.json").game
    closed = {s for s, op in game.state.operators.items() if op.closed and op.kind != "minor"}
    assert {"B&O", "ERIE", "PRR"} <= closed
    for sym in closed:
        assert not game.state.tokens_of(sym)
        assert not game.state.trains_of(sym)


def test_record_position_export(tmp_path):
    report = _report(RECORDS / "1846" / "222264.json")
    written = export_positions(report, tmp_path)
    assert len(written) == len(report.turns) == 2
    for path in written:
        position = load_position(path)
        check_position(position)
        assert position.extras["record"] == "222264"
        assert position.cash is not None and position.turn["stage"] == "route"


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
