"""Game history (engine.app.history, ``eighteen history``): OR labels, the HTML page, plots, boards.

The page is checked against a replay report computed here independently; the record is
16904 (1846 2p Variant, 267 actions, 30 operating turns with stored revenues, 13 of them
beaten by the optimum).
"""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.app import files
from engine.app import history as hist
from engine.app.cli import cli
from engine.app.report import replay
from engine.games import load_record

RECORD = Path(__file__).parent / "data" / "records" / "18462pVariant" / "16904.json"
TIME_LIMIT = 10.0  # every position here is proven in well under a second


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def report():
    return replay(RECORD, time_limit=TIME_LIMIT)


@pytest.fixture(scope="module")
def history():
    return hist.game_history(RECORD, time_limit=TIME_LIMIT)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("history") / "h.html"
    result = _run("history", RECORD, "-o", out, "--boards", "1", "--time-limit", TIME_LIMIT)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote {out}")
    return out.read_text(encoding="utf-8")


class _Page(HTMLParser):
    """Collects turn rows (their data-* attributes and enclosing OR), images and boards."""

    def __init__(self):
        super().__init__()
        self.rows, self.images, self.summary = [], [], {}
        self.section = None
        self._dd = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "or":
            self.section = a["data-round"]
        elif tag == "tr" and "turn" in (a.get("class") or "").split():
            self.rows.append({**a, "section": self.section})
        elif tag == "img":
            self.images.append(a)
        elif tag == "dd":
            self._dd = a.get("data-key")

    def handle_data(self, data):
        if self._dd:
            self.summary[self._dd] = data
            self._dd = None


def _parse(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    return p


# ---------------------------------------------------------------------------- OR labels
def _a(i, et, entity, kind, **kw):
    return {"id": i, "entity_type": et, "entity": entity, "type": kind, **kw}


def test_or_labels_hand_built():
    p, q = "p1", "p2"
    actions = [
        _a(1, "player", p, "par", corporation="A"),
        _a(2, "player", q, "pass"),
        # OR 1.1: A then B
        _a(3, "corporation", "A", "lay_tile"),
        _a(4, "corporation", "A", "run_routes"),
        _a(5, "company", "PRIV", "lay_tile"),  # a private's ability: no turn of its own
        _a(6, "corporation", "B", "run_routes"),
        # A starts a turn again: OR 1.2; its president sells shares inside A's turn
        _a(7, "corporation", "A", "run_routes"),
        _a(8, "player", p, "sell_shares"),
        _a(9, "corporation", "A", "buy_train"),
        _a(10, "corporation", "B", "run_routes"),
        # stock round, then OR 2.1 with B first
        _a(11, "player", p, "buy_shares"),
        _a(12, "player", q, "pass"),
        _a(13, "corporation", "B", "run_routes"),
        _a(14, "corporation", "A", "run_routes"),
        # A alone runs again straight after: OR 2.2
        _a(15, "corporation", "A", "run_routes"),
        # an undone run is not a turn
        _a(16, "corporation", "A", "run_routes"),
        {"id": 17, "entity_type": "corporation", "entity": "A", "type": "undo"},
        # a sale followed by another company's turn is a stock round: OR 3.1
        _a(18, "player", q, "sell_shares"),
        _a(19, "corporation", "B", "run_routes"),
    ]
    assert hist.or_labels(actions) == {
        4: "OR 1.1",
        6: "OR 1.1",
        7: "OR 1.2",
        10: "OR 1.2",
        13: "OR 2.1",
        14: "OR 2.1",
        15: "OR 2.2",
        19: "OR 3.1",
    }


def test_or_labels_reject_bad_input():
    with pytest.raises(TypeError, match="action objects"):
        hist.or_labels([{"type": "pass"}, "lay_tile"])


def test_or_labels_of_a_record(history):
    rec = load_record(RECORD)
    labels = [history.label(t) for t in history.turns]
    assert "OR ?" not in labels
    # every company runs at most once per OR, and the rounds only move forward
    keys = [tuple(int(x) for x in lab[3:].split(".")) for lab in labels]
    assert keys == sorted(keys)
    pairs = [(lab, t.company) for lab, t in zip(labels, history.turns, strict=True)]
    assert len(pairs) == len(set(pairs))
    # the export ended in an operating round of turn rec.raw["turn"] (5)
    assert rec.raw["round"] == "Operating Round"
    assert keys[-1][0] == rec.raw["turn"]


# ---------------------------------------------------------------------------- the page
def test_a_row_per_turn_with_the_report_numbers(page, report):
    doc = _parse(page)
    assert not re.search(r'(src|href)="(?!data:)', page)  # self-contained: nothing to fetch
    assert len(doc.rows) == len(report.turns) == 30
    rows = {int(r["data-action"]): r for r in doc.rows}
    for t in report.turns:
        r = rows[t.action_id]
        assert r["data-company"] == t.company
        assert r["data-declared"] == str(t.reference)
        assert r["data-optimum"] == str(t.optimum)
        assert r["data-gap"] == str(t.optimum - t.reference)
        assert r["section"] == r["data-round"]  # the row sits in its OR's table
    beaten = [t for t in report.turns if t.optimum > t.reference]
    assert doc.summary["revenue left on the table"] == str(sum(t.gap for t in beaten))
    assert doc.summary["turns where the optimum beat the declaration"] == str(len(beaten))


def test_company_totals(history, report):
    totals = history.company_totals()
    for company in {t.company for t in report.turns}:
        mine = [t for t in report.turns if t.company == company]
        assert totals[company]["declared"] == sum(t.reference for t in mine)
        assert totals[company]["optimum"] == sum(t.optimum for t in mine)
        assert totals[company]["left"] == sum(max(t.gap, 0) for t in mine)
    cum = history.cumulative_left()
    assert sum(v[-1] for v in cum.values()) == report.summary["revenue_left_on_table"]


def test_plots_are_embedded_and_decode(page):
    import matplotlib.image as mpimg

    images = {im["data-plot"]: im for im in _parse(page).images}
    assert set(images) == {"revenue", "left"}
    for im in images.values():
        head, data = im["src"].split(",", 1)
        assert head == "data:image/png;base64"
        raw = base64.b64decode(data, validate=True)
        assert raw[:8] == b"\x89PNG\r\n\x1a\n"
        pixels = mpimg.imread(io.BytesIO(raw), format="png")
        assert pixels.shape[0] > 200 and pixels.shape[1] > 400
        assert pixels[..., :3].std() > 0.05  # not a blank canvas


def test_plot_figures_hold_the_data(history, report):
    fig = hist.plot_revenue(history)
    by_title = {ax.get_title().split(":")[0]: ax for ax in fig.axes if ax.get_title()}
    for company in history.companies:
        mine = [t for t in report.turns if t.company == company]
        optimal, declared = by_title[company].get_lines()
        assert list(optimal.get_ydata()) == [t.optimum for t in mine]
        assert list(declared.get_ydata()) == [t.reference for t in mine]
    fig = hist.plot_left_on_table(history)
    (ax,) = fig.axes
    total = [ln for ln in ax.get_lines() if ln.get_label() == "all"][0]
    assert total.get_ydata()[-1] == report.summary["revenue_left_on_table"]


def test_boards_show_routes(page, report):
    best = max(report.turns, key=lambda t: t.gap)  # first of the largest gaps: +70, C&O
    boards = re.findall(r'<section class="board" data-action="(\d+)">(.*?)</section>', page, re.S)
    by_action = dict((int(a), body) for a, body in boards)
    # --boards 1: the last turn, plus the largest gap
    assert set(by_action) == {report.turns[-1].action_id, best.action_id}
    body = by_action[best.action_id]
    optimal = body.split('<figure class="optimal">')[1]
    declared = body.split('<figure class="declared">')[1].split("</figure>")[0]
    assert f"optimal routes, {best.optimum}" in optimal
    assert f"declared routes, {best.reference}" in declared
    for svg in (optimal, declared):
        assert "<?xml" not in svg and svg.lstrip().startswith("<svg")
        assert len(re.findall(r'<polyline class="route"', svg)) >= 1
        for pts in re.findall(r'class="route"[^>]*points="([^"]*)"', svg):
            assert len(pts.split()) >= 2  # a drawn path, not an empty one


def test_pick_boards(history, report):
    turns = report.turns
    best = max(turns, key=lambda t: t.gap)
    assert hist.pick_boards(history, 0) == []
    # two evenly spaced (first and last) plus the largest gap, in game order
    chosen = [a for a, _ in hist.pick_boards(history, 2)]
    assert chosen == sorted({turns[0].action_id, best.action_id, turns[-1].action_id})
    assert turns[0].action_id < best.action_id < turns[-1].action_id
    in_or = [t.action_id for t in turns if history.label(t) == "OR 2.1"]
    assert [a for a, _ in hist.pick_boards(history, 0, ["OR 2.1"])] == in_or
    c_and_o = [t.action_id for t in turns if history.label(t) == "OR 2.1" and t.company == "C&O"]
    assert [a for a, _ in hist.pick_boards(history, 0, ["2.1:C&O"])] == c_and_o
    with pytest.raises(ValueError, match="NYC did not run in OR 2.1"):
        hist.pick_boards(history, 0, ["2.1:NYC"])
    with pytest.raises(ValueError, match="no turn of OR 9.1"):
        hist.pick_boards(history, 0, ["OR 9.1"])
    with pytest.raises(ValueError, match="number of boards"):
        hist.pick_boards(history, -1)


# ---------------------------------------------------------------------------- errors, writes
@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file"),
        ('{"title": "1846",', "invalid JSON at line 1"),
        ('{"title": "1830", "actions": [], "players": []}', "title '1830' is not supported"),
    ],
    ids=["missing", "bad-json", "unsupported-title"],
)
def test_bad_records_give_one_line_errors(tmp_path, content, message):
    src = tmp_path / "record.json"
    if content is not None:
        src.write_text(content, encoding="utf-8")
    out = tmp_path / "out.html"
    result = _run("history", src, "-o", out)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines
    assert not out.exists()


def test_bad_options_give_one_line_errors(tmp_path):
    out = tmp_path / "out.html"
    for args, message in (
        (["--at", "9.9"], "no turn of OR 9.9 in this game"),
        (["--at", "second"], "expected an operating round"),
    ):
        result = _run("history", RECORD, "-o", out, *args)
        assert result.exit_code == 1 and message in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    result = _run("history", RECORD, "-o", tmp_path / "no" / "out.html")
    assert result.exit_code == 1 and "does not exist" in result.output
    assert not out.exists()


def test_the_write_is_atomic(tmp_path, monkeypatch):
    out = tmp_path / "h.html"
    out.write_text("old page", encoding="utf-8")

    def fail(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        hist.write_history(out, "<html>new</html>")
    assert out.read_text(encoding="utf-8") == "old page"  # never half-written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.html"]  # no temporary left
    monkeypatch.undo()
    hist.write_history(out, "<html>new</html>")
    assert out.read_text(encoding="utf-8") == "<html>new</html>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.html"]
    with pytest.raises(ValueError, match="does not exist"):
        hist.write_history(tmp_path / "missing" / "h.html", "x")
