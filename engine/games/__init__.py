"""The title registry: one id per title, the spellings 18xx.games uses as aliases.

Every title is a package ``engine.games.g<id>`` holding ``TITLE`` (an
:class:`engine.model.title.Title`: map data and the revenue-rule hook) and a rules-engine
class (a :class:`engine.game.base.BaseGame`).  Both are imported on first use.

Ids are matched case-insensitively, ignoring ``-``, ``_``, ``/`` and spaces, so
``"1836Jr-30"``, ``"1836jr30"`` and 18xx.games' ``"1836Jr30"`` name one title; 18xx.games'
``"1862UsaCanada"`` and ``"1842SchleswigHolstein"`` are aliases, and ``"1846 2p Variant"``
names 1846 with its ``2p`` variant.  Tests and plug-ins add titles with
:func:`register_title`.

This layer also resolves titles for the model's readers (:func:`load_position`,
:func:`build_problem`, :func:`load_record`), which take a :class:`Title` themselves.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.model import position as _position
from engine.model import record as _record
from engine.model import title as _title
from engine.model.jsonio import parse_json, read_text
from engine.model.position import Position, PositionError
from engine.model.record import Record, ReplayError

if TYPE_CHECKING:
    import routing
    from engine.game.base import BaseGame
    from engine.model.board import Board
    from engine.model.title import RouteView, Title

__all__ = [
    "TitleEntry",
    "TITLES",
    "normalise_id",
    "resolve_title",
    "known_titles",
    "register_title",
    "get_title",
    "game_class",
    "new_game",
    "load_game",
    "load_position",
    "check_position",
    "position_board",
    "route_view",
    "build_problem",
    "load_record",
]


@dataclass(frozen=True)
class TitleEntry:
    """One title of the registry.

    Attributes
    ----------
    id : str
        The canonical id (18xx.games' own where it has one).
    package : str
        Module holding ``TITLE``.
    game : str
        ``"module:Class"`` of the rules engine (empty: positions only).
    aliases : tuple of str
        Other spellings that name the title.
    variants : dict of str to str
        18xx.games titles that name a variant of this one -> the variant tag.
    """

    id: str
    package: str
    game: str = ""
    aliases: tuple[str, ...] = ()
    variants: dict[str, str] = field(default_factory=dict)


#: Canonical id -> entry: the built-in titles.
TITLES: dict[str, TitleEntry] = {
    "1846": TitleEntry(
        "1846", "engine.games.g1846", "engine.games.g1846.game:Game1846",
        variants={"1846 2p Variant": "2p", "18462p": "2p"},
    ),
    "1836Jr30": TitleEntry(
        "1836Jr30", "engine.games.g1836jr30", "engine.games.g1836jr30.game:Game1836Jr30"
    ),
    "1836Jr56": TitleEntry(
        "1836Jr56", "engine.games.g1836jr56", "engine.games.g1836jr56.game:Game1836Jr56"
    ),
    "1812": TitleEntry("1812", "engine.games.g1812", "engine.games.g1812.game:Game1812"),
    "1842": TitleEntry(
        "1842", "engine.games.g1842", "engine.games.g1842.game:Game1842",
        aliases=("1842SchleswigHolstein",),
    ),
    "1862": TitleEntry(
        "1862", "engine.games.g1862", "engine.games.g1862.game:Game1862",
        aliases=("1862UsaCanada", "1862 USA/Canada"),
    ),
}  # fmt: skip

_registered: dict[str, Any] = {}
_cache: dict[str, Any] = {}
#: normalised spelling -> (canonical id, variant tag), filled on first use
_spelling_table: dict[str, tuple[str, str]] = {}


def normalise_id(title_id: str) -> str:
    """Lower-case, without ``-``, ``_``, spaces or ``/``."""
    return "".join(ch for ch in str(title_id).lower() if ch not in "-_ /")


def _spellings() -> dict[str, tuple[str, str]]:
    """Normalised spelling -> (canonical id, variant tag); made again only after
    :func:`register_title` (every position file asks)."""
    if _spelling_table:
        return _spelling_table
    table = _spelling_table
    for canon, entry in TITLES.items():
        for name in (canon, *entry.aliases):
            table[normalise_id(name)] = (canon, "")
        for name, tag in entry.variants.items():
            table[normalise_id(name)] = (canon, tag)
    for canon in _registered:
        table[normalise_id(canon)] = (canon, "")
    return table


def resolve_title(title_id: str) -> tuple[str, str]:
    """``(canonical id, variant tag)`` of any accepted spelling.

    Raises
    ------
    KeyError
        With a message listing the known titles.
    """
    found = _spellings().get(normalise_id(title_id))
    if found is None:
        raise KeyError(f"unknown title {title_id!r}; known titles: {', '.join(known_titles())}")
    return found


def known_titles() -> list[str]:
    """Canonical ids of every title the registry knows."""
    return [*TITLES, *(k for k in _registered if k not in TITLES)]


def register_title(title_id: str, title: Any) -> None:
    """Register ``title``: a :class:`engine.model.title.Title`, or a module path holding
    ``TITLE``."""
    _registered[str(title_id)] = title
    _cache.pop(str(title_id), None)
    _spelling_table.clear()


def get_title(title_id: str) -> Title:
    """The :class:`engine.model.title.Title` of ``title_id``.

    Raises
    ------
    KeyError
        With a message listing the known titles, for an unknown id or a title package that is
        not installed.
    """
    canon, _variant = resolve_title(title_id)
    if canon in _cache:
        return _cache[canon]
    target = _registered.get(canon) or TITLES[canon].package
    if isinstance(target, str):
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name and target.startswith(exc.name):
                raise KeyError(f"title {canon!r} is not installed (no module {target})") from None
            raise
        title = getattr(module, "TITLE", None)
        if title is None:
            raise KeyError(f"title {canon!r}: module {target} has no TITLE")
    else:
        title = target
    _cache[canon] = title
    return title


# ---------------------------------------------------------------------------------- games
def game_class(title_id: str) -> type[BaseGame]:
    """The rules-engine class of ``title_id``.

    Raises
    ------
    ValueError
        The title is unknown or has no rules engine (the message lists those that do).
    """
    playable = [k for k, e in TITLES.items() if e.game]
    try:
        canon, _variant = resolve_title(title_id)
    except KeyError:
        canon = ""
    entry = TITLES.get(canon)
    if entry is None or not entry.game:
        raise ValueError(
            f"no rules engine for title {title_id!r} (available: {', '.join(playable)})"
        )
    module, _, name = entry.game.partition(":")
    return getattr(importlib.import_module(module), name)


def new_game(
    title_id: str, players: list[str], seed: int = 0, options=(), actions=()
) -> BaseGame:
    """Start a game of ``title_id`` (and replay ``actions`` if given)."""
    return game_class(title_id)(list(players), seed, list(options), list(actions))


def load_game(source: str | Path | dict) -> BaseGame:
    """Load a save (:meth:`BaseGame.to_dict`, or a path to its JSON) by replaying its log.

    Raises
    ------
    ValueError
        A file that cannot be read or is not a save (the message names the item); an
        :class:`~engine.game.errors.IllegalAction` in the log names the action.
    """
    from engine.game.errors import IllegalAction

    data, where = read_save(source)
    cls = game_class(data["title"])
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"{where}: 'seed' must be an integer, got {seed!r}")
    if not isinstance(data["players"], list) or not isinstance(data.get("options", []), list):
        raise ValueError(f"{where}: 'players' and 'options' must be lists")
    game = cls(list(data["players"]), seed, list(data.get("options", [])))
    for i, action in enumerate(data["actions"]):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(f"{where}: action {i}: {exc}") from None
    return game


def is_save(data: Any) -> bool:
    """Is ``data`` a ``play --save`` file (not an 18xx.games export)?"""
    return (
        isinstance(data, dict) and "actions" in data and "players" in data
        and "title" in data and "settings" not in data and "id" not in data
        and all(isinstance(p, str) for p in data.get("players") or [])
    )  # fmt: skip


def read_save(source: str | Path | dict) -> tuple[dict, str]:
    """The parsed save and its name for messages.

    Raises
    ------
    ValueError
        Not readable, not JSON, or not a save (naming the file and the missing item).
    """
    if isinstance(source, dict):
        data, where = source, "save"
    else:
        where = str(source)
        data = parse_json(read_text(source, "save file"), where)
    return _record.check_game_log(data, where, "a game save"), where


# ---------------------------------------------------------------------------------- readers
def _title_of(position: Position) -> Title:
    try:
        return get_title(position.title)
    except KeyError as exc:
        src = f"{position.source}: " if position.source else ""
        raise PositionError(f"{src}title: {exc.args[0]}") from None


def check_position(position: Position, title: Title | None = None) -> Board:
    """:func:`engine.model.position.check_position` with the registered title."""
    return _position.check_position(position, title or _title_of(position))


def position_board(position: Position, title: Title | None = None, check: bool = True) -> Board:
    """:func:`engine.model.position.position_board` with the registered title."""
    return _position.position_board(position, title or _title_of(position), check)


def load_position(source: str | Path | dict, check: bool = True) -> Position:
    """Read a position file; with ``check`` (default) check it against its title.

    Raises
    ------
    PositionError
        Naming the file and the first impossible item.
    """
    position = _position.load_position(source)
    if check:
        check_position(position)
    return position


def route_view(position: Position, title: Title | None = None, check: bool = True) -> RouteView:
    """:func:`engine.model.title.route_view` with the registered title."""
    return _title.route_view(position, title or _title_of(position), check)


def build_problem(
    position: Position | str | dict, title: Title | None = None, check: bool = True
) -> tuple[routing.Problem, RouteView]:
    """The :class:`routing.Problem` of ``position`` (a Position, path, JSON text or dict)
    under its registered title; see :func:`engine.model.title.build_problem`."""
    if not isinstance(position, Position):
        position = _position.load_position(position)
    return _title.build_problem(position, title or _title_of(position), check)


def load_record(source: str | Path | dict, name: str | None = None) -> Record:
    """Read an 18xx.games export and resolve its title (and variant).

    Raises
    ------
    ReplayError
        One line naming the file and the problem, e.g. a title we do not have.
    """
    record = _record.load_record(source, name)
    try:
        record.title_id, record.variant = resolve_title(record.title)
    except KeyError:
        playable = ", ".join(k for k, e in TITLES.items() if e.game)
        raise ReplayError(
            f"{record.name}: title {record.title!r} is not supported (supported: {playable})"
        ) from None
    if not record.players:
        raise ReplayError(f"{record.name}: the record has no players")
    return record
