"""1836Jr-56: the 1856 variant on the 1836Jr (Netherlands and Belgium) map."""

from engine.games.g1836jr56 import data
from engine.games.g1836jr56.rules import check_position, check_tile, route_spec
from engine.model.title import Title

__all__ = ["TITLE"]

TITLE = Title(
    id=data.TITLE,
    data=data,
    route_spec=route_spec,
    name="1836Jr-56",
    check_position=check_position,
    check_tile=check_tile,
)
