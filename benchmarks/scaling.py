"""How the numba search scales on synthetic boards: board fill, number of trains, train length.

``python -m benchmarks.scaling`` solves ``routing.synthetic`` boards (12 x 10 hexes) along
three sweeps and writes ``benchmarks/results/scaling.csv`` and ``scaling.png``:

* **fill** -- the share of hexes with a tile (0.5 .. 1.0), two trains (4 + 5);
* **trains** -- 1 to 4 trains (4; 4+5; 3+4+5; 3+4+5+6) at fill 0.95;
* **length** -- one train of length 2, 3, 4, 5, 6, 8, 10, 12, then D (unlimited) and 6E
  (counts the best 6, skips any) at fill 0.95;
* **length-dense** -- the same trains on full, dense boards (fill 1.0, track density 0.9),
  where D and E trains have millions of routes.

The search enumerates every route of each train type before packing; long trains (D, E) on
full boards have very many routes, so each solve runs under ``--time-limit`` seconds and the
CSV keeps what happened: ``optimal`` False with the proven ``bound`` when the limit hit.  That
is reported, not hidden: the plot marks such points with a red cross.  ``--quick`` runs a
small version (one seed, fewer points) for the notebook.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import routing
from routing import Train
from routing.synthetic import synthetic_problem

RESULTS = Path(__file__).resolve().parent / "results"
BOARD = {"cols": 12, "rows": 10}
DENSITY, DENSE = 0.6, 0.9
FIELDS = ["sweep", "x", "seed", "trains", "fill", "density", "nodes", "segments", "seconds",
          "total", "bound", "optimal", "routes_considered", "time_limit"]  # fmt: skip

TRAIN_SETS = {1: ("4",), 2: ("4", "5"), 3: ("3", "4", "5"), 4: ("3", "4", "5", "6")}
LENGTHS = ("2", "3", "4", "5", "6", "8", "10", "12", "D", "6E")


def train(name: str) -> Train:
    if name == "D":
        return Train.unlimited("D")
    if name.endswith("E"):
        return Train.express(name, int(name[:-1]))
    return Train.n(name, int(name))


def points(quick: bool) -> list[tuple[str, str, tuple[str, ...], float, float]]:
    """(sweep, x label, train names, fill, density) for every point of the sweeps."""
    fills = (0.5, 0.7, 0.9, 1.0) if quick else (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
    lengths = ("2", "4", "6", "8", "D", "6E") if quick else LENGTHS
    dense = ("4", "8", "12", "D") if quick else LENGTHS
    out = [("fill", f"{f:.2f}", TRAIN_SETS[2], f, DENSITY) for f in fills]
    out += [("trains", str(k), TRAIN_SETS[k], 0.95, DENSITY) for k in TRAIN_SETS]
    out += [("length", name, (name,), 0.95, DENSITY) for name in lengths]
    out += [("length-dense", name, (name,), 1.0, 0.8 if quick else DENSE) for name in dense]
    return out


def measure(sweep, x, names, fill, density, seed, time_limit) -> dict:
    problem = synthetic_problem([train(n) for n in names], seed=seed, fill=fill,
                                density=density, **BOARD)  # fmt: skip
    t0 = time.perf_counter()
    sol = routing.solve(problem, time_limit=time_limit, method="numba")
    seconds = time.perf_counter() - t0
    net = problem.network
    return {
        "sweep": sweep, "x": x, "seed": seed, "trains": "+".join(names), "fill": fill,
        "density": density, "nodes": net.n_nodes, "segments": net.n_segments,
        "seconds": round(seconds, 6), "total": sol.total, "bound": sol.bound,
        "optimal": sol.optimal, "routes_considered": sol.stats.get("routes_considered", ""),
        "time_limit": time_limit,
    }  # fmt: skip


def run(seeds=(0, 1, 2), time_limit: float = 20.0, quick: bool = False, log=print) -> list[dict]:
    from routing.kernels import load_kernels

    load_kernels()  # compiled (or loaded) first: the sweep times the compiled search
    rows = []
    for sweep, x, names, fill, density in points(quick):
        for seed in seeds:
            row = measure(sweep, x, names, fill, density, seed, time_limit)
            rows.append(row)
            flag = "" if row["optimal"] else f"  NOT OPTIMAL (bound {row['bound']})"
            log(f"{sweep:12s} {x:>5s} seed {seed}: {row['seconds'] * 1e3:9.1f} ms "
                f"total {row['total']}{flag}")  # fmt: skip
    return rows


def write_csv(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


def read_csv(path: Path) -> list[dict]:
    with Path(path).open() as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["seconds"] = float(r["seconds"])
        r["optimal"] = r["optimal"] == "True"
    return rows


def plot(rows: list[dict], path: Path | None = None):
    """Three panels (fill, trains, length): median seconds per x, every seed as a dot."""
    import matplotlib.pyplot as plt

    titles = {"fill": "board fill (2 trains: 4 + 5)", "trains": "number of trains (fill 0.95)",
              "length": "one train's length (fill 0.95)",
              "length-dense": "one train's length, dense full board"}  # fmt: skip
    titles = {k: v for k, v in titles.items() if any(r["sweep"] == k for r in rows)}
    fig, axes = plt.subplots(1, len(titles), figsize=(4.6 * len(titles), 4.2), squeeze=False)
    axes = axes[0]
    for ax, sweep in zip(axes, titles, strict=True):
        sel = [r for r in rows if r["sweep"] == sweep]
        xs = list(dict.fromkeys(r["x"] for r in sel))
        med = []
        for i, x in enumerate(xs):
            at = [r for r in sel if r["x"] == x]
            ys = sorted(r["seconds"] for r in at)
            med.append(ys[len(ys) // 2])
            for r in at:
                style = dict(marker="o", color="tab:blue", alpha=0.5) if r["optimal"] else \
                    dict(marker="x", color="red", markersize=9)  # fmt: skip
                ax.plot(i, r["seconds"], linestyle="none", **style)
        ax.plot(range(len(xs)), med, color="tab:blue", label="median")
        limits = {float(r["time_limit"]) for r in sel if not r["optimal"]}
        for limit in limits:
            ax.axhline(limit, color="red", linestyle="--", alpha=0.5, label="time limit")
        ax.set_xticks(range(len(xs)), xs)
        ax.set_yscale("log")
        ax.set_title(titles[sweep])
        ax.set_ylabel("solve time (s)")
        ax.grid(True, which="both", alpha=0.3)
    axes[-1].plot([], [], "x", color="red", label="time limit hit (not proven)")
    axes[-1].legend(loc="upper left")
    fig.suptitle("numba search on synthetic 12 x 10 boards (warm)")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")  # files only; a notebook keeps its own backend
    rows = run(tuple(range(args.seeds)), args.time_limit, args.quick)
    write_csv(rows, args.out / "scaling.csv")
    plot(read_csv(args.out / "scaling.csv"), args.out / "scaling.png")
    print(f"wrote {args.out / 'scaling.csv'} and {args.out / 'scaling.png'}")


if __name__ == "__main__":
    main()
