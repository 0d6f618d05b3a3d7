"""The benchmark library and ``eighteen bench``: the shipped tiers are certified, sized and
rebuildable bit for bit; the harness finds 0 wrong answers of our solvers on a sample, and
names a wrong, crashing, garbage-printing or stuck solver.

The full tiers run in the slow-marked tests at the end (``pytest -m slow``).
"""

from __future__ import annotations

import gzip
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import routing
from engine.app import bench as bh
from engine.app.bench_library import (
    BUDGET_BYTES,
    CERTIFY_LIMIT,
    TIERS,
    LibraryError,
    build,
    load_tier,
    rebuild_run,
    tier_path,
    write_tier,
)
from engine.app.cli import cli
from engine.app.report import replay
from routing.instance import (
    canonical_json,
    instance_hash,
    problem_from_instance,
    problem_to_instance,
)

HERE = Path(__file__).parent


def _run(*args: str, **kw):
    return CliRunner().invoke(cli, [str(a) for a in args], **kw)


@pytest.fixture(scope="module")
def tiers():
    return {tier: load_tier(tier) for tier in TIERS}


# ---------------------------------------------------------------------------------- library
def test_every_entry_is_certified_sized_and_named_by_its_hash(tiers):
    for tier, entries in tiers.items():
        assert len(entries) >= 10, tier
        ids = [e.id for e in entries]
        assert ids == sorted(ids) and len(set(ids)) == len(ids), tier
        for e in entries:
            assert e.id == f"{tier}-{instance_hash(e.instance)[:12]}"
            cert = e.certificate
            answers = [cert["auto"]] + [cert[k] for k in ("cpsat", "oracle") if k in cert]
            assert all(a["proven"] and a["total"] == e.optimum for a in answers), e.id
            # CP-SAT was asked unless the certificate says which rule it lacks
            assert ("cpsat" in cert) != bool(cert.get("cpsat_gaps")), e.id
            assert e.provenance and "/work/" not in e.provenance
            net = e.instance["network"]
            assert e.size["nodes"] == len(net["node_kind"])
            assert e.size["segments"] == len(net["seg_u"])
            assert e.size["trains"] == len(e.instance["trains"])
    assert all("oracle" in e.certificate for e in tiers["tiny"])


def test_the_real_tier_covers_every_record_and_every_title(tiers):
    provenance = [e.provenance for e in tiers["real"]]
    records = sorted(p.relative_to(HERE / "data" / "records").as_posix()
                     for p in (HERE / "data" / "records").glob("*/*.json"))  # fmt: skip
    assert len(records) == 21
    missing = [n for n in records if not any(p.startswith(f"record {n} ") for p in provenance)]
    # two hot-seat games end before their first operating round: they have no run to take
    assert missing == ["1846/hs_cvjhogoy_1599504419.json", "1846/hs_wwhjwjvo_1716866882.json"]
    for name in missing:
        assert replay(HERE / "data" / "records" / name, solve=False).turns == []
    for title in ("1846", "1836Jr30", "1836Jr56", "1812", "1842", "1862"):
        assert any(p.startswith(f"bot {title} ") for p in provenance), title


def test_the_library_fits_its_budget_and_rewrites_to_the_same_bytes(tiers, tmp_path):
    assert sum(tier_path(t).stat().st_size for t in TIERS) <= BUDGET_BYTES
    for tier, entries in tiers.items():
        again = write_tier(reversed(entries), tmp_path / f"{tier}.jsonl.gz")
        assert again.read_bytes() == tier_path(tier).read_bytes(), tier
        # no time stamp in the gzip header
        assert tier_path(tier).read_bytes()[4:8] == b"\0\0\0\0"


@pytest.mark.parametrize("provenance", [
    "record 1846/1846_game_end_reason_bankrupt.json action 52 B&O",
    "bot 1846 players 4 seed 1 action 104 PRR",
])  # fmt: skip
def test_a_real_run_is_rebuilt_from_its_provenance(tiers, provenance):
    (entry,) = [e for e in tiers["real"] if e.provenance == provenance]
    position, problem, company = rebuild_run(provenance)
    assert company == entry.instance["company"] == position.company
    assert canonical_json(problem_to_instance(problem, company=company)) == canonical_json(
        entry.instance
    )


@pytest.mark.parametrize(("provenance", "message"), [
    ("routing.synthetic.synthetic_problem trains=2 seed=0", "not a record or bot run"),
    ("record 1846/nosuch.json action 5 PRR", "no record 1846/nosuch.json"),
    ("record 1846/222264.json action 99999 PRR", "the replay has no such run"),
])  # fmt: skip
def test_a_provenance_of_no_run_is_named(provenance, message):
    with pytest.raises(LibraryError, match=message):
        rebuild_run(provenance)


def test_an_instance_reads_back_as_its_problem(tiers):
    entry = tiers["hard"][0]
    problem = problem_from_instance(entry.instance)
    assert routing.solve(problem, method="cpsat", num_workers=1).total == entry.optimum


# ---------------------------------------------------------------------------------- harness
@pytest.mark.parametrize("solver", ["auto", "cpsat"])
def test_bench_on_a_real_sample_finds_nothing_wrong(solver, tmp_path):
    out = _run("bench", "--tier", "real", "--sample", "6", "--solver", solver,
               "--csv", tmp_path / "b.csv", "--plot", tmp_path / "b.png")  # fmt: skip
    assert out.exit_code == 0, out.output
    rows = (tmp_path / "b.csv").read_text().splitlines()
    assert len(rows) == 7 and rows[0].startswith("solver,tier,id,status")
    assert all(",solved," in r for r in rows[1:]), rows
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    assert "solved" in out.output and solver in out.output


def test_the_oracle_runs_on_tiny_instances(tiers):
    entries = bh.pick(tiers["tiny"], sample=3)
    outcomes = bh.run_bench(bh.solver_from_spec("oracle"), entries, 10.0)
    assert [o.status for o in outcomes] == ["solved"] * 3
    assert all(o.proven for o in outcomes)


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "solver.py"
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path} {Path(__file__).resolve().parents[1]}"


SOLVER_SCRIPT = """
    import json, sys
    sys.path.insert(0, sys.argv[1])  # the checkout, for tests.naive (not an installed package)
    from routing.instance import problem_from_instance, solution_to_document
    from tests.naive import naive_solve
    problem = problem_from_instance(json.load(sys.stdin))
    print(json.dumps(solution_to_document(naive_solve(problem))))
"""


def test_a_command_solver_reads_instances_on_stdin(tiers, tmp_path):
    solver = bh.solver_from_spec(_script(tmp_path, SOLVER_SCRIPT))
    outcomes = bh.run_bench(solver, bh.pick(tiers["tiny"], sample=2, seed=1), 20.0)
    assert [o.status for o in outcomes] == ["solved", "solved"], outcomes


def worse_by_one_route(problem, time_limit):
    """A wrong solver for the tests: the optimum without its last route, claimed optimal."""
    solution = routing.solve(problem, time_limit=time_limit)
    routes = solution.routes[:-1]
    return {"version": 1, "total": sum(r.revenue for r in routes), "proven": True,
            "routes": [{"train": r.train, "nodes": list(r.nodes)} for r in routes]}  # fmt: skip


SKIPPING_SCRIPT = """
    import os, sys
    sys.stdin.read()
    print("no thanks:", os.environ["EIGHTEEN_INSTANCE_ID"], os.environ["EIGHTEEN_PROVENANCE"],
          file=sys.stderr)
    sys.exit(3)
"""


def test_a_command_exiting_3_is_skipped_and_gets_the_provenance(tiers, tmp_path):
    entries = tiers["tiny"][:2]
    spec = _script(tmp_path, SKIPPING_SCRIPT)
    outcomes = bh.run_bench(bh.solver_from_spec(spec), entries, 20.0)
    assert [o.status for o in outcomes] == ["skipped", "skipped"]
    assert [o.message for o in outcomes] == [f"no thanks: {e.id} {e.provenance}" for e in entries]
    (summary,) = bh.summarise(outcomes)
    assert summary.counts["skipped"] == 2 and summary.counts["solved"] == 0
    assert summary.median == summary.max == 0.0  # skips are left out of the times
    out = _run("bench", "--tier", "tiny", "--id", entries[0].id, "--id", entries[1].id,
               "--solver", spec, "--solver", "auto",
               "--csv", tmp_path / "b.csv", "--plot", "", env={"COLUMNS": "200"})  # fmt: skip
    assert out.exit_code == 0, out.output  # only skipped: nothing wrong or failed
    assert "skipped" in out.output and "Traceback" not in out.output
    rows = (tmp_path / "b.csv").read_text().splitlines()
    assert sum(",skipped," in r for r in rows) == 2 and sum(",solved," in r for r in rows) == 2


def not_applicable(problem, time_limit):
    """A solver for the tests that takes no instance."""
    raise bh.NotApplicable("only boards with ports")


def test_a_function_raising_not_applicable_is_skipped(tiers):
    solver = bh.solver_from_spec("tests.test_bench_library:not_applicable")
    (outcome,) = bh.run_bench(solver, tiers["tiny"][:1], 5.0)
    assert (outcome.status, outcome.message) == ("skipped", "only boards with ports")


def test_match_selects_by_provenance(tiers, tmp_path):
    real = tiers["real"]
    chosen = bh.pick(real, match=["record 1846/19962.json "])
    assert chosen and all(e.provenance.startswith("record 1846/19962.json ") for e in chosen)
    assert len(chosen) == sum("record 1846/19962.json " in e.provenance for e in real)
    both = bh.pick(real, match=["record 1846/19962.json ", "bot 1846 "])
    assert len(both) == len(chosen) + sum(e.provenance.startswith("bot 1846 ") for e in real)
    assert len(bh.pick(real, sample=3, match=["bot 1846 "])) == 3
    out = _run("bench", "--match", "record 1846/19962.json action 283 ", "--solver", "auto",
               "--csv", tmp_path / "b.csv", "--plot", "")  # fmt: skip
    assert out.exit_code == 0, out.output
    rows = (tmp_path / "b.csv").read_text().splitlines()
    (entry,) = [e for e in real if e.provenance == "record 1846/19962.json action 283 B&O"]
    assert len(rows) == 2 and f",{entry.id},solved," in rows[1]


def test_a_worse_answer_is_wrong_with_a_reproducer(tiers, tmp_path):
    entry = next(e for e in tiers["tiny"] if e.optimum > 0)
    spec = "tests.test_bench_library:worse_by_one_route"
    out = _run("bench", "--tier", "tiny", "--id", entry.id, "--solver", spec,
               "--csv", tmp_path / "b.csv", "--plot", "")  # fmt: skip
    assert out.exit_code == 1
    assert f"wrong {entry.id} ({spec}): earns" in out.output
    assert f"below the certified optimum {entry.optimum}" in out.output
    rerun = f"eighteen bench --tier tiny --id {entry.id} --solver {spec} --time-limit 30"
    assert rerun in " ".join(out.output.split())
    assert "Traceback" not in out.output


def test_a_false_total_and_illegal_routes_are_wrong(tiers):
    entry = tiers["tiny"][1]
    declared = routing.instance.DeclaredSolution(routes=(), total=entry.optimum, proven=True)
    status, _, _, message = bh.check_answer(entry, bh.Answer(declared, 0.1))
    assert entry.optimum == 0 or (status, message) == (
        "wrong",
        f"claims {entry.optimum}, its routes earn 0",
    )
    illegal = routing.instance.DeclaredSolution(routes=((0, (0, 0), ()),), total=0)
    assert bh.check_answer(entry, bh.Answer(illegal, 0.1))[0] == "wrong"
    # a lower total the solver says is not proven is unsolved, not wrong
    honest = routing.instance.DeclaredSolution(routes=(), total=0, proven=False)
    assert bh.check_answer(entry, bh.Answer(honest, 0.1))[0] == (
        "unsolved" if entry.optimum else "solved"
    )


@pytest.mark.parametrize(("body", "status", "message"), [
    ("import sys; sys.exit('no licence')", "failed", "exited with status 1: no licence"),
    ("print('hello')", "failed", "printed no solution JSON: 'hello'"),
    ("print('{\"version\": 1, \"routes\": []}')", "failed",
     "printed a bad solution: solution: missing field 'total'"),
    ("import time; time.sleep(30)", "unsolved", "killed at the time limit"),
])  # fmt: skip
def test_a_broken_command_solver_is_named(tiers, tmp_path, body, status, message):
    solver = bh.solver_from_spec(_script(tmp_path, body))
    (outcome,) = bh.run_bench(solver, tiers["tiny"][:1], 1.5)
    assert (outcome.status, outcome.message) == (status, message)


POOL_SCRIPT = """
    import os, subprocess, sys, time
    sys.stdin.read()
    # a worker of its own (as routes-18xx's process pool), which outlives a killed parent
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open(os.environ["WORKER_PID_FILE"], "w") as out:
        out.write(str(worker.pid))
    time.sleep(60)
"""


def test_at_the_time_limit_the_solvers_workers_are_killed_too(tiers, tmp_path, monkeypatch):
    pid_file = tmp_path / "worker.pid"
    monkeypatch.setenv("WORKER_PID_FILE", str(pid_file))
    solver = bh.solver_from_spec(_script(tmp_path, POOL_SCRIPT))
    (outcome,) = bh.run_bench(solver, tiers["tiny"][:1], 3.0)
    assert outcome.status == "unsolved" and pid_file.is_file()
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(pid):  # killed with its session; a zombie until init reaps it
        assert time.monotonic() < deadline, "the solver's worker outlived the time limit"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--tier", "huge", "--solver", "auto"], 2, "Invalid value for '--tier'"),
    (["--solver", "nosuchmodule:solve"], 1, "Error: solver 'nosuchmodule:solve': cannot import"),
    (["--solver", "routing:nosuch"], 1, "Error: solver 'routing:nosuch': routing has no function"),
    (["--solver", "'unclosed"], 1, "Error: solver \"'unclosed\": not a command line"),
    (["--solver", "/no/such/solver"], 1, "Error: solver '/no/such/solver': cannot run"),
    (["--id", "real-000000000000", "--solver", "auto"], 1,
     "Error: instance 'real-000000000000' is not in the tier"),
    (["--sample", "0", "--solver", "auto"], 2, "Invalid value for '--sample'"),
    (["--match", "", "--solver", "auto"], 2, "Invalid value for '--match'"),
    (["--match", "record 1846/", "--match", " ", "--solver", "auto"], 2,
     "Invalid value for '--match'"),
    (["--match", "record 9999/", "--solver", "auto"], 1,
     "Error: no instance in the tier has 'record 9999/' in its provenance"),
])  # fmt: skip
def test_bad_arguments_give_one_line(args, code, message, tmp_path):
    out = _run("bench", *args, "--csv", tmp_path / "b.csv", "--plot", "")
    assert out.exit_code == code, out.output
    assert message in out.output and "Traceback" not in out.output


def test_dump_prints_the_instance(tiers):
    entry = tiers["tiny"][0]
    out = _run("bench", "--tier", "tiny", "--id", entry.id, "--solver", "auto", "--dump")
    assert out.exit_code == 0
    assert json.loads(out.output) == entry.instance


# ---------------------------------------------------------------------------------- slow
@pytest.mark.slow
@pytest.mark.parametrize("tier", ["tiny", "hard"])
def test_rebuilding_a_tier_gives_the_same_bytes(tier, tmp_path):
    path, _count, _left_out = build(tier, tmp_path, log=lambda _msg: None)
    assert gzip.decompress(path.read_bytes()) == gzip.decompress(tier_path(tier).read_bytes())
    assert path.read_bytes() == tier_path(tier).read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("solver", ["auto", "cpsat"])
def test_the_full_tiers_have_nothing_wrong(tier, solver, tiers):
    # the certifying time limit: each of these solvers proved every entry within it
    outcomes = bh.run_bench(bh.solver_from_spec(solver), tiers[tier], CERTIFY_LIMIT)
    bad = [f"{o.id}: {o.message}" for o in outcomes if o.status != "solved"]
    assert not bad, "\n".join(bad[:10])
