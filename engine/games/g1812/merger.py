"""1812 Merger Rounds (§8): converting one minor, merging two to six, take-overs, and the
share offer that follows a formation.

Pure functions on small frozen dataclasses.  Whether the minors are *connected* (§8.3,
§8.5) is a track question for the caller (the route graph); everything else in §8 is here.
Rule breaches raise :class:`~.economy.RuleViolation` naming the section of the seed
rulebook (``../shared/seeds/1812-rules.txt``), bad input :class:`ValueError`.

Rulebook sections implemented
-----------------------------
=======================  ==============================================================
function                 rule
=======================  ==============================================================
``formation_price``      §8.2, §8.3 four spaces down; merged: highest + lowest (at least
                         £100), rounded down to a market value, capped at £135
``convert``              §8.2 price at least £100; the owner gets the Director's
                         Certificate and one share; §8.4 assets and loans move
``merge``                §8.3 two to six minors, at most four a player; one and a half
                         shares a charter; half-share upgrade (half the price rounded
                         up, to the company) or downgrade (half rounded down, from the
                         bank) in operating order; Director (ties: earliest minor);
                         "no player has two shares" forbids it; §8.4 assets and loans
``station_choices``      §8.3 the two markers the new company takes (not in one hex)
``takeover``             §8.5 a treasury share for the minor, its assets and loans
``takeover_token_ok``    §8.5 replacing the minor's marker
``offer_order``          §8.4 who is offered new shares, and in which order
``offer_limit``          §8.4 60%, certificate limit, treasury, cash
=======================  ==============================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from engine.games.g1812 import economy_data as ed
from engine.games.g1812.economy import (
    RuleViolation,
    cell_at_or_below,
    cert_limit,
    director_after,
    phase_number,
    player_count,
    shift_price,
    whole_number,
)

__all__ = [
    "Minor",
    "Formation",
    "Takeover",
    "formation_price",
    "convert",
    "merge",
    "station_choices",
    "takeover",
    "takeover_token_ok",
    "offer_order",
    "offer_limit",
]

#: Payment parties other than players.
COMPANY = "company"
BANK = "bank"


@dataclass(frozen=True)
class Minor:
    """A minor company as a merger sees it."""

    name: str
    owner: str
    price: int
    cash: int = 0
    loans: int = 0
    trains: tuple[str, ...] = ()
    privates: tuple[str, ...] = ()
    station: str | None = None  # hex of its station marker

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"minor name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.owner, str) or not self.owner:
            raise ValueError(f"owner of minor {self.name} must be a player, got {self.owner!r}")
        if self.price not in ed.MARKET or self.price > ed.MINOR_MAX_PRICE:
            raise ValueError(f"minor {self.name}: {self.price!r} is not a minor's market price")
        whole_number(self.cash, f"cash of minor {self.name}")
        whole_number(self.loans, f"loans of minor {self.name}")


@dataclass(frozen=True)
class Formation:
    """A public company formed by conversion or merger (§8.2-§8.4).

    ``shares`` are per player (the Director's two included); ``payments`` are
    ``(payer, payee, amount)`` with payee/payer ``"company"`` or ``"bank"`` for the new
    company's treasury and the bank; ``cash`` is the new treasury after them.
    """

    price: int
    shares: Mapping[str, int]
    director: str
    treasury_shares: int
    cash: int
    loans: int
    trains: tuple[str, ...]
    privates: tuple[str, ...]
    payments: tuple[tuple[str, str, int], ...] = field(default=())


def formation_price(prices: Sequence[int]) -> int:
    """Start price of a public company formed from minors at ``prices`` (§8.2, §8.3).

    One minor (conversion): its price, at least £100, moved four spaces down.  Several
    (merger): the highest plus the lowest, at least £100, rounded down to a market value,
    four spaces down, at most £135.
    """
    prices = [whole_number(p, "minor price", ed.CLOSE_BELOW) for p in prices]
    if not prices:
        raise ValueError("no minor prices given")
    for p in prices:
        if p not in ed.MARKET or p > ed.MINOR_MAX_PRICE:
            raise ValueError(f"{p} is not a minor's market price")
    if len(prices) == 1:
        if prices[0] < ed.CONVERT_MIN_PRICE:
            raise RuleViolation(f"§8.2: a minor converts at £100 or more, not £{prices[0]}")
        return shift_price(prices[0], -ed.FORMATION_STEPS_DOWN)
    total = max(prices) + min(prices)
    if total < ed.MERGE_MIN_SUM:
        raise RuleViolation(f"§8.3: highest + lowest is £{total}, less than £100")
    moved = shift_price(cell_at_or_below(total), -ed.FORMATION_STEPS_DOWN)
    return min(moved, ed.MERGED_MAX_PRICE)


def _phase_ok(phase) -> None:
    if phase_number(phase) < int(ed.MERGER_FROM_PHASE):
        raise RuleViolation("§8: Merger Rounds start in Phase 3")


def _assets(minors: Sequence[Minor]) -> tuple[int, int, tuple, tuple]:
    return (
        sum(m.cash for m in minors),
        sum(m.loans for m in minors),
        tuple(t for m in minors for t in m.trains),
        tuple(p for m in minors for p in m.privates),
    )


def convert(minor: Minor, phase) -> Formation:
    """Convert one minor into a public company (§8.2, §8.4).

    The owner receives the Director's Certificate and one 10% certificate (three shares,
    even at the certificate limit); the other seven stay in the treasury; cash, trains,
    privates and loans move to the public company.
    """
    _phase_ok(phase)
    price = formation_price([minor.price])
    cash, loans, trains, privates = _assets([minor])
    return Formation(
        price=price,
        shares={minor.owner: ed.CONVERSION_SHARES},
        director=minor.owner,
        treasury_shares=ed.PUBLIC_SHARES - ed.CONVERSION_SHARES,
        cash=cash,
        loans=loans,
        trains=trains,
        privates=privates,
    )


def merge(minors: Sequence[Minor], cash: Mapping[str, int], phase) -> Formation:
    """Merge two to six minors into a public company (§8.3, §8.4).

    Parameters
    ----------
    minors : sequence of Minor
        The merging minors **in operating order** (earliest first; see
        :func:`~.economy.operating_order`): it orders the upgrades and breaks ties for
        the directorship.
    cash : mapping
        Cash of each owning player (an upgrade is paid only from cash, never by selling).
    phase : str
        Current phase (Merger Rounds from Phase 3).
    """
    _phase_ok(phase)
    minors = list(minors)
    if not ed.MERGE_MIN_MINORS <= len(minors) <= ed.MERGE_MAX_MINORS:
        raise RuleViolation(f"§8.3: two to six minors merge, not {len(minors)}")
    names = [m.name for m in minors]
    if len(set(names)) != len(names):
        raise ValueError(f"a minor appears twice in {names}")
    per_owner = Counter(m.owner for m in minors)
    greedy = [p for p, k in per_owner.items() if k > ed.MERGE_MAX_PER_PLAYER]
    if greedy:
        raise RuleViolation(f"§8.3: {greedy[0]} merges more than four minors")
    missing = [p for p in per_owner if p not in cash]
    if missing:
        raise ValueError(f"no cash given for owner {missing[0]!r}")
    price = formation_price([m.price for m in minors])
    # Owners in the order of their earliest operating minor.
    owners = list(dict.fromkeys(m.owner for m in minors))
    shares = {p: ed.HALF_SHARES_PER_MERGED_MINOR * per_owner[p] // 2 for p in owners}
    allocated = sum(shares.values())
    up, down = -(-price // 2), price // 2
    payments = []
    for p in owners:
        if ed.HALF_SHARES_PER_MERGED_MINOR * per_owner[p] % 2 == 0:
            continue
        if whole_number(cash[p], f"cash of {p!r}") >= up and allocated < ed.PUBLIC_SHARES:
            shares[p] += 1
            allocated += 1
            payments.append((p, COMPANY, up))
        else:
            payments.append((BANK, p, down))
    most = max(shares.values())
    if most < ed.DIRECTOR_SHARES:
        raise RuleViolation("§8.3: no player has two shares, so the merger is not allowed")
    director = next(p for p in owners if shares[p] == most)
    treasury, loans, trains, privates = _assets(minors)
    treasury += sum(a for _, payee, a in payments if payee == COMPANY)
    return Formation(
        price=price,
        shares=shares,
        director=director,
        treasury_shares=ed.PUBLIC_SHARES - allocated,
        cash=treasury,
        loans=loans,
        trains=trains,
        privates=privates,
        payments=tuple(payments),
    )


def station_choices(stations: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Markers (by hex) the merged company may take over (§8.3): any two of the merging
    minors' markers in different hexes, or the one hex when they all share it."""
    hexes = list(stations)
    for h in hexes:
        if not isinstance(h, str) or not h:
            raise ValueError(f"station hexes must be coordinates, got {h!r}")
    if len(hexes) < ed.MERGE_MIN_MINORS:
        raise ValueError("a merger has at least two station markers")
    distinct = sorted(set(hexes))
    if len(distinct) == 1:
        return ((distinct[0],),)
    return tuple(combinations(distinct, ed.MERGER_STATION_MARKERS))


@dataclass(frozen=True)
class Takeover:
    """After §8.5: holdings and Director of the public company, its treasury shares and
    what it received from the minor."""

    shares: Mapping[str, int]
    director: str
    treasury_shares: int
    cash: int
    loans: int
    trains: tuple[str, ...]
    privates: tuple[str, ...]


def takeover(
    minor: Minor,
    *,
    holdings: Mapping[str, int],
    director: str,
    treasury_shares: int,
    order: Iterable[str],
    phase,
) -> Takeover:
    """A public company takes over ``minor`` (§8.5).

    The minor's owner receives one treasury share (even past 60% or the certificate
    limit); the company receives the minor's cash, trains, privates and loans (its loan
    limit may be exceeded).  ``cash``/``loans`` etc. are the amounts *received*.
    """
    _phase_ok(phase)
    if whole_number(treasury_shares, "treasury_shares") < 1:
        raise RuleViolation("§8.5: the public company has no share in its treasury")
    held = dict(holdings)
    held[minor.owner] = held.get(minor.owner, 0) + 1
    if sum(held.values()) + treasury_shares - 1 > ed.PUBLIC_SHARES:
        raise ValueError("holdings and treasury shares exceed ten shares")
    cash, loans, trains, privates = _assets([minor])
    return Takeover(
        shares=held,
        director=director_after(held, director, order),
        treasury_shares=treasury_shares - 1,
        cash=cash,
        loans=loans,
        trains=trains,
        privates=privates,
    )


def takeover_token_ok(spare_markers: int, has_token_in_city: bool) -> bool:
    """May the company replace the minor's marker with its own, free (§8.5)?"""
    return whole_number(spare_markers, "spare_markers") > 0 and not has_token_in_city


def offer_order(
    director: str, order: Iterable[str], holders: Iterable[str] | None = None
) -> tuple[str, ...]:
    """Players offered new shares after a formation (§8.4), starting with the Director and
    going on in Player Order.  First pass: ``holders`` (players with shares); second
    pass (one share each): everybody (``holders=None``)."""
    order = list(order)
    if director not in order:
        raise ValueError(f"director {director!r} is not in the player order")
    k = order.index(director)
    rotated = order[k:] + order[:k]
    if holders is None:
        return tuple(rotated)
    holders = set(holders)
    if holders - set(order):
        raise ValueError(f"holders {sorted(holders - set(order))} are not in the player order")
    return tuple(p for p in rotated if p in holders)


def offer_limit(
    *,
    shares_held: int,
    certificates: int,
    n_players: int,
    treasury_shares: int,
    cash: int,
    price: int,
) -> int:
    """Most new shares a player may buy in the §8.4 offer: not past 60%, not past the
    certificate limit, no more than the treasury holds or his cash pays for."""
    price = whole_number(price, "price", 1)
    player_count(n_players)
    room_percent = ed.MAX_BUY_PERCENT // 10 - whole_number(shares_held, "shares_held")
    room_certs = cert_limit(n_players) - whole_number(certificates, "certificates")
    return max(
        0,
        min(
            room_percent,
            room_certs,
            whole_number(treasury_shares, "treasury_shares"),
            whole_number(cash, "cash") // price,
        ),
    )
