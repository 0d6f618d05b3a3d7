"""Money in an 18xx game: one account per holder, every movement a recorded transfer.

The bank, each player and each company hold cash.  Money only moves between accounts, so the
total is constant; the rulebook's own sources and sinks (a bank that may go negative once it
breaks, money that leaves the game) are accounts too, which keeps the conservation check exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

__all__ = ["Ledger", "Transfer", "InsufficientCash"]


class InsufficientCash(ValueError):  # noqa: N818 - reads as "insufficient cash", a rule breach
    """A holder pays more than it has, on an account that may not go negative."""


@dataclass(frozen=True)
class Transfer:
    """One movement of money: ``amount`` from ``source`` to ``target`` because of ``reason``."""

    source: Hashable
    target: Hashable
    amount: int
    reason: str


@dataclass
class Ledger:
    """Cash of every holder.

    Parameters
    ----------
    balances : dict
        Opening cash per holder.
    may_go_negative : iterable
        Holders whose balance may fall below zero (a broken bank, a sink account).
    keep_history : bool
        Keep every :class:`Transfer` in :attr:`history` (off for fast bot games).
    """

    balances: dict[Hashable, int] = field(default_factory=dict)
    may_go_negative: set[Hashable] = field(default_factory=set)
    keep_history: bool = True
    history: list[Transfer] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.balances = {k: int(v) for k, v in self.balances.items()}
        self.may_go_negative = set(self.may_go_negative)
        self._total = sum(self.balances.values())

    def open(self, holder: Hashable, cash: int = 0, may_go_negative: bool = False) -> None:
        """Add an account; its opening cash joins the game total."""
        if holder in self.balances:
            raise ValueError(f"account {holder!r} already exists")
        self.balances[holder] = int(cash)
        self._total += int(cash)
        if may_go_negative:
            self.may_go_negative.add(holder)

    def cash(self, holder: Hashable) -> int:
        try:
            return self.balances[holder]
        except KeyError:
            raise KeyError(f"no account {holder!r}") from None

    def pay(self, source: Hashable, target: Hashable, amount: int, reason: str = "") -> None:
        """Move ``amount`` (>= 0) from ``source`` to ``target``.

        Raises
        ------
        InsufficientCash
            ``source`` would go negative and is not allowed to; nothing moves then.
        """
        amount = int(amount)
        if amount < 0:
            raise ValueError(f"negative payment {amount} from {source!r} to {target!r}")
        have = self.cash(source)
        self.cash(target)
        if have < amount and source not in self.may_go_negative:
            why = f" for {reason}" if reason else ""
            raise InsufficientCash(f"{source} has {have} and cannot pay {amount}{why}")
        self.balances[source] = have - amount
        self.balances[target] += amount
        if self.keep_history:
            self.history.append(Transfer(source, target, amount, reason))

    def total(self) -> int:
        """The sum of all balances, which no transfer changes."""
        return sum(self.balances.values())

    def check_conserved(self) -> None:
        """Raise ``AssertionError`` if money appeared or vanished outside :meth:`pay`."""
        now = self.total()
        if now != self._total:
            raise AssertionError(f"money not conserved: total {now}, expected {self._total}")

    def holders(self) -> Iterable[Hashable]:
        return self.balances.keys()
