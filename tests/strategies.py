"""Hypothesis strategies for random routing problems.

The three solvers (numba search, CP-SAT model, brute-force oracle in :mod:`tests.naive`) are
tested against each other on these.  Every strategy draws from small, shrinkable pieces so a
disagreement shrinks to a readable reproducer (see :mod:`routing.instance`).

Coverage, by design:

* :func:`networks`: every :class:`~routing.NodeKind`; junctions with Lawson-style unique side
  labels, hex-edge style two-label sides and random labels from a small set; parallel
  segments; terminal stops (offboards and tokened-out cities); route-scoped groups; nodes
  sharing a hex (two-city hexes) and track-only hexes; with ``hex_reentry``, hexes a route
  can leave and re-enter (crossover tiles, track through a city's tile).
* :func:`trains`: N, N/M, N+n, express, unlimited (D), goods, fully custom rows (up to three
  rows, arbitrary skip / end-kind / designated masks, ``min_stops`` 1-3), each optionally
  doubled (``multiplier=2``) or run twice (``runs=2``).
* :func:`rules_for`: token nodes, node bonuses, group scopes ``route`` and ``set``, forbidden
  end pairs, end-pair bonuses (counted or not), set-pair bonuses (counted or not), end-token
  bonuses, longest-route bonuses, bonus routes and must-visit nodes.
* :func:`problems` also plans ``token_counted``, ``designated_keys``, ``hex_once`` (with
  exempt hexes) and ``min_counted_with`` (see :data:`EXTRA_CHANCES`), each with trains or a
  network it can bind on.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

from routing import (
    UNLIMITED,
    BonusRoute,
    EndPairBonus,
    EndTokenBonus,
    GroupScope,
    LongestRouteBonus,
    Network,
    NodeKind,
    Problem,
    Rules,
    SetPairBonus,
    Train,
    TrainRow,
    kind_mask,
)

__all__ = ["networks", "trains", "rules_for", "problems", "STOP_KIND_LIST", "EXTRA_CHANCES"]

STOP_KIND_LIST = [NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT, NodeKind.MINE]

#: Node kinds weighted towards the common ones; every kind appears.
_KIND_CHOICES = [
    NodeKind.CITY,
    NodeKind.CITY,
    NodeKind.CITY,
    NodeKind.TOWN,
    NodeKind.TOWN,
    NodeKind.JUNCTION,
    NodeKind.JUNCTION,
    NodeKind.OFFBOARD,
    NodeKind.PORT,
    NodeKind.MINE,
]

#: Round values make ties (several optima) common, odd ones make them rare; both matter.
_values = st.sampled_from([0, 10, 20, 30, 40, 50, 60, 80, 100, 5, 15, 25, 35, 45, 55, 75, 95])

#: Side-label styles of a junction.
_UNIQUE, _HEX_EDGE, _RANDOM = "unique", "hex-edge", "random"


@functools.cache
def _ints(lo: int, hi: int) -> st.SearchStrategy[int]:
    """``st.integers(lo, hi)``, built once: building strategies costs more than drawing."""
    return st.integers(lo, hi)


def _chance(draw, percent: int) -> bool:
    """True with roughly ``percent`` % probability; shrinks towards False."""
    return draw(_ints(0, 99)) >= 100 - percent


# --------------------------------------------------------------------------------- networks
@functools.cache
def _hex_joins(n: int, least: int, most: int) -> st.SearchStrategy[list[tuple[int, int]]]:
    """``(i, j)`` pairs: node ``i`` moves into the hex of an earlier node (``min(j, i - 1)``)."""
    pair = st.tuples(st.integers(1, n - 1), st.integers(0, n - 2))
    return st.lists(pair, min_size=least, max_size=most)


@st.composite
def networks(
    draw,
    min_nodes: int = 4,
    max_nodes: int = 9,
    min_segments: int = 5,
    max_segments: int = 14,
    max_groups: int = 2,
    require_kinds=(),
    hex_reentry: bool = False,
) -> Network:
    """A small random track network.

    Parameters
    ----------
    min_nodes, max_nodes : int
        Node count range (at least two nodes are stops).
    min_segments, max_segments : int
        Segment count range; the network starts from a random spanning tree (so it is
        connected) and adds extra segments, some parallel to existing ones.
    max_groups : int
        Most groups; each has two or three stops.
    require_kinds : sequence of NodeKind
        Stop kinds that must appear, each at least as often as it is listed (a goods train
        needs a port and a mine; two goods trains sharing a mine key want two mines).
    hex_reentry : bool
        Draw hexes so that routes can leave a hex and come back (for ``Rules.hex_once``):
        more nodes share a hex, several segments share a plain-track hex (a crossover tile)
        and segments may lie in the hex of a node they do not touch (track through a city
        tile).  Off, hexes are drawn as they always were.
    """
    n = draw(_ints(min_nodes, max_nodes))
    kinds = draw(st.lists(st.sampled_from(_KIND_CHOICES), min_size=n, max_size=n))
    fixed: set[int] = set()
    for kind in require_kinds:
        if kind in kinds:
            # Nodes already of the kind satisfy one requirement each (in index order).
            have = [i for i, k in enumerate(kinds) if k == kind and i not in fixed]
            if have:
                fixed.add(have[0])
                continue
        if len(fixed) < n:
            i = draw(st.sampled_from(sorted(set(range(n)) - fixed)))
            kinds[i] = kind
            fixed.add(i)
    stops = [i for i, k in enumerate(kinds) if k != NodeKind.JUNCTION]
    for i in range(n):
        if len(stops) >= 2:
            break
        if kinds[i] == NodeKind.JUNCTION:
            kinds[i] = NodeKind.CITY
            stops = sorted({*stops, i})
    values = [0 if k == NodeKind.JUNCTION else draw(_values) for k in kinds]

    # Draws are batched (one integer holding many small choices) where that keeps the
    # strategy readable: hypothesis spends far more time per draw than the oracle per route.

    # Hexes: each node opens its own hex, then a few nodes join an earlier node's hex
    # (two-city hexes, a town beside a city, a junction inside a city hex).
    node_hex = list(range(n))
    joins = draw(_hex_joins(n, 2, n // 2 + 2) if hex_reentry else _hex_joins(n, 0, 3))
    for i, j in joins:
        node_hex[i] = node_hex[min(j, i - 1)]
    n_hex = n

    # Offboards are terminal and other stops are not, except for up to two flipped stops
    # (a city tokened out by other companies, an offboard one may run through).
    terminal = [k == NodeKind.OFFBOARD for k in kinds]
    for i in draw(st.lists(st.sampled_from(stops), max_size=2, unique=True)):
        terminal[i] = not terminal[i]

    group = [-1] * n
    n_groups = draw(_ints(0, max_groups)) if len(stops) >= 3 else 0
    free = list(stops)
    for g in range(n_groups):
        if len(free) < 2:
            break
        members = draw(st.lists(st.sampled_from(free), min_size=2, max_size=3, unique=True))
        for m in members:
            group[m] = g
            free.remove(m)

    # Segments: a random spanning tree (connected), then extras, some parallel to earlier ones.
    pairs = [(i, draw(_ints(0, i - 1))) for i in range(1, n)]
    m = draw(_ints(max(min_segments, n - 1), max(max_segments, n - 1)))
    while len(pairs) < m:
        if _chance(draw, 25):
            pairs.append(pairs[draw(_ints(0, len(pairs) - 1))])  # parallel track
        else:
            u = draw(_ints(0, n - 1))
            v = draw(_ints(0, n - 2))
            pairs.append((u, v if v < u else v + 1))

    style = {
        i: draw(st.sampled_from([_UNIQUE, _HEX_EDGE, _RANDOM]))
        for i in range(n)
        if kinds[i] == NodeKind.JUNCTION
    }
    edge_bits = draw(_ints(0, 2 ** (2 * m) - 1))  # one bit per segment end
    digits = draw(_ints(0, 3 ** (2 * m) - 1))  # one base-3 digit per segment end
    hex_digits = draw(_ints(0, 3**m - 1))  # one base-3 digit per segment
    if hex_reentry:
        # Per segment, one more choice: 0 keeps the choice above, 1 puts the segment in the
        # hex of a node it may not touch (``through``), 2 reuses the previous plain hex.
        reentry = draw(st.lists(st.sampled_from([0, 1, 1, 2]), min_size=m, max_size=m))
        through = draw(st.lists(_ints(0, n - 1), min_size=m, max_size=m))

    def side(node: int, seg: int, end: int) -> int:
        k = 2 * seg + end
        s = style.get(node)
        if s == _UNIQUE:
            return 1000 + k  # Lawson: any two segments may be chained
        if s == _HEX_EDGE:
            return edge_bits >> k & 1  # two sides: a route must cross over
        return digits // 3**k % 3  # also what stops get, where labels must be ignored

    seg_u, seg_v, side_u, side_v, seg_hex = [], [], [], [], []
    for j, (u, v) in enumerate(pairs):
        seg_u.append(u)
        seg_v.append(v)
        side_u.append(side(u, j, 0))
        side_v.append(side(v, j, 1))
        choice = hex_digits // 3**j % 3
        extra = reentry[j] if hex_reentry else 0
        if extra == 1:
            seg_hex.append(node_hex[through[j]])  # track through another node's tile
        elif extra == 2 and n_hex > n:
            seg_hex.append(n_hex - 1)  # a second track in the last plain hex (crossover)
        elif choice == 2:
            seg_hex.append(n_hex)  # a plain-track hex between the two
            n_hex += 1
        else:
            seg_hex.append(node_hex[u if choice == 0 else v])

    return Network(
        node_kind=[int(k) for k in kinds],
        node_value=values,
        node_hex=node_hex,
        node_terminal=terminal,
        node_group=group,
        seg_u=seg_u,
        seg_v=seg_v,
        seg_side_u=side_u,
        seg_side_v=side_v,
        seg_hex=seg_hex,
    )


# --------------------------------------------------------------------------------- trains
_TRAIN_KINDS = ["n", "n_m", "plus", "express", "unlimited", "goods", "custom"]


@functools.cache
def _mask_strategy(kinds: tuple, min_size: int) -> st.SearchStrategy[int]:
    return st.sets(st.sampled_from(kinds), min_size=min_size).map(lambda ks: kind_mask(*ks))


def _mask(draw, kinds, min_size: int = 1) -> int:
    """A kind mask over some of ``kinds`` (at least ``min_size`` of them)."""
    return draw(_mask_strategy(tuple(kinds), min_size))


@st.composite
def trains(draw, kinds=tuple(_TRAIN_KINDS)) -> Train:
    """A train of any kind the data model supports.

    Parameters
    ----------
    kinds : sequence of str
        Which constructors to draw from: ``"n"``, ``"n_m"``, ``"plus"``, ``"express"``,
        ``"unlimited"``, ``"goods"``, ``"custom"`` (random rows and masks).
    """
    kind = draw(st.sampled_from(list(kinds)))
    if kind == "n":
        n = draw(_ints(2, 5))  # a 1-train needs min_stops=1 to run (custom covers it)
        train = Train.n(str(n), n)
    elif kind == "n_m":
        pay = draw(_ints(1, 4))
        visit = pay + draw(_ints(1, 3))
        train = Train.n_m(f"{pay}/{visit}", pay, visit)
    elif kind == "plus":
        n, extra = draw(_ints(1, 4)), draw(_ints(1, 2))
        train = Train.plus(f"{n}+{extra}", n, extra)
    elif kind == "express":
        n = draw(_ints(1, 8))
        train = Train.express(f"{n}E", n)
    elif kind == "unlimited":
        train = Train.unlimited("D")
    elif kind == "goods":
        n, extra = draw(_ints(1, 3)), draw(_ints(0, 1))
        train = Train.goods(f"{n}+{extra}G" if extra else f"{n}G", n, extra)
    else:
        train = _custom_train(draw)
    if _chance(draw, 15):
        train = train.with_(name=train.name + "x2", multiplier=2)
    if _chance(draw, 10):
        train = train.with_(name=train.name + "r2", runs=2)
    if kind != "custom" and _chance(draw, 10):
        train = train.with_(min_stops=draw(st.sampled_from([1, 3])))
    return train


def _skipping_train(draw, kinds) -> Train:
    """A short N/M or express train (``kinds``), which leaves stops uncounted on the small
    networks: the train ``token_counted`` binds for."""
    pay = draw(_ints(1, 3))
    if draw(st.sampled_from(kinds)) == "n_m":
        visit = pay + draw(_ints(1, 3))
        return Train.n_m(f"{pay}/{visit}", pay, visit)
    return Train.express(f"{pay}E", pay)


def _custom_train(draw) -> Train:
    designated = draw(
        st.sampled_from([0, 0, 0, kind_mask(NodeKind.MINE), kind_mask(NodeKind.PORT)])
    )
    usable = [k for k in STOP_KIND_LIST if not designated >> int(k) & 1]
    n_rows = draw(_ints(1, 3))
    rows = []
    for _ in range(n_rows):
        kinds = _mask(draw, usable)
        if n_rows == 1:
            pay = draw(st.sampled_from([1, 2, 3, 4, UNLIMITED]))
            visit = (
                pay
                if pay == UNLIMITED
                else draw(st.sampled_from([pay, pay + 1, pay + 2, UNLIMITED]))
            )
        else:
            pay = visit = draw(st.sampled_from([1, 2, 3, UNLIMITED]))
        rows.append(TrainRow(kinds, pay, visit))
    return Train(
        name="C",
        rows=tuple(rows),
        skip=_mask(draw, STOP_KIND_LIST, min_size=0),
        end_kinds=_mask(draw, STOP_KIND_LIST, min_size=0) if _chance(draw, 30) else 0,
        designated_kind=designated,
        min_stops=draw(_ints(1, 3)),
    )


# --------------------------------------------------------------------------------- rules
#: Rules that only bind with suitable trains or hexes, so :func:`problems` decides on them
#: before drawing those, with roughly these chances (percent).
TOKEN_COUNTED, DESIGNATED_KEYS, HEX_ONCE, MIN_COUNTED_WITH = (
    "token_counted",
    "designated_keys",
    "hex_once",
    "min_counted_with",
)
EXTRA_CHANCES = {TOKEN_COUNTED: 20, DESIGNATED_KEYS: 15, HEX_ONCE: 20, MIN_COUNTED_WITH: 20}


def _draw_extras(draw) -> frozenset[str]:
    """Which of :data:`EXTRA_CHANCES` a problem gets; each shrinks to absent."""
    return frozenset(name for name, pct in EXTRA_CHANCES.items() if _chance(draw, pct))


@st.composite
def rules_for(
    draw, network: Network, extras: frozenset[str] | None = None, designated_kind: int = 0
) -> Rules:
    """Random :class:`~routing.Rules` referring to ``network``'s nodes and groups.

    Each vocabulary item is present with a modest probability and shrinks to absent.
    Node sets are drawn from the stops (junctions are never useful there).

    Parameters
    ----------
    network : routing.Network
    extras : frozenset of str, optional
        Which of ``token_counted``, ``designated_keys``, ``hex_once`` and
        ``min_counted_with`` to include (see :data:`EXTRA_CHANCES`); drawn here if ``None``.
        :func:`problems` chooses them first so that the trains and network let them bind.
    designated_kind : int
        Kind mask of the nodes the trains designate (``designated_keys`` groups those);
        ``0`` means mines.
    """
    stops = [i for i in range(network.n_nodes) if network.node_kind[i] != NodeKind.JUNCTION]
    node = st.sampled_from(stops)
    nodes = st.frozensets(node, min_size=1, max_size=3)
    amounts = st.dictionaries(node, st.sampled_from([10, 20, 30, 50]), min_size=1, max_size=3)
    if extras is None:
        extras = _draw_extras(draw)

    kw: dict = {}
    if TOKEN_COUNTED in extras:
        kw["token_counted"] = True
        kw["token_nodes"] = _counted_tokens(draw, network, stops)
    elif _chance(draw, 35):
        kw["token_nodes"] = draw(
            st.frozensets(node, min_size=0 if _chance(draw, 5) else 1, max_size=3)
        )
    if DESIGNATED_KEYS in extras:
        kw["designated_keys"] = _designated_keys(draw, network, designated_kind)
    if HEX_ONCE in extras:
        kw["hex_once"] = True
        kw["hex_once_exempt"] = _hex_once_exempt(draw, network)
    if MIN_COUNTED_WITH in extras:
        kw["min_counted_with"] = _min_counted_with(draw, network, stops)
    if _chance(draw, 30):
        kw["node_bonus"] = draw(amounts)
    if network.n_groups:
        kw["group_scope"] = {
            g: draw(st.sampled_from([GroupScope.ROUTE, GroupScope.SET]))
            for g in range(network.n_groups)
        }
    if _chance(draw, 20):
        kw["forbidden_end_pairs"] = draw(st.lists(st.tuples(nodes, nodes), min_size=1, max_size=2))
    if _chance(draw, 25):
        kw["end_pair_bonuses"] = [
            EndPairBonus.make(
                draw(amounts), draw(amounts), name=f"ew{i}", counted=draw(st.booleans())
            )
            for i in range(draw(_ints(1, 2)))
        ]
    if _chance(draw, 25):
        kw["set_pair_bonuses"] = [
            SetPairBonus.make(
                draw(nodes),
                draw(nodes),
                draw(st.sampled_from([10, 20, 40])),
                name=f"pair{i}",
                counted=draw(st.booleans()),
            )
            for i in range(draw(_ints(1, 2)))
        ]
    if _chance(draw, 20):
        kw["end_token_bonuses"] = [
            EndTokenBonus.make(draw(amounts), min_other_stops=draw(_ints(0, 3)), name="token20")
        ]
    if _chance(draw, 25):
        kw["longest_route_bonuses"] = [
            LongestRouteBonus(
                per_stop=draw(st.sampled_from([5, 10, 20])),
                kinds=_mask(draw, STOP_KIND_LIST),
                name="mail",
            )
        ]
    if _chance(draw, 25):
        kw["bonus_routes"] = [
            BonusRoute.make(
                draw(nodes),
                draw(nodes),
                draw(st.sampled_from([30, 60, 100, 150])),
                per_hex=draw(st.sampled_from([0, 10, 20])),
                name=f"bonus{i}",
            )
            for i in range(draw(_ints(1, 2)))
        ]
    if _chance(draw, 25):
        kw["must_visit"] = draw(st.frozensets(node, min_size=1, max_size=2))
    return Rules.make(**kw)


def _counted_tokens(draw, network: Network, stops: list[int]) -> frozenset[int]:
    """One or two token nodes for ``token_counted``, usually cities and towns.

    More often than not they are the cheapest such stops, which a train that may leave
    stops uncounted (N/M, express) would rather not count: that is when the rule binds.
    """
    passenger = (int(NodeKind.CITY), int(NodeKind.TOWN))
    pool = [n for n in stops if int(network.node_kind[n]) in passenger]
    if not pool or _chance(draw, 20):
        pool = stops
    if _chance(draw, 60):
        by_value = sorted(pool, key=lambda n: (int(network.node_value[n]), n))
        return frozenset(by_value[: draw(_ints(1, 2))])
    return draw(st.frozensets(st.sampled_from(pool), min_size=1, max_size=2))


def _designated_keys(draw, network: Network, designated_kind: int) -> dict[int, int]:
    """Keys putting designated nodes (mines) into classes, at least one with two members.

    Each key is the smallest node of its class, and that node has the key itself, so no key
    equals the id of an unkeyed node: whether "a node without a key is its own key" shares a
    namespace with the keys never matters here.
    """
    mask = designated_kind or kind_mask(NodeKind.MINE)
    pool = [i for i in range(network.n_nodes) if mask >> int(network.node_kind[i]) & 1]
    if len(pool) < 2:
        return {}
    labels = draw(
        st.lists(st.sampled_from([0, 0, 1, None]), min_size=len(pool), max_size=len(pool))
    )
    if all(labels.count(x) < 2 for x in (0, 1)):
        labels[0] = labels[1] = 0
    keys = {}
    for label in (0, 1):
        members = [n for n, x in zip(pool, labels, strict=True) if x == label]
        for n in members:
            keys[n] = min(members)
    return keys


def _hex_once_exempt(draw, network: Network) -> frozenset[int]:
    """Sometimes one or two exempt hexes, chosen among those a route could re-enter (hexes
    holding at least two nodes and segments in all); usually none."""
    if not _chance(draw, 40):
        return frozenset()
    users = [0] * network.n_hexes
    for h in (*network.node_hex, *network.seg_hex):
        users[int(h)] += 1
    shared = [h for h, k in enumerate(users) if k >= 2]
    if not shared:
        return frozenset()
    return draw(st.frozensets(st.sampled_from(shared), min_size=1, max_size=2))


def _min_counted_with(draw, network: Network, stops: list[int]) -> list[tuple[frozenset, int]]:
    """One or two ``(S, k)`` with ``k`` in 1..3; ``S`` holds ports and offboards (1836Jr's
    ports need two other stops) when there are any, otherwise any stops."""
    special = [
        n for n in stops if network.node_kind[n] in (int(NodeKind.PORT), int(NodeKind.OFFBOARD))
    ]
    out = []
    for _ in range(draw(_ints(1, 2))):
        pool = special if special and not _chance(draw, 25) else stops
        group = draw(st.frozensets(st.sampled_from(pool), min_size=1, max_size=2))
        out.append((group, draw(_ints(1, 3))))
    return out


# --------------------------------------------------------------------------------- problems
@st.composite
def problems(
    draw,
    n_trains=(1, 4),
    small: bool = True,
    train_kinds=tuple(_TRAIN_KINDS),
    size: tuple[int, int] | None = None,
) -> Problem:
    """A random :class:`~routing.Problem`.

    Parameters
    ----------
    n_trains : (int, int)
        Fewest and most trains.
    small : bool
        Small networks (4-9 nodes, 5-14 segments) that the brute-force oracle answers in
        milliseconds; ``False`` draws larger ones (6-14 nodes, 8-24 segments, up to three
        groups) for comparing the fast solvers with each other.
    train_kinds : sequence of str
        Passed to :func:`trains`.
    size : (int, int), optional
        Most nodes and most segments, overriding ``small`` (tiny problems for exhaustive
        checks).

    Notes
    -----
    The rules of :data:`EXTRA_CHANCES` are chosen first, because each needs something of
    the trains or the network to bind: ``token_counted`` gets an N/M or express train that
    could leave the token uncounted, ``designated_keys`` two goods trains (and so two mines
    and two ports), ``hex_once`` a network drawn with ``hex_reentry`` and
    ``min_counted_with`` a port or an offboard.  These trains come first, within
    ``n_trains`` and ``train_kinds``.
    """
    lo, hi = n_trains
    extras = _draw_extras(draw)
    ts = []
    if TOKEN_COUNTED in extras and {"n_m", "express"} & set(train_kinds):
        ts.append(_skipping_train(draw, [k for k in ("n_m", "express") if k in train_kinds]))
    if DESIGNATED_KEYS in extras and "goods" in train_kinds:
        ts += [draw(trains(("goods",))) for _ in range(2)]
    ts = ts[:hi]
    ts += draw(st.lists(trains(train_kinds), min_size=max(0, lo - len(ts)), max_size=hi - len(ts)))
    # Trains are drawn first so the network can hold the kinds they need to run at all.
    need = []
    for t in ts:
        for mask in (t.designated_kind, t.end_kinds):
            if mask:
                need.append(
                    draw(st.sampled_from([k for k in STOP_KIND_LIST if mask >> int(k) & 1]))
                )
    if MIN_COUNTED_WITH in extras:
        need.append(draw(st.sampled_from([NodeKind.PORT, NodeKind.OFFBOARD])))
    kw = {"require_kinds": need, "hex_reentry": HEX_ONCE in extras}
    if size is not None:
        net = draw(networks(min(4, size[0]), size[0], min(5, size[1]), size[1], **kw))
    elif small:
        net = draw(networks(4, 9, 5, 14, **kw))
    else:
        net = draw(networks(6, 14, 8, 24, max_groups=3, **kw))
    designated = 0
    for t in ts:
        designated |= t.designated_kind
    rules = draw(rules_for(net, extras, designated))
    return Problem(net, tuple(ts), rules, label="hypothesis")
