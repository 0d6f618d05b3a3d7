"""The benchmark library: route problems in three tiers, each with its certified optimum.

Every entry of the library is one JSON object (one line of ``<tier>.jsonl.gz`` in
:data:`DATA_DIR`, shipped with the package):

* ``id``: ``<tier>-<first 12 hex digits of the instance hash>`` (:func:`routing.instance.
  instance_hash`: the network, trains and rules; positions that pose the same problem are
  kept once);
* ``instance``: the instance document (:mod:`routing.instance`), what a solver gets;
* ``optimum`` and ``certificate``: the certified optimum and how it was certified (which
  solvers proved it, or why one of them could not be asked);
* ``size``: nodes, segments, stops and trains;
* ``provenance``: where the problem comes from (a record and its action, a bot game's title,
  players, seed and action, or a generator and its parameters).

The tiers:

``real``
    Every operating run of the 21 public records (``tests/data/records``) and of seeded bot
    games of all six titles (:func:`engine.games.bots.play_random`), as the engine poses it.
``hard``
    Dense synthetic boards (:func:`routing.synthetic.synthetic_problem`) with one unlimited
    or express train, several trains, heavy bonuses, and goods trains contending for mines.
``tiny``
    Small synthetic problems the brute-force oracle (``tests/naive.py``) finishes; it
    certifies them too.

``python -m engine.app.bench_library`` rebuilds the library from a source checkout, bit for
bit: entries sorted by id, keys sorted, gzip without a time stamp, and certificates that
hold only totals and proofs (never timings).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import inspect
import io
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import routing
from engine.app.files import write_text_atomic
from routing.instance import canonical_json, instance_hash, problem_to_instance

__all__ = [
    "TIERS",
    "DATA_DIR",
    "BUDGET_BYTES",
    "CERTIFY_LIMIT",
    "LibraryError",
    "Entry",
    "load_tier",
    "tier_path",
    "cpsat_gaps",
    "certify",
    "make_entry",
    "record_runs",
    "bot_runs",
    "run_problem",
    "rebuild_run",
    "real_problems",
    "hard_problems",
    "tiny_problems",
    "write_tier",
    "build",
    "main",
]

TIERS = ("real", "hard", "tiny")
DATA_DIR = Path(__file__).parent / "bench_data"
#: Size budget of the shipped library (all tiers, compressed).
BUDGET_BYTES = 3_000_000
#: Seconds each certifying solver may take on one problem.
CERTIFY_LIMIT = 300.0
#: Bot games of the real tier: (title, players, seeds).
BOT_GAMES = (
    ("1846", 4, (1, 2)),
    ("1836Jr30", 3, (1, 2)),
    ("1836Jr56", 3, (1, 2)),
    ("1812", 3, (1, 2)),
    ("1842", 3, (1, 2)),
    ("1862", 4, (1, 2)),
)

_REPO = Path(__file__).resolve().parents[2]
RECORDS = _REPO / "tests" / "data" / "records"


class LibraryError(ValueError):
    """A tier that does not exist or cannot be read; the message names it."""


@dataclass(frozen=True)
class Entry:
    """One library entry (see the module docstring for the fields)."""

    id: str
    tier: str
    instance: dict
    optimum: int
    certificate: dict
    size: dict
    provenance: str

    @classmethod
    def from_dict(cls, d: dict) -> Entry:
        return cls(d["id"], d["tier"], d["instance"], int(d["optimum"]), d["certificate"],
                   d["size"], d["provenance"])  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "tier": self.tier,
            "instance": self.instance,
            "optimum": self.optimum,
            "certificate": self.certificate,
            "size": self.size,
            "provenance": self.provenance,
        }


# ---------------------------------------------------------------------------------- reading
def tier_path(tier: str, data_dir: Path | None = None) -> Path:
    """The file of ``tier``.

    Raises
    ------
    LibraryError
        An unknown tier, naming the known ones.
    """
    if tier not in TIERS:
        raise LibraryError(f"unknown tier {tier!r}; expected one of {', '.join(TIERS)}")
    return (data_dir or DATA_DIR) / f"{tier}.jsonl.gz"


def load_tier(tier: str, data_dir: Path | None = None) -> list[Entry]:
    """Every entry of ``tier``, in library order (by id).

    Raises
    ------
    LibraryError
        An unknown tier, or a tier file that is missing or unreadable (naming it).
    """
    path = tier_path(tier, data_dir)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return [Entry.from_dict(json.loads(line)) for line in fh if line.strip()]
    except FileNotFoundError:
        raise LibraryError(f"tier {tier!r}: {path.name} is missing; rebuild the library with "
                           "python -m engine.app.bench_library") from None  # fmt: skip
    except (OSError, EOFError, ValueError, KeyError) as exc:
        raise LibraryError(f"tier {tier!r}: {path.name} is unreadable: {exc}") from None


# ---------------------------------------------------------------------------- certificates
#: Rules fields a solver must know about for its answer to mean the same problem.
_OPTIONAL_RULES = ("token_counted", "min_counted_with", "hex_once", "designated_keys")


@functools.lru_cache(maxsize=1)
def _cpsat_source() -> str:
    from routing import cpsat, cpsat_model

    return inspect.getsource(cpsat) + inspect.getsource(cpsat_model)


def cpsat_gaps(problem: routing.Problem) -> list[str]:
    """Rules the problem uses that the CP-SAT model does not read (it would ignore them)."""
    rules = problem.rules
    return [f for f in _OPTIONAL_RULES
            if getattr(rules, f, None) and f not in _cpsat_source()]  # fmt: skip


def _answer(solution: routing.Solution) -> dict:
    return {"total": int(solution.total), "proven": bool(solution.optimal)}


def _ask(solve: Callable[[], routing.Solution]) -> dict:
    """A certifying solver's answer, or the error it raised (a bug it has, recorded in the
    certificate instead of stopping the build)."""
    try:
        return _answer(solve())
    except Exception as exc:  # noqa: BLE001 - any crash of a solver is a finding to record
        return {"error": f"{type(exc).__name__}: {exc}"}


def certify(problem: routing.Problem, oracle: bool = False,
            limit: float = CERTIFY_LIMIT) -> tuple[int, dict] | None:  # fmt: skip
    """The certified optimum of ``problem`` and its certificate, or ``None`` when it cannot
    be certified (``auto`` did not prove its answer within ``limit`` seconds, or a proven
    answer differs from it: a bug to report, never an entry).

    The certificate names each solver asked (``auto``: :func:`routing.solve`'s default
    method; ``cpsat``: the independent CP-SAT model; ``oracle``: the brute force of
    ``tests/naive.py``) with its total and proof.  Where the CP-SAT model lacks a rule the
    problem uses (:func:`cpsat_gaps`) it is not asked and ``cpsat_gaps`` says why; where it
    raises (a bug of the model), ``cpsat`` holds the ``error`` and the optimum rests on the
    other solvers alone.  Every answer that is there must be proven and agree.
    """
    cert: dict[str, Any] = {"auto": _ask(lambda: routing.solve(problem, time_limit=limit))}
    gaps = cpsat_gaps(problem)
    if gaps:
        cert["cpsat_gaps"] = gaps
    else:
        cert["cpsat"] = _ask(lambda: routing.solve(problem, method="cpsat", time_limit=limit,
                                                   num_workers=1))  # fmt: skip
    if oracle:
        from tests.naive import naive_solve

        cert["oracle"] = _ask(lambda: naive_solve(problem))
    answers = [a for k, a in cert.items() if k != "cpsat_gaps" and "error" not in a]
    if "error" in cert["auto"] or not all(a["proven"] for a in answers):
        return None
    if len({a["total"] for a in answers}) != 1:
        return None
    return cert["auto"]["total"], cert


def _size(problem: routing.Problem) -> dict:
    net = problem.network
    stops = int((net.node_kind != int(routing.NodeKind.JUNCTION)).sum())
    return {"nodes": net.n_nodes, "segments": net.n_segments, "stops": stops,
            "trains": len(problem.trains)}  # fmt: skip


def make_entry(tier: str, problem: routing.Problem, company: str, provenance: str,
               oracle: bool = False) -> Entry | None:  # fmt: skip
    """The library entry of ``problem``, or ``None`` when it cannot be certified."""
    doc = problem_to_instance(problem, company=company)
    certified = certify(problem, oracle=oracle)
    if certified is None:
        return None
    optimum, cert = certified
    return Entry(f"{tier}-{instance_hash(doc)[:12]}", tier, doc, optimum, cert, _size(problem),
                 provenance)  # fmt: skip


# ---------------------------------------------------------------------------------- sources
#: A problem source yields (problem, company, provenance).
Source = Iterator[tuple[routing.Problem, str, str]]


#: A run of the real tier: (position, company, provenance).
Run = tuple[Any, str, str]


class _RunFoundError(Exception):
    """Raised from a callback to stop a replay or a bot game at the run wanted."""


def record_runs(path: Path, records: Path = RECORDS, until: str | None = None) -> list[Run]:
    """The position of every operating run of the record at ``path``, in order, each with its
    company and provenance (``record <path under records> action <id> <company>``).

    Parameters
    ----------
    path : Path
        A record file under ``records``.
    records : Path
        The folder the provenance names records relative to.
    until : str, optional
        Stop the replay after the run of this provenance (the runs after it are not taken).

    Returns
    -------
    list of (Position, str, str)
    """
    from engine.app.report import replay
    from engine.model.position import position_from_dict

    name = path.relative_to(records).as_posix()
    runs: list[Run] = []

    def take(turn) -> None:
        if turn.position is None:
            return
        provenance = f"record {name} action {turn.action_id} {turn.company}"
        runs.append((position_from_dict(turn.position), turn.company, provenance))
        if provenance == until:
            raise _RunFoundError

    with contextlib.suppress(_RunFoundError):
        replay(path, solve=False, on_turn=take)
    return runs


def bot_runs(title: str, players: int, seed: int, until: str | None = None) -> list[Run]:
    """The position of every route stage of the seeded bot game of ``title``
    (:func:`engine.games.bots.play_random`), each with its company and provenance
    (``bot <title> players <n> seed <s> action <k> <company>``: the position before the
    game's action *k*).

    Parameters
    ----------
    title : str
    players : int
    seed : int
    until : str, optional
        Stop the game at the route stage of this provenance.

    Returns
    -------
    list of (Position, str, str)
    """
    from engine.games.bots import play_random

    taken: list[tuple] = []

    def take(game, _action) -> None:
        # A company's route stage: the position it runs its trains on.
        t = game.or_turn
        if (
            game.round.kind == "operating"
            and t is not None
            and t.stage == "route"
            and not game.finished
            and (t.op, t.start) not in {x[:2] for x in taken}
        ):
            action = len(game.actions) + 1
            taken.append((t.op, t.start, action, game.turn_position(t.op)))
            if until == f"bot {title} players {players} seed {seed} action {action} {t.op}":
                raise _RunFoundError

    with contextlib.suppress(_RunFoundError):
        play_random(title, players, seed=seed, max_actions=20_000, check=False, on_action=take,
                    stop_at_limit=True)  # fmt: skip
    return [(position, op, f"bot {title} players {players} seed {seed} action {action} {op}")
            for op, _start, action, position in taken]  # fmt: skip


def run_problem(position: Any) -> routing.Problem:
    """The route problem the engine poses for ``position`` (what an entry's instance holds)."""
    from engine.games import build_problem

    problem, _view = build_problem(position)
    return problem


_BOT = re.compile(r"^bot (\S+) players (\d+) seed (\d+) action \d+ \S+$")
_RECORD = re.compile(r"^record (\S+) action \d+ \S+$")


def rebuild_run(provenance: str, records: Path = RECORDS) -> tuple[Any, routing.Problem, str]:
    """The position, problem and company of the real-tier run ``provenance`` names, rebuilt
    the way :func:`build` made them (replaying the record, or playing the bot game, only up
    to that run).  Needs a source checkout for records.

    Returns
    -------
    (Position, routing.Problem, str)

    Raises
    ------
    LibraryError
        A provenance of no real-tier run, or a run its record or game does not have.
    """
    runs: list[Run]
    if m := _RECORD.match(provenance):
        path = records / m.group(1)
        if not path.is_file():
            raise LibraryError(f"provenance {provenance!r}: no record {m.group(1)} in {records}")
        runs = record_runs(path, records, until=provenance)
    elif m := _BOT.match(provenance):
        runs = bot_runs(m.group(1), int(m.group(2)), int(m.group(3)), until=provenance)
    else:
        raise LibraryError(f"provenance {provenance!r}: not a record or bot run")
    found = [(position, company) for position, company, p in runs if p == provenance]
    if not found:
        raise LibraryError(f"provenance {provenance!r}: the replay has no such run")
    position, company = found[-1]
    return position, run_problem(position), company


def _record_problems(records: Path) -> Source:
    for path in sorted(records.glob("*/*.json")):
        for position, company, provenance in record_runs(path, records):
            yield run_problem(position), company, provenance


def _bot_problems() -> Source:
    for title, players, seeds in BOT_GAMES:
        for seed in seeds:
            for position, op, provenance in bot_runs(title, players, seed):
                problem = run_problem(position)
                if problem.trains:
                    yield problem, op, provenance


def real_problems(records: Path = RECORDS) -> Source:
    """The real tier's problems: every run of the records under ``records``, then every
    route stage of the bot games of :data:`BOT_GAMES`."""
    yield from _record_problems(records)
    yield from _bot_problems()


def _synthetic(trains: list[routing.Train], seed: int, n_tokens: int = 3,
               **board: Any) -> tuple[routing.Problem, str]:  # fmt: skip
    from routing.synthetic import synthetic_problem

    problem = synthetic_problem(trains, n_tokens=n_tokens, seed=seed, **board)
    names = "+".join(t.name for t in trains)
    params = " ".join(f"{k}={v}" for k, v in sorted(board.items()))
    return (
        problem,
        f"routing.synthetic.synthetic_problem trains={names} seed={seed} "
        f"n_tokens={n_tokens} {params}".strip(),
    )


def _with_bonuses(problem: routing.Problem, seed: int) -> routing.Problem:
    """``problem`` with every kind of bonus on its stops: east-west ends, city pairs, end
    tokens, a longest-route bonus and a bonus route (drawn with ``seed``)."""
    import numpy as np

    net = problem.network
    rng = np.random.default_rng(seed)
    stops = [i for i in range(net.n_nodes) if net.is_stop(i)]

    def pick(k: int) -> list[int]:
        return sorted(int(x) for x in rng.choice(stops, size=k, replace=False))

    west, east = pick(4), pick(4)
    rules = routing.Rules.make(
        token_nodes=problem.rules.token_nodes,
        node_bonus={n: 20 for n in pick(3)},
        end_pair_bonuses=[
            routing.EndPairBonus.make({n: 40 for n in west}, {n: 30 for n in east}, "east-west")
        ],  # fmt: skip
        set_pair_bonuses=[routing.SetPairBonus.make(pick(2), pick(2), 50, "pair")],
        end_token_bonuses=[
            routing.EndTokenBonus.make(
                {n: 20 for n in problem.rules.token_nodes or ()}, 2, "end-token"
            )
        ],  # fmt: skip
        longest_route_bonuses=[routing.LongestRouteBonus(10, name="mail")],
        bonus_routes=[routing.BonusRoute.make(pick(2), pick(2), 120, 10, "express-run")],
    )
    return routing.Problem(net, problem.trains, rules, label=problem.label + " bonuses")


def hard_problems() -> Source:
    """The hard tier: full, dense boards (12 x 10 hexes, fill 1.0, density 0.9) with one D
    or one 6E train, with four trains, with every kind of bonus, and the goods-train
    contention of ``tests/data/packing_stall_1812.json``."""
    from routing import Train
    from routing.instance import read_instance

    dense = {"cols": 12, "rows": 10, "fill": 1.0, "density": 0.9}
    for seed in range(4):
        for train in (Train.unlimited("D"), Train.express("6E", 6)):
            problem, prov = _synthetic([train], seed, **dense)
            yield problem, "synthetic", prov
    four = [Train.n("4", 4), Train.n("5", 5), Train.n("6", 6), Train.n_m("4/6", 4, 6)]
    for seed in range(2):
        problem, prov = _synthetic(four, seed, n_tokens=4, **dense)
        yield problem, "synthetic", prov
    bonused = [([Train.n("4", 4), Train.n("6", 6)], 0), ([Train.n("4", 4), Train.n("6", 6)], 1),
               ([Train.n("5", 5), Train.express("6E", 6)], 0)]  # fmt: skip
    for trains, seed in bonused:
        problem, prov = _synthetic(trains, seed, **dense)
        yield _with_bonuses(problem, seed), "synthetic", f"{prov}; with_bonuses seed={seed}"
    stall = _REPO / "tests" / "data" / "packing_stall_1812.json"
    yield read_instance(stall), "GNR", "tests/data/packing_stall_1812.json (1812 bot game)"


def tiny_problems(count: int = 40) -> Source:
    """The tiny tier: ``count`` small synthetic boards with one to three trains of every
    kind (N, N/M, E, D, +towns, doubling) that the oracle solves in well under a second."""
    from routing import Train

    kinds = [
        [Train.n("2", 2)],
        [Train.n("3", 3), Train.n("2", 2)],
        [Train.n_m("3/5", 3, 5)],
        [Train.express("3E", 3)],
        [Train.unlimited("D")],
        [Train.plus("2+2", 2, 2), Train.n("3", 3)],
        [Train.n("2", 2, multiplier=2), Train.n("3", 3)],
        [Train.n("2", 2), Train.n("2", 2), Train.n("3", 3)],
    ]
    for seed in range(count):
        trains = kinds[seed % len(kinds)]
        problem, prov = _synthetic(trains, seed, n_tokens=2, cols=5, rows=4, density=0.75,
                                   city_share=0.35, town_share=0.15)  # fmt: skip
        yield problem, "synthetic", prov


# ---------------------------------------------------------------------------------- writing
def _gzip(text: str) -> bytes:
    """``text`` gzipped with no time stamp and no file name: the same bytes every time."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as fh:
        fh.write(text.encode("utf-8"))
    return buf.getvalue()


def write_tier(entries: Iterable[Entry], path: Path) -> Path:
    """Write ``entries`` (sorted by id, one canonical JSON line each) to ``path``."""
    lines = [canonical_json(e.to_dict()) for e in sorted(entries, key=lambda e: e.id)]
    return write_text_atomic(path, _gzip("".join(line + "\n" for line in lines)))


def build(tier: str, data_dir: Path | None = None,
          log: Callable[[str], None] = print) -> tuple[Path, int, list[str]]:  # fmt: skip
    """Build ``tier`` into ``data_dir``; return the file, its entry count and the problems
    left out (not certified: each named by its provenance)."""
    path = tier_path(tier, data_dir)
    source = {"real": real_problems, "hard": hard_problems, "tiny": tiny_problems}[tier]()
    entries: dict[str, Entry] = {}
    left_out: list[str] = []
    seen = 0
    t0 = time.perf_counter()
    for problem, company, provenance in source:
        seen += 1
        doc = problem_to_instance(problem, company=company)
        key = f"{tier}-{instance_hash(doc)[:12]}"
        if key in entries:
            continue  # the same problem again (a position repeated): keep the first
        entry = make_entry(tier, problem, company, provenance, oracle=tier == "tiny")
        if entry is None:
            left_out.append(provenance)
            log(f"{tier}: not certified, left out: {provenance}")
            continue
        entries[key] = entry
        if len(entries) % 50 == 0:
            log(f"{tier}: {len(entries)} entries ({seen} problems, "
                f"{time.perf_counter() - t0:.0f} s)")  # fmt: skip
    write_tier(entries.values(), path)
    return path, len(entries), left_out


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.app.bench_library [--tier T ...] [--out DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.app.bench_library",
        description="Rebuild the benchmark library, bit for bit.",
    )
    parser.add_argument("--tier", action="append", choices=TIERS,
                        help="Tier to rebuild (repeatable; default: all).")  # fmt: skip
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="Folder to write into.")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for tier in args.tier or TIERS:
        path, count, left_out = build(tier, args.out)
        size = path.stat().st_size
        total += size
        print(f"{tier}: {count} entries, {size / 1e6:.2f} MB, {len(left_out)} left out")
    print(f"total {total / 1e6:.2f} MB (budget {BUDGET_BYTES / 1e6:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
