"""The board state of the rules engine on hand-built cases: record undo/redo, illegal
lays, tokens and purchases, the 1846 market, and the ``eighteen replay`` command.

Illegal actions are rejected with an :class:`~engine.game.errors.IllegalAction` naming the
rule, and the state is left as it was.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import routing
from engine.app.cli import cli
from engine.app.report import replay
from engine.game.draws import lcg_draws
from engine.game.errors import IllegalAction
from engine.games import build_problem, load_position, new_game
from engine.games.g1846 import data as data_1846
from engine.games.g1846.market import Market1846
from engine.model.record import ReplayError, filter_actions, record_seed

RECORDS = Path(__file__).parent / "data" / "records"


def _game(title: str = "1846", seed: int = 12666, players: int = 3):
    """A fresh game of the rules engine with no actions: the state after setup."""
    return new_game(title, [f"p{i}" for i in range(players)], seed, ["first_ed"])


def _snapshot(state) -> tuple:
    return (
        dict(state.board.laid),
        dict(state.tile_hex),
        copy.deepcopy(state.tokens),
        {t.id: (t.owner, t.name, t.obsolete) for t in state.trains.values()},
        list(state.depot),
        state.phase_index,
    )


# ---------------------------------------------------------------------------------- undo/redo
def _acts(*ids):
    return [{"type": "pass", "id": i} for i in ids]


def test_undo_takes_back_the_last_action():
    log = [*_acts(1, 2), {"type": "undo", "id": 3}]
    assert [a["id"] for a in filter_actions(log)] == [1]


def test_redo_puts_it_back():
    log = [*_acts(1, 2), {"type": "undo", "id": 3}, {"type": "redo", "id": 4}]
    assert [a["id"] for a in filter_actions(log)] == [1, 2]


def test_undo_to_an_action_id_and_to_zero():
    log = [*_acts(1, 2, 3), {"type": "undo", "id": 4, "action_id": 1}]
    assert [a["id"] for a in filter_actions(log)] == [1]
    log = [*_acts(1, 2), {"type": "undo", "id": 3, "action_id": 0}]
    assert filter_actions(log) == []


def test_messages_are_never_undone_and_a_new_action_forgets_redo():
    log = [
        *_acts(1),
        {"type": "message", "id": 2},
        {"type": "undo", "id": 3},
        *_acts(4),
        {"type": "redo", "id": 5},
    ]
    with pytest.raises(ReplayError, match="nothing to redo"):
        filter_actions(log)
    assert [a["id"] for a in filter_actions(log[:4])] == [2, 4]


def test_stacked_undos_redo_in_reverse_order():
    undo = [{"type": "undo", "id": 4}, {"type": "undo", "id": 5}]
    log = [*_acts(1, 2, 3), *undo, {"type": "redo", "id": 6}]
    assert [a["id"] for a in filter_actions(log)] == [1, 2]


def test_seed_defaults_to_the_digits_of_the_id():
    assert record_seed({"id": "hs_abc_1715274627", "settings": {"seed": ""}}) == 1715274627
    assert record_seed({"id": 5, "settings": {"seed": 99}}) == 99
    assert next(lcg_draws(1)) == (1_103_515_245 + 12_345) % 2**31


# ---------------------------------------------------------------------------------- legality
def test_tile_breaking_existing_track_is_rejected():
    state = _game().state
    state.lay_tile("C13", "7-0", 4)
    state.phase_index = 1  # phase II: green tiles allowed
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match="breaks the existing track edge 4-edge 5"):
        state.lay_tile("C13", "24-0", 0)
    assert _snapshot(state) == before


def test_tile_colour_must_be_allowed_by_the_phase():
    state = _game().state
    state.lay_tile("C13", "7-0", 4)
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match="phase I allows no green tiles"):
        state.lay_tile("C13", "18-0", 0)
    with pytest.raises(IllegalAction, match="one colour up at a time"):
        state.lay_tile("B14", "18-0", 0)
    assert _snapshot(state) == before


def test_token_in_a_full_city_is_rejected():
    state = _game().state
    state.place_token("C15", 0, "NYC")  # Detroit: two slots, Michigan Southern holds one
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match=r"C15 city 0 is full \(2 tokens for 2 slots"):
        state.place_token("C15", 0, "B&O")
    with pytest.raises(IllegalAction, match="already has a token"):
        state.place_token("C15", 0, "NYC")
    assert _snapshot(state) == before


def test_reserved_slot_is_kept_for_its_corporation():
    state = _game().state  # NYC's home Erie (D20): one slot, the other reserved for ERIE
    state.place_token("D20", 0, "NYC")
    with pytest.raises(IllegalAction, match="reserved for ERIE"):
        state.place_token("D20", 0, "GT")
    state.place_token("D20", 0, "ERIE")


def test_unknown_train_is_rejected():
    state = _game().state
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match="unknown train '9-9'"):
        state.buy_train("NYC", "9-9")
    with pytest.raises(IllegalAction, match="no variant '4/6'"):
        state.buy_train("NYC", "2-2", "4/6")
    assert _snapshot(state) == before


def test_depot_sells_trains_in_order():
    state = _game().state
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match=r"not for sale yet.*now: 2-2"):
        state.buy_train("NYC", "2-5")
    with pytest.raises(IllegalAction, match="not for sale yet"):
        state.buy_train("NYC", "5-0", "5")
    assert _snapshot(state) == before


def test_train_limit_per_phase():
    state = _game().state
    for ident in ("2-2", "2-3", "2-4", "2-5"):
        state.buy_train("NYC", ident)
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match="NYC has 4 trains and phase I's train limit is 4"):
        state.buy_train("NYC", "2-6")
    assert _snapshot(state) == before


def test_phase_change_obsolescence_and_rust():
    """3 players: five 2s left after the minors', four 4s, three 5s (game.rb num_trains)."""
    state = _game().state
    for buyer, ident in zip(["NYC", "NYC", "GT", "GT", "IC"], range(2, 7), strict=True):
        state.buy_train(buyer, f"2-{ident}")
    state.buy_train("B&O", "4-0", "3/5")
    assert state.phase_name == "II"
    for i in (1, 2, 3):
        state.buy_train("B&O", f"4-{i}")
    state.buy_train("ERIE", "5-0", "4/6")
    assert state.phase_name == "III"
    assert state.trains["2-2"].obsolete and state.trains["2-2"].owner == "NYC"
    assert state.operators["MS"].closed and not state.tokens_of("MS")  # close_companies
    assert state.counted_trains("NYC") == 0  # obsolete trains leave the train limit
    for i in (1, 2):
        state.buy_train("IC", f"5-{i}")
    state.buy_train("ERIE", "6-0", "7/8")
    assert state.phase_name == "IV"
    assert state.trains["2-2"].owner is None  # 2s rust on the first 6
    assert state.trains["4-0"].obsolete  # 4s become obsolete


def test_route_through_a_full_city_is_rejected():
    """1836Jr-30: Brussels (H6, one slot) holds B's token; Nord may end a route there but
    not run through it from Gand (H4) to Antwerp (G7)."""
    position = {
        "title": "1836Jr30",
        "phase": "3",
        "company": "Nord",
        "trains": ["3"],
        "tiles": [
            {"hex": "H4", "tile": "57", "rotation": 1},
            {"hex": "G7", "tile": "57", "rotation": 0},
        ],
        "tokens": [{"hex": "H6", "company": "B"}, {"hex": "H4", "company": "Nord"}],
    }
    problem, view = build_problem(position)
    h4, h6, g7 = (view.city_node(h) for h in ("H4", "H6", "G7"))
    through = [h4, view.node("H4|H6"), h6, view.node("G7|H6"), g7]
    with pytest.raises(routing.RouteError, match="runs through 'H6.c0', which may only end"):
        routing.validate(problem, [(0, through)])
    assert view.blocked_by() == {h6: ("B",)}
    with pytest.raises(routing.RouteError, match="the city in hex H6 is blocked by B$"):
        routing.validate(problem, [(0, through)], blocked_by=view.blocked_by())
    assert routing.validate(problem, [(0, [h4, h6])]).total == 50  # ending there is fine
    position["company"] = "B"  # its own token does not block B
    position["tokens"] = [{"hex": "H6", "company": "B"}]
    problem, _ = build_problem(position)
    assert routing.validate(problem, [(0, through)]).total == 70


def _tampered(path: Path, action_id: int, **changes) -> dict:
    data = json.loads(path.read_text())
    for action in data["actions"]:
        if action.get("id") == action_id:
            action.update(changes)
    return data


def test_strict_replay_names_the_illegal_action_and_lenient_goes_on():
    path = RECORDS / "1846" / "222264.json"
    first_lay = next(a for a in json.loads(path.read_text())["actions"] if a["type"] == "lay_tile")
    data = _tampered(path, first_lay["id"], tile="14-0")  # green on a white hex
    where = rf"action {first_lay['id']} \(lay_tile by MS\): lay_tile by MS: "
    with pytest.raises(ReplayError, match=where):
        replay(data, solve=False)
    report = replay(data, solve=False, strict=False)
    assert report.diverged_at is not None
    assert any(str(first_lay["id"]) in n for n in report.notes)


# ---------------------------------------------------------------------------------- market
def test_1846_dividend_moves():
    m = Market1846(["0c", "10", "20", "30", "40p", "50p", "60p", "70p", "80p"])
    m.par_at("X", 50)
    m.dividend("X", "withhold", 100)
    assert m.price("X") == 40  # less than half the price paid out: left
    m.dividend("X", "payout", 20)
    assert m.price("X") == 40  # half or more, below the price: stays
    m.dividend("X", "payout", 80)
    assert m.price("X") == 60  # twice the price: two right
    m.dividend("X", "half", 70)  # pays 40: the withheld 35 rounds down to 30 (3 a share)
    assert m.price("X") == 60


def test_1846_market_ends_and_closing():
    m = Market1846(data_1846.MARKET)
    m.par_at("X", 40)
    m.left("X", 10)  # 40 -> 30 -> 20 -> 10 -> 0c, and no further
    assert m.price("X") == 0 and m.at_close("X")
    m.par_at("Y", 150)
    m.right("Y", 99)
    assert m.price("Y") == 550  # the last cell
    m.remove("Y")  # a closed corporation leaves its cell's stack, keeping its price
    assert m.price("Y") == 550 and "Y" not in m.stacks[m.where["Y"]]


# ---------------------------------------------------------------------------------- CLI
def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_cli_replay_table_report_and_positions(tmp_path):
    report = tmp_path / "report.json"
    out = tmp_path / "positions"
    result = _run("replay", RECORDS / "1846" / "222264.json", "--report", report,
                  "--export-positions", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "operating runs" in result.output and "revenue left on the table" in result.output
    data = json.loads(report.read_text())
    assert data["summary"]["positions"] == 2 and len(data["turns"]) == 2
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    load_position(files[0])
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "no such file"),
        ("{", "invalid JSON"),
        ('{"title": "1830", "players": [], "actions": []}', "title '1830' is not supported"),
        ("[]", "not an 18xx.games game export"),
    ],
)
def test_cli_replay_bad_input(tmp_path, content, fragment):
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content)
    result = _run("replay", path)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.output
