"""Markdown tables of the engine suites: replay, problem build, batch, bot games, invariants.

:func:`engine_sections` turns the checked rows of ``benchmarks/report.py`` (``suite`` in
``extra_info``) of ``test_bench_replay.py`` and ``test_bench_games.py`` into tables; a suite
without rows gives no table.  Rates (positions/s, games/s, actions/s) divide the counts the
benchmark recorded by its median time, except the games' rates, which use the summed time
of every game played (each round is another seed, so one median game has no action count).
"""

from __future__ import annotations

import statistics
from collections import defaultdict

__all__ = ["engine_sections"]


def _fmt(seconds: float | None) -> str:
    from benchmarks.report import fmt

    return fmt(seconds)


def _rate(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _share(part: float | None, whole: float | None) -> str:
    if part is None or not whole:
        return "–"
    return f"{100 * part / whole:.0f}%"


def _by(rows: list[dict], suite: str, key: str) -> dict[str, dict[str, dict]]:
    """``{rows[key]: {tool: row}}`` of one suite, in the order met."""
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for r in rows:
        if r.get("suite") == suite:
            out[str(r.get(key))][r["tool"]] = r
    return out


def _table(header: list[str], lines: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(["---"] + ["--:"] * (len(header) - 1)) + "|"]  # fmt: skip
    return out + ["| " + " | ".join(cells) + " |" for cells in lines]


def replay_table(rows: list[dict]) -> list[str]:
    lines = []
    for title, by in _by(rows, "replay", "title").items():
        solve, check = by.get("solve"), by.get("validate")
        facts = solve or check
        s = solve["median"] if solve else None
        v = check["median"] if check else None
        # the share from the fastest rounds: load from other jobs only adds time, and the
        # solving part is small beside the noise of a shared machine
        share = _share(solve["min"] - check["min"], solve["min"]) if solve and check else "–"
        lines.append([
            title, str(facts["records"]), str(facts["positions"]), _fmt(v), _fmt(s), share,
            _rate(facts["positions"] / s if s else None),
        ])  # fmt: skip
    hdr = ["title", "records", "positions", "replay, validate only", "replay + solve",
           "solving share (min)", "positions/s (solve)"]  # fmt: skip
    return _table(hdr, lines) if lines else []


BUILD_TOOLS = ("build_problem", "build_problem-nocheck", "fast_problem")


def build_table(rows: list[dict]) -> list[str]:
    lines = []
    for title, by in _by(rows, "build", "title").items():
        n = next(iter(by.values()))["positions"]
        med = {t: by[t]["median"] / n for t in BUILD_TOOLS if t in by}
        fast, full = med.get("fast_problem"), med.get("build_problem")
        ratio = f"×{full / fast:.3g}" if fast and full else "–"
        lines.append([title, str(n)] + [_fmt(med.get(t)) for t in BUILD_TOOLS] + [ratio])
    hdr = ["title", "positions", "build_problem / position", "… unchecked", "fast_problem",
           "build_problem / fast_problem"]  # fmt: skip
    return _table(hdr, lines) if lines else []


def batch_table(rows: list[dict]) -> list[str]:
    lines = []
    for r in (r for r in rows if r.get("suite") == "batch"):
        if r["tool"] == "dask-startup":
            what = (f"start-up: cluster {_fmt(r['cluster_seconds'])} + warm-up "
                    f"{_fmt(r['warmup_seconds'])}")  # fmt: skip
            lines.append([f"Dask start-up, {r['workers']} workers", "–", "–", _fmt(r["median"]),
                          what, "–"])  # fmt: skip
        else:
            n, workers = r["positions"], r.get("workers", 1)
            rate = n / r["median"]
            lines.append([r["tool"], r.get("inputs", "corpus"), str(n), _fmt(r["median"]),
                          _rate(rate), _rate(rate / workers)])  # fmt: skip
    hdr = ["way", "inputs", "positions", "wall (median)", "positions/s", "per core"]
    return _table(hdr, lines) if lines else []


def games_table(rows: list[dict]) -> list[str]:
    lines = []
    for title, by in _by(rows, "games", "title").items():
        plain, checked = by.get("bot-game"), by.get("bot-game+invariants")
        base = plain or checked
        # measured inside the checked games themselves (see test_bench_games.py)
        inv = checked.get("invariants_seconds") if checked else None
        share = _share(sum(inv), sum(checked["seconds"])) if inv else "–"
        lines.append([
            title, str(len(base["seeds"])), f"{statistics.median(base['actions']):.0f}",
            _fmt(plain["median"]) if plain else "–",
            _rate(plain["games_per_s"]) if plain else "–",
            _rate(plain["actions_per_s"]) if plain else "–",
            _fmt(checked["median"]) if checked else "–",
            _rate(checked["actions_per_s"]) if checked else "–", share,
        ])  # fmt: skip
    hdr = ["title", "games", "actions/game (median)", "game (median)", "games/s", "actions/s",
           "game + invariants", "actions/s + invariants", "invariants share"]  # fmt: skip
    return _table(hdr, lines) if lines else []


def invariants_table(rows: list[dict]) -> list[str]:
    lines = []
    for title, by in _by(rows, "invariants", "title").items():
        r = by["invariants"]
        per = r["median"] / r["action_seconds"]
        lines.append([title, str(r["after_actions"]), _fmt(r["median"]),
                      _fmt(r["action_seconds"]), f"{per:.2f}"])  # fmt: skip
    hdr = ["title", "state after actions", "invariants (median)", "one bot action (mean)",
           "invariants / action"]  # fmt: skip
    return _table(hdr, lines) if lines else []


def engine_sections(rows: list[dict]) -> list[str]:
    """Markdown lines of every engine suite present in ``rows`` (empty when none is)."""
    sections = [
        ("**Replay** (strict, every record of a title, warm; `validate` scores the declared "
         "routes only):", replay_table(rows)),
        ("**Problem build** (per position: `build_problem` rebuilds the map from the title "
         "data; `fast_problem` reuses a board that carries the tiles):", build_table(rows)),
        ("**Batch** (`engine.app.batch.run_batch` on corpus positions, CSV output):",
         batch_table(rows)),
        ("**Bot games** (`play_random`, 4 players; rates over every game played):",
         games_table(rows)),
        ("**Invariant check** (one `engine.game.invariants` call halfway through a bot game):",
         invariants_table(rows)),
    ]  # fmt: skip
    out: list[str] = []
    for head, table in sections:
        if table:
            out += ["", head, "", *table]
    return out
