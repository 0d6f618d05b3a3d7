"""What is each move worth?  Rank a company's legal tile lays, tokens and train purchases.

:func:`analyse_position` takes a position, asks the legality engine (:mod:`engine.legality`)
for every legal tile lay and upgrade, token placement and affordable train purchase of one
company, builds the position each move leads to, and solves it exactly with
:func:`routing.solve`.  A move's *gain* is the company's optimal revenue after the move minus
its optimal revenue now.  Nothing is estimated: every figure is a full optimal solve, and a
solve that stops at a time limit is flagged (``optimal=False``, with its proven ``bound``).

The candidate solves are independent, so they run on a pool of forked worker processes that
inherit the parent's loaded kernels (no second numba start-up).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace

from engine.games import load_position, position_board
from engine.model.board import Board
from engine.model.fast_board import city_map
from engine.model.position import Position, PositionError, TileLay, Token

__all__ = [
    "Move",
    "RankedMove",
    "CompanyRevenue",
    "Analysis",
    "analyse_position",
    "candidate_moves",
    "company_position",
    "position_after_tile",
    "solve_position",
    "MOVE_KINDS",
]

#: The kinds of move :func:`analyse_position` ranks.
MOVE_KINDS = ("tile", "token", "train")


@dataclass(frozen=True)
class Move:
    """One legal move and the position it leads to.

    ``position`` is the analysed company's position after the move, as a position dict
    (docs/POSITIONS.md), so it can travel to a worker process.
    """

    kind: str
    label: str
    cost: int | None  # None: a price the companies agree (a train from another company)
    details: dict
    position: dict = field(repr=False, compare=False)


@dataclass(frozen=True)
class RankedMove:
    """A :class:`Move` with the company's optimal revenue after it."""

    kind: str
    label: str
    cost: int | None
    details: dict
    revenue: int
    gain: int
    optimal: bool
    bound: int
    seconds: float

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class CompanyRevenue:
    """A company's optimal revenue now (``revenue`` is None when its trains are unknown)."""

    company: str
    trains: tuple[str, ...]
    revenue: int | None
    optimal: bool
    bound: int | None
    note: str = ""

    def to_dict(self) -> dict:
        out = asdict(self)
        out["trains"] = list(self.trains)
        return out


@dataclass
class Analysis:
    """Result of :func:`analyse_position`; moves of each kind are sorted by gain, best first."""

    title: str
    company: str
    phase: str
    revenue: int
    optimal: bool
    moves: dict[str, list[RankedMove]]
    companies: list[CompanyRevenue]
    seconds: float
    workers: int
    notes: list[str] = field(default_factory=list)

    def best(self, kind: str) -> RankedMove | None:
        ranked = self.moves.get(kind) or []
        return ranked[0] if ranked else None

    def to_dict(self) -> dict:
        return {
            "title": self.title,
            "company": self.company,
            "phase": self.phase,
            "revenue": self.revenue,
            "optimal": self.optimal,
            "moves": {k: [m.to_dict() for m in v] for k, v in self.moves.items()},
            "companies": [c.to_dict() for c in self.companies],
            "seconds": self.seconds,
            "workers": self.workers,
            "notes": list(self.notes),
        }


# ---------------------------------------------------------------------------------- solving
def solve_position(position: Position | dict, time_limit: float | None = None) -> dict:
    """Optimal revenue of a position's company: ``{"revenue", "optimal", "bound", "seconds"}``."""
    import routing
    from engine.games import build_problem

    start = time.perf_counter()
    problem, _view = build_problem(position, check=False)
    solution = routing.solve(problem, time_limit=time_limit)
    return {
        "revenue": int(solution.total),
        "optimal": bool(solution.optimal),
        "bound": int(solution.bound),
        "seconds": time.perf_counter() - start,
    }


def _solve_chunk(items: list[tuple[int, dict]], time_limit: float | None) -> list[tuple[int, dict]]:
    return [(i, solve_position(d, time_limit)) for i, d in items]


def _solve_all(
    positions: list[dict],
    workers: int,
    time_limit: float | None,
    progress: Callable[[int, int], None] | None,
) -> list[dict]:
    """Solve every position; in forked workers when there are enough to pay for them."""
    total = len(positions)
    results: list[dict | None] = [None] * total
    if workers <= 1 or total < 8 or not _fork_available():
        for i, d in enumerate(positions):
            results[i] = solve_position(d, time_limit)
            if progress is not None:
                progress(i + 1, total)
        return results  # type: ignore[return-value]
    import multiprocessing

    # small chunks interleaved over the list keep both workers busy to the end
    size = max(1, min(16, total // (workers * 8)))
    chunks = [
        [(i, positions[i]) for i in range(start, min(start + size, total))]
        for start in range(0, total, size)
    ]
    done = 0
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_solve_chunk, chunk, time_limit) for chunk in chunks]
        for future in futures:
            for i, res in future.result():
                results[i] = res
                done += 1
            if progress is not None:
                progress(done, total)
    return results  # type: ignore[return-value]


def _fork_available() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


# ---------------------------------------------------------------------------------- positions
def company_position(position: Position, company: str) -> Position:
    """``position`` seen by ``company``: its trains and privates from ``extras["companies"]``.

    A position file holds the trains of its operating company; positions exported by the
    engine also list every other company's under ``extras["companies"][SYM]``.
    """
    if company == position.company:
        return position
    others = position.extras.get("companies") or {}
    info = others.get(company)
    if not isinstance(info, dict) or "trains" not in info:
        raise PositionError(
            f"trains of {company} are unknown: the position lists the trains of "
            f"{position.company} only (add extras.companies.{company}.trains)"
        )
    return replace(
        position,
        company=company,
        trains=[str(t) for t in info["trains"]],
        owned_companies=[str(c) for c in info.get("owned_companies", [])],
    )


def _companies_on_board(position: Position) -> list[str]:
    seen: dict[str, None] = {position.company: None}
    for t in position.tokens:
        seen.setdefault(t.company, None)
    for sym in position.extras.get("companies") or {}:
        seen.setdefault(str(sym), None)
    return list(seen)


def candidate_moves(position: Position, kinds: Iterable[str] = MOVE_KINDS) -> list[Move]:
    """Every legal move of ``position.company`` of the given kinds, with its new position."""
    from engine import legality

    kinds = tuple(kinds)
    state = legality.state_from_position(position)
    sym = position.company
    moves: list[Move] = []
    if "tile" in kinds:
        board = position_board(position, check=False)
        for opt in legality.legal_tile_lays(state, sym):
            after = position_after_tile(position, board, opt.hex, opt.tile, opt.rotation)
            verb = "upgrade" if opt.upgrade else "lay"
            moves.append(
                Move(
                    "tile",
                    f"{verb} {opt.tile} on {opt.hex} rotation {opt.rotation}",
                    int(opt.cost),
                    {"hex": opt.hex, "tile": opt.tile, "rotation": opt.rotation},
                    _with_extras(after, position).to_dict(),
                )
            )
    if "token" in kinds:
        for opt in legality.legal_token_placements(state, sym):
            after = replace(position, tokens=[*position.tokens, Token(opt.hex, sym, opt.city)])
            moves.append(
                Move(
                    "token",
                    f"token in {opt.hex} city {opt.city}",
                    None if opt.cost is None else int(opt.cost),
                    {"hex": opt.hex, "city": opt.city},
                    after.to_dict(),
                )
            )
    if "train" in kinds:
        cash = position.extras.get("cash")
        for opt in legality.train_purchase_options(state, sym):
            if cash is not None and opt.price is not None and opt.price > int(cash):
                continue
            after = _position_after_train(position, opt)
            price = "an agreed price" if opt.price is None else opt.price
            moves.append(
                Move(
                    "train",
                    f"buy {opt.variant} ({opt.train_id}) from {opt.source} for {price}",
                    opt.price,
                    {"train": opt.train_id, "variant": opt.variant, "source": str(opt.source)},
                    _with_extras(after, position).to_dict(),
                )
            )
    return moves


def position_after_tile(
    position: Position, board: Board, hex_: str, tile: str, rotation: int
) -> Position:
    """``position`` with ``tile`` laid on ``hex_``; tokens follow their cities (an upgrade
    may renumber them, as 18xx.games' ``city_map_for``)."""
    new_tile = board.manifest_tile(tile)
    mapping = city_map(board.placed(hex_), new_tile, rotation)
    tiles = [t for t in position.tiles if t.hex != hex_] + [TileLay(hex_, tile, rotation)]
    tokens = []
    for t in position.tokens:
        if t.hex == hex_:
            city = mapping.get(t.city)
            if city is None:
                raise PositionError(
                    f"tile {tile} on {hex_} has no city for the token of {t.company}"
                )
            t = Token(t.hex, t.company, city)
        tokens.append(t)
    return replace(position, tiles=tiles, tokens=tokens)


def _position_after_train(position: Position, option) -> Position:
    """Buy on a fresh engine state, so phase changes and rusting follow the rules."""
    from engine.legality import state_from_position

    trial = state_from_position(position)
    trial.buy_train(position.company, option.train_id, option.variant, check=False)
    return trial.position(position.company)


def _with_extras(after: Position, before: Position) -> Position:
    return replace(after, extras=dict(before.extras), owned_companies=list(before.owned_companies))


# ---------------------------------------------------------------------------------- analysis
def analyse_position(
    position: Position | str | dict,
    company: str | None = None,
    kinds: Iterable[str] = MOVE_KINDS,
    workers: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Rank every legal move of ``company`` by the revenue it gains.

    Parameters
    ----------
    position : Position, path, JSON text or dict
    company : str, optional
        The company to analyse (default: the position's operating company).  Another
        company needs its trains in ``extras["companies"]``.
    kinds : iterable of {"tile", "token", "train"}
        Which moves to rank.
    workers : int, optional
        Worker processes for the candidate solves (default: the machine's cores).
    time_limit : float, optional
        Seconds per solve; a solve that hits it is flagged ``optimal=False``.
    progress : callable(done, total), optional

    Returns
    -------
    Analysis
    """
    start = time.perf_counter()
    if not isinstance(position, Position):
        position = load_position(position)
    kinds = tuple(kinds)
    bad = [k for k in kinds if k not in MOVE_KINDS]
    if bad:
        raise ValueError(f"unknown move kind {bad[0]!r}; choose from {', '.join(MOVE_KINDS)}")
    if company is not None:
        known = _companies_on_board(position)
        if company not in known:
            raise PositionError(
                f"company {company!r} is not on the board (companies: {', '.join(known)})"
            )
        position = company_position(position, company)
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")

    # solving the base position first loads the kernels before the workers fork
    base = solve_position(position, time_limit)
    companies = []
    for sym in _companies_on_board(position):
        try:
            seen = company_position(position, sym)
        except PositionError as exc:
            companies.append(CompanyRevenue(sym, (), None, False, None, str(exc)))
            continue
        res = base if sym == position.company else solve_position(seen, time_limit)
        companies.append(
            CompanyRevenue(sym, tuple(seen.trains), res["revenue"], res["optimal"], res["bound"])
        )

    moves = candidate_moves(position, kinds)
    solved = _solve_all([m.position for m in moves], workers, time_limit, progress)
    ranked: dict[str, list[RankedMove]] = {k: [] for k in kinds}
    for move, res in zip(moves, solved, strict=True):
        ranked[move.kind].append(
            RankedMove(
                move.kind,
                move.label,
                move.cost,
                move.details,
                res["revenue"],
                res["revenue"] - base["revenue"],
                res["optimal"],
                res["bound"],
                res["seconds"],
            )
        )
    for kind in ranked:
        ranked[kind].sort(key=lambda m: (-m.gain, m.cost or 0, m.label))
    notes = []
    unproven = sum(1 for v in ranked.values() for m in v if not m.optimal)
    if unproven or not base["optimal"]:
        notes.append(
            f"{unproven + (not base['optimal'])} solve(s) stopped at the time limit: their "
            "revenue is the best found, their bound the proven maximum"
        )
    if "train" in kinds and position.extras.get("cash") is None:
        notes.append("the position gives no cash (extras.cash): every legal train is listed")
    return Analysis(
        title=position.title,
        company=position.company,
        phase=position.phase,
        revenue=base["revenue"],
        optimal=base["optimal"],
        moves=ranked,
        companies=companies,
        seconds=time.perf_counter() - start,
        workers=workers,
        notes=notes,
    )
