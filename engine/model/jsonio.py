"""Reading JSON that users give us: strict, bounded, and with messages that name the place.

Python's :func:`json.loads` accepts duplicate keys (the last wins, silently), raises
``RecursionError`` on deeply nested input and a ``ValueError`` about
``sys.set_int_max_str_digits`` on a number of thousands of digits.  :func:`parse_json` turns
each into a :class:`JSONInputError` whose message says where, and refuses duplicate keys.
"""

from __future__ import annotations

import json
import os
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
        # bytes decoded at once: a third faster than a text-mode read, which also turns
        # \r\n into \n (whitespace to JSON either way)
        with open(os.fspath(path), "rb") as fh:  # fspath: never a descriptor number
            return fh.read().decode("utf-8")
    except FileNotFoundError:
        raise JSONInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise JSONInputError(f"{path}: is a directory, not a {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise JSONInputError(f"{path}: cannot read: {why}") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):  # the usual case, decided at C speed
        return out
    seen = set()
    for key, _value in pairs:
        if key in seen:
            raise JSONInputError(f"duplicate key {key!r}")
        seen.add(key)
    raise AssertionError("unreachable: fewer keys than pairs means a key came twice")


#: A JSON string (escapes included) and anything that is not a bracket, removed by
#: :func:`_depth_ok` before it counts the nesting (of a text that failed to parse).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth_ok(text: str) -> bool:
    """Is the bracket nesting of ``text`` at most :data:`MAX_DEPTH` (strings skipped)?"""
    return _brackets_ok(_NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii"))


def _brackets_ok(brackets: bytes) -> bool:
    """Is the nesting of a sequence of brackets at most :data:`MAX_DEPTH`?"""
    if len(brackets) <= MAX_DEPTH:
        return True
    steps = np.frombuffer(brackets, dtype=np.uint8)
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
    # Parsed first and the nesting checked on the result, which is cheaper than scanning
    # the text; the text is scanned only when the parse fails, so that a document too
    # deep is reported as such whatever else is wrong with it, as before.
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as exc:
        if not _depth_ok(text):
            raise JSONInputError(f"{where}: nested more than {MAX_DEPTH} deep") from None
        if isinstance(exc, JSONInputError):
            raise JSONInputError(f"{where}: {exc}") from None
        if isinstance(exc, json.JSONDecodeError):
            raise JSONInputError(
                f"{where}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
        if "digits" in str(exc):
            raise JSONInputError(f"{where}: a number with too many digits") from None
        raise JSONInputError(f"{where}: unreadable JSON: {exc}") from None
    if not _parsed_depth_ok(text):
        raise JSONInputError(f"{where}: nested more than {MAX_DEPTH} deep")
    return data


#: Every byte but the brackets and the quote, deleted by :func:`_parsed_depth_ok`.
_NOT_MARK = bytes(b for b in range(256) if b not in b'[]{}"')


def _parsed_depth_ok(text: str) -> bool:
    """:func:`_depth_ok` for a text that parsed as JSON, at C speed: there every
    backslash escapes a character of a string, so once the escaped backslashes and quotes
    are dropped, the quotes left pair up as the strings' ends."""
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    marks = text.encode("utf-8", "surrogatepass").translate(None, _NOT_MARK)
    # a string without brackets is an empty pair now (two strings with nothing between
    # them merge into one): drop those, and the rest of the strings by a scan
    marks = marks.replace(b'""', b"")
    if b'"' in marks:
        marks = re.sub(rb'"[^"]*"', b"", marks)
    return _brackets_ok(marks)
