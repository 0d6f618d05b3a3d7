"""1842 Hamburg/Schleswig-Holstein — on a RECONSTRUCTED map.

No public map of 1842 exists and 18xx.games does not implement it; :mod:`.data` holds our
reconstruction from the rulebook (``data.RECONSTRUCTED``, ``data.RULEBOOK_FACTS``,
``data.GUESSES``).  The revenue rules are in :mod:`.rules`; :func:`.rules.report` gives the
HAV's income from a solution (reported beside the revenue).
"""

from __future__ import annotations

from engine.games.g1842 import data
from engine.games.g1842.rules import check_position, report, route_spec
from engine.model.title import Title

__all__ = ["TITLE", "data", "route_spec", "report"]

TITLE = Title(
    id=data.TITLE,
    data=data,
    route_spec=route_spec,
    name=data.DISPLAY_TITLE,
    check_position=check_position,
)
