"""Reading JSON that users give us: strict, bounded, and with messages that name the place.

Python's :func:`json.loads` accepts duplicate keys (the last wins, silently), raises
``RecursionError`` on deeply nested input and a ``ValueError`` about
``sys.set_int_max_str_digits`` on a number of thousands of digits.  :func:`parse_json` turns
each into a :class:`JSONInputError` whose message says where, and refuses duplicate keys.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["JSONInputError", "parse_json", "read_text", "MAX_DEPTH"]

#: Deepest nesting accepted (no position, record or route file comes near it).
MAX_DEPTH = 64


class JSONInputError(ValueError):
    """Input that is not acceptable JSON; the message names the item and where it is."""


def read_text(path: str | Path, what: str = "file") -> str:
    """The text of ``path``.

    Raises
    ------
    JSONInputError
        ``"<path>: no such file"``, ``"<path>: is a directory, not a <what>"`` or
        ``"<path>: cannot read: <why>"`` (the same line whatever the command).
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise JSONInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise JSONInputError(f"{path}: is a directory, not a {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise JSONInputError(f"{path}: cannot read: {why}") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise JSONInputError(f"duplicate key {key!r}")
        out[key] = value
    return out


#: A JSON string (escapes included) and anything that is not a bracket, removed by
#: :func:`_depth_ok` at C speed before it counts the nesting.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth_ok(text: str) -> bool:
    """Is the bracket nesting of ``text`` at most :data:`MAX_DEPTH` (strings skipped)?"""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) <= MAX_DEPTH:
        return True
    steps = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
    depth = np.cumsum(np.where((steps == ord("[")) | (steps == ord("{")), 1, -1))
    return int(depth.max()) <= MAX_DEPTH


def parse_json(text: str, where: str) -> Any:
    """Parse ``text``, refusing duplicate keys, nesting deeper than :data:`MAX_DEPTH` and
    numbers too long to convert.

    Raises
    ------
    JSONInputError
        ``"<where>: invalid JSON at line L column C: ..."``, ``"<where>: duplicate key
        'x'"``, ``"<where>: nested more than 64 deep"`` or ``"<where>: a number with too
        many digits"``.
    """
    if not _depth_ok(text):
        raise JSONInputError(f"{where}: nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except JSONInputError as exc:
        raise JSONInputError(f"{where}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(
            f"{where}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        if "digits" in str(exc):
            raise JSONInputError(f"{where}: a number with too many digits") from None
        raise JSONInputError(f"{where}: unreadable JSON: {exc}") from None
