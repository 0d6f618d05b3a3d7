"""1812: The Cradle of Steam Railways (Ian D. Wilson).

Facts live in :mod:`.data`, the revenue rules in :mod:`.rules`.
"""

from __future__ import annotations

from engine.games.g1812 import data
from engine.games.g1812.rules import check_tile, route_spec
from engine.model.title import Title

__all__ = ["TITLE", "data", "route_spec"]

TITLE = Title(
    id=data.TITLE,
    data=data,
    route_spec=route_spec,
    name="1812: The Cradle of Steam Railways",
    check_tile=check_tile,
)
