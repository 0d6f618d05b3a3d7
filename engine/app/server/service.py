"""What the server does, without HTTP: documents, positions in them, solves and drawings.

A *document* is what a user opens: a bundled example position, a bundled record, or an
upload (an 18xx.games export, a ``play --save`` file or a position file).  Documents are
named by ids (``example:1846-early``, ``record:1846-20381``, ``upload:<hash>``); the server
only ever reads the bundled files it lists itself, never a path a client sends.

A *target* is one company at one point of a document: the routing problem the engine
solves there (``route_problem(op, full_board=True)``, what ``eighteen solve RECORD
--action N`` solves), its view for drawing, the 18xx.games ids of its trains, and the
position (``turn_position``) for what-if analyses.

Every refusal is an :class:`ApiError` with an HTTP status and a one-line message naming the
item; the app turns it into ``{"error": ...}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.app.server import work
from engine.app.server.runs import route_stops, run_routes_action, stop_parts

__all__ = [
    "ApiError",
    "Document",
    "Library",
    "Service",
    "Target",
    "MAX_UPLOAD_BYTES",
    "MAX_TIME_LIMIT",
]

#: Largest upload (and request body) accepted.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
#: Largest time limit a client may ask for, seconds per solve.
MAX_TIME_LIMIT = 60.0

_HERE = Path(__file__).resolve().parent


class ApiError(Exception):
    """A request the server refuses: ``status`` (4xx) and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(str(message).split()) or "bad request"


def _one_line(exc: BaseException) -> str:
    msg = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(msg.split()) or type(exc).__name__


@dataclass
class Document:
    """One opened document: ``kind`` is ``record``, ``save`` or ``position``."""

    id: str
    kind: str
    name: str
    title: str
    data: dict = field(repr=False)
    size: int = 0

    def summary(self) -> dict:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "title": self.title,
            "bytes": self.size,
        }
        if self.kind == "position":
            out["company"] = self.data.get("company")
            out["phase"] = self.data.get("phase")
            out["trains"] = list(self.data.get("trains") or [])
        else:
            out["actions"] = len(self.data.get("actions") or [])
        return out


class Library:
    """The bundled documents: example positions and a few records, by id."""

    def __init__(self, examples: Path | None = None, records: Path | None = None) -> None:
        self.examples_dir = examples or _HERE.parent.parent / "examples"
        self.records_dir = records or _HERE / "records"

    def paths(self) -> dict[str, Path]:
        out = {}
        if self.examples_dir.is_dir():
            for p in sorted(self.examples_dir.glob("*.json")):
                out[f"example:{p.stem}"] = p
        if self.records_dir.is_dir():
            for p in sorted(self.records_dir.glob("*.json")):
                out[f"record:{p.stem}"] = p
        return out

    def listing(self) -> dict:
        examples, records = [], []
        for doc_id, path in self.paths().items():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if doc_id.startswith("example:"):
                examples.append({
                    "id": doc_id,
                    "name": path.stem,
                    "title": str(data.get("title", "?")),
                    "company": data.get("company"),
                    "phase": data.get("phase"),
                    "trains": list(data.get("trains") or []),
                })  # fmt: skip
            else:
                records.append({
                    "id": doc_id,
                    "name": path.stem,
                    "title": str(data.get("title", "?")),
                    "actions": len(data.get("actions") or []),
                    "players": len(data.get("players") or []),
                    "description": str(data.get("description") or ""),
                })  # fmt: skip
        return {"examples": examples, "records": records}


def classify(data: Any, name: str) -> tuple[str, str]:
    """``(kind, title)`` of a parsed document; refuses what the engine cannot open."""
    from engine.app.report import open_replay
    from engine.games import is_save, load_position

    if not isinstance(data, dict):
        raise ApiError(400, f"{name}: expected a JSON object, got {type(data).__name__}")
    try:
        if is_save(data) or "actions" in data:
            rep = open_replay(data)
            return ("save" if is_save(data) else "record"), str(rep.title)
        position = load_position(data)
        return "position", str(position.title)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ApiError(400, f"{name}: {_one_line(exc)}") from None


def parse_upload(raw: bytes, name: str = "upload") -> Any:
    if len(raw) > MAX_UPLOAD_BYTES:
        raise ApiError(413, f"{name}: {len(raw)} bytes is over the upload limit of "
                            f"{MAX_UPLOAD_BYTES} bytes (5 MB)")  # fmt: skip
    if not raw.strip():
        raise ApiError(400, f"{name}: empty document")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"{name}: not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ApiError(
            400, f"{name}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise ApiError(400, f"{name}: JSON nested too deeply") from None


class _Lru(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

    def hit(self, key):
        if key not in self:
            return None
        self.move_to_end(key)
        return self[key]


@dataclass
class Target:
    """One company at one point of a document, ready to solve and draw."""

    doc: str
    action: int | None
    company: str
    problem: Any
    view: Any
    train_ids: list[str]
    position: dict
    label: str
    meta: dict
    #: The ``run_routes`` the record applies next, when it is this company's.
    declared: dict | None = None
    #: The game (records only) and the lock that guards it.
    game: Any = None
    lock: threading.Lock | None = None


class Service:
    """Documents, caches and the jobs behind every endpoint."""

    def __init__(self, workers: work.Workers, library: Library | None = None,
                 max_uploads: int = 32) -> None:  # fmt: skip
        self.workers = workers
        self.library = library or Library()
        self._bundled = self.library.paths()
        self._docs: _Lru = _Lru(max_uploads + len(self._bundled))
        self._games: _Lru = _Lru(12)
        self._game_locks: dict[tuple, threading.Lock] = {}
        self._targets: _Lru = _Lru(64)
        self._results: _Lru = _Lru(512)
        self._inflight: dict[tuple, asyncio.Future] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ documents
    def document(self, doc_id: str) -> Document:
        with self._lock:
            doc = self._docs.hit(doc_id)
        if doc is not None:
            return doc
        path = self._bundled.get(doc_id)
        if path is None:
            raise ApiError(404, f"unknown document {doc_id!r} (open one from /api/library "
                                "or upload it to /api/documents)")  # fmt: skip
        raw = path.read_bytes()
        data = parse_upload(raw, path.name)
        kind, title = classify(data, path.stem)
        doc = Document(doc_id, kind, path.stem, title, data, len(raw))
        with self._lock:
            self._docs.put(doc_id, doc)
        return doc

    def upload(self, raw: bytes, name: str | None = None) -> Document:
        name = _safe_name(name) or "upload"
        data = parse_upload(raw, name)
        kind, title = classify(data, name)
        doc_id = "upload:" + hashlib.sha256(raw).hexdigest()[:16]
        doc = Document(doc_id, kind, name, title, data, len(raw))
        with self._lock:
            self._docs.put(doc_id, doc)
        return doc

    # ------------------------------------------------------------------ async memo
    async def memo(self, key: tuple, make: Callable[[], Awaitable[Any]]) -> Any:
        """The cached result for ``key``, else ``await make()`` once however many requests
        ask for it at the same time."""
        hit = self._results.hit(key)
        if hit is not None:
            return hit
        pending = self._inflight.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            value = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            self._inflight.pop(key, None)
        self._results.put(key, value)
        future.set_result(value)
        return value

    # ------------------------------------------------------------------ records
    def _record_doc(self, doc_id: str) -> Document:
        doc = self.document(doc_id)
        if doc.kind == "position":
            raise ApiError(400, f"{doc_id} is a position, not a game record: it has no actions")
        return doc

    async def timeline(self, doc_id: str) -> dict:
        doc = self._record_doc(doc_id)
        return await self._cached_job(("timeline", doc_id), True, work.timeline, doc.data)

    async def history(self, doc_id: str, time_limit: float) -> dict:
        doc = self._record_doc(doc_id)
        return await self._cached_job(("history", doc_id, time_limit), True, work.history,
                                      doc.data, time_limit)  # fmt: skip

    async def _job(self, fn, *args):
        """Run a pool job; a refusal of the engine becomes a 400."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return await self.workers.run(fn, *args)
        except ApiError:
            raise
        except BrokenProcessPool:
            self.workers.reset()
            raise ApiError(503, "a worker process died; the pool restarts, try again") from None
        except RecursionError:
            raise ApiError(400, "the document is nested too deeply") from None
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ApiError(400, _one_line(exc)) from None

    async def _cached_job(self, key: tuple, cache: bool, fn, *args):
        """:meth:`_job` of ``fn(*args)``, through :meth:`memo` under ``key`` unless
        ``cache`` is False (a request that asks for a fresh run)."""
        if not cache:
            return await self._job(fn, *args)
        return await self.memo(key, lambda: self._job(fn, *args))

    def _game_at(self, doc: Document, action: int | None):
        """The replay of ``doc`` stopped just before ``action`` (cached) and its lock."""
        from engine.app.report import game_before

        key = (doc.id, action)
        with self._lock:
            lock = self._game_locks.setdefault(key, threading.Lock())
        with lock:
            with self._lock:
                rep = self._games.hit(key)
            if rep is None:
                try:
                    rep = game_before(doc.data, action)
                except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
                    raise ApiError(400, f"{doc.name}: {_one_line(exc)}") from None
                with self._lock:
                    self._games.put(key, rep)
                    live = set(self._games)
                    for k in [k for k in self._game_locks if k not in live and k != key]:
                        del self._game_locks[k]
        return rep, lock

    # ------------------------------------------------------------------ targets
    def target(self, doc_id: str, action: int | None, company: str | None) -> Target:
        """The company ``company`` (default: the one operating) at ``action`` of a record,
        or of a position (which has no actions)."""
        doc = self.document(doc_id)
        key = (doc_id, action, company)
        with self._lock:
            hit = self._targets.hit(key)
        if hit is not None:
            return hit
        if doc.kind == "position":
            target = self._position_target(doc, action, company)
        else:
            target = self._record_target(doc, action, company)
        with self._lock:
            self._targets.put(key, target)
            self._targets.put((doc_id, action, target.company), target)
        return target

    def _position_target(self, doc: Document, action, company) -> Target:
        from engine.app.analysis import company_position
        from engine.games import build_problem, load_position

        if action is not None:
            raise ApiError(400, f"{doc.id} is a position: it has no actions (drop 'action')")
        try:
            position = load_position(doc.data)
            others = _companies_of_position(position)
            if company is not None and company not in others:
                raise ApiError(400, f"{doc.name}: unknown company {company!r} "
                                    f"(companies: {', '.join(others)})")  # fmt: skip
            seen = company_position(position, company) if company else position
            problem, view = build_problem(seen)
        except ApiError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ApiError(400, f"{doc.name}: {_one_line(exc)}") from None
        counts: dict[str, int] = {}
        ids = []
        for t in problem.trains:
            ids.append(f"{t.name}-{counts.get(t.name, 0)}")
            counts[t.name] = counts.get(t.name, 0) + 1
        meta = {
            "kind": "position",
            "phase": seen.phase,
            "round": None,
            "operating": position.company,
            "finished": False,
            "companies": [{"company": c, "trains": _trains_of(position, c)} for c in others],
            "next": None,
            "note": "train ids are made up (a position file has none): train name and count",
        }
        return Target(doc.id, None, seen.company, problem, view, ids, seen.to_dict(),
                      f"{seen.title} {seen.company} phase {seen.phase}", meta)  # fmt: skip

    def _record_target(self, doc: Document, action, company) -> Target:
        rep, lock = self._game_at(doc, action)
        with lock:
            game = rep.game
            where = f"{doc.name} at action {action}" if action is not None else f"{doc.name} (end)"
            operating = (
                game.or_turn.op
                if game.round.kind == "operating" and not game.finished and game.or_turn
                else None
            )
            if company is None:
                if operating is None:
                    state = (f"the game is over ({game.end_reason})" if game.finished
                             else f"no company is operating ({game.round.kind} round)")  # fmt: skip
                    raise ApiError(400, f"{where}: {state}; choose a company")
                company = operating
            if company not in game.state.operators:
                known = ", ".join(sorted(game.state.operators))
                raise ApiError(400, f"{where}: unknown company {company!r} (companies: {known})")
            try:
                problem, view = game.route_problem(company, full_board=True)
                train_ids = [str(t.id) for t in game.runnable_trains(company)]
                position = game.turn_position(company, {"record": doc.name, "action": action})
                companies = []
                for sym in sorted(game.state.operators):
                    info = game.state.operators[sym]
                    if getattr(info, "closed", False):
                        continue
                    companies.append({
                        "company": sym,
                        "trains": [t.name for t in game.runnable_trains(sym)],
                        "cash": int(game.cash(sym)) if hasattr(game, "cash") else None,
                    })  # fmt: skip
            except ApiError:
                raise
            except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
                raise ApiError(400, f"{where}: {company}: {_one_line(exc)}") from None
            index = rep.stopped_at if rep.stopped_at is not None else len(rep.actions)
            nxt = rep.actions[index] if index < len(rep.actions) else None
            declared = None
            if (
                nxt is not None
                and nxt.get("type") == "run_routes"
                and str(nxt.get("entity")) == company
            ):
                declared = nxt
            kind = game.round.kind
            round_label = (
                f"OR {game.turn}.{game.round.num}" if kind == "operating"
                else f"SR {game.turn}" if kind == "stock" else f"{kind} {game.turn}"
            )  # fmt: skip
            meta = {
                "kind": doc.kind,
                "phase": view.position.phase,
                "round": round_label,
                "operating": operating,
                "finished": bool(game.finished),
                "end_reason": game.end_reason if game.finished else None,
                "companies": companies,
                "index": index,
                "next": None if nxt is None else {
                    "number": nxt.get("id", index + 1),
                    "type": nxt.get("type"),
                    "entity": nxt.get("entity"),
                },
            }  # fmt: skip
        return Target(doc.id, action, company, problem, view, train_ids, position.to_dict(),
                      f"{doc.name} action {action if action is not None else 'end'}: "
                      f"{company} phase {view.position.phase}",
                      meta, declared, game, lock)  # fmt: skip

    async def target_async(self, doc_id: str, action: int | None, company: str | None) -> Target:
        return await asyncio.to_thread(self.target, doc_id, action, company)

    # ------------------------------------------------------------------ solving
    async def solution(self, t: Target, time_limit: float, cache: bool = True):
        """The routing solution of a target (cached per target and time limit)."""
        key = ("solve", t.doc, t.action, t.company, float(time_limit))
        return await self._cached_job(key, cache, work.solve_problem, t.problem, float(time_limit))

    def solution_dict(self, t: Target, solution) -> dict:
        net = t.problem.network
        routes = []
        for r in solution.routes:
            routes.append({
                "train": r.train_name,
                "train_index": int(r.train),
                "train_id": t.train_ids[r.train] if r.train < len(t.train_ids) else None,
                "revenue": int(r.revenue),
                "stop_revenue": int(r.stop_revenue),
                "bonuses": {k: int(v) for k, v in r.bonuses.items()},
                "stops": route_stops(t.view, net, r),
                "nodes": [int(n) for n in r.nodes],
            })  # fmt: skip
        running = {r.train for r in solution.routes}
        idle = [tr.name for i, tr in enumerate(t.problem.trains) if i not in running]
        seconds = solution.stats.get("seconds")
        return {
            "doc": t.doc,
            "action": t.action,
            "company": t.company,
            "label": t.label,
            "total": int(solution.total),
            "optimal": bool(solution.optimal),
            "bound": int(solution.bound),
            "seconds": float(seconds) if isinstance(seconds, int | float) else None,
            "method": solution.stats.get("method"),
            "routes": routes,
            "idle_trains": idle,
            "run_routes": self.run_routes(t, solution),
        }

    def run_routes(self, t: Target, solution) -> dict:
        return run_routes_action(t.view, t.problem.network, solution, t.company, t.train_ids)

    # ------------------------------------------------------------------ declared routes
    def read_declared(self, t: Target, routes: list) -> list[tuple[int, list[int]]]:
        """Routes a client declares, as ``(train index, nodes)``: 18xx.games routes
        (``train`` id, ``connections``) on a record, or ``train`` and ``stops`` (node names
        or hexes) on any document."""
        if not isinstance(routes, list):
            raise ApiError(400, "routes: expected a list of routes")
        if not routes:
            return []
        if all(isinstance(r, dict) and "connections" in r for r in routes):
            if t.game is None:
                raise ApiError(400, "routes: 'connections' need a game record; on a position "
                                    "give each route 'train' and 'stops'")  # fmt: skip
            for i, r in enumerate(routes):
                if not isinstance(r.get("connections"), list) or not all(
                    isinstance(c, list) and all(isinstance(h, str) for h in c)
                    for c in r["connections"]
                ):
                    raise ApiError(400, f"routes[{i}].connections: expected lists of hex ids")
            assert t.lock is not None
            with t.lock:
                try:
                    read = t.game.read_routes(t.company, routes, t.problem, t.view)
                except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
                    raise ApiError(422, f"routes: {_one_line(exc)}") from None
            from engine.model.routes import declaration_order

            return [(read[i].train_index, list(read[i].readings[0][0]))
                    for i in declaration_order(read)]  # fmt: skip
        return self._stop_routes(t, routes)

    def _stop_routes(self, t: Target, routes: list) -> list[tuple[int, list[int]]]:
        net = t.problem.network
        names = [tr.name for tr in t.problem.trains]
        used: set[int] = set()
        out = []
        for i, item in enumerate(routes):
            where = f"routes[{i}]"
            if not isinstance(item, dict) or "train" not in item or "stops" not in item:
                raise ApiError(400, f"{where}: needs 'train' and 'stops' (or 'connections')")
            train = item["train"]
            if isinstance(train, int) and not isinstance(train, bool):
                index = train
                if not 0 <= index < len(names):
                    raise ApiError(400, f"{where}.train: index {index} out of range "
                                        f"(trains: {names})")  # fmt: skip
            elif isinstance(train, str) and train in t.train_ids:
                index = t.train_ids.index(train)
            elif isinstance(train, str):
                free = [k for k, n in enumerate(names) if n == train and k not in used]
                if not free:
                    raise ApiError(400, f"{where}.train: no (further) train {train!r}; "
                                        f"trains: {names}")  # fmt: skip
                index = free[0]
            else:
                raise ApiError(400, f"{where}.train: a train name, id or index, got {train!r}")
            used.add(index)
            stops = item["stops"]
            if not isinstance(stops, list) or not stops:
                raise ApiError(400, f"{where}.stops: expected a list of stops")
            nodes = []
            for k, s in enumerate(stops):
                here = f"{where}.stops[{k}]"
                if isinstance(s, int) and not isinstance(s, bool):
                    if not 0 <= s < net.n_nodes:
                        raise ApiError(400, f"{here}: node {s} does not exist")
                    nodes.append(s)
                elif isinstance(s, str) and s in net.node_names:
                    nodes.append(net.node_names.index(s))
                elif isinstance(s, str) and s in t.view.board:
                    found = t.view.stop_nodes(s)
                    if len(found) != 1:
                        opts = ", ".join(net.node_names[n] for n in found) or "none"
                        raise ApiError(400, f"{here}: hex {s} has {len(found)} stops; "
                                            f"name one of {opts}")  # fmt: skip
                    nodes.append(found[0])
                else:
                    raise ApiError(400, f"{here}: no stop or node called {s!r}")
            out.append((index, nodes))
        return out

    def validate(self, t: Target, routes: list | None) -> dict:
        """Score declared routes (default: the ones the record's next ``run_routes``
        declares), or say which rule they break."""
        import routing

        source = "request"
        if routes is None:
            if t.declared is None:
                raise ApiError(400, "routes: none given, and the record's next action is no "
                                    f"run_routes of {t.company}")  # fmt: skip
            routes = [r for r in t.declared.get("routes") or []
                      if isinstance(r, dict) and r.get("connections")]  # fmt: skip
            source = "record"
        declared = self.read_declared(t, routes)
        net = t.problem.network
        try:
            scored = routing.validate(t.problem, declared)
        except routing.RouteError as exc:
            return {"legal": False, "error": f"illegal routes: {_one_line(exc)}",
                    "source": source, "total": None, "routes": [],
                    "declared_nodes": [[i, n] for i, n in declared]}  # fmt: skip
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise ApiError(422, f"routes: {_one_line(exc)}") from None
        out_routes = []
        for r in scored.routes:
            out_routes.append({
                "train": r.train_name,
                "train_index": int(r.train),
                "train_id": t.train_ids[r.train] if r.train < len(t.train_ids) else None,
                "revenue": int(r.revenue),
                "bonuses": {k: int(v) for k, v in r.bonuses.items()},
                "stops": route_stops(t.view, net, r),
                "nodes": [int(n) for n in r.nodes],
                "parts": stop_parts(t.view, net, r.nodes),
            })  # fmt: skip
        stored = None
        if source == "record" and t.declared is not None:
            revs = [r.get("revenue") for r in routes]
            stored = sum(revs) if revs and None not in revs else t.declared.get("revenue")
        return {
            "legal": True,
            "error": None,
            "source": source,
            "total": int(scored.total),
            "stored_revenue": stored,
            "routes": out_routes,
            "notes": list(getattr(scored, "notes", []) or []),
        }

    # ------------------------------------------------------------------ what-if
    async def analysis(self, t: Target, kinds: tuple[str, ...], time_limit: float,
                       cache: bool = True) -> dict:  # fmt: skip
        key = ("analyse", t.doc, t.action, t.company, kinds, float(time_limit))
        position, company = analysis_input(t)
        return await self._cached_job(key, cache, work.analyse, position, company, kinds,
                                      float(time_limit))  # fmt: skip

    # ------------------------------------------------------------------ drawing
    def render(self, t: Target, routes: list[tuple[str, list[int]]], caption: str,
               legend: list[str] | None = None) -> str:  # fmt: skip
        """The board with ``routes`` in the company's colour (dash patterns per train),
        tokens in their companies' colours, and a legend line per route."""
        from engine.model.render import render_view

        return render_view(t.view, t.problem.network, routes, caption, legend)


def analysis_input(t: Target) -> tuple[dict, str | None]:
    """What the what-if ranking analyses: the target's position (``turn_position`` on a
    record: trains that may still run, cash, this turn).  The one place to switch to
    ``analyse_game`` when it lands."""
    position = dict(t.position)
    if position.get("cash") is not None and "cash" not in (position.get("extras") or {}):
        # the ranking reads the treasury from extras.cash (docs/POSITIONS.md)
        position["extras"] = {**(position.get("extras") or {}), "cash": position["cash"]}
    return position, None


def _companies_of_position(position) -> list[str]:
    seen: dict[str, None] = {position.company: None}
    for tok in position.tokens:
        seen.setdefault(tok.company, None)
    for sym in position.extras.get("companies") or {}:
        seen.setdefault(str(sym), None)
    return list(seen)


def _trains_of(position, company: str) -> list[str]:
    if company == position.company:
        return list(position.trains)
    info = (position.extras.get("companies") or {}).get(company)
    return [str(t) for t in info.get("trains", [])] if isinstance(info, dict) else []


def _safe_name(name: str | None) -> str:
    """A file name sent by a client, for messages only (never opened)."""
    if not name:
        return ""
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in base if ch.isprintable())[:80]
