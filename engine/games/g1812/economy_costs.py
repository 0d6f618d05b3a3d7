"""1812 costs: trains (limits, obsolescence, trade-in), private companies, track, station
markers and starting a public company.

Pure functions; facts from :mod:`.data` (trains, phases, private companies) and
:mod:`.economy_data`.  Rule breaches raise :class:`~.economy.RuleViolation` naming the
section of the seed rulebook (``../shared/seeds/1812-rules.txt``), bad input
:class:`ValueError`.

Rulebook sections implemented
-----------------------------
=============================  ==================================================
function                       rule
=============================  ==================================================
``train_price``                §7.3.8 face value of either side of a card
``train_limit``                §2.1-§2.5 limits by phase and company type
``can_buy_train``/``excess``   §7.3.8 buy below the limit; discard the excess
``obsolete_trains``            §2.3-§2.5 trains discarded when a phase starts
``new_trains_for_sale``        §7.3.8 cheapest new train; 3D/2+2GD from Phase 5
``refresh_supply``             §7.3.8 unsold 2/1G removed, 3/2G become 3+1/2+1G
``trade_in_allowance``         §7.3.8 Phases 5-6, a quarter of the cost, rounded down
``bank_train_price``           §7.3.8 face value, less Stephenson's £40, less trade-in
``check_company_train_price``  §7.3.8 £1 up to the buyer's treasury
``check_private_price``        §1.4.1 £1 up to face value
``private_income``             §1.4.1 income of the owned privates
``open_privates``              §1.4.1, §2.4 #1-#10 close at Phase 5
``select_privates``            §3.1 twice the player number, at random
``tile_operation_cost``        §7.3.2 terrain, Newcastle, second operation £20
``hex_distance``               §7.3.3 distance in hexes, regardless of track
``station_marker_cost``        §7.3.3 £20 / £40 a hex
``start_public``               §6.2.3 Director's Certificate at twice the price
``home_station_cost``          §6.2.3 twice the city value to the bank
=============================  ==================================================
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.games.g1812 import data
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.economy import (
    RuleViolation,
    company_kind,
    phase_number,
    player_count,
    whole_number,
)
from engine.model.hexgrid import HexGrid

__all__ = [
    "StartPublic",
    "train_price",
    "train_limit",
    "can_buy_train",
    "excess_trains",
    "obsolete_trains",
    "new_trains_for_sale",
    "refresh_supply",
    "trade_in_allowance",
    "bank_train_price",
    "check_company_train_price",
    "check_private_price",
    "private_income",
    "open_privates",
    "select_privates",
    "tile_operation_cost",
    "hex_distance",
    "station_marker_cost",
    "start_public",
    "home_station_cost",
]

# Card name -> (face value, base card name); each card has a passenger and a goods side.
_CARDS: dict[str, tuple[int, str]] = {}
for _t in data.TRAINS:
    _CARDS[_t["name"]] = (_t["price"], _t["name"])
    for _v in _t.get("variants", ()):
        _CARDS[_v["name"]] = (_v["price"], _t["name"])
_BASE_ORDER = tuple(t["name"] for t in data.TRAINS)
_PRIVATES = {c["sym"]: c for c in data.COMPANIES}
_PHASE_OF = {p["name"]: p for p in data.PHASES}


def _card(name: str) -> str:
    if name not in _CARDS:
        raise ValueError(f"unknown train {name!r}; expected one of {sorted(_CARDS)}")
    return name


# ----------------------------------------------------------------------------- trains
def train_price(name: str) -> int:
    """Face value of a train side (§7.3.8), e.g. ``"3"`` £200, ``"2G"`` £180."""
    return _CARDS[_card(name)][0]


def train_limit(phase, kind: str) -> int:
    """Trains a minor or public company may own in ``phase`` (§2.1-§2.5)."""
    phase_number(phase)
    size = "major" if company_kind(kind) == "public" else "minor"
    return _PHASE_OF[str(phase)]["train_limit"][size]


def can_buy_train(n_trains: int, phase, kind: str) -> bool:
    """A company may buy while it has fewer trains than the limit (§7.3.8), even if the
    purchase starts a phase that puts it over."""
    return whole_number(n_trains, "n_trains") < train_limit(phase, kind)


def excess_trains(n_trains: int, phase, kind: str) -> int:
    """Trains to discard to the Bank Pool when the limit falls (§7.3.8)."""
    return max(0, whole_number(n_trains, "n_trains") - train_limit(phase, kind))


def obsolete_trains(phase) -> frozenset[str]:
    """Train sides discarded without compensation when ``phase`` starts (§2.3-§2.5)."""
    phase_number(phase)
    trigger = _PHASE_OF[str(phase)]["on"]
    out = set()
    for t in data.TRAINS:
        if trigger is not None and t.get("obsolete_on") == trigger:
            out.add(t["name"])
            out.update(v["name"] for v in t.get("variants", ()))
    return frozenset(out)


def new_trains_for_sale(supply: Mapping[str, int | None], phase) -> tuple[str, ...]:
    """Base cards a company may buy new from the Bank (§7.3.8): the cheapest left, and in
    Phases 5-6 also a 3D/2+2GD.  ``supply`` maps base card -> count left (None =
    unlimited); the buyer picks either side."""
    p = phase_number(phase)
    for name, n in supply.items():
        if name not in _BASE_ORDER:
            raise ValueError(f"unknown train {name!r} in supply")
        if n is not None:
            whole_number(n, f"supply of {name!r}")
    left = [t for t in _BASE_ORDER if t in supply and (supply[t] is None or supply[t] > 0)]
    out = []
    # The 3D is not the "next" train: it is on sale beside the 5 from Phase 5 (§2.4).
    ordinary = [t for t in left if t != "3D"]
    if ordinary:
        out.append(ordinary[0])
    if p >= 5 and "3D" in left:
        out.append("3D")
    return tuple(out)


def refresh_supply(supply: Mapping[str, int | None], bought: Iterable[str]) -> dict:
    """Bank supply just before a Stock Round (§7.3.8): once a 2/1G has been bought the
    unsold ones leave the game; once a 3/2G has been bought the unsold ones become as
    many 3+1/2+1G.  ``bought`` are the base cards ever bought new."""
    out = dict(supply)
    bought = {_CARDS[_card(b)][1] for b in bought}
    if "2" in bought:
        out.pop("2", None)
    if "3" in bought and out.get("3"):
        out["3+1"] = out.pop("3")
    elif "3" in bought:
        out.pop("3", None)
    return out


def trade_in_allowance(name: str, phase) -> int:
    """Discount for trading in a train (§7.3.8): a quarter of its cost, rounded down; only
    in Phases 5 and 6."""
    if str(phase) not in ed.TRADE_IN_PHASES:
        phase_number(phase)
        raise RuleViolation("§7.3.8: trains may be traded in only in Phases 5 and 6")
    if name in obsolete_trains("5") | obsolete_trains("4"):
        raise RuleViolation(f"§2.4: a {name} train is obsolete by Phase 5")
    return train_price(name) // ed.TRADE_IN_DIVISOR


def bank_train_price(
    name: str, phase, trade_in: str | None = None, stephenson: bool = False
) -> int:
    """Price of a train bought from the Bank or Bank Pool (§7.3.8): face value, less £40
    for surrendering Stephenson's Engine Works, less the trade-in allowance."""
    price = train_price(name)
    phase_number(phase)
    if stephenson:
        if str(phase) in ed.TRADE_IN_PHASES:
            raise RuleViolation("§2.4: Stephenson's Engine Works closed at Phase 5")
        price -= ed.STEPHENSON_DISCOUNT
    if trade_in is not None:
        price -= trade_in_allowance(trade_in, phase)
    return max(price, 0)


def check_company_train_price(price: int, buyer_cash: int) -> None:
    """A train bought from another company costs £1 up to the buyer's treasury (§7.3.8)."""
    price = whole_number(price, "price")
    if price < 1 or price > whole_number(buyer_cash, "buyer_cash"):
        raise RuleViolation(f"§7.3.8: price {price} is not £1 to the treasury ({buyer_cash})")


# ----------------------------------------------------------------------------- privates
def _private(sym: str) -> dict:
    if sym not in _PRIVATES:
        raise ValueError(f"unknown private company {sym!r}")
    return _PRIVATES[sym]


def check_private_price(sym: str, price: int) -> None:
    """A company buys a private for £1 up to its face value (§1.4.1)."""
    face = _private(sym)["value"]
    price = whole_number(price, "price")
    if not ed.PRIVATE_MIN_PRICE <= price <= face:
        raise RuleViolation(f"§1.4.1: {sym} sells for £1 to £{face}, not £{price}")


def private_income(privates: Iterable[str]) -> int:
    """Income of the given privates at the start of an Operating Round (§1.4.1)."""
    return sum(_private(s)["revenue"] for s in privates)


def open_privates(privates: Iterable[str], phase) -> tuple[str, ...]:
    """The privates still open in ``phase``: #1-#10 close at Phase 5 (§1.4.1, §2.4)."""
    closing = phase_number(phase) >= int(data.COMPANIES_CLOSE_PHASE)
    privates = [_private(s)["sym"] for s in privates]
    return tuple(s for s in privates if not closing or s in data.PERMANENT_COMPANIES)


def select_privates(rng: random.Random, n_players: int) -> tuple[str, ...]:
    """Draw twice the player number of privates at random (§3.1), in number order."""
    if not isinstance(rng, random.Random):
        raise ValueError(f"rng must be a random.Random, got {type(rng).__name__}")
    n = ed.PRIVATES_PER_PLAYER * player_count(n_players)
    syms = [c["sym"] for c in data.COMPANIES]
    chosen = set(rng.sample(syms, n))
    return tuple(s for s in syms if s in chosen)


# ----------------------------------------------------------------------------- track
def tile_operation_cost(
    hex_id: str,
    terrain: int,
    *,
    upgrade: bool,
    second: bool,
    private_lay: bool = False,
) -> int:
    """Cost of one tile operation (§7.3.2).

    Laying yellow in difficult terrain pays the printed ``terrain``; upgrades pay nothing
    except Newcastle yellow-to-green (``data.UPGRADE_COST_HEXES``); a second operation in
    the turn adds £20.  A private company's free lay ignores terrain and is not a normal
    operation.
    """
    terrain = whole_number(terrain, "terrain")
    if not isinstance(hex_id, str) or not hex_id:
        raise ValueError(f"hex_id must be a coordinate, got {hex_id!r}")
    if private_lay:
        if upgrade or second:
            raise ValueError("a private company's free lay is a yellow lay of its own")
        return 0
    cost = data.UPGRADE_COST_HEXES.get(hex_id, 0) if upgrade else terrain
    return cost + (ed.SECOND_TILE_FEE if second else 0)


_GRID = HexGrid.make(data.LAYOUT)


def hex_distance(a: str, b: str) -> int:
    """Distance in hexes between two coordinates on the 1812 (flat) map (§7.3.3)."""
    (xa, ya), (xb, yb) = _GRID.xy(a), _GRID.xy(b)
    if (xa + ya - xb - yb) % 2:
        # Doubled coordinates: every hex of one map has the same parity of x + y.
        raise ValueError(f"{a!r} and {b!r} are not hexes of the same grid")
    dx, dy = abs(xa - xb), abs(ya - yb)
    return dx + max(0, (dy - dx) // 2)


def station_marker_cost(deployed: int, distance: int) -> int:
    """Cost of a further station marker (§7.3.3): £20 a hex for the second, £40 a hex
    from the nearest for later ones.  ``deployed`` are markers already on the map."""
    deployed = whole_number(deployed, "deployed", 1)
    distance = whole_number(distance, "distance", 1)
    per_hex = ed.STATION_COST_PER_HEX_SECOND if deployed == 1 else ed.STATION_COST_PER_HEX_LATER
    return per_hex * distance


# ----------------------------------------------------------------------------- publics
@dataclass(frozen=True)
class StartPublic:
    """Starting a public company (§6.2.3): the Director pays ``cost`` into the treasury
    for two shares; ``treasury_shares`` stay in the treasury."""

    price: int
    cost: int
    director_shares: int
    treasury_shares: int


def start_public(price: int, phase) -> StartPublic:
    """Start a public company without a minor (§6.2.3): Phase 4 on, a red-outlined price,
    twice the price paid into the treasury."""
    if phase_number(phase) < int(ed.PUBLIC_START_FROM_PHASE):
        raise RuleViolation("§6.2.3: public companies may be started from Phase 4")
    if price not in ed.PUBLIC_START_PRICES:
        raise RuleViolation(f"§6.2.3: £{price} is not a red-outlined space (£65-£135)")
    return StartPublic(
        price=price,
        cost=ed.PUBLIC_START_MULTIPLIER * price,
        director_shares=ed.DIRECTOR_SHARES,
        treasury_shares=ed.PUBLIC_SHARES - ed.DIRECTOR_SHARES,
    )


def home_station_cost(city_value: int) -> int:
    """A newly started company pays twice its home city's value to the bank (§6.2.3); a
    hex without a tile or printed value is free (``city_value`` 0)."""
    return ed.HOME_STATION_MULTIPLIER * whole_number(city_value, "city_value")
