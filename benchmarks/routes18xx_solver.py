"""routes-18xx as an ``eighteen bench`` command solver: the worked example of an adapter.

Run from a source checkout::

    eighteen bench --tier real --match 'record 1846/' \\
        --solver 'python -m benchmarks.routes18xx_solver'

routes-18xx (PyPI ``routes-18xx==0.9.2``) reads 18xx.games board files, not a network, so
this command does not solve the instance it reads on standard input directly:

1. It rebuilds the 1846 position the instance came from out of the entry's provenance
   (``EIGHTEEN_PROVENANCE``, set by the harness; ``--provenance`` overrides it), the way the
   library builder made it (:func:`engine.app.bench_library.rebuild_run`: the record in
   ``tests/data/records`` replayed up to that action, or the seeded bot game played up to
   it).
2. It checks that the problem the engine poses for that position *is* the instance (same
   canonical document), and stops with an error otherwise: the answer below must be an
   answer to the instance the harness checks it against.
3. It runs routes-18xx on the position (:mod:`benchmarks.routes18xx_adapter`: its input
   files, its loaders, its ``find_best_routes``).
4. It translates routes-18xx's answer back into the instance's node ids: each route's stops
   are hexes; each is mapped to the instance's stop nodes of that hex.  Where a hex has
   several (Chicago's four cities), every combination is tried and the first one that
   :func:`routing.validate` accepts with routes-18xx's total is kept (else the first it
   accepts, else the first: the harness then reports the disagreement as wrong).  Junctions
   are left out; the validator finds the track.  Trains are matched by name.

The solution document says ``"proven": true``: routes-18xx enumerates every route of every
train and returns the best set it finds, with no time limit -- it claims the optimum under
its own reading of the rules (where that reading differs from ours, the harness reports
the answer wrong, not unsolved; ``benchmarks/DISCREPANCIES.md`` explains the known cases).

Exit status: 0 with a solution document on standard output; 3 (the harness's ``skipped``)
with one line on standard error for an instance routes-18xx cannot express (not 1846, the
2-player variant, a minor operating, a Boomtown, a board routes-18xx's own check refuses:
:class:`benchmarks.routes18xx_adapter.NotApplicableError`);
1 with one line for an instance that is not the rebuilt position's problem, or a
provenance that names no run; 2 for bad input (a document that is not an instance, no
provenance).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Sequence

import routing
from benchmarks import routes18xx_adapter as r18
from engine.app.bench import SKIP_STATUS
from engine.app.bench_library import LibraryError, rebuild_run
from routing.instance import (
    DocumentError,
    canonical_json,
    instance_hash,
    problem_from_instance,
    problem_to_instance,
)

__all__ = [
    "AdapterError",
    "MAX_COMBINATIONS",
    "applies",
    "rebuild",
    "to_solution",
    "solve_instance",
    "main",
]

#: Most combinations of multi-city hexes tried when translating one answer.
MAX_COMBINATIONS = 4096
_STOP_KINDS = {int(k) for k in routing.NodeKind} - {int(routing.NodeKind.JUNCTION)}


class AdapterError(ValueError):
    """An instance this adapter cannot answer honestly; the message names the item."""


def applies(provenance: str, company: str | None = None) -> str | None:
    """Why routes-18xx does not take the run ``provenance`` names (of ``company``), or
    ``None`` when it may: an 1846 record or bot game of a corporation.  Not the 2-player
    variant: routes-18xx 0.9.2 removes only C&O, Erie and Pennsylvania, while the variant
    removes one corporation of each of two other groups and gives it a second token."""
    if company in r18.MINOR_NAMES:
        return f"{company} is a minor; routes-18xx runs corporations only"
    words = provenance.split()
    if len(words) >= 2 and words[0] == "record":
        title = words[1].split("/")[0]
        if title == "1846":
            return None
        if title == "18462pVariant":
            return ("routes-18xx 0.9.2 has no 1846 2-player variant (its removals and second "
                    "tokens)")  # fmt: skip
        return f"routes-18xx here covers 1846 only, not {title} ({provenance})"
    if len(words) >= 2 and words[0] == "bot":
        if words[1] == "1846":
            return None
        return f"routes-18xx here covers 1846 only, not {words[1]} ({provenance})"
    return f"not a record or bot position: {provenance}"


def rebuild(instance: dict, provenance: str):
    """The position ``provenance`` names, checked to pose exactly ``instance``.

    Parameters
    ----------
    instance : dict
        The instance document the harness sent.
    provenance : str
        The entry's provenance line.

    Returns
    -------
    engine.model.position.Position

    Raises
    ------
    AdapterError
        A provenance that names no run, or a rebuilt problem that differs from ``instance``.
    """
    try:
        position, problem, company = rebuild_run(provenance)
    except LibraryError as exc:
        raise AdapterError(str(exc)) from None
    rebuilt = problem_to_instance(problem, company=company)
    if canonical_json(rebuilt) != canonical_json(instance):
        raise AdapterError(
            f"provenance {provenance!r}: the rebuilt position poses instance "
            f"{instance_hash(rebuilt)[:12]}, not the instance on standard input "
            f"({instance_hash(instance)[:12]})"
        )
    return position


def _train_indices(problem: routing.Problem, routes: Sequence[dict]) -> list[int]:
    """The instance's train index of each routes-18xx route (matched by name, in order)."""
    free: dict[str, list[int]] = {}
    for i, train in enumerate(problem.trains):
        free.setdefault(train.name.replace(" ", ""), []).append(i)
    out = []
    for k, route in enumerate(routes):
        name = str(route["train"]).replace(" ", "")
        if not free.get(name):
            have = ", ".join(t.name for t in problem.trains)
            raise AdapterError(f"routes-18xx route {k}: train {route['train']!r} is not one of "
                               f"the instance's trains ({have})")  # fmt: skip
        out.append(free[name].pop(0))
    return out


def _stop_choices(problem: routing.Problem, hexes: Sequence[str], k: int) -> list[list[int]]:
    """Per stop hex of route ``k``, the instance's stop nodes in that hex."""
    net = problem.network
    index = {name: i for i, name in enumerate(net.hex_names)}
    out = []
    for h in hexes:
        if h not in index:
            raise AdapterError(f"routes-18xx route {k}: hex {h!r} is not in the instance")
        nodes = [
            n
            for n in range(net.n_nodes)
            if int(net.node_hex[n]) == index[h] and int(net.node_kind[n]) in _STOP_KINDS
        ]
        if not nodes:
            raise AdapterError(f"routes-18xx route {k}: hex {h!r} has no stop in the instance")
        out.append(nodes)
    return out


def to_solution(problem: routing.Problem, result: r18.Routes18xxResult) -> dict:
    """routes-18xx's answer as a solution document of ``problem`` (see the module docstring
    for how its hexes become node ids).

    Raises
    ------
    AdapterError
        A route whose train or hex the instance does not have.
    """
    trains = _train_indices(problem, result.routes)
    choices = [_stop_choices(problem, r["stops"], k) for k, r in enumerate(result.routes)]
    per_route = [list(itertools.product(*c)) for c in choices]
    candidates = itertools.islice(itertools.product(*per_route), MAX_COMBINATIONS)
    first = legal = None
    for combo in candidates:
        routes = [(t, list(nodes)) for t, nodes in zip(trains, combo, strict=True)]
        first = first or routes
        try:
            scored = routing.validate(problem, routes)
        except (routing.RouteError, ValueError):
            continue
        legal = legal or routes
        if scored.total == result.total:
            legal = routes
            break
    chosen = legal or first or []
    return {
        "version": 1,
        "total": int(result.total),
        "proven": True,
        "routes": [{"train": t, "nodes": [int(n) for n in nodes]} for t, nodes in chosen],
    }


def solve_instance(instance: dict, provenance: str) -> dict:
    """routes-18xx's answer to ``instance`` as a solution document.

    Raises
    ------
    benchmarks.routes18xx_adapter.NotApplicableError
        A position routes-18xx cannot express.
    AdapterError
        A provenance naming no run, or not this instance's.
    routing.instance.DocumentError
        ``instance`` is not an instance document.
    """
    company = instance.get("company") if isinstance(instance, dict) else None
    why = applies(provenance, company if isinstance(company, str) else None)
    if why is not None:
        raise r18.NotApplicableError(why)
    problem = problem_from_instance(instance)
    position = rebuild(instance, provenance)
    return to_solution(problem, r18.solve(position))


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.routes18xx_solver [--provenance TEXT] < instance.json``."""
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.routes18xx_solver",
        description="Answer an 1846 instance of the benchmark library with routes-18xx.",
    )
    ap.add_argument("--provenance", help="the entry's provenance (default: "
                    "$EIGHTEEN_PROVENANCE, set by eighteen bench)")  # fmt: skip
    args = ap.parse_args(argv)
    prog = "routes18xx_solver"
    provenance = args.provenance or os.environ.get("EIGHTEEN_PROVENANCE", "")
    if not provenance.strip():
        print(f"{prog}: no provenance: run it from eighteen bench, or pass --provenance",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        instance = json.load(sys.stdin)
    except json.JSONDecodeError as exc:
        print(f"{prog}: standard input is not JSON: {exc}", file=sys.stderr)
        return 2
    try:
        doc = solve_instance(instance, provenance.strip())
    except r18.NotApplicableError as exc:
        print(f"{prog}: not applicable: {exc}", file=sys.stderr)
        return SKIP_STATUS
    except DocumentError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except AdapterError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
