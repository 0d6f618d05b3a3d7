"""(c) Every 1846 position: routes-18xx (the PyPI baseline) beside numba and CP-SAT.

routes-18xx joins the ``position <name>`` groups of ``test_bench_corpus.py``, so numba,
routes-18xx and CP-SAT sit side by side.  Its revenue must equal numba's proven optimum,
except on the positions listed in :data:`KNOWN`, each explained in
``benchmarks/DISCREPANCIES.md``; there the test checks that routes-18xx still answers what
the document says (so a change on either side shows up) and is marked xfail.

Timing includes routes-18xx's ``multiprocessing`` pool, as its users see it.  Default: the
1846-early and 1846-mid examples; ``EIGHTEEN_BENCH_FULL=1``: every 1846 position.
"""

from __future__ import annotations

import pytest

from benchmarks import routes18xx_adapter as r18
from benchmarks.common import FULL, cases_1846, extra, position_of, reference

CASES = cases_1846()

#: position -> (routes-18xx's revenue, one-line reason); DISCREPANCIES.md has the details.
_WEST_WEST = (
    "its best route runs West to West (C5 Chicago Connections - I1 St. Louis), which "
    "18xx.games and routes-18xx allow and our 1846 rules forbid on purpose "
    "(FORBID_WEST_WEST, from the rulebook summary)"
)
KNOWN: dict[str, tuple[int, str]] = {
    "1846-10264-a296-NYC": (390, _WEST_WEST),
    "1846-3099-a306-NYC": (440, _WEST_WEST),
    "1846-10264-a377-PRR": (
        550,
        "routes-18xx treats any Chicago city as PRR's station because PRR has a token in "
        "another Chicago city, so its 4/6 counts D6 instead of the E11 token city it must "
        "count; under 18xx.games' rule its routes earn 530, and CP-SAT proves 540 like numba",
    ),
}


def _run(position):
    return r18.solve(position)


@pytest.mark.parametrize("entry", CASES, ids=lambda e: e.name)
def test_position_routes18xx(benchmark, entry):
    benchmark.group = f"position {entry.name}"
    position = position_of(entry.file)
    try:
        r18.translate(position)
    except r18.NotApplicableError as exc:
        pytest.skip(f"routes-18xx cannot express this position: {exc}")
    ref = reference(entry.file)
    result = benchmark.pedantic(_run, args=(position,), rounds=3 if FULL else 1, iterations=1)
    agree = result.total == ref.total
    extra(benchmark, suite="positions", tool="routes18xx", total=result.total, agree=agree,
          position=entry.name, title=entry.title, stage=entry.stage, phase=entry.phase,
          trains=list(entry.trains), source=entry.source)  # fmt: skip
    if entry.name in KNOWN:
        expected, why = KNOWN[entry.name]
        assert result.total == expected, f"routes-18xx now answers {result.total}, not {expected}"
        pytest.xfail(f"routes-18xx {result.total} vs numba {ref.total}: {why}")
    assert agree, f"routes-18xx {result.total} != numba {ref.total} (proven optimum)"
