"""Random-legal-play bots: whole 1836Jr-56 games, invariants checked after every action.

:func:`engine.games.bots.play_random` checks :func:`engine.game.invariants` after each action
(money conserved, shares 100%, trains and tiles as in the manifests, tokens on legal slots);
``_check`` adds the 1856 ones: the money is the title's F6000 (the bank, the players and the
companies; escrow is the bank's), a player is below zero only while his cash crisis is the
pending decision, the national holds at most ten tokens and nobody owes a loan once it formed,
escrow is held only for escrow corporations, a one-share ("false") national president holds
half the president's certificate with the other half in the IPO.  Every game must end with a
game-end reason of the rules (a broken bank, a bankruptcy) or the frozen position (nothing
operates, no private pays, nobody can trade), where 18xx.games would play empty rounds to
its turn limit (``dnf``).

Random tables mostly end in a bankruptcy before phase 5 (random loans, interest and trains
sold between corporations leave presidents without money), so ``_steered`` games (a bot that
buys its trains from the bank and borrows less often; still random legal play) reach the
national and the last phases; the default run plays 200 random and 20 steered games, the slow
mark 2,000 random and 200 steered.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from engine.game import invariants
from engine.games import new_game
from engine.games.bots import choose, play_random
from engine.games.g1836jr56 import data
from tests.bot_support import assert_replays_from_log

TITLE = "1836Jr56"
#: Game-end reasons of 1856 (GAME_END_CHECK) and the frozen position's dnf.
REASONS = {"bank", "bankrupt", "dnf"}
#: Random games per chunk (a test each, so that pytest-xdist spreads them).
CHUNK = 20


def _check(game, action) -> None:
    total = sum(game.ledger.balances.values())
    assert total == data.BANK_CASH, f"money {total} != F{data.BANK_CASH}"
    below = [p for p in game.seats if game.cash(p) < 0]
    if below and not game.finished:
        legal = game.legal_actions()
        assert legal and all(a["entity"] == below[0] for a in legal), (
            f"{below[0]} is below zero but the pending decision is not his: {legal[:2]}"
        )
    if game.national_formed and data.NATIONAL in game.shares.by_corp:
        mine = sum(syms.count(data.NATIONAL) for syms in game.state.tokens.values())
        assert mine <= 10, f"the national has {mine} tokens"
    if game.post_nationalization and not game.nationalizables:
        assert not any(game.loans.values()), f"loans after the national formed: {game.loans}"
    for corp, held in game.escrow.items():
        assert not held or game.cap.get(corp) == "escrow", f"{corp} holds escrow {held}"
    fp = game.false_president
    if fp is not None and data.NATIONAL in game.shares.by_corp:
        # a one-share president holds half the certificate; the other half waits in the IPO
        half = game.shares.certs[game.reserved_cert]
        pres = game.shares.president_cert(data.NATIONAL)
        assert pres.owner == fp and half.owner == data.NATIONAL
        assert pres.percent == half.percent == game.unit(data.NATIONAL)


def _finished(game, seed) -> None:
    assert game.finished, f"seed {seed}: not finished"
    assert game.end_reason in REASONS, f"seed {seed}: {game.end_reason}"
    if game.end_reason == "dnf":
        assert game.turn < game.MAX_TURNS, f"seed {seed}: stopped at 18xx.games' turn limit"
        assert game.frozen(), f"seed {seed}: a dnf in a position that can still change"
    assert set(game.result()) == set(game.seats)
    # a bankrupt president may be charged again by a forced repayment after his sales
    # (18xx.games, as the records show); nobody else ends below zero
    assert all(game.cash(p) >= 0 for p in game.seats if p not in game.bankrupt)


def _play(seed: int):
    outcome = play_random(TITLE, 2 + seed % 3, seed=seed, max_actions=20_000, on_action=_check)
    _finished(outcome.game, seed)
    return outcome.game


def _steered(legal: list[dict], rng: random.Random) -> dict:
    """Random legal play that mostly buys trains from the bank and borrows less often."""
    bank_only = [a for a in legal if not (a["type"] == "buy_train" and "min_price" in a)]
    if bank_only and rng.random() < 0.95:
        legal = bank_only
    no_loan = [a for a in legal if a["type"] != "take_loan"]
    if no_loan and rng.random() < 0.7:
        legal = no_loan
    return choose(legal, rng)


def _play_steered(seed: int):
    rng = random.Random(seed)
    game = new_game(TITLE, [f"P{i + 1}" for i in range(2 + seed % 3)], seed)
    for _ in range(20_000):
        if game.finished:
            break
        action = _steered(game.legal_actions(), rng)
        game.apply(action)
        invariants(game)
        _check(game, action)
    _finished(game, seed)
    return game


def _chunk(first: int, count: int) -> Counter:
    return Counter(_play(seed).end_reason for seed in range(first, first + count))


@pytest.mark.parametrize("chunk", range(200 // CHUNK))
def test_two_hundred_random_games_end_with_invariants(chunk):
    reasons = _chunk(CHUNK * chunk, CHUNK)
    assert sum(reasons.values()) == CHUNK
    # random tables end mostly in a bankruptcy; a broken bank is rarer
    assert reasons["bankrupt"] >= CHUNK // 2


def test_steered_games_reach_the_national_and_the_last_phases():
    # seeds 0-19, measured: 3 games reach phase 8, 3 form the national, 14 break the bank
    games = [_play_steered(seed) for seed in range(20)]
    phases = Counter(g.state.phase_name for g in games)
    formed = [g for g in games if g.national_formed]
    assert phases["8"] >= 2 and formed, f"phases {dict(phases)}"
    for g in formed:
        # the national took the merged corporations' place: they are closed, it has shares
        assert all(g.state.operators[m].closed for m in g.nationalized)
        assert g.shares.total(data.NATIONAL) == 100 or g.state.operators[data.NATIONAL].closed
    assert Counter(g.end_reason for g in games)["bank"] >= 10


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_two_thousand_random_games_end_with_invariants(chunk):
    reasons = _chunk(10_000 + 100 * chunk, 100)
    assert reasons["bankrupt"] >= 50


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_two_hundred_steered_games_end_with_invariants(chunk):
    games = [_play_steered(seed) for seed in range(1000 + 20 * chunk, 1020 + 20 * chunk)]
    # about two in three steered games end with a broken bank, one in ten forms the national
    assert Counter(g.end_reason for g in games)["bank"] >= 5


def test_bot_games_are_deterministic_and_replay_from_the_log():
    assert_replays_from_log(TITLE, 3, seed=26)


def test_eighteen_play_prints_revenues_and_scores(tmp_path):
    from engine.app.cli import cli

    save = tmp_path / "game.json"
    out = CliRunner().invoke(
        cli, ["play", "1836Jr56", "--players", "4", "--seed", "1", "--bots", "--save", str(save)]
    )
    assert out.exit_code == 0, out.output
    assert "OR " in out.output and "game ended (" in out.output and "1. P" in out.output
    replay = CliRunner().invoke(cli, ["play", "--load", str(save), "--json"])
    assert replay.exit_code == 0, replay.output
    state = json.loads(replay.output)
    assert state["title"] == TITLE and state["finished"] is True
