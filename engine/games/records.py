"""18xx.games records through the full rules engine: one adapter for every title.

An 18xx.games export (:func:`engine.model.record.load_record`, undo/redo resolved by
:func:`engine.model.record.filter_actions`) is replayed action by action through
:meth:`engine.game.base.BaseGame.apply`: every recorded action must be legal in our engine,
and the game must end with the recorded ``result`` and ``game_end_reason``.

.. code-block:: python

    from engine.games.records import replay_record_game
    game = replay_record_game("tests/data/records/1846/3099.json")
    print(game.end_reason, game.result())

The generic translation (:func:`from_record`) maps an 18xx.games action onto our action
dicts field by field: ``entity`` as a string; ``company``, ``shares``, ``kind``, ``train``,
``price``, ``percent``, ``rotation``, ``hex``, ``tile`` (the physical copy ``"57-1"``),
``target``, ``target_type``, ``variant``, ``exchange`` (a train traded in) copied; ``par``
takes the price from ``share_price`` (``"100,0,10"``); a ``sell_shares`` without
``percent`` sells 10% per certificate; ``place_token`` names ``hex`` and the city index on
the tile now laid (``"291-0-0"``); a ``buy_train`` without ``variant`` buys the train as it
is; ``run_routes`` carries the declared ``routes`` (``train``, ``connections``, ``nodes``:
scored by :meth:`engine.game.operating.OperatingMixin.check_routes`), an empty list when
the company ran nothing.  ``message``, ``log``, ``undo``, ``redo`` and the standing
instructions ``program_*`` carry no game action (what 18xx.games did on an instruction is
in the next action's ``auto_actions``, applied after it); ``end_game`` ends the game by
hand (``manually_ended``, as 18xx.games records it).  :class:`RecordFeed` says how recorded
passes meet the engine's own lone passes.

Title hooks (small, optional, looked up on the title's game class):

``record_options(record) -> list[str]`` (classmethod)
    The game options of a record (default: its ``optional_rules``).  1846 adds
    ``two_player`` for the 2-player variant's records.
``record_action(raw, action) -> dict | list[dict] | None``
    The title's oddities: given the record's raw action and the generic translation,
    return the action(s) to apply (``None``: nothing to apply).  Called with the game in
    the state before the action.

A new title (1836Jr-56) needs only its ``GAMES`` entry in :mod:`engine.game` and, where
its actions differ from the generic form, ``record_action``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.game.base import BaseGame, IllegalAction
from engine.games import game_class, load_record
from engine.model.record import Record, ReplayError, filter_actions

__all__ = ["from_record", "new_record_game", "replay_record_game", "RecordFeed", "RECORD_KEYS"]

#: 18xx.games action fields copied as they are.
RECORD_KEYS = ("company", "shares", "kind", "train", "price", "percent", "rotation", "hex",
               "target", "target_type", "variant", "tile", "exchange")  # fmt: skip

#: Record action types that carry no game action.
_NO_ACTION = frozenset({"message", "log", "undo", "redo", "end_game"})


def from_record(game: BaseGame, raw: dict) -> dict | None:
    """The generic translation of an 18xx.games action (see the module docstring).

    Raises
    ------
    ReplayError
        A field that cannot be read (a share price, a city on a tile not on the map).
    """
    kind = raw.get("type")
    if kind in _NO_ACTION or str(kind).startswith("program_"):
        return None  # program_*: a standing instruction; its effects are auto_actions
    act = {"type": kind, "entity": str(raw.get("entity"))}
    for key in RECORD_KEYS:
        if key in raw:
            act[key] = raw[key]
    if kind == "par":
        price = str(raw.get("share_price", "")).split(",")[0]
        if "corporation" not in raw or not price.isdigit():
            raise ReplayError(f"par: share price {raw.get('share_price')!r} is not readable")
        act.update(corporation=raw["corporation"], share_price=int(price))
    elif kind == "sell_shares" and "percent" not in act:
        act["percent"] = 10 * len(raw.get("shares") or [])
    elif kind == "place_token":
        act["hex"], act["city"] = game.state.resolve_city(str(raw.get("city")))
    elif kind == "run_routes":
        # the route's train and chains; a malformed entry goes on for check_routes to name
        act["routes"] = [
            {k: r[k] for k in ("train", "connections", "nodes") if k in r}
            if isinstance(r, dict) else r
            for r in raw.get("routes") or []
        ]  # fmt: skip
    elif kind == "buy_train" and "train" in raw and "variant" not in act:
        # the train as it is: its owner's variant, or the card's own name
        card = game.state.trains.get(str(raw["train"]))
        act["variant"] = card.name if card is not None else str(raw["train"]).split("-")[0]
    return act


class RecordFeed:
    """Feeds one game the actions of a record, in order (:func:`replay_record_game`).

    18xx.games records a ``pass`` where a step offers nothing else; our engine takes such a
    lone pass itself (docs/GAME_ENGINE.md, "no hidden choices") and lists it in
    ``game.auto_passes``.  A recorded pass by an entity the engine has just passed for
    (since the last applied action) is that pass, and is not applied again.  A recorded
    pass that is no choice of its entity at all is a step 18xx.games keeps open with
    nothing to do (a blocking step active on other grounds, e.g. ``BuyCompany`` for a
    corporation with abilities): it is skipped too.  Any other recorded action must be
    legal.
    """

    def __init__(self, game: BaseGame) -> None:
        self.game = game
        self.hook = getattr(game, "record_action", None)
        taken = game.__dict__.get("auto_passes", [])
        self.seen = len(taken)
        self.pending: list[str] = list(taken)

    def apply(self, raw: dict) -> None:
        """Apply one record action (and its ``auto_actions``).

        Raises
        ------
        IllegalAction, ReplayError
        """
        game = self.game
        if raw.get("type") == "end_game":
            if not game.finished:
                game.end_game("manually_ended")
            return
        # an action's auto_actions are what 18xx.games did right after it on a player's
        # standing instruction (program_share_pass ...): plain actions
        for one in (raw, *(raw.get("auto_actions") or [])):
            act = from_record(game, one)
            acts = self.hook(one, act) if self.hook is not None else act
            if acts is None:
                continue
            for a in acts if isinstance(acts, list) else [acts]:
                if a["type"] == "pass" and a["entity"] in self.pending:
                    self.pending.remove(a["entity"])  # a lone pass the engine took
                    continue
                if a["type"] == "pass" and not _pass_open(game, a["entity"]):
                    continue  # a step 18xx.games kept open with nothing to do in it
                game.apply(a)
                taken = game.__dict__.get("auto_passes", [])
                self.pending, self.seen = taken[self.seen :], len(taken)


def _pass_open(game: BaseGame, entity: str) -> bool:
    """Is ``pass`` a choice of ``entity`` now?"""
    return any(a["type"] == "pass" and a["entity"] == entity for a in game.legal_actions())


def new_record_game(record: Record) -> BaseGame:
    """A fresh game with the record's title, players (their ids, as strings), seed and
    options (the title's ``record_options`` hook)."""
    cls = game_class(record.title_id)
    hook = getattr(cls, "record_options", None)
    options = hook(record) if hook is not None else list(record.optional_rules)
    return cls([str(p) for p, _ in record.players], record.seed, options)


def replay_record_game(
    source: str | Path | dict | Record,
    on_action: Callable[[BaseGame, dict], None] | None = None,
) -> BaseGame:
    """Replay an 18xx.games record through the rules engine.

    Parameters
    ----------
    source : path, parsed export or Record
    on_action : callable, optional
        Called as ``on_action(game, raw)`` after each applied record action (invariants).

    Returns
    -------
    BaseGame
        The game after the record's last action (ended, when the record ends it by hand).

    Raises
    ------
    ReplayError
        One line naming the record, the action id and type, and why (an
        :class:`IllegalAction` message, a field that cannot be read).
    """
    record = source if isinstance(source, Record) else load_record(source)
    try:
        game = new_record_game(record)
    except ValueError as exc:
        raise ReplayError(f"{record.name}: setup: {exc}") from None
    feed = RecordFeed(game)
    for raw in filter_actions(record.actions):
        where = f"{record.name}: action {raw.get('id')} ({raw.get('type')} by {raw.get('entity')})"
        if game.finished and raw.get("type") != "end_game":
            if raw.get("type") in _NO_ACTION:
                continue
            raise ReplayError(f"{where}: the game is already over ({game.end_reason})")
        try:
            feed.apply(raw)
        except (IllegalAction, ReplayError, ValueError, KeyError) as exc:
            raise ReplayError(f"{where}: {exc}") from None
        if on_action is not None:
            on_action(game, raw)
    return game
