"""``eighteen serve``'s JSON API, through the ASGI app in this process (httpx TestClient).

Every endpoint is called with good requests, checked against the library functions it wraps
(``routing.solve`` on ``route_problem``, ``analyse_position`` on ``turn_position``,
``routing.validate``), and with bad ones: each must answer 4xx with ``{"error": ...}``
naming the item, never a 500.  Jobs run in threads here (``Workers(0)``); the browser test
drives the real server with its process pool.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import routing  # noqa: E402
from engine.app.analysis import analyse_position  # noqa: E402
from engine.app.cli import record_problem  # noqa: E402
from engine.app.report import game_before  # noqa: E402
from engine.app.server import create_app  # noqa: E402
from engine.app.server.service import MAX_UPLOAD_BYTES  # noqa: E402
from engine.app.server.work import Workers  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = "record:1846-20381"
RECORD_FILE = ROOT / "engine" / "app" / "server" / "records" / "1846-20381.json"
SAVE_LIKE = ROOT / "tests" / "data" / "records" / "1836jr56" / "hotseat003.json"
EXAMPLE = "example:1846-late"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Workers(0))) as c:
        yield c


@pytest.fixture(scope="module")
def timeline(client):
    r = client.get(f"/api/documents/{RECORD}/timeline")
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture(scope="module")
def run_action(timeline):
    """A run_routes action in OR 2.1 of the bundled 1846 record."""
    runs = [a for a in timeline["actions"] if a["type"] == "run_routes" and a["round"] == "OR 2.1"]
    assert runs
    return runs[0]


def _error(r, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error"}, body
    for w in words:
        assert w.lower() in body["error"].lower(), body["error"]
    return body["error"]


# ------------------------------------------------------------------ meta and documents
def test_health_library_openapi(client):
    assert client.get("/api/health").json()["status"] == "ok"
    lib = client.get("/api/library").json()
    assert {e["id"] for e in lib["examples"]} >= {"example:1846-early", "example:1862-late"}
    assert {r["id"] for r in lib["records"]} == {RECORD, "record:1836jr56-hotseat003"}
    spec = client.get("/api/openapi.json").json()
    for path in ("/api/solve", "/api/analyse", "/api/validate", "/api/run_routes",
                 "/api/board.svg", "/api/documents", "/api/documents/{doc}/timeline"):
        assert path in spec["paths"], path
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert "fetch(" in client.get("/static/app.js").text


def test_document_summary_and_unknown(client):
    doc = client.get(f"/api/documents/{EXAMPLE}").json()
    assert doc["kind"] == "position" and doc["title"] == "1846"
    _error(client.get("/api/documents/nope"), 404, "unknown document", "nope")
    _error(client.get("/api/documents/..%2F..%2Fetc%2Fpasswd"), 404)
    _error(client.get("/api/nothing"), 404, "no such endpoint")
    _error(client.delete("/api/solve"), 405, "not allowed")


def test_upload_json_and_form(client):
    raw = RECORD_FILE.read_bytes()
    r = client.post("/api/documents?name=mine.json", content=raw,
                    headers={"content-type": "application/json"})  # fmt: skip
    assert r.status_code == 201, r.text
    doc = r.json()
    assert doc["id"].startswith("upload:") and doc["kind"] == "record"
    assert doc["name"] == "mine.json"
    again = client.post("/api/documents", files={"file": ("x.json", raw, "application/json")})
    assert again.status_code == 201 and again.json()["id"] == doc["id"]
    pos = (ROOT / "engine" / "examples" / "1842-mid.json").read_bytes()
    p = client.post("/api/documents", content=pos, headers={"content-type": "application/json"})
    assert p.status_code == 201 and p.json()["kind"] == "position"
    s = client.post("/api/solve", json={"doc": p.json()["id"], "time_limit": 10})
    assert s.status_code == 200 and s.json()["optimal"]


def test_upload_refusals(client):
    _error(client.post("/api/documents", content=b"{not json"), 400, "invalid JSON", "line 1")
    _error(client.post("/api/documents", content=b""), 400, "empty")
    _error(client.post("/api/documents", content=b"[1, 2]"), 400, "JSON object")
    _error(client.post("/api/documents", content=b"\xff\xfe\x00"), 400, "UTF-8")
    _error(client.post("/api/documents?name=../../x.json", content=b'{"title": "1846"}'),
           400, "x.json")  # fmt: skip
    unknown = b'{"title": "9999", "actions": [], "players": [{"id": 1, "name": "a"}]}'
    _error(client.post("/api/documents", content=unknown), 400, "9999")
    big = b" " * (MAX_UPLOAD_BYTES + 1)
    _error(client.post("/api/documents", content=big), 413, "5 MB", str(MAX_UPLOAD_BYTES))

    def chunks():  # no Content-Length: the limit holds while reading
        for _ in range(6):
            yield b" " * (1024 * 1024)

    _error(client.post("/api/documents", content=chunks()), 413, "5 MB")
    _error(client.post("/api/documents", files={"other": ("a", b"{}")}), 400, "file")


# ------------------------------------------------------------------ timeline and positions
def test_timeline(timeline):
    acts = timeline["actions"]
    assert timeline["finished"] and len(acts) > 200
    assert [a["index"] for a in acts] == list(range(len(acts)))
    runs = [a for a in acts if a["type"] == "run_routes"]
    assert runs
    assert all(a["round"].startswith("OR ") and a["operating"] == a["entity"] for a in runs)
    assert not any(a["refused"] for a in acts)


def test_position_at_run(client, run_action):
    n = run_action["number"]
    r = client.get(f"/api/documents/{RECORD}/position", params={"action": n})
    assert r.status_code == 200, r.text
    pos = r.json()
    rep = game_before(RECORD_FILE, n)
    op = rep.game.or_turn.op
    assert pos["company"] == pos["operating"] == op == run_action["entity"]
    assert pos["round"] == "OR 2.1" and pos["next"]["type"] == "run_routes"
    assert pos["declared"]["routes"]
    assert pos["train_ids"] == [t.id for t in rep.game.runnable_trains(op)]
    assert pos["position"]["company"] == op
    other = next(c["company"] for c in pos["companies"] if c["company"] != op)
    r2 = client.get(f"/api/documents/{RECORD}/position", params={"action": n, "company": other})
    assert r2.json()["company"] == other and r2.json()["declared"] is None


def test_position_refusals(client, timeline):
    _error(client.get(f"/api/documents/{RECORD}/position", params={"action": 999999}),
           400, "no action 999999")  # fmt: skip
    _error(client.get(f"/api/documents/{RECORD}/position", params={"action": "x"}), 422, "action")
    first = timeline["actions"][0]["number"]  # the private auction: nobody operates
    _error(client.get(f"/api/documents/{RECORD}/position", params={"action": first}),
           400, "no company is operating", "choose a company")  # fmt: skip
    run = next(a for a in timeline["actions"] if a["type"] == "run_routes")
    _error(client.get(f"/api/documents/{RECORD}/position",
                      params={"action": run["number"], "company": "XYZ"}),
           400, "unknown company", "XYZ")  # fmt: skip
    _error(client.get(f"/api/documents/{EXAMPLE}/position", params={"action": 3}),
           400, "position", "no actions")  # fmt: skip
    _error(client.get(f"/api/documents/{EXAMPLE}/timeline"), 400, "not a game record")


# ------------------------------------------------------------------ solve, export, validate
def test_solve_equals_routing_solve(client, run_action):
    n = run_action["number"]
    r = client.post("/api/solve", json={"doc": RECORD, "action": n, "time_limit": 10})
    assert r.status_code == 200, r.text
    sol = r.json()
    game = game_before(RECORD_FILE, n).game
    problem, view = game.route_problem(sol["company"], full_board=True)
    ref = routing.solve(problem, time_limit=10)
    assert (sol["total"], sol["optimal"], sol["bound"]) == (ref.total, ref.optimal, ref.bound)
    assert sorted(r["revenue"] for r in sol["routes"]) == sorted(x.revenue for x in ref.routes)
    scored = routing.validate(problem, [(r["train_index"], r["nodes"]) for r in sol["routes"]])
    assert scored.total == sol["total"]
    # the run_routes export reads back onto the board as the same routes
    action = sol["run_routes"]
    assert action["type"] == "run_routes" and action["entity"] == sol["company"]
    read = game.read_routes(sol["company"], action["routes"], problem, view)
    again = routing.validate(problem, [(d.train_index, d.readings[0][0]) for d in read])
    assert again.total == sol["total"]
    exported = client.post("/api/run_routes", json={"doc": RECORD, "action": n}).json()
    assert exported == action
    check = client.post("/api/validate",
                        json={"doc": RECORD, "action": n, "routes": action["routes"]}).json()
    assert check["legal"] and check["total"] == sol["total"]


def test_solve_example_and_other_company(client):
    sol = client.post("/api/solve", json={"doc": EXAMPLE}).json()
    from engine.games import build_problem

    problem, _ = build_problem(ROOT / "engine" / "examples" / "1846-late.json")
    assert sol["total"] == routing.solve(problem, time_limit=10).total
    assert all(rt["train_id"] for rt in sol["routes"])
    other = client.post("/api/solve", json={"doc": "example:1846-mid", "company": "NOPE"})
    _error(other, 400, "unknown company", "NOPE")


def test_validate_declared_and_bad_routes(client, run_action):
    n = run_action["number"]
    ok = client.post("/api/validate", json={"doc": RECORD, "action": n})
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["legal"] and body["source"] == "record"
    assert body["total"] == body["stored_revenue"]
    # a stop list on the position: one stop is no route
    sol = client.post("/api/solve", json={"doc": EXAMPLE}).json()
    route = sol["routes"][0]
    stops = [s["name"] for s in route["stops"]]
    good = client.post("/api/validate", json={"doc": EXAMPLE, "routes": [
        {"train": route["train_index"], "stops": stops}]}).json()  # fmt: skip
    assert good["legal"] and good["total"] >= route["stop_revenue"]
    bad = client.post("/api/validate", json={"doc": EXAMPLE, "routes": [
        {"train": route["train_index"], "stops": stops[:1]}]}).json()  # fmt: skip
    assert bad["legal"] is False and "illegal routes" in bad["error"]
    _error(client.post("/api/validate", json={"doc": EXAMPLE, "routes": [{"train": 0}]}),
           400, "routes[0]", "stops")  # fmt: skip
    _error(client.post("/api/validate", json={"doc": EXAMPLE, "routes": [
        {"train": 0, "stops": ["ZZ99"]}]}), 400, "routes[0].stops[0]", "ZZ99")  # fmt: skip
    _error(client.post("/api/validate", json={"doc": EXAMPLE, "routes": [
        {"train": 7, "stops": ["x"]}]}), 400, "routes[0].train")  # fmt: skip
    _error(client.post("/api/validate", json={"doc": EXAMPLE}), 400, "routes", "none given")
    _error(client.post("/api/validate", json={"doc": RECORD, "action": n, "routes": [
        {"train": "9-9", "connections": [["B8", "B10"]]}]}), 422, "9-9")  # fmt: skip
    _error(client.post("/api/validate", json={"doc": RECORD, "action": n, "routes": [
        {"train": "2-4", "connections": "B8"}]}), 400, "connections")  # fmt: skip


# ------------------------------------------------------------------ analyse, render, history
def test_analyse_equals_analyse_position(client, run_action):
    n = run_action["number"]
    r = client.post("/api/analyse", json={"doc": RECORD, "action": n, "kinds": ["tile"],
                                          "time_limit": 10, "top": 1000})  # fmt: skip
    assert r.status_code == 200, r.text
    res = r.json()
    game = game_before(RECORD_FILE, n).game
    ref = analyse_position(game.turn_position(res["company"]), kinds=("tile",), workers=1,
                           time_limit=10)  # fmt: skip
    assert res["revenue"] == ref.revenue
    assert sorted((m["label"], m["revenue"]) for m in res["moves"]["tile"]) == sorted(
        (m.label, m.revenue) for m in ref.moves["tile"]
    )
    assert res["counts"]["tile"] == len(ref.moves["tile"])
    _error(client.post("/api/analyse", json={"doc": RECORD, "action": n, "kinds": ["dance"]}),
           422, "kinds")  # fmt: skip
    _error(client.post("/api/analyse", json={"doc": RECORD, "action": n, "kinds": []}),
           422, "kinds")  # fmt: skip


def test_board_svg(client, run_action):
    n = run_action["number"]
    sol = client.post("/api/solve", json={"doc": RECORD, "action": n}).json()
    r = client.get("/api/board.svg", params={"doc": RECORD, "action": n})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.count('class="route"') == len(sol["routes"])
    assert f"optimal {sol['total']}" in r.text
    d = client.get("/api/board.svg", params={"doc": RECORD, "action": n, "routes": "declared",
                                             "download": "true"})  # fmt: skip
    assert d.status_code == 200 and "attachment" in d.headers["content-disposition"]
    assert 'class="route"' in d.text
    plain = client.get("/api/board.svg", params={"doc": EXAMPLE, "routes": "none"})
    assert plain.status_code == 200 and 'class="route"' not in plain.text
    _error(client.get("/api/board.svg", params={"doc": EXAMPLE, "routes": "declared"}),
           400, "declared")  # fmt: skip
    _error(client.get("/api/board.svg", params={"doc": EXAMPLE, "routes": "best"}), 422, "routes")
    _error(client.get("/api/board.svg"), 422, "doc")


def test_history(client):
    r = client.get(f"/api/documents/{RECORD}/history", params={"time_limit": 10})
    assert r.status_code == 200, r.text
    rep = r.json()
    assert rep["turns"] and all(t["round"].startswith("OR ") for t in rep["turns"])
    assert all(t["optimum"] >= (t["scored"] or 0) for t in rep["turns"])
    _error(client.get(f"/api/documents/{RECORD}/history", params={"time_limit": 0}), 422,
           "time_limit")  # fmt: skip


# ------------------------------------------------------------------ fuzz
_ENDPOINTS = ["/api/solve", "/api/run_routes", "/api/validate", "/api/analyse"]
_VALUES = [None, True, -1, 0, 1.5, 10**12, "", "x" * 300, "example:1846-late", RECORD,
           "upload:0", [], [1], {}, {"a": 1}, "OR 3.2", float("inf")]  # fmt: skip
_KEYS = ["doc", "action", "company", "time_limit", "routes", "kinds", "top", "cache", "zzz"]


def _fuzz_bodies(n: int, seed: int = 17):
    rng = random.Random(seed)
    yield b"", "application/json"
    yield b"null", "application/json"
    yield b"[]", "application/json"
    yield b'{"doc": ', "application/json"
    yield b'{"doc": "example:1846-late"}', "text/plain"
    yield b"\x00\xff", "application/octet-stream"
    yield b"[" * 5000 + b"]" * 5000, "application/json"
    for _ in range(n):
        body = {}
        for k in rng.sample(_KEYS, rng.randint(0, 5)):
            body[k] = rng.choice(_VALUES)
        if rng.random() < 0.5:
            body["doc"] = rng.choice(["example:1846-late", "example:1812-mid", RECORD])
        if rng.random() < 0.3:
            body["routes"] = [rng.choice([{}, {"train": rng.choice(_VALUES),
                                               "stops": rng.choice(_VALUES)},
                                          {"train": "2-4", "connections": [[rng.choice(_VALUES)]]},
                                          ])]  # fmt: skip
        try:
            raw = json.dumps(body, allow_nan=True).encode()
        except (TypeError, ValueError):
            continue
        yield raw, "application/json"


def test_fuzz_endpoints_never_500(client, run_action):
    n_ok = 0
    for raw, ctype in _fuzz_bodies(120):
        for path in _ENDPOINTS:
            body = raw
            if path == "/api/analyse" and b'"kinds"' not in raw and raw.startswith(b"{\"doc"):
                # keep the fuzz quick: rank train purchases only
                body = raw[:-1] + b', "kinds": ["train"]}' if raw.endswith(b"}") else raw
            r = client.post(path, content=body, headers={"content-type": ctype})
            assert r.status_code < 500, (path, body[:200], r.text)
            if r.status_code >= 400:
                assert "error" in r.json() and r.json()["error"], (path, body[:200], r.text)
            else:
                n_ok += 1
    # the GET endpoints with bad parameters
    for params in ({"doc": "x"}, {"doc": RECORD, "action": "7.5"}, {"doc": RECORD, "action": -1},
                   {"doc": EXAMPLE, "company": "x" * 41}, {"doc": EXAMPLE, "time_limit": "nan"},
                   {"doc": EXAMPLE, "time_limit": 1e9}):  # fmt: skip
        r = client.get("/api/board.svg", params=params)
        assert 400 <= r.status_code < 500 and r.json()["error"], (params, r.text)
        doc = params["doc"]
        p = client.get(f"/api/documents/{doc}/position", params=params)
        assert p.status_code < 500, (params, p.text)
    assert n_ok > 0  # some random bodies are good requests


def test_play_save_upload(client, tmp_path):
    from click.testing import CliRunner

    from engine.app.cli import cli

    save = tmp_path / "game.json"
    res = CliRunner().invoke(cli, ["play", "1846", "--players", "3", "--seed", "2", "--bots",
                                   "--max-actions", "2000", "--no-check", "--save", str(save)])
    assert res.exit_code == 0, res.output
    up = client.post("/api/documents?name=game.json", content=save.read_bytes())
    assert up.status_code == 201, up.text
    doc = up.json()
    assert doc["kind"] == "save" and doc["title"] == "1846"
    tl = client.get(f"/api/documents/{doc['id']}/timeline").json()
    run = next(a for a in tl["actions"] if a["type"] == "run_routes")
    assert run["number"] == run["index"] + 1  # a save numbers its actions from 1
    sol = client.post("/api/solve", json={"doc": doc["id"], "action": run["number"]}).json()
    problem, _view, _label = record_problem(str(save), run["number"], None)
    assert sol["company"] == run["entity"]
    assert sol["total"] == routing.solve(problem, time_limit=10).total


def test_serve_command_options():
    from click.testing import CliRunner

    from engine.app.cli import cli
    from engine.app.cli_serve import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert is_loopback("127.8.9.10") and not is_loopback("0.0.0.0")
    assert not is_loopback("192.168.1.4") and not is_loopback("example.org")
    res = CliRunner().invoke(cli, ["serve", "--help"])
    assert res.exit_code == 0 and "--port" in res.output and "--open" in res.output
    bad = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert bad.exit_code == 2 and "70000" in bad.output
