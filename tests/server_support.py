"""``eighteen serve`` in a child process, for the browser tests and the load benchmark."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Stopped:
    """How the server ended after Ctrl-C: cleanly within 30 s, its exit status and output."""

    clean: bool = False
    returncode: int | None = None
    output: str = ""


@contextmanager
def running_server(workers: int):
    """Start ``eighteen serve --port 0 --workers N``; yield ``(url, stopped)`` once it says
    it is ready, then stop it with Ctrl-C and fill ``stopped``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.app.cli", "serve", "--port", "0", "--workers",
         str(workers)],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    url, seen, deadline = None, [], time.monotonic() + 180
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        m = re.search(r"ready at (http://127\.0\.0\.1:\d+/)", line)
        if m:
            url = m.group(1)
            break
    if url is None:
        proc.kill()
        pytest.fail("the server did not start:\n" + "".join(seen))
    stopped = Stopped()
    try:
        yield url, stopped
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: a clean shutdown
        try:
            out, _ = proc.communicate(timeout=30)
            stopped.clean = True
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        stopped.returncode, stopped.output = proc.returncode, out
