"""The code's structure as a checked contract (the layers themselves: ``lint-imports`` in CI,
``[tool.importlinter]`` in pyproject.toml).

- no import cycles among the modules of ``engine`` and ``routing``;
- no private name (``_x``) imported from another module;
- no module-level ``__getattr__`` (modules are not shims).
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for pkg in ("engine", "routing") for p in (ROOT / pkg).rglob("*.py"))


def test_no_import_cycles():
    graph = grimp.build_graph("engine", "routing")
    edges = [(m, i) for m in graph.modules for i in graph.find_modules_directly_imported_by(m)]
    cycles = list(nx.simple_cycles(nx.DiGraph(edges)))
    assert not cycles, f"import cycles: {cycles}"


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0]
                                                 in ("engine", "routing")):  # fmt: skip
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}")
    return found


def test_no_private_names_imported_across_modules():
    found = [hit for path in SOURCES for hit in _private_imports(path)]
    assert not found, "\n".join(found)


def test_no_module_level_getattr():
    shims = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        shims += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        ]
    assert not shims, shims
