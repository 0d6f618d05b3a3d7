"""1812 auctions: the initial private-company auction (§3.2) and minor companies auctioned
with the winning bid going to the minor's treasury (§6.2.1).

An :class:`Auction` is an immutable snapshot; :func:`open_auction`, :func:`raise_bid` and
:func:`pass_bid` return the next one.  Rule breaches raise
:class:`~.economy.RuleViolation` naming the section of the seed rulebook
(``../shared/seeds/1812-rules.txt``), bad input :class:`ValueError`.

Rulebook sections implemented
-----------------------------
==========================  ===========================================================
function                    rule
==========================  ===========================================================
``open_auction``            §3.2 / §6.2.1 nominate and bid (multiple of £5, at least the
                            minimum, at most the bidder's cash)
``raise_bid``               §3.2 raise in multiples of £5, in Player Order
``pass_bid``                §3.2 a player who passes may not re-enter
``winner``                  §3.2 the last player left wins and pays his bid
``private_minimum``         §3.2, §14.2 the parenthesised minimum bid
``after_private_passes``    §3.2 all pass: redraw (none sold) or two ORs (some sold)
``next_player``             §3.2, §6.2.1 the next turn goes to the player after the winner
``minor_start_price``       §6.2.1 half the bid, rounded down to a yellow space £50-£100
``start_minor``             §6.2.1, §2.3 minors before Phase 4; bid to the treasury
==========================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.games.g1812 import data
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.economy import RuleViolation, phase_number, whole_number

__all__ = [
    "Auction",
    "MinorStart",
    "open_auction",
    "raise_bid",
    "pass_bid",
    "winner",
    "private_minimum",
    "after_private_passes",
    "next_player",
    "minor_start_price",
    "start_minor",
]

_MIN_BID = {c["sym"]: c["min_bid"] for c in data.COMPANIES}


@dataclass(frozen=True)
class Auction:
    """One company under the hammer.

    ``bidders`` are the players still in, in Player Order starting after the nominator;
    ``to_act`` is ``None`` once only the high bidder is left (the auction is over).
    """

    item: str
    high_bid: int
    high_bidder: str
    bidders: tuple[str, ...]
    to_act: str | None


def _bid_ok(amount: int, floor: int, cash: int, section: str) -> int:
    amount = whole_number(amount, "bid")
    if amount % ed.BID_STEP:
        raise RuleViolation(f"{section}: bids are multiples of £{ed.BID_STEP}, not £{amount}")
    if amount < floor:
        raise RuleViolation(f"{section}: the bid must be at least £{floor}, not £{amount}")
    if amount > whole_number(cash, "cash"):
        raise RuleViolation(f"{section}: a player may not bid more than his cash (£{cash})")
    return amount


def _next_to_act(bidders: tuple[str, ...], after: str, high: str) -> str | None:
    """The first bidder after ``after`` (cyclically) other than ``after`` and the high
    bidder; ``None`` when nobody is left to answer the high bid."""
    k = bidders.index(after)
    for i in range(1, len(bidders)):
        p = bidders[(k + i) % len(bidders)]
        if p not in (after, high):
            return p
    return None


def open_auction(
    item: str, nominator: str, bid: int, order: Iterable[str], cash: int, minimum: int
) -> Auction:
    """The ``nominator`` puts ``item`` up with ``bid`` (§3.2, §6.2.1).

    ``order`` is the Player Order, ``cash`` the nominator's cash, ``minimum`` the least
    opening bid (:func:`private_minimum` or ``economy_data.MINOR_MIN_BID``).
    """
    order = tuple(order)
    if len(set(order)) != len(order) or nominator not in order:
        raise ValueError(f"order must name each player once and include {nominator!r}")
    if not isinstance(item, str) or not item:
        raise ValueError(f"item must be a company name, got {item!r}")
    amount = _bid_ok(bid, whole_number(minimum, "minimum"), cash, "§3.2")
    k = order.index(nominator)
    bidders = order[k:] + order[:k]
    return Auction(item, amount, nominator, bidders, _next_to_act(bidders, nominator, nominator))


def raise_bid(auction: Auction, player: str, amount: int, cash: int) -> Auction:
    """``player`` raises to ``amount`` (§3.2)."""
    if auction.to_act is None:
        raise RuleViolation(f"§3.2: the auction for {auction.item} is over")
    if player != auction.to_act:
        raise RuleViolation(f"§3.2: it is {auction.to_act}'s turn to bid, not {player}'s")
    amount = _bid_ok(amount, auction.high_bid + ed.BID_STEP, cash, "§3.2")
    return Auction(
        auction.item, amount, player, auction.bidders, _next_to_act(auction.bidders, player, player)
    )


def pass_bid(auction: Auction, player: str) -> Auction:
    """``player`` drops out for good (§3.2); the last one left has won."""
    if auction.to_act is None:
        raise RuleViolation(f"§3.2: the auction for {auction.item} is over")
    if player != auction.to_act:
        raise RuleViolation(f"§3.2: it is {auction.to_act}'s turn, not {player}'s")
    nxt = _next_to_act(auction.bidders, player, auction.high_bidder)
    bidders = tuple(b for b in auction.bidders if b != player)
    return Auction(auction.item, auction.high_bid, auction.high_bidder, bidders, nxt)


def winner(auction: Auction) -> tuple[str, int] | None:
    """``(player, price)`` once the auction is over, else ``None``."""
    if auction.to_act is not None:
        return None
    return auction.high_bidder, auction.high_bid


def private_minimum(sym: str) -> int:
    """The parenthesised minimum bid of a private company (§3.2, §14.2)."""
    if sym not in _MIN_BID:
        raise ValueError(f"unknown private company {sym!r}")
    return _MIN_BID[sym]


def after_private_passes(sold_any: bool) -> str:
    """All players passed in turn during the initial auction (§3.2): ``"redraw"`` a new
    random set if nothing was sold, else ``"operating"`` -- two Operating Rounds in which
    only privates pay, then the auction goes on in the next Stock Round."""
    if not isinstance(sold_any, bool):
        raise ValueError(f"sold_any must be a bool, got {sold_any!r}")
    return "operating" if sold_any else "redraw"


def next_player(order: Iterable[str], player: str) -> str:
    """The player after ``player`` in Player Order, who takes the next turn after ``player``
    won an auction (§3.2, §6.2.1)."""
    order = list(order)
    if player not in order:
        raise ValueError(f"player {player!r} is not in the player order")
    return order[(order.index(player) + 1) % len(order)]


def minor_start_price(bid: int) -> int:
    """§6.2.1: the yellow space for half the amount paid, rounded down to the next available
    value (£50 to £100)."""
    half = whole_number(bid, "bid", ed.MINOR_MIN_BID) // 2
    return max(p for p in ed.MINOR_START_PRICES if p <= half) if half < 100 else 100


@dataclass(frozen=True)
class MinorStart:
    """An auctioned minor: the winner pays ``treasury`` into it; its marker starts at
    ``price`` (at the bottom of any pile there)."""

    minor: str
    owner: str
    treasury: int
    price: int


def start_minor(auction: Auction, phase) -> MinorStart:
    """Settle a finished minor auction (§6.2.1); minors start only before Phase 4 (§2.3)."""
    if phase_number(phase) > int(ed.MINOR_LAST_START_PHASE):
        raise RuleViolation("§2.3: minor companies may no longer be started from Phase 4")
    if auction.high_bid < ed.MINOR_MIN_BID:
        raise RuleViolation(f"§6.2.1: the minimum bid for a minor is £{ed.MINOR_MIN_BID}")
    won = winner(auction)
    if won is None:
        raise ValueError(f"the auction for {auction.item} is not over")
    owner, bid = won
    return MinorStart(auction.item, owner, bid, minor_start_price(bid))
