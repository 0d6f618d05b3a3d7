"""Markdown tables of a benchmark run: per title class, per train count, compilation.

``python -m benchmarks.report results.json`` reads a pytest-benchmark JSON file (written by
``pytest benchmarks/ --benchmark-enable --benchmark-json results.json``);
``python -m benchmarks.report --run`` runs that first (full suites with
``EIGHTEEN_BENCH_FULL=1`` in the environment).  Only timings whose answer was checked
(``extra_info["agree"]``) enter the tables.

Per title class the table shows the median and the max over positions of each tool's median
solve time, and the ratio peer / numba: the median over positions of (the peer's median time
/ numba's median time), so ``×250`` means the peer is 250 times slower than numba.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from benchmarks.common import machine

TOOLS = {"numba": "numba", "cpsat": "CP-SAT", "routes18xx": "routes-18xx", "oracle": "oracle"}
PEERS = ("routes18xx", "cpsat", "oracle")


def fmt(seconds: float | None) -> str:
    """Seconds as a short human figure (µs / ms / s)."""
    if seconds is None:
        return "–"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def ratio(x: float | None) -> str:
    if x is None:
        return "–"
    return f"×{x:.3g}" if x < 1000 else f"×{x:,.0f}"


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def rows_of(data: dict) -> list[dict]:
    """One row per checked benchmark: suite, tool, case facts, median, max, min."""
    out = []
    for b in data["benchmarks"]:
        info = b.get("extra_info") or {}
        if not info.get("agree"):
            continue
        out.append({**info, "median": b["stats"]["median"], "max": b["stats"]["max"],
                    "min": b["stats"]["min"], "rounds": b["stats"]["rounds"]})  # fmt: skip
    return out


TITLE_NAMES = {"1836Jr30": "1836Jr-30", "1836Jr56": "1836Jr-56", "1862UsaCanada": "1862"}


def _class(row: dict) -> str:
    if row.get("title") == "1846" and row.get("source") == "record":
        return f"1846 {row.get('stage')} (records)"
    if row.get("title") == "1846":
        return "1846 examples"
    return TITLE_NAMES.get(str(row.get("title")), str(row.get("title")))


def _table(groups: dict[str, dict[str, dict[str, dict]]], head: str, count: str) -> list[str]:
    """groups: class -> case -> tool -> row."""
    tools_present = {t for cases in groups.values() for by in cases.values() for t in by}
    peers = [p for p in PEERS if p in tools_present]
    hdr = [head, count, "numba median", "numba max"]
    for p in peers:
        hdr += [f"{TOOLS[p]} median", f"{TOOLS[p]} / numba"]
    lines = [
        "| " + " | ".join(hdr) + " |",
        "|" + "|".join(["---"] + ["--:"] * (len(hdr) - 1)) + "|",
    ]
    for cls in groups:
        cases = groups[cls]
        numba = [by["numba"] for by in cases.values() if "numba" in by]
        if not numba:
            continue
        cells = [cls, str(len(numba)), fmt(statistics.median(r["median"] for r in numba)),
                 fmt(max(r["max"] for r in numba))]  # fmt: skip
        for p in peers:
            with_peer = [by for by in cases.values() if p in by and "numba" in by]
            if not with_peer:
                cells += ["–", "–"]
                continue
            med = statistics.median(by[p]["median"] for by in with_peer)
            rat = statistics.median(by[p]["median"] / by["numba"]["median"] for by in with_peer)
            cells += [fmt(med), ratio(rat)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def positions_table(rows: list[dict]) -> list[str]:
    groups: dict[str, dict[str, dict]] = defaultdict(lambda: defaultdict(dict))
    order = ["1846 examples", "1846 early (records)", "1846 mid (records)", "1846 late (records)"]
    for r in rows:
        if r.get("suite") == "positions":
            groups[_class(r)][r["position"]][r["tool"]] = r
    keys = [k for k in order if k in groups] + sorted(k for k in groups if k not in order)
    return _table({k: groups[k] for k in keys}, "title class", "positions")


def synthetic_table(rows: list[dict]) -> list[str]:
    groups: dict[str, dict[str, dict]] = defaultdict(lambda: defaultdict(dict))
    for r in sorted((r for r in rows if r.get("suite") == "synthetic"), key=lambda r: r["trains"]):
        groups[f"{r['trains']} train(s)"][r["case"]][r["tool"]] = r
    return _table(groups, "synthetic 120-hex board", "boards")


def compile_table(rows: list[dict]) -> list[str]:
    by = {r["tool"]: r for r in rows if r.get("suite") == "compile"}
    if not by:
        return []
    names = {"solve-cold": "fresh process, empty cache: build + solve 1846-late, compiled",
             "solve-warm": "fresh process, warm cache: build + solve 1846-late, compiled",
             "solve-warm-auto": "fresh process, warm cache: build + solve 1846-late, auto "
                                "(interpreted)",
             "cli-cold": "`eighteen solve --example 1846-late`, empty cache",
             "cli-warm": "`eighteen solve --example 1846-late`, warm cache"}  # fmt: skip
    lines = ["| process | wall time (median) | rounds |", "|---|--:|--:|"]
    for key, label in names.items():
        r = by.get(key)
        lines.append(
            f"| {label} | {fmt(r['median']) if r else '–'} | {r['rounds'] if r else '–'} |"
        )
    return lines


def machine_line(data: dict, rows: list[dict]) -> str:
    m = (data.get("machine_info") or {}).get("eighteen") or machine()
    loads = [r["loadavg"] for r in rows if "loadavg" in r] or [m["loadavg"][0]]
    load = f"{min(loads):.1f}–{max(loads):.1f}"
    return (f"Machine: {m['nproc']} cores, {m['cpu']}; Python {m['python']}, numba {m['numba']}, "
            f"OR-Tools {m['ortools']}; 1-min load average during the run {load} "
            "(shared machine: other jobs were running).")  # fmt: skip


def render(data: dict) -> str:
    from benchmarks.report_engine import engine_sections

    rows = rows_of(data)
    out = []
    pos = positions_table(rows)
    if len(pos) > 2:  # more than the header: some position was timed
        out += ["**Real positions** (warm numba search; CP-SAT with one worker; routes-18xx "
                "0.9.2 with its process pool; median of each tool's per-position median):",
                ""]  # fmt: skip
        out += pos
    syn = synthetic_table(rows)
    if len(syn) > 2:  # more than the header
        out += ["", "**Synthetic boards** (12 × 10 hexes, `routing.synthetic`, density 0.6):", ""]
        out += syn
    comp = compile_table(rows)
    if comp:
        out += ["", "**Compilation** (numba kernels are cached on disk after the first run):", ""]
        out += comp
    if len(pos) > 2:
        out += ["", "Ratios are medians over the cases where the peer ran (routes-18xx: "
                "corporations on 1846 boards; the oracle: boards it finishes in seconds)."
                ]  # fmt: skip
    out += engine_sections(rows)  # replay, problem build, batch, bot games, invariants
    out += ["", machine_line(data, rows)]
    return "\n".join(out) + "\n"


def run_benchmarks(json_path: Path) -> None:
    cmd = [sys.executable, "-m", "pytest", "benchmarks", "-q", "--benchmark-enable",
           f"--benchmark-json={json_path}", "-p", "no:cacheprovider"]  # fmt: skip
    subprocess.run(cmd, cwd=Path(__file__).resolve().parent.parent, check=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="?", type=Path, help="pytest-benchmark JSON file")
    ap.add_argument("--run", action="store_true", help="run the benchmarks first")
    ap.add_argument("-o", "--output", type=Path, help="also write the markdown here")
    args = ap.parse_args(argv)
    if args.run:
        path = args.json or Path(tempfile.mkdtemp()) / "benchmarks.json"
        full = os.environ.get("EIGHTEEN_BENCH_FULL", "")
        print(f"running the benchmarks (EIGHTEEN_BENCH_FULL={full!r})", file=sys.stderr)
        run_benchmarks(path)
    elif args.json is None:
        ap.error("give a JSON file or --run")
    else:
        path = args.json
    text = render(load(path))
    if args.output:
        args.output.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
