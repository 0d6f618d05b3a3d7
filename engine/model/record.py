"""Reading 18xx.games game exports for the replay (:mod:`engine.app.report`).

An export is one JSON object with ``id``, ``title``, ``players``, ``settings`` (``seed``,
``optional_rules``) and ``actions``, the full action log including ``undo`` and ``redo``.
:func:`load_record` checks the shape and resolves the title; :func:`filter_actions` applies
undo/redo exactly as 18xx.games does (tobymao/18xx ``lib/engine/game/base.rb``
``filtered_actions`` @111f7f69, MIT):

- ``undo`` without ``action_id`` takes back the last action still in force (messages are
  never taken back);
- ``undo`` with ``action_id`` takes back every action after that id (``0``: all of them);
- ``redo`` puts back what the most recent ``undo`` took back, as long as no other action came
  in between (any other action forgets every pending undo).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.model.jsonio import JSONInputError, parse_json, read_text

__all__ = [
    "ReplayError",
    "Record",
    "load_record",
    "check_game_log",
    "filter_actions",
    "record_seed",
]


class ReplayError(ValueError):
    """A record that cannot be replayed (bad file, unsupported title, lost sync)."""


@dataclass
class Record:
    """A loaded game export.

    Attributes
    ----------
    name : str
        Short name for reports (the file stem).
    game_id : str
        The record's ``id``.
    title : str
        The 18xx.games title as recorded (``"1846 2p Variant"``).
    title_id : str
        The engine title (``"1846"``); set by :func:`engine.games.load_record`, which
        resolves the recorded title.
    variant : str
        ``"2p"`` for the 2-player 1846 variant, else ``""``.
    players : list of (id, name)
        In seat order.
    optional_rules : list of str
    seed : int
        The seed 18xx.games' random draws start from.
    actions : list of dict
        The raw action log.
    """

    name: str
    game_id: str
    title: str
    title_id: str
    variant: str
    players: list[tuple[Any, str]]
    optional_rules: list[str]
    seed: int
    actions: list[dict]
    raw: dict = field(default_factory=dict, repr=False)


def record_seed(data: dict) -> int:
    """The seed 18xx.games uses: ``settings.seed``, else the first number in the id.

    (``base.rb`` ``initialize_seed``: an empty seed counts as missing.)
    """
    seed = (data.get("settings") or {}).get("seed")
    if seed in (None, ""):
        digits = re.findall(r"\d+", str(data.get("id", "")))
        return int(digits[0]) if digits else 0
    try:
        return int(seed)
    except (TypeError, ValueError):
        raise ReplayError(f"settings.seed must be a number, got {seed!r}") from None


def check_game_log(data: Any, where: str, kind: str) -> dict:
    """``data`` if it holds what every log of a game holds (an 18xx.games export, a ``play
    --save`` file): a JSON object with a ``title``, a list of ``players`` and a list of
    action objects (each with a ``type``).

    Raises
    ------
    ReplayError
        Naming ``where`` and the missing item (``kind`` says what ``data`` should be).
    """
    if not isinstance(data, dict):
        raise ReplayError(f"{where}: not {kind} (expected a JSON object)")
    for key in ("title", "actions", "players"):
        if key not in data:
            raise ReplayError(f"{where}: not {kind} (no {key!r})")
    if not isinstance(data["players"], list):
        raise ReplayError(f"{where}: 'players' must be a list")
    if not isinstance(data["actions"], list) or not all(
        isinstance(a, dict) and "type" in a for a in data["actions"]
    ):
        raise ReplayError(f"{where}: 'actions' must be a list of action objects")
    return data


def load_record(source: str | Path | dict, name: str | None = None) -> Record:
    """Load and check a game export.

    Parameters
    ----------
    source : path or parsed dict
    name : str, optional
        Name for reports; defaults to the file stem or the record id.

    Returns
    -------
    Record

    Raises
    ------
    ReplayError
        One line naming the file and the problem: missing file, not JSON, not an 18xx.games
        export.
    """
    if isinstance(source, dict):
        data, where = source, name or str(source.get("id", "record"))
    else:
        path = Path(source)
        where = str(path)
        try:
            data = parse_json(read_text(path, "record file"), where)
        except JSONInputError as exc:
            raise ReplayError(str(exc)) from None
        name = name or path.stem
    check_game_log(data, where, "an 18xx.games game export")
    title = str(data["title"])
    players = []
    for p in data["players"]:
        if isinstance(p, dict):
            players.append((p.get("id", p.get("name")), str(p.get("name", p.get("id")))))
        else:
            players.append((p, str(p)))
    settings = data.get("settings") or {}
    return Record(
        name=name or str(data.get("id", "record")),
        game_id=str(data.get("id", "")),
        title=title,
        title_id="",
        variant="",
        players=players,
        optional_rules=[str(r) for r in settings.get("optional_rules") or []],
        seed=record_seed(data),
        actions=data["actions"],
        raw=data,
    )


def filter_actions(actions: list[dict]) -> list[dict]:
    """The actions in force after undo/redo, in log order (18xx.games ``filtered_actions``).

    Raises
    ------
    ReplayError
        An ``undo`` naming an action id that is not in the log, or a ``redo`` with nothing
        to redo.
    """
    kept: list[dict | None] = [None] * len(actions)
    pending: list[list[tuple[dict, int]]] = []
    index_of = {}
    for i, action in enumerate(actions):
        if "id" in action:
            index_of.setdefault(action["id"], i)
    for i, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is not None:
                if target == 0:
                    start = 0
                elif target in index_of:
                    start = index_of[target] + 1
                else:
                    raise ReplayError(
                        f"action {action.get('id')}: undo names action {target}, "
                        "which is not in the log"
                    )
            else:
                live = [k for k in range(i) if kept[k] and kept[k].get("type") != "message"]
                start = live[-1] if live else 0
            undone = []
            for k in range(start, i):
                a = kept[k]
                if a is None or a.get("type") == "message":
                    continue
                kept[k] = None
                undone.append((a, k))
            pending.append(undone)
        elif kind == "redo":
            if not pending:
                raise ReplayError(f"action {action.get('id')}: redo with nothing to redo")
            for a, k in pending.pop():
                kept[k] = a
        elif kind == "message":
            kept[i] = action  # messages are never undone
        else:
            pending.clear()
            kept[i] = action
    return [a for a in kept if a is not None]
