"""Argument checks shared by the titles' pure rules modules (``economy*.py``)."""

from __future__ import annotations

__all__ = ["checked_int", "whole_number"]


def checked_int(value, name: str, low: int | None = 0, words: str = "at least") -> int:
    """``value`` as an int (bools refused), at least ``low`` (``None``: any).

    Raises
    ------
    ValueError
        Naming ``name``: "must be an integer", or "must be <words> <low>".
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be {words} {low}, got {value}")
    return value


def whole_number(value, name: str, minimum: int | None = 0) -> int:
    """``value`` as an int, ``>= minimum`` (``None``: any); ``ValueError`` naming ``name``."""
    return checked_int(value, name, minimum, ">=")
