"""Game history: declared against optimal revenue over a whole recorded game.

:func:`game_history` replays a record through the rules engine (:func:`engine.app.report.replay`),
which names the operating round of every ``run_routes``, and keeps the per-turn results:
declared revenue, our score of the declared routes, the optimum, the gap and the time.
:func:`draw_boards` draws the board at chosen turns with the declared and the optimal
routes, :func:`plot_revenue` and :func:`plot_left_on_table` make the matplotlib figures and
:func:`history_html` puts everything into one self-contained HTML page.

.. code-block:: python

    from engine.app.history import (draw_boards, game_history, history_html,
                                    pick_boards, write_history)
    h = game_history("tests/data/records/18462pVariant/16904.json", time_limit=5)
    boards = draw_boards(h, pick_boards(h, n=2))
    write_history("history.html", history_html(h, boards))

The ``eighteen history`` command (:mod:`engine.app.cli_history`) is a thin wrapper.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import routing
from engine.app.files import write_text_atomic
from engine.app.report import ReplayReport, TurnResult, action_number, open_replay, replay
from engine.model.record import Record, filter_actions

__all__ = [
    "GameHistory",
    "BoardView",
    "or_labels",
    "game_history",
    "pick_boards",
    "check_at",
    "draw_boards",
    "plot_revenue",
    "plot_left_on_table",
    "figure_png",
    "history_html",
    "write_history",
]

_OPERATORS = ("corporation", "minor")
#: Player actions that only a stock round (or an auction/draft round) has.
_STOCK_ONLY = ("par", "buy_shares", "bid", "pass")
#: Player actions that also happen inside an operating turn (emergency money raising).
_STOCK_OR_EMERGENCY = ("sell_shares", "bankrupt")


def _emergency(actions: list[dict], i: int, current: str | None) -> bool:
    """Is the player's sale at ``i`` part of ``current``'s operating turn?

    It is when the next operator action (past further sales) is ``current``'s again:
    a president raising money for a train (18xx.games ``step/emergency_money.rb``).
    """
    if current is None:
        return False
    for b in actions[i + 1 :]:
        et = b.get("entity_type")
        if et == "player":
            if b.get("type") in _STOCK_OR_EMERGENCY:
                continue
            return False
        if et in _OPERATORS:
            return b.get("entity") == current
    return False


def or_labels(actions: Sequence[dict]) -> dict[int, str]:
    """``"OR t.k"`` of every ``run_routes`` in an 18xx.games action log.

    The log has no round markers, so the rounds are read from who acts: a player's share,
    bid or pass action starts a stock (or auction) round; the first operator action after
    it starts OR ``t.1`` of the next set; an operator that starts a turn again, or runs
    routes twice, starts the next OR ``t.k+1``.  Private-company actions and player sales
    inside an operating turn (emergency money) change nothing.  ``t`` counts OR sets from 1,
    as 18xx.games' turn number does (tobymao/18xx @111f7f69, ``lib/engine/game/base.rb``
    ``next_round!``), except in 1846's two-player variant when its draft outlasts the first
    OR set: 18xx.games numbers those sets 0 (``g_1846/game.rb`` ``setup_turn``).

    Parameters
    ----------
    actions : sequence of dict
        The raw log (``undo``/``redo`` are applied first) or an already filtered one.

    Returns
    -------
    dict
        Action id -> label, for every ``run_routes``.

    Raises
    ------
    ReplayError
        An ``undo`` or ``redo`` that does not fit the log.
    """
    if not isinstance(actions, Sequence) or not all(isinstance(a, dict) for a in actions):
        raise TypeError("actions must be a sequence of action objects (dicts)")
    acts = filter_actions(list(actions))
    turn, k, operating = 1, 0, False
    done: set[str] = set()  # operators that had a turn in this OR
    ran: set[str] = set()  # ... and that ran routes in it
    current: str | None = None
    labels: dict[int, str] = {}
    for i, a in enumerate(acts):
        kind, et = a.get("type"), a.get("entity_type")
        if et == "player":
            stock = kind in _STOCK_ONLY or (
                kind in _STOCK_OR_EMERGENCY and not _emergency(acts, i, current)
            )
            if stock and operating:
                turn, operating, current = turn + 1, False, None
            continue
        if et not in _OPERATORS:
            continue
        sym = str(a.get("entity"))
        if sym != current:
            if not operating:
                k, operating, done, ran = 1, True, set(), set()
            elif sym in done:
                k, done, ran = k + 1, set(), set()
            done.add(sym)
            current = sym
        if kind == "run_routes":
            if sym in ran:  # the only operator left: its turns follow each other
                k, done, ran = k + 1, {sym}, set()
            ran.add(sym)
            labels[int(a.get("id", 0))] = f"OR {turn}.{k}"
        # programmed passes run as automatic actions attached to another action
        if any(
            b.get("entity_type") == "player" and b.get("type") in _STOCK_ONLY
            for b in a.get("auto_actions") or []
            if isinstance(b, dict)
        ):
            turn, operating, current = turn + 1, False, None
    return labels


@dataclass
class GameHistory:
    """A replayed record with the operating round of every turn.

    Attributes
    ----------
    report : ReplayReport
        What :func:`engine.app.report.replay` found.
    labels : dict
        Action id -> ``"OR t.k"`` (the engine's operating round of the run).
    record : path, parsed record or Record
        The record (to draw boards from).
    strict : bool
        Whether the replay stopped at illegal actions (boards replay the same way).
    """

    report: ReplayReport
    labels: dict[int, str]
    record: str | Path | dict | Record = field(repr=False)
    strict: bool = True

    @property
    def turns(self) -> list[TurnResult]:
        return self.report.turns

    def label(self, turn: TurnResult) -> str:
        """The OR of ``turn`` (``"OR ?"`` if the log did not show it)."""
        return self.labels.get(turn.action_id, "OR ?")

    @property
    def rounds(self) -> list[str]:
        """The operating rounds with a scored turn, in game order."""
        out: list[str] = []
        for t in self.turns:
            if self.label(t) not in out:
                out.append(self.label(t))
        return out

    @property
    def companies(self) -> list[str]:
        """Companies in the order they first ran."""
        return list(dict.fromkeys(t.company for t in self.turns))

    def by_round(self) -> dict[str, list[TurnResult]]:
        out: dict[str, list[TurnResult]] = {r: [] for r in self.rounds}
        for t in self.turns:
            out[self.label(t)].append(t)
        return out

    def company_totals(self) -> dict[str, dict]:
        """Per company: turns, declared and optimal totals, revenue left, turns beaten.

        ``declared`` sums the declared revenue where known (stored, else our score of the
        declared routes); ``left`` sums the positive gaps.
        """
        out = {}
        for c in self.companies:
            mine = [t for t in self.turns if t.company == c]
            gaps = [t.gap for t in mine if t.gap is not None]
            out[c] = {
                "turns": len(mine),
                "declared": sum(t.reference for t in mine if t.reference is not None),
                "optimum": sum(t.optimum for t in mine if t.optimum is not None),
                "left": sum(g for g in gaps if g > 0),
                "beaten": sum(1 for g in gaps if g > 0),
                "max_gap": max(gaps, default=0),
                "unknown": sum(1 for t in mine if t.gap is None),
            }
        return out

    def cumulative_left(self) -> dict[str, list[int]]:
        """Per company, the revenue left on the table up to and including each round."""
        index = {r: i for i, r in enumerate(self.rounds)}
        out = {c: [0] * len(index) for c in self.companies}
        for t in self.turns:
            if t.gap is not None and t.gap > 0:
                out[t.company][index[self.label(t)]] += t.gap
        for vals in out.values():
            for i in range(1, len(vals)):
                vals[i] += vals[i - 1]
        return out

    def largest_gap(self) -> TurnResult | None:
        """The first turn with the largest positive gap (None when none is positive)."""
        best = None
        for t in self.turns:
            if t.gap is not None and t.gap > 0 and (best is None or t.gap > best.gap):
                best = t
        return best


def game_history(
    source: str | Path | dict | Record,
    time_limit: float | None = None,
    strict: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> GameHistory:
    """Replay ``source`` and label its turns by operating round.

    Parameters
    ----------
    source : path, parsed export or Record
    time_limit : float, optional
        Seconds per solve (an optimum that is not proven is flagged in the output).
    strict : bool
        Stop at the first action the rules forbid.
    progress : callable, optional
        ``progress(done, total)`` after every action.

    Raises
    ------
    ReplayError
        Missing file, bad JSON, unsupported title, or an action that cannot be applied.
    """
    if time_limit is not None and not (isinstance(time_limit, int | float) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    report = replay(source, time_limit=time_limit, strict=strict, progress=progress)
    labels = {t.action_id: t.round for t in report.turns}
    return GameHistory(report, labels, source, strict)


# ---------------------------------------------------------------------------- boards
@dataclass
class BoardView:
    """The board at one turn, drawn with the declared and with the optimal routes."""

    action_id: int
    label: str
    company: str
    reason: str
    declared: int | None
    optimum: int | None
    optimal: bool
    optimal_svg: str | None = field(default=None, repr=False)
    declared_svg: str | None = field(default=None, repr=False)
    note: str | None = None


_AT = re.compile(r"^\s*(?:OR\s*)?(\d+)\.(\d+)\s*(?:[:/ ]\s*(\S.*?))?\s*$", re.IGNORECASE)


def pick_boards(history: GameHistory, n: int = 3, at: Sequence[str] = ()) -> list[tuple[int, str]]:
    """Which turns to draw: ``n`` evenly spaced ones, the largest gap, and those in ``at``.

    Parameters
    ----------
    history : GameHistory
    n : int
        Evenly spaced turns from the first to the last (one: the last).  With ``n == 0``
        and no ``at``, nothing is drawn.
    at : sequence of str
        ``"OR 2.1"`` (every turn of that round) or ``"OR 2.1:C&O"`` (one company's); the
        ``OR`` may be left out.

    Returns
    -------
    list of (action id, reason)
        In game order, each turn once.

    Raises
    ------
    ValueError
        A bad ``n`` or a label that names no turn of this game.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"the number of boards must be a whole number >= 0, got {n!r}")
    turns = history.turns
    reasons: dict[int, list[str]] = {}
    if n and turns:
        last = len(turns) - 1
        spots = [last] if n == 1 else [round(i * last / (n - 1)) for i in range(n)]
        for i in dict.fromkeys(spots):
            reasons.setdefault(turns[i].action_id, []).append("evenly spaced")
        best = history.largest_gap()
        if best is not None:
            reasons.setdefault(best.action_id, []).append(f"largest gap ({best.gap:+d})")
    items = [(t.action_id, history.label(t), t.company) for t in turns]
    for text in at:
        for action_id in _match_at(text, items):
            reasons.setdefault(action_id, []).append(f"asked for ({text})")
    order = {t.action_id: i for i, t in enumerate(turns)}
    return [(a, "; ".join(r)) for a, r in sorted(reasons.items(), key=lambda kv: order[kv[0]])]


def _match_at(text: str, items: Sequence[tuple[int, str, str]]) -> list[int]:
    """Action ids of the (action id, OR label, company) ``items`` that ``text`` names."""
    m = _AT.match(str(text))
    if not m:
        raise ValueError(f"--at {text!r}: expected an operating round like 'OR 2.1' or 2.1:NYC")
    label, company = f"OR {int(m.group(1))}.{int(m.group(2))}", m.group(3)
    hits = [a for a, lab, c in items if lab == label and (company is None or c == company)]
    if not hits:
        ran = [c for _, lab, c in items if lab == label]
        if ran:
            did = ", ".join(ran)
            raise ValueError(f"--at {text!r}: {company} did not run in {label} ({did} did)")
        known = ", ".join(dict.fromkeys(lab for _, lab, _ in items)) or "none"
        raise ValueError(f"--at {text!r}: no turn of {label} in this game (rounds: {known})")
    return hits


def check_at(record: Record, at: Sequence[str]) -> None:
    """Check ``--at`` labels against the record's log before the (long) replay.

    Raises
    ------
    ValueError
        A label that is malformed or names no operating turn of the record.
    """
    if not at:
        return
    labels = or_labels(record.actions)
    items = [
        (int(a.get("id", 0)), labels[int(a.get("id", 0))], str(a.get("entity")))
        for a in filter_actions(record.actions)
        if a.get("type") == "run_routes" and int(a.get("id", 0)) in labels
    ]
    for text in at:
        _match_at(text, items)


def draw_boards(
    history: GameHistory,
    chosen: Sequence[tuple[int, str]],
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[BoardView]:
    """Replay ``history``'s record again (no solving) and draw the chosen turns.

    The replay keeps one board that later tiles change, so each chosen position is drawn
    when the replay reaches it: the declared routes (their first reading on our network)
    and the optimal ones, found again with :func:`routing.solve`.

    Parameters
    ----------
    history : GameHistory
    chosen : sequence of (action id, reason)
        From :func:`pick_boards`.
    time_limit : float, optional
        Seconds per solve.
    progress : callable, optional
        ``progress(done, total)`` per replayed action.
    """
    wanted = {int(a): str(r) for a, r in chosen}
    known = {t.action_id for t in history.turns}
    missing = sorted(set(wanted) - known)
    if missing:
        raise ValueError(f"action {missing[0]} is not an operating turn of {history.report.record}")
    if not wanted:
        return []
    rep = open_replay(history.record)
    total = len(rep.actions)
    out: list[BoardView] = []

    def look(i: int, raw: dict) -> None:
        turn = by_id.get(action_number(raw, i)) if raw.get("type") == "run_routes" else None
        if turn is not None and not rep.game.finished:
            label = history.labels.get(turn.action_id, "OR ?")
            out.append(_draw_turn(rep.game, raw, turn, label, wanted[turn.action_id], time_limit))

    by_id = {t.action_id: t for t in history.turns if t.action_id in wanted}
    for i, _raw, _refused in rep.steps(strict=history.strict, before=look):
        if progress is not None:
            progress(i + 1, total)
        if len(out) == len(wanted):
            break
    return out


def _draw_turn(game, raw: dict, turn: TurnResult, label: str, reason: str,
               time_limit) -> BoardView:  # fmt: skip
    """Draw ``turn`` on the game's board just before its ``run_routes`` is applied."""
    from engine.model.render import company_colors, render_svg

    board = BoardView(turn.action_id, label, turn.company, reason, turn.reference, None, False)
    try:
        problem, view = game.route_problem(turn.company, full_board=True)
    except (ValueError, KeyError, TypeError) as exc:
        board.note = f"board not drawn: {' '.join(str(exc).split())}"
        return board

    colors = company_colors(view.data)

    def svg(routes: list, what: str) -> str:
        routes = sorted(routes)  # by train index, so both drawings colour trains alike
        text = render_svg(
            view.board,
            view.position.tokens_by_city(),
            view.phase_colors,
            view.base,
            [(problem.trains[i].name, nodes) for i, nodes in routes],
            f"{label} {turn.company} (action {turn.action_id}): {what}",
            network=problem.network,
            company_colors=colors,
        )
        return text.split("?>", 1)[1].lstrip() if text.startswith("<?xml") else text

    solution = routing.solve(problem, time_limit=time_limit)
    board.optimum, board.optimal = int(solution.total), bool(solution.optimal)
    proven = "" if solution.optimal else " (not proven)"
    best = [(int(r.train), list(r.nodes)) for r in solution.routes]
    board.optimal_svg = svg(best, f"optimal routes, {solution.total}{proven}")
    routes = [r for r in raw.get("routes") or [] if isinstance(r, dict) and r.get("connections")]
    try:
        read = game.read_routes(turn.company, routes, problem, view)
        drawn = [(d.train_index, list(d.readings[0][0])) for d in read]
        ref = "?" if turn.reference is None else turn.reference
        board.declared_svg = svg(drawn, f"declared routes, {ref}")
    except (ValueError, KeyError, IndexError) as exc:
        board.note = f"declared routes not drawn: {' '.join(str(exc).split())}"
    return board


# ---------------------------------------------------------------------------- plots
def _colors(companies: Sequence[str]) -> dict[str, str]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if len(companies) <= 10 else "tab20"]
    return {c: cmap(i % cmap.N) for i, c in enumerate(companies)}


def _new_figure(figsize):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig


def _round_ticks(ax, rounds: list[str]) -> None:
    step = max(1, math.ceil(len(rounds) / 12))
    ticks = list(range(0, len(rounds), step))
    ax.set_xticks(ticks, [rounds[i].removeprefix("OR ") for i in ticks])
    ax.tick_params(axis="x", labelrotation=45, labelsize=8)


def plot_revenue(history: GameHistory, fig=None):
    """Optimal against declared revenue of each company, one panel per company.

    Parameters
    ----------
    history : GameHistory
    fig : matplotlib Figure, optional
        Drawn into (cleared); a new Agg figure by default.

    Returns
    -------
    matplotlib.figure.Figure
    """
    companies, rounds = history.companies, history.rounds
    ncols = max(1, min(3, len(companies)))
    nrows = max(1, math.ceil(len(companies) / ncols))
    if fig is None:
        fig = _new_figure((4.2 * ncols, 2.7 * nrows + 0.6))
    fig.clear()
    if not companies:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no operating turns in this record", ha="center", va="center")
        ax.set_axis_off()
        return fig
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
    index = {r: i for i, r in enumerate(rounds)}
    colors = _colors(companies)
    totals = history.company_totals()
    for ax, company in zip(axes, companies, strict=False):
        mine = [t for t in history.turns if t.company == company and t.optimum is not None]
        xs = [index[history.label(t)] for t in mine]
        opt = [t.optimum for t in mine]
        dec = [t.reference if t.reference is not None else math.nan for t in mine]
        ax.plot(xs, opt, "-o", color=colors[company], ms=3.5, lw=1.6, label="optimal")
        ax.plot(xs, dec, "--x", color="0.25", ms=4, lw=1.0, label="declared")
        ax.fill_between(xs, dec, opt, where=[o > d for o, d in zip(opt, dec, strict=True)],
                        color=colors[company], alpha=0.25, lw=0)  # fmt: skip
        left = totals[company]["left"]
        ax.set_title(f"{company}: left on the table {left}", fontsize=9)
        ax.grid(True, alpha=0.3)
        _round_ticks(ax, rounds)
    for ax in axes[len(companies) :]:
        ax.set_axis_off()
    axes[0].legend(fontsize=8, loc="upper left")
    axes[0].set_ylabel("revenue")
    fig.suptitle(f"{history.report.record} ({history.report.title}): optimal vs declared revenue")
    fig.tight_layout()
    return fig


def plot_left_on_table(history: GameHistory, fig=None):
    """Revenue left on the table, cumulated over the game, per company and in total.

    Parameters
    ----------
    history : GameHistory
    fig : matplotlib Figure, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    if fig is None:
        fig = _new_figure((8.5, 4.0))
    fig.clear()
    ax = fig.add_subplot()
    rounds = history.rounds
    cum = history.cumulative_left()
    colors = _colors(history.companies)
    xs = list(range(len(rounds)))
    total = [0] * len(rounds)
    for company, vals in cum.items():
        ax.plot(xs, vals, "-o", color=colors[company], lw=1.6, ms=3, label=company)
        total = [a + b for a, b in zip(total, vals, strict=True)]
    if rounds:
        ax.plot(xs, total, "--", color="black", lw=2.2, label="all")
        _round_ticks(ax, rounds)
    ax.set_ylabel("cumulative revenue left")
    ax.set_xlabel("operating round")
    ax.grid(True, alpha=0.3)
    if cum:
        ax.legend(fontsize=8, ncol=2, loc="upper left")
    ax.set_title("Revenue left on the table (optimum minus declared), cumulated")
    fig.tight_layout()
    return fig


def figure_png(fig, dpi: int = 96) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


# ---------------------------------------------------------------------------- HTML
_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}h3{margin:1.2em 0 .3em}
table{border-collapse:collapse;font-size:.9em;margin:.4em 0}
th,td{border:1px solid #ccc;padding:.2em .5em}th{background:#f0f0f0}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.beaten td.gap{background:#ffe0b3;font-weight:bold}tr.below td.gap{background:#f6c6c6}
tfoot td{font-weight:bold;background:#fafafa}
img.plot{max-width:100%;display:block;margin:.5em 0}
.pair{display:flex;gap:1em;flex-wrap:wrap}.pair figure{flex:1 1 45%;margin:0;min-width:300px}
.pair svg{width:100%;height:auto;border:1px solid #ddd}
.note{color:#666;font-size:.85em}dl.summary{display:grid;grid-template-columns:max-content auto;
gap:.2em 1em}dl.summary dt{font-weight:bold}dl.summary dd{margin:0}
"""


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _num(value) -> str:
    return "-" if value is None else str(value)


def _turn_note(turn: TurnResult) -> str:
    """Why a turn needs a note (routes rejected, revenues differ, optimum unproven)."""
    notes = []
    if turn.error:
        notes.append(turn.error)
    if turn.diverged:
        notes.append("after the replay left the record's path")
    if turn.scored is not None and not turn.matches:
        notes.append(f"our route revenues {turn.scored_routes} != stored {turn.declared_routes}")
    if turn.optimum is not None and not turn.optimal:
        notes.append(f"optimum not proven (bound {turn.bound})")
    return "; ".join(notes)


def _turn_row(history: GameHistory, t: TurnResult) -> str:
    gap = t.gap
    cls = "turn" + (" beaten" if gap is not None and gap > 0 else "")
    cls += " below" if gap is not None and gap < 0 else ""
    attrs = {
        "data-action": t.action_id,
        "data-round": history.label(t),
        "data-company": t.company,
        "data-declared": _num(t.reference),
        "data-ours": _num(t.scored),
        "data-optimum": _num(t.optimum),
        "data-gap": _num(gap),
    }
    cells = [
        (t.company, ""),
        (t.phase, ""),
        (" ".join(t.trains) or "-", ""),
        (_num(t.declared), "n"),
        (_num(t.scored), "n"),
        (_num(t.optimum) + ("" if t.optimum is None or t.optimal else "*"), "n"),
        ("-" if gap is None else f"{gap:+d}", "n gap"),
        (f"{t.seconds:.2f}", "n"),
        (t.action_id, "n"),
        (_turn_note(t), "note"),
    ]
    attr_text = " ".join(f'{k}="{_e(v)}"' for k, v in attrs.items())
    body = "".join(f'<td class="{c}">{_e(v)}</td>' if c else f"<td>{_e(v)}</td>" for v, c in cells)
    return f'<tr class="{cls}" {attr_text}>{body}</tr>'


_TURN_HEAD = (
    "<thead><tr><th>company</th><th>phase</th><th>trains</th><th>declared</th>"
    "<th>ours</th><th>optimum</th><th>gap</th><th>s</th><th>action</th><th>notes</th></tr></thead>"
)


def _summary(history: GameHistory) -> list[str]:
    rep = history.report
    s = rep.summary
    proven = sum(1 for t in rep.turns if t.optimum is not None and t.optimal)
    items = [
        ("positions (operating turns)", s["positions"]),
        ("operating rounds", len(history.rounds)),
        ("solved / proven optimal", f"{s['solved']} / {proven}"),
        ("turns where the optimum beat the declaration", s["optimum_beats_declared"]),
        ("revenue left on the table", s["revenue_left_on_table"]),
        ("declared routes not validated", s["declared_not_validated"]),
        ("stored revenue differs from our score", s["revenue_mismatches"]),
        ("optimum below the declaration", s["optimum_below_declared"]),
        ("replay time", f"{rep.seconds:.2f} s"),
    ]
    out = ['<h2 id="summary">Summary</h2><dl class="summary">']
    out += [f'<dt>{_e(k)}</dt><dd data-key="{_e(k)}">{_e(v)}</dd>' for k, v in items]
    out.append("</dl>")
    out.append(
        '<table id="companies"><thead><tr><th>company</th><th>turns</th><th>declared</th>'
        "<th>optimal</th><th>left on the table</th><th>turns beaten</th><th>largest gap</th>"
        "</tr></thead><tbody>"
    )
    for c, v in history.company_totals().items():
        out.append(
            f'<tr data-company="{_e(c)}"><td>{_e(c)}</td><td class="n">{v["turns"]}</td>'
            f'<td class="n">{v["declared"]}</td><td class="n">{v["optimum"]}</td>'
            f'<td class="n">{v["left"]}</td><td class="n">{v["beaten"]}</td>'
            f'<td class="n">{v["max_gap"]:+d}</td></tr>'
        )
    out.append("</tbody></table>")
    return out


def _board_html(b: BoardView) -> list[str]:
    gap = None if b.declared is None or b.optimum is None else b.optimum - b.declared
    head = (
        f"{b.label} {b.company} (action {b.action_id}): declared {_num(b.declared)}, "
        f"optimum {_num(b.optimum)}{'' if b.optimal else ' (not proven)'}"
        + ("" if gap is None else f", gap {gap:+d}")
    )
    out = [
        f'<section class="board" data-action="{b.action_id}">',
        f'<h3>{_e(head)}</h3><p class="note">{_e(b.reason)}</p><div class="pair">',
    ]
    if b.declared_svg is not None:
        out.append(f'<figure class="declared">{b.declared_svg}</figure>')
    if b.optimal_svg is not None:
        out.append(f'<figure class="optimal">{b.optimal_svg}</figure>')
    out.append("</div>")
    if b.note:
        out.append(f'<p class="note">{_e(b.note)}</p>')
    out.append("</section>")
    return out


def history_html(
    history: GameHistory,
    boards: Sequence[BoardView] = (),
    plots: bool = True,
    time_limit: float | None = None,
) -> str:
    """One self-contained HTML page: summary, plots (PNG inline), boards, a table per OR.

    Parameters
    ----------
    history : GameHistory
    boards : sequence of BoardView
        From :func:`draw_boards`.
    plots : bool
        Embed the two matplotlib figures.
    time_limit : float, optional
        Shown with the summary (the limit the solves had).
    """
    rep = history.report
    title = f"{rep.record} ({rep.title}): game history"
    limit = "none" if time_limit is None else f"{time_limit:g} s a solve"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="note">{rep.actions} actions replayed; solver time limit: {_e(limit)}. '
        "Declared = the revenue 18xx.games stored, else our score of the declared routes; "
        "gap = optimum - declared; * = optimum not proven within the time limit.</p>",
    ]
    out += _summary(history)
    if plots:
        out.append('<h2 id="plots">Plots</h2>')
        for key, maker, alt in (
            ("revenue", plot_revenue, "optimal vs declared revenue per company"),
            ("left", plot_left_on_table, "cumulative revenue left on the table per company"),
        ):
            data = base64.b64encode(figure_png(maker(history))).decode("ascii")
            out.append(
                f'<img class="plot" data-plot="{key}" alt="{_e(alt)}" '
                f'src="data:image/png;base64,{data}">'
            )
    if boards:
        out.append('<h2 id="boards">Boards</h2>')
        for b in boards:
            out += _board_html(b)
    out.append('<h2 id="rounds">Operating rounds</h2>')
    for label, turns in history.by_round().items():
        known = [t for t in turns if t.reference is not None and t.optimum is not None]
        left = sum(t.gap for t in turns if t.gap is not None and t.gap > 0)
        out.append(f'<section class="or" data-round="{_e(label)}"><h3>{_e(label)}</h3>')
        out.append(f'<table class="turns">{_TURN_HEAD}<tbody>')
        out += [_turn_row(history, t) for t in turns]
        out.append(
            '</tbody><tfoot><tr><td colspan="3">total</td>'
            f'<td class="n">{sum(t.reference for t in known)}</td><td></td>'
            f'<td class="n">{sum(t.optimum for t in known)}</td><td class="n">{left:+d}</td>'
            '<td colspan="3"></td></tr></tfoot></table></section>'
        )
    if not history.turns:
        out.append("<p>No operating turn ran routes in this record.</p>")
    if rep.notes:
        out.append(f"<details><summary>Replay notes ({len(rep.notes)})</summary><ul>")
        out += [f"<li>{_e(n)}</li>" for n in rep.notes]
        out.append("</ul></details>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_history(path: str | Path, text: str) -> Path:
    """Write the page atomically (:func:`engine.app.files.write_text_atomic`).

    Raises
    ------
    ValueError
        The folder of ``path`` does not exist, or ``path`` is a folder.
    """
    return write_text_atomic(path, text)
