"""What is each move worth?  Rank a company's legal tile lays, tokens and train purchases.

:func:`analyse_game` takes a live rules-engine game (:class:`engine.game.base.BaseGame`) at
an operating turn and asks the engine itself for every move the operating company can still
make this turn (:meth:`~engine.game.base.BaseGame.legal_actions`: its ``lay_tile``,
``place_token`` and ``buy_train`` actions, and those of the private companies it owns,
affordable with its cash and within what it already did this turn).  Moves of later stages
of the turn (tokens after track, trains) are listed as the engine lists them at that stage,
with the company's cash as it is now.  Each move leads to a position of the company: a tile
lay is :func:`position_after_tile`, a token is added to the board, a train purchase is made
on a copy of the game (so phase changes, rusting and the depot follow the rules) and the
company's position read from it, with its runnable trains, as the engine builds the
position it solves (:meth:`engine.game.operating.OperatingMixin.optimal_run`).  Every
position is solved exactly with :func:`routing.solve`; a move's *gain* is the company's
optimal revenue after it minus the engine's optimal revenue now.  Nothing is estimated; a
solve that stops at a time limit is flagged (``optimal=False``, with its proven ``bound``).

:func:`analyse_position` is :func:`analyse_game` of
:func:`engine.games.positions.game_at_position`: the game a position file describes.

The candidate solves (and those of the other companies' revenues) are independent, so they
run on forked copies of the process (:mod:`engine.app.forked`), which inherit its loaded
kernels and the game: no second numba start-up, and nothing pickled but the results.
"""

from __future__ import annotations

import copy
import functools
import os
import time
import types
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace

from engine.app.forked import fork_usable, run_forked
from engine.game.base import BaseGame, action_key
from engine.game.state import DEPOT
from engine.games import build_problem, load_position
from engine.games.positions import game_at_position
from engine.model.board import Board
from engine.model.fast_board import city_map
from engine.model.position import Position, PositionError, TileLay, Token

__all__ = [
    "Move",
    "RankedMove",
    "CompanyRevenue",
    "Analysis",
    "analyse_game",
    "analyse_position",
    "candidate_moves",
    "candidate_problems",
    "company_position",
    "operating_position",
    "position_game",
    "copy_game",
    "position_after_tile",
    "solve_position",
    "why_no_moves",
    "MOVE_KINDS",
]

#: The kinds of move :func:`analyse_game` ranks.
MOVE_KINDS = ("tile", "token", "train")
#: Move kind -> the engine's action type.
_ACTION_OF = {"tile": "lay_tile", "token": "place_token", "train": "buy_train"}
#: Stages of a turn that never list a move of :data:`MOVE_KINDS` and cost a route solve to
#: list (their legal actions are a run and a dividend choice).
_SKIPPED_STAGES = ("route", "dividend")
#: Solves from which they go to forked workers (fewer: the forks cost more than they
#: save).  A fork costs about 5 ms here and a candidate about 2-3 ms to build and solve.
FORK_FROM = 16


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
    """Result of :func:`analyse_game`; moves of each kind are sorted by gain, best first."""

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
    #: Move kind -> why the company has no move of that kind (kinds with moves: absent).
    no_moves: dict[str, str] = field(default_factory=dict)

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
            "no_moves": dict(self.no_moves),
        }


# ---------------------------------------------------------------------------------- solving
#: Builds one candidate's problem: ``() -> (routing.Problem, view)``.
ProblemBuilder = Callable[[], tuple]


def solve_position(position: Position | dict, time_limit: float | None = None) -> dict:
    """Optimal revenue of a position's company: ``{"revenue", "optimal", "bound", "seconds"}``."""
    return _solve_built(lambda: build_problem(position, check=False), time_limit, {})


def _solve_built(build: ProblemBuilder, time_limit: float | None, solved: dict) -> dict:
    """Build one problem and solve it, unless a problem with the same fingerprint is in
    ``solved`` (same optimum: candidate lays far from the company's trains change nothing
    they can reach, so the trimmed problems repeat)."""
    import routing

    start = time.perf_counter()
    problem, _view = build()
    key = problem.fingerprint()
    found = solved.get(key)
    if found is None:
        solution = routing.solve(problem, time_limit=time_limit)
        found = solved[key] = {"revenue": int(solution.total), "optimal": bool(solution.optimal),
                               "bound": int(solution.bound)}  # fmt: skip
    return {**found, "seconds": time.perf_counter() - start}


def _solve_all(
    builders: list[ProblemBuilder],
    workers: int,
    time_limit: float | None,
    progress: Callable[[int, int], None] | None,
) -> list[dict]:
    """Build and solve every candidate; on ``workers`` forked copies of this process
    (:func:`engine.app.forked.run_forked`) when there are enough to pay for the forks
    (:data:`FORK_FROM` candidates) and forking is safe."""
    solved: dict = {}  # each process keeps its own: a fork's memo is its own copy
    jobs = [functools.partial(_solve_built, build, time_limit, solved) for build in builders]
    if workers > 1 and len(jobs) >= FORK_FROM and fork_usable():
        return run_forked(jobs, workers, progress)
    results = []
    for job in jobs:
        results.append(job())
        if progress is not None:
            progress(len(results), len(jobs))
    return results


# ---------------------------------------------------------------------------------- positions
def company_position(position: Position, company: str) -> Position:
    """``position`` seen by ``company``, at the start of its own operating turn.

    A position file holds the trains, privates and cash of its operating company; positions
    exported by the engine also list every other company's under ``extras["companies"]``
    (``trains``, ``owned_companies``, optionally ``cash``).  The position's own company
    moves into ``extras["companies"]``, so its trains stay known.

    Raises
    ------
    PositionError
        The position does not give ``company``'s trains.
    """
    if company == position.company:
        return position
    others = position.extras.get("companies") or {}
    info = others.get(company)
    if not isinstance(info, dict) or "trains" not in info:
        known = [s for s, v in others.items() if isinstance(v, dict) and "trains" in v]
        raise PositionError(_unknown_trains(company, [position.company, *known]))
    mover: dict = {"trains": list(position.trains),
                   "owned_companies": list(position.owned_companies)}  # fmt: skip
    if position.cash is not None:
        mover["cash"] = position.cash
    companies = {sym: v for sym, v in others.items() if sym != company}
    companies[position.company] = mover
    extras = {k: v for k, v in position.extras.items() if k not in ("cash", "turn")}
    extras["companies"] = companies
    cash = info.get("cash")
    return replace(
        position,
        company=company,
        trains=[str(t) for t in info["trains"]],
        owned_companies=[str(c) for c in info.get("owned_companies", [])],
        cash=None if cash is None else int(cash),
        turn=None,
        extras=extras,
    )


def _unknown_trains(sym: str, known: Iterable[str]) -> str:
    """The refusal of a company whose trains the position does not give."""
    return (f"trains of {sym} are unknown: the position gives the trains of "
            f"{', '.join(dict.fromkeys(map(str, known)))} only "
            f"(add extras.companies.{sym}.trains)")  # fmt: skip


def operating_position(game: BaseGame, sym: str) -> Position:
    """The position the engine solves for ``sym``'s run now: the board, ``sym``'s runnable
    trains and privates (as :meth:`~engine.game.operating.OperatingMixin.optimal_run`)."""
    return replace(game.state.position(sym), trains=[t.name for t in game.runnable_trains(sym)])


def copy_game(game: BaseGame) -> BaseGame:
    """An independent copy of ``game`` in the same state, without replaying its log.

    :func:`copy.deepcopy`, sharing what never changes (the title and its data, the printed
    map and the facts cached about it, the tile definitions and placed tiles, the route
    solves cached by their position)
    and what cannot be copied (a generator of the draft's draws, which the copy never uses);
    the copy starts with empty network, legal-action and base-network caches.  A game built by
    :func:`engine.games.positions.game_at_position` has no log to replay, so
    :meth:`BaseGame.copy` would not do.
    """
    shared: list[object] = [game.title, game.title.data]
    shared += [v for v in vars(game).values() if isinstance(v, types.GeneratorType)]
    board = game.state.board
    shared += board.shared_with_copies()
    shared += [tile for tile, _count in board.manifest.values()]
    shared += [*board.laid.values(), *board._placed.values()]
    shared += [game.__dict__.get(k) for k in ("_routes", "_reach_routes") if k in game.__dict__]
    memo: dict[int, object] = {id(obj): obj for obj in shared}
    for cache in ("_net_cache", "_net_last", "_legal_index", "_last_run", "_route_base"):
        if cache in game.__dict__:
            memo[id(game.__dict__[cache])] = {} if cache.startswith("_net") else None
    if game._legal_cache is not None:
        memo[id(game._legal_cache)] = None
    return copy.deepcopy(game, memo)


def _companies_on_board(game: BaseGame, op: str) -> list[str]:
    """``op``, then every company with a token on the map, then those the position lists."""
    seen: dict[str, None] = {op: None}
    for t in game.state.position(op).tokens:
        seen.setdefault(t.company, None)
    info = getattr(game, "position_info", None)
    for sym in info.other_trains if info is not None else ():
        seen.setdefault(sym, None)
    return list(seen)


def _known_trains(game: BaseGame, op: str) -> list[str]:
    """The companies whose trains a game built from a position knows (``op``'s and those
    of ``extras.companies``)."""
    info = getattr(game, "position_info", None)
    return [op, *(info.other_trains if info is not None else ())]


def _trains_known(game: BaseGame, sym: str, op: str) -> bool:
    """Does the game know ``sym``'s trains?  A live game knows every company's; a game built
    from a position those of its company and of ``extras.companies``."""
    info = getattr(game, "position_info", None)
    return info is None or sym == op or sym in info.other_trains


def _operating(game: BaseGame) -> str:
    t = game.or_turn
    if game.finished or game.round.kind != "operating" or t is None or t.stage is None:
        raise ValueError(
            f"no company is operating now ({game.round.kind} round): analyse a game at a "
            "company's operating turn"
        )
    return t.op


def _stage_listings(game: BaseGame) -> list[tuple[int, list[dict]]]:
    """(stage index, legal actions) of the current stage and every later stage of the turn
    that can hold a move (the route and dividend stages aside).  A later stage's list is the
    engine's at that stage with the game as it is now; the game is left as it was."""
    t = game.or_turn
    now = t.index
    out = [(now, game.legal_actions())]
    later = [i for i in range(now + 1, len(t.stages)) if t.stages[i] not in _SKIPPED_STAGES]
    if not later:
        return out
    try:
        for i in later:
            t.index = i
            game._version += 1
            out.append((i, game._compute_legal()))
    finally:
        t.index = now
        game._version += 1  # never back: caches keyed by a version must not come back
        game._legal_cache = None
    return out


def _legal_moves(game: BaseGame, op: str, kinds: tuple[str, ...]) -> list[tuple[int, dict]]:
    """(stage index, action) of every move of ``kinds`` ``op`` (or a private it owns) may
    make this turn, the first stage that lists it."""
    types_ = {_ACTION_OF[k] for k in kinds}
    owned = set(game.state.owned_companies(op))
    seen: set = set()
    found = []
    for index, acts in _stage_listings(game):
        for a in acts:
            if a["type"] not in types_ or (a["entity"] != op and a["entity"] not in owned):
                continue
            key = (*action_key(a), a.get("exchange"), a.get("company"))
            if key not in seen:
                seen.add(key)
                found.append((index, a))
    return found


def candidate_moves(
    game: BaseGame | Position | str | dict, kinds: Iterable[str] = MOVE_KINDS
) -> list[Move]:
    """Every move of the operating company of the given kinds, with its new position
    (a game, or a position: :func:`~engine.games.positions.game_at_position`)."""
    if not isinstance(game, BaseGame):
        game = game_at_position(game)
    return [move for move, _build in candidate_problems(game, tuple(kinds))]


def candidate_problems(
    game: BaseGame, kinds: Iterable[str] = MOVE_KINDS
) -> list[tuple[Move, ProblemBuilder]]:
    """:func:`candidate_moves` of a game, each with the builder of its route problem
    (``() -> (routing.Problem, view)``, the problem of ``move.position``): a tile lay on a
    copy of the live board (:meth:`~engine.game.operating.OperatingMixin.route_problem_after_lay`),
    a token on the live board, a train on the board the company's trains reach now (a
    purchase lays no track); the position is built only for what the board does not say."""
    from engine.model.routes import fast_problem

    kinds = tuple(kinds)
    op = _operating(game)
    base = operating_position(game, op)
    state = game.state
    out: list[tuple[Move, ProblemBuilder]] = []
    laid: set = set()
    for index, a in _legal_moves(game, op, kinds):
        via = a.get("company") or (a["entity"] if a["entity"] != op else None)
        with_ = f" with {via}" if via else ""
        if a["type"] == "lay_tile":
            hex_, tile, rot = a["hex"], a["tile"], int(a["rotation"])
            same = (via, hex_, tile, _track_of(state.board, tile, rot))
            if same in laid:
                continue  # a rotation laying the same track as one already listed
            laid.add(same)
            verb = "upgrade" if state.board.color(hex_) != "white" else "lay"
            after = position_after_tile(base, state.board, hex_, tile, rot)
            details = {"hex": hex_, "tile": tile, "rotation": rot}
            if via:
                details["company"] = via
            move = Move("tile", f"{verb} {tile} on {hex_} rotation {rot}{with_}",
                        int(a.get("cost", 0)), details, after.to_dict())  # fmt: skip
            out.append((move, functools.partial(game.route_problem_after_lay, op, after,
                                                hex_, tile, rot)))  # fmt: skip
        elif a["type"] == "place_token":
            hex_, city = a["hex"], int(a["city"])
            after = replace(base, tokens=[*base.tokens, Token(hex_, op, city)])
            details = {"hex": hex_, "city": city}
            if via:
                details["company"] = via
            cost = a.get("cost")
            move = Move("token", f"token in {hex_} city {city}{with_}",
                        None if cost is None else int(cost), details, after.to_dict())  # fmt: skip
            out.append((move, functools.partial(fast_problem, game.title, after, state.board)))
        else:
            move = _train_move(game, op, index, a)
            out.append((move, functools.partial(build_problem, move.position, check=False)))
    return out


def _track_of(board: Board, tile: str, rotation: int) -> frozenset:
    """The track ``tile`` lays at ``rotation``: its paths' ends (a city or town keeps its
    index), so two rotations of a symmetric tile that lay the same track give the same."""
    return frozenset(
        (frozenset((p.a, p.b)), p.terminal, p.track)
        for p in board.manifest_tile(tile).rotated_paths(rotation)
    )


def _train_move(game: BaseGame, op: str, index: int, action: dict) -> Move:
    """Buy on a copy of the game at the train stage, so phase changes and rusting follow
    the rules; the company's position is read from the copy."""
    card = game.state.trains[action["train"]]
    if card.owner == DEPOT:
        source = "pool" if card.id in game.state.discarded else "depot"
    else:
        source = str(card.owner)
    agreed = "min_price" in action
    price = None if agreed else int(action["price"])
    trial = copy_game(game)
    trial.or_turn.index = index
    trial._version += 1
    trial._legal_cache = None
    trial.process(dict(action))
    after = operating_position(trial, op)
    shown = (f"an agreed price ({action['min_price']}-{action['max_price']})" if agreed
             else price)  # fmt: skip
    label = f"buy {action['variant']} ({card.id}) from {source} for {shown}"
    details = {"train": card.id, "variant": action["variant"], "source": source}
    over = trial.state.counted_trains(op) - trial.train_limit(op)
    if over > 0:
        # a purchase that starts a phase can leave the company over the new train limit:
        # it discards at once (18xx.games ``crowded_corps``); keep the best trains
        after, dropped = _best_after_discard(trial, op, after, over)
        label += f", then discards {', '.join(dropped)}"
        details["discards"] = dropped
    if action.get("exchange"):
        label += f" trading in {action['exchange']}"
        details["exchange"] = action["exchange"]
    return Move("train", label, price, details, after.to_dict())


def _best_after_discard(game: BaseGame, op: str, position: Position,
                        over: int) -> tuple[Position, list[str]]:  # fmt: skip
    """The position after ``op`` discards ``over`` of its counted trains, choosing the
    discards that leave the most revenue (every choice solved exactly)."""
    from itertools import combinations

    counted = [c for c in game.state.trains_of(op) if not c.obsolete]
    best = None
    for drop in dict.fromkeys(combinations(sorted(c.name for c in counted), over)):
        trains = list(position.trains)
        for name in drop:
            trains.remove(name)
        trial = replace(position, trains=trains)
        revenue = solve_position(trial)["revenue"]
        if best is None or revenue > best[0]:
            best = (revenue, trial, list(drop))
    return best[1], best[2]


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


def _stage_of(game: BaseGame, kind: str) -> str:
    """The stage of the turn that holds ``kind``'s moves (1846 places tokens in track)."""
    if kind == "tile":
        return game.TRACK_STAGE
    if kind == "token":
        return "token" if "token" in game.or_turn.stages else game.TRACK_STAGE
    return game.TRAIN_STAGE


def why_no_moves(game: BaseGame, kind: str) -> str:
    """Why the operating company of ``game`` has no legal move of ``kind`` this turn."""
    t = game.or_turn
    op, stage = t.op, _stage_of(game, kind)
    cash = f"cash {game.cash(op)}"
    if stage not in t.stages:
        return f"{op}'s turn has no {stage} stage"
    if t.stages.index(stage) < t.index:
        return f"the {stage} stage of {op}'s turn is over (now: {t.stage})"
    if kind == "tile":
        if t.lays:
            done = ", ".join(h for h, _up in t.lays)
            return f"{op} has made its tile lays this turn (on {done})"
        colors = ", ".join(game.state.phase.get("tiles", ())) or "no"
        options = game.lay_options(op)
        if not options:
            return (f"phase {game.state.phase_name} allows {colors} tiles and no hex {op} "
                    "reaches takes one")  # fmt: skip
        return f"none of the {len(options)} lays the track rules allow is open to {op} ({cash})"
    if kind == "token":
        if game.tokens_left(op) <= 0:
            return f"all of {op}'s station tokens are placed"
        if t.tokened:
            return f"{op} already placed a station token this turn"
        cities = game.token_options(op)
        if not cities:
            return f"no city {op} reaches has room for a token of {op}"
        return f"{op} cannot place a token in any of the {len(cities)} cities it reaches ({cash})"
    limit = game.train_limit(op)
    if game.state.counted_trains(op) >= limit:
        return f"{op} holds its train limit ({limit})"
    if not game.state.depot and not game.state.discarded:
        return "no train is left in the depot or the pool"
    return f"{op} cannot afford any train on sale ({cash})"


# ---------------------------------------------------------------------------------- analysis
def _check_request(kinds: Iterable[str], workers: int | None) -> tuple[tuple[str, ...], int]:
    kinds = tuple(kinds)
    bad = [k for k in kinds if k not in MOVE_KINDS]
    if bad:
        raise ValueError(f"unknown move kind {bad[0]!r}; choose from {', '.join(MOVE_KINDS)}")
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    return kinds, workers


def analyse_game(
    game: BaseGame,
    company: str | None = None,
    kinds: Iterable[str] = MOVE_KINDS,
    workers: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Rank every move the operating company of ``game`` can still make this turn.

    Parameters
    ----------
    game : BaseGame
        At a company's operating turn (it is left as it was).
    company : str, optional
        Report this company instead: a company that is not operating now has no moves to
        rank, only its revenue (with a note); its trains must be known.
    kinds : iterable of {"tile", "token", "train"}
        Which moves to rank.
    workers : int, optional
        Worker processes for the candidate solves (default: the machine's cores).
    time_limit : float, optional
        Seconds per candidate solve; a solve that hits it is flagged ``optimal=False``
        (the revenue now is the engine's own, exact, solve).
    progress : callable(done, total), optional

    Returns
    -------
    Analysis

    Raises
    ------
    ValueError
        No company is operating, an unknown move kind, fewer than one worker.
    PositionError
        ``company`` is not on the board, or its trains are unknown.
    """
    start = time.perf_counter()
    kinds, workers = _check_request(kinds, workers)
    op = _operating(game)
    on_board = _companies_on_board(game, op)
    target = op if company is None else company
    if target not in on_board:
        raise PositionError(
            f"company {target!r} is not on the board (companies: {', '.join(on_board)})"
        )
    if not _trains_known(game, target, op):
        raise PositionError(_unknown_trains(target, _known_trains(game, op)))
    notes = list(getattr(game, "position_notes", ()))

    # the engine's own optimum first (it also loads the kernels before the workers fork)
    t0 = time.perf_counter()
    revenue, solution = game.optimal_run(op)
    base = {
        "revenue": int(revenue),
        "optimal": True if solution is None else bool(solution.optimal),
        "bound": int(revenue) if solution is None else int(solution.bound),
        "seconds": time.perf_counter() - t0,
    }
    # every other company's revenue and every candidate are independent solves: one list
    # of jobs, so that forked workers share all of them
    seen = {sym: operating_position(game, op) if sym == op else game.state.position(sym)
            for sym in on_board if _trains_known(game, sym, op)}  # fmt: skip
    others = [sym for sym in seen if sym != op]
    builders: list[ProblemBuilder] = [
        functools.partial(build_problem, seen[sym], check=False) for sym in others
    ]
    candidates = candidate_problems(game, kinds) if target == op else []
    builders += [build for _move, build in candidates]
    results = _solve_all(builders, workers, time_limit, progress)
    solved: dict[str, dict] = {op: base, **dict(zip(others, results[: len(others)], strict=True))}
    companies = []
    for sym in on_board:
        if sym not in seen:
            companies.append(
                CompanyRevenue(
                    sym, (), None, False, None, _unknown_trains(sym, _known_trains(game, op))
                )
            )
            continue
        res = solved[sym]
        companies.append(CompanyRevenue(sym, tuple(seen[sym].trains), res["revenue"],
                                        res["optimal"], res["bound"]))  # fmt: skip

    ranked: dict[str, list[RankedMove]] = {k: [] for k in kinds}
    if target != op:
        notes.append(
            f"{target} is not operating now ({op} is): no move of {target} is ranked; its "
            "revenue is its optimum with the trains it holds"
        )
        reported = solved[target]
        no_moves = {k: f"{target} is not operating now ({op} is)" for k in kinds}
    else:
        reported = base
        for (move, _build), res in zip(candidates, results[len(others) :], strict=True):
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
        no_moves = {k: why_no_moves(game, k) for k, v in ranked.items() if not v}
    unproven = sum(1 for v in ranked.values() for m in v if not m.optimal)
    if unproven or not reported["optimal"]:
        notes.append(
            f"{unproven + (not reported['optimal'])} solve(s) stopped at the time limit: their "
            "revenue is the best found, their bound the proven maximum"
        )
    return Analysis(
        title=game.title.id,
        company=target,
        phase=game.state.phase_name,
        revenue=reported["revenue"],
        optimal=reported["optimal"],
        moves=ranked,
        companies=companies,
        seconds=time.perf_counter() - start,
        workers=workers,
        notes=notes,
        no_moves=no_moves,
    )


def position_game(position: Position | str | dict, company: str | None = None) -> BaseGame:
    """The game :func:`analyse_position` analyses: the one the position describes
    (:func:`engine.games.positions.game_at_position`), at ``company``'s operating turn when
    ``company`` is given and is not the position's own.

    Everything about the input is checked here, and nothing is solved, so a caller can
    refuse a bad position before it loads or compiles the solver's kernels.

    Parameters
    ----------
    position : Position, path, JSON text or dict
    company : str, optional
        As :func:`analyse_position`.

    Returns
    -------
    BaseGame

    Raises
    ------
    PositionError
        The position is unreadable or impossible, ``company`` is not on the board, or its
        trains are unknown.
    """
    if not isinstance(position, Position):
        position = load_position(position)
    own = position.company
    if company is not None and company != own:
        on_board = list(dict.fromkeys(
            [own, *(t.company for t in position.tokens), *(position.extras.get("companies") or {})]
        ))  # fmt: skip
        where = f"{position.source}: " if position.source else ""
        if company not in on_board:
            raise PositionError(f"{where}company {company!r} is not on the board "
                                f"(companies: {', '.join(on_board)})")  # fmt: skip
        try:
            position = company_position(position, company)
        except PositionError as exc:
            raise PositionError(f"{where}{exc}") from None
    game = game_at_position(position)
    if position.company != own:
        game.position_notes.insert(0, (
            f"the position is {own}'s turn: {position.company} is analysed as if its own "
            "operating turn began now"
        ))  # fmt: skip
    return game


def analyse_position(
    position: Position | str | dict,
    company: str | None = None,
    kinds: Iterable[str] = MOVE_KINDS,
    workers: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Rank every legal move of the position's company by the revenue it gains:
    :func:`analyse_game` of :func:`position_game`.

    Parameters
    ----------
    position : Position, path, JSON text or dict
    company : str, optional
        Rank this company's moves instead, as if its operating turn began now: the position
        must give its trains (``extras["companies"]``, :func:`company_position`; its cash
        there too, else every legal move is listed).
    kinds, workers, time_limit, progress
        As :func:`analyse_game`.

    Returns
    -------
    Analysis

    Raises
    ------
    PositionError
        As :func:`analyse_game`; ``company`` is not on the board or its trains are unknown.
    """
    _check_request(kinds, workers)
    game = position_game(position, company)
    return analyse_game(game, None, kinds, workers, time_limit, progress)
