"""A routing problem: one company's trains on one network under one set of rules."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .network import Network, NodeKind
from .rules import GroupScope, Rules
from .trains import Train

__all__ = ["Problem"]

#: NodeKind.JUNCTION as a plain int (an enum member's lookup costs a call in the loops below)
_JUNCTION = int(NodeKind.JUNCTION)

#: The network's arrays: all the optimum depends on besides the trains and the rules.
_NETWORK_ARRAYS = ("node_kind", "node_value", "node_hex", "node_terminal", "node_group",
                   "seg_u", "seg_v", "seg_side_u", "seg_side_v", "seg_hex")  # fmt: skip


@dataclass(frozen=True, eq=False)
class Problem:
    """What to optimise.

    Parameters
    ----------
    network : Network
        The track the company may use (values resolved for the phase).
    trains : tuple of Train
        The company's trains, each running at most one route.
    rules : Rules
        Tokens, company-specific values and bonuses.
    label : str
        Free text for reports.
    """

    network: Network
    trains: tuple[Train, ...]
    rules: Rules = field(default_factory=Rules)
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "trains", tuple(self.trains))
        self.check()

    def fingerprint(self) -> bytes:
        """A digest of all the optimum depends on: the network's arrays, the trains and the
        rules, but not the names or the label.

        Problems with equal fingerprints have the same optimum over the same node and
        segment ids, so a caller that solves many near-identical problems (the candidate
        moves of an analysis) may solve each fingerprint once.
        """
        digest = hashlib.blake2b(digest_size=20)
        for name in _NETWORK_ARRAYS:
            array = getattr(self.network, name)
            digest.update(f"{name}:{array.dtype.str}:{len(array)};".encode())
            digest.update(array.tobytes())
        digest.update(repr((self.trains, self.rules)).encode())
        return digest.digest()

    def check(self) -> None:
        """Raise ``ValueError`` naming the first inconsistent item."""
        net = self.network
        if not isinstance(net, Network):
            raise ValueError(f"problem network must be a routing.Network, got {type(net).__name__}")
        if not isinstance(self.rules, Rules):
            raise ValueError(
                f"problem rules must be routing.Rules, got {type(self.rules).__name__}"
            )
        for i, train in enumerate(self.trains):
            if not isinstance(train, Train):
                raise ValueError(f"train {i} is not a routing.Train: {train!r}")
            train.check()
        n = net.n_nodes
        kinds = net.node_kind.tolist()  # read node by node below, faster from a list
        for where, node in self.rules.referenced_nodes():
            if not 0 <= node < n:
                raise ValueError(f"{where} refers to node {node}, which does not exist")
        for node, amount in self.rules.node_bonus:
            if amount < 0:
                raise ValueError(f"node_bonus for node {net.node_names[node]!r} is negative")
            if kinds[node] == _JUNCTION:
                raise ValueError(f"node_bonus names junction {net.node_names[node]!r}")
        for group, scope in self.rules.group_scope:
            if scope not in (GroupScope.ROUTE, GroupScope.SET):
                raise ValueError(f"group {group} has unknown scope {scope!r}")
            if not 0 <= group < net.n_groups:
                raise ValueError(f"group_scope names group {group}, which no node belongs to")
        for bonus in (*self.rules.end_pair_bonuses, *self.rules.end_token_bonuses):
            pairs = bonus.amounts if hasattr(bonus, "amounts") else (*bonus.a, *bonus.b)
            for node, amount in pairs:
                if amount < 0:
                    raise ValueError(f"bonus {bonus.name!r} has a negative amount at node {node}")
        for bonus in self.rules.set_pair_bonuses:
            if bonus.amount < 0:
                raise ValueError(f"bonus {bonus.name!r} has a negative amount")
        for bonus in self.rules.longest_route_bonuses:
            if bonus.per_stop < 0:
                raise ValueError(f"bonus {bonus.name!r} has a negative per-stop amount")
        for bonus in self.rules.bonus_routes:
            if bonus.per_hex < 0:
                raise ValueError(f"bonus route {bonus.name!r} has a negative per-hex amount")
        for hex_id in self.rules.hex_once_exempt:
            if not 0 <= hex_id < net.n_hexes:
                raise ValueError(f"hex_once_exempt names hex index {hex_id}, which does not exist")
        for i, (_, k) in enumerate(self.rules.min_counted_with):
            if k < 0:
                raise ValueError(f"min_counted_with[{i}] needs a non-negative count, got {k}")
        for node in self.rules.must_visit:
            if kinds[node] == _JUNCTION:
                raise ValueError(f"must_visit names junction {net.node_names[node]!r}")
        if self.rules.token_nodes is not None:
            for node in self.rules.token_nodes:
                if kinds[node] == _JUNCTION:
                    raise ValueError(f"token_nodes names junction {net.node_names[node]!r}")
