"""Board rules and position files (synthetic title ``tiny`` from tests/data)."""

import copy
import importlib.util
import json
import pathlib
import sys

import pytest

from engine.games import load_position
from engine.model.board import Board
from engine.model.position import PositionError, save_position

DATA = pathlib.Path(__file__).parent / "data"


def _tiny():
    if "tiny_title" not in sys.modules:
        spec = importlib.util.spec_from_file_location("tiny_title", DATA / "tiny_title.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["tiny_title"] = module
        spec.loader.exec_module(module)
    return sys.modules["tiny_title"].register()


TINY = _tiny()

GOOD = {
    "title": "tiny",
    "phase": "2",
    "tiles": [
        {"hex": "B3", "tile": "57", "rotation": 2},
        {"hex": "C4", "tile": "3", "rotation": 2},
        {"hex": "B5", "tile": "8", "rotation": 4},
    ],
    "tokens": [
        {"hex": "B3", "city": 0, "company": "AA"},
        {"hex": "B7", "city": 0, "company": "BB"},
    ],
    "company": "AA",
    "trains": ["2", "4/6"],
    "owned_companies": ["MC"],
    "assignments": [{"hex": "C2", "ability": "mine", "company": "AA", "city": 0}],
    "extras": {"note": "test"},
}


def _bad(**changes):
    pos = copy.deepcopy(GOOD)
    for key, value in changes.items():
        pos[key] = value
    return pos


def test_board_from_data():
    board = Board.from_data(TINY.data)
    assert board.color("B7") == "gray" and board.location_name("B3") == "Home"
    assert board.neighbours("B3") == {0: "C2", 2: "A2", 3: "A4", 4: "B5", 5: "C4"}
    assert board.edge_cut("B3", 3) and board.edge_cut("A4", 0)  # border printed on A4 only
    assert board.linked_neighbour("B3", 2) == "A2"  # red hex whose track faces back
    assert board.linked_neighbour("B5", 3) is None  # blue hex without track
    assert board.reservations[("B3", 0)] == ["AA"]
    assert board.manifest["9"][1] > 1000 and board.tile_count("57") == 1
    assert [i.name for i in board.icons("C2")] == ["mine"]


def test_boards_of_one_map_share_its_tables_but_not_their_tiles():
    # the printed map is parsed once and shared (nothing changes it once a board is made);
    # tiles laid on one board stay on that board, and on no copy made before
    first, second = Board.from_data(TINY.data), Board.from_data(TINY.data)
    assert first.cells is second.cells and first.manifest is second.manifest
    before = first.copy()
    first.lay("C4", "3", 2, check=False)
    assert "C4" in first.laid and "C4" not in second.laid and "C4" not in before.laid
    assert second.placed("C4").preprinted


def test_a_title_whose_phases_change_is_checked_against_the_new_ones(monkeypatch):
    # the checks keep what they read of a title's data while its lists are the same
    # objects: a replaced PHASES list is read again (1846-late is in phase IV)
    from engine.games import get_title

    path = pathlib.Path(__file__).parent.parent / "engine" / "examples" / "1846-late.json"
    data = get_title("1846").data
    assert load_position(path).phase == "IV"
    monkeypatch.setattr(data, "PHASES", [p for p in data.PHASES if p["name"] != "IV"])
    with pytest.raises(PositionError, match="unknown phase 'IV'"):
        load_position(path)
    monkeypatch.undo()
    assert load_position(path).phase == "IV"


def test_upgrade_rules():
    board = Board.from_data(TINY.data)
    t57, t8, x1 = (board.manifest_tile(n) for n in ("57", "8", "X1"))
    assert board.upgrade_problems("B3", t57, 2) == []
    assert board.upgrade_problems("B5", t57, 0)  # city tile on a plain hex
    assert board.upgrade_problems("C4", t8, 0)  # town hex needs a town tile
    assert board.upgrade_problems("B7", x1, 0)  # gray hex takes no tile
    assert board.exit_problems("B3", t57, 1)[0].startswith("track on edge 1 runs off the map")
    assert "impassable" in board.exit_problems("B3", t57, 3)[0]
    board.lay("B3", "57", 2)
    # green X1 keeps the yellow track only if laid over it: printed B3 has no track, so any
    # rotation keeps it; the exits decide
    assert board.exit_problems("B3", x1, 2)


def test_load_save_round_trip(tmp_path):
    text = json.dumps(GOOD, indent=2) + "\n"
    path = tmp_path / "pos.json"
    path.write_text(text)
    pos = load_position(path)
    assert pos.source == str(path)
    assert save_position(pos) == text
    again = load_position(save_position(pos))
    assert again == pos
    assert pos.assignments[0].get("city") == 0
    out = tmp_path / "out.json"
    save_position(pos, out)
    assert out.read_text() == text


@pytest.mark.parametrize(
    "changes, fragment",
    [
        ({"title": "9999"}, "unknown title"),
        ({"phase": "7"}, "unknown phase"),
        ({"company": "ZZ"}, "unknown company"),
        ({"trains": ["2", "9"]}, "trains[1]: unknown train '9'"),
        ({"owned_companies": ["XX"]}, "owned_companies[0]"),
        ({"tiles": [{"hex": "Z9", "tile": "57"}]}, "tiles[0]: hex 'Z9' is not on"),
        ({"tiles": [{"hex": "B3", "tile": "999"}]}, "tile '999' is not in"),
        ({"tiles": [{"hex": "B3", "tile": "57", "rotation": 6}]}, "illegal rotation 6"),
        ({"tiles": [{"hex": "B3", "tile": "57", "rotation": 1}]}, "runs off the map"),
        ({"tiles": [{"hex": "B3", "tile": "57", "rotation": 0}]}, "impassable border"),
        ({"tiles": [{"hex": "B5", "tile": "57", "rotation": 1}]}, "cities"),
        (
            {"tiles": [{"hex": "B5", "tile": "8", "rotation": 4}, {"hex": "B5", "tile": "9"}]},
            "second tile",
        ),
        (
            {"tiles": [{"hex": "C2", "tile": "7", "rotation": 3}, {"hex": "B5", "tile": "7"}]},
            "",
        ),
        ({"tokens": [{"hex": "B3", "city": 1, "company": "AA"}]}, "has no city 1"),
        ({"tokens": [{"hex": "B5", "company": "AA"}]}, "has no city 0"),
        (
            {"tokens": [{"hex": "B3", "company": "AA"}, {"hex": "B3", "company": "BB"}]},
            "too many tokens",
        ),
        (
            {"tokens": [{"hex": "B7", "company": "AA"}, {"hex": "B7", "company": "AA"}]},
            "already has",
        ),
        ({"tokens": [{"hex": "B3", "company": "QQ"}]}, "unknown company 'QQ'"),
        ({"assignments": [{"hex": "Q1", "ability": "x", "company": "AA"}]}, "assignments[0]"),
        ({"tiles": [{"hex": "B3"}]}, "tiles[0] is missing 'tile'"),
        ({"tiles": [{"hex": "B3", "tile": "57", "rot": 1}]}, "unknown field 'rot'"),
        ({"tiles": {"hex": "B3"}}, "tiles must be a list"),
        (
            {"tokens": [{"hex": "B3", "city": "0", "company": "AA"}]},
            "tokens[0].city must be an integer",
        ),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_impossible_positions_are_rejected(changes, fragment, tmp_path):
    pos = _bad(**changes)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(pos))
    if fragment == "":
        # two "7" tiles when the manifest has one
        fragment = "manifest has 1"
    with pytest.raises(PositionError) as err:
        load_position(path)
    msg = str(err.value)
    assert fragment in msg
    assert str(path) in msg


def test_malformed_json_names_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"title": "tiny",\n "phase": }')
    with pytest.raises(PositionError, match=r"broken\.json: invalid JSON at line 2"):
        load_position(path)
    with pytest.raises(PositionError, match="no such file"):
        load_position(tmp_path / "missing.json")
    with pytest.raises(PositionError, match="missing 'company'"):
        load_position({"title": "tiny", "phase": "2"})


def test_position_error_is_value_error():
    assert issubclass(PositionError, ValueError)


def test_title_registry():
    from engine.games import get_title, known_titles

    assert get_title("TINY").data is TINY.data
    for key in ("1846", "1836Jr30", "1836jr56", "1812", "1842", "1862"):
        assert any(k.lower() == key.lower() for k in known_titles())
    with pytest.raises(KeyError, match="known titles"):
        get_title("18XX-unknown")


def test_printed_track_and_labels_must_be_kept():
    from types import SimpleNamespace

    data = SimpleNamespace(
        TITLE="upgrades",
        LAYOUT="flat",
        HEXES={
            "yellow": {"path=a:0,b:3": ["C3"], "city=revenue:20;path=a:0,b:_0;label=Y": ["C7"]},
            "white": {"": ["C1", "C5", "B4", "D4", "B6", "D6", "C9", "B8", "D8", "B2", "D2"]},
        },
        TILES={
            "23": 1,
            "14": 1,
            "X9": {
                "count": 1,
                "color": "green",
                "code": ("city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=Y"),
            },
        },
    )
    board = Board.from_data(data)
    t23 = board.manifest_tile("23")
    assert board.upgrade_problems("C3", t23, 0) == []
    assert board.upgrade_problems("C3", t23, 3) == []  # 3-0 is the same straight
    assert "drops the printed track edge 0-edge 3" in board.upgrade_problems("C3", t23, 1)[0]
    assert any("label" in p for p in board.upgrade_problems("C7", board.manifest_tile("14"), 0))
    assert board.upgrade_problems("C7", board.manifest_tile("X9"), 0) == []
    assert board.upgrade_problems("C7", board.manifest_tile("X9"), 3) == []
    assert board.upgrade_problems("C7", board.manifest_tile("X9"), 1)
