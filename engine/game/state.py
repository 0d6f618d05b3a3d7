"""The board-side game state a replay keeps: tiles, tokens, trains, phases, companies.

:class:`GameState` applies the board-affecting parts of 18xx.games actions and checks the
rules the engine knows before it changes anything, so a rejected action leaves the state as
it was.  Title specifics (setup draws, events, closures, market) live in
:mod:`engine.replay_titles`; they reach the state through :class:`TitleRules` hooks.

Facts follow tobymao/18xx @111f7f69 (MIT): ``hex.rb`` ``lay``/``city_map_for`` (tokens follow
their city's exits on an upgrade), ``tile.rb`` (a part's index is its position in the tile
code, lanes expanded), ``phase.rb`` ``buying_train!`` and ``base.rb`` ``rust_trains!``
(phase, obsolescence, rust and per-train events on every purchase), ``depot.rb``
(``depot_trains``: the next train of the upcoming list, trains whose ``available_on`` phase
has come, and discarded trains).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.game.errors import IllegalAction
from engine.model.board import path_subset
from engine.model.fast_board import (
    FastBoard,
    city_map,
    describe_path,
    hex_key,
    part_kinds,
    split_id,
)
from engine.model.position import Assignment, Position, TileLay, Token
from engine.model.record import Record, ReplayError
from engine.model.tiles import COLOR_ORDER, TILES, TileDef
from engine.model.title import Title

__all__ = [
    "DEPOT",
    "FastBoard",
    "TrainCard",
    "Operator",
    "GameState",
    "TitleRules",
    "part_kinds",
    "split_id",
]

#: Owner of the trains still for sale.
DEPOT = "depot"


@dataclass
class TrainCard:
    """One physical train: ``id`` ``"4-3"``, ``sym`` ``"4"``, ``name`` the bought variant."""

    id: str
    sym: str
    name: str
    order: int
    owner: str | None = DEPOT
    obsolete: bool = False
    events: list[dict] = field(default_factory=list)
    available_on: str | None = None


@dataclass
class Operator:
    """A corporation or minor and what the replay knows of it."""

    sym: str
    kind: str  # "corporation" or "minor"
    home: list[str] = field(default_factory=list)
    home_city: Any = None
    floated: bool = False
    home_placed: bool = False
    closed: bool = False
    removed: bool = False
    operated: bool = False


class TitleRules:
    """Hooks a title gives the replay (see :mod:`engine.replay_titles`)."""

    #: When the home token goes down: ``"float"`` (1846) or ``"operate"`` (1830, 1856).
    home_token_timing = "operate"
    #: Do obsolete trains count against the train limit?  (18xx.games: no, by default.)
    obsolete_counts_for_limit = False

    def setup(self, state: GameState) -> None:
        """Draws and placements before the first action."""

    def before_action(self, state: GameState, action: dict) -> None:
        """Round and turn bookkeeping before ``action`` is applied."""

    def after_action(self, state: GameState, action: dict) -> None:
        """Closures and other consequences once ``action`` is applied."""

    def handle(self, state: GameState, action: dict) -> bool:
        """Apply a title-specific action; True when handled."""
        return False

    def event(self, state: GameState, name: str, train: TrainCard) -> None:
        """A train event (``close_companies``, ``remove_bonuses`` ...)."""

    def after_lay(self, state: GameState, hex_: str, tile: TileDef, entity: str) -> None:
        """After a tile lay (1846 2-player: deferred second tokens)."""

    def train_limit(self, state: GameState, sym: str) -> int:
        """Trains ``sym`` may hold now (obsolete ones aside)."""
        return int(state.phase.get("train_limit", 99))

    def assignments(self, state: GameState) -> list[Assignment]:
        """Markers the positions carry (meat packing, Régie des Postes ...)."""
        return []

    def acting_operator(self, state: GameState, action: dict) -> str | None:
        """The corporation or minor whose turn ``action`` belongs to, if any."""
        return None

    def token_owner(self, state: GameState, action: dict) -> str:
        """Whose token a ``place_token`` puts down."""
        return action.get("tokener") or action["entity"]

    def on_run(self, state: GameState, sym: str, revenue: int | None) -> None:
        """A ``run_routes`` was applied for ``sym`` with this declared ``revenue``."""


def player_count_value(value: Any, players: int) -> int:
    """A count that may depend on the number of players (``{3: 4, 4: 5}``)."""
    if isinstance(value, dict):
        return int(value.get(players, value.get(str(players), 0)))
    return int(value or 0)


class GameState:
    """Board-side state of one replayed game.

    Parameters
    ----------
    record : Record
    title : Title
    rules : TitleRules
    """

    def __init__(self, record: Record, title: Title, rules: TitleRules) -> None:
        self.record = record
        self.title = title
        self.data = title.data
        self.rules = rules
        self.board = FastBoard.from_data(self.data)
        self.players = [p for p, _ in record.players]
        opts = set(record.optional_rules)
        self.optional_rules = opts
        self.phases = [p for p in self.data.PHASES if self._included(p)]
        self.phase_index = 0
        self.tile_hex: dict[str, str] = {}  # tile id -> hex it lies on
        self.hex_tile: dict[str, str] = {}  # hex -> id of its tile
        for color, by_code in dict(self.data.HEXES).items():
            for code, coords in dict(by_code).items():
                coords = [coords] if isinstance(coords, str) else list(coords)
                for index, coord in enumerate(coords):
                    # base.rb init_hexes: a printed tile is NAME-INDEX, INDEX its place in
                    # the coordinate list of its code (a standard tile name names it)
                    name = code if code in TILES and color != "empty" else coord
                    self.tile_hex[f"{name}-{index}"] = coord
                    self.hex_tile[coord] = f"{name}-{index}"
        self.tokens: dict[tuple[str, int], list[str]] = {}
        self.reservations: dict[tuple[str, int], list[str]] = {
            k: list(v) for k, v in self.board.reservations.items()
        }
        self.operators: dict[str, Operator] = {}
        for kind, ents in (("corporation", self.data.CORPORATIONS), ("minor", self.data.MINORS)):
            for ent in ents:
                home = ent.get("coordinates") or []
                home = [home] if isinstance(home, str) else list(home)
                self.operators[ent["sym"]] = Operator(ent["sym"], kind, home, ent.get("city"))
        self.companies: dict[str, dict] = {
            c["sym"]: {"owner": None, "closed": False, "spec": c} for c in self.data.COMPANIES
        }
        self.trains: dict[str, TrainCard] = {}
        self.depot: list[str] = []  # upcoming trains in sale order
        self.discarded: list[str] = []
        self._make_trains()
        self.notes: list[str] = []
        # the replay's action list and position in it (title rules look ahead)
        self.actions: list[dict] = []
        self.index = -1

    # ------------------------------------------------------------------ setup helpers
    def _included(self, spec: dict) -> bool:
        """Phases and trains that optional rules add or take away (1836Jr-56 diesels)."""
        if spec.get("optional_rule") and spec["optional_rule"] not in self.optional_rules:
            return False
        return not (spec.get("excluded_by") and spec["excluded_by"] in self.optional_rules)

    def _make_trains(self) -> None:
        players = len(self.players)
        order = 0
        for spec in self.data.TRAINS:
            if not self._included(spec):
                continue
            num = player_count_value(spec.get("num", 0), players)
            events = []
            for e in spec.get("events", []) or []:
                e = {"type": e} if isinstance(e, str) else dict(e)
                events.append(e)
            for i in range(num):
                ident = f"{spec['name']}-{i}"
                mine = [e for e in events if int(e.get("when", 1)) - 1 == i]
                self.trains[ident] = TrainCard(
                    ident, spec["name"], spec["name"], order, DEPOT, False, mine,
                    spec.get("available_on"),
                )  # fmt: skip
                self.depot.append(ident)
                order += 1

    # ------------------------------------------------------------------ lookups
    @property
    def phase(self) -> dict:
        """The current phase (a ``data.PHASES`` entry)."""
        return self.phases[self.phase_index]

    @property
    def phase_name(self) -> str:
        """The current phase's name."""
        return str(self.phase["name"])

    def phase_reached(self, name: str | None) -> bool:
        """Has phase ``name`` begun (``phase.rb`` ``available?``)?"""
        if not name:
            return False
        names = [str(p["name"]) for p in self.phases]
        return str(name) in names and names.index(str(name)) <= self.phase_index

    def train_spec(self, card: TrainCard) -> dict:
        """The ``data.TRAINS`` entry of ``card``."""
        for spec in self.data.TRAINS:
            if spec["name"] == card.sym:
                return spec
        raise ReplayError(f"train {card.id}: no train {card.sym!r} in the title data")

    def trains_of(self, sym: str) -> list[TrainCard]:
        """Trains ``sym`` owns, in train order."""
        return sorted((t for t in self.trains.values() if t.owner == sym), key=lambda t: t.order)

    def operator(self, sym: str) -> Operator:
        """The :class:`Operator` ``sym``; ``ReplayError`` if the title has none."""
        try:
            return self.operators[sym]
        except KeyError:
            raise ReplayError(f"unknown corporation or minor {sym!r}") from None

    def owner_of_company(self, sym: str) -> Any:
        """Who owns private ``sym`` (a player id, an operator symbol or None)."""
        return self.companies[sym]["owner"] if sym in self.companies else None

    def tokens_of(self, sym: str) -> list[tuple[str, int]]:
        """The (hex, city) places holding a token of ``sym``."""
        return [k for k, v in self.tokens.items() if sym in v]

    def where(self, action: dict) -> str:
        """``action 57 (lay_tile by NYC)``, for messages."""
        return f"action {action.get('id')} ({action.get('type')} by {action.get('entity')})"

    # ------------------------------------------------------------------ tiles
    def resolve_node(self, hex_: str, part: int) -> tuple[str, int]:
        """``(kind, index)`` of part ``part`` of the tile now on ``hex_``."""
        kinds = part_kinds(self.board.tile(hex_).code)
        if not 0 <= part < len(kinds) or kinds[part] is None:
            raise ReplayError(
                f"hex {hex_}: tile {self.board.tile(hex_).name} has no node part {part}"
            )
        return kinds[part]

    def resolve_city(self, city_id: str) -> tuple[str, int]:
        """``"291-0-0"`` or ``"D6-0-3"`` -> (hex, city index) on the tile now laid."""
        tile_id, part = split_id(city_id)
        if tile_id not in self.tile_hex:
            raise ReplayError(f"city {city_id!r}: tile {tile_id} is not on the map")
        hex_ = self.tile_hex[tile_id]
        kind, index = self.resolve_node(hex_, part)
        if kind != "city":
            raise ReplayError(f"city {city_id!r} names a {kind}, not a city")
        return hex_, index

    def tile_problems(self, hex_: str, tile: TileDef, rotation: int) -> list[str]:
        """Why ``tile`` at ``rotation`` may not go on ``hex_`` now (empty if it may).

        Checks the colour ladder (one step up from the current tile, a colour the phase
        allows), that the current track is kept, labels, towns and cities as against the
        printed hex, exits onto the map, the title's own tile checks and tile supply.
        """
        board = self.board
        problems = []
        current = board.placed(hex_)
        cur_color = board.color(hex_)
        if cur_color not in COLOR_ORDER or cur_color == COLOR_ORDER[-1]:
            return [f"hex {hex_} is {cur_color} and takes no tiles"]
        if tile.color not in COLOR_ORDER:
            return [f"tile {tile.name!r} has colour {tile.color!r}, not a track colour"]
        step = COLOR_ORDER.index(tile.color) - COLOR_ORDER.index(cur_color)
        if step != 1:
            problems.append(
                f"tile {tile.name!r} ({tile.color}) cannot replace the {cur_color} tile "
                f"{current.tile.name!r} (one colour up at a time)"
            )
        if tile.color not in self.phase.get("tiles", []):
            problems.append(f"phase {self.phase_name} allows no {tile.color} tiles")
        if not current.preprinted:
            to_city = frozenset(t.index for t in current.tile.towns if t.to_city)
            missing = path_subset(current.paths, tile.rotated_paths(rotation), to_city)
            if missing:
                problems.append(
                    f"tile {tile.name!r} rotation {rotation} breaks the existing track "
                    f"{describe_path(missing[0])} of tile {current.tile.name!r} "
                    "(an upgrade keeps every old path)"
                )
        problems += [
            p for p in board.upgrade_problems(hex_, tile, rotation) if "cannot replace" not in p
        ]
        problems += board.exit_problems(hex_, tile, rotation)
        if self.title.check_tile is not None:
            problems = list(self.title.check_tile(board, hex_, tile, rotation, problems))
        used = board.tiles_in_use()[tile.name]
        if hex_ in board.laid and board.laid[hex_].tile.name == tile.name:
            used -= 1
        if used >= board.tile_count(tile.name):
            problems.append(
                f"no tile {tile.name!r} left ({board.tile_count(tile.name)} in the game)"
            )
        return problems

    def lay_tile(self, hex_: str, tile_id: str, rotation: int, check: bool = True) -> None:
        """Lay tile ``tile_id`` (``"57-1"``) on ``hex_``; tokens follow their cities.

        Raises
        ------
        IllegalAction
            Naming the rule the lay breaks; nothing changes then.
        """
        name, _ = split_id(tile_id)
        board = self.board
        if hex_ not in board:
            raise IllegalAction(f"hex {hex_!r} is not on the {self.title.id} map")
        if name not in board.manifest:
            raise IllegalAction(f"tile {name!r} is not in the {self.title.id} tile manifest")
        if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 5:
            raise IllegalAction(f"rotation {rotation!r} is not 0-5")
        tile = board.manifest_tile(name)
        if check:
            problems = self.tile_problems(hex_, tile, rotation)
            if problems:
                raise IllegalAction(f"tile {name} rotation {rotation} on {hex_}: {problems[0]}")
        old = board.placed(hex_)
        if not old.tile.paths and tile.paths and len(tile.cities) > 1:
            # tracker.rb update_token!: tokens on a trackless multi-city hex are lifted when
            # track arrives; their owners place them again (the next place_token actions)
            for key in [k for k in self.tokens if k[0] == hex_]:
                del self.tokens[key]
        mapping = city_map(old, tile, rotation)
        old_id = self.hex_tile.get(hex_)
        if old_id is not None and self.tile_hex.get(old_id) == hex_:
            del self.tile_hex[old_id]
        board.lay(hex_, name, rotation, check=False)
        self.tile_hex[tile_id] = hex_
        self.hex_tile[hex_] = tile_id
        for table in (self.tokens, self.reservations):
            moved: dict[tuple[str, int], list[str]] = {}
            for (h, c), syms in list(table.items()):
                if h != hex_:
                    continue
                del table[(h, c)]
                new = mapping.get(c)
                if new is None:
                    if syms and table is self.tokens:
                        raise IllegalAction(
                            f"tile {name} on {hex_} has no city for the tokens of city {c}"
                        )
                    continue
                moved.setdefault((h, new), []).extend(syms)
            table.update(moved)

    # ------------------------------------------------------------------ tokens
    def city_room(self, hex_: str, city: int, sym: str) -> str | None:
        """Why ``sym`` may not put a token in city ``city`` of ``hex_`` (None if it may)."""
        try:
            slots = self.board.city_slots(hex_, city)
        except ValueError as exc:
            return str(exc)
        here = self.tokens.get((hex_, city), [])
        if sym in here:
            return f"{sym} already has a token in {hex_} city {city}"
        reserved = [
            r
            for r in self.reservations.get((hex_, city), [])
            if r != sym and r not in here and self._reservation_active(r)
        ]
        if len(here) >= slots:
            return (
                f"{hex_} city {city} is full ({len(here)} token{'s' if len(here) != 1 else ''} "
                f"for {slots} slot{'s' if slots != 1 else ''}: {', '.join(here)})"
            )
        if len(here) + len(reserved) >= slots:
            return f"the free slot of {hex_} city {city} is reserved for {', '.join(reserved)}"
        return None

    def _reservation_active(self, sym: str) -> bool:
        """A corporation's reservation holds until it closes (its own token then fills the
        slot); a private's until a corporation buys it or it closes."""
        op = self.operators.get(sym)
        if op is not None:
            return not op.closed
        info = self.companies.get(sym)
        return info is not None and not info["closed"] and info["owner"] not in self.operators

    def place_token(self, hex_: str, city: int, sym: str, check: bool = True) -> None:
        """Put a station token of ``sym`` in city ``city`` of ``hex_``.

        Raises
        ------
        IllegalAction
            The city is full or reserved, or ``sym`` already has a token there.
        """
        if check:
            why = self.city_room(hex_, city, sym)
            if why:
                raise IllegalAction(f"token of {sym} in {hex_} city {city}: {why}")
        self.tokens.setdefault((hex_, city), []).append(sym)
        op = self.operators.get(sym)
        if op is not None and hex_ in op.home and not op.home_placed:
            op.home_placed = True

    def remove_tokens(self, sym: str) -> None:
        for key in list(self.tokens):
            self.tokens[key] = [s for s in self.tokens[key] if s != sym]
            if not self.tokens[key]:
                del self.tokens[key]

    def home_city(self, sym: str) -> tuple[str, int] | None:
        """Where ``sym``'s home token goes automatically; None if the owner must choose.

        As ``base.rb`` ``place_home_token``: the city reserved for it, else the first city;
        a multi-city home without a reserved city whose tile has track is the owner's choice.
        """
        op = self.operator(sym)
        if not op.home:
            return None
        hex_ = op.home[0]
        tile = self.board.tile(hex_)
        if not tile.cities:
            return None
        if op.home_city is not None:
            city = op.home_city[0] if isinstance(op.home_city, list | tuple) else op.home_city
            return hex_, int(city)
        reserved = [c for (h, c), syms in self.reservations.items() if h == hex_ and sym in syms]
        if len(tile.cities) > 1 and tile.paths:
            return None
        return hex_, (reserved[0] if reserved and len(tile.cities) > 1 else 0)

    def place_home(self, sym: str) -> bool:
        """Place ``sym``'s home token if it goes down automatically; True if placed."""
        op = self.operator(sym)
        if op.home_placed or op.closed:
            return False
        where = self.home_city(sym)
        if where is None:
            return False
        hex_, city = where
        if sym in self.tokens.get((hex_, city), []):
            op.home_placed = True
            return False
        self.place_token(hex_, city, sym, check=False)
        op.home_placed = True
        return True

    # ------------------------------------------------------------------ trains
    def depot_trains(self) -> list[TrainCard]:
        """Trains the depot sells now (``depot.rb`` ``depot_trains``)."""
        upcoming = [self.trains[t] for t in self.depot]
        out: list[TrainCard] = []
        names: set[str] = set()
        candidates = upcoming[:1] + [t for t in upcoming if self.phase_reached(t.available_on)]
        for t in candidates:
            if t.sym not in names:
                names.add(t.sym)
                out.append(t)
        seen = set()
        for ident in self.discarded:
            t = self.trains[ident]
            if t.sym not in seen:
                seen.add(t.sym)
                out.append(t)
        return out

    def counted_trains(self, sym: str) -> int:
        trains = self.trains_of(sym)
        if self.rules.obsolete_counts_for_limit:
            return len(trains)
        return sum(1 for t in trains if not t.obsolete)

    def variant_names(self, card: TrainCard) -> list[str]:
        spec = self.train_spec(card)
        return [spec["name"]] + [v["name"] for v in spec.get("variants", []) or []]

    def buy_train(
        self,
        sym: str,
        train_id: str,
        variant: str | None = None,
        exchange: str | None = None,
        check: bool = True,
    ) -> TrainCard:
        """``sym`` buys ``train_id`` (from the depot, the discards or another company).

        Raises
        ------
        IllegalAction
            An unknown or rusted train, a variant the train lacks, a depot train out of
            order, a company at its train limit, or buying from itself.
        """
        card = self.trains.get(train_id)
        if card is None:
            raise IllegalAction(f"unknown train {train_id!r}")
        if card.owner is None:
            raise IllegalAction(f"train {train_id} has rusted or left the game")
        name = variant or card.name
        if name not in self.variant_names(card):
            raise IllegalAction(
                f"train {train_id} has no variant {name!r} ({', '.join(self.variant_names(card))})"
            )
        if check:
            self._check_purchase(sym, card, exchange)
        source = card.owner
        if exchange:
            ex = self.trains.get(exchange)
            if ex is None or ex.owner != sym:
                raise IllegalAction(f"{sym} does not own train {exchange!r} to exchange")
            ex.owner = DEPOT
            self.discarded.append(ex.id)
        self._take(card)
        card.owner = sym
        card.name = name
        self.train_bought(card, source)
        return card

    def purchase_refusal(self, sym: str, train_id: str, exchange: str | None = None) -> str | None:
        """Why ``sym`` may not buy train ``train_id`` now (out of depot order, its train
        limit, its own or a closed company's train); None if this check passes."""
        card = self.trains.get(train_id)
        if card is None:
            return f"unknown train {train_id!r}"
        if card.owner is None:
            return f"train {train_id} has rusted or left the game"
        try:
            self._check_purchase(sym, card, exchange)
        except IllegalAction as exc:
            return str(exc)
        return None

    def _check_purchase(self, sym: str, card: TrainCard, exchange: str | None) -> None:
        if card.owner == sym:
            raise IllegalAction(f"{sym} cannot buy its own train {card.id}")
        if card.owner == DEPOT:
            sale = self.depot_trains()
            if card not in sale:
                offered = ", ".join(t.id for t in sale) or "nothing"
                raise IllegalAction(
                    f"train {card.id} is not for sale yet: the depot sells trains in order "
                    f"(now: {offered})"
                )
        elif card.owner in self.operators and self.operators[card.owner].closed:
            raise IllegalAction(f"train {card.id} belongs to closed {card.owner}")
        limit = self.rules.train_limit(self, sym)
        have = self.counted_trains(sym) - (1 if exchange else 0)
        if have >= limit:
            raise IllegalAction(
                f"{sym} has {have} train{'s' if have != 1 else ''} and phase {self.phase_name}'s "
                f"train limit is {limit}"
            )

    def _take(self, card: TrainCard) -> None:
        if card.id in self.depot:
            self.depot.remove(card.id)
        if card.id in self.discarded:
            self.discarded.remove(card.id)

    def train_bought(self, card: TrainCard, source: Any) -> None:
        """Phase changes, obsolescence, rust and events (``phase.rb`` ``buying_train!``)."""
        while self.phase_index + 1 < len(self.phases) and str(
            self.phases[self.phase_index + 1].get("on")
        ) in (card.sym, card.id):
            self.phase_index += 1
        for t in self.trains.values():
            tspec = self.train_spec(t)
            if not t.obsolete and tspec.get("obsolete_on") == card.sym:
                t.obsolete = True
        for t in list(self.trains.values()):
            if t.owner is None:
                continue
            if self.rusts_on(t) == card.sym or (
                self.train_spec(t).get("obsolete_on") == card.sym and t.id in self.discarded
            ):
                self.rust(t)
        events, card.events = card.events, []
        for e in events:
            self.rules.event(self, str(e["type"]), card)

    def rusts_on(self, card: TrainCard) -> str | None:
        spec = self.train_spec(card)
        for opt in self.optional_rules:
            if f"rusts_on_{opt}" in spec:
                return spec[f"rusts_on_{opt}"]
        return spec.get("rusts_on")

    def rust(self, card: TrainCard) -> None:
        self._take(card)
        card.owner = None

    def discard_train(self, sym: str, train_id: str) -> None:
        """``sym`` discards a train to the depot's discard pile."""
        card = self.trains.get(train_id)
        if card is None or card.owner != sym:
            raise IllegalAction(f"{sym} does not own train {train_id!r}")
        card.owner = DEPOT
        if not card.obsolete:
            self.discarded.append(card.id)

    # ------------------------------------------------------------------ closing
    def close_operator(self, sym: str) -> None:
        """Close ``sym``: tokens and reservations go, trains leave the game, companies close."""
        op = self.operator(sym)
        op.closed = True
        self.remove_tokens(sym)
        for key in list(self.reservations):
            self.reservations[key] = [s for s in self.reservations[key] if s != sym]
        for t in self.trains.values():
            if t.owner == sym:
                t.owner = None
        for c in self.companies.values():
            if c["owner"] == sym:
                c["closed"] = True

    # ------------------------------------------------------------------ positions
    def owned_companies(self, sym: str) -> list[str]:
        minors = {m["sym"] for m in self.data.MINORS}
        return sorted(
            c
            for c, info in self.companies.items()
            if info["owner"] == sym and not info["closed"] and c not in minors
        )

    def position(self, sym: str, extras: dict | None = None) -> Position:
        """The :class:`Position` of operator ``sym`` now."""
        laid = self.board.laid
        tiles = [TileLay(h, laid[h].tile.name, laid[h].rotation) for h in sorted(laid, key=hex_key)]
        tokens = [
            Token(h, s, c)
            for (h, c), syms in sorted(
                self.tokens.items(), key=lambda kv: (hex_key(kv[0][0]), kv[0][1])
            )
            for s in syms
        ]
        return Position(
            title=self.title.id,
            phase=self.phase_name,
            company=sym,
            trains=[t.name for t in self.trains_of(sym)],
            tiles=tiles,
            tokens=tokens,
            owned_companies=self.owned_companies(sym),
            assignments=self.rules.assignments(self),
            options=[o for o in self.record.optional_rules if o in self.title.options],
            extras=dict(extras or {}),
        )
