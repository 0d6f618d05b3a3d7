"""The operating round: operators take turns made of stages; revenue comes from the optimiser.

A turn runs the title's stages in order (``OPERATING_STAGES``; 1846: track and token,
route, dividend, train, company).  Each stage ``s`` has ``legal_<s>(op)`` (the choices) and
may have ``skip_<s>(op)`` (what happens when there is no choice: a company without trains
earns nothing).  A ``pass`` ends the stage.  ``run_routes`` carries the optimal revenue:
the engine builds the operator's :class:`~engine.model.position.Position`, turns it into a
:class:`routing.Problem` with the title's rules (:func:`engine.model.routes.fast_problem`)
and solves it with the numba search.  A ``run_routes`` may instead declare its routes
(``routes``, in 18xx.games' form): :meth:`OperatingMixin.check_routes` scores them on the
same problem and the company earns that (``revenue: 0`` or no routes: nothing).

Facts: tobymao/18xx @111f7f69 (MIT) ``lib/engine/round/operating.rb`` (order fixed at the
start of the round, closed operators skipped, private revenue at the start,
``train.operated`` reset), ``step/dividend.rb`` (payout per share rounded up per holder,
treasury shares pay the corporation with incremental capitalisation, pool shares pay
nobody; obsolete trains rust in the dividend step; trains that ran cannot run again in the
same round).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import routing
from engine.game.errors import IllegalAction
from engine.game.shares import POOL
from engine.game.track import extend, lay_problem, legal_lays, reach, tokenable_cities
from engine.model.fast_board import FastBoard, city_map
from engine.model.network_build import BaseNetwork
from engine.model.position import Position
from engine.model.record import ReplayError
from engine.model.routes import declaration_order, declared_routes, fast_problem, route_readings
from engine.model.title import RouteView, base_network

__all__ = ["OperatingMixin", "Turn"]


class _SubBoard(FastBoard):
    """Part of a board: the kept hexes, with the parent's tiles and cached neighbours."""

    def __init__(self, parent: FastBoard, keep) -> None:
        super().__init__(parent.grid, {h: parent.cells[h] for h in keep}, parent.manifest,
                         parent.reservations)  # fmt: skip
        self.parent = parent
        self.laid = {h: parent.laid[h] for h in keep if h in parent.laid}

    def neighbours(self, coord: str) -> dict[int, str]:
        cached = self._neighbours.get(coord)
        if cached is None:
            cells = self.cells
            cached = {e: o for e, o in self.parent.neighbours(coord).items() if o in cells}
            self._neighbours[coord] = cached
        return cached

    def linked_neighbour(self, coord: str, edge: int) -> str | None:
        other = self.parent.linked_neighbour(coord, edge)
        return other if other in self.cells else None

    def placed(self, coord: str):
        return self.parent.placed(coord)

    def map_link(self, coord: str, edge: int) -> str | None:
        return self.parent.linked_neighbour(coord, edge)

    def track_hexes(self) -> tuple[str, ...]:
        found = self.__dict__.get("_track_hexes")
        if found is None:
            cells = self.cells
            found = self._track_hexes = tuple(h for h in self.parent.track_hexes() if h in cells)
        return found

    def printed_facts(self, kind: str) -> dict:
        # A hex's network fragment is the same on the part as on the whole map (the
        # builder drops sides into hexes the part leaves out), so the part uses the map's.
        if kind in ("network fragments", "printed fragments"):
            return self.parent.printed_facts(kind)
        return super().printed_facts(kind)


def _fields(items) -> tuple:
    """Dataclass instances of one class as tuples of their fields (equal when they are)."""
    return tuple(tuple(item.__dict__.values()) for item in items)


class _Runnable:
    """The board state as :func:`engine.model.routes.declared_routes` reads it, with
    ``op``'s trains limited to the runnable ones (the problem's train order)."""

    def __init__(self, state, op: str, trains: list) -> None:
        self._state, self._op, self._trains = state, op, trains

    def trains_of(self, sym: str) -> list:
        return list(self._trains) if sym == self._op else self._state.trains_of(sym)

    def __getattr__(self, name: str):
        return getattr(self._state, name)


def _route_train(exc, read, order) -> str:
    """The train id of the route a :class:`routing.RouteError` names ("route 2 ...")."""
    m = re.match(r"route (\d+)", str(exc))
    if m and 0 < int(m.group(1)) <= len(order):
        return read[order[int(m.group(1)) - 1]].train_id
    return "?"


@dataclass
class Turn:
    """One operator's turn: its stages and what it did so far."""

    op: str
    stages: tuple[str, ...]
    index: int = 0
    revenue: int | None = None
    routes: list = field(default_factory=list)
    lays: list[tuple[str, bool]] = field(default_factory=list)
    tokened: bool = False
    flags: dict = field(default_factory=dict)
    #: Index in the game's action log where the turn began.
    start: int = 0

    @property
    def stage(self) -> str | None:
        return self.stages[self.index] if self.index < len(self.stages) else None


class OperatingMixin:
    """Operating-round scaffolding of :class:`engine.game.base.BaseGame`."""

    #: Seconds per route solve (None: exact, unbounded).
    ROUTE_TIME_LIMIT: float | None = None

    # ------------------------------------------------------------------ hooks
    def operating_order(self) -> list[str]:
        raise NotImplementedError

    def or_start(self) -> None:
        """Start of an operating round (private revenue, resets)."""

    def stages_for(self, op: str) -> tuple[str, ...]:
        return tuple(self.OPERATING_STAGES)

    def turn_started(self, op: str) -> None:
        """An operator's turn begins (home tokens, automatic turns)."""

    def turn_ended(self, op: str) -> None:
        """An operator's turn ends."""

    def pending_actions(self) -> list[dict] | None:
        """Actions that must come before the turn goes on (forced discards ...)."""
        return None

    def anytime_actions(self, op: str, stage: str) -> list[dict]:
        """Actions open during several stages (issuing, buying privates, abilities)."""
        return []

    def end_operating_round(self) -> None:
        """End of an operating round."""

    # ------------------------------------------------------------------ round flow
    def start_operating_round(self, num: int) -> None:
        of = self.round.data.get("of") if self.round.kind == "operating" else None
        if num == 1 or of is None:
            of = int(self.state.phase.get("operating_rounds", 1))
        self.round = type(self.round)("operating", [], -1, num, {"of": of})
        self.note(f"-- operating round {self.turn}.{num} --")
        self.operated_trains: set[str] = set()
        self.or_start()
        self.round.entities = self.operating_order()
        self.or_turn = None
        self._net_cache: dict = {}
        if self.pending_actions() is None:
            self._next_operator()
        # else: choices at the start of the round first (1846 Steamboat); skip_operating
        # starts the first operator once they are made

    def _next_operator(self) -> None:
        r = self.round
        self.or_turn = None
        while r.index + 1 < len(r.entities):
            r.index += 1
            op = r.entities[r.index]
            if self.state.operators[op].closed:
                continue
            self.or_turn = Turn(op, self.stages_for(op), start=len(self.actions))
            self.turn_started(op)
            return

    def operating_round_finished(self) -> bool:
        r = self.round
        return (
            self.or_turn is None
            and r.index >= len(r.entities) - 1
            and self.pending_actions() is None
        )

    def end_turn(self) -> None:
        op = self.or_turn.op
        self.turn_ended(op)
        self._next_operator()

    def legal_operating(self) -> list[dict]:
        pending = self.pending_actions()
        if pending is not None:
            return pending
        t = self.or_turn
        if t is None or t.stage is None:
            return []
        if self.state.operators[t.op].closed:
            return []
        acts = getattr(self, f"legal_{t.stage}")(t.op)
        if acts or t.stage in self.ANYTIME_WHEN_EMPTY:
            acts = acts + self.anytime_actions(t.op, t.stage)
        return acts

    #: Stages that stay open for the anytime actions even with no choice of their own
    #: (by default a stage with nothing of its own is skipped, as an inactive 18xx.games
    #: step is).
    ANYTIME_WHEN_EMPTY: tuple[str, ...] = ()

    def skip_operating(self) -> None:
        t = self.or_turn
        if t is None:
            self._next_operator()
            return
        if t.stage is None or self.state.operators[t.op].closed:
            self.end_turn()
            return
        skip = getattr(self, f"skip_{t.stage}", None)
        if skip is not None:
            skip(t.op)
        if self.or_turn is t and not self.finished:
            t.index += 1

    def operating_pass(self, action: dict) -> None:
        t = self.or_turn
        if t is not None and action["entity"] == t.op:
            t.index += 1

    # ------------------------------------------------------------------ track and tokens
    def network(self, op: str):
        """:class:`engine.game.track.Reach` of ``op`` (cached until the board changes)."""
        state = self.state
        key = (op, state.board_version)
        cache = self._net_cache
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            last = self.__dict__.setdefault("_net_last", {}).get(op)
            laid = None
            if last is not None:
                since = [h for v, h in state.changes if v > last[0]]
                if since and None not in since and len(since) == state.board_version - last[0]:
                    laid = since
            tokens = self.reach_tokens(op)
            if laid is not None:
                cache[key] = extend(state.board, tokens, op, last[1], laid)
            else:
                cache[key] = reach(state.board, tokens, op)
            self._net_last[op] = (state.board_version, cache[key])
        return cache[key]

    def reach_tokens(self, op: str) -> dict:
        """The tokens the network walk sees; a title adds markers that block like tokens
        (every change to them must go through ``state.changed``)."""
        return self.state.tokens

    def tile_id(self, action: dict) -> str:
        """The physical tile a lay uses (``"57-1"``): the action's ``tile_id`` if it names
        a copy not on the map, else the lowest-numbered free copy.  It is written into the
        action so the log replays the same copy."""
        name = action["tile"]
        on_map = self.state.tile_hex
        given = action.get("tile_id")
        if given and given.split("-")[0] == name and given not in on_map:
            return given
        i = 0
        while f"{name}-{i}" in on_map:
            i += 1
        action["tile_id"] = f"{name}-{i}"
        return action["tile_id"]

    def lay_options(self, op: str, hexes=None) -> list:
        return legal_lays(self.state, op, self.network(op), hexes)

    def token_options(self, op: str) -> list[tuple[str, int]]:
        return tokenable_cities(self.state, op, self.network(op))

    def priced_tokens(self, op: str, cost, **pass_fields) -> list[dict]:
        """A ``place_token`` for each city of :meth:`token_options` that ``cost(hex_, city)``
        prices (``None``: not open to ``op``) within ``op``'s cash, then a ``pass`` carrying
        ``pass_fields``; nothing when no city is affordable."""
        cash = self.cash(op)
        acts = []
        for hex_, city in self.token_options(op):
            price = cost(hex_, city)
            if price is not None and price <= cash:
                acts.append({"type": "place_token", "entity": op, "hex": hex_, "city": city,
                             "cost": price})  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": op, **pass_fields})
        return acts

    def tokens_left(self, op: str) -> int:
        spec = self.entity_spec(op)
        used = sum(syms.count(op) for syms in self.state.tokens.values())
        extra = getattr(self, "token_adjust", {}).get(op, 0)  # tokens gained (1846 minors)
        return len(spec.get("tokens", [])) + extra - used

    def entity_spec(self, sym: str) -> dict:
        for ent in (*self.data.CORPORATIONS, *self.data.MINORS):
            if ent["sym"] == sym:
                return ent
        raise KeyError(sym)

    # ------------------------------------------------------------------ routes
    def runnable_trains(self, op: str) -> list:
        return [t for t in self.state.trains_of(op) if t.id not in self.operated_trains]

    def optimal_run(self, op: str) -> tuple[int, routing.Solution | None]:
        """The optimal revenue of ``op``'s runnable trains on the board now."""
        trains = self.runnable_trains(op)
        if not trains:
            return 0, None
        # the same position again (the legal list, then the action): no Position rebuilt
        quick = (op, self.state.board_version, self.state.phase_name,
                 tuple(t.name for t in trains), tuple(self.state.owned_companies(op)),
                 tuple(self.assignments()))  # fmt: skip
        last = self.__dict__.get("_last_run")
        if last is not None and last[0] == quick:
            return last[1]
        position = replace(self.state.position(op), trains=[t.name for t in trains])
        # the tiles, tokens and assignments by their fields: a frozen dataclass hashes
        # itself in Python, a tuple of strings and numbers at C speed
        key = (
            op, position.phase, _fields(position.tiles), _fields(position.tokens),
            tuple(position.trains), tuple(position.owned_companies),
            _fields(position.assignments),
        )  # fmt: skip
        cache = self._route_cache
        found = cache.get(key)
        if found is None:
            problem, _view = fast_problem(self.title, position, self.route_board(op))
            solution = routing.solve(problem, time_limit=self.ROUTE_TIME_LIMIT)
            if len(cache) > 256:
                cache.clear()
            found = cache[key] = (int(solution.total), solution)
        self.__dict__["_last_run"] = (quick, found)
        return found

    def turn_position(self, op: str, extras: dict | None = None) -> Position:
        """``op``'s position now, as the engine solves it.

        It holds the trains that may still run this operating round (a train that ran
        already does not run again after it changes owner), the treasury, the route options
        of the game, and, when ``op`` is in its operating turn, what it did in the turn so
        far (``turn``: stage, tiles laid, tokens placed, trains bought).  ``extras`` gets
        ``companies``: every other company with trains or tokens (trains, privates, cash),
        so analyses can solve them too (docs/POSITIONS.md).
        """
        state = self.state
        others = {}
        on_board = {s for syms in state.tokens.values() for s in syms}
        for other, info in state.operators.items():
            if other == op or info.closed:
                continue
            trains = [c.name for c in self.runnable_trains(other)]
            if trains or other in on_board:
                others[other] = {"trains": trains, "owned_companies": state.owned_companies(other),
                                 "cash": self.cash(other)}  # fmt: skip
        turn = None
        t = self.or_turn
        if t is not None and t.op == op and self.round.kind == "operating":
            done = [a for a in self.actions[t.start :] if a.get("entity") == op]
            turn = {
                "stage": str(t.stage),
                "tiles_laid": [a["hex"] for a in done if a["type"] == "lay_tile"],
                "tokens_placed": [a["hex"] for a in done if a["type"] == "place_token"],
                "trains_bought": [
                    str(a.get("variant") or a["train"]) for a in done if a["type"] == "buy_train"
                ],
            }
        gone = {
            "closed": sorted(s for s, o in state.operators.items() if o.closed and not o.removed),
            "removed_corporations": sorted(s for s, o in state.operators.items() if o.removed),
            "optional_rules": list(self.options),
            "players": len(self.seats),
        }
        return replace(
            state.position(op, {**(extras or {}), "companies": others, **gone}),
            trains=[c.name for c in self.runnable_trains(op)],
            cash=self.cash(op),
            turn=turn,
        )

    def route_board(self, op: str) -> FastBoard:
        """The board cut down to the hexes ``op``'s network reaches.

        Every stop of a route lies there (a route holds one of the company's token cities
        and never passes a city full of other companies' tokens), so the optimum is the
        same as on the whole map; the network is several times smaller to build and
        search.  ``ROUTE_FULL_BOARD = True`` turns this off.
        """
        board = self.state.board
        if self.ROUTE_FULL_BOARD:
            return board
        keep = [h for h in self.network(op).track if h in board.cells]
        return _SubBoard(board, keep)

    #: Solve routes on the whole map instead of the reached part (a cross-check).
    ROUTE_FULL_BOARD = False

    def route_problem_after_lay(
        self, op: str, position: Position, hex_: str, tile: str, rotation: int
    ) -> tuple[routing.Problem, RouteView]:
        """``(routing.Problem, RouteView)`` of ``position``: ``op``'s position with ``tile``
        laid on ``hex_`` at ``rotation`` (a legal lay), on a copy of the board with that lay;
        the game is left as it is.  What an analysis of candidate lays solves, at the cost
        of one hex: the copy shares the map's caches, and the reached part of the board is
        :meth:`network`'s walk continued from the new tile, as after a real lay.
        """
        board = self.state.board.copy()
        before = board.placed(hex_)
        board.lay(hex_, tile, rotation, check=False)
        if self.ROUTE_FULL_BOARD:
            return fast_problem(self.title, position, board)
        tokens = self.reach_tokens(op)
        if any(h == hex_ for h, _city in tokens):
            # an upgrade may renumber the hex's cities (tokens follow them): walk afresh
            moved = city_map(before, board.manifest_tile(tile), rotation)
            tokens = {((h, moved.get(c, c)) if h == hex_ else (h, c)): syms
                      for (h, c), syms in tokens.items()}  # fmt: skip
            reached = reach(board, tokens, op)
        else:
            reached = extend(board, tokens, op, self.network(op), [hex_])
        keep = [h for h in reached.track if h in board.cells]
        # the base network of the board now, patched at the laid hex (where the lay
        # reaches no new hex, the rest of the network is the one the board has now)
        return fast_problem(self.title, position, _SubBoard(board, keep),
                            (self.route_base(op), hex_))  # fmt: skip

    def route_base(self, op: str) -> BaseNetwork:
        """The base network of :meth:`route_board` for ``op`` now (kept until the board or
        the phase changes): what :meth:`route_problem_after_lay` patches per candidate."""
        state = self.state
        key = (op, state.board_version, state.phase_name)
        found = self.__dict__.get("_route_base")
        if found is None or found[0] != key:
            base = base_network(self.title, state.position(op), self.route_board(op))
            found = self.__dict__["_route_base"] = (key, base)
        return found[1]

    @property
    def _route_cache(self) -> dict:
        cache = self.__dict__.get("_routes")
        if cache is None:
            cache = self.__dict__["_routes"] = {}
        return cache

    def legal_route(self, op: str) -> list[dict]:
        revenue, solution = self.optimal_run(op)
        if solution is None or not solution.routes or revenue == 0:
            return []  # no route to run (18xx.games: route step inactive, can_run_route?)
        return [{"type": "run_routes", "entity": op, "revenue": revenue}]

    def skip_route(self, op: str) -> None:
        self.or_turn.revenue = 0

    def route_problem(self, op: str, full_board: bool = False):
        """``(routing.Problem, RouteView)`` of ``op``'s runnable trains on the board now
        (the reached part of it, unless ``full_board``, which drawings need)."""
        trains = self.runnable_trains(op)
        position = replace(self.state.position(op), trains=[c.name for c in trains])
        board = self.state.board if full_board else self.route_board(op)
        return fast_problem(self.title, position, board)

    def read_routes(self, op: str, routes: list[dict], problem, view) -> list:
        """18xx.games routes (``train``, ``connections``) read onto ``problem``'s network
        (:func:`engine.model.routes.declared_routes`) for ``op``'s runnable trains."""
        runnable = _Runnable(self.state, op, self.runnable_trains(op))
        return declared_routes(runnable, op, view, problem, {"routes": routes})

    def check_routes(self, action: dict) -> None:
        """Validate the declared ``routes`` of a ``run_routes`` and write their revenue
        into the action (before anything changes).

        ``routes`` are 18xx.games routes (per route ``train``, a train id the operator owns,
        and ``connections``, optionally ``nodes``), read onto the network by
        :func:`engine.model.routes.declared_routes` and scored by :func:`routing.validate`
        on the same problem :meth:`optimal_run` solves, in the record replayer's order (the
        Mail Contract goes to the route with most stops, ties to the larger train id).
        An empty list runs nothing.  Each route's score is kept in the turn's ``routes``
        (``train``, ``id``, ``revenue``, ``stops``) for observers such as the replay report.

        Raises
        ------
        IllegalAction
            Naming the train and the rule its route breaks.
        """
        op, routes = action["entity"], action["routes"]
        where = f"run_routes by {op}"
        if not isinstance(routes, list) or not all(isinstance(r, dict) for r in routes):
            raise IllegalAction(f"{where}: 'routes' must be a list of route objects")
        routes = [r for r in routes if r.get("connections")]
        trains = self.runnable_trains(op)
        if not routes or not trains:
            if routes:
                raise IllegalAction(f"{where}: {op} has no train that may run now")
            action["revenue"] = 0
            self.__dict__["_declared_run"] = (action, 0, [])
            return
        runnable = {c.id for c in trains}
        for r in routes:
            if str(r.get("train")) not in runnable:
                owned = ", ".join(sorted(runnable))
                raise IllegalAction(
                    f"{where}: train {r.get('train')} may not run now (runnable: {owned})"
                )
        problem, view = self.route_problem(op)
        try:
            read = self.read_routes(op, routes, problem, view)
        except (ReplayError, KeyError, ValueError) as exc:
            raise IllegalAction(f"{where}: {exc}") from None
        order = declaration_order(read)
        first = None
        blocked = view.blocked_by()
        for choice in route_readings(read, order):
            try:
                scored = routing.validate(problem, choice, blocked_by=blocked)
            except routing.RouteError as exc:
                first = first or exc
                continue
            info = [
                {"train": read[i].train_index, "id": read[i].train_id,
                 "revenue": int(scored.routes[k].revenue),
                 "stops": len(scored.routes[k].counted)}
                for k, i in enumerate(order)
            ]  # fmt: skip
            action["revenue"] = int(scored.total)
            self.__dict__["_declared_run"] = (action, int(scored.total), info)
            return
        raise IllegalAction(f"{where}: train {_route_train(first, read, order)}: {first}")

    def operating_run_routes(self, action: dict) -> None:
        op = action["entity"]
        declared = self.__dict__.pop("_declared_run", None)
        t = self.or_turn
        if "routes" in action and declared is not None and declared[0] is action:
            revenue = declared[1]
            t.routes = declared[2]
        else:
            revenue, solution = self.optimal_run(op)
            if action.get("revenue") == 0:
                revenue, solution = 0, None  # the company runs no route
            t.routes = [
                {"train": r.train, "revenue": int(r.revenue), "stops": len(r.counted)}
                for r in (solution.routes if solution is not None else [])
            ]
        t.revenue = revenue
        self.events.append({
            "type": "run", "turn": self.turn, "or": self.round.num, "entity": op,
            "revenue": revenue, "trains": [c.name for c in self.runnable_trains(op)],
            "routes": list(t.routes),
        })  # fmt: skip
        self.note(f"{op} runs for {revenue}")
        t.index += 1

    # ------------------------------------------------------------------ dividends
    # A title pays or keeps the revenue in ``_dividend(op, kind)`` (``kind``: the action's).
    def skip_dividend(self, op: str) -> None:
        self._dividend(op, "withhold")

    def operating_dividend(self, action: dict) -> None:
        self._dividend(action["entity"], action["kind"])
        if self.or_turn is not None:  # the dividend may have ended the game
            self.or_turn.index += 1

    def pay_dividend(self, op: str, paid: int) -> None:
        """Pay ``paid`` out per share: each holder gets its shares' part rounded up
        (``dividends_for_entity``); treasury shares pay the corporation; the pool nobody."""
        if paid <= 0:
            return
        per_share = paid / 10
        share = self.shares.share_percent.get(op, 10)
        for holder in (*self.seats, op):
            n = self.shares.percent(op, holder) // share
            if n and holder != POOL:
                self.pay("bank", holder, math.ceil(n * per_share), f"dividend of {op}")

    def explain_operating(self, action: dict) -> str | None:
        """The rule a refused operating action breaks (titles extend this, and
        :meth:`explain_lay` for their own track rules)."""
        kind = action["type"]
        t = self.or_turn
        if self.round.kind != "operating" or t is None:
            return f"{kind} happens in an operating round"
        if kind == "lay_tile":
            return self._explain_lay_tile(action, t)
        if kind == "place_token":
            return self._explain_token(action, t)
        if kind == "buy_train":
            train = action.get("train")
            exchange = action.get("exchange")
            why = self.state.purchase_refusal(t.op, str(train), exchange)
            if why:
                return why
            if t.stage != self.TRAIN_STAGE:
                return f"trains are bought in the {self.TRAIN_STAGE} stage (now: {t.stage})"
        return None

    def _explain_lay_tile(self, action: dict, t: Turn) -> str:
        hex_, tile, ent = action.get("hex"), action.get("tile"), action.get("entity")
        if hex_ not in self.state.board:
            return f"hex {hex_!r} is not on the map"
        if tile not in self.state.board.manifest:
            return f"tile {tile!r} is not in the tile manifest"
        try:
            rotation = int(action.get("rotation", -1))
            problems = self.state.tile_problems(
                hex_, self.state.board.manifest_tile(tile), rotation
            )
        except (ValueError, TypeError):
            rotation, problems = -1, [f"rotation {action.get('rotation')!r} is not 0-5"]
        if problems:
            return problems[0]
        done = [h for h, _up in t.lays]
        n = len(done)
        made = f"{t.op} has made its {n} tile lay{'s' if n > 1 else ''} this turn"
        if t.stage != self.TRACK_STAGE:
            over = f"the {self.TRACK_STAGE} stage is over (now: {t.stage})"
            return f"{made} (on {', '.join(done)}); {over}" if done else f"tiles are laid in {over}"
        why = self.explain_lay(t.op, ent, hex_, tile, rotation)
        if why:
            return why
        if ent == t.op:
            legal = self._legal_cache[1] if self._legal_cache else []
            if done and not any(a["type"] == "lay_tile" and a["entity"] == ent for a in legal):
                return made
            why = lay_problem(self.state, t.op, self.network(t.op), hex_, tile, rotation,
                              self.TRACK_RESTRICTION == "semi_restrictive")  # fmt: skip
            if why:
                return why
        return f"tile {tile} rotation {rotation} on {hex_} is not among {ent}'s lays now"

    def explain_lay(self, op: str, entity: str, hex_: str, tile: str, rotation: int) -> str | None:
        """The title's own reason to refuse a lay the tile rules allow, checked before the
        connection (turn limits, hexes reserved or blocked); None: no such reason."""
        return None

    def _explain_token(self, action: dict, t: Turn) -> str:
        hex_, city, op = action.get("hex"), action.get("city", 0), t.op
        if t.tokened and action.get("entity") == op:
            return f"{op} already placed a station token this turn"
        why = self.state.city_room(hex_, city, op)
        if why:
            return why
        if self.tokens_left(op) <= 0:
            return f"{op} has no station token left"
        if (hex_, city) not in self.network(op).cities:
            return f"{op} has no route to {hex_} city {city}"
        return f"{op} may not place a token in {hex_} city {city} now"

    #: 18xx.games ``TRACK_RESTRICTION`` of the title's lays (messages only: the title's
    #: ``legal_track`` applies it): ``semi_restrictive`` (an upgrade adds track or changes a
    #: city the company reaches) or ``permissive``.
    TRACK_RESTRICTION = "semi_restrictive"
    #: The stage in which trains are bought (messages).
    TRAIN_STAGE = "train"

    #: The stage in which tiles are laid (messages).
    TRACK_STAGE = "track"
