"""1862 USA/Canada (Helmut Ohley).

The title id is 18xx.games' ``1862UsaCanada``; the registry also finds it as ``"1862"``.
Facts live in :mod:`.data`, the revenue rules in :mod:`.rules`.
"""

from __future__ import annotations

from engine.games.g1862 import data
from engine.games.g1862.rules import route_spec
from engine.model.title import Title

__all__ = ["TITLE", "data", "route_spec"]

TITLE = Title(id=data.TITLE, data=data, route_spec=route_spec, name=data.DISPLAY_TITLE)
