"""parse_json's nesting limit, against documents whose depth is known by construction.

The limit is counted on the text with its strings removed, so brackets inside strings
(escaped quotes included) must not count, and a document exactly MAX_DEPTH deep is read.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.model.jsonio import MAX_DEPTH, JSONInputError, parse_json

#: strings that look like brackets or quotes to a careless scanner
TRICKY = st.sampled_from(['[', ']', '{', '}', '"', '\\', '\\"[', '[[[{{', 'a"b]', ''])


def _nested(depth: int, leaf: str, kinds: list[bool]) -> object:
    """A document ``depth`` deep: lists or objects (by ``kinds``) around ``leaf``."""
    doc: object = leaf
    for k in range(depth):
        doc = [doc, leaf] if kinds[k % len(kinds)] else {leaf: doc}
    return doc


@settings(max_examples=200, deadline=None)
@given(depth=st.integers(0, 2 * MAX_DEPTH), leaf=TRICKY,
       kinds=st.lists(st.booleans(), min_size=1, max_size=8))  # fmt: skip
def test_depth_limit_counts_brackets_outside_strings(depth, leaf, kinds):
    doc = _nested(depth, leaf, kinds)
    text = json.dumps(doc)
    if depth <= MAX_DEPTH:
        assert parse_json(text, "f.json") == doc
    else:
        with pytest.raises(JSONInputError, match=f"f.json: nested more than {MAX_DEPTH} deep"):
            parse_json(text, "f.json")


def test_limit_is_exact():
    # 64 brackets deep is read, 65 is refused (MAX_DEPTH = 64)
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x") is not None
    with pytest.raises(JSONInputError):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x")
