"""pytest hooks for the benchmark suites."""

from __future__ import annotations

from benchmarks.common import FULL, machine


def pytest_benchmark_update_machine_info(config, machine_info):
    """Keep the facts benchmarks/report.py prints (CPU model, versions, load) in the JSON."""
    machine_info["eighteen"] = {**machine(), "full": FULL}


def pytest_report_header(config):
    m = machine()
    return (f"eighteen benchmarks: {'FULL' if FULL else 'default subset'}; {m['nproc']} cores "
            f"{m['cpu']}; numba {m['numba']}; load {m['loadavg']}")  # fmt: skip
