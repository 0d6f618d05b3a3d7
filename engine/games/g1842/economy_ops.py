"""1842 Hamburg/Schleswig-Holstein: operating-round economics as pure functions.

Companion of :mod:`.economy` (same conventions: the rulebook
``../shared/seeds/1842-schleswig-holstein-rules.txt`` is the oracle, section numbers as
printed; every function validates its input and raises :class:`ValueError` naming the bad
item).

=======================================  ====================================================
function                                 rule
=======================================  ====================================================
:func:`train_limit`,                     3.3.5, 7.6 train limits, surplus trains to the pool,
:func:`excess_trains`,                   10 M minimum between companies, a forced buyer
:func:`train_purchase_refusal`           accepts offers up to its treasury only
:func:`forced_train_funding`             3.3.5.1 steps 1-2 (treasury, HAV shares, director)
:func:`predecessor_surrender_value`      3.3.5.1 step 5
:func:`bankruptcy_settlement`            10.4 the bankrupt's assets to the corporation
:func:`receivership_income`              10.4 receivership repays the bank first
:func:`tile_lays`                        3.1.1, 3.2.1, 3.3.3, 3.4.2.1, 7.2 lays per round
:func:`station_cost`                     7.3 three times the lower value; free replacements
:func:`exchange_token_refusal`           7.3 exchange tokens before the grey phase
:func:`tile_bonus`                       7.2.3 Vogelfluglinie +60 M
:func:`phase_colour`                     7.2 the tile colour naming a phase
:func:`operating_rounds`                 6.2 rounds per set
=======================================  ====================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.games.g1842 import economy_data as ed
from engine.games.g1842.economy import (
    Cell,
    after_sale,
    known_corporation,
    known_phase,
    share_percent,
    whole_number,
)
from engine.games.g1842.economy import price as price_of

__all__ = [
    "train_limit", "excess_trains", "train_purchase_refusal", "ForcedFunding",
    "forced_train_funding", "predecessor_surrender_value", "Bankruptcy",
    "bankruptcy_settlement", "receivership_income", "tile_lays", "station_cost",
    "exchange_token_refusal", "tile_bonus", "phase_colour", "operating_rounds",
]


# ----------------------------------------------------------------------------- trains
def train_limit(phase: str) -> int:
    """Trains a corporation may own in ``phase`` (3.3.5; data.PHASES)."""
    known_phase(phase)
    for p in ed.PHASES:
        if p["name"] == phase:
            return int(p["train_limit"])
    raise ValueError(f"phase {phase!r} has no train limit")  # pragma: no cover


def excess_trains(owned: int, limit: int) -> int:
    """Trains over the limit, which go to the pool without compensation (3.1.4.1, 7.6)."""
    return max(0, whole_number(owned, "owned") - whole_number(limit, "limit"))


def train_purchase_refusal(
    *, source: str, price: int, list_price: int, treasury: int, forced: bool = False
) -> str | None:
    """Why a corporation may not buy this train at this price (7.6, 3.3.5.1); None if it may.

    ``source`` is ``"bank"`` (new or pool: at the card price) or ``"company"`` (negotiated,
    at least 10 M).  A forced buyer may take another company's offer only when it does not
    exceed the treasury; bank trains it may always buy (the director tops up).
    """
    whole_number(price, "price")
    whole_number(list_price, "list_price", 1)
    whole_number(treasury, "treasury")
    if source == "bank":
        if price != list_price:
            return f"trains from the bank cost the card price {list_price} (7.6)"
        if not forced and price > treasury:
            return "the treasury cannot pay the train (7.6)"
        return None
    if source != "company":
        raise ValueError(f"source must be 'bank' or 'company', got {source!r}")
    if price < ed.COMPANY_TRAIN_MIN_PRICE:
        return f"a train from another company costs at least {ed.COMPANY_TRAIN_MIN_PRICE} (7.6)"
    if price > treasury:
        return "an offer above the buyer's treasury cannot be accepted (3.3.5.1, 7.6)"
    return None


@dataclass(frozen=True)
class ForcedFunding:
    """Money for a forced train purchase (3.3.5.1 steps 1-2).

    ``shortfall`` is still missing after the treasury, the HAV certificates and the
    director's cash: the director must raise it by steps 3-5 (selling other shares,
    liquidating private railways, surrendering predecessors) or go bankrupt (10.4).
    """

    from_treasury: int
    hav_sold_percent: int
    hav_proceeds: int
    hav_cell: Cell | None
    from_director: int
    shortfall: int


def forced_train_funding(
    price: int,
    treasury: int,
    director_cash: int,
    hav_certificates: Sequence[int] = (),
    hav_cell: Cell | None = None,
    hav_pool_percent: int = 0,
    hav_simplified: bool = False,
) -> ForcedFunding:
    """Fund a forced train purchase of ``price`` (3.3.5.1 steps 1-2).

    The treasury pays first, selling HAV certificates in the order given, the fewest
    that cover the gap, in one sale at the current HAV price (never past 50% in the pool,
    6.2); then the director's cash.  Under the simplified HAV its price stays 30.
    """
    whole_number(price, "price", 1)
    whole_number(treasury, "treasury")
    whole_number(director_cash, "director_cash")
    share_percent(hav_pool_percent, "hav_pool_percent")
    if hav_certificates and hav_cell is None and not hav_simplified:
        raise ValueError("hav_cell is needed to sell HAV certificates")
    hav_price = ed.HAV_START_PRICE if hav_simplified else (price_of(hav_cell) if hav_cell else 0)
    sold = proceeds = 0
    for pct in hav_certificates:
        if pct not in (10, 20):
            raise ValueError(f"HAV certificates are 10 or 20%, got {pct!r}")
        if treasury + proceeds >= price or hav_pool_percent + sold + pct > ed.POOL_LIMIT:
            break
        sold += pct
        proceeds = sold // 10 * hav_price
    cell = hav_cell
    if sold and not hav_simplified:
        cell = after_sale(hav_cell, sold, hav=True)
    from_treasury = min(price, treasury + proceeds)
    rest = price - from_treasury
    from_director = min(rest, director_cash)
    return ForcedFunding(from_treasury, sold, proceeds, cell, from_director, rest - from_director)


def predecessor_surrender_value(successor: str) -> int:
    """What the bank pays for a surrendered predecessor: the director certificate's face
    value, 20% = 2x the face value of a 10% share (3.3.5.1 step 5)."""
    if successor not in ed.SUCCESSOR.values():
        known = sorted(ed.SUCCESSOR.values())
        raise ValueError(f"successor must be one of {known}, got {successor!r}")
    return 2 * ed.FACE_VALUE[successor]


@dataclass(frozen=True)
class Bankruptcy:
    """A bankrupt player's assets (10.4): all goes to the active corporation."""

    to_corporation: int
    cells: Mapping[str, Cell]


def bankruptcy_settlement(
    player_cash: int, holdings: Mapping[str, tuple[Cell, int]]
) -> Bankruptcy:
    """Settle a bankruptcy (10.4).

    The player's cash and the proceeds of selling every certificate to the pool (one sale
    per corporation, at its current value; the 50% pool limit does not apply) go to the
    active corporation's treasury.  ``holdings``: corporation -> (field, percent held).
    """
    total = whole_number(player_cash, "player_cash")
    cells = {}
    for corp, entry in holdings.items():
        known_corporation(corp)
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise ValueError(f"{corp}: holding must be (Cell, percent), got {entry!r}")
        cell, pct = entry
        if share_percent(pct, f"{corp} percent") == 0:
            raise ValueError(f"{corp}: a holding of 0%")
        total += pct // 10 * price_of(cell)
        cells[corp] = after_sale(cell, pct, hav=corp == ed.HAV)
    return Bankruptcy(total, cells)


def receivership_income(debt: int, revenue: int) -> tuple[int, int, int]:
    """A corporation in receivership withholds everything; its income first repays the
    bank's loan for its train (10.4).  Returns (repaid, to treasury, debt left)."""
    whole_number(debt, "debt")
    whole_number(revenue, "revenue")
    repaid = min(debt, revenue)
    return repaid, revenue - repaid, debt - repaid


# ----------------------------------------------------------------------------- operating
def tile_lays(entity: str, *, first_or: bool = False, use_marker: bool = False) -> int:
    """Tiles an entity may lay or upgrade this operating round (3.1.1, 3.2.1, 3.3.3, 7.2).

    A corporation lays two in its first operating round, else one; the RE and the GEE may
    lay a second by giving up their marker (use_marker); everybody else one.  The two lays
    must be in different hexes (3.2.1, 3.3.3); building tokens of private railways are
    counted by :func:`.economy_minors.minor_build`.
    """
    minors = {m["sym"]: m for m in ed.MINORS}
    if entity in minors:
        if first_or:
            raise ValueError(f"{entity}: the first-round double lay is for corporations (3.3.3)")
        if use_marker and "2nd tile" not in minors[entity].get("activity_markers", ()):
            raise ValueError(f"{entity} has no second-tile marker (3.1.1, 3.2.1)")
        return 2 if use_marker else 1
    known_corporation(entity, "entity")
    if use_marker:
        raise ValueError(f"{entity} has no second-tile marker")
    if entity == ed.HAV:
        return 1  # 3.4.2.1
    return ed.FIRST_OR_TILE_LAYS if first_or else 1


def station_cost(low_value: int, *, home: bool = False, replaces_minor: bool = False) -> int:
    """A station token costs three times the city's lower value; the home token and the
    replacement of an acquired private's or predecessor's token are free (7.3)."""
    whole_number(low_value, "low_value")
    return 0 if home or replaces_minor else ed.TOKEN_COST_FACTOR * low_value


def exchange_token_refusal(phase: str, replaces_minor: bool) -> str | None:
    """Before the grey phase an exchange token only replaces an acquired private's token
    (7.3); None when the use is allowed."""
    if phase_colour(phase) != "grey" and not replaces_minor:
        return "before the grey phase exchange tokens only replace acquired private railways (7.3)"
    return None


def tile_bonus(hex_id: str, first_tile: bool) -> int:
    """The first tile on G17 earns 60 M for the company's treasury (Vogelfluglinie, 7.2.3)."""
    if not isinstance(hex_id, str):
        raise ValueError(f"hex_id must be a string, got {hex_id!r}")
    return ed.VOGELFLUGLINIE["bonus"] if first_tile and hex_id == ed.VOGELFLUGLINIE["hex"] else 0


def phase_colour(phase: str) -> str:
    """The tile colour a phase is named after in the rulebook (7.2)."""
    return ed.PHASE_COLOUR[known_phase(phase)]


def operating_rounds(phase: str) -> int:
    """Operating rounds in the set after a stock round ending in ``phase`` (6.2): a new
    number takes effect after the stock round following the train that changed it."""
    known_phase(phase)
    for p in ed.PHASES:
        if p["name"] == phase:
            return int(p["operating_rounds"])
    raise ValueError(f"phase {phase!r} has no round count")  # pragma: no cover
