"""What every ``eighteen`` command shares: the bundled examples and one-line errors."""

from __future__ import annotations

import os
from pathlib import Path

import click

__all__ = ["examples_dir", "list_examples", "example_path", "one_line"]


def examples_dir() -> Path:
    """Where example positions live (``EIGHTEEN_EXAMPLES`` overrides, for tests)."""
    env = os.environ.get("EIGHTEEN_EXAMPLES")
    return Path(env) if env else Path(__file__).parent.parent / "examples"


def list_examples() -> list[str]:
    d = examples_dir()
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []


def example_path(name: str) -> Path:
    path = examples_dir() / f"{name.removesuffix('.json')}.json"
    if not path.is_file():
        known = ", ".join(list_examples()) or "none"
        raise click.ClickException(f"unknown example {name!r}; available: {known}")
    return path


def one_line(exc: BaseException) -> str:
    msg = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(msg.split()) or type(exc).__name__
