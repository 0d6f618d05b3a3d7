"""Replay recorded 18xx.games games and score every operating turn.

:func:`replay` reads an 18xx.games game export (see :mod:`engine.model.record`), applies its
actions to a :class:`~engine.game.state.GameState` (tiles, tokens, trains, phases,
companies, closures; title rules in :mod:`engine.replay_titles`) and, at every
``run_routes``, rebuilds the acting company's :class:`~engine.model.position.Position`, reads the
declared routes onto the network (:mod:`engine.model.routes`), scores them with
:func:`routing.validate` and finds the optimum with :func:`routing.solve`.

.. code-block:: python

    from engine.replay import replay
    report = replay("tests/data/records/1846/3099.json")
    for turn in report.turns:
        print(turn.action_id, turn.company, turn.declared, turn.scored, turn.optimum)

Actions the replay applies: ``lay_tile``, ``place_token``, ``buy_train`` (depot, discards,
other companies; variants and exchanges), ``discard_train``, ``buy_company``, ``assign``,
``par`` and the share actions (1846 share prices), ``dividend``, ``bankrupt``, ``merge``
and ``borrow_train`` (1836Jr-56); phases, obsolescence, rust and train events follow from
the title data.  Everything else has no effect on the board.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import routing
from engine.game.errors import IllegalAction
from engine.game.state import DEPOT, GameState
from engine.games import get_title, load_record
from engine.legality import TileLayOption, check_tile_lay, check_token
from engine.model.fast_board import split_id
from engine.model.position import save_position
from engine.model.record import Record, ReplayError, filter_actions
from engine.model.routes import declared_routes, fast_problem
from engine.operating import OperatingTurn, TrainOption
from engine.replay_result import FinalResult
from engine.replay_titles import NO_BOARD_EFFECT, rules_for

__all__ = [
    "TurnResult",
    "ReplayReport",
    "Replayer",
    "replay",
    "write_json_atomic",
    "export_positions",
    "ReplayError",
    "IllegalAction",
]


@dataclass
class TurnResult:
    """One ``run_routes`` of a record, scored.

    Attributes
    ----------
    action_id : int
    company : str
    phase : str
    trains : list of str
    declared : int or None
        The revenue 18xx.games stored for the routes (None when the record keeps none).
    declared_routes : list of (int or None)
    scored : int or None
        Our score of the declared routes (None when they do not validate).
    scored_routes : list of int
    optimum : int or None
    optimal : bool
        The optimum is proven.
    bound : int or None
    seconds : float
        Time to build, validate and solve.
    error : str or None
        Why the declared routes could not be read or scored (the rule they break).
    relaxed : int or None
        When the declared routes break only a route-end restriction of the rulebook that
        18xx.games does not apply (1846 West-West), their score without it.
    """

    action_id: int
    company: str
    phase: str
    trains: list[str]
    declared: int | None = None
    declared_routes: list[int | None] = field(default_factory=list)
    scored: int | None = None
    scored_routes: list[int] = field(default_factory=list)
    optimum: int | None = None
    optimal: bool = False
    bound: int | None = None
    seconds: float = 0.0
    error: str | None = None
    relaxed: int | None = None
    position: dict | None = field(default=None, repr=False)

    @property
    def reference(self) -> int | None:
        """The declared revenue: as stored, else our score of the declared routes."""
        return self.declared if self.declared is not None else self.scored

    @property
    def gap(self) -> int | None:
        """Optimum minus the declared revenue (revenue left on the table)."""
        ref = self.reference
        return None if ref is None or self.optimum is None else self.optimum - ref

    @property
    def matches(self) -> bool:
        """Our score of every declared route equals the stored revenue (where stored)."""
        if self.scored is None:
            return False
        pairs = zip(self.declared_routes, self.scored_routes, strict=True)
        return all(d is None or d == s for d, s in pairs)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.pop("position", None)
        out["gap"] = self.gap
        out["matches"] = self.matches
        return out


@dataclass
class ReplayReport:
    """Every scored turn of one record, with the notes the replay made."""

    record: str
    title: str
    actions: int
    turns: list[TurnResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    final: FinalResult | None = None

    @property
    def summary(self) -> dict:
        scored = [t for t in self.turns if t.optimum is not None]
        beaten = [t for t in scored if t.gap is not None and t.gap > 0]
        return {
            "positions": len(self.turns),
            "solved": len(scored),
            "optimum_beats_declared": len(beaten),
            "revenue_left_on_table": sum(t.gap for t in beaten),
            "declared_not_validated": sum(1 for t in self.turns if t.scored is None),
            "revenue_mismatches": sum(
                1 for t in self.turns if t.scored is not None and not t.matches
            ),
            "optimum_below_declared": sum(1 for t in scored if t.gap is not None and t.gap < 0),
            "seconds": round(self.seconds, 3),
        }

    def to_dict(self) -> dict:
        return {
            "record": self.record,
            "title": self.title,
            "actions": self.actions,
            "summary": self.summary,
            "turns": [t.to_dict() for t in self.turns],
            "notes": list(self.notes),
            "final": self.final.to_dict() if self.final is not None else None,
        }


class Replayer:
    """Steps through a record.

    Parameters
    ----------
    record : Record
    solve : bool
        Solve every position (else only validate the declared routes).
    time_limit : float, optional
        Seconds per solve.
    strict : bool
        Raise :class:`IllegalAction` on an action the rules forbid (default); otherwise
        apply it unchecked and keep a note.
    """

    def __init__(
        self,
        record: Record,
        solve: bool = True,
        time_limit: float | None = None,
        strict: bool = True,
    ) -> None:
        self.record = record
        self.title = get_title(record.title_id)
        self.rules = rules_for(record)
        self.state = GameState(record, self.title, self.rules)
        self.actions = filter_actions(record.actions)
        self.state.actions = self.actions
        self.state.index = -1
        self.solve = solve
        self.time_limit = time_limit
        self.strict = strict
        self.relay: set[tuple[str, str]] = set()  # lifted tokens their owners put back
        self.turn: OperatingTurn | None = None  # the operating turn under way
        self._late = False  # the turn has run its trains
        self.rules.setup(self.state)

    def turns(self, progress: Callable[[int], None] | None = None) -> Iterator[TurnResult]:
        """Apply every action; yield a :class:`TurnResult` at each ``run_routes``."""
        state = self.state
        for i, action in enumerate(self.actions):
            state.index = i
            try:
                self._check_actor(action)
                self.rules.before_action(state, action)
                result = None
                if action["type"] == "run_routes":
                    result = self.score(action)
                self.apply(action)
                self.rules.after_action(state, action)
            except IllegalAction as exc:
                raise IllegalAction(f"{state.where(action)}: {exc}") from None
            except ReplayError as exc:
                raise ReplayError(f"{state.where(action)}: {exc}") from None
            if progress is not None:
                progress(i + 1)
            if result is not None:
                yield result

    def _check_actor(self, action: dict) -> None:
        """A closed or removed company cannot act: if one does, the replay lost sync."""
        state = self.state
        sym = self.rules.acting_operator(state, action)
        if action["type"] == "par":
            sym = action.get("corporation")
        op = state.operators.get(sym) if sym else None
        if op is not None and (op.closed or (op.removed and action["type"] == "par")):
            why = "was removed at setup" if op.removed else "has closed"
            raise ReplayError(f"{sym} acts but {why} in the replay (the replay lost sync)")

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: dict) -> None:
        """Apply one action's board effects.

        Lays, tokens and train purchases are checked first - the board rules, the operator's
        network and its turn's limits (:mod:`engine.legality`, :mod:`engine.operating`); an
        illegal one raises :class:`IllegalAction` (strict) or is applied unchecked with a
        note (lenient).
        """
        state, rules = self.state, self.rules
        kind, ent = action["type"], action.get("entity")
        # A private's ability lays tiles and tokens without a connection (1846 Lake Shore,
        # Michigan Central, Ohio & Indiana, Little Miami, C&WI's Chicago token; 1836Jr
        # Enkhuizen-Stavoren Ferry, Charbonnages du Hainaut): only the operator's own
        # actions are checked against its network.
        own = action.get("entity_type") in ("corporation", "minor")
        turn = self._turn(action)
        mine = own and turn is not None and turn.sym == ent
        if kind == "lay_tile":
            hex_, tile, rotation = action["hex"], action["tile"], action["rotation"]
            if mine:
                option = self._legal(action, turn.check_tile_lay, hex_, tile, rotation)
            elif own:
                option = self._legal(action, check_tile_lay, state, ent, hex_, tile, rotation)
            upgrade = hex_ in state.board and state.board.color(hex_) != "white"
            lifted = self._lifted(hex_, tile)
            self._checked(action, state.lay_tile, hex_, tile, rotation)
            self.relay.update(lifted)
            if mine:
                turn.note_tile_lay(option or TileLayOption(hex_, tile, rotation, 0, upgrade))
            rules.after_lay(state, hex_, state.board.tile(hex_), ent)
        elif kind == "place_token":
            hex_, city = state.resolve_city(action["city"])
            owner = rules.token_owner(state, action)
            op = state.operators.get(owner)
            # no connection for the home station (step/home_token.rb) or for a token that a
            # lay lifted off a trackless multi-city hex (tracker.rb update_token!); neither
            # is the turn's token
            if own and (owner, hex_) not in self.relay and not (op and hex_ in op.home):
                if mine and owner == turn.sym:
                    turn.note_token(self._legal(action, turn.check_token, hex_, city))
                else:
                    self._legal(action, check_token, state, owner, hex_, city)
            self.relay.discard((owner, hex_))
            self._checked(action, state.place_token, hex_, city, owner)
        elif kind == "buy_train":
            if not rules.handle(state, action):
                args = (ent, action["train"], action.get("variant"), action.get("exchange"))
                option = self._legal(action, turn.check_buy_train, *args[1:]) if mine else None
                card = state.trains.get(action["train"])
                source = "depot" if card is not None and card.owner == DEPOT else "other"
                self._checked(action, state.buy_train, *args)
                if mine:
                    turn.note_purchase(option or TrainOption(args[1], "", source, None))
            self._close_companies(ent, "bought_train")
        elif kind == "discard_train":
            state.discard_train(ent, action["train"])
        elif kind == "run_routes":
            pass  # scored before applying; the revenue reached the rules in score()
        elif rules.handle(state, action):
            pass
        elif kind not in NO_BOARD_EFFECT:
            state.notes.append(f"{state.where(action)}: action type {kind!r} not replayed")
        if action.get("entity_type") == "company" and kind == "buy_shares":
            self._close_companies(ent, "exchange")

    def _legal(self, action: dict, check, *args):
        """Run an :mod:`engine.legality` check and return its answer; when lenient, note a
        breach, return None and go on."""
        try:
            return check(*args)
        except IllegalAction as exc:
            if self.strict:
                raise
            self.state.notes.append(f"{self.state.where(action)}: applied although {exc}")
            return None

    def _turn(self, action: dict) -> OperatingTurn | None:
        """The operating turn ``action`` belongs to, for the per-turn limits.

        A new turn begins when another operator acts, or when the operator lays track or a
        token after running its trains (its next operating round); a stock-round action
        ends the turn.
        """
        state, kind = self.state, action["type"]
        if action.get("entity_type") == "player" and kind in ("buy_shares", "par", "bid"):
            self.turn = None
            return None
        sym = self.rules.acting_operator(state, action)
        if sym not in state.operators or state.operators[sym].closed:
            return self.turn if sym is None else None
        late = self._late and kind in ("lay_tile", "place_token")
        if self.turn is None or self.turn.sym != sym or late:
            self.turn, self._late = OperatingTurn(state, sym), False
        if kind in ("run_routes", "dividend", "buy_train"):
            self._late = True
        return self.turn

    def _lifted(self, hex_: str, tile_id: str) -> set[tuple[str, str]]:
        """(owner, hex) of the tokens a lay on ``hex_`` lifts (``GameState.lay_tile``)."""
        state = self.state
        old = state.board.tile(hex_)
        try:
            new = state.board.manifest_tile(split_id(tile_id)[0])
        except (ReplayError, ValueError):
            return set()
        if old.paths or not new.paths or len(new.cities) < 2:
            return set()
        return {(s, h) for (h, _c), syms in state.tokens.items() if h == hex_ for s in syms}

    def _close_companies(self, sym: str | None, when: str) -> None:
        """Privates that close on an event: a ``close`` ability ``when: bought_train`` of the
        buyer (1836Jr-30 CFLV with the Nord's first train; base.rb
        ``close_companies_on_event!``), or an ``exchange`` ability used (step/exchange.rb)."""
        for csym, info in self.state.companies.items():
            abilities = info["spec"].get("abilities", []) or []
            if when == "exchange" and csym == sym:
                if any(a.get("type") == "exchange" for a in abilities):
                    info["closed"] = True
            elif when == "bought_train" and any(
                a.get("type") == "close"
                and a.get("when") == "bought_train"
                and a.get("corporation") == sym
                for a in abilities
            ):
                info["closed"] = True

    def _checked(self, action: dict, method, *args) -> None:
        """Call a state method with its checks; when lenient, retry unchecked on a breach."""
        try:
            method(*args, check=True)
        except IllegalAction as exc:
            if self.strict:
                raise
            self.state.notes.append(f"{self.state.where(action)}: applied although {exc}")
            method(*args, check=False)

    # ------------------------------------------------------------------ scoring
    def position(self, sym: str, action: dict):
        """``sym``'s position, with every other running company's trains and privates in
        ``extras["companies"]`` so analyses can solve them too (docs/POSITIONS.md)."""
        state = self.state
        others = {}
        on_board = {s for syms in state.tokens.values() for s in syms}
        for other, op in state.operators.items():
            if other == sym or op.closed:
                continue
            trains = [t.name for t in state.trains_of(other)]
            if trains or other in on_board:
                others[other] = {"trains": trains, "owned_companies": state.owned_companies(other)}
        extras = {"record": self.record.name, "action": action.get("id"), "companies": others}
        return state.position(sym, extras)

    def score(self, action: dict) -> TurnResult:
        """Score the declared routes of a ``run_routes`` and solve the position."""
        state = self.state
        sym = action["entity"]
        t0 = time.perf_counter()
        position = self.position(sym, action)
        routes = [r for r in action.get("routes") or [] if r.get("connections")]
        stored = [r.get("revenue") for r in routes]
        result = TurnResult(
            action_id=int(action.get("id", 0)),
            company=sym,
            phase=position.phase,
            trains=list(position.trains),
            declared=sum(stored) if routes and None not in stored else (0 if not routes else None),
            declared_routes=list(stored),
            position=position.to_dict(),
        )
        try:
            problem, view = fast_problem(self.title, position, state.board)
        except (ValueError, KeyError) as exc:
            result.error = f"position: {exc}"
            result.seconds = time.perf_counter() - t0
            self.rules.on_run(state, sym, result.declared)
            return result
        self._score_declared(result, action, problem, view, sym)
        if self.solve:
            solution = routing.solve(problem, time_limit=self.time_limit)
            result.optimum = int(solution.total)
            result.optimal = bool(solution.optimal)
            result.bound = int(solution.bound) if solution.bound is not None else None
        result.seconds = time.perf_counter() - t0
        paid = result.reference if result.reference is not None else result.relaxed
        self.rules.on_run(state, sym, paid)
        return result

    def _score_declared(self, result: TurnResult, action, problem, view, sym: str) -> None:
        if not result.declared_routes:
            result.scored, result.scored_routes = 0, []
            return
        try:
            routes = declared_routes(self.state, sym, view, problem, action)
        except (ReplayError, KeyError, ValueError) as exc:
            result.error = f"reading routes: {exc}"
            return
        if len(problem.trains) != len(self.state.trains_of(sym)):
            result.error = "the title hook changed the number of trains"
            return
        # 18xx.games gives the Mail Contract to the route with most stops, ties to the larger
        # train id; validate() gives it to the first best route, so declare in that order
        order = sorted(
            range(len(routes)), key=lambda i: (-routes[i].stops, _desc(routes[i].train_id))
        )
        first_error = None
        for choice in _readings(routes, order):
            try:
                scored = routing.validate(problem, choice)
            except routing.RouteError as exc:
                first_error = first_error or exc
                continue
            by_pos = {}
            for k, i in enumerate(order):
                by_pos[i] = scored.routes[k].revenue
            result.scored = int(scored.total)
            result.scored_routes = [int(by_pos[i]) for i in range(len(routes))]
            return
        result.error = f"declared routes rejected: {first_error}"
        if problem.rules.forbidden_end_pairs:
            # the rulebook forbids some route ends that 18xx.games allows (1846 West-West);
            # score the routes without that restriction to know what the game paid
            relaxed = routing.Problem(
                problem.network,
                problem.trains,
                replace(problem.rules, forbidden_end_pairs=()),
                label=problem.label,
            )
            for choice in _readings(routes, order):
                try:
                    result.relaxed = int(routing.validate(relaxed, choice).total)
                    return
                except routing.RouteError:
                    continue


def _desc(train_id: str) -> tuple:
    """Sort key putting larger 18xx.games train ids (string order) first."""
    return tuple(-ord(ch) for ch in train_id) + (1,)


def _readings(routes, order, limit: int = 16):
    """Route sets to try: the first reading of every route, then single alternatives."""
    base = [(routes[i].train_index, *routes[i].readings[0]) for i in order]
    yield base
    tried = 1
    for k, i in enumerate(order):
        for alt in routes[i].readings[1:]:
            if tried >= limit:
                return
            choice = list(base)
            choice[k] = (routes[i].train_index, *alt)
            tried += 1
            yield choice


def replay(
    source: str | Path | dict | Record,
    solve: bool = True,
    time_limit: float | None = None,
    strict: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> ReplayReport:
    """Replay a record and score every operating turn.

    Parameters
    ----------
    source : path, parsed export or Record
    solve : bool
        Also find the optimum of every position.
    time_limit : float, optional
        Seconds per solve.
    strict : bool
        Stop at the first action the rules forbid.
    progress : callable, optional
        ``progress(done, total)`` after every action.

    Returns
    -------
    ReplayReport

    Raises
    ------
    ReplayError
        A bad record or an action that cannot be applied (:class:`IllegalAction` names
        the rule).
    """
    record = source if isinstance(source, Record) else load_record(source)
    t0 = time.perf_counter()
    rep = Replayer(record, solve=solve, time_limit=time_limit, strict=strict)
    report = ReplayReport(record.name, record.title, len(rep.actions))
    total = len(rep.actions)
    cb = (lambda done: progress(done, total)) if progress is not None else None
    for turn in rep.turns(cb):
        report.turns.append(turn)
    # the players' values and the game-end reason, for titles whose rules keep the money
    finish = getattr(rep.rules, "final_result", None)
    report.final = finish(rep.state) if finish is not None else None
    report.notes = list(rep.state.notes)
    report.seconds = time.perf_counter() - t0
    return report


def write_json_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and :func:`os.replace`."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def export_positions(report: ReplayReport, directory: str | Path) -> list[Path]:
    """Write every position of ``report`` as a position file (atomically) into ``directory``.

    Files are named ``<record>-a<action>-<company>.json``.
    """
    from engine.model.position import position_from_dict

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for turn in report.turns:
        if turn.position is None:
            continue
        safe = "".join(ch if ch.isalnum() else "_" for ch in turn.company)
        path = directory / f"{report.record}-a{turn.action_id}-{safe}.json"
        text = save_position(position_from_dict(turn.position))
        write_json_atomic(path, text)
        written.append(path)
    return written
