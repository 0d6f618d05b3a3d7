"""OR-Tools CP-SAT crash repro: multi-worker solves of our 1846-mid model corrupt the heap.

``cpsat_1846_mid_model.pb.txt`` is ``routing.cpsat_model.build_model`` of
``engine/examples/1846-mid.json`` exported with ``CpModel.export_to_file``.  With OR-Tools
9.15.6755 on the 2-core dev machine, solving it five times with ``num_workers=2`` (and the
``random_seed=0`` that ``routing.cpsat`` sets) ends in ``free(): invalid next size`` or a
segfault in most runs; ``num_workers=1`` never crashed.  No numba or engine code is loaded
here, so the fault is inside OR-Tools.  Run: ``python benchmarks/repro/cpsat_multiworker_crash.py
[workers] [seed]`` and check the exit code (134/139 = crashed).
"""

import sys
from pathlib import Path

from ortools.sat.python import cp_model

workers = int(sys.argv[1]) if len(sys.argv) > 1 else 2
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
model = cp_model.CpModel()
model.proto.parse_text_format((Path(__file__).parent / "cpsat_1846_mid_model.pb.txt").read_text())
for _ in range(5):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.solve(model)
print(solver.status_name(status), solver.objective_value)
