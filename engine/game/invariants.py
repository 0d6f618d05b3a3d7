"""Checks that must hold in every reachable state of every game.

- money is conserved: bank + players + companies equals the opening total (the bank may
  go negative once broken; nobody else may);
- every live corporation's certificates sum to 100%, each has one holder (a player, the
  corporation's treasury or the pool); the president holds the president's certificate (in
  receivership it lies in the pool); no player holds more than the holding limit; closed
  corporations have no shares, tokens, trains or cash;
- train cards match the title's manifest (count per type for the player count), each owned
  by the depot, a live operator or nobody (rusted);
- tiles on the map are manifest tiles, no more of each than the manifest has;
- station tokens sit in cities of the current tiles, within the slots, at most one per
  company and hex, no company using more tokens than it has.
"""

from __future__ import annotations

from collections import Counter

from engine.game.shares import POOL
from engine.game.state import DEPOT, player_count_value

__all__ = ["InvariantError", "invariants"]


class InvariantError(AssertionError):
    """A state the rules can never reach; the message names the broken invariant."""


def _fail(game, text: str) -> None:
    raise InvariantError(f"after action {len(game.actions)}: {text}")


def invariants(game) -> None:
    """Raise :class:`InvariantError` naming the first broken invariant of ``game``."""
    _money(game)
    _shares(game)
    _trains(game)
    _tiles_and_tokens(game)


def _money(game) -> None:
    ledger = game.ledger
    try:
        ledger.check_conserved()
    except AssertionError as exc:
        _fail(game, str(exc))
    for holder, cash in ledger.balances.items():
        if cash < 0 and holder not in ledger.may_go_negative:
            _fail(game, f"{holder} has negative cash {cash}")
    for sym, op in game.state.operators.items():
        if op.closed and ledger.balances.get(sym, 0):
            _fail(game, f"closed {sym} still holds {ledger.balances[sym]}")


def _shares(game) -> None:
    shares = game.shares
    players = set(game.seats)
    operators = game.state.operators
    for corp, certs in shares.by_corp.items():
        if operators[corp].closed:
            _fail(game, f"closed {corp} still has certificates")
        held: dict[str, int] = {}
        total = 0
        president_cert = None
        for c in certs:
            owner = c.owner
            total += c.percent
            held[owner] = held.get(owner, 0) + c.percent
            if c.president:
                president_cert = c
            if owner not in players and owner != corp and owner != POOL:
                _fail(game, f"certificate {c.id} held by {owner!r}")
        if total != 100:
            _fail(game, f"{corp}'s certificates sum to {total}%")
        pres = shares.president(corp)
        cert = president_cert if president_cert is not None else shares.president_cert(corp)
        if pres is None:
            if cert.owner != POOL:
                _fail(game, f"{corp} has no president but its certificate is with {cert.owner}")
        elif cert.owner != pres:
            _fail(game, f"{corp}'s president {pres} does not hold the president's certificate")
        limit = game.holding_limit(corp)
        top = held.get(pres, 0) if pres is not None else 0
        for p, pct in held.items():
            if p not in players:
                continue
            if pct > limit:
                _fail(game, f"{p} holds {pct}% of {corp} (limit {limit}%)")
            if pres is not None and p != pres and pct > top:
                _fail(game, f"{p} holds more of {corp} than its president {pres}")


def _manifest(game) -> Counter:
    """Train cards per type the title's data gives this player count (computed once)."""
    cached = game.__dict__.get("_train_manifest")
    if cached is None:
        state = game.state
        cached = Counter()
        for spec in state.data.TRAINS:
            if state._included(spec):
                cached[spec["name"]] = player_count_value(spec.get("num", 0), len(game.seats))
        game.__dict__["_train_manifest"] = cached
    return cached


def _trains(game) -> None:
    state = game.state
    expected = _manifest(game)
    have = Counter(card.sym for card in state.trains.values())
    if have != expected:
        _fail(game, f"train cards {dict(have)} differ from the manifest {dict(expected)}")
    for card in state.trains.values():
        owner = card.owner
        if owner is None or owner == DEPOT:
            continue
        op = state.operators.get(owner)
        if op is None:
            _fail(game, f"train {card.id} owned by {owner!r}")
        elif op.closed:
            _fail(game, f"train {card.id} owned by closed {owner}")
    for ident in (*state.depot, *state.discarded):
        if state.trains[ident].owner != DEPOT:
            _fail(game, f"depot train {ident} is owned by {state.trains[ident].owner}")


def _tiles_and_tokens(game) -> None:
    state = game.state
    board = state.board
    # counted here, not with the board's cached count, so that the check stays independent;
    # again only after the board changed (every lay goes through ``state.changed``)
    version = (id(board), getattr(state, "board_version", None), len(board.laid))
    if version[1] is None or game.__dict__.get("_tiles_checked") != version:
        for name, used in Counter(p.tile.name for p in board.laid.values()).items():
            if used > board.tile_count(name):
                have = board.tile_count(name)
                _fail(game, f"{used} tiles {name} on the map, the manifest has {have}")
        game.__dict__["_tiles_checked"] = version
    per_op = Counter()
    per_hex = set()
    for (hex_, city), syms in state.tokens.items():
        cities = board.tile(hex_).cities
        if not 0 <= city < len(cities):
            _fail(game, f"token of {syms} in {hex_} city {city}, which the tile lacks")
        if len(syms) > cities[city].slots:
            slots = cities[city].slots
            _fail(game, f"{hex_} city {city} holds {len(syms)} tokens for {slots} slots")
        if len(set(syms)) != len(syms):
            _fail(game, f"{hex_} city {city} holds a company twice: {syms}")
        for sym in syms:
            op = state.operators.get(sym)
            if op is None or op.closed:
                _fail(game, f"token of {'closed ' if op else 'unknown '}{sym} in {hex_}")
            if (sym, hex_) in per_hex:
                _fail(game, f"{sym} has two tokens in {hex_}")
            per_hex.add((sym, hex_))
            per_op[sym] += 1
    specs = {e["sym"]: e for e in (*state.data.CORPORATIONS, *state.data.MINORS)}
    for sym, count in per_op.items():
        spec = specs[sym]
        limit = len(spec.get("tokens", [])) + getattr(game, "token_adjust", {}).get(sym, 0)
        removed_extra = 1 if state.operators[sym].removed else 0  # 2p variant second token
        if count > limit + removed_extra:
            _fail(game, f"{sym} has {count} tokens on the map but only {limit}")
