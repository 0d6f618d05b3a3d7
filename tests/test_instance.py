"""routing.instance: instance and solution documents round-trip, satisfy the published JSON
Schema, and a bad document fails with one message naming the item."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings

import routing
from engine.games import build_problem
from routing.instance import (
    DocumentError,
    canonical_json,
    instance_hash,
    problem_from_instance,
    problem_to_instance,
    read_instance,
    schema,
    solution_from_document,
    solution_to_document,
    write_instance,
)
from tests.strategies import problems

DATA = Path(__file__).parent / "data"
EXAMPLES = sorted((Path(__file__).parents[1] / "engine" / "examples").glob("*.json"))


@pytest.fixture(scope="module")
def stall():
    return read_instance(DATA / "packing_stall_1812.json")


def _same(a: routing.Problem, b: routing.Problem) -> None:
    assert problem_to_instance(a) == problem_to_instance(b)
    assert a.rules == b.rules and a.trains == b.trains


@settings(max_examples=25, deadline=None)
@given(problems(n_trains=(1, 4), small=False))
def test_generated_problems_round_trip_and_satisfy_the_schema(problem):
    doc = problem_to_instance(problem, company="X")
    jsonschema.validate(doc, schema("instance"))
    back = problem_from_instance(json.loads(canonical_json(doc)))
    _same(problem, back)
    assert problem_to_instance(back, company="X") == doc


@pytest.mark.parametrize("path", EXAMPLES[:4], ids=lambda p: p.stem)
def test_title_positions_round_trip(path):
    problem, _view = build_problem(str(path))
    doc = problem_to_instance(problem, company="c")
    jsonschema.validate(doc, schema("instance"))
    back = problem_from_instance(doc)
    _same(problem, back)
    assert routing.solve(back).total == routing.solve(problem).total


def test_reproducer_files_round_trip(stall, tmp_path):
    path = write_instance(stall, tmp_path / "r.json", numba=630, cpsat=620)
    doc = json.loads(path.read_text())
    assert doc["notes"] == {"numba": 630, "cpsat": 620}
    jsonschema.validate(doc, schema("instance"))
    _same(read_instance(path), stall)


def test_the_hash_ignores_label_and_company_but_not_the_problem(stall):
    doc = problem_to_instance(stall, company="GNR")
    other = {**doc, "label": "x", "company": "y"}
    assert instance_hash(doc) == instance_hash(other)
    changed = copy.deepcopy(doc)
    changed["network"]["node_value"][0] += 10
    assert instance_hash(changed) != instance_hash(doc)


def test_solutions_round_trip_and_satisfy_the_schema(stall):
    solution = routing.solve(stall)
    doc = solution_to_document(solution)
    jsonschema.validate(doc, schema("solution"))
    declared = solution_from_document(json.loads(json.dumps(doc)))
    assert declared.total == solution.total == 630 and declared.proven is True
    assert routing.validate(stall, declared.routes).total == 630
    # without "proven" the solver does not say
    del doc["proven"]
    assert solution_from_document(doc).proven is None


def _broken(doc: dict, path: str, value) -> dict:
    doc = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is _DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


_DELETE = object()

BAD_INSTANCES = [
    ("network.seg_u.17", 999, "instance.network.seg_u[17]: node 999 does not exist"),
    ("network.node_kind.3", 9, "instance.network.node_kind[3]: unknown kind 9"),
    ("network.node_value.0", "x", 'instance.network.node_value[0]: expected an integer, got a s'),
    ("network.seg_hex", [0], "instance.network.seg_hex: 1 entries, expected one per segment"),
    ("network.node_terminal.2", 1, "instance.network.node_terminal[2]: expected true or false"),
    ("network.seg_v", _DELETE, "instance.network: missing field 'seg_v'"),
    ("trains.1.rows.0", [1, 2], "instance.trains[1].rows[0]: expected [kinds, pay, visit]"),
    ("trains.0.multiplier", 0, "instance.trains[0]: train '4+2G' needs multiplier >= 1"),
    ("trains.0.colour", "red", "instance.trains[0].colour: unknown field"),
    ("rules.token_nodes.1", -4, "instance.rules.token_nodes[1]: node -4 does not exist"),
    ("rules.designated_keys.0", [118], "instance.rules.designated_keys[0]: expected a [node, am"),
    ("rules.group_scope", [[0, "sky"]], "instance.rules.group_scope[0][1]: unknown scope 'sky'"),
    ("rules.hex_once", "yes", 'instance.rules.hex_once: expected true or false, got a string'),
    ("version", 7, "instance.version: unknown version 7 (expected 1)"),
    ("trains", {}, "instance.trains: expected a list, got an object"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "message"), BAD_INSTANCES,
                         ids=[b[0] for b in BAD_INSTANCES])  # fmt: skip
def test_a_bad_instance_names_the_item(stall, path, value, message):
    doc = _broken(problem_to_instance(stall), path, value)
    with pytest.raises(DocumentError) as info:
        problem_from_instance(doc)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)
    # the published schema refuses it too, except where only the network can tell (a
    # node id past the end, array lengths, a train's own consistency)
    if path not in ("network.seg_u.17", "network.seg_hex", "trains.0.multiplier",
                    "rules.token_nodes.1", "network.node_kind.3"):  # fmt: skip
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(doc, schema("instance"))


BAD_SOLUTIONS = [
    ({"version": 1, "routes": []}, "solution: missing field 'total'"),
    ({"version": 1, "total": 10, "routes": [{"train": 0, "nodes": [1, "a"]}]},
     'solution.routes[0].nodes[1]: expected an integer, got a string "a"'),
    ({"version": 1, "total": 10, "routes": [{"nodes": [1, 2]}]},
     "solution.routes[0]: missing field 'train'"),
    ({"version": 1, "total": 1.5, "routes": []}, "solution.total: expected an integer"),
    ([1, 2], "solution: expected an object, got a list"),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "message"), BAD_SOLUTIONS)
def test_a_bad_solution_names_the_item(doc, message):
    with pytest.raises(DocumentError, match=None) as info:
        solution_from_document(doc)
    assert str(info.value).startswith(message), str(info.value)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema("solution"))


def test_an_unreadable_file_names_it(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    with pytest.raises(DocumentError, match=r"^x\.json: cannot read an instance"):
        read_instance(path)
