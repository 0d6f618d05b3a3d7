"""The money ledger every game engine books its cash through."""

import pytest

from engine.game.ledger import InsufficientCash, Ledger


def test_transfers_conserve_money_and_keep_history():
    led = Ledger({"bank": 12000, "p1": 400, "p2": 400})
    led.pay("p1", "bank", 90, "private A")  # p1 400 - 90 = 310
    led.pay("bank", "p2", 40, "revenue")  # p2 400 + 40 = 440
    assert led.cash("p1") == 310 and led.cash("p2") == 440 and led.cash("bank") == 12050
    led.check_conserved()
    assert [t.reason for t in led.history] == ["private A", "revenue"]


def test_overdraft_is_refused_and_changes_nothing():
    led = Ledger({"bank": 100, "NYC": 30})
    with pytest.raises(InsufficientCash, match="NYC has 30 and cannot pay 80 for a 3-train"):
        led.pay("NYC", "bank", 80, "a 3-train")
    assert led.cash("NYC") == 30 and led.cash("bank") == 100 and not led.history


def test_sink_accounts_may_go_negative_and_opening_cash_counts():
    led = Ledger({"bank": 0}, may_go_negative={"bank"})
    led.open("p1", 0)
    led.pay("bank", "p1", 50)
    assert led.cash("bank") == -50
    led.open("B&O", 100)
    led.check_conserved()
    led.balances["p1"] += 1  # a bug that bypasses pay()
    with pytest.raises(AssertionError, match="not conserved"):
        led.check_conserved()


def test_bad_payments_name_the_account():
    led = Ledger({"bank": 10})
    with pytest.raises(KeyError, match="no account 'ghost'"):
        led.pay("bank", "ghost", 1)
    with pytest.raises(ValueError, match="negative payment"):
        led.pay("bank", "bank", -1)
    with pytest.raises(ValueError, match="already exists"):
        led.open("bank")
