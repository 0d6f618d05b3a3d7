"""``eighteen batch``: Dask run equals a serial run, resuming after SIGKILL, bad items.

Expected values never come from the batch itself: position optima are fresh
``routing.solve`` runs of ``build_problem(file)``, record rows are ``engine.app.report.replay``'s
turns, and the interrupted run is compared with an uninterrupted one.
"""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import routing
from engine.app.batch import (
    COLUMNS,
    IDENTITY_COLUMNS,
    BatchError,
    Item,
    Journal,
    Settings,
    discover,
    journal_path,
    plan_tasks,
    read_table,
    run_batch,
)
from engine.app.cli import cli
from engine.app.report import replay
from engine.games import build_problem

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "engine" / "examples"
SIX = ["1812-mid", "1836jr30-late", "1836jr56-early", "1842-late", "1846-late", "1862-mid"]
# a short 1846 hotseat game: two run_routes turns
RECORD = ROOT / "tests" / "data" / "records" / "1846" / "hs_sudambau_1600037415.json"


def _identity(rows):
    """Rows without the run-dependent ``seconds``, in output order."""
    return [tuple(r[c] for c in IDENTITY_COLUMNS) for r in rows]


def _expected_position(path):
    problem, _ = build_problem(str(path))
    solution = routing.solve(problem)
    return int(solution.total), bool(solution.optimal)


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    """Six example positions and one short record, copied so their keys are stable."""
    d = tmp_path_factory.mktemp("set")
    for name in SIX:
        shutil.copy(EXAMPLES / f"{name}.json", d / f"{name}.json")
    shutil.copy(RECORD, d / "zz-record.json")
    return d


def _check_against_fresh_solves(rows, folder):
    positions = [r for r in rows if r["kind"] == "position"]
    assert [pathlib.Path(r["file"]).stem for r in positions] == SIX
    for r in positions:
        assert r["error"] is None
        assert (r["optimum"], r["optimal"]) == _expected_position(r["file"])
        data = json.loads(pathlib.Path(r["file"]).read_text())
        assert (r["company"], r["n_trains"]) == (data["company"], len(data["trains"]))
    report = replay(folder / "zz-record.json")
    turns = [r for r in rows if r["kind"] == "record"]
    assert len(turns) == len(report.turns) >= 2
    for r, t in zip(turns, report.turns, strict=True):
        assert (r["action_id"], r["company"], r["optimum"], r["scored"], r["gap"]) == (
            t.action_id,
            t.company,
            t.optimum,
            t.scored,
            t.gap,
        )


def test_local_cluster_equals_serial_run(small_set, tmp_path):
    from dask.distributed import LocalCluster

    serial = run_batch([small_set], tmp_path / "serial.csv", scheduler="synchronous")
    assert serial.failures == [] and serial.ran == 7
    _check_against_fresh_solves(serial.rows, small_set)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        dask = run_batch(
            [small_set], tmp_path / "dask.parquet", scheduler=cluster.scheduler_address
        )
    assert dask.failures == [] and dask.ran == 7
    assert _identity(dask.rows) == _identity(serial.rows)
    # what was written equals what was returned, in both formats
    assert _identity(read_table(tmp_path / "dask.parquet")) == _identity(serial.rows)
    assert _identity(read_table(tmp_path / "serial.csv")) == _identity(serial.rows)


def _cli_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def test_sigkill_then_rerun_gives_the_uninterrupted_result(tmp_path):
    src = tmp_path / "in"
    for copy in ("a", "b"):
        (src / copy).mkdir(parents=True)
        for p in sorted(EXAMPLES.glob("*.json")):
            shutil.copy(p, src / copy / p.name)
    shutil.copy(RECORD, src / "zz-record.json")
    n_items = len(discover([src]))
    out = tmp_path / "out" / "results.csv"
    journal = journal_path(out)
    # as the ``eighteen`` console script starts it
    cmd = [sys.executable, "-c", "from engine.app.cli import main; main()"]
    cmd += ["batch", str(src), "--out", str(out)]
    cmd += ["--workers", "1"]  # the default: a new local Dask cluster (one worker process)
    # own process group, so the kill takes every process of the batch and nothing else
    proc = subprocess.Popen(
        cmd,
        env=_cli_env(),
        cwd=tmp_path,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if journal.exists() and journal.read_text().count("\n") >= 1 + 3:
                break
            time.sleep(0.002)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the batch ended before it could be killed"
    assert not out.exists()
    lines = journal.read_text().splitlines()
    done_before = {json.loads(line)["key"]: json.loads(line)["rows"] for line in lines[1:]}
    assert 3 <= len(done_before) < n_items
    # a kill in the middle of a write leaves a cut line: it must be ignored, its item redone
    with journal.open("a") as fh:
        fh.write('{"key": "' + str(src / "zz-record.json"))

    rerun = subprocess.run(cmd, env=_cli_env(), cwd=tmp_path, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({n_items - len(done_before)} analysed, {len(done_before)} from the journal)" in (
        rerun.stdout
    )
    rows = read_table(out)
    keys = [(r["key"], r["row"]) for r in rows]
    assert len(keys) == len(set(keys))
    reference = run_batch([src], tmp_path / "reference.csv", scheduler="synchronous")
    assert _identity(rows) == _identity(reference.rows)
    # finished items were not redone: their timings are still those of the killed run
    for r in rows:
        if r["key"] in done_before:
            assert r["seconds"] == pytest.approx(done_before[r["key"]][r["row"]]["seconds"])
    entries = [json.loads(line)["key"] for line in journal.read_text().splitlines()[1:]]
    assert sorted(entries) == sorted(set(entries)) and len(entries) == n_items


def test_bad_items_are_listed_and_the_rest_complete(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    good = d / "good.json"
    shutil.copy(EXAMPLES / "1846-mid.json", good)
    (d / "bad.json").write_text('{"title": "1846", "phase": ')
    record = json.loads(RECORD.read_text())
    record["title"] = "1830"
    (d / "r1830.json").write_text(json.dumps(record))
    pos = (EXAMPLES / "1842-mid.json").read_text()
    (d / "lines.jsonl").write_text(json.dumps(json.loads(pos)) + "\n" + '{"title": "18\n')
    out = tmp_path / "r.csv"
    args = ["batch", str(d), str(tmp_path / "missing"), str(tmp_path / "none*.json")]
    result = CliRunner().invoke(cli, [*args, "--out", str(out), "--scheduler", "synchronous"])
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output
    failed = {
        str(d / "bad.json"): "invalid JSON at line 1 column 28",
        str(d / "r1830.json"): "title '1830' is not supported",
        f"{d / 'lines.jsonl'}:2": "invalid JSON at line 2",
        str(tmp_path / "missing"): "no such file or directory",
        str(tmp_path / "none*.json"): "no files match",
    }
    rows = {(r["key"], r["row"]): r for r in read_table(out)}
    for key, fragment in failed.items():
        assert fragment in rows[(key, 0)]["error"]
        assert rows[(key, 0)]["optimum"] is None
        # one line each on stderr, naming the item
        assert any(key in line and fragment in line for line in result.stderr.splitlines())
    assert f"{len(failed)} failed" in result.stderr
    for key, path in ((str(good), good), (f"{d / 'lines.jsonl'}:1", EXAMPLES / "1842-mid.json")):
        assert rows[(key, 0)]["error"] is None
        assert (rows[(key, 0)]["optimum"], rows[(key, 0)]["optimal"]) == _expected_position(path)
    assert len(rows) == len(failed) + 2

    # failures are journalled: a rerun redoes nothing, unless told to retry them
    shutil.copy(EXAMPLES / "1846-early.json", d / "bad.json")
    again = CliRunner().invoke(cli, [*args, "--out", str(out), "--scheduler", "synchronous"])
    unread = "2 naming no readable input"  # the missing path and the empty glob
    assert again.exit_code == 3 and f"(0 analysed, 5 from the journal, {unread})" in again.output
    retry = [*args, "--out", str(out), "--scheduler", "synchronous", "--retry-failed"]
    fixed = CliRunner().invoke(cli, retry)
    assert fixed.exit_code == 3 and f"(3 analysed, 2 from the journal, {unread})" in fixed.output
    row = {r["key"]: r for r in read_table(out)}[str(d / "bad.json")]
    assert row["error"] is None
    assert row["optimum"] == _expected_position(EXAMPLES / "1846-early.json")[0]


def test_journal_refuses_other_settings_and_a_second_writer(tmp_path):
    path = tmp_path / "r.csv.journal"
    with Journal(path, Settings()) as j:
        j.open()
        j.append("k", [dict.fromkeys(COLUMNS)])
        with pytest.raises(BatchError, match="another batch"):
            Journal(path, Settings()).open()
    with pytest.raises(BatchError, match="other settings"):
        Journal(path, Settings(time_limit=5)).open()
    with Journal(path, Settings()) as j:
        assert list(j.open()) == ["k"]


def test_cli_rejects_a_bad_output_and_bad_options(tmp_path):
    pos = EXAMPLES / "1846-mid.json"
    bad = CliRunner().invoke(cli, ["batch", str(pos), "--out", str(tmp_path / "r.xlsx")])
    assert bad.exit_code == 1 and "must end in .csv or .parquet" in bad.output
    both = ["batch", str(pos), "--out", str(tmp_path / "r.csv"), "--workers", "2"]
    clash = CliRunner().invoke(cli, [*both, "--scheduler", "tcp://127.0.0.1:1"])
    assert clash.exit_code == 2 and "--workers" in clash.output


def test_plan_tasks_by_hand():
    # 2 slots, sizes 40k (a record), then 30 positions of 1k: 70k bytes in all.
    # first budget = max(70k // 64, 70k // 4) = 17_500: the record alone (over budget);
    # then 30k remain: budget 7_500 -> 7 positions; 23k -> 5_750 -> 5; 18k -> 4_500 -> 4;
    # and so on, shrinking to the floor 70_000 // 64 = 1_093 -> one position per task.
    record = Item(key="r", file="r", size=40_000)
    small = [Item(key=f"p{i:02}", file=f"p{i:02}", size=1_000) for i in range(30)]
    tasks = plan_tasks([*small, record], slots=2)
    sizes = [len(t) for t in tasks]
    assert tasks[0] == [record]
    assert sizes[:4] == [1, 7, 5, 4]
    assert sizes[-1] == 1 and sum(sizes) == 31


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=200_000), max_size=300),
    slots=st.integers(min_value=1, max_value=16),
)
def test_plan_tasks_covers_every_item_once_largest_first(sizes, slots):
    items = [Item(key=f"k{i:03}", file=f"k{i:03}", size=size) for i, size in enumerate(sizes)]
    tasks = plan_tasks(items, slots)
    flat = [it for task in tasks for it in task]
    assert sorted(it.key for it in flat) == sorted(it.key for it in items)  # each once
    assert [it.size for it in flat] == sorted(sizes, reverse=True)  # largest first
    assert all(tasks) and len(tasks) <= 64 * slots + 1


def test_discover_leaves_out_the_output_and_its_journal_under_any_name(tmp_path):
    # "d/*" matches the position, the table, its journal and a link to the table: only the
    # position is an item, since the other three are the excluded files (the link by identity)
    shutil.copy(EXAMPLES / "1846-mid.json", tmp_path / "p.json")
    out, journal = tmp_path / "r.csv", tmp_path / "r.csv.journal"
    out.write_text("key\n")
    journal.write_text("")
    (tmp_path / "link.csv").symlink_to(out)
    items = discover([str(tmp_path / "*")], exclude=(out, journal))
    assert [pathlib.Path(it.key).name for it in items] == ["p.json"]
    assert items[0].size == (tmp_path / "p.json").stat().st_size
    # without the exclusion every matched file is an item
    assert len(discover([str(tmp_path / "*")])) == 4
