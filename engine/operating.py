"""One company's operating turn, and engine state loaded from a position file.

:class:`OperatingTurn` wraps a :class:`~engine.game.state.GameState` for the turn of one
corporation or minor: it checks every tile lay, token and train purchase with
:mod:`engine.legality` *and* the per-turn limits of the title (tile lays per turn, one token,
1836Jr-30's one bank train of each type per operating round), then applies it.  A rejected
action raises :class:`~engine.model.record.IllegalAction` naming the rule and leaves the
state as it was.

.. code-block:: python

    from engine.operating import OperatingTurn, state_from_position
    state = state_from_position(load_position("engine/examples/1846-mid.json"))
    turn = OperatingTurn(state, "B&O")
    lay = turn.legal_tile_lays()[0]        # what the turn's next lay may be, with its cost
    turn.lay_tile(lay.hex, lay.tile, lay.rotation)   # checked again, applied, counted
    turn.place_token("H12", 0)             # IllegalAction naming the rule if not allowed
    turn.buy_train("5-1")

:func:`state_from_position` builds the engine state a position file describes, so the engine
can start from any saved position: ``state.position(sym)`` of the loaded state equals the
position (tiles and tokens in map order, trains in train order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.game.errors import IllegalAction
from engine.game.state import DEPOT, GameState, TitleRules, TrainCard
from engine.games import check_position, get_title
from engine.legality import (
    Reach,
    TileLayOption,
    _check_operator,
    _operator_spec,
    _tile_named,
    check_tile_lay,
    legal_tile_lays,
    legality_of,
    reachable,
)
from engine.model.fast_board import hex_key
from engine.model.position import Assignment, Position, PositionError
from engine.model.record import Record

__all__ = [
    "OperatingTurn",
    "TokenOption",
    "check_token",
    "legal_token_placements",
    "token_cost",
    "charter_tokens_left",
    "TrainOption",
    "purchase_options",
    "check_purchase",
    "PositionRules",
    "state_from_position",
]


# ---------------------------------------------------------------------------------- tokens
@dataclass(frozen=True)
class TokenOption:
    """A legal station token: city ``city`` of ``hex`` for ``cost`` (None: the title data gives
    no price); ``ability`` names the private or the corporation's own ability used."""

    hex: str
    city: int
    cost: int | None
    ability: str | None = None


def _token_abilities(state: GameState, sym: str) -> list[tuple[str, dict]]:
    """(owner symbol, ability) of the ``token`` abilities ``sym`` may use: its own and those of
    open privates it owns (1846 C&WI)."""
    out = [
        (sym, a)
        for a in _operator_spec(state, sym).get("abilities", []) or []
        if a.get("type") == "token"
    ]
    for csym, info in state.companies.items():
        if info["owner"] == sym and not info["closed"]:
            out.extend(
                (csym, a)
                for a in info["spec"].get("abilities", []) or []
                if a.get("type") == "token"
            )
    return out


def _extra_tokens(state: GameState, sym: str) -> int:
    """Tokens of ``sym`` on the board that did not come from its charter.

    A private's ``token``/``teleport`` ability puts down a new token (``step/tokener.rb``
    ``adjust_token_price_ability!``: 1846 C&WI in Chicago, 1836Jr Charbonnages du Hainaut),
    and a bought minor's token becomes an extra token (1846 ``buy_company.rb``).
    """
    placed = state.tokens_of(sym)
    extra = 0
    for csym, info in state.companies.items():
        if info["owner"] != sym:
            continue
        minor = next((m for m in getattr(state.data, "MINORS", []) if m["sym"] == csym), None)
        if minor is not None:
            extra += any(h == minor.get("coordinates") for h, _ in placed)
            continue
        for ab in info["spec"].get("abilities", []) or []:
            if ab.get("type") in ("token", "teleport") and not ab.get("from_owner"):
                extra += sum(
                    1 for h, c in placed if h in ab.get("hexes", []) and int(ab.get("city", c)) == c
                )
    return extra


def charter_tokens_left(state: GameState, sym: str) -> tuple[int, int | None]:
    """(tokens left on ``sym``'s charter, price of the next one; None if the data has none)."""
    charter = list(_operator_spec(state, sym).get("tokens", []) or [])
    used = len(state.tokens_of(sym)) - _extra_tokens(state, sym)
    if used >= len(charter):
        return 0, None
    price = charter[used]
    costs = getattr(state.data, "TOKEN_COSTS", None)
    if price is None and costs is not None:
        price = costs[min(used, len(costs) - 1)]
    return len(charter) - used, price


def token_cost(
    state: GameState, sym: str, hex_: str, city: int, reach: Reach | None = None
) -> tuple[int | None, str | None]:
    """(price, ability) of a token of ``sym`` in city ``city`` of ``hex_``.

    Prices come from the title data: a ``token`` ability for that hex (1846: PRR E11, B&O H12,
    ERIE D20, IC I5 at $40 when connected, ``teleport_price`` otherwise; C&WI's free Chicago
    token), else the next entry of the corporation's ``tokens`` list (1846 $80; 1836Jr-30/56
    F40 then F100, the 1830/1856 charters), 1842: three times the city's lower value (rule
    7.3), 1862: ``TOKEN_COSTS``.  None when the data gives no price.
    """
    reach = reach or reachable(state, sym)
    # the ability price needs a path of the network on the hex (graph.rb reachable_hexes)
    connected = any(h == hex_ for h, _ in reach.paths)
    for owner, ability in _token_abilities(state, sym):
        if hex_ not in ability.get("hexes", []):
            continue
        if "city" in ability and int(ability["city"]) != city:
            continue
        if connected and "price" in ability:
            return int(ability["price"]), owner
        if ability.get("teleport_price") is not None:
            return int(ability["teleport_price"]), owner
    _left, price = charter_tokens_left(state, sym)
    factor = getattr(state.data, "TOKEN_COST_FACTOR", None)
    if factor:
        low = getattr(state.data, "TWO_VALUE_HEXES", {}).get(hex_)
        tile = state.board.tile(hex_)
        value = low[city][0] if low and hex_ not in state.board.laid else None
        if value is None:
            value = tile.cities[city].revenue.value(state.phase.get("tiles", []))
        return int(factor) * int(value), None
    return price, None


def _token_problem(state: GameState, sym: str, hex_: str, city: int, reach: Reach) -> str | None:
    board = state.board
    if hex_ not in board:
        return f"hex {hex_!r} is not on the {state.title.id} map"
    room = state.city_room(hex_, city, sym)
    if room:
        return room
    mine = [c for h, c in state.tokens_of(sym) if h == hex_]
    if mine:
        return f"{sym} already has a token on {hex_} (one per hex)"
    teleport = [
        a
        for _o, a in _token_abilities(state, sym)
        if hex_ in a.get("hexes", [])
        and a.get("teleport_price") is not None
        and int(a.get("city", city)) == city
    ]
    if not reach.reaches_city(hex_, city) and not teleport:
        return f"{sym} has no route to {hex_} city {city}"
    left, _ = charter_tokens_left(state, sym)
    # a private's token ability brings its own token; the corporation's own uses the charter
    extra = any(o != sym and hex_ in a.get("hexes", []) for o, a in _token_abilities(state, sym))
    if left <= 0 and not extra:
        return f"{sym} has no station tokens left"
    return None


def check_token(state: GameState, sym: str, hex_: str, city: int) -> TokenOption:
    """Check that ``sym`` may put a station token in city ``city`` of ``hex_`` now.

    Raises
    ------
    IllegalAction
        No route to the city, a full or reserved city, a second token in the hex, or no
        tokens left.
    """
    _check_operator(state, sym)
    reach = reachable(state, sym)
    why = _token_problem(state, sym, hex_, city, reach)
    if why:
        raise IllegalAction(f"token of {sym} in {hex_} city {city}: {why}")
    cost, ability = token_cost(state, sym, hex_, city, reach)
    return TokenOption(hex_, city, cost, ability)


def legal_token_placements(state: GameState, sym: str) -> list[TokenOption]:
    """Every city ``sym`` may put a station token in now (map order), with its cost
    (:func:`token_cost`)."""
    _check_operator(state, sym)
    reach = reachable(state, sym)
    cities = {(h, i) for h, kind, i in reach.stops if kind == "city"}
    for _o, ability in _token_abilities(state, sym):
        if ability.get("teleport_price") is not None:
            for h in ability.get("hexes", []):
                n = len(state.board.tile(h).cities)
                cities.update((h, c) for c in range(n) if int(ability.get("city", c)) == c)
    out = []
    for h, c in sorted(cities, key=lambda k: (hex_key(k[0]), k[1])):
        if _token_problem(state, sym, h, c, reach) is None:
            cost, ability = token_cost(state, sym, h, c, reach)
            out.append(TokenOption(h, c, cost, ability))
    return out


# ---------------------------------------------------------------------------------- trains
@dataclass(frozen=True)
class TrainOption:
    """A train a company may buy: card ``train_id`` (``"4-0"``) as ``variant`` (the train
    name bought, e.g. ``"4"`` or ``"3/5"``) from ``source`` (``"depot"``, ``"pool"`` for
    discarded trains, or the selling operator) for ``price`` (None: a price the two companies
    agree); ``exchange`` names a train traded in."""

    train_id: str
    variant: str
    source: str
    price: int | None
    exchange: str | None = None


def _price(state: GameState, card: TrainCard, name: str) -> int | None:
    spec = state.train_spec(card)
    if name == spec["name"]:
        return spec.get("price")
    for v in spec.get("variants", []) or []:
        if v["name"] == name:
            return v.get("price", spec.get("price"))
    return None


def purchase_options(
    state: GameState, sym: str, *, bought_types: Iterable[str] = ()
) -> list[TrainOption]:
    """Trains and variants ``sym`` may buy now.

    The depot sells its next train, trains whose ``available_on`` phase has come and the
    discarded trains (``depot.rb``); other operators sell trains that are not obsolete
    (18xx.games ``ALLOW_TRAIN_BUY_FROM_OTHERS`` and ``..._OTHER_PLAYERS``, on by default in
    every title here; 1846 minors buy none).  At the train limit only trade-ins (diesel
    ``discount``) remain.  ``bought_types``: types already bought from the bank this
    operating round, which 1836Jr-30 forbids again.
    """
    _check_operator(state, sym)
    cfg = legality_of(state)
    if state.operator(sym).kind == "minor" and not cfg.minors_buy_trains:
        return []
    bought = set(bought_types) if cfg.one_depot_train_per_type else set()
    room = state.counted_trains(sym) < state.rules.train_limit(state, sym)
    out: list[TrainOption] = []
    for card in state.depot_trains():
        if card.sym in bought:
            continue
        source = "pool" if card.id in state.discarded else "depot"
        spec = state.train_spec(card)
        for name in state.variant_names(card):
            price = _price(state, card, name)
            if room:
                out.append(TrainOption(card.id, name, source, price))
            for own in state.trains_of(sym):
                off = (spec.get("discount") or {}).get(own.sym)
                if off is not None and source == "depot" and price is not None:
                    out.append(TrainOption(card.id, name, source, price - int(off), own.id))
    if room:
        for card in sorted(state.trains.values(), key=lambda t: t.order):
            owner = card.owner
            if owner in (None, DEPOT, sym) or owner not in state.operators:
                continue
            if state.operators[owner].closed or card.obsolete:
                continue
            out.append(TrainOption(card.id, card.name, owner, None))
    return out


def check_purchase(
    state: GameState,
    sym: str,
    train: str,
    variant: str | None = None,
    exchange: str | None = None,
    *,
    bought_types: Iterable[str] = (),
) -> TrainOption:
    """Check that ``sym`` may buy ``train`` (as ``variant``) now.

    Raises
    ------
    IllegalAction
        An unknown or rusted train, out of depot order, the train limit, an obsolete train
        from another company, or (1836Jr-30) a second bank train of one type this round.
    """
    _check_operator(state, sym)
    card = state.trains.get(train)
    if card is None:
        raise IllegalAction(f"unknown train {train!r}")
    if card.owner is None:
        raise IllegalAction(f"train {train} has rusted or left the game")
    name = variant or card.name
    if name not in state.variant_names(card):
        raise IllegalAction(
            f"train {train} has no variant {name!r} ({', '.join(state.variant_names(card))})"
        )
    cfg = legality_of(state)
    if state.operator(sym).kind == "minor" and not cfg.minors_buy_trains:
        raise IllegalAction(f"{sym} is a minor and buys no trains in {state.title.id}")
    if cfg.one_depot_train_per_type and card.owner == DEPOT and card.sym in set(bought_types):
        raise IllegalAction(
            f"{sym} already bought a {card.sym}-train from the bank this operating round "
            f"({state.title.id}: one train of each type per round)"
        )
    if card.owner not in (DEPOT, sym) and card.obsolete:
        raise IllegalAction(f"train {train} of {card.owner} is obsolete and cannot be sold")
    state._check_purchase(sym, card, exchange)
    return TrainOption(
        card.id,
        name,
        "pool" if card.id in state.discarded else str(card.owner),
        _price(state, card, name) if card.owner == DEPOT else None,
        exchange,
    )


class OperatingTurn:
    """The operating turn of ``sym``: checks and applies its actions with the turn's limits.

    ``check_*`` methods raise :class:`IllegalAction` and change nothing; ``lay_tile``,
    ``place_token`` and ``buy_train`` check, apply and count.  A caller that applies actions
    itself (the replay) checks with ``check_*`` and counts with ``note_*``.

    Parameters
    ----------
    state : GameState
    sym : str
        The operating corporation or minor.
    first_or : bool
        Its first operating round (1842: corporations lay two tiles then).
    """

    def __init__(self, state: GameState, sym: str, *, first_or: bool = False) -> None:
        _check_operator(state, sym)
        self.state = state
        self.sym = sym
        self.slots = legality_of(state).lay_slots(state, sym, first_or)
        self.laid_hexes: list[str] = []
        self.upgraded = False
        self.tokens_placed = 0
        self.bought_types: list[str] = []

    # ------------------------------------------------------------------ tiles
    def _slot(self, hex_: str | None, upgrade: bool | None) -> tuple[dict | None, str | None]:
        """The tile-lay slot the next lay uses, or why there is none."""
        n = len(self.laid_hexes)
        rule = f"{self.state.title.id}: {_describe_slots(self.slots)}"
        if n >= len(self.slots):
            s = "s" if n != 1 else ""
            return None, f"{self.sym} has made its {n} tile lay{s} this turn ({rule})"
        slot = self.slots[n]
        if slot.get("cannot_reuse_same_hex") and hex_ in self.laid_hexes:
            return None, f"{self.sym} already laid a tile on {hex_} this turn ({rule})"
        if upgrade is None:
            return slot, None
        allowed = slot.get("upgrade" if upgrade else "lay", False)
        if allowed == "not_if_upgraded":
            allowed = not self.upgraded
        if not allowed:
            what = "an upgrade" if upgrade else "a yellow tile"
            return None, f"{self.sym} may not lay {what} as its tile lay {n + 1} ({rule})"
        return slot, None

    def check_tile_lay(
        self, hex_: str, tile: str, rotation: int, *, ability: str | None = None
    ) -> TileLayOption:
        """Check a lay (see :meth:`lay_tile`) without making it."""
        state = self.state
        if ability is not None:
            # a private's ability lays where it says without a connection, as an extra lay
            # (1846 Lake Shore, Michigan Central, Ohio & Indiana; 1836Jr Enkhuizen-Stavoren
            # Ferry, Charbonnages du Hainaut)
            self._check_ability(ability, hex_, tile)
            return check_tile_lay(state, self.sym, hex_, tile, rotation, connect=False)
        upgrade = hex_ in state.board and state.board.color(hex_) != "white"
        slot, why = self._slot(hex_, upgrade)
        if why:
            raise IllegalAction(f"tile {tile} on {hex_}: {why}")
        option = check_tile_lay(state, self.sym, hex_, tile, rotation)
        extra = int(slot.get("cost", 0))
        return replace(option, cost=option.cost + extra) if extra else option

    def _check_ability(self, company: str, hex_: str, tile: str) -> None:
        info = self.state.companies.get(company)
        if info is None or info["owner"] != self.sym or info["closed"]:
            raise IllegalAction(f"{self.sym} does not own the open private {company!r}")
        name = _tile_named(self.state, tile).name
        for ab in info["spec"].get("abilities", []) or []:
            if ab.get("type") not in ("tile_lay", "teleport"):
                continue
            if hex_ in ab.get("hexes", [hex_]) and name in ab.get("tiles", [name]):
                return
        raise IllegalAction(f"the private {company} has no ability to lay tile {name} on {hex_}")

    def note_tile_lay(self, option: TileLayOption) -> None:
        """Count a lay of the turn (applied by the caller)."""
        self.laid_hexes.append(option.hex)
        self.upgraded = self.upgraded or option.upgrade

    def lay_tile(
        self, hex_: str, tile: str, rotation: int, *, ability: str | None = None
    ) -> TileLayOption:
        """Lay ``tile`` (name or ``"57-1"`` id) on ``hex_`` at ``rotation``.

        ``ability`` names an owned private whose ability makes the lay (no connection needed,
        not one of the turn's lays).

        Returns
        -------
        TileLayOption
            What was laid and what it cost (the turn's extra-lay fee included).
        """
        option = self.check_tile_lay(hex_, tile, rotation, ability=ability)
        state = self.state
        state.lay_tile(hex_, _fresh_tile_id(state, option.tile), rotation, check=False)
        if ability is None:
            self.note_tile_lay(option)
        return option

    def legal_tile_lays(self, hexes: Iterable[str] | None = None) -> list[TileLayOption]:
        """The lays :meth:`lay_tile` accepts now (the turn's next lay; costs include its fee)."""
        slot_lay, _ = self._slot(None, False)
        slot_up, _ = self._slot(None, True)
        slot = slot_lay or slot_up
        if slot is None:
            return []
        options = legal_tile_lays(
            self.state,
            self.sym,
            hexes=hexes,
            lays=slot_lay is not None,
            upgrades=slot_up is not None,
        )
        extra = int(slot.get("cost", 0))
        return [
            replace(o, cost=o.cost + extra)
            for o in options
            if not (slot.get("cannot_reuse_same_hex") and o.hex in self.laid_hexes)
        ]

    # ------------------------------------------------------------------ tokens
    def _extra_action(self, hex_: str, city: int) -> bool:
        """Does a private's token ability put a token there on top of the turn's own (1846
        C&WI, ``extra_action``: ``step/tokener.rb``)?"""
        return any(
            owner != self.sym
            and a.get("extra_action")
            and hex_ in a.get("hexes", [])
            and int(a.get("city", city)) == city
            for owner, a in _token_abilities(self.state, self.sym)
        )

    def check_token(self, hex_: str, city: int) -> TokenOption:
        """Check a token (see :meth:`place_token`) without placing it."""
        if self.tokens_placed >= 1 and not self._extra_action(hex_, city):
            raise IllegalAction(
                f"token of {self.sym} in {hex_} city {city}: {self.sym} already placed a "
                "station token this turn (one per operating turn)"
            )
        return check_token(self.state, self.sym, hex_, city)

    def note_token(self, option: TokenOption | None = None) -> None:
        """Count the turn's token (placed by the caller)."""
        if option is None or not self._extra_action(option.hex, option.city):
            self.tokens_placed += 1

    def place_token(self, hex_: str, city: int) -> TokenOption:
        """Put a station token of the company in city ``city`` of ``hex_`` (one per turn)."""
        option = self.check_token(hex_, city)
        self.state.place_token(hex_, city, self.sym, check=False)
        self.note_token(option)
        return option

    def legal_token_placements(self) -> list[TokenOption]:
        options = legal_token_placements(self.state, self.sym)
        if self.tokens_placed >= 1:
            return [o for o in options if self._extra_action(o.hex, o.city)]
        return options

    # ------------------------------------------------------------------ trains
    def train_options(self) -> list[TrainOption]:
        """:func:`purchase_options` with this turn's purchases."""
        return purchase_options(self.state, self.sym, bought_types=self.bought_types)

    def check_buy_train(
        self, train: str, variant: str | None = None, exchange: str | None = None
    ) -> TrainOption:
        """Check a purchase (see :meth:`buy_train`) without making it."""
        return check_purchase(
            self.state, self.sym, train, variant, exchange, bought_types=self.bought_types
        )

    def note_purchase(self, option: TrainOption) -> None:
        """Count a purchase of the turn (made by the caller)."""
        if option.source in ("depot", "pool"):
            self.bought_types.append(self.state.trains[option.train_id].sym)

    def buy_train(
        self, train: str, variant: str | None = None, exchange: str | None = None
    ) -> TrainOption:
        """Buy ``train`` (``"4-0"``) as ``variant``, trading in ``exchange`` if given."""
        option = self.check_buy_train(train, variant, exchange)
        self.state.buy_train(self.sym, train, variant, exchange, check=False)
        self.note_purchase(option)
        return option


def _describe_slots(slots: tuple[dict, ...]) -> str:
    if len(slots) == 1:
        slot = slots[0]
        if slot.get("upgrade"):
            return "one tile lay or upgrade per turn"
        return "one yellow tile per turn"
    return (
        f"{len(slots)} tile lays per turn, at most one of them an upgrade"
        if any(
            s.get("upgrade") == "not_if_upgraded" or s.get("lay") == "not_if_upgraded"
            for s in slots
        )
        else f"{len(slots)} tile lays per turn"
    )


def _fresh_tile_id(state: GameState, name: str) -> str:
    """An unused 18xx.games-style id ``NAME-k`` for a new copy of tile ``name``."""
    k = 0
    while f"{name}-{k}" in state.tile_hex:
        k += 1
    return f"{name}-{k}"


# ---------------------------------------------------------------------------------- positions
class PositionRules(TitleRules):
    """Title hooks for a state loaded from a position: the position's assignments, the
    phase's train limit and the limits the data gives (1836Jr-56 MESS ``train_limit``
    ability, 1842 companies' own ``train_limit``)."""

    def __init__(self, assignments: Iterable[Assignment] = ()) -> None:
        self._assignments = list(assignments)

    def assignments(self, state: GameState) -> list[Assignment]:
        return list(self._assignments)

    def train_limit(self, state: GameState, sym: str) -> int:
        limit = state.phase.get("train_limit", 99)
        if isinstance(limit, dict):  # 1812: per kind of company
            kind = state.operator(sym).kind
            limit = limit.get(kind, limit.get("major" if kind == "corporation" else "minor", 99))
        limit = int(limit)
        spec = next(
            (e for e in (*state.data.CORPORATIONS, *state.data.MINORS) if e["sym"] == sym), {}
        )
        if "train_limit" in spec:
            limit = min(limit, int(spec["train_limit"]))
        for ab in spec.get("abilities", []) or []:
            if ab.get("type") == "train_limit":
                limit += int(ab.get("increase", 0))
        return limit


def _max_players(data) -> int:
    counts: set[int] = set()
    for spec in data.TRAINS:
        if isinstance(spec.get("num"), dict):
            counts.update(int(k) for k in spec["num"])
    if not counts:
        counts.update(int(k) for k in dict(getattr(data, "STARTING_CASH", {}) or {}))
    return max(counts) if counts else 4


def _optional_rules(data, position: Position) -> list[str]:
    """Optional rules the position needs: those its phase or trains exist only under."""
    rules = []
    for spec in [*data.PHASES, *data.TRAINS]:
        names = [spec["name"]] + [v["name"] for v in spec.get("variants", []) or []]
        rule = spec.get("optional_rule")
        if rule and (str(position.phase) in names or set(names) & set(position.trains)):
            rules.append(rule)
    return sorted(set(rules))


def state_from_position(
    position: Position, *, players: int | None = None, companies: Mapping[str, Any] | None = None
) -> GameState:
    """The engine state a position describes.

    What a position does not say is filled in as follows: trains of every type whose
    successor phase has begun are sold (to unknown owners) and rusted ones are gone, the
    first train of the type that started the current phase is sold, and the position's
    company holds its trains; the other companies hold no trains.  Privates the company owns
    are its; the others count as owned by players (their hexes stay reserved) until the
    title's ``close_companies`` train has come, then closed.  Reservations of the title's
    ``reservation`` abilities hold until their ``remove`` phase.

    Parameters
    ----------
    position : Position
        Checked against its title first.
    players : int, optional
        Number of players (train counts); default the largest the title's data knows.
    companies : mapping, optional
        Private symbol -> owner (an operator symbol, ``"player"``) or None (closed), to
        override the guess above.

    Raises
    ------
    PositionError
        An impossible position (see :func:`engine.model.position.check_position`).
    """
    title = get_title(position.title)
    check_position(position, title)
    data = title.data
    players = players or _max_players(data)
    record = Record(
        name=position.source or "position",
        game_id="",
        title=title.id,
        title_id=title.id,
        variant="",
        players=[(i, f"player {i + 1}") for i in range(players)],
        optional_rules=_optional_rules(data, position),
        seed=0,
        actions=[],
    )
    state = GameState(record, title, PositionRules(position.assignments))
    _add_unlimited_trains(state)
    names = [str(p["name"]) for p in state.phases]
    if position.phase not in names:
        raise PositionError(f"phase: {position.phase!r} is not a phase of this game ({names})")
    state.phase_index = names.index(position.phase)
    counts: dict[str, int] = {}
    for lay in position.tiles:
        k = counts.get(lay.tile, 0)
        counts[lay.tile] = k + 1
        state.lay_tile(lay.hex, f"{lay.tile}-{k}", lay.rotation, check=False)
    for tok in position.tokens:
        state.tokens.setdefault((tok.hex, tok.city), []).append(tok.company)
        op = state.operators[tok.company]
        if tok.hex in op.home:
            op.home_placed = True
        op.floated = True
    _sell_trains(state, position)
    _set_companies(state, position, companies)
    _set_reservations(state)
    return state


#: Cards made for a train type the data leaves unlimited (``"num": None``; 1812 §7.3.8).
UNLIMITED_TRAINS = 20


def _add_unlimited_trains(state: GameState) -> None:
    """Give unlimited train types (no ``num``) cards, in their place in the depot order."""
    specs = [s for s in state.data.TRAINS if state._included(s)]
    if all(s.get("num") is not None for s in specs):
        return
    order = 0
    depot = []
    for spec in specs:
        cards = [t for t in state.trains.values() if t.sym == spec["name"]]
        if spec.get("num") is None:
            for i in range(UNLIMITED_TRAINS):
                ident = f"{spec['name']}-{i}"
                card = TrainCard(
                    ident, spec["name"], spec["name"], 0, DEPOT, False, [], spec.get("available_on")
                )
                state.trains[ident] = card
                cards.append(card)
        for card in sorted(cards, key=lambda c: c.order):
            card.order = order
            order += 1
            depot.append(card.id)
    state.depot = depot


def _reached_types(state: GameState) -> list[str]:
    """Train types whose purchase started a phase up to the current one."""
    return [str(p["on"]) for p in state.phases[1 : state.phase_index + 1] if p.get("on")]


def _sell_trains(state: GameState, position: Position) -> None:
    reached = _reached_types(state)
    cards = [state.trains[t] for t in state.depot]
    last = reached[-1] if reached else None
    sold_through = -1
    if last is not None:
        first = next((c for c in cards if c.sym == last), None)
        if first is not None:
            sold_through = first.order
    sold = [c for c in cards if c.order <= sold_through and not c.available_on]
    if last is not None:
        sold += [c for c in cards if c.sym == last and c.order <= sold_through and c not in sold]
    for card in sold:
        state._take(card)
        card.owner = None
    for i, name in enumerate(position.trains):
        card = _free_card(state, name, sold)
        if card is None:
            raise PositionError(
                f"trains[{i}]: no {name!r} train left for {position.company} in this game"
            )
        state._take(card)
        card.owner = position.company
        card.name = name
        spec = state.train_spec(card)
        card.obsolete = spec.get("obsolete_on") in reached
        card.events = []
    for card in state.trains.values():
        if card.owner is not None and card.owner != position.company:
            rusts = state.rusts_on(card)
            if rusts is not None and rusts in reached:
                state._take(card)
                card.owner = None


def _free_card(state: GameState, name: str, sold: list[TrainCard]) -> TrainCard | None:
    """A card for a train called ``name``: one already sold, else the depot's next."""

    def fits(card: TrainCard) -> bool:
        return name in state.variant_names(card)

    for card in sold:
        if card.owner is None and fits(card):
            sold.remove(card)
            return card
    for ident in list(state.depot):
        card = state.trains[ident]
        if fits(card):
            return card
    return None


def _set_companies(state: GameState, position: Position, companies: Mapping[str, Any] | None):
    reached = _reached_types(state)
    closing = [
        spec["name"]
        for spec in state.data.TRAINS
        if any(
            (e if isinstance(e, str) else e.get("type")) == "close_companies"
            for e in spec.get("events", []) or []
        )
    ]
    closed = bool(set(closing) & set(reached))
    for sym, info in state.companies.items():
        if sym in position.owned_companies:
            info["owner"] = position.company
        elif companies is not None and sym in companies:
            owner = companies[sym]
            info["owner"] = owner
            info["closed"] = owner is None
        else:
            info["owner"] = "player"
            info["closed"] = closed or sym in state.operators


def _set_reservations(state: GameState) -> None:
    """Reservation abilities (1846: PRR E11, ERIE D20, IC I5, B&O H12, C&WI Chicago)."""
    for ent in (*state.data.CORPORATIONS, *state.data.COMPANIES):
        for ab in ent.get("abilities", []) or []:
            if ab.get("type") != "reservation":
                continue
            remove = ab.get("remove")
            if remove == "sold" and state.companies.get(ent["sym"], {}).get("owner") not in (
                None,
                "player",
            ):
                continue
            if remove and remove != "sold" and state.phase_reached(remove):
                continue
            key = (ab["hex"], int(ab.get("city", 0)))
            state.reservations.setdefault(key, []).append(ent["sym"])
