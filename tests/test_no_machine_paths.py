"""No file of the repository carries a path of the machine it was made on (data files,
sources, docs): sources are named relative to the repository or as public references."""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Absolute paths of this kind of machine (home folders, work trees, temporary folders).
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|root|home|tmp|Users)/[\w.+-]+")
#: Where such a string is code, not a recorded path: tests that write temporary files.
ALLOWED = re.compile(r"^tests/.*\.py$")


def test_no_machine_paths_in_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()  # fmt: skip
    hits = []
    for name in files:
        path = ROOT / name
        if name.endswith(".jsonl.gz"):  # the benchmark library
            text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="ignore")
        elif ALLOWED.match(name) or path.suffix not in (".json", ".py", ".md", ".ipynb", ".toml"):
            continue
        else:
            text = path.read_text(encoding="utf-8", errors="ignore")
        for k, line in enumerate(text.splitlines()):
            match = MACHINE_PATH.search(line)
            if match:
                hits.append(f"{name}:{k + 1}: {match.group(0)}")
    assert not hits, "\n".join(hits[:20])
