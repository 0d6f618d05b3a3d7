"""The ``eighteen`` command line (synthetic title ``tiny`` from tests/data)."""

import importlib.util
import json
import pathlib
import sys
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from engine.app.cli import cli

DATA = pathlib.Path(__file__).parent / "data"


def _tiny():
    if "tiny_title" not in sys.modules:
        spec = importlib.util.spec_from_file_location("tiny_title", DATA / "tiny_title.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["tiny_title"] = module
        spec.loader.exec_module(module)
    return sys.modules["tiny_title"].register()


TINY = _tiny()

POS = {
    "title": "tiny",
    "phase": "2",
    "company": "AA",
    "trains": ["2", "4/6"],
    "tiles": [
        {"hex": "B3", "tile": "57", "rotation": 2},
        {"hex": "C4", "tile": "3", "rotation": 2},
        {"hex": "B5", "tile": "8", "rotation": 4},
    ],
    "tokens": [{"hex": "B3", "company": "AA"}, {"hex": "B7", "company": "BB"}],
}


@pytest.fixture()
def files(tmp_path):
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POS))
    return tmp_path, pos


def _run(*args, **kw):
    result = CliRunner().invoke(cli, [str(a) for a in args], **kw)
    return result


def _assert_user_error(result, fragment):
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert fragment in lines[0]


def test_solve_table(files):
    _, pos = files
    result = _run("solve", pos, "--time-limit", 30)
    assert result.exit_code == 0, result.output
    assert "total 110" in result.output and "optimal yes" in result.output
    assert "B3.c0 Home" in result.output


@pytest.mark.parametrize("method", ["numba", "cpsat"])
def test_solve_json(files, method):
    _, pos = files
    result = _run("solve", pos, "--json", "--method", method, "--time-limit", 30)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["total"] == 110 and data["optimal"] is True
    assert {r["train_name"] for r in data["routes"]} == {"2", "4/6"}
    # stops by name beside the node ids, and what the position is
    assert (data["title"], data["company"], data["phase"]) == ("tiny", "AA", "2")
    for route in data["routes"]:
        stops = route["stops"]
        assert [s["node"] for s in stops if s["counted"]] == route["counted"]
        assert all(s["name"].startswith(s["hex"]) for s in stops)
    home = [s for r in data["routes"] for s in r["stops"] if s["name"] == "B3.c0"]
    assert home and all(s["location"] == "Home" for s in home)


def test_solve_json_carries_the_position(tmp_path):
    example = json.loads((pathlib.Path(__file__).parent.parent / "engine" / "examples"
                          / "1846-late.json").read_text())  # fmt: skip
    result = _run("solve", "--example", "1846-late", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["extras"] == example["extras"] and data["label"] == "1846 B&O phase IV"
    names = {s["location"] for r in data["routes"] for s in r["stops"]}
    assert "Chicago" in names or "Cincinnati" in names


def test_examples(files, monkeypatch):
    tmp, pos = files
    monkeypatch.setenv("EIGHTEEN_EXAMPLES", str(tmp))
    result = _run("examples")
    assert result.exit_code == 0 and "pos" in result.output and "tiny" in result.output
    result = _run("solve", "--example", "pos", "--json")
    assert result.exit_code == 0 and json.loads(result.output)["total"] == 110
    _assert_user_error(_run("solve", "--example", "nope"), "unknown example 'nope'")


def test_validate(files):
    tmp, pos = files
    routes = tmp / "routes.json"
    routes.write_text(json.dumps([{"train": "4/6", "stops": ["A2", "B3.c0", "C4", "B7"]}]))
    result = _run("validate", pos, routes)
    assert result.exit_code == 0, result.output
    assert "total 90" in result.output
    routes.write_text(json.dumps([{"train": "2", "stops": ["A2", "B3", "C4", "B7"]}]))
    result = _run("validate", pos, routes)
    _assert_user_error(result, "illegal routes")
    routes.write_text(json.dumps([{"train": "8", "stops": ["A2", "B3"]}]))
    _assert_user_error(_run("validate", pos, routes), "no (further) train '8'")
    routes.write_text(json.dumps([{"train": "2", "stops": ["A2", "Q9"]}]))
    _assert_user_error(_run("validate", pos, routes), "no stop or node called 'Q9'")
    routes.write_text("[{")
    _assert_user_error(_run("validate", pos, routes), "invalid JSON")


def test_render(files):
    tmp, pos = files
    out = tmp / "board.svg"
    result = _run("render", pos, "--routes", "-o", out)
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    hexes = [e for e in root.iter(f"{ns}polygon") if e.get("class") == "hex"]
    assert {h.get("data-hex") for h in hexes} >= {"A2", "B3", "B5", "B7", "C4", "C6"}
    tokens = [e for e in root.iter(f"{ns}circle") if e.get("class") == "token"]
    assert {t.get("data-company") for t in tokens} == {"AA", "BB"}
    routes = [e for e in root.iter(f"{ns}polyline") if e.get("class") == "route"]
    assert len(routes) == 2
    # both trains in the company's colour, told apart by their dash patterns
    assert len({r.get("stroke") for r in routes}) == 1
    assert len({r.get("stroke-dasharray") for r in routes}) == 2
    assert all(len(r.get("points").split()) >= 2 for r in routes)
    assert any(e.get("class") == "track" for e in root.iter(f"{ns}path"))
    # without --routes: no route lines
    result = _run("render", pos, "-o", out)
    assert result.exit_code == 0
    root = ET.parse(out).getroot()
    assert not [e for e in root.iter(f"{ns}polyline")]


def test_user_errors_are_one_line(files):
    tmp, pos = files
    _assert_user_error(_run("solve", tmp / "missing.json"), "no such file")
    bad = tmp / "bad.json"
    bad.write_text("{not json")
    _assert_user_error(_run("solve", bad), "invalid JSON")
    bad.write_text(json.dumps({**POS, "trains": ["9"]}))
    _assert_user_error(_run("solve", bad), "unknown train '9'")
    bad.write_text(json.dumps({**POS, "title": "1999"}))
    _assert_user_error(_run("solve", bad), "unknown title")
    bad.write_text(json.dumps({**POS, "tiles": [{"hex": "B3", "tile": "57", "rotation": 1}]}))
    _assert_user_error(_run("solve", bad), "runs off the map")
    result = _run("solve")
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_render_png_and_legend(tmp_path):
    # the optimal routes of 1846-late (670: 4/6 250 + 7/8 420) with a legend line per train,
    # drawn as SVG and as PNG
    svg, png = tmp_path / "b.svg", tmp_path / "b.png"
    for out in (svg, png):
        result = CliRunner().invoke(cli, ["render", "--example", "1846-late", "--routes",
                                          "-o", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
    text = svg.read_text()
    assert "total 670 (proven optimal)" in text
    assert "4/6: " in text and ": 250" in text and "7/8: " in text and ": 420" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_replay_fits_80_columns():
    from engine.app.report import replay

    record = DATA / "records" / "1846" / "222264.json"
    result = CliRunner().invoke(cli, ["replay", str(record)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("action"))
    assert header.split() == ["action", "OR", "company", "phase", "trains", "declared",
                              "ours", "optimum", "gap", "time", "note"]  # fmt: skip
    table = lines[: next(i for i, line in enumerate(lines) if line.startswith("positions"))]
    assert all(len(line) <= 80 and "…" not in line for line in table)
    # each run's row names its operating round ("OR 1.1" -> "1.1")
    body = table[table.index(header) + 2:]  # under the header's rule
    rows = {line.split()[0]: line.split()[1] for line in body if line.split()[0].isdigit()}
    turns = replay(str(record)).turns
    assert turns and rows == {str(t.action_id): t.round.removeprefix("OR ") for t in turns}


EXAMPLES = DATA.parent.parent / "engine" / "examples"


@pytest.mark.parametrize("wrap", ["list", "routes", "action"])
def test_validate_reads_18xx_games_routes(tmp_path, wrap):
    # 1846-late was exported from a record: extras.played_routes are the routes its players
    # declared there (18xx.games train ids and connections), extras.played_total their sum
    example = EXAMPLES / "1846-late.json"
    extras = json.loads(example.read_text())["extras"]
    played = extras["played_routes"]
    assert played and all("connections" in r for r in played)
    data = {"list": played, "routes": {"routes": played},
            "action": {"type": "run_routes", "entity": "B&O", "routes": played}}[wrap]
    routes = tmp_path / "routes.json"
    routes.write_text(json.dumps(data))
    result = _run("validate", example, routes)
    assert result.exit_code == 0, result.output
    assert f"total {extras['played_total']}" in result.output


def test_validate_names_the_route_and_the_connection(tmp_path):
    example = EXAMPLES / "1846-late.json"
    played = json.loads(example.read_text())["extras"]["played_routes"]
    routes = tmp_path / "routes.json"
    first = played[0]["train"]

    def refused(changed, *fragments):
        routes.write_text(json.dumps(changed))
        result = _run("validate", example, routes)
        _assert_user_error(result, "routes.json")
        for fragment in fragments:
            assert fragment in result.output, (fragment, result.output)

    broken = json.loads(json.dumps(played))
    broken[0]["connections"][1] = [*broken[0]["connections"][1][:2], "Q1"]
    refused(broken, f"route 1 (train {first})", "-".join(broken[0]["connections"][1]))
    twice = json.loads(json.dumps(played))
    twice[1]["connections"] = twice[0]["connections"]
    refused(twice, "illegal routes", f"(train {first})", "both run on the track")
    refused([{**played[0], "train": "2-0"}], "route 1 (train 2-0)", "no (further) train '2'")
    refused([{**played[0], "connections": [["D6"], 5]}], "routes[0].connections[1]")
    refused({"type": "lay_tile", "hex": "D6"}, "'lay_tile' action, not run_routes")
