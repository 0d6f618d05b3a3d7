"""Track networks as struct-of-arrays.

A :class:`Network` holds stop nodes (cities, towns, offboards, ports, mines), junctions and the
physical track segments between them.  It is game-agnostic: values are already resolved for the
phase, and everything a title needs beyond that is expressed in :mod:`routing.rules`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

__all__ = [
    "NodeKind",
    "STOP_KINDS",
    "kind_mask",
    "Network",
    "NetworkBuilder",
]


def _strings(names) -> tuple[str, ...]:
    """``names`` as a tuple of ``str`` (a tuple of them already, the usual case, as is:
    the check by ``map`` runs at C speed, converting each name would not)."""
    if type(names) is tuple and set(map(type, names)) <= {str}:
        return names
    return tuple(str(x) for x in names)


class NodeKind(IntEnum):
    """What a node is.  ``JUNCTION`` is track only; every other kind is a stop."""

    JUNCTION = 0
    CITY = 1
    TOWN = 2
    OFFBOARD = 3
    PORT = 4
    MINE = 5


#: The dtype of each array field of a Network.
_DTYPES = {
    "node_kind": np.int8,
    "node_value": np.int32,
    "node_hex": np.int32,
    "node_terminal": np.bool_,
    "node_group": np.int32,
    "seg_u": np.int32,
    "seg_v": np.int32,
    "seg_side_u": np.int32,
    "seg_side_v": np.int32,
    "seg_hex": np.int32,
}
#: The node fields Network.with_nodes may replace.
_NODE_FIELDS = ("node_kind", "node_value", "node_terminal", "node_group")

STOP_KINDS = (NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT, NodeKind.MINE)
#: the node kinds are the numbers from JUNCTION to MINE, without gaps
_KIND_RANGE = (min(NodeKind), max(NodeKind))
assert len(NodeKind) == _KIND_RANGE[1] - _KIND_RANGE[0] + 1
assert _KIND_RANGE[0] == 0  # Network._fields_in_range checks the kinds as unsigned


def kind_mask(*kinds: NodeKind | int) -> int:
    """Bit mask with bit ``k`` set for every kind ``k`` given."""
    mask = 0
    for kind in kinds:
        mask |= 1 << int(kind)
    return mask


@dataclass(frozen=True, eq=False)
class Network:
    """An immutable track network.

    Parameters
    ----------
    node_kind : int8 array, one :class:`NodeKind` per node.
    node_value : int32 array, revenue of each stop (0 for junctions), resolved for the phase.
    node_hex : int32 array, index into ``hex_names`` of the hex holding the node.
    node_terminal : bool array, the node may only be the first or last stop of a route
        (offboards, cities tokened out by other companies).
    node_group : int32 array, group id or -1.  A route visits at most one node of a group
        (Chicago's four cities, Hamburg's stations); :class:`routing.Rules` may widen that
        limit to the whole route set.
    seg_u, seg_v : int32 arrays, the two nodes a physical track segment joins.
    seg_side_u, seg_side_v : int32 arrays, the *side label* of each segment end.  A route passing
        through a junction must enter and leave by segments whose side labels at that junction
        differ; that is how "no back-tracking at a junction" is expressed.  Side labels at stops
        are ignored.
    seg_hex : int32 array, index into ``hex_names`` of the hex the segment lies in.
    node_names, hex_names : labels for reports.
    """

    node_kind: np.ndarray
    node_value: np.ndarray
    node_hex: np.ndarray
    node_terminal: np.ndarray
    node_group: np.ndarray
    seg_u: np.ndarray
    seg_v: np.ndarray
    seg_side_u: np.ndarray
    seg_side_v: np.ndarray
    seg_hex: np.ndarray
    node_names: tuple[str, ...] = ()
    hex_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in _DTYPES:
            self._set_array(name, getattr(self, name))
        n = len(self.node_kind)
        if not self.node_names:
            object.__setattr__(self, "node_names", tuple(f"n{i}" for i in range(n)))
        else:
            object.__setattr__(self, "node_names", _strings(self.node_names))
        if not self.hex_names:
            n_hex = int(max(self.node_hex.max(initial=-1), self.seg_hex.max(initial=-1))) + 1
            object.__setattr__(self, "hex_names", tuple(f"h{i}" for i in range(n_hex)))
        else:
            object.__setattr__(self, "hex_names", _strings(self.hex_names))
        self._check()

    def _set_array(self, name: str, raw) -> None:
        """Set field ``name`` to a read-only copy of ``raw`` in the field's dtype."""
        dtype = _DTYPES[name]
        try:
            arr = np.array(raw, dtype=dtype, order="C", copy=True)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"network field {name!r}: cannot convert to {dtype}: {exc}") from None
        if arr.ndim != 1:
            raise ValueError(f"network field {name!r} must be one-dimensional, got {arr.shape}")
        arr.setflags(write=False)
        object.__setattr__(self, name, arr)

    def with_nodes(self, **fields) -> Network:
        """This network with some of ``node_kind``, ``node_value``, ``node_terminal`` and
        ``node_group`` replaced, checked as the constructor checks; the other fields are
        this network's (immutable, so shared, and the names already made strings)."""
        other = copy.copy(self)
        for name, raw in fields.items():
            if name not in _NODE_FIELDS:
                raise TypeError(f"with_nodes() cannot replace {name!r}")
            other._set_array(name, raw)
        # the segments are this network's, checked when it was made: only the node fields
        # need a look, unless one is wrong (then the full check names the first offender)
        if not (
            all(len(getattr(other, name)) == self.n_nodes for name in fields)
            and other._nodes_in_range()
        ):
            other._check()
        return other

    # ------------------------------------------------------------------ validation
    def _check(self) -> None:
        n = self.n_nodes
        if n == 0:
            raise ValueError("network is empty: it has no nodes")
        for name in ("node_value", "node_hex", "node_terminal", "node_group"):
            if len(getattr(self, name)) != n:
                raise ValueError(
                    f"network field {name!r} has {len(getattr(self, name))} entries, "
                    f"expected one per node ({n})"
                )
        m = self.n_segments
        for name in ("seg_v", "seg_side_u", "seg_side_v", "seg_hex"):
            if len(getattr(self, name)) != m:
                raise ValueError(
                    f"network field {name!r} has {len(getattr(self, name))} entries, "
                    f"expected one per segment ({m})"
                )
        if len(self.node_names) != n:
            raise ValueError(f"node_names has {len(self.node_names)} entries, expected {n}")
        if self._fields_in_range():
            return
        # on a failure, the first offending item is named
        names = self.node_names
        bad = np.flatnonzero((self.node_kind < _KIND_RANGE[0]) | (self.node_kind > _KIND_RANGE[1]))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"node {names[i]!r} has unknown kind {int(self.node_kind[i])}")
        bad = np.flatnonzero(self.node_value < 0)
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"node {names[i]!r} has negative value {int(self.node_value[i])}")
        n_hex = len(self.hex_names)
        bad = np.flatnonzero((self.node_hex < 0) | (self.node_hex >= n_hex))
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"node {names[i]!r} refers to unknown hex index {int(self.node_hex[i])}"
            )
        bad = np.flatnonzero(self.node_group < -1)
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"node {names[i]!r} has invalid group id {int(self.node_group[i])}")
        u, v = self.seg_u, self.seg_v
        bad = np.flatnonzero((u < 0) | (u >= n) | (v < 0) | (v >= n) | (u == v)
                             | (self.seg_hex < 0) | (self.seg_hex >= n_hex))  # fmt: skip
        if bad.size:
            j = int(bad[0])
            for end in (int(u[j]), int(v[j])):
                if not 0 <= end < n:
                    raise ValueError(f"segment {j} refers to node {end}, which does not exist")
            if u[j] == v[j]:
                raise ValueError(f"segment {j} is a loop on node {names[int(u[j])]!r}")
            raise ValueError(f"segment {j} refers to unknown hex index {int(self.seg_hex[j])}")

    def _fields_in_range(self) -> bool:
        """Are all node kinds, values, hexes and groups and all segment ends and hexes in
        range?  One numpy reduction per field (a range from 0 is one bound on the field
        read as unsigned, where a negative number is huge), as few calls as the small
        arrays of a game's network allow; :meth:`_check` looks for the first offender only
        where something is out of range."""
        if not self._nodes_in_range():
            return False
        if not self.n_segments:
            return True
        n, n_hex = self.n_nodes, len(self.hex_names)
        u, v = self.seg_u, self.seg_v
        return bool(
            u.view(np.uint32).max() < n
            and v.view(np.uint32).max() < n
            and self.seg_hex.view(np.uint32).max() < n_hex
            and not (u == v).any()
        )

    def _nodes_in_range(self) -> bool:
        """The node half of :meth:`_fields_in_range`."""
        return bool(
            self.node_kind.view(np.uint8).max() <= _KIND_RANGE[1]
            and self.node_value.min() >= 0
            and self.node_group.min() >= -1
            and self.node_hex.view(np.uint32).max() < len(self.hex_names)
        )

    # ------------------------------------------------------------------ accessors
    @property
    def n_nodes(self) -> int:
        return len(self.node_kind)

    @property
    def n_segments(self) -> int:
        return len(self.seg_u)

    @property
    def n_hexes(self) -> int:
        return len(self.hex_names)

    @property
    def n_groups(self) -> int:
        return int(self.node_group.max(initial=-1)) + 1

    def is_stop(self, node: int) -> bool:
        return int(self.node_kind[node]) != NodeKind.JUNCTION

    def node_index(self, name: str) -> int:
        """Index of the node called ``name``."""
        try:
            return self.node_names.index(name)
        except ValueError:
            raise ValueError(f"no node named {name!r} in the network") from None

    def to_networkx(self):
        """The network as a :class:`networkx.MultiGraph` for inspection.

        Nodes carry ``kind``, ``value``, ``hex``, ``terminal``, ``group`` and ``name``;
        edges are keyed by segment id and carry ``hex`` and the side labels.
        """
        import networkx as nx

        g = nx.MultiGraph()
        for i in range(self.n_nodes):
            g.add_node(
                i,
                kind=NodeKind(int(self.node_kind[i])).name.lower(),
                value=int(self.node_value[i]),
                hex=self.hex_names[int(self.node_hex[i])],
                terminal=bool(self.node_terminal[i]),
                group=int(self.node_group[i]),
                name=self.node_names[i],
            )
        for j in range(self.n_segments):
            u, v = int(self.seg_u[j]), int(self.seg_v[j])
            g.add_edge(
                u,
                v,
                key=j,
                hex=self.hex_names[int(self.seg_hex[j])],
                side={u: int(self.seg_side_u[j]), v: int(self.seg_side_v[j])},
            )
        return g


@dataclass
class NetworkBuilder:
    """Incremental construction of a :class:`Network`.

    Examples
    --------
    >>> b = NetworkBuilder()
    >>> a = b.add_stop(NodeKind.CITY, 20, hex="A1")
    >>> c = b.add_stop(NodeKind.CITY, 30, hex="A3")
    >>> j = b.add_junction(hex="A2")
    >>> _ = b.add_segment(a, j, hex="A1", side_v=0)
    >>> _ = b.add_segment(j, c, hex="A3", side_u=1)
    >>> net = b.build()
    """

    _kind: list[int] = field(default_factory=list)
    _value: list[int] = field(default_factory=list)
    _hex: list[int] = field(default_factory=list)
    _terminal: list[bool] = field(default_factory=list)
    _group: list[int] = field(default_factory=list)
    _names: list[str] = field(default_factory=list)
    _seg: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    _hex_index: dict[str, int] = field(default_factory=dict)

    def hex_id(self, hex: str | int) -> int:  # noqa: A002 - "hex" is the domain word
        key = str(hex)
        if key not in self._hex_index:
            self._hex_index[key] = len(self._hex_index)
        return self._hex_index[key]

    def add_stop(
        self,
        kind: NodeKind | int,
        value: int,
        hex: str | int = "",  # noqa: A002
        name: str | None = None,
        terminal: bool | None = None,
        group: int = -1,
    ) -> int:
        """Add a stop; ``terminal`` defaults to True for offboards only."""
        kind = NodeKind(int(kind))
        if kind == NodeKind.JUNCTION:
            raise ValueError("use add_junction for junctions")
        if terminal is None:
            terminal = kind == NodeKind.OFFBOARD
        return self._add(int(kind), int(value), hex, name, bool(terminal), int(group))

    def add_junction(self, hex: str | int = "", name: str | None = None) -> int:  # noqa: A002
        return self._add(int(NodeKind.JUNCTION), 0, hex, name, False, -1)

    def _add(self, kind, value, hex, name, terminal, group) -> int:  # noqa: A002
        idx = len(self._kind)
        self._kind.append(kind)
        self._value.append(value)
        self._hex.append(self.hex_id(hex))
        self._terminal.append(terminal)
        self._group.append(group)
        self._names.append(name if name is not None else f"n{idx}")
        return idx

    def add_segment(
        self,
        u: int,
        v: int,
        hex: str | int = "",  # noqa: A002
        side_u: int | None = None,
        side_v: int | None = None,
    ) -> int:
        """Add a segment; a side left ``None`` gets a label unique to this segment."""
        idx = len(self._seg)
        unique = -(idx + 1)
        self._seg.append(
            (
                int(u),
                int(v),
                unique if side_u is None else int(side_u),
                unique if side_v is None else int(side_v),
                self.hex_id(hex),
            )
        )
        return idx

    def build(self) -> Network:
        segs = np.array(self._seg, dtype=np.int64).reshape(-1, 5)
        names_by_id = [""] * len(self._hex_index)
        for name, i in self._hex_index.items():
            names_by_id[i] = name
        return Network(
            node_kind=np.array(self._kind, dtype=np.int8),
            node_value=np.array(self._value, dtype=np.int64),
            node_hex=np.array(self._hex, dtype=np.int64),
            node_terminal=np.array(self._terminal, dtype=np.bool_),
            node_group=np.array(self._group, dtype=np.int64),
            seg_u=segs[:, 0],
            seg_v=segs[:, 1],
            seg_side_u=segs[:, 2],
            seg_side_v=segs[:, 3],
            seg_hex=segs[:, 4],
            node_names=tuple(self._names),
            hex_names=tuple(names_by_id),
        )
