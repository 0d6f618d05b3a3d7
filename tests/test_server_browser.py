"""``eighteen serve`` in a real browser: Debian's headless chromium driven by Playwright
against the real server (uvicorn, its process pool) on a free loopback port.

What the page shows is checked against the library: the drawn routes and revenue against
``routing.solve`` on the problem ``eighteen solve RECORD --action N`` solves
(:func:`engine.app.cli.record_problem`), the what-if table against ``analyse_position``.
Screenshots go to a pytest temporary folder (``EIGHTEEN_SCREENSHOTS=DIR`` keeps them in DIR;
``EIGHTEEN_DOCS_SCREENSHOT=1`` also refreshes ``docs/server.png``).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from tests.server_support import running_server

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed (/usr/bin/chromium; apt-get install chromium): "
        "no browser to drive",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

import routing  # noqa: E402
from engine.app.analysis import analyse_position  # noqa: E402
from engine.app.cli import record_problem  # noqa: E402
from engine.app.report import game_before  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = "record:1846-20381"
RECORD_FILE = ROOT / "engine" / "app" / "server" / "records" / "1846-20381.json"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def server():
    """``eighteen serve --port 0`` in a child process; yields its URL."""
    with running_server(workers=1) as (url, stopped):
        yield url
    assert stopped.clean, "the server did not stop on Ctrl-C"
    assert stopped.returncode == 0, stopped.output
    assert "Traceback" not in stopped.output, stopped.output


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    keep = os.environ.get("EIGHTEEN_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def page(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1500, "height": 1000})
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        pg.errors = []  # type: ignore[attr-defined]
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
        pg.goto(server)
        pg.wait_for_selector("body[data-ready='1']")
        yield pg
        browser.close()


def _open(page, server: str, doc: str, jump: str | None = None) -> None:
    """Load the page on ``doc`` (through its address, as a bookmark would) and go to the
    operating round ``jump``; every test starts here, so that each runs alone too (xdist)."""
    page.goto("about:blank")
    page.goto(f"{server}#doc={doc}")
    page.wait_for_selector("body[data-ready='1']")
    if jump:
        page.fill("#jump", jump)
        page.click("#go")
        page.wait_for_function(
            "j => document.querySelector('#where').textContent.includes('(' + j + ')')", arg=jump
        )
    if doc.startswith("record:"):
        _wait_solved(page, _action_shown(page))


def _screenshot(page, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp.png")
    page.screenshot(path=str(tmp), full_page=True)
    os.replace(tmp, path)  # whole or not at all


def _action_shown(page) -> int:
    m = re.search(r"before action (\d+)", page.inner_text("#where"))
    assert m, page.inner_text("#where")
    return int(m.group(1))


def _wait_solved(page, action: int) -> None:
    page.wait_for_function(
        "n => location.hash.includes('action=' + n) && "
        "document.querySelector('#status').textContent.startsWith('solved')",
        arg=action,
    )


def test_page_loads(page):
    options = page.eval_on_selector_all("#library option", "els => els.map(e => e.value)")
    assert RECORD in options and "example:1846-late" in options
    assert page.errors == []


def test_record_at_named_or_matches_solve(page, shots):
    page.select_option("#library", RECORD)
    page.click("#open")
    page.wait_for_selector("#board-optimal svg polyline.route")
    page.fill("#jump", "OR 2.2")
    page.click("#go")
    page.wait_for_function("document.querySelector('#where').textContent.includes('(OR 2.2)')")
    action = _action_shown(page)
    _wait_solved(page, action)
    # what `eighteen solve RECORD --action N` solves and prints
    problem, _view, _label = record_problem(str(RECORD_FILE), action, None)
    ref = routing.solve(problem, time_limit=10)
    assert page.inner_text("[data-testid=total]") == str(ref.total)
    assert page.inner_text("[data-testid=bound]") == str(ref.bound)
    rows = page.eval_on_selector_all(
        "#legend tbody tr[data-revenue]", "els => els.map(e => +e.dataset.revenue)"
    )
    assert sorted(rows) == sorted(r.revenue for r in ref.routes)
    drawn = page.eval_on_selector_all("#board-optimal svg polyline.route", "els => els.length")
    assert drawn == len(ref.routes)
    # a run_routes: the declared routes beside the optimal ones
    assert page.is_visible("#declared-fig")
    page.wait_for_selector("[data-testid=declared-total]")
    declared = int(page.inner_text("[data-testid=declared-total]"))
    assert declared <= ref.total
    assert page.eval_on_selector_all("#board-declared svg polyline.route", "els => els.length") > 0
    # the run_routes export of the optimal routes
    exported = json.loads(page.input_value("#run-routes-json"))
    assert exported["type"] == "run_routes" and len(exported["routes"]) == len(ref.routes)
    page.click("#copy-json")
    page.wait_for_function("document.querySelector('#copied').textContent.length > 0")
    href = page.get_attribute("#download-svg", "href")
    svg = page.evaluate("u => fetch(u).then(r => r.text())", href)
    assert "<svg" in svg and svg.count('class="route"') == len(ref.routes)
    with page.expect_download() as dl:
        page.click("#download-png")
    png = Path(dl.value.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    _screenshot(page, shots / "record-or-2.2.png")
    assert page.errors == []


def test_step_and_company(page, server):
    _open(page, server, RECORD, "OR 2.2")
    before = _action_shown(page)
    page.click("#next")
    page.wait_for_function(
        "n => !document.querySelector('#where').textContent.includes('action ' + n + ':')",
        arg=before,
    )
    page.click("#prev-run")
    page.wait_for_function(
        "document.querySelector('#where').textContent.includes('run_routes')"
    )
    action = _action_shown(page)
    _wait_solved(page, action)
    companies = page.eval_on_selector_all("#company option", "els => els.map(e => e.value)")
    other = next(c for c in companies if c != page.input_value("#company"))
    page.select_option("#company", other)
    page.wait_for_function(
        "c => location.hash.includes('company=' + encodeURIComponent(c)) && "
        "document.querySelector('#status').textContent.startsWith('solved')",
        arg=other,
    )
    problem, _view, _label = record_problem(str(RECORD_FILE), action, other)
    assert page.inner_text("[data-testid=total]") == str(routing.solve(problem).total)


def test_stock_round_lets_a_company_be_chosen(page, server):
    import httpx

    acts = httpx.get(f"{server}api/documents/{RECORD}/timeline", timeout=60).json()["actions"]
    first_run = next(i for i, a in enumerate(acts) if a["type"] == "run_routes")
    stock = next(a for a in acts[first_run:] if a["round_kind"] == "stock")
    _open(page, server, RECORD)
    page.fill("#jump", str(stock["number"]))  # a stock round: nobody operates
    page.click("#go")
    page.wait_for_selector("#error:not([hidden])")
    assert "choose a company" in page.inner_text("#error")
    page.select_option("#company", "GT")
    page.wait_for_function(
        "location.hash.includes('company=GT') && "
        "document.querySelector('#status').textContent.startsWith('solved')"
    )
    problem, _view, _label = record_problem(str(RECORD_FILE), stock["number"], "GT")
    assert page.is_hidden("#error")
    assert page.inner_text("[data-testid=total]") == str(routing.solve(problem).total)


def test_whatif_matches_analyse_position(page, server, shots):
    _open(page, server, RECORD, "OR 2.2")
    action = _action_shown(page)
    page.fill("#whatif-limit", "10")
    page.click("#analyse")
    page.wait_for_selector("#whatif-chart svg rect.bar")
    rows = page.eval_on_selector_all(
        "#whatif-table tbody tr",
        "els => els.map(e => [e.children[2].textContent, +e.dataset.gain])",
    )
    game = game_before(RECORD_FILE, action).game
    op = game.or_turn.op
    position = game.turn_position(op)
    # the page ranks the position with the treasury known (extras.cash)
    position.extras["cash"] = position.cash
    ref = analyse_position(position, workers=1, time_limit=10)
    gains = {m.label: m.gain for ms in ref.moves.values() for m in ms}
    best = sorted(gains.values(), reverse=True)
    assert rows and all(gains[label] == gain for label, gain in rows)
    assert [g for _, g in rows] == best[: len(rows)]
    bars = page.eval_on_selector_all("#whatif-chart rect.bar", "els => els.length")
    assert bars == min(15, len(gains))
    _screenshot(page, shots / "whatif.png")


def test_history_table(page, server, shots):
    _open(page, server, RECORD)
    page.click("#load-history")
    page.wait_for_selector("#history-table td[data-action]")
    cells = page.eval_on_selector_all("#history-table td[data-action]", "els => els.length")
    from engine.app.report import replay

    report = replay(RECORD_FILE, time_limit=10)
    assert cells == len(report.turns)
    first = report.turns[0]
    text = page.inner_text(f"#history-table td[data-action='{first.action_id}']")
    assert text == f"{first.reference} / {first.optimum}"
    _screenshot(page, shots / "history.png")
    if os.environ.get("EIGHTEEN_DOCS_SCREENSHOT"):
        page.fill("#jump", "OR 3.1")
        page.click("#go")
        page.wait_for_function(
            "document.querySelector('#where').textContent.includes('(OR 3.1)')"
        )
        _wait_solved(page, _action_shown(page))
        page.set_viewport_size({"width": 1500, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")
        tmp = ROOT / "docs" / ".server.png.tmp.png"
        page.screenshot(path=str(tmp), full_page=False)
        os.replace(tmp, ROOT / "docs" / "server.png")


def test_bad_upload_shows_message(page, server, shots):
    _open(page, server, "example:1846-late")
    page.set_input_files(
        "#file", files=[{"name": "broken.json", "mimeType": "application/json",
                         "buffer": b'{"title": "1846", oops}'}],
    )  # fmt: skip
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert "broken.json" in message and "invalid JSON" in message and "line 1" in message
    _screenshot(page, shots / "bad-upload.png")
    page.set_input_files(
        "#file", files=[{"name": "tiny.json", "mimeType": "application/json",
                         "buffer": (ROOT / "engine" / "examples" / "1862-mid.json").read_bytes()}],
    )  # fmt: skip
    page.wait_for_function("document.querySelector('#doc-name').textContent === 'tiny.json'")
    page.wait_for_selector("#board-optimal svg")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('solved')")
    assert page.is_hidden("#error") and page.is_hidden("#nav")


def test_long_job_does_not_block_the_server(server):
    """A what-if ranking runs in the solver process; the server keeps answering."""
    import threading

    import httpx

    done = {}

    def long_job() -> None:
        # one ranking of 1846-late takes about 0.3 s now: several in a row keep the solver
        # process busy long enough for the server to be asked many times meanwhile
        body = {"doc": "example:1846-late", "time_limit": 10, "cache": False}
        t0 = time.perf_counter()
        statuses = {httpx.post(f"{server}api/analyse", json=body, timeout=120).status_code
                    for _ in range(6)}  # fmt: skip
        done["status"] = statuses.pop() if len(statuses) == 1 else statuses
        done["seconds"] = time.perf_counter() - t0

    job = threading.Thread(target=long_job)
    job.start()
    time.sleep(0.05)
    waits = []
    with httpx.Client(timeout=30) as http:
        while job.is_alive() and len(waits) < 50:
            t0 = time.perf_counter()
            assert http.get(f"{server}api/health").status_code == 200
            assert http.get(f"{server}api/library").status_code == 200
            waits.append(time.perf_counter() - t0)
            time.sleep(0.05)
    job.join()
    assert done["status"] == 200
    assert waits, "the analysis ended before the server could be asked"
    assert max(waits) < 1.0, (max(waits), done["seconds"])
