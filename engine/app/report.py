"""The replay report: every operating run of a recorded game, declared against optimal.

A record (an 18xx.games export or a ``play --save`` file, finished or in progress) is its
action log fed to the one rules engine (:mod:`engine.game`).  :class:`ReplayObserver` watches
that replay: just before each ``run_routes`` it takes the running company's position as the
engine sees it (:meth:`~engine.game.operating.OperatingMixin.turn_position`: the trains that
may still run this operating round, its cash) and the engine's optimum; just after, the
revenue the engine scored for the declared routes.  Nothing is computed twice: the optimum
is the one the engine lists as the legal run, and the score is the one it pays.

.. code-block:: python

    from engine.app.report import replay
    report = replay("tests/data/records/1846/3099.json")
    for turn in report.turns:
        print(turn.action_id, turn.company, turn.declared, turn.scored, turn.optimum)

A replay that leaves the record's path (an action the engine refuses) stops with a
:class:`~engine.model.record.ReplayError` naming the action.  With ``strict=False`` it
skips such actions, notes each, and marks every turn after the first as ``diverged``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.app.files import write_text_atomic
from engine.game.base import BaseGame
from engine.game.errors import IllegalAction
from engine.games import game_class, is_save, load_record, read_save
from engine.games.records import RecordFeed, new_record_game
from engine.model.record import Record, ReplayError, filter_actions

__all__ = [
    "action_number",
    "game_before",
    "TurnResult",
    "ReplayReport",
    "ReplayObserver",
    "GameReplay",
    "open_replay",
    "replay",
    "ReplayError",
    "write_text_atomic",
    "export_positions",
    "export_every_action",
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
        The trains that could run (a train that ran this operating round is not here).
    declared : int or None
        The revenue the record stored for the routes (None when it keeps none).
    declared_routes : list of (int or None)
    scored : int or None
        The engine's score of the declared routes (None when the run was refused).
    scored_routes : list of int
    optimum : int or None
    optimal : bool
        The optimum is proven.
    bound : int or None
    seconds : float
        Time to take the position, solve and apply the run.
    error : str or None
        Why the declared routes were refused (the rule they break).
    diverged : bool
        The replay had already left the record's path (``strict=False`` only): the figures
        are the engine's, not the recorded game's.
    round : str
        The operating round, ``"OR 3.2"`` (the engine's turn and round number).
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
    diverged: bool = False
    round: str = ""
    position: dict | None = field(default=None, repr=False)

    @property
    def reference(self) -> int | None:
        """The declared revenue: as stored, else the engine's score of the declared routes."""
        return self.declared if self.declared is not None else self.scored

    @property
    def gap(self) -> int | None:
        """Optimum minus the declared revenue (revenue left on the table)."""
        ref = self.reference
        return None if ref is None or self.optimum is None else self.optimum - ref

    @property
    def matches(self) -> bool:
        """The engine's score of every declared route equals the stored revenue."""
        if self.scored is None:
            return False
        if self.declared is not None and self.declared != self.scored:
            return False
        if len(self.scored_routes) != len(self.declared_routes):
            return self.declared is None or self.declared == self.scored
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
    """Every scored turn of one record, and how the replay ended."""

    record: str
    title: str
    actions: int
    turns: list[TurnResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    final: dict | None = None
    #: The route rules the record was scored under (``options`` of its positions).
    rules: str = ""
    #: Index (in the filtered log) of the first action the engine refused (lenient only).
    diverged_at: int | None = None

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
            "diverged": self.diverged_at is not None,
            "seconds": round(self.seconds, 3),
        }

    def to_dict(self) -> dict:
        return {
            "record": self.record,
            "title": self.title,
            "actions": self.actions,
            "rules": self.rules,
            "summary": self.summary,
            "turns": [t.to_dict() for t in self.turns],
            "notes": list(self.notes),
            "final": self.final,
        }


class ReplayObserver:
    """Takes the figures of every ``run_routes`` as the engine replays a record.

    Parameters
    ----------
    name : str
        The record's name, put into each position's ``extras``.
    solve : bool
        Report the optimum (the engine solves it either way, to list the legal run).
    """

    def __init__(self, name: str, solve: bool = True) -> None:
        self.name = name
        self.solve = solve
        self.turns: list[TurnResult] = []
        self._pending: tuple[TurnResult, float, int] | None = None

    def before(self, game: BaseGame, raw: dict, diverged: bool, number: int) -> None:
        """Called before ``raw``, the record's action ``number`` (:func:`action_number`),
        is applied."""
        self._pending = None
        if raw.get("type") != "run_routes" or game.finished:
            return
        op = str(raw.get("entity"))
        if op not in game.state.operators:
            return
        t0 = time.perf_counter()
        position = game.turn_position(op, {"record": self.name, "action": raw.get("id")})
        routes = _declared(raw)
        stored = [r.get("revenue") for r in routes]
        if "routes" in raw:
            declared = sum(stored) if None not in stored else None
        else:  # a save's run names its revenue, not its routes
            declared = raw.get("revenue")
        turn = TurnResult(
            action_id=number,
            company=op,
            phase=position.phase,
            trains=list(position.trains),
            declared=declared,
            declared_routes=list(stored),
            diverged=diverged,
            round=f"OR {game.turn}.{game.round.num}",
            position=position.to_dict(),
        )
        if self.solve:
            revenue, solution = game.optimal_run(op)
            turn.optimum = int(revenue)
            turn.optimal = bool(solution.optimal) if solution is not None else True
            turn.bound = int(solution.bound) if solution is not None else int(revenue)
        runs = len(game.events)
        self._pending = (turn, t0, runs)

    def after(self, game: BaseGame, raw: dict, refused: str | None) -> None:
        """Called after ``raw`` was applied (``refused``: why the engine refused it)."""
        if self._pending is None:
            return
        turn, t0, runs = self._pending
        op = turn.company
        self._pending = None
        run = next(
            (e for e in game.events[runs:] if e.get("type") == "run" and e["entity"] == op),
            None,
        )
        if refused is not None:
            turn.error = refused
        elif run is not None:
            turn.scored = int(run["revenue"])
            by_id = {str(r.get("id")): int(r["revenue"]) for r in run.get("routes") or []}
            routes = _declared(raw)
            if routes and all(str(r.get("train")) in by_id for r in routes):
                turn.scored_routes = [by_id[str(r.get("train"))] for r in routes]
        else:
            turn.scored, turn.scored_routes = 0, []  # the company ran nothing
        turn.seconds = time.perf_counter() - t0
        self.turns.append(turn)


def _declared(raw: dict) -> list[dict]:
    """The routes a ``run_routes`` declares (those with track)."""
    return [r for r in raw.get("routes") or [] if isinstance(r, dict) and r.get("connections")]


def _describe(raw: dict) -> str:
    return f"{raw.get('type')} by {raw.get('entity')}"


class GameReplay:
    """A record's actions fed one by one to a fresh game of its title.

    Use :func:`open_replay`.  ``steps()`` applies the actions in order and yields
    ``(index, raw action, refusal or None)`` after each; ``game`` is the state after the
    last one applied.
    """

    def __init__(self, name: str, title: str, game: BaseGame, actions: list[dict],
                 apply: Callable[[dict], None], recorded: dict | None,
                 players: dict[str, str]) -> None:  # fmt: skip
        self.name = name
        self.title = title
        self.game = game
        self.actions = actions
        self._apply = apply
        self.recorded = recorded
        self.players = players
        #: Index of the first action not applied (:func:`game_before`).
        self.stopped_at: int | None = None

    def steps(
        self,
        strict: bool = True,
        before: Callable[[int, dict], None] | None = None,
    ) -> Iterator[tuple[int, dict, str | None]]:
        """Apply every action; yield after each.

        Raises
        ------
        ReplayError
            (``strict``) Naming the action the engine refused and why.
        """
        for i, raw in enumerate(self.actions):
            where = f"{self.name}: action {action_number(raw, i)} ({_describe(raw)})"
            if before is not None:
                before(i, raw)
            refused = None
            if self.game.finished and raw.get("type") not in ("end_game", "message"):
                refused = f"the game is already over ({self.game.end_reason})"
            else:
                try:
                    self._apply(raw)
                except (IllegalAction, ReplayError, ValueError, KeyError, TypeError) as exc:
                    refused = str(exc)
            if refused is not None and strict:
                raise ReplayError(f"{where}: {refused}")
            yield i, raw, refused


def open_replay(source: str | Path | dict | Record) -> GameReplay:
    """Start the replay of an 18xx.games export or a ``play --save`` file.

    Raises
    ------
    ReplayError
        An unreadable file, a title we do not have, or a setup the engine refuses; the
        message names the file and the item.
    """
    if isinstance(source, Record):
        if is_save(source.raw):
            return _save_replay(source.raw, source.name)
        return _record_replay(source)
    data = source
    if not isinstance(source, dict):
        path = Path(source)
        if path.is_dir():
            raise ReplayError(f"{path}: is a directory, not a record file")
        record = load_record(path)  # reads and checks the JSON once
        if is_save(record.raw):
            return _save_replay(record.raw, record.name)
        return _record_replay(record)
    if is_save(data):
        return _save_replay(data, "save")
    return _record_replay(load_record(data))


def _record_replay(record: Record) -> GameReplay:
    try:
        game = new_record_game(record)
    except ValueError as exc:
        raise ReplayError(f"{record.name}: setup: {exc}") from None
    feed = RecordFeed(game)
    names = {str(p): str(n) for p, n in record.players}
    return GameReplay(record.name, record.title, game, filter_actions(record.actions),
                      feed.apply, record.raw.get("result"), names)  # fmt: skip


def _save_replay(data: dict, name: str) -> GameReplay:
    try:
        data, where = read_save(data)
        cls = game_class(data["title"])
        game = cls(list(data["players"]), data.get("seed", 0), list(data.get("options") or []))
    except (ValueError, TypeError) as exc:
        raise ReplayError(f"{name}: {exc}") from None
    names = {str(p): str(p) for p in game.seats}
    return GameReplay(name, str(data["title"]), game, list(data["actions"]), game.apply,
                      data.get("result"), names)  # fmt: skip


def final_of(rep: GameReplay) -> dict:
    """How the replayed game stands at its end: each player's value, the end reason, and
    whether both equal the record's ``result`` (where it has one)."""
    game = rep.game
    result = {str(k): int(v) for k, v in game.result().items()}
    out: dict[str, Any] = {
        "finished": bool(game.finished),
        "reason": game.end_reason,
        "result": result,
        "players": [
            {"id": p, "name": rep.players.get(p, p), "value": v, "cash": int(game.cash(p))}
            for p, v in result.items()
        ],
        "recorded_result": None,
        "matches_record": None,
    }
    if isinstance(rep.recorded, dict) and rep.recorded:
        recorded = {str(k): v for k, v in rep.recorded.items()}
        out["recorded_result"] = recorded
        out["matches_record"] = recorded == result
    return out


def replay(
    source: str | Path | dict | Record,
    solve: bool = True,
    time_limit: float | None = None,
    strict: bool = True,
    progress: Callable[[int, int], None] | None = None,
    on_turn: Callable[[TurnResult], None] | None = None,
) -> ReplayReport:
    """Replay a record through the rules engine and score every operating run.

    Parameters
    ----------
    source : path, parsed export or save, or Record
    solve : bool
        Report the optimum of every run.
    time_limit : float, optional
        Seconds per route solve (the engine's ``ROUTE_TIME_LIMIT``).
    strict : bool
        Stop at the first action the engine refuses (default); otherwise skip it, note
        it, and mark every later turn ``diverged``.
    progress : callable, optional
        ``progress(done, total)`` after every action.
    on_turn : callable, optional
        ``on_turn(turn)`` as each run is scored (a strict replay that fails later has
        reported the runs before).

    Returns
    -------
    ReplayReport

    Raises
    ------
    ReplayError
        A bad record, or (``strict``) an action the engine refuses, naming it.
    """
    t0 = time.perf_counter()
    rep = open_replay(source)
    if time_limit is not None:
        rep.game.ROUTE_TIME_LIMIT = time_limit
    report = ReplayReport(rep.name, rep.title, len(rep.actions))
    options = [o for o in rep.game.options if o in rep.game.title.options]
    report.rules = ", ".join(options) or "the title's default rules"
    observer = ReplayObserver(rep.name, solve)
    total = len(rep.actions)
    diverged = False

    def look(i: int, raw: dict) -> None:
        observer.before(rep.game, raw, diverged, action_number(raw, i))

    for i, raw, refused in rep.steps(strict, before=look):
        scored = len(observer.turns)
        observer.after(rep.game, raw, refused)
        if on_turn is not None and len(observer.turns) > scored:
            on_turn(observer.turns[-1])
        if refused is not None:
            if not diverged:
                report.diverged_at = i
            diverged = True
            report.notes.append(f"action {action_number(raw, i)} ({_describe(raw)}): {refused}")
        if progress is not None:
            progress(i + 1, total)
    report.turns = observer.turns
    report.final = final_of(rep)
    report.seconds = time.perf_counter() - t0
    return report


def action_number(raw: dict, index: int) -> int:
    """The number a user names an action by: its ``id`` in an 18xx.games export, its
    1-based place in a save's log."""
    ident = raw.get("id")
    return int(ident) if isinstance(ident, int) and not isinstance(ident, bool) else index + 1


def game_before(source: str | Path | dict | Record, action: int | None = None) -> GameReplay:
    """The replay stopped just before action number ``action`` (:func:`action_number`) is
    applied; at a ``run_routes`` that is the position its routes were declared on.  None:
    after the last action (a game in progress stands where its log ends).

    Raises
    ------
    ReplayError
        An action number the record does not have (naming the range), or an action on the
        way that the engine refuses.
    """
    rep = open_replay(source)
    numbers = [action_number(raw, i) for i, raw in enumerate(rep.actions)]
    if action is not None and action not in numbers:
        span = f"{min(numbers)}-{max(numbers)}" if numbers else "none"
        raise ReplayError(f"{rep.name}: no action {action} in the record (actions: {span})")
    stop = len(numbers) if action is None else numbers.index(action)
    if stop > 0:
        for i, _raw, _refused in rep.steps():
            if i == stop - 1:
                break
    rep.stopped_at = stop
    return rep


def _position_file(directory: Path, record: str, action: Any, company: str) -> Path:
    safe = "".join(ch if ch.isalnum() else "_" for ch in company)
    return directory / f"{record}-a{action}-{safe}.json"


def export_positions(report: ReplayReport, directory: str | Path) -> list[Path]:
    """Write the position of every run of ``report`` into ``directory`` (each file
    atomically), named ``<record>-a<action>-<company>.json``."""
    from engine.model.position import position_from_dict, save_position

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for turn in report.turns:
        if turn.position is None:
            continue
        path = _position_file(directory, report.record, turn.action_id, turn.company)
        write_text_atomic(path, save_position(position_from_dict(turn.position)))
        written.append(path)
    return written


def export_every_action(source: str | Path | dict | Record, directory: str | Path) -> list[Path]:
    """Write a position before every action of a record that an operating company takes:
    that company's position as the engine sees it then (its cash, the trains that may
    still run, what it already did in the turn).  Stock-round actions have no operating
    company and give none."""
    from engine.model.position import save_position

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rep = open_replay(source)
    written: list[Path] = []

    def take(i: int, raw: dict) -> None:
        game = rep.game
        t = game.or_turn if game.round.kind == "operating" and not game.finished else None
        if t is None:
            return
        number = action_number(raw, i)
        position = game.turn_position(t.op, {"record": rep.name, "action": number})
        path = _position_file(directory, rep.name, number, t.op)
        write_text_atomic(path, save_position(position))
        written.append(path)

    for _step in rep.steps(before=take):
        pass
    return written
