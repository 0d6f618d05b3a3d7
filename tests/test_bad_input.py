"""Every command answers every bad input with one clear line that names the file and the
item: no traceback, no "internal error", no hang, no impossible position answered.

Hand-made files for each class of bad input, then hypothesis-generated mutations of real
positions and records (``-m slow`` runs many more examples).
"""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.app.cli import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "engine" / "examples"
RECORDS = ROOT / "tests" / "data" / "records"
LATE = json.loads((EXAMPLES / "1846-late.json").read_text())
RECORD = json.loads((RECORDS / "1846" / "222264.json").read_text())
#: Wall seconds any refusal may take.
QUICK = 10.0


def _run(*args, stdin: str | None = None):
    t0 = time.perf_counter()
    result = CliRunner().invoke(cli, [str(a) for a in args], input=stdin)
    return result, time.perf_counter() - t0


def _refused(result, seconds: float, *names: str) -> str:
    """The run failed with one line ``Error: ...`` naming every one of ``names``."""
    out = result.output
    assert result.exit_code in (1, 2), out
    assert "Traceback" not in out and "internal error" not in out, out
    assert seconds < QUICK, f"took {seconds:.1f} s"
    line = [ln for ln in out.splitlines() if ln.startswith("Error")]
    assert line, out
    for name in names:
        assert name in out, (name, out)
    return out


def _position(tmp_path: Path, name: str, **changes) -> Path:
    data = json.loads(json.dumps(LATE))
    data.update(changes)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


# ---------------------------------------------------------------- impossible positions
@pytest.mark.parametrize(
    ("name", "changes", "item"),
    [
        # phase IV allows 2 trains: 8 x 7/8 cannot be
        ("eight-78", {"trains": ["7/8"] * 8}, "train limit is 2"),
        # the game has at most 9 2-trains, and they rusted on the first 6 (phase IV)
        ("many-2s", {"trains": ["2"] * 2000}, "rusted"),
        ("cash-negative", {"cash": -5}, "cash must not be negative"),
        ("cash-string", {"cash": "lots"}, "cash must be an integer"),
        ("cash-float", {"cash": 1.5}, "cash must be an integer"),
        ("companies-x", {"extras": {"companies": "x"}}, "extras.companies must be an object"),
        ("owned-twice", {"owned_companies": ["MC", "MC"]}, "MC is owned twice"),
        ("unknown-option", {"options": ["fast_trains"]}, "options[0]"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "analyse", "render"])
def test_impossible_positions_are_refused(tmp_path, command, name, changes, item):
    path = _position(tmp_path, name, **changes)
    extra = ["-o", tmp_path / "b.svg"] if command == "render" else []
    result, seconds = _run(command, path, *extra)
    _refused(result, seconds, path.name, item)


def test_too_many_tokens_and_a_tile_before_its_phase(tmp_path):
    from engine.games import get_title, load_position, position_board

    # 1836Jr-30's Nord has a charter of 4 station tokens and gains none: 5 on the map is
    # impossible
    base = load_position(EXAMPLES / "1836jr30-late.json")
    board = position_board(base)
    taken = {(t.hex, t.city) for t in base.tokens}
    free = [(h, 0) for h in sorted(board.cells) if board.placed(h).tile.cities
            and (h, 0) not in taken and not any(t.hex == h for t in base.tokens)]  # fmt: skip
    assert len(get_title("1836Jr30").data.CORPORATIONS[0]["tokens"]) == 4
    data = json.loads((EXAMPLES / "1836jr30-late.json").read_text())
    have = sum(1 for t in data["tokens"] if t["company"] == data["company"])
    data["tokens"] += [{"hex": h, "city": c, "company": data["company"]}
                       for h, c in free[: 5 - have]]  # fmt: skip
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps(data))
    result, seconds = _run("solve", path)
    _refused(result, seconds, "tokens.json", "5 station tokens on the map but only 4")
    # phase I of 1846 allows yellow tiles only: a green 18 on plain track is refused
    data = {"title": "1846", "phase": "I", "company": "NYC", "trains": ["2"],
            "tiles": [{"hex": "C13", "tile": "18", "rotation": 0}]}  # fmt: skip
    path.write_text(json.dumps(data))
    result, seconds = _run("solve", path)
    _refused(result, seconds, "tokens.json", "tiles[0]", "green")


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ('{"title": "1846", "title": "1846"}', "duplicate key 'title'"),
        ("[" * 5000 + "]" * 5000, "nested more than 64 deep"),
        ('{"title": "1846", "phase": "I", "company": "NYC", "cash": ' + "9" * 5000 + "}",
         "a number with too many digits"),
        ("{", "invalid JSON at line 1 column 2"),
    ],
)  # fmt: skip
def test_unreadable_json_is_named(tmp_path, text, item):
    path = tmp_path / "bad.json"
    path.write_text(text)
    for command in ("solve", "replay"):
        result, seconds = _run(command, path)
        _refused(result, seconds, "bad.json", item)


def test_hex_ids_match_case_insensitively(tmp_path):
    data = json.loads(json.dumps(LATE))
    for t in data["tiles"] + data["tokens"]:
        t["hex"] = t["hex"].lower()
    path = tmp_path / "lower.json"
    path.write_text(json.dumps(data))
    result, _ = _run("solve", path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["total"] == 670


# ---------------------------------------------------------------- files and arguments
def test_files_and_folders(tmp_path):
    for command in ("solve", "replay", "analyse"):
        result, seconds = _run(command, tmp_path)
        _refused(result, seconds, str(tmp_path), "is a directory")
        result, seconds = _run(command, tmp_path / "missing.json")
        _refused(result, seconds, "missing.json", "no such file")
    result, seconds = _run("render", "--example", "1846-late", "-o", tmp_path / "no" / "b.svg")
    _refused(result, seconds, "b.svg", "does not exist")
    assert not list(tmp_path.rglob(".*.tmp"))  # no temporary file left, none named


@pytest.mark.parametrize("value", ["0", "-1", "abc"])
@pytest.mark.parametrize("command", ["solve", "analyse", "replay", "history", "batch"])
def test_time_limit_means_one_thing(tmp_path, command, value):
    target = RECORDS / "1846" / "222264.json"
    extra = {"history": ["-o", tmp_path / "h.html"], "batch": ["--out", tmp_path / "o.csv"]}
    result, seconds = _run(command, target, "--time-limit", value, *extra.get(command, []))
    _refused(result, seconds, "--time-limit")
    assert not list(tmp_path.glob("*.journal"))  # refused before any journal is written


def test_record_errors_name_the_record(tmp_path):
    data = json.loads(json.dumps(RECORD))
    data["players"] = []
    path = tmp_path / "noplayers.json"
    path.write_text(json.dumps(data))
    for command in ("replay", "history"):
        extra = ["-o", tmp_path / "h.html"] if command == "history" else []
        result, seconds = _run(command, path, *extra)
        _refused(result, seconds, "noplayers", "no players")


def test_user_names_print_as_they_are(tmp_path):
    data = json.loads(json.dumps(RECORD))
    data["players"][0]["name"] = "[/]"
    data["players"][1]["name"] = "[red]Bob"
    path = tmp_path / "[red]z.json"
    path.write_text(json.dumps(data))
    result, _ = _run("replay", path)
    assert result.exit_code == 0, result.output
    assert "[/]" in result.output and "[red]Bob" in result.output


def test_standard_input_and_version():
    result, _ = _run("solve", "-", "--json", stdin=json.dumps(LATE))
    assert result.exit_code == 0 and json.loads(result.output)["total"] == 670
    result, seconds = _run("solve", "-", stdin="{")
    _refused(result, seconds, "standard input", "invalid JSON")
    result, _ = _run("--version")
    assert result.exit_code == 0 and "eighteen" in result.output
    result, _ = _run("solve", "-h")
    assert result.exit_code == 0 and "--no-time-limit" in result.output


# ---------------------------------------------------------------- generated inputs
_ANY = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)  # fmt: skip
_FIELDS = ["title", "phase", "company", "trains", "tiles", "tokens", "owned_companies",
           "assignments", "extras", "cash", "turn", "options"]  # fmt: skip


_FUZZ = {"deadline": None, "suppress_health_check": list(HealthCheck)}
#: Examples per generated-input test in the default run, and with ``-m slow``.
_FEW, _MANY = 40, 1000


def _answered_or_refused(result, seconds: float, name: str, *items: str) -> None:
    if result.exit_code != 0:
        _refused(result, seconds, name, *items)
    else:
        assert "Traceback" not in result.output and seconds < QUICK + 5


def _check_generated_position(tmp_path_factory, field, value) -> None:
    data = json.loads(json.dumps(LATE))
    data[field] = value
    path = tmp_path_factory.mktemp("pos") / "gen.json"
    path.write_text(json.dumps(data))
    result, seconds = _run("solve", path, "--time-limit", 5)
    _answered_or_refused(result, seconds, "gen.json")


@settings(max_examples=_FEW, **_FUZZ)
@given(field=st.sampled_from(_FIELDS), value=_ANY)
def test_generated_positions_are_answered_or_refused(tmp_path_factory, field, value):
    _check_generated_position(tmp_path_factory, field, value)


@pytest.mark.slow
@settings(max_examples=_MANY, **_FUZZ)
@given(field=st.sampled_from(_FIELDS), value=_ANY)
def test_many_generated_positions_are_answered_or_refused(tmp_path_factory, field, value):
    _check_generated_position(tmp_path_factory, field, value)


def _check_generated_record(tmp_path_factory, index, key, value) -> None:
    data = json.loads(json.dumps(RECORD))
    data["actions"][index][key] = value
    path = tmp_path_factory.mktemp("rec") / "gen.json"
    path.write_text(json.dumps(data))
    result, seconds = _run("replay", path)
    if result.exit_code != 0:
        _refused(result, seconds, "gen")
    else:
        assert "Traceback" not in result.output


_RECORD_CHANGES = {
    "index": st.integers(0, len(RECORD["actions"]) - 1),
    "key": st.sampled_from(["type", "entity", "hex", "tile", "rotation", "routes", "city",
                            "train", "price", "shares"]),
    "value": _ANY,
}  # fmt: skip


@settings(max_examples=25, **_FUZZ)
@given(**_RECORD_CHANGES)
def test_generated_records_are_replayed_or_refused(tmp_path_factory, index, key, value):
    _check_generated_record(tmp_path_factory, index, key, value)


@pytest.mark.slow
@settings(max_examples=_MANY, **_FUZZ)
@given(**_RECORD_CHANGES)
def test_many_generated_records_are_replayed_or_refused(tmp_path_factory, index, key, value):
    _check_generated_record(tmp_path_factory, index, key, value)


# generated ROUTES files for validate on a real exported position (1846-late: its
# extras.played_routes are 18xx.games routes); the hexes and stops are the board's own
_PLAYED = LATE["extras"]["played_routes"]
_REAL_CONNECTIONS = [c for r in _PLAYED for c in r["connections"]]
_HEXES = sorted({h for c in _REAL_CONNECTIONS for h in c} | {"A1", "Z99", "d6"})
_HEX = st.sampled_from(_HEXES) | st.text(max_size=5)


def _changed(connection: list, at: int, hex_: str, cut: bool) -> list:
    """A real connection with one hex replaced, or cut short there."""
    k = at % len(connection)
    return connection[:k] if cut else [*connection[:k], hex_, *connection[k + 1:]]


_CONNECTION = st.one_of(
    st.sampled_from(_REAL_CONNECTIONS),
    st.sampled_from(_REAL_CONNECTIONS).map(lambda c: c[::-1]),
    st.builds(_changed, st.sampled_from(_REAL_CONNECTIONS), st.integers(0, 9), _HEX,
              st.booleans()),
    st.lists(_HEX, max_size=4),
    st.builds(lambda h, a, b: [f"{h} {a}.{b}"], _HEX, st.integers(-1, 9), st.integers(-1, 9)),
    _ANY,
)  # fmt: skip
_TRAIN_ID = st.sampled_from([r["train"] for r in _PLAYED] + ["2-0", "4-1", "5", "4/6", ""])
_ROUTE_18XX = st.fixed_dictionaries(
    {"train": _TRAIN_ID, "connections": st.lists(_CONNECTION, max_size=4)},
    optional={"nodes": st.lists(st.builds(lambda h, p: f"{h}-{p}", _HEX, st.integers(-1, 9)),
                                max_size=4),
              "revenue": _ANY},
)  # fmt: skip
_ROUTE_STOPS = st.fixed_dictionaries(
    {"train": st.sampled_from(LATE["trains"] + ["9"]) | st.integers(-2, 3) | _ANY,
     "stops": st.lists(_HEX | st.builds(lambda h, c: f"{h}.c{c}", _HEX, st.integers(0, 3))
                       | st.integers(-2, 400), max_size=6) | _ANY}
)  # fmt: skip


def _played_mutation(index: int, route: dict) -> list:
    """The routes played in 1846-late with one route replaced."""
    routes = json.loads(json.dumps(_PLAYED))
    routes[index % len(routes)] = route
    return routes


def _played_with(index: int, at: int, connection) -> list:
    """The routes played in 1846-late with one connection replaced."""
    routes = json.loads(json.dumps(_PLAYED))
    conns = routes[index % len(routes)]["connections"]
    conns[at % len(conns)] = connection
    return routes


_ROUTES_FILES = st.one_of(
    _ANY,
    st.lists(_ROUTE_18XX, min_size=1, max_size=3),
    st.lists(_ROUTE_18XX, min_size=1, max_size=3),
    st.lists(_ROUTE_STOPS, max_size=3),
    st.builds(_played_mutation, st.integers(0, 1), _ROUTE_18XX),
    st.builds(_played_with, st.integers(0, 1), st.integers(0, 9), _CONNECTION),
    st.lists(st.fixed_dictionaries({"train": _ANY, "connections": _ANY}), max_size=2),
    st.builds(lambda routes, kind: {"type": kind, "entity": "B&O", "routes": routes},
              st.lists(_ROUTE_18XX, max_size=2), st.sampled_from(["run_routes", "pass"])),
)  # fmt: skip


def _check_generated_routes(tmp_path_factory, routes) -> None:
    path = tmp_path_factory.mktemp("routes") / "gen-routes.json"
    path.write_text(json.dumps(routes))
    result, seconds = _run("validate", EXAMPLES / "1846-late.json", path)
    item = "route" if isinstance(routes, list | dict) else "gen-routes.json"
    _answered_or_refused(result, seconds, "gen-routes.json", item)


@settings(max_examples=30, **_FUZZ)  # a legal set costs a full solve (compare): fewer
@given(routes=_ROUTES_FILES)
def test_generated_routes_are_scored_or_refused(tmp_path_factory, routes):
    _check_generated_routes(tmp_path_factory, routes)


@pytest.mark.slow
@settings(max_examples=_MANY, **_FUZZ)
@given(routes=_ROUTES_FILES)
def test_many_generated_routes_are_scored_or_refused(tmp_path_factory, routes):
    _check_generated_routes(tmp_path_factory, routes)


# ---------------------------------------------------------------- analyse: every company
MID = json.loads((EXAMPLES / "1846-mid.json").read_text())


def test_analyse_another_company_ranks_its_moves():
    # 1846-mid is PRR's turn; the position gives NYC's trains (extras.companies)
    result, _ = _run("analyse", "--example", "1846-mid", "--company", "NYC", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["company"] == "NYC"
    assert data["moves"]["tile"] and data["moves"]["train"]
    rows = {c["company"]: c for c in data["companies"]}
    assert rows["PRR"]["trains"] == MID["trains"] and rows["PRR"]["revenue"] is not None
    assert rows["NYC"]["trains"] == MID["extras"]["companies"]["NYC"]["trains"]
    # NYC has all four of its station tokens on the map: no token move, and that is said
    assert sum(t["company"] == "NYC" for t in MID["tokens"]) == 4
    assert data["no_moves"] == {"token": "all of NYC's station tokens are placed"}
    assert any("PRR's turn" in note for note in data["notes"])


def test_analyse_another_company_with_its_cash(tmp_path):
    data = json.loads(json.dumps(MID))
    data["extras"]["companies"]["NYC"]["cash"] = 0
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(data))
    result, _ = _run("analyse", path, "--company", "NYC", "--kinds", "train")
    assert result.exit_code == 0, result.output
    assert "no train moves of NYC: NYC cannot afford any train on sale (cash 0)" in result.output
    assert "no cash given" not in result.output


def test_analyse_another_company_without_its_trains_is_refused(tmp_path):
    data = json.loads(json.dumps(MID))
    del data["extras"]["companies"]["NYC"]
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(data))
    result, seconds = _run("analyse", path, "--company", "NYC")
    out = _refused(result, seconds, "mid.json", "trains of NYC are unknown",
                   "extras.companies.NYC.trains")  # fmt: skip
    assert "PRR, B&O" in out  # the companies whose trains it does give
    result, seconds = _run("analyse", path, "--company", "XYZ")
    _refused(result, seconds, "mid.json", "'XYZ' is not on the board")


def test_analyse_says_why_a_kind_has_no_move(tmp_path):
    data = json.loads(json.dumps(MID))
    data["cash"] = 0
    data["turn"] = {"tiles_laid": ["E11"]}
    path = tmp_path / "poor.json"
    path.write_text(json.dumps(data))
    result, _ = _run("analyse", path)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "no tile moves of PRR: PRR has made its tile lays this turn (on E11)" in out
    assert "no train moves of PRR: PRR cannot afford any train on sale (cash 0)" in out
    assert "no token moves of PRR: PRR cannot place a token" in out
    assert "┃ move" not in out  # no empty tables


# ---------------------------------------------------------------- batch
def test_batch_counts_every_input_as_an_item(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(LATE))
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "latin1.jsonl").write_bytes(b"\xff\xfe{}\n")
    (tmp_path / "empty").mkdir()
    inputs = [good, tmp_path / "bad.json", tmp_path / "missing.json", tmp_path / "none*.json",
              tmp_path / "empty", tmp_path / "latin1.jsonl"]  # fmt: skip
    result, _ = _run("batch", *inputs, "--scheduler", "synchronous", "-o", tmp_path / "o.csv")
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    # one item per input, and every input but the good one failed, named
    assert f"from {len(inputs)} items" in result.output, result.output
    assert f"{len(inputs) - 1} failed" in result.output
    for path in inputs[1:]:
        assert f"  {path}: " in result.output, path


# ---------------------------------------------------------------- output files
class _FullDisk:
    """A file whose writes stop half-way with ENOSPC, as on a full disk."""

    def __init__(self, *args, **kwargs) -> None:
        import builtins

        self.fh = builtins.open(*args, **kwargs)  # noqa: SIM115 - closed by __exit__

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.fh.close()

    def write(self, data) -> int:
        self.fh.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_the_old_file(tmp_path, monkeypatch):
    from engine.app import files

    out = tmp_path / "out.svg"
    result, _ = _run("render", "--example", "1846-early", "-o", out)
    assert result.exit_code == 0, result.output
    good = out.read_bytes()
    monkeypatch.setattr(files, "open", _FullDisk, raising=False)
    result, seconds = _run("render", "--example", "1846-late", "-o", out)
    out_text = _refused(result, seconds, "out.svg", os.strerror(errno.ENOSPC))
    assert ".tmp" not in out_text and "Errno" not in out_text
    assert out.read_bytes() == good  # the good file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]  # no temporary file


# ---------------------------------------------------------------- the same everywhere
def test_validate_and_play_read_like_every_command(tmp_path):
    example = EXAMPLES / "1846-late.json"
    played = json.dumps(LATE["extras"]["played_routes"])
    result, _ = _run("validate", example, "-", stdin=played)
    assert result.exit_code == 0 and f"total {LATE['extras']['played_total']}" in result.output
    result, seconds = _run("validate", example, "-", stdin="[")
    _refused(result, seconds, "standard input", "invalid JSON")
    result, seconds = _run("validate", example, tmp_path / "r.json", "--time-limit", "0")
    _refused(result, seconds, "--time-limit")
    assert "--no-time-limit" in _run("validate", "-h")[0].output
    # a folder given as a save gets the one-line error a missing save gets, exit status 1
    for path, item in ((tmp_path, "is a directory"), (tmp_path / "none.json", "no such file")):
        result, seconds = _run("play", "--load", path)
        _refused(result, seconds, str(path), item)
        assert result.exit_code == 1
    save = tmp_path / "s.json"
    result, _ = _run("play", "1846", "--bots", "--max-actions", 30, "--save", save)
    assert result.exit_code == 0, result.output
    loaded, _ = _run("play", "--load", "-", stdin=save.read_text())
    assert loaded.exit_code == 0 and loaded.output == result.output


def test_workers_are_capped_at_the_cores(tmp_path, monkeypatch):
    from engine.app import batch

    cores = os.cpu_count() or 1
    note = f"--workers {cores + 5} is more than this machine's {cores} cores; using {cores}"
    result, _ = _run("analyse", "--example", "1846-early", "--kinds", "token",
                     "--workers", cores + 5)  # fmt: skip
    assert result.exit_code == 0 and note in result.output, result.output
    asked = []

    def run_batch(inputs, out, settings, scheduler, workers, retry_failed, progress):
        asked.append(workers)
        return batch.BatchResult([], [], 0, 0, 0.0, Path(out), batch.journal_path(out))

    monkeypatch.setattr(batch, "run_batch", run_batch)
    result, _ = _run("batch", EXAMPLES, "-o", tmp_path / "o.csv", "--workers", cores + 5)
    assert result.exit_code == 0 and note in result.output and asked == [cores], result.output
