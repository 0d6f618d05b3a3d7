"""The end of a replayed game: each player's value and why the game ended.

18xx.games scores a finished game by each player's value (``player.rb`` ``value``: cash, plus
every share of a floated corporation at its market price, plus the face value of the private
companies the player still owns, minus loans; ``base.rb`` ``result`` sorts the players by it)
and records a ``game_end_reason`` (tobymao/18xx @111f7f69, MIT).  A title's replay rules
build a :class:`FinalResult` at the end of the record (``TitleRules.final_result``).

Game-end reasons, as 18xx.games names them:

``bank``
    The bank broke; the game ended after the operating-round set then running.
``all_closed``
    Every corporation and private company had closed (at once).
``bankrupt``
    All players but one went bankrupt (at once).
``final_train``
    The last train was sold (1846 2-player variant); one more set of operating rounds.
``manually_ended``
    The record's own ``end_game`` action ended the game where it stood.
``dnf``
    The log ends with no end condition reached and no ``end_game`` action: a truncated
    record, or a game 18xx.games stopped at its 100-turn limit (the replay cannot play the
    automatic rounds after the last recorded action, see :attr:`FinalResult.reason`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["PlayerResult", "FinalResult", "GAME_END_REASONS"]

#: The reasons a :class:`FinalResult` may give.
GAME_END_REASONS = ("bank", "all_closed", "bankrupt", "final_train", "manually_ended", "dnf")


@dataclass(frozen=True)
class PlayerResult:
    """One player's final value and what it is made of."""

    id: Any
    name: str
    cash: int
    shares: int
    companies: int
    bankrupt: bool = False

    @property
    def value(self) -> int:
        """Cash + shares at market price + private companies at face value."""
        return self.cash + self.shares + self.companies


@dataclass
class FinalResult:
    """The state a replayed record ends in.

    Attributes
    ----------
    players : list of PlayerResult
        Highest value first (ties keep seat order), as 18xx.games orders ``result``.
    reason : str
        One of :data:`GAME_END_REASONS`.
    bank : int
        The bank's cash (negative once it has broken and kept paying).
    bank_broken : bool
    in_sync : bool
        Every payment the record implies was covered by the payer's cash and nothing
        18xx.games forbids happened.  False means the replayed money drifted from
        18xx.games' (the notes say where): the values are then not to be trusted.
    notes : list of str
    """

    players: list[PlayerResult]
    reason: str
    bank: int
    bank_broken: bool = False
    in_sync: bool = True
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.reason not in GAME_END_REASONS:
            raise ValueError(
                f"unknown game-end reason {self.reason!r} (expected one of "
                f"{', '.join(GAME_END_REASONS)})"
            )

    @property
    def result(self) -> dict[str, int]:
        """Player id (as a string, like the record's ``result`` keys) -> value."""
        return {str(p.id): p.value for p in self.players}

    def differences(self, recorded: dict) -> dict[str, tuple[int | None, int | None]]:
        """Players whose value differs from a record's ``result``: id -> (ours, recorded)."""
        if not isinstance(recorded, dict):
            raise ValueError(f"a recorded result must be an object, got {type(recorded).__name__}")
        ours = self.result
        out = {}
        for key in sorted(set(ours) | {str(k) for k in recorded}, key=str):
            theirs = recorded.get(key, recorded.get(_int_or(key)))
            mine = ours.get(key)
            if mine != theirs:
                out[key] = (mine, theirs)
        return out

    def to_dict(self) -> dict:
        return {
            "reason": self.reason,
            "bank": self.bank,
            "bank_broken": self.bank_broken,
            "in_sync": self.in_sync,
            "players": [{**asdict(p), "value": p.value} for p in self.players],
            "result": self.result,
            "notes": list(self.notes),
        }


def _int_or(key: str):
    try:
        return int(key)
    except ValueError:
        return key
