"""Title registry: title ids -> title packages, imported on first use.

``get_title("1846")`` imports ``engine.games.g1846`` and returns its ``TITLE``.  Ids are matched
case-insensitively, ignoring ``-``, ``_`` and spaces (``"1836Jr-30"`` = ``"1836jr30"``).
Tests and plug-ins can add titles with :func:`register_title`.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["KNOWN_TITLES", "get_title", "register_title", "known_titles", "normalise_id"]

#: Canonical title id -> module holding ``TITLE``.
KNOWN_TITLES: dict[str, str] = {
    "1846": "engine.games.g1846",
    "1836Jr30": "engine.games.g1836jr30",
    "1836Jr56": "engine.games.g1836jr56",
    "1812": "engine.games.g1812",
    "1842": "engine.games.g1842",
    "1862": "engine.games.g1862",
}

_ALIASES = {"1862usacanada": "1862", "1842schleswigholstein": "1842"}
_registered: dict[str, Any] = {}
_cache: dict[str, Any] = {}


def normalise_id(title_id: str) -> str:
    """Lower-case, without ``-``, ``_``, spaces or ``/``."""
    key = "".join(ch for ch in str(title_id).lower() if ch not in "-_ /")
    return _ALIASES.get(key, key)


def _table() -> dict[str, tuple[str, Any]]:
    table = {normalise_id(k): (k, v) for k, v in KNOWN_TITLES.items()}
    table.update({normalise_id(k): (k, v) for k, v in _registered.items()})
    return table


def known_titles() -> list[str]:
    """Canonical ids of every title the registry knows (installed or not)."""
    return [canon for canon, _ in _table().values()]


def register_title(title_id: str, title: Any) -> None:
    """Register ``title`` (a :class:`engine.title.Title` or a module path holding ``TITLE``)."""
    _registered[str(title_id)] = title
    _cache.pop(normalise_id(title_id), None)


def get_title(title_id: str):
    """The :class:`engine.title.Title` of ``title_id``.

    Raises
    ------
    KeyError
        With a message listing the known titles, for an unknown id or a title package that is
        not (yet) installed.
    """
    key = normalise_id(title_id)
    if key in _cache:
        return _cache[key]
    table = _table()
    if key not in table:
        raise KeyError(f"unknown title {title_id!r}; known titles: {', '.join(known_titles())}")
    canon, target = table[key]
    if isinstance(target, str):
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name and target.startswith(exc.name):
                raise KeyError(
                    f"title {canon!r} is not installed (no module {target}); known titles: "
                    f"{', '.join(known_titles())}"
                ) from None
            raise
        try:
            title = module.TITLE
        except AttributeError:
            raise KeyError(f"title {canon!r}: module {target} has no TITLE") from None
    else:
        title = target
    _cache[key] = title
    return title
