"""``build_problem(..., reached=True)``: the part of the map the company's network reaches.

Every title's routes hold one of the company's token cities, so the optimum on the reached
part must equal the optimum on the whole map; the part must be smaller where the map holds
track the company cannot reach (else the option would do nothing and these tests could not
tell).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import routing
from engine.games import build_problem, load_position

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "engine" / "examples").glob("*.json"))
CORPUS = sorted(p for p in (ROOT / "benchmarks" / "positions").glob("*.json") if p.stem != "index")


def _both(position):
    full, _ = build_problem(position)
    part, view = build_problem(position, reached=True)
    return full, part, view


@pytest.mark.parametrize("path", EXAMPLES + CORPUS, ids=lambda p: p.parent.name + "/" + p.stem)
def test_the_reached_part_has_the_whole_maps_optimum(path):
    position = load_position(path)
    full, part, _view = _both(position)
    whole, reached = routing.solve(full), routing.solve(part)
    assert reached.optimal and whole.optimal
    assert reached.total == whole.total
    assert part.network.n_nodes <= full.network.n_nodes


def test_the_reached_part_is_smaller_where_track_is_out_of_reach():
    # 1846-early: B&O's tokens reach a few hexes of an early map; the printed cities and
    # offboards elsewhere are not on its network, so its part has fewer nodes
    full, part, view = _both(load_position(ROOT / "engine" / "examples" / "1846-early.json"))
    assert part.network.n_nodes < full.network.n_nodes
    assert set(view.board.cells) < set(build_problem(view.position)[1].board.cells)


def test_a_company_without_a_token_keeps_the_whole_map():
    # no token, no network to walk from: the whole map (and no route: revenue 0)
    position = load_position(ROOT / "engine" / "examples" / "1846-mid.json")
    bare = dataclasses.replace(
        position, tokens=[t for t in position.tokens if t.company != position.company]
    )
    full, part, _view = _both(bare)
    assert part.network.n_nodes == full.network.n_nodes
    assert routing.solve(part).total == routing.solve(full).total == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(example=st.sampled_from(EXAMPLES), data=st.data())
def test_fewer_tokens_same_optimum_on_the_reached_part(example, data):
    """Tokens decide what the walk reaches (its start, and cities full of others' tokens
    that end it): drop a random set of them and the two optima still agree."""
    position = load_position(example)
    keep = data.draw(st.lists(st.booleans(), min_size=len(position.tokens),
                              max_size=len(position.tokens)))  # fmt: skip
    fewer = dataclasses.replace(
        position, tokens=[t for t, k in zip(position.tokens, keep, strict=True) if k]
    )
    full, part, _view = _both(fewer)
    assert routing.solve(part).total == routing.solve(full).total
