"""1846: The Race for the Midwest (18xx.games title ``1846``).

``data`` holds the transcribed facts, ``rules`` the revenue-rule hook; :data:`TITLE` joins them
for the engine.  The 2-player variant shares map and revenue rules; its setup differences are
``data.TWO_PLAYER``.
"""

from engine.games.g1846 import data, rules
from engine.model.title import Title

__all__ = ["TITLE", "data", "rules"]

TITLE = Title(
    id="1846",
    data=data,
    route_spec=rules.route_spec,
    name="1846: The Race for the Midwest",
    check_position=rules.check_position,
    options=(data.ALLOW_WEST_WEST,),
)
