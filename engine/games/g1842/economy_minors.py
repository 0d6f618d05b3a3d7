"""1842: the starting package, private railways and predecessor railways as pure functions.

Companion of :mod:`.economy` (same conventions: the rulebook
``../shared/seeds/1842-schleswig-holstein-rules.txt`` is the oracle, section numbers as
printed; every function validates its input and raises :class:`ValueError` naming the bad
item).  Private railways are numbers 1-3 (HBE, KE, RE), predecessors 4-5 (GEE -> HMBG,
SSE -> SE).

=========================================  ==================================================
function                                   rule
=========================================  ==================================================
:func:`starting_round`,                    5 the simultaneous choice and its resolution:
:func:`starting_round_next`,               single choices first in number order; then
:func:`starting_round_buy`,                contested ones, the chooser left of the last
:func:`resolve_starting_round`             buyer buys, the others take unselected companies
                                           in seating order; the banker first when no
                                           choice is single
:func:`first_stock_round_start`            5, 5.1, 6.1 who starts the first stock round
:func:`first_stock_round_offer`            6.1 the lowest unsold company of the package
:func:`ake_director_income`                5.1 20 M per OR with 6 players while AKE is trainless
:func:`minor_start`                        3.1, 3.2 what the buyer receives
:func:`minor_revenue`                      3.1.2, 7.4.3 half to the treasury, half to the owner
:func:`minor_build`                        3.1.1, 3.2.1 one building token per tile
:func:`minor_train_refusal`                3.1.3 limits, no 5-train, no owner money
:func:`private_sale_window`                3.1.4, 3.1.4.1 voluntary (green) or forced (5-train)
:func:`auction_start`, :func:`auction_bid`,  3.1.4.1 auction among corporations: minimum =
:func:`auction_pass`,                      the private's treasury, raises of 10 M, cap =
:func:`auction_min_bid`,                   money + HAV certificates; a pass is final
:func:`auction_result`
:func:`auction_cap`                        3.1.4.1 a bidder's cap
:func:`settle_private_sale`                3.1.4.1 payment, takeover, surplus trains, tokens
:func:`liquidate_private`                  3.1.4.2 40 M demolition charge
:func:`transformation_due`                 3.2 a) 50% of the successor sold
:func:`transform_predecessor`              3.2 a) 1-7 and b) 1-6, 8, 9
:func:`reduce_ipo_to_half`                 3.2 b) 8
:func:`exchange_box`,                      11.1 exchange of private railways (optional)
:func:`exchange_private`,
:func:`leftover_exchange_certificates`     11.1.3
=========================================  ==================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.games.g1842 import economy_data as ed
from engine.games.g1842.economy import (
    Cell,
    after_sale,
    check_seats,
    director_after,
    parse_options,
    seat_order_from,
    share_percent,
    shares_of,
    start_cell,
    whole_number,
)
from engine.games.g1842.economy_ops import excess_trains, phase_colour, tile_lays

__all__ = [
    "StartingRound", "PendingPurchase", "starting_round", "starting_round_next",
    "starting_round_buy", "resolve_starting_round", "first_stock_round_start",
    "first_stock_round_offer", "ake_director_income", "MinorStart", "minor_start",
    "minor_revenue", "minor_build", "minor_train_refusal", "private_sale_window", "Auction",
    "auction_start", "auction_min_bid", "auction_bid", "auction_pass", "auction_result",
    "auction_cap", "PrivateSale", "settle_private_sale", "Liquidation", "liquidate_private",
    "transformation_due", "Transformation", "transform_predecessor", "reduce_ipo_to_half",
    "exchange_box", "Exchange", "exchange_private", "leftover_exchange_certificates",
]

_MINORS = {m["sym"]: m for m in ed.MINORS}


def _minor(sym, kinds: Iterable[str] = ed.STARTING_PACKAGE, name: str = "company") -> str:
    if sym not in tuple(kinds):
        raise ValueError(f"unknown {name} {sym!r} (expected one of {', '.join(kinds)})")
    return sym


# ----------------------------------------------------------------------------- starting round
@dataclass(frozen=True)
class StartingRound:
    """The starting round (5): secret choices and the purchases made so far.

    ``purchases`` lists (player, company) in buying order; company None means the player
    was left without one (possible only with 6 players, 5.1).
    """

    choices: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]
    banker: str
    purchases: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True)
class PendingPurchase:
    """Who buys next and what they may buy: one company (their choice), the unselected
    companies left (a displaced chooser picks one), or none (they go without)."""

    player: str
    options: tuple[str, ...]


def starting_round(choices: Mapping[str, str], seats: Sequence[str], banker: str) -> StartingRound:
    """Start the resolution of the revealed choices (5).

    ``choices``: every seated player -> the company (HBE, KE, RE, GEE, SSE) they chose;
    ``seats`` in clockwise order (a player's left is the next entry).
    """
    check_seats(seats, banker)
    if not 3 <= len(seats) <= 6:
        raise ValueError(f"1842 is for 3-6 players, got {len(seats)}")
    if set(choices) != set(seats):
        raise ValueError(
            f"choices must name every seated player: {sorted(choices)} vs {sorted(seats)}"
        )
    for p, c in choices.items():
        _minor(c, name=f"choice of {p!r}")
    return StartingRound(tuple((p, choices[p]) for p in seats), tuple(seats), banker)


def starting_round_next(state: StartingRound) -> PendingPurchase | None:
    """The next purchase of the starting round (5), or None when it is over."""
    choice = dict(state.choices)
    done = dict(state.purchases)
    sold = {c for c in done.values() if c}
    chooser = {c: [p for p in state.seats if choice[p] == c] for c in ed.STARTING_PACKAGE}
    singles = [c for c in ed.STARTING_PACKAGE if len(chooser[c]) == 1]
    contested = [c for c in ed.STARTING_PACKAGE if len(chooser[c]) > 1]
    unselected = [c for c in ed.STARTING_PACKAGE if not chooser[c] and c not in sold]
    for c in singles:
        if c not in sold:
            return PendingPurchase(chooser[c][0], (c,))
    if not singles:  # "the Banker buys first": his company leads the contested ones
        first = choice[state.banker]
        if state.banker not in done:
            return PendingPurchase(state.banker, (first,))
        contested.remove(first)
        contested.insert(0, first)
    for c in contested:
        winner = next((p for p, bought in state.purchases if bought == c), None)
        if winner is None:
            last = next(p for p, bought in reversed(state.purchases) if bought)
            for p in seat_order_from(state.seats, last):
                if p in chooser[c] and p not in done:
                    return PendingPurchase(p, (c,))
        for p in seat_order_from(state.seats, winner):
            if p in chooser[c] and p not in done:
                return PendingPurchase(p, tuple(unselected))
    return None


def starting_round_buy(state: StartingRound, player: str, company: str | None) -> StartingRound:
    """Record ``player`` buying ``company`` (None: going without when nothing is left)."""
    pending = starting_round_next(state)
    if pending is None:
        raise ValueError("the starting round is over")
    if player != pending.player:
        raise ValueError(f"it is {pending.player!r}'s purchase, not {player!r}'s")
    if pending.options and company not in pending.options:
        raise ValueError(f"{player!r} must buy one of {list(pending.options)}, not {company!r}")
    if not pending.options and company is not None:
        raise ValueError(f"no company is left for {player!r}, got {company!r}")
    return StartingRound(
        state.choices, state.seats, state.banker, (*state.purchases, (player, company))
    )


def resolve_starting_round(
    choices: Mapping[str, str],
    seats: Sequence[str],
    banker: str,
    pick: Callable[[str, tuple[str, ...]], str] | None = None,
) -> StartingRound:
    """Run the starting round to its end; ``pick(player, options)`` chooses for a displaced
    player (default: the lowest-numbered company left)."""
    state = starting_round(choices, seats, banker)
    while (pending := starting_round_next(state)) is not None:
        if not pending.options:
            company = None
        elif len(pending.options) == 1 or pick is None:
            company = pending.options[0]
        else:
            company = pick(pending.player, pending.options)
        state = starting_round_buy(state, pending.player, company)
    return state


def first_stock_round_start(state: StartingRound) -> tuple[str, bool]:
    """Who starts the first stock round and whether they must buy the AKE director
    certificate (5, 5.1, 6.1).

    The player left without a company (6 players) gets the priority deal and buys the AKE
    director certificate, as in the example of 5; otherwise the player to the left of the
    last buyer starts (6.1).
    """
    if starting_round_next(state) is not None:
        raise ValueError("the starting round is not over")
    for player, company in state.purchases:
        if company is None:
            return player, True
    last = state.purchases[-1][0]
    return seat_order_from(state.seats, last)[0], False


def first_stock_round_offer(sold: Iterable[str]) -> str | None:
    """The package company a player may buy in the first stock round: the lowest-numbered
    unsold one (6.1); None once all are sold (then the AKE director certificate is on sale)."""
    sold = {_minor(c) for c in sold}
    return next((c for c in ed.STARTING_PACKAGE if c not in sold), None)


def ake_director_income(players: int, ake_trains: int) -> int:
    """With six players the AKE director gets 20 M per OR while the AKE has no train (5.1)."""
    whole_number(players, "players")
    whole_number(ake_trains, "ake_trains")
    return ed.AKE_SIX_PLAYER_INCOME if players == 6 and ake_trains == 0 else 0


# ----------------------------------------------------------------------------- minors
@dataclass(frozen=True)
class MinorStart:
    """What the bank hands a starting company's buyer (3.1, 3.2)."""

    minor: str
    price: int
    treasury: int
    train: str
    building_tokens: int
    markers: tuple[str, ...]


def minor_start(minor: str, price: int | None = None) -> MinorStart:
    """A package company is bought for ``price`` (default: its face value): the charter, a
    2-train, price - 100 M as treasury, its building tokens and markers (3.1, 3.2)."""
    _minor(minor)
    m = _MINORS[minor]
    price = m["value"] if price is None else whole_number(price, "price", ed.TWO_TRAIN_PRICE)
    return MinorStart(
        minor, price, price - ed.TWO_TRAIN_PRICE, "2", int(m["building_tokens"]),
        tuple(m.get("activity_markers", ())),
    )  # fmt: skip


def minor_revenue(revenue: int) -> tuple[int, int]:
    """(to treasury, to owner): half each (3.1.2, 7.4.3); an odd Mark stays in the treasury."""
    whole_number(revenue, "revenue")
    return revenue - revenue // 2, revenue // 2


def minor_build(minor: str, tokens_left: int, tiles: int, use_marker: bool = False) -> int:
    """Building tokens left after ``tiles`` lays: one token per tile, moved to the
    "Building Token" box (3.1.1); a second tile needs the RE's or GEE's marker (3.1.1,
    3.2.1)."""
    _minor(minor)
    whole_number(tokens_left, "tokens_left")
    allowed = tile_lays(minor, use_marker=use_marker)
    if not 1 <= whole_number(tiles, "tiles") <= allowed:
        raise ValueError(f"{minor} may lay 1-{allowed} tiles this round, got {tiles}")
    if tiles > tokens_left:
        raise ValueError(f"{minor} has {tokens_left} building tokens, needs {tiles}")
    return tokens_left - tiles


def minor_train_refusal(
    minor: str, train: str, owned: int, price: int, treasury: int
) -> str | None:
    """Why a private or predecessor railway may not buy this train (3.1.3); None if it may.

    No 5-train; no more trains than the charter allows; the owner may not add money.
    """
    _minor(minor)
    if not any(t["name"] == train for t in ed.TRAINS):
        raise ValueError(f"unknown train {train!r}")
    whole_number(owned, "owned")
    whole_number(price, "price")
    whole_number(treasury, "treasury")
    if train in ed.MINOR_FORBIDDEN_TRAINS:
        return f"a private railway may not buy a {train}-train (3.1.3)"
    if owned >= _MINORS[minor]["train_limit"]:
        return f"{minor} may own {_MINORS[minor]['train_limit']} train(s) (3.1.3)"
    if price > treasury:
        return "the owner may not add private money for a train (3.1.3)"
    return None


def private_sale_window(phase: str, first_five_bought: bool) -> str | None:
    """Whether private railways are auctioned at the start of an OR (3.1.4, 3.1.4.1).

    ``"forced"`` once the first 5-train is bought: each remaining private carries a sale
    marker, is auctioned at the start of the next OR and may no longer sell its trains;
    ``"voluntary"`` from the green phase: each owner, in number order, is asked;
    None before.
    """
    colour = phase_colour(phase)
    if first_five_bought:
        return "forced"
    return None if colour == "yellow" else "voluntary"


# ----------------------------------------------------------------------------- auction
@dataclass(frozen=True)
class Auction:
    """An auction of a private railway among corporations (3.1.4.1)."""

    private: str
    minimum: int
    order: tuple[str, ...]
    caps: tuple[int, ...]
    active: tuple[str, ...]
    bid: int | None = None
    leader: str | None = None
    turn: str | None = None


def auction_cap(cash: int, hav_percent: int, hav_price: int) -> int:
    """Highest bid of a corporation: its money plus its HAV certificates at market (3.1.4.1)."""
    whole_number(cash, "cash")
    share_percent(hav_percent, "hav_percent")
    whole_number(hav_price, "hav_price")
    return cash + hav_percent // 10 * hav_price


def _next_turn(order: Sequence[str], active: Sequence[str], after: str, leader: str | None):
    i = order.index(after)
    for k in range(1, len(order) + 1):
        p = order[(i + k) % len(order)]
        if p in active and p != leader:
            return p
    return None


def auction_start(private: str, minimum: int, bidders: Sequence[tuple[str, int]]) -> Auction:
    """Open the auction of ``private`` (3.1.4.1).

    ``minimum`` is the private's treasury; ``bidders`` the started corporations with their
    caps (:func:`auction_cap`) in this OR's operating order.  A corporation whose cap is
    below the minimum can never bid and is left out.
    """
    _minor(private, ed.PRIVATES, "private railway")
    whole_number(minimum, "minimum")
    order = tuple(b[0] for b in bidders)
    if len(set(order)) != len(order):
        raise ValueError(f"bidders must be distinct, got {list(order)}")
    caps = tuple(whole_number(b[1], f"cap of {b[0]!r}") for b in bidders)
    active = tuple(c for c, cap in zip(order, caps, strict=True) if cap >= minimum)
    return Auction(private, minimum, order, caps, active, None, None, active[0] if active else None)


def auction_min_bid(auction: Auction) -> int:
    """The lowest legal bid now: the minimum, then 10 M over the current bid (3.1.4.1)."""
    return auction.minimum if auction.bid is None else auction.bid + ed.AUCTION_STEP


def auction_bid(auction: Auction, corp: str, amount: int) -> Auction:
    """``corp`` bids ``amount``: at least :func:`auction_min_bid`, raising in steps of 10 M,
    at most its cap (3.1.4.1)."""
    if auction.turn != corp:
        raise ValueError(f"it is {auction.turn!r}'s turn to bid, not {corp!r}'s")
    whole_number(amount, "amount")
    if amount < auction_min_bid(auction):
        raise ValueError(f"bid {amount} is below the minimum {auction_min_bid(auction)}")
    if auction.bid is not None and (amount - auction.bid) % ed.AUCTION_STEP:
        raise ValueError(f"bid {amount} must raise {auction.bid} in steps of {ed.AUCTION_STEP}")
    cap = auction.caps[auction.order.index(corp)]
    if amount > cap:
        raise ValueError(f"bid {amount} exceeds {corp}'s money and HAV certificates ({cap})")
    turn = _next_turn(auction.order, auction.active, corp, corp)
    return Auction(auction.private, auction.minimum, auction.order, auction.caps,
                   auction.active, amount, corp, turn)  # fmt: skip


def auction_pass(auction: Auction, corp: str) -> Auction:
    """``corp`` passes and is out of the auction (3.1.4.1)."""
    if auction.turn != corp:
        raise ValueError(f"it is {auction.turn!r}'s turn, not {corp!r}'s")
    active = tuple(c for c in auction.active if c != corp)
    turn = _next_turn(auction.order, active, corp, auction.leader)
    return Auction(auction.private, auction.minimum, auction.order, auction.caps, active,
                   auction.bid, auction.leader, turn)  # fmt: skip


def auction_result(auction: Auction) -> tuple[str, int] | None:
    """(winner, price) once the auction is over, None when nobody bid (liquidation,
    3.1.4.2).  Raises ValueError while bidding goes on."""
    if auction.turn is not None:
        raise ValueError(f"the auction of {auction.private} is not over ({auction.turn!r} to act)")
    return None if auction.leader is None else (auction.leader, auction.bid)


@dataclass(frozen=True)
class PrivateSale:
    """Outcome of a sale to a corporation (3.1.4.1): the corporation's cash after paying
    and taking over the treasury, what the owner receives, surplus trains that go to the
    pool without compensation and unused building tokens voided to the box."""

    corporation_cash: int
    owner_receives: int
    trains_to_pool: int
    tokens_to_box: int


def settle_private_sale(
    price: int,
    corporation_cash: int,
    private_cash: int,
    corporation_trains: int,
    private_trains: int,
    train_limit: int,
    building_tokens: int,
) -> PrivateSale:
    """Settle a won auction (3.1.4.1, 10.1): the corporation pays the owner, then takes the
    private's treasury and trains (the director picks which surplus trains to discard)."""
    whole_number(price, "price")
    whole_number(corporation_cash, "corporation_cash")
    whole_number(private_cash, "private_cash")
    if price < private_cash:
        raise ValueError(f"price {price} is below the private's treasury {private_cash}")
    if corporation_cash < price:
        raise ValueError(
            f"corporation cash {corporation_cash} < price {price}: sell HAV certificates first"
        )
    trains = whole_number(corporation_trains, "corporation_trains") + whole_number(
        private_trains, "private_trains"
    )
    return PrivateSale(
        corporation_cash - price + private_cash, price, excess_trains(trains, train_limit),
        whole_number(building_tokens, "building_tokens"),
    )  # fmt: skip


@dataclass(frozen=True)
class Liquidation:
    """A liquidated private (3.1.4.2): the owner's gain (negative: the owner pays the part of
    the 40 M the treasury lacks), the bank's charge, trains to the pool, tokens to the box."""

    owner_receives: int
    to_bank: int
    trains_to_pool: int
    tokens_to_box: int


def liquidate_private(private_cash: int, trains: int = 0, building_tokens: int = 0) -> Liquidation:
    """Liquidate a private railway nobody bid for (3.1.4.2)."""
    whole_number(private_cash, "private_cash")
    return Liquidation(
        private_cash - ed.DEMOLITION_CHARGE, ed.DEMOLITION_CHARGE, whole_number(trains, "trains"),
        whole_number(building_tokens, "building_tokens"),
    )  # fmt: skip


# ----------------------------------------------------------------------------- predecessors
def transformation_due(successor_sold_percent: int) -> bool:
    """At a stock round's end a predecessor transforms once 50% of its successor is sold,
    the director certificate in the exchange box counting as sold (3.2 a)."""
    return share_percent(successor_sold_percent, "successor_sold_percent") >= ed.START_PERCENT


def reduce_ipo_to_half(ipo: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(kept, moved to the pool): the initial offering cut to 50% (3.2 b.8).

    Certificates leave from the top of the stack (the next to be sold); one that would take
    the offering below 50% is skipped for a smaller one further down.
    """
    certs = list(ipo)
    for pct in certs:
        if pct not in (10, 20):
            raise ValueError(f"initial-offering certificates are 10 or 20%, got {pct!r}")
    excess = sum(certs) - ed.START_PERCENT
    kept, moved = [], []
    for pct in certs:
        if 0 < pct <= excess:
            moved.append(pct)
            excess -= pct
        else:
            kept.append(pct)
    if excess:
        raise ValueError(f"initial offering {list(ipo)} cannot be cut to exactly 50%")
    return tuple(kept), tuple(moved)


@dataclass(frozen=True)
class Transformation:
    """A predecessor transformed into its successor (3.2)."""

    successor: str
    director: str
    treasury: int
    from_bank: int
    cell: Cell
    ipo: tuple[int, ...]
    to_pool: tuple[int, ...]
    operates_this_round: bool
    markers_lost: tuple[str, ...]


def transform_predecessor(
    predecessor: str,
    *,
    owner: str,
    treasury: int,
    percents: Mapping[str, int],
    seats: Sequence[str],
    ipo: Sequence[int],
    forced: bool,
    markers: Sequence[str] = (),
) -> Transformation:
    """Transform GEE -> HMBG or SSE -> SE (3.2).

    Parameters
    ----------
    owner : str
        The predecessor's owner; receives the director certificate (step 1).
    treasury : int
        The predecessor's treasury, which passes to the successor with its trains (step 3).
    percents : mapping
        Player -> percentage of ordinary successor shares held (the director certificate
        not included).
    ipo : sequence of int
        The successor's certificates still in the initial offering, top of stack first.
    forced : bool
        b) the first 5-train was bought: no step 7; the offering is cut to 50%, the
        surplus going to the pool as a sale (price drops), and the successor does not
        operate this OR (steps 8, 9).  Otherwise a) at a stock round's end.
    markers : sequence of str
        Unused GEE markers: given up without compensation (3.2.1).
    """
    _minor(predecessor, ed.PREDECESSORS, "predecessor")
    successor = ed.SUCCESSOR[predecessor]
    check_seats(seats, owner, *percents)
    whole_number(treasury, "treasury")
    held = {p: share_percent(v, f"percents[{p!r}]") for p, v in percents.items()}
    director_cert = shares_of(successor)[0]
    if sum(held.values()) + sum(ipo) + director_cert != 100:
        raise ValueError(
            f"{successor}: director {director_cert}% + held {sum(held.values())}% + offering "
            f"{sum(ipo)}% must make 100%"
        )
    known = set(_MINORS[predecessor].get("activity_markers", ()))
    for m in markers:
        if m not in known:
            raise ValueError(f"{predecessor} has no marker {m!r}")
    held[owner] = held.get(owner, 0) + director_cert
    bonus = ed.SUCCESSOR_CAPITAL_MULTIPLE * ed.FACE_VALUE[successor]
    cell = start_cell(successor)
    if forced:
        kept, moved = reduce_ipo_to_half(ipo)
        if moved:
            cell = after_sale(cell, sum(moved))
        director = owner
    else:
        kept, moved = tuple(ipo), ()
        director = director_after(held, seats, owner)
    return Transformation(successor, director, treasury + bonus, bonus, cell, kept, moved,
                          not forced, tuple(markers))  # fmt: skip


# ----------------------------------------------------------------------------- 11.1 exchange
def exchange_box(options: Iterable[str] = ()) -> dict[str, tuple[int, ...]]:
    """The "Exchange Certificates" box at the start (4, 11.1): the SE and HMBG director
    certificates always; with ``exchange_privates`` a 10% certificate of every corporation
    but the HAV (the UEE and FKE take no private, 11.2.1, 11.2.2)."""
    opts = parse_options(options)
    box = {succ: (shares_of(succ)[0],) for succ in ed.SUCCESSOR.values()}
    if "exchange_privates" in opts:
        for c in ed.CORPORATIONS:
            if c["sym"] in (ed.HAV, "UEE", "FKE"):
                continue
            box[c["sym"]] = (*box.get(c["sym"], ()), 10)
    return box


@dataclass(frozen=True)
class Exchange:
    """A private exchanged for a 10% certificate (11.1)."""

    corporation_cash: int
    trains_to_pool: int
    tokens_to_box: int
    box: Mapping[str, tuple[int, ...]]


def exchange_private(
    private: str,
    corporation: str,
    *,
    box: Mapping[str, tuple[int, ...]],
    started: Iterable[str],
    connected: bool,
    forced: bool = False,
    any_connected: bool = True,
    corporation_cash: int,
    private_cash: int,
    corporation_trains: int,
    private_trains: int,
    train_limit: int,
    building_tokens: int = 0,
) -> Exchange:
    """Exchange ``private`` for a 10% exchange certificate of ``corporation`` (11.1).

    The corporation must have started and have a 10% certificate in the box; a voluntary
    exchange needs an unblocked connection (11.1.1); a forced one too unless the private
    reaches no corporation with a certificate left (11.1.2).  The private's treasury and
    trains pass to the corporation (surplus trains to the pool); a change of director is
    :func:`.economy.director_after`'s business.
    """
    _minor(private, ed.PRIVATES, "private railway")
    if corporation not in box or 10 not in box[corporation]:
        raise ValueError(f"no 10% exchange certificate of {corporation!r} is left")
    if corporation not in set(started):
        raise ValueError(f"{corporation} has not started (11.1)")
    if not connected and not (forced and not any_connected):
        raise ValueError(f"{private} has no unblocked connection to {corporation} (11.1.1)")
    certs = list(box[corporation])
    certs.remove(10)
    new_box = {k: v for k, v in box.items() if k != corporation}
    if certs:
        new_box[corporation] = tuple(certs)
    trains = whole_number(corporation_trains, "corporation_trains") + whole_number(
        private_trains, "private_trains"
    )
    cash = whole_number(corporation_cash, "corporation_cash") + whole_number(
        private_cash, "private_cash"
    )
    return Exchange(cash, excess_trains(trains, train_limit),
                    whole_number(building_tokens, "building_tokens"), new_box)  # fmt: skip


def leftover_exchange_certificates(
    box: Mapping[str, tuple[int, ...]], started: Iterable[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """(to the pool, back to the initial offering): once every private is exchanged the
    10% exchange certificates left go to the pool of a started corporation (no price
    change) or back under the unsold certificates (11.1.3).  The SE and HMBG director
    certificates stay: they are the predecessors' (3.2)."""
    started = set(started)
    pool, ipo = {}, {}
    for corp, certs in box.items():
        tens = sum(1 for c in certs if c == 10)
        if tens:
            (pool if corp in started else ipo)[corp] = 10 * tens
    return pool, ipo
