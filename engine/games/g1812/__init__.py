"""1812: The Cradle of Steam Railways (Ian D. Wilson).

Facts live in :mod:`.data`, the revenue rules in :mod:`.rules`.
"""

from __future__ import annotations

from engine.title import Title

from . import data
from .rules import check_tile, route_spec

__all__ = ["TITLE", "data", "route_spec"]

TITLE = Title(
    id=data.TITLE,
    data=data,
    route_spec=route_spec,
    name="1812: The Cradle of Steam Railways",
    check_tile=check_tile,
)
