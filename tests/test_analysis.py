"""``eighteen analyse``: legal moves ranked by the revenue they gain, checked by fresh solves.

The moves are the rules engine's own (:mod:`engine.games.positions` puts a game into the
position, :func:`engine.app.analysis.analyse_game` lists its legal actions); the lays,
tokens, trains and revenues on every bundled position are checked in
``tests/test_analysis_engine.py``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import routing
from engine.app.analysis import (
    analyse_game,
    analyse_position,
    candidate_moves,
    copy_game,
    operating_position,
)
from engine.app.cli import cli
from engine.games import build_problem, load_position
from engine.games.positions import game_at_position
from engine.model.position import PositionError, Token

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"


def _fresh_revenue(position_dict: dict) -> int:
    """Solve a candidate position from scratch, checking it as a position file first."""
    problem, _ = build_problem(load_position(json.loads(json.dumps(position_dict))))
    solution = routing.solve(problem)
    assert solution.optimal
    return solution.total


@pytest.mark.parametrize("example", ["1862-mid", "1836jr56-mid"])
def test_best_move_equals_maximum_over_fresh_solves(example):
    position = load_position(EXAMPLES / f"{example}.json")
    base = _fresh_revenue(position.to_dict())
    analysis = analyse_position(position, kinds=("tile", "token"), workers=1)
    assert analysis.revenue == base
    for kind in ("tile", "token"):
        moves = candidate_moves(position, (kind,))
        assert len(moves) == len(analysis.moves[kind]) > 0
        fresh = {m.label: _fresh_revenue(m.position) for m in moves}
        ranked = analysis.moves[kind]
        assert {m.label: m.revenue for m in ranked} == fresh
        assert all(m.gain == m.revenue - base for m in ranked)
        assert [m.gain for m in ranked] == sorted((m.gain for m in ranked), reverse=True)
        assert ranked[0].revenue == max(fresh.values())


def test_candidates_are_exactly_the_engines_legal_moves():
    position = load_position(EXAMPLES / "1846-mid.json")
    game = game_at_position(position)
    op = position.company
    legal = game.legal_actions()  # the track stage: 1846 lists lays and tokens together
    lays = [a for a in legal if a["type"] == "lay_tile" and a["entity"] == op]
    tokens = {(a["hex"], a["city"]) for a in legal if a["type"] == "place_token"}
    moves = candidate_moves(game)
    tiles = [m for m in moves if m.kind == "tile"]
    assert {(m.details["hex"], m.details["tile"]) for m in tiles} == {
        (a["hex"], a["tile"]) for a in lays
    }
    # a rotation laying the same track as a lower one is listed once: tile 9 (a straight)
    # lays the same track at rotations r and r + 3
    assert len(tiles) < len(lays)
    nines = {(m.details["hex"], m.details["rotation"]) for m in tiles if m.details["tile"] == "9"}
    assert all(rot < 3 for _hex, rot in nines)
    assert {(m.details["hex"], m.details["city"]) for m in moves if m.kind == "token"} == tokens
    # 1846 with 5 players has 5 five-trains (g_1846 TRAINS num {5: 5}); in play: PRR 4/6 and
    # 4/6, GT 5, IC 5, B&O 4/6 (extras.companies) = 5, so the depot sells the 6 ($800) or
    # its 7/8 side ($900) now; the other corporations' trains go at a price both agree
    trains = [m for m in moves if m.kind == "train"]
    depot = {(m.details["variant"], m.cost) for m in trains if m.details["source"] == "depot"}
    assert depot == {("6", 800), ("7/8", 900)}
    others = [m for m in trains if m.details["source"] != "depot"]
    assert {m.details["source"] for m in others} == {"B&O", "GT", "IC", "NYC"}
    assert all(m.cost is None for m in others)


def test_analyse_game_leaves_the_game_as_it_was():
    game = game_at_position(EXAMPLES / "1846-mid.json")
    before = (game.or_turn.index, game.legal_actions(), game.cash("PRR"), game.state.phase_name)
    analysis = analyse_game(game, kinds=("token", "train"), workers=1)
    assert analysis.moves["train"] and analysis.moves["token"]
    after = (game.or_turn.index, game.legal_actions(), game.cash("PRR"), game.state.phase_name)
    assert after == before
    # the copy a purchase is made on is independent of the game
    twin = copy_game(game)
    first = next(iter(twin.state.trains))
    twin.state.trains[first].owner = "nobody"
    assert game.state.trains[first].owner != "nobody"
    # ... except for the printed map and the facts cached about it, which every board of
    # the map shares (copying them was most of what a purchase cost the analysis)
    board, twin_board = game.state.board, twin.state.board
    assert all(a is b for a, b in zip(board.shared_with_copies(), twin_board.shared_with_copies(),
                                      strict=True))  # fmt: skip
    hex_ = next(iter(board.laid))
    del twin_board.laid[hex_]
    assert hex_ in board.laid


def test_a_company_that_is_not_operating_is_reported_not_ranked():
    game = game_at_position(EXAMPLES / "1846-late.json")
    analysis = analyse_game(game, company="GT", workers=1)
    assert analysis.company == "GT"
    assert all(not v for v in analysis.moves.values())
    assert any("GT is not operating now (B&O is)" in n for n in analysis.notes)
    gt = next(c for c in analysis.companies if c.company == "GT")
    assert analysis.revenue == gt.revenue == _fresh_revenue(game.state.position("GT").to_dict())


def test_two_workers_give_the_same_ranking_as_one(monkeypatch):
    from engine.app import analysis

    monkeypatch.setattr(analysis, "FORK_FROM", 2)  # fork for this board's few lays too
    position = load_position(EXAMPLES / "1862-late.json")
    one = analyse_position(position, kinds=("tile",), workers=1)
    two = analyse_position(position, kinds=("tile",), workers=2)
    assert [(m.label, m.revenue) for m in one.moves["tile"]] == [
        (m.label, m.revenue) for m in two.moves["tile"]
    ]
    assert two.workers == 2


def test_a_train_purchase_follows_phase_change_and_rust():
    # 1846-early: GT runs two 2-trains in phase I and the depot sells the next 2-train;
    # the move's position is the old one plus a 2-train, solved afresh
    position = load_position(EXAMPLES / "1846-early.json")
    analysis = analyse_position(position, kinds=("train",), workers=1)
    (move,) = [m for m in analysis.moves["train"] if m.details["source"] == "depot"]
    assert move.cost == 80  # a 2-train costs $80 (g_1846 TRAINS)
    after = replace(position, trains=[*position.trains, "2"])
    assert move.revenue == _fresh_revenue(after.to_dict())


def test_a_train_purchase_that_starts_a_phase_is_made_on_a_copy():
    # 1846-mid, phase III: PRR (4/6, 4/6) buys the first 6-train: phase IV begins (on: 6);
    # its 4/6s are 5-trains, which nothing rusts or obsoletes, but phase IV's train limit is
    # 2: PRR must discard one at once and keeps the 6 and a 4/6
    game = game_at_position(EXAMPLES / "1846-mid.json")
    (move,) = [m for m in candidate_moves(game, ("train",)) if m.details["variant"] == "6"]
    after = load_position(move.position)
    assert after.phase == "IV" and sorted(after.trains) == ["4/6", "6"]
    assert move.details["discards"] == ["4/6"] and "then discards 4/6" in move.label
    assert game.state.phase_name == "III"  # the game itself did not buy


def test_tile_lay_moves_tokens_with_their_cities():
    # a 1836Jr-56 lay keeps every token in a city the new tile has; the resulting position
    # passes the position checks (load_position re-checks slots and cities)
    position = load_position(EXAMPLES / "1836jr56-mid.json")
    base = operating_position(game_at_position(position), position.company)
    for move in candidate_moves(position, ("tile",))[:10]:
        after = load_position(move.position)
        assert len(after.tokens) == len(base.tokens)


def test_other_companies_need_their_trains():
    full = load_position(EXAMPLES / "1846-late.json")
    position = replace(full, extras={})
    analysis = analyse_position(position, kinds=("token",), workers=1)
    known = {c.company: c.revenue for c in analysis.companies}
    assert known[position.company] == analysis.revenue
    assert known["GT"] is None
    # with GT's trains given, GT is solved as its own position would be
    extras = {"companies": {"GT": {"trains": ["5"]}}}
    enriched = replace(position, extras=extras)
    analysis = analyse_position(enriched, kinds=("token",), workers=1)
    gt = next(c for c in analysis.companies if c.company == "GT")
    as_gt = replace(enriched, company="GT", trains=["5"], owned_companies=[])
    assert gt.revenue == _fresh_revenue(as_gt.to_dict())
    ranked_for_gt = analyse_position(enriched, company="GT", kinds=("token",), workers=1)
    assert ranked_for_gt.company == "GT" and ranked_for_gt.revenue == gt.revenue


def test_every_company_on_the_board_is_solved_from_the_exported_trains():
    # the 1846-late example, exported by the replay, lists every other company's trains
    position = load_position(EXAMPLES / "1846-late.json")
    analysis = analyse_position(position, kinds=("token",), workers=1)
    revenues = {c.company: c.revenue for c in analysis.companies}
    others = position.extras["companies"]
    assert set(revenues) == {position.company, *others}
    for sym, info in others.items():
        as_sym = replace(position, company=sym, trains=info["trains"],
                         owned_companies=info["owned_companies"])  # fmt: skip
        expected = _fresh_revenue(as_sym.to_dict()) if info["trains"] else 0
        assert revenues[sym] == expected, sym
    assert revenues["IC"] == 0  # IC is on the board without a train


def test_bad_requests_name_the_item():
    position = replace(load_position(EXAMPLES / "1846-late.json"), extras={})
    with pytest.raises(PositionError, match="company 'XYZ' is not on the board"):
        analyse_position(position, company="XYZ")
    with pytest.raises(PositionError, match="trains of GT are unknown"):
        analyse_position(position, company="GT")
    with pytest.raises(ValueError, match="unknown move kind 'bridge'"):
        analyse_position(position, kinds=("tile", "bridge"))
    with pytest.raises(ValueError, match="workers must be at least 1"):
        analyse_position(position, workers=0)
    with pytest.raises(PositionError):
        analyse_position(replace(position, tokens=[*position.tokens, Token("ZZ99", "GT", 0)]))


def test_cli_json_and_errors(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["analyse", "--example", "1862-mid", "--kinds", "token",
                                 "--json", "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["company"] == load_position(EXAMPLES / "1862-mid.json").company
    assert [m["label"] for m in data["moves"]["token"]]
    gains = [m["gain"] for m in data["moves"]["token"]]
    assert gains == sorted(gains, reverse=True)

    result = runner.invoke(cli, ["analyse", "--example", "1862-mid", "--kinds", "bridge"])
    assert result.exit_code == 2 and "unknown move kind 'bridge'" in result.output
    result = runner.invoke(cli, ["analyse", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "missing.json" in result.output
    assert "Traceback" not in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(cli, ["analyse", str(bad)])
    assert result.exit_code == 1 and "bad.json" in result.output
    result = runner.invoke(cli, ["analyse", "--example", "1846-late", "--kinds", "tile",
                                 "--workers", "1", "--top", "3"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "tile moves of B&O: 89 legal" in result.output


def test_cli_refuses_a_bad_position_before_it_loads_the_kernels(tmp_path, monkeypatch):
    # On a first run the kernels compile for about 30 s: an impossible position (a token
    # on a hex the map does not have) must be refused before that, naming the problem.
    from engine.app import cli_common

    def no_kernels():
        raise AssertionError("the kernels were loaded before the position was checked")

    monkeypatch.setattr(cli_common, "compile_kernels_first", no_kernels)
    data = json.loads((EXAMPLES / "1846-late.json").read_text())
    data["tokens"].append({"hex": "ZZ99", "company": data["company"], "city": 0})
    bad = tmp_path / "impossible.json"
    bad.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["analyse", str(bad), "--json"])
    assert result.exit_code == 1, result.output
    assert "ZZ99" in result.output and "Traceback" not in result.output
    # an unknown move kind, too
    result = CliRunner().invoke(cli, ["analyse", "--example", "1846-late", "--kinds", "bridge"])
    assert result.exit_code == 2 and "unknown move kind 'bridge'" in result.output
