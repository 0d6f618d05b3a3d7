"""Trains as data: rows of (kinds, pay, visit) plus a few flags.

Every train kind of the seed titles is one :class:`Train`:

===============  =========================================================================
N-train          ``Train.n("4", 4)``: visits at most N stops, all counted
N/M-train        ``Train.n_m("4/6", 4, 6)``: visits at most M stops, counts the best N
N+n-train        ``Train.plus("3+1", 3, 1)``: N stops plus n towns
E-train          ``Train.express("8E", 8)``: skips any stop, counts the best N
D-train          ``Train.unlimited("D")``: every stop, no limit
doubling         ``multiplier=2`` (1812 3D, 2+2GD)
goods train      ``Train.goods("2G", 2)``: ends at a port, scores exactly one mine that no other
                 goods train of the company scores; port and mine do not count towards length
runs twice       ``runs=2``: the route is run (and paid) twice (1842 GEE marker)
===============  =========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .network import NodeKind, kind_mask

__all__ = ["UNLIMITED", "TrainRow", "Train", "PASSENGER_KINDS"]

#: Stand-in for "no limit" on ``pay`` or ``visit``; larger than any route can be.
UNLIMITED = 1 << 20

#: Kinds a passenger train scores by default.
PASSENGER_KINDS = kind_mask(NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT)

_STOP_MASK = kind_mask(
    NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT, NodeKind.MINE
)


@dataclass(frozen=True)
class TrainRow:
    """A counting row.

    Parameters
    ----------
    kinds : int
        Bit mask (see :func:`routing.kind_mask`) of the stop kinds this row takes.
    pay : int
        How many of the stops assigned to this row are counted (the best ones).
    visit : int
        How many stops this row may take at most, counted or not.
    """

    kinds: int
    pay: int
    visit: int


@dataclass(frozen=True)
class Train:
    """A train type.

    Parameters
    ----------
    name : str
        Display name, e.g. ``"4/6"``.
    rows : tuple of TrainRow
        Every visited stop (outside ``designated_kind``) is either skipped, which needs its
        kind in ``skip``, or assigned to a row that takes its kind.  A train with several
        rows must have ``pay == visit`` in each row.
    skip : int
        Kind mask of stops the train may pass without counting them towards anything.
    multiplier : int
        The route's value, bonuses included, is multiplied by this (doubling trains).
    runs : int
        How often the route is run and paid (2 for a train that runs twice).
    end_kinds : int
        If non-zero, at least one end of the route must be of one of these kinds.
    designated_kind : int
        If non-zero, the route must visit a node of these kinds and scores exactly one of
        them; the scored nodes of a company's trains must be distinct.  Such nodes never
        count towards the rows.
    min_stops : int
        Fewest stops a route must visit.
    """

    name: str
    rows: tuple[TrainRow, ...]
    skip: int = kind_mask(NodeKind.MINE)
    multiplier: int = 1
    runs: int = 1
    end_kinds: int = 0
    designated_kind: int = 0
    min_stops: int = 2
    meta: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        self.check()

    # ------------------------------------------------------------------ constructors
    @classmethod
    def n(cls, name: str, n: int, kinds: int = PASSENGER_KINDS, **kw) -> Train:
        """N-train: at most ``n`` stops, all counted."""
        return cls(name, (TrainRow(kinds, n, n),), **kw)

    @classmethod
    def n_m(cls, name: str, pay: int, visit: int, kinds: int = PASSENGER_KINDS, **kw) -> Train:
        """N/M-train: visits at most ``visit`` stops and counts the best ``pay``."""
        return cls(name, (TrainRow(kinds, pay, visit),), **kw)

    @classmethod
    def plus(
        cls,
        name: str,
        n: int,
        extra: int,
        kinds: int = PASSENGER_KINDS,
        extra_kinds: int = kind_mask(NodeKind.TOWN),
        **kw,
    ) -> Train:
        """N+n-train: ``n`` stops of ``kinds`` plus ``extra`` stops of ``extra_kinds``."""
        return cls(name, (TrainRow(kinds, n, n), TrainRow(extra_kinds, extra, extra)), **kw)

    @classmethod
    def express(cls, name: str, n: int, kinds: int = PASSENGER_KINDS, **kw) -> Train:
        """E-train: may skip any stop, counts the best ``n``."""
        kw.setdefault("skip", _STOP_MASK)
        return cls(name, (TrainRow(kinds, n, UNLIMITED),), **kw)

    @classmethod
    def unlimited(cls, name: str = "D", kinds: int = PASSENGER_KINDS, **kw) -> Train:
        """D-train: any number of stops, all counted."""
        return cls(name, (TrainRow(kinds, UNLIMITED, UNLIMITED),), **kw)

    @classmethod
    def goods(
        cls,
        name: str,
        n: int,
        extra: int = 0,
        kinds: int = kind_mask(NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD),
        extra_kinds: int = kind_mask(NodeKind.TOWN),
        **kw,
    ) -> Train:
        """Goods train: ends at a port and scores one mine; neither counts towards length."""
        rows = [TrainRow(kinds, n, n)]
        if extra:
            rows.append(TrainRow(extra_kinds, extra, extra))
        rows.append(TrainRow(kind_mask(NodeKind.PORT), UNLIMITED, UNLIMITED))
        kw.setdefault("skip", kind_mask(NodeKind.TOWN))
        kw.setdefault("end_kinds", kind_mask(NodeKind.PORT))
        kw.setdefault("designated_kind", kind_mask(NodeKind.MINE))
        return cls(name, tuple(rows), **kw)

    def with_(self, **changes) -> Train:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    # ------------------------------------------------------------------ validation
    def check(self) -> None:
        where = f"train {self.name!r}"
        if not self.rows:
            raise ValueError(f"{where} has no counting rows")
        for i, row in enumerate(self.rows):
            if row.pay <= 0 or row.visit <= 0:
                raise ValueError(
                    f"{where} row {i} has zero stops (pay={row.pay}, visit={row.visit})"
                )
            if row.pay > row.visit:
                raise ValueError(
                    f"{where} row {i} pays {row.pay} stops but visits only {row.visit}"
                )
            if row.kinds <= 0 or row.kinds & ~_STOP_MASK:
                raise ValueError(f"{where} row {i} has an invalid kind mask {row.kinds}")
            if len(self.rows) > 1 and row.pay != row.visit:
                raise ValueError(
                    f"{where}: a train with several rows must pay every stop it visits "
                    f"(row {i} pays {row.pay} of {row.visit})"
                )
        if len(self.rows) > 3:
            raise ValueError(f"{where} has {len(self.rows)} rows; at most 3 are supported")
        for name in ("skip", "end_kinds", "designated_kind"):
            mask = getattr(self, name)
            if mask < 0 or mask & ~_STOP_MASK:
                raise ValueError(f"{where} has an invalid {name} mask {mask}")
        if self.designated_kind and any(r.kinds & self.designated_kind for r in self.rows):
            raise ValueError(f"{where}: designated kinds may not also be counted by a row")
        if self.multiplier < 1 or self.runs < 1:
            raise ValueError(f"{where} needs multiplier >= 1 and runs >= 1")
        if self.min_stops < 1:
            raise ValueError(f"{where} needs min_stops >= 1")

    @property
    def max_counted(self) -> int:
        """Most stops a route of this train can count (designated node included)."""
        return sum(min(r.pay, UNLIMITED) for r in self.rows) + (1 if self.designated_kind else 0)
