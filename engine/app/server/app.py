"""The ASGI app of ``eighteen serve``: a JSON API (OpenAPI at ``/api/openapi.json``) and
the page in ``static/`` that uses it.

Every refused request gets a 4xx status and ``{"error": "..."}`` naming the item; an
unexpected failure is logged and answered ``{"error": "internal error: ..."}`` (the tests
fuzz the endpoints so that none is ever reached).  Solves, analyses and whole replays run
in the worker pool (:mod:`engine.app.server.work`), so a long solve never blocks the other
requests.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.app.server.runs import route_stops
from engine.app.server.service import (
    MAX_TIME_LIMIT,
    MAX_UPLOAD_BYTES,
    ApiError,
    Service,
    Target,
)
from engine.app.server.work import Workers

__all__ = ["create_app", "VERSION"]

VERSION = "1"
_STATIC = Path(__file__).resolve().parent / "static"
_log = logging.getLogger("eighteen.server")


# ---------------------------------------------------------------------------- bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TargetBody(_Body):
    doc: str = Field(description="Document id (from /api/library or /api/documents).",
                     min_length=1, max_length=200)  # fmt: skip
    action: int | None = Field(None, description="Record: the position just before action "
                               "number N (default: after the last).")  # fmt: skip
    company: str | None = Field(None, description="Company (default: the one operating).",
                                max_length=40)  # fmt: skip


class SolveBody(TargetBody):
    time_limit: float = Field(10.0, gt=0, le=MAX_TIME_LIMIT, description="Seconds.")
    cache: bool = Field(True, description="false: solve again even if the answer is cached.")


class ValidateBody(TargetBody):
    routes: list | None = Field(
        None,
        description="18xx.games routes (train id, connections) on a record, or routes of "
        "'train' and 'stops' (node names or hexes); default: the routes the record's next "
        "run_routes declares.",
    )


class AnalyseBody(TargetBody):
    kinds: list[Literal["tile", "token", "train"]] = Field(
        default_factory=lambda: ["tile", "token", "train"], min_length=1
    )
    time_limit: float = Field(2.0, gt=0, le=MAX_TIME_LIMIT, description="Seconds per solve.")
    top: int = Field(20, ge=1, le=1000, description="Moves returned per kind.")
    cache: bool = True


# ---------------------------------------------------------------------------- errors
def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        msg = str(err.get("msg", "invalid"))
        if err.get("type") == "json_invalid":
            ctx = err.get("ctx") or {}
            msg = f"invalid JSON ({ctx.get('error', 'parse error')})"
            loc = "body"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "invalid request"


# ---------------------------------------------------------------------------- the app
def create_app(workers: Workers | None = None, service: Service | None = None) -> FastAPI:
    """The app; ``workers`` default to a process pool of up to two workers, started (and
    warmed) when the app starts."""
    workers = workers or (service.workers if service else Workers())
    service = service or Service(workers)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        await asyncio.to_thread(workers.start)
        try:
            yield
        finally:
            await asyncio.to_thread(workers.shutdown)

    app = FastAPI(
        title="eighteen",
        version=VERSION,
        description="Provably optimal 18xx routes: open a record or a position, step "
        "through it, solve, validate, analyse and draw.  Every error is "
        '`{"error": "..."}` with a 4xx status.',
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.state.service = service

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return _error(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError):
        return _error(422, _validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            return _error(404, f"no such endpoint: {request.url.path}")
        if exc.status_code == 405:
            return _error(405, f"method {request.method} not allowed on {request.url.path}")
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception):  # pragma: no cover - a bug
        _log.exception("unexpected error")
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    @app.middleware("http")
    async def _limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None:
            try:
                size = int(length)
            except ValueError:
                return _error(400, "Content-Length: not a number")
            if size > MAX_UPLOAD_BYTES:
                return _error(413, f"request body of {size} bytes is over the limit of "
                                   f"{MAX_UPLOAD_BYTES} bytes (5 MB)")  # fmt: skip
        try:
            return await call_next(request)
        except ApiError as exc:  # raised while reading a streamed body
            return _error(exc.status, exc.message)

    # ------------------------------------------------------------------ meta
    @app.get("/api/health", tags=["meta"])
    async def health() -> dict:
        """The server is up (and its workers warm)."""
        return {"status": "ok", "version": VERSION, "workers": workers.processes}

    @app.get("/api/library", tags=["documents"])
    async def library() -> dict:
        """The bundled example positions and game records."""
        return await asyncio.to_thread(service.library.listing)

    # ------------------------------------------------------------------ documents
    @app.post(
        "/api/documents",
        tags=["documents"],
        status_code=201,
        openapi_extra={"requestBody": {"content": {
            "application/json": {"schema": {"type": "object"}},
            "multipart/form-data": {"schema": {"type": "object", "properties": {
                "file": {"type": "string", "format": "binary"}}}},
        }, "required": True}},
    )  # fmt: skip
    async def upload(request: Request) -> dict:
        """Open a document: an 18xx.games export, a ``play --save`` file or a position file,
        as the JSON body (``?name=`` names it) or as the ``file`` field of a form.  At most
        5 MB.  Returns its id and summary."""
        ctype = request.headers.get("content-type", "")
        name = request.query_params.get("name")
        if ctype.startswith("multipart/form-data"):
            if request.headers.get("content-length") is None:
                raise ApiError(411, "a form upload needs a Content-Length")
            try:
                form = await request.form(max_files=1, max_fields=4)
            except Exception as exc:  # noqa: BLE001 - the parser's errors vary
                raise ApiError(400, f"form: {exc}") from None
            item = form.get("file")
            if item is None or isinstance(item, str):
                raise ApiError(400, "form: no 'file' field with a file")
            raw = await item.read(MAX_UPLOAD_BYTES + 1)
            name = name or item.filename
        else:
            raw = await _read_limited(request)
        doc = await asyncio.to_thread(service.upload, raw, name)
        return doc.summary()

    @app.get("/api/documents/{doc}", tags=["documents"])
    async def document(doc: str) -> dict:
        """A document's summary."""
        return (await asyncio.to_thread(service.document, doc)).summary()

    @app.get("/api/documents/{doc}/timeline", tags=["records"])
    async def timeline(doc: str) -> dict:
        """Every action of a record: number, type, entity, round (``OR 3.2``) and the
        company operating then."""
        return await service.timeline(doc)

    @app.get("/api/documents/{doc}/position", tags=["records"])
    async def position(
        doc: str,
        action: int | None = Query(None, description="Just before action N."),
        company: str | None = Query(None, max_length=40),
    ) -> dict:
        """The position at action N: round, phase, operating company, every company's
        runnable trains, the next action, the company's position (docs/POSITIONS.md) and,
        when the next action is its ``run_routes``, the routes it declares."""
        t = await service.target_async(doc, action, company)
        return _position_dict(t)

    @app.get("/api/documents/{doc}/history", tags=["records"])
    async def history(
        doc: str, time_limit: float = Query(10.0, gt=0, le=MAX_TIME_LIMIT)
    ) -> dict:
        """The replay report: every ``run_routes`` with its round, declared and optimal
        revenue (``eighteen replay``)."""
        return await service.history(doc, time_limit)

    # ------------------------------------------------------------------ routes
    @app.post("/api/solve", tags=["routes"])
    async def solve(body: SolveBody) -> dict:
        """Optimal routes of a company: each train's stops and revenue, the total, whether it
        is proven optimal and the proven bound, and the ``run_routes`` action that runs them."""
        t = await service.target_async(body.doc, body.action, body.company)
        solution = await service.solution(t, body.time_limit, body.cache)
        return service.solution_dict(t, solution)

    @app.post("/api/run_routes", tags=["routes"])
    async def run_routes(body: SolveBody) -> dict:
        """The 18xx.games ``run_routes`` action of the optimal routes (train ids and
        ``connections``)."""
        t = await service.target_async(body.doc, body.action, body.company)
        solution = await service.solution(t, body.time_limit, body.cache)
        return service.run_routes(t, solution)

    @app.post("/api/validate", tags=["routes"])
    async def validate(body: ValidateBody) -> dict:
        """Score declared routes, or name the rule they break (``legal: false``)."""
        t = await service.target_async(body.doc, body.action, body.company)
        return await asyncio.to_thread(service.validate, t, body.routes)

    @app.post("/api/analyse", tags=["routes"])
    async def analyse(body: AnalyseBody) -> dict:
        """What-if: every legal tile lay, token and train purchase of the company ranked by
        the optimal revenue it gains (``eighteen analyse``)."""
        t = await service.target_async(body.doc, body.action, body.company)
        result = await service.analysis(t, tuple(body.kinds), body.time_limit, body.cache)
        moves = result.get("moves") or {}
        out = dict(result)
        out["moves"] = {k: v[: body.top] for k, v in moves.items()}
        out["counts"] = {k: len(v) for k, v in moves.items()}
        out["doc"], out["action"] = t.doc, t.action
        return out

    @app.get("/api/board.svg", tags=["routes"], response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}})  # fmt: skip
    async def board(
        doc: str = Query(..., min_length=1, max_length=200),
        action: int | None = None,
        company: str | None = Query(None, max_length=40),
        routes: Literal["optimal", "declared", "none"] = "optimal",
        time_limit: float = Query(10.0, gt=0, le=MAX_TIME_LIMIT),
        download: bool = False,
    ) -> Response:
        """The board as SVG, with the company's optimal routes, the routes the record's
        next ``run_routes`` declares, or none."""
        t = await service.target_async(doc, action, company)
        drawn: list[tuple[str, list[int]]] = []
        legend: list[str] = []
        caption = t.label
        net = t.problem.network
        if routes == "optimal":
            solution = await service.solution(t, time_limit)
            for r in sorted(solution.routes, key=lambda r: r.train):
                drawn.append((r.train_name, list(r.nodes)))
                legend.append(_legend_line(t, r.train, route_stops(t.view, net, r), r.revenue))
            proven = "" if solution.optimal else f" (not proven; bound {solution.bound})"
            caption += f" - optimal {solution.total}{proven}"
        elif routes == "declared":
            if t.declared is None:
                raise ApiError(400, f"routes=declared: the next action is no run_routes of "
                                    f"{t.company}")  # fmt: skip
            checked = await asyncio.to_thread(service.validate, t, None)
            if checked["legal"]:
                for r in sorted(checked["routes"], key=lambda r: r["train_index"]):
                    drawn.append((r["train"], r["nodes"]))
                    legend.append(_legend_line(t, r["train_index"], r["stops"], r["revenue"]))
                caption += f" - declared {checked['total']}"
            else:
                declared = [r for r in t.declared.get("routes") or []
                            if isinstance(r, dict) and r.get("connections")]  # fmt: skip
                read = await asyncio.to_thread(service.read_declared, t, declared)
                drawn = [(t.problem.trains[i].name, nodes) for i, nodes in sorted(read)]
                caption += f" - declared routes ({checked['error']})"
        svg = await asyncio.to_thread(service.render, t, drawn, caption, legend)
        headers = {}
        if download:
            safe = "".join(ch if ch.isalnum() else "-" for ch in f"{t.doc}-{t.action}-{t.company}")
            headers["Content-Disposition"] = f'attachment; filename="{safe}.svg"'
        return Response(svg, media_type="image/svg+xml", headers=headers)

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(_STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=_STATIC), name="static")
    return app


async def _read_limited(request: Request) -> bytes:
    """The body, refusing more than the upload limit even without a Content-Length."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_UPLOAD_BYTES:
            raise ApiError(413, f"request body is over the limit of {MAX_UPLOAD_BYTES} "
                                "bytes (5 MB)")  # fmt: skip
        chunks.append(chunk)
    return b"".join(chunks)


def _legend_line(t: Target, train: int, stops: list[dict], revenue: int) -> str:
    ident = t.train_ids[train] if train < len(t.train_ids) else "?"
    names = " - ".join(s["label"] if s["counted"] else f"[{s['label']}]" for s in stops)
    return f"{t.problem.trains[train].name} ({ident}): {names} = {revenue}"


def _position_dict(t: Target) -> dict:
    out = {
        "doc": t.doc,
        "action": t.action,
        "company": t.company,
        "label": t.label,
        "trains": [tr.name for tr in t.problem.trains],
        "train_ids": list(t.train_ids),
        "position": t.position,
        **t.meta,
    }
    declared = None
    if t.declared is not None:
        routes = [r for r in t.declared.get("routes") or [] if isinstance(r, dict)]
        declared = {"routes": routes, "revenue": t.declared.get("revenue")}
    out["declared"] = declared
    return out
