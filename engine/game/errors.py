"""The rules engine's refusal: an action the rules forbid."""

from __future__ import annotations

from engine.model.record import ReplayError

__all__ = ["IllegalAction", "ReplayError"]


class IllegalAction(ReplayError):  # noqa: N818 - reads as "an illegal action", like RouteError
    """An action the rules forbid; the message names the action and the rule."""
