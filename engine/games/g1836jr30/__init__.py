"""1836Jr-30: the 1830 variant on the 1836Jr (Netherlands and Belgium) map."""

from engine.games.g1836jr30 import data
from engine.games.g1836jr30.rules import check_position, route_spec
from engine.model.title import Title

__all__ = ["TITLE"]

TITLE = Title(
    id=data.TITLE,
    data=data,
    route_spec=route_spec,
    name="1836Jr-30",
    check_position=check_position,
)
