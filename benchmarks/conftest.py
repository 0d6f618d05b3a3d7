"""pytest hooks for the benchmark suites."""

from __future__ import annotations

import pytest

from benchmarks.common import FULL, machine, write_bytecode


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled():
    """Kernels compiled before any benchmark (compilation is timed on its own, in
    benchmarks/test_bench_compile.py), so the commands benchmarked solve with numba, and
    loaded into this process, so that what the benchmarks time in it is the compiled tier
    (the interpreted one, :mod:`routing._jit`, is timed by the fresh-process benchmarks)."""
    from routing.kernels import load_kernels

    load_kernels()


@pytest.fixture(scope="session")
def bytecode_written() -> None:
    """Python's bytecode of the checkout written once, before the fresh-process benchmarks
    that use this (untimed): an installed copy has it (:func:`benchmarks.common.write_bytecode`)."""
    write_bytecode()


def pytest_benchmark_update_machine_info(config, machine_info):
    """Keep the facts benchmarks/report.py prints (CPU model, versions, load) in the JSON."""
    machine_info["eighteen"] = {**machine(), "full": FULL}


def pytest_report_header(config):
    m = machine()
    return (f"eighteen benchmarks: {'FULL' if FULL else 'default subset'}; {m['nproc']} cores "
            f"{m['cpu']}; numba {m['numba']}; load {m['loadavg']}")  # fmt: skip
