"""Final scores of replayed 1846 records (engine.money_1846, engine.replay_result).

Every public 18xx.games fixture of 1846 and of the 1846 2-player variant (tests/data/records,
MIT-licensed, see SOURCE.md) is replayed without the solver; each player's final value must
equal the record's ``result`` and our game-end reason its ``game_end_reason``.  Money must be
conserved after every action.  The exceptions are listed in :data:`EXPLAINED` with their
cause.  Cash checkpoints that 18xx.games' own tests assert on these fixtures
(``spec/assets_spec.rb``, ``spec/lib/engine/game/g_1846/game_spec.rb`` @111f7f69) and
hand-built payments with their arithmetic complete the picture.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.app.cli import cli
from engine.games import load_record
from engine.money_1846 import (
    BANK,
    half_pay_split,
    minor_split,
    operator_account,
    payout_amount,
    player_account,
    tile_cost,
)
from engine.replay import Replayer, ReplayError, replay
from engine.replay_market import POOL, TREASURY
from engine.replay_result import FinalResult, PlayerResult

RECORDS = Path(__file__).parent / "data" / "records"
FILES = sorted(RECORDS.glob("1846/*.json")) + sorted(RECORDS.glob("18462pVariant/*.json"))

#: record -> (exact difference ours vs recorded per player id, why).
EXPLAINED: dict[str, tuple[dict, str]] = {
    "1846_game_end_reason_dnf": (
        {"2": (82, 62)},
        "18xx.games played this game on by itself after the record's last action up to its "
        "100-turn limit (game_end_reason dnf, turn 100).  The stock round the log ends in "
        "closes with GT at $10 and 30% of GT in the market, so GT drops to the 0c cell and "
        "closes; Player 3's 20% of GT (2 x $10 = $20 at the end of the log) is worth nothing "
        "in the recorded result.  The replay stops at the last recorded action.",
    ),
}


@functools.cache
def _replayed(path: Path):
    """Replay ``path``; check after every action that money is conserved."""
    record = load_record(path)
    rep = Replayer(record, solve=False)
    money = rep.rules.money
    total = money.ledger.total()
    totals = []
    after = rep.rules.after_action

    def checked(state, action):
        after(state, action)
        totals.append((action.get("id"), money.ledger.total()))

    rep.rules.after_action = checked
    for _ in rep.turns():
        pass
    final = rep.rules.final_result(rep.state)
    return record, rep, final, total, totals


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_1846_record_is_here():
    assert len(FILES) == 16


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_final_values_and_end_reason(path):
    record, _rep, final, _total, _totals = _replayed(path)
    raw = record.raw
    assert final.reason == raw["game_end_reason"]
    assert final.in_sync, final.notes
    assert not final.notes
    expected = EXPLAINED.get(path.stem, ({}, ""))[0]
    assert final.differences(raw["result"]) == expected


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_money_is_conserved_after_every_action(path):
    record, _rep, final, total, totals = _replayed(path)
    players = len(record.players)
    # the bank holds all the money at the start (game.rb BANK_CASH)
    assert total == {2: 7000, 3: 6500, 4: 7500, 5: 9000}[players]
    assert totals and all(t == total for _aid, t in totals)
    assert final.bank + sum(p.cash for p in final.players) <= total


def _cash_at(path: Path, action_id: int, holders: list[str]) -> dict[str, int]:
    """Cash of ``holders`` once every action up to ``action_id`` has been applied."""
    rep = Replayer(load_record(path), solve=False)
    out: dict[str, int] = {}
    after = rep.rules.after_action

    def hook(state, action):
        after(state, action)
        if int(action.get("id", 0)) <= action_id:
            out.update({h: rep.rules.money.cash(h) for h in holders})

    rep.rules.after_action = hook
    for _ in rep.turns():
        pass
    return out


# (record, action id, {account: cash}) as 18xx.games' own specs assert them
CHECKPOINTS = [
    # assets_spec.rb: "GT has $280" before its train purchase
    ("1846/hs_sudambau_1600037415", 37, {"op:GT": 280}),
    # assets_spec.rb: "B&O has $0", "Player 3 must contribute $160", "Player 3 has $15"
    ("1846/hs_sudambau_1600037415", 60, {"op:B&O": 0, "player:Player 3": 15}),
    # assets_spec.rb: the Michigan Southern's charter shows "Cash $60"
    ("1846/3099", 49, {"op:MS": 60}),
    # game_spec.rb: "IC can lay a tile on J4 for free": $280 before and after action 65
    ("1846/19962", 64, {"op:IC": 280}),
    ("1846/19962", 65, {"op:IC": 280}),
]


@pytest.mark.parametrize(("name", "action_id", "cash"), CHECKPOINTS)
def test_cash_checkpoints_of_18xx_games_specs(name, action_id, cash):
    assert _cash_at(RECORDS / f"{name}.json", action_id, list(cash)) == cash


def test_draft_price_falls_by_10_per_pass_on_the_last_private():
    # 1846_game_end_reason_all_closed: the Mail Contract ($80) is the last private; seven
    # players pass (actions 19-25), so Player 4 (id 3) pays 80 - 7 x 10 = $10 at action 26
    _record, rep, _final, _t, _ts = _replayed(RECORDS / "1846/1846_game_end_reason_all_closed.json")
    paid = [t for t in rep.rules.money.ledger.history if t.reason == "draft MAIL"]
    assert [(t.source, t.amount) for t in paid] == [(player_account(3), 10)]


def test_minor_prices_and_treasuries():
    # hs_wwhjwjvo: Player 2 (id 1) drafts BIG4 for 40 + 60 = $100 and MS for 60 + 80 = $140;
    # each minor gets its face value from the bank (BIG4 $40, MS $60)
    _record, rep, _final, _t, _ts = _replayed(RECORDS / "1846/hs_wwhjwjvo_1716866882.json")
    moves = {(t.source, t.target, t.amount) for t in rep.rules.money.ledger.history}
    assert (player_account(1), BANK, 100) in moves and (player_account(1), BANK, 140) in moves
    assert (BANK, operator_account("BIG4"), 40) in moves
    assert (BANK, operator_account("MS"), 60) in moves


def test_reserved_token_prices_follow_the_track():
    # tokener.rb: $40 where the corporation's track reaches the hex, else the teleport
    # price (PRR $60 in E11, B&O $100 in H12); ERIE and IC always pay $40
    paid = {}
    for name in ("1846/10264", "1846/12666"):
        _r, rep, _f, _t, _ts = _replayed(RECORDS / f"{name}.json")
        for t in rep.rules.money.ledger.history:
            if " token in " in t.reason and t.amount != 80:
                paid[(name, t.reason)] = t.amount
    assert paid == {
        ("1846/10264", "PRR token in E11"): 60,
        ("1846/10264", "B&O token in H12"): 40,
        ("1846/10264", "IC token in I5"): 40,
        ("1846/10264", "ERIE token in D20"): 40,
        ("1846/12666", "IC token in I5"): 40,
        ("1846/12666", "B&O token in H12"): 100,
    }


# ------------------------------------------------------------------ hand-built arithmetic
def test_payout_arithmetic():
    # $150 on 10 shares = $15 a share: 6 shares -> 90, 1 share -> 15, 3 shares -> 45
    assert payout_amount(60, 150) == 90
    assert payout_amount(10, 150) == 15
    assert payout_amount(30, 150) == 45
    # $145 = $14.50 a share, rounded up per holder: 3 shares 43.5 -> 44, 2 shares -> 29
    assert payout_amount(30, 145) == 44
    assert payout_amount(20, 145) == 29
    assert payout_amount(0, 145) == 0
    with pytest.raises(ValueError, match="must not be negative"):
        payout_amount(-10, 100)


def test_half_pay_arithmetic():
    # 150 / 2 = 75 -> withheld 70 (a multiple of 10 shares), 80 paid = $8 a share
    assert half_pay_split(150) == (70, 80)
    # 145 / 2 = 72 -> withheld 70, 75 paid = $7.50 a share
    assert half_pay_split(145) == (70, 75)
    # 19 / 2 = 9 -> nothing withheld, all 19 paid
    assert half_pay_split(19) == (0, 19)
    with pytest.raises(ValueError, match="must not be negative"):
        half_pay_split(-1)


def test_minor_split_arithmetic():
    # a minor keeps half rounded down, its owner gets the rest
    assert minor_split(130) == (65, 65)
    assert minor_split(45) == (22, 23)


def test_tile_cost_arithmetic():
    # every lay costs at least $20
    assert tile_cost(0, (), []) == 20
    # H14: mountain $60; with Tunnel Blasting 60 - 20 = 40
    assert tile_cost(60, ("mountain",), []) == 60
    assert tile_cost(60, ("mountain",), [], tunnel_blasting=True) == 40
    # F18: mountain $40 and a $40 river border: 40 + 40; Tunnel Blasting: max(20, 20) + 40
    assert tile_cost(40, ("mountain",), [("water", 40)]) == 80
    assert tile_cost(40, ("mountain",), [("water", 40)], tunnel_blasting=True) == 60
    # C15 upgrade: river $40 plus the $60 mountain border to C17; Tunnel Blasting takes $20
    # off the mountain border only: 40 + 40
    assert tile_cost(40, ("water",), [("mountain", 60)]) == 100
    assert tile_cost(40, ("water",), [("mountain", 60)], tunnel_blasting=True) == 80
    # Illinois Central's $20 discount on its hexes: 20 - 20 = 0; J4 with its river: 60 - 20
    assert tile_cost(0, (), [], discount=20) == 0
    assert tile_cost(0, (), [("water", 40)], discount=20) == 40
    # Lake Shore Line, Michigan Central, Ohio & Indiana lay for free
    assert tile_cost(40, ("water",), [("mountain", 60)], free=True) == 0


@pytest.fixture
def fresh():
    """An 1846 game (5 players) right after setup: its money and market."""
    rep = Replayer(load_record(RECORDS / "1846/3099.json"), solve=False)
    return rep.state, rep.rules.money, rep.rules.market


def _holdings(market, sym, owners):
    c = market.corps[sym]
    for sid, holder in owners.items():
        c.owner[f"{sym}_{sid}"] = holder


def test_dividend_payments(fresh):
    state, money, market = fresh
    p = state.players[0]
    market.par("NYC", p, "100,0,10")
    # p: president (20%) + 4 shares = 60%; one share in the market; 3 in the treasury
    owners = {1: p, 2: p, 3: p, 4: p, 5: POOL, 6: TREASURY, 7: TREASURY, 8: TREASURY}
    _holdings(market, "NYC", owners)
    assert market.percent("NYC", p) == 60 and market.percent("NYC", TREASURY) == 30
    before = dict(money.ledger.balances)

    def gained(holder):
        return money.ledger.balances[holder] - before[holder]

    # payout of $150: p 6 x 15 = 90, the treasury's 3 x 15 = 45 go to NYC, the market
    # share's 15 stays in the bank: the bank pays 135
    money.dividend(state, "NYC", "payout", 150)
    assert gained(player_account(p)) == 90
    assert gained(operator_account("NYC")) == 45
    assert gained(BANK) == -135
    before = dict(money.ledger.balances)
    # half pay of $150: NYC withholds 70, 80 paid = $8 a share: p 48, treasury 24
    money.dividend(state, "NYC", "half", 150)
    assert gained(player_account(p)) == 48
    assert gained(operator_account("NYC")) == 70 + 24
    before = dict(money.ledger.balances)
    # withhold: all of it to NYC
    money.dividend(state, "NYC", "withhold", 150)
    assert gained(operator_account("NYC")) == 150 and gained(player_account(p)) == 0
    money.ledger.check_conserved()


def test_bank_breaks_when_it_pays_more_than_it_has(fresh):
    state, money, _market = fresh
    pid = state.players[0]
    bank = money.cash(BANK)
    money.pay(BANK, player_account(pid), bank, "empties the bank")
    assert money.cash(BANK) == 0 and not money.bank_broken  # 0 left is not broken
    money.pay(BANK, player_account(pid), 1, "one more")
    assert money.cash(BANK) == -1 and money.bank_broken
    money.check_end(state, None)
    assert money.trigger == "bank" and money.ended_by is None  # ends with the OR set


def test_short_payer_is_flagged_not_hidden(fresh):
    state, money, _market = fresh
    pid = state.players[0]
    money.pay(player_account(pid), BANK, money.player_cash(pid) + 5, "too much")
    assert not money.in_sync and money.player_cash(pid) == -5
    assert "cannot pay" in money.notes[0]


def test_final_result_checks_its_reason():
    players = [PlayerResult(1, "a", 10, 20, 30)]
    assert players[0].value == 60
    with pytest.raises(ValueError, match="unknown game-end reason 'won'"):
        FinalResult(players, "won", 0)
    final = FinalResult(players, "bank", 0)
    assert final.result == {"1": 60}
    assert final.differences({"1": 60}) == {}
    assert final.differences({"1": 61, "2": 5}) == {"1": (60, 61), "2": (None, 5)}


def test_cli_prints_final_scores(tmp_path):
    path = RECORDS / "1846/222264.json"
    report = tmp_path / "r.json"
    out = CliRunner().invoke(cli, ["replay", str(path), "--report", str(report)])
    assert out.exit_code == 0, out.output
    assert "final scores (game end: manually_ended)" in out.output
    recorded = json.loads(path.read_text())["result"]
    for value in recorded.values():
        assert f"│ {value:>5} │" in out.output
    assert json.loads(report.read_text())["final"]["result"] == recorded


def test_a_payment_without_a_price_is_a_clear_error():
    data = json.loads((RECORDS / "1846/222264.json").read_text())
    buy = next(a for a in data["actions"] if a["type"] == "buy_train")
    del buy["price"]
    with pytest.raises(ReplayError, match=r"buy_train by \w+\): price None is not a number"):
        replay(data, solve=False)
