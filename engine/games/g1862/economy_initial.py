"""1862 USA/Canada (Ohley): initial stock round, private companies, group availability.

Pure functions and frozen dataclasses, like :mod:`.economy`.  Private companies are named by
their symbols in ``data.COMPANIES`` (numbered 1-8 in that order).

Rulebook section (``shared/seeds/1862-usa-canada-ohley-rules.txt``) per function:

==============================  ============================================================
:func:`private_order`           Private Companies / General (certificates 1-8)
:func:`next_private`            Initial Stock Round (only the lowest-numbered unsold is for sale)
:func:`minimum_bid`             Initial Stock Round (5$ over the printed price or highest bid)
:func:`free_cash`               Initial Stock Round (money on bids is earmarked)
:func:`bid_refusal`             Initial Stock Round (what may be bid on, and how much)
:func:`offer_price`             Initial Stock Round (unsold "1" offered 5$ cheaper; 0$ must buy)
:func:`resolve_offer`           Initial Stock Round (no bid / one bid / auction)
:class:`Auction` and friends    Initial Stock Round (auction from the left of the high bidder)
:func:`priority_after`          Initial Stock Round; Stock Rounds / Sequence (priority deal)
:func:`private_revenue`         Private Companies / General; Special Abilities (SOC 15$)
:func:`privates_closing`        Private Companies / Special Abilities (automatic closings)
:func:`private_grants`          Private Companies / Special Abilities (shares that come along)
:func:`available_groups`        Buying Shares (four groups)
:func:`station_marker_cost`     Placing Station Markers (40/100, x1.5 across the border)
:func:`rmc_build_cost`          Special Abilities (RMC: up to 160$ off)
==============================  ============================================================
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.games.checks import checked_int
from engine.games.g1862 import data
from engine.games.g1862 import economy_data as ed

__all__ = [
    "private_order", "next_private", "minimum_bid", "free_cash", "bid_refusal",
    "offer_price", "resolve_offer", "Auction", "start_auction", "auction_bid",
    "auction_pass", "priority_after", "private_revenue", "privates_closing",
    "private_grants", "group_of", "available_groups", "station_marker_cost",
    "rmc_build_cost",
]  # fmt: skip

_PRIVATES = {c["sym"]: c for c in data.COMPANIES}


_int = checked_int


def _private(sym: str) -> dict:
    if sym not in _PRIVATES:
        raise ValueError(f"unknown private company {sym!r} (privates: {', '.join(_PRIVATES)})")
    return _PRIVATES[sym]


def private_order() -> tuple[str, ...]:
    """Private companies by certificate number (1-8)."""
    return tuple(_PRIVATES)


def next_private(sold: Iterable[str]) -> str | None:
    """The certificate on sale at its printed price: the lowest-numbered unsold one."""
    sold = set(sold)
    for sym in sold:
        _private(sym)
    return next((s for s in _PRIVATES if s not in sold), None)


def minimum_bid(sym: str, bids: Mapping[Hashable, int]) -> int:
    """Least bid on private ``sym``: 5$ over its printed price, or over the highest bid."""
    base = _private(sym)["value"]
    for player, amount in bids.items():
        _int(amount, f"bid of {player!r}", 1)
    return max([base, *bids.values()]) + ed.BID_STEP


def free_cash(cash: int, player: Hashable, bids: Mapping[str, Mapping[Hashable, int]]) -> int:
    """Cash ``player`` may spend: money standing on his bids is earmarked (a bid that was
    overbid and kept still holds its money; a withdrawn bid is gone from ``bids``)."""
    _int(cash, "cash")
    held = 0
    for sym, on in bids.items():
        _private(sym)
        held += _int(on.get(player, 0), f"bid of {player!r} on {sym}")
    if held > cash:
        raise ValueError(f"{player!r} has {held}$ on bids but only {cash}$ cash")
    return cash - held


def bid_refusal(
    sym: str,
    player: Hashable,
    amount: int,
    cash: int,
    bids: Mapping[str, Mapping[Hashable, int]],
    sold: Iterable[str],
) -> str | None:
    """Why ``player`` may not bid ``amount`` on private ``sym`` (``None``: he may).

    Bids go on certificates still to be offered (not the one on sale now, which is simply
    bought); a player raising his own standing bid may use the money already on it.
    """
    _int(amount, "amount", 1)
    sold = set(sold)
    on_sale = next_private(sold)
    if sym in sold:
        return f"{sym} is already sold"
    _private(sym)
    if sym == on_sale:
        return f"{sym} is on sale at its printed price: buy it, do not bid"
    on = bids.get(sym, {})
    need = minimum_bid(sym, on)
    if amount < need:
        return f"a bid on {sym} must be at least {need}$"
    available = free_cash(cash, player, bids) + on.get(player, 0)
    if amount > available:
        return f"{player!r} has only {available}$ free for bids"
    return None


def offer_price(sym: str, offers: int) -> int:
    """Price of the unsold certificate "1" at its ``offers``-th reduced offer.

    After every player passed in turn, the certificate is offered to each next player 5$
    cheaper than to the one before (first reduced offer: printed - 5); the first player
    offered it at 0$ has to buy it.  Only certificate "1" is reduced.
    """
    if sym != private_order()[0]:
        raise ValueError(f"only certificate 1 ({private_order()[0]}) is offered at reduced prices")
    _int(offers, "offers")
    return max(0, _private(sym)["value"] - ed.PRICE_DROP_STEP * offers)


def resolve_offer(bids: Mapping[Hashable, int]) -> tuple[str, Hashable | None, int | None]:
    """What happens to the next certificate once the one before it is sold.

    Returns ``("offer", None, None)`` (no bid: on sale at its printed price),
    ``("sold", player, amount)`` (one bid: sold to him at once) or
    ``("auction", leader, amount)`` (two or more bids).
    """
    for player, amount in bids.items():
        _int(amount, f"bid of {player!r}", 1)
    if not bids:
        return "offer", None, None
    leader = max(bids, key=bids.__getitem__)
    return ("sold" if len(bids) == 1 else "auction"), leader, bids[leader]


@dataclass(frozen=True)
class Auction:
    """An auction of one private among the players who bid on it.

    ``order`` runs clockwise from the player left of the highest bidder; ``active`` are the
    players still in; ``turn`` indexes ``order``.
    """

    sym: str
    order: tuple[Hashable, ...]
    active: frozenset
    leader: Hashable
    high: int
    turn: int

    @property
    def done(self) -> bool:
        return self.active == frozenset({self.leader})

    @property
    def to_act(self) -> Hashable | None:
        return None if self.done else self.order[self.turn]

    def _advance(self, active: frozenset, leader: Hashable, high: int) -> Auction:
        n = len(self.order)
        nxt = self.turn
        for k in range(1, n + 1):
            cand = self.order[(self.turn + k) % n]
            if cand in active and cand != leader:
                nxt = (self.turn + k) % n
                break
        return replace(self, active=active, leader=leader, high=high, turn=nxt)


def start_auction(
    sym: str, bids: Mapping[Hashable, int], seat_order: Sequence[Hashable]
) -> Auction:
    """Open the auction of ``sym`` among its bidders (two or more)."""
    _private(sym)
    if len(bids) < 2:
        raise ValueError(f"an auction of {sym} needs two or more bids, got {len(bids)}")
    seats = list(seat_order)
    for player, amount in bids.items():
        if player not in seats:
            raise ValueError(f"bidder {player!r} is not in seat_order")
        _int(amount, f"bid of {player!r}", 1)
    kind, leader, high = resolve_offer(bids)
    i = seats.index(leader)
    clockwise = [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]
    order = tuple(p for p in clockwise if p in bids)
    return Auction(sym, order, frozenset(bids), leader, high, 0)


def _check_turn(auction: Auction, player: Hashable) -> None:
    if auction.done:
        raise ValueError(f"the auction of {auction.sym} is over")
    if player != auction.to_act:
        raise ValueError(
            f"it is {auction.to_act!r}'s turn in the auction of {auction.sym}, not {player!r}"
        )


def auction_bid(auction: Auction, player: Hashable, amount: int, available: int) -> Auction:
    """``player`` raises to ``amount`` (at least 5$ over the last bid, at most ``available``,
    his free cash plus his own bid on this certificate)."""
    _check_turn(auction, player)
    _int(amount, "amount", 1)
    _int(available, "available")
    if amount < auction.high + ed.BID_STEP:
        raise ValueError(f"a bid must be at least {auction.high + ed.BID_STEP}$, got {amount}")
    if amount > available:
        raise ValueError(f"{player!r} has only {available}$ for this bid, bid {amount}")
    return auction._advance(auction.active, player, amount)


def auction_pass(auction: Auction, player: Hashable) -> Auction:
    """``player`` leaves the auction."""
    _check_turn(auction, player)
    return auction._advance(auction.active - {player}, auction.leader, auction.high)


def priority_after(
    seat_order: Sequence[Hashable], last_actor: Hashable | None, holder: Hashable
) -> Hashable:
    """Priority deal after a stock round: the player left of the last one who acted (did not
    pass); the holder keeps it if nobody acted."""
    seats = list(seat_order)
    if holder not in seats:
        raise ValueError(f"priority holder {holder!r} is not in seat_order")
    if last_actor is None:
        return holder
    if last_actor not in seats:
        raise ValueError(f"last actor {last_actor!r} is not in seat_order")
    return seats[(seats.index(last_actor) + 1) % len(seats)]


def private_revenue(sym: str, floated: Iterable[str]) -> int:
    """Revenue of an open private at the start of an operating round (SOC: 15$ once the
    first of CPR and UP has floated)."""
    revenue = _private(sym)["revenue"]
    if sym == "SOC" and set(ed.PRIVATE_CLOSE_ON_FLOAT["SOC"]) & set(floated):
        return ed.SOC_REDUCED_REVENUE
    return revenue


def privates_closing(
    open_privates: Iterable[str], floated: Iterable[str], paid: Iterable[str]
) -> frozenset:
    """Open privates that close now: PSC once WP, FNY once NYC has paid a dividend; NYSH when
    NYH floats; SOC when both CPR and UP have floated."""
    open_privates, floated, paid = set(open_privates), set(floated), set(paid)
    for sym in open_privates:
        _private(sym)
    out = {s for s, corp in ed.PRIVATE_CLOSE_ON_FIRST_DIVIDEND.items() if corp in paid}
    out |= {s for s, corps in ed.PRIVATE_CLOSE_ON_FLOAT.items() if set(corps) <= floated}
    return frozenset(out & open_privates)


def private_grants(sym: str) -> tuple[tuple[str, int, bool], ...]:
    """Shares handed to a private's buyer: (corporation, percent, president?)."""
    _private(sym)
    return ed.PRIVATE_SHARES.get(sym, ())


def group_of(corp: str) -> int:
    """Availability group of ``corp``."""
    for group, corps in data.CORP_GROUPS.items():
        if corp in corps:
            return group
    raise ValueError(f"unknown public company {corp!r}")


def available_groups(
    privates_unsold: int,
    ipo_percent: Mapping[str, int],
    floated: Iterable[str],
    president_sold: Iterable[str],
    groups: Mapping[int, Sequence[str]] | None = None,
) -> frozenset:
    """Groups whose shares are on sale in this state (each needs the one before).

    1: every private sold; 2: no group-1 share left in the initial offering; 3: every
    group-2 company floated; 4: every group-3 president's share bought.  The engine should
    latch a group once it opened (a later closing must not shut it again).
    """
    _int(privates_unsold, "privates_unsold")
    groups = dict(data.CORP_GROUPS if groups is None else groups)
    floated, president_sold = set(floated), set(president_sold)
    tests = {
        1: lambda: privates_unsold == 0,
        2: lambda: all(_int(ipo_percent[c], f"ipo_percent of {c}") == 0 for c in groups.get(1, ())),
        3: lambda: all(c in floated for c in groups.get(2, ())),
        4: lambda: all(c in president_sold for c in groups.get(3, ())),
    }
    for c in groups.get(1, ()):
        if c not in ipo_percent:
            raise ValueError(f"ipo_percent has no entry for group-1 company {c!r}")
    out = set()
    for g in sorted(groups):
        if g not in tests:
            raise ValueError(f"unknown group {g!r} (groups 1-4)")
        if g != len(out) + 1 or not tests[g]():
            break
        out.add(g)
    return frozenset(out)


def station_marker_cost(index: int, across_border: bool = False) -> int:
    """Cost of a company's ``index``-th station marker (0: home, free; 1: 40$; more: 100$),
    1.5 times across the US/Canadian border."""
    _int(index, "index")
    if not isinstance(across_border, bool):
        raise ValueError(f"across_border must be True or False, got {across_border!r}")
    base = ed.STATION_MARKER_COSTS[min(index, len(ed.STATION_MARKER_COSTS) - 1)]
    return base * ed.BORDER_COST_NUM // ed.BORDER_COST_DEN if across_border else base


def rmc_build_cost(printed_cost: int) -> int:
    """What the company pays for RMC's extra yellow tile: up to 160$ of the cost is waived."""
    _int(printed_cost, "printed_cost")
    return max(0, printed_cost - ed.RMC_DISCOUNT)
