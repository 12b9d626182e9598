"""The Starlette application of ``catbox serve``: the page, its static files and the JSON API.

Safety for a server on the user's machine:

- it answers only requests whose ``Host`` is this machine (``localhost``, ``127.0.0.1``,
  ``[::1]``, or the host it was told to bind) on its own port, which stops DNS rebinding;
  a request from another site's page (an ``Origin`` or ``Sec-Fetch-Site`` that is not this
  server) is refused, and the API takes only ``application/json`` bodies (no form posts);
- it serves no file the user did not name: the page and its scripts come from the package,
  the document named on the command line is read once at start, and positions in requests are
  one-line strings, never paths;
- request bodies are limited to :data:`MAX_BODY` bytes, and every field is checked;
- bad input gets a 4xx answer ``{"error": {"kind", "message", "rule", "where"}}`` with one
  clear message, and the server goes on; solves run in worker processes (:mod:`.jobs`).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from catbox.solver import formats
from catbox.solver.analysis import seat_to_analyse
from catbox.solver.errors import CatboxError, FormatError, PositionError
from catbox.solver.player import DEFAULT_LEVEL, MAX_LEVEL
from catbox.solver.record import Record

from . import api, api_practice, entry
from .errors import ApiError, bug_json, error_json
from .jobs import Pool

__all__ = ["MAX_BODY", "create_app"]

#: The largest request body accepted (bytes).
MAX_BODY = 256 * 1024
#: Host names the server answers to (besides the one it was told to bind).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
#: The longest a job may be given (seconds), and its default.
MAX_TIME_LIMIT = 600.0
DEFAULT_TIME_LIMIT = 60.0

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _error(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": ApiError(status, message, kind=kind).to_json()}, status_code=status
    )


class LocalOnly:
    """ASGI middleware: refuse (403) a request whose ``Host`` is not this server, or that
    another site's page sent."""

    def __init__(self, app: ASGIApp, hosts: set[str]):
        self.app = app
        self.hosts = hosts

    def allowed(self, value: str) -> bool:
        return value.lower() in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        origin = headers.get("origin")
        problem = None
        api_call = scope["path"].startswith("/api/")
        if not self.allowed(host):
            problem = f"this server answers only to {sorted(self.hosts)[0]}, not Host {host!r}"
        elif not api_call:
            pass
        elif origin is not None and origin.lower() not in {f"http://{h}" for h in self.hosts}:
            problem = f"requests from other sites' pages are refused (Origin {origin!r})"
        elif headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            problem = "requests from other sites' pages are refused"
        if problem is not None:
            await _error(403, "host", problem)(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes.

    Raises:
        ApiError: 415 not JSON, 413 too large, 400 not a JSON object.
    """
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "send a JSON object with Content-Type: application/json")
    length = request.headers.get("content-length")
    if length is not None and not length.isdigit():
        raise ApiError(400, "the Content-Length header is not a number")
    if length is not None and int(length) > MAX_BODY:
        raise ApiError(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    try:
        doc = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "the request body is not valid JSON") from None
    if not isinstance(doc, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return doc


def _endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return JSONResponse(handler(await read_json(request)))

    return endpoint


def create_app(
    initial: formats.Document | None = None,
    *,
    workers: int = 2,
    hosts: set[str] | None = None,
    pool: Pool | None = None,
    level: int = DEFAULT_LEVEL,
) -> Starlette:
    """The board's application. ``initial``: the document named on the command line (shown
    first); ``hosts``: the ``Host`` values to answer (default: this machine's names, any
    port — :mod:`.server` passes them with its port); ``level``: catbox's player's budget
    for the practice plays unless a job names its own."""
    jobs = pool or Pool(workers)
    first = api.document_json(initial) if initial is not None else None

    async def index(request: Request) -> Response:
        page = resources.files("catbox.web").joinpath("static/index.html").read_bytes()
        return Response(page, media_type="text/html; charset=utf-8")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "workers": len(jobs.slots)})

    async def initial_doc(request: Request) -> Response:
        return JSONResponse({"document": first})

    async def post_job(request: Request) -> Response:
        return JSONResponse(submit(jobs, await read_json(request), level), status_code=202)

    async def get_job(request: Request) -> Response:
        since = request.query_params.get("since", "0")
        if not since.isdigit() or len(since) > 6:
            raise ApiError(400, "'since' must be a row index (a whole number)")
        return JSONResponse(jobs.get(request.path_params["job"], int(since)))

    async def delete_job(request: Request) -> Response:
        return JSONResponse(jobs.cancel(request.path_params["job"]))

    async def post_practice_job(request: Request) -> Response:
        kind, params, limit = api_practice.practice_job(await read_json(request), level)
        return JSONResponse(jobs.submit(kind, params, limit), status_code=202)

    async def puzzles(request: Request) -> Response:
        return JSONResponse(api_practice.puzzle_list())

    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status)

    async def on_catbox_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, CatboxError)
        return JSONResponse({"error": error_json(exc)}, status_code=422)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        words = {404: "no such page or API call", 405: "this method is not allowed here"}
        return _error(exc.status_code, "request", words.get(exc.status_code, str(exc.detail)))

    async def on_other(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": bug_json(exc)}, status_code=500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the first finished round's score imports networkx (0.7 s): do it now, off the clicks
        threading.Thread(target=importlib.import_module, args=("networkx",), daemon=True).start()
        jobs.start()
        try:
            yield
        finally:
            jobs.close()

    static = StaticFiles(packages=[("catbox.web", "static")])
    # the board's redraw, shared with the HTML review (solver/assets/board.js)
    assets = StaticFiles(packages=[("catbox.solver", "assets")])
    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/health", health),
            Route("/api/initial", initial_doc),
            Route("/api/load", _endpoint(api.load_text), methods=["POST"]),
            Route("/api/deal", _endpoint(api.deal), methods=["POST"]),
            Route("/api/view", _endpoint(api.view), methods=["POST"]),
            Route("/api/play", _endpoint(api.play), methods=["POST"]),
            Route("/api/export", _endpoint(api.export), methods=["POST"]),
            Route("/api/edit", _endpoint(api.edit), methods=["POST"]),
            Route("/api/enter/start", _endpoint(entry.entry_start), methods=["POST"]),
            Route("/api/enter/step", _endpoint(entry.entry_step), methods=["POST"]),
            Route("/api/enter/game", _endpoint(entry.entry_game), methods=["POST"]),
            Route("/api/jobs", post_job, methods=["POST"]),
            Route("/api/jobs/{job}", get_job, methods=["GET"]),
            Route("/api/jobs/{job}", delete_job, methods=["DELETE"]),
            # practice: whole games against catbox, its reasons, puzzles played out
            Route("/api/practice/jobs", post_practice_job, methods=["POST"]),
            Route("/api/game/begin", _endpoint(api_practice.game_begin), methods=["POST"]),
            Route("/api/game/deal", _endpoint(api_practice.game_deal), methods=["POST"]),
            Route("/api/game/score", _endpoint(api_practice.game_score), methods=["POST"]),
            Route("/api/game/export", _endpoint(api_practice.game_export), methods=["POST"]),
            Route("/api/puzzles", puzzles),
            Route("/api/puzzles/open", _endpoint(api_practice.puzzle_open), methods=["POST"]),
            Mount("/static", static),
            Mount("/assets", assets),
        ],
        exception_handlers={
            ApiError: on_api_error,
            CatboxError: on_catbox_error,
            HTTPException: on_http,
            Exception: on_other,
        },
        lifespan=lifespan,
    )
    app.add_middleware(LocalOnly, hosts=hosts or set(LOCAL_HOSTS))
    return app


def submit(jobs: Pool, req: dict[str, Any], level: int = DEFAULT_LEVEL) -> dict[str, Any]:
    """``POST /api/jobs``: ``{"kind": "analyze"|"advise"|"play", "position", "seat"?,
    "time_limit"?, "seed"?, "samples"?, "level"?}`` (``level``: the player's budget for a
    ``play``, 0-5, default the server's), checked here (a 4xx at once for bad input), solved
    in a worker. ``analyze``: the table of every legal play (every hand known), rows as they
    are proven; ``advise``: the estimates for ``seat`` (default: the seat to play) from its own
    view; ``play``: catbox's play for the seat to play (practice)."""
    if req.get("kind") == "review":
        return submit_review(jobs, req)
    api.check_keys(req, {"kind", "position", "seat", "time_limit", "seed", "samples", "level"})
    kind = req.get("kind")
    if kind not in ("analyze", "advise", "play"):
        raise ApiError(400, "field 'kind' must be 'analyze', 'advise', 'play' or 'review'")
    pos = api.position_field(req)
    seat = api.seat_field(req, "seat", pos.players)
    time_limit = api.number_field(req, "time_limit", 0.1, MAX_TIME_LIMIT, DEFAULT_TIME_LIMIT)
    seed = api.int_field(req, "seed", 0, 2**31 - 1, 0)
    samples = api.int_field(req, "samples", 1, 2000, 200)
    lvl = api.int_field(req, "level", 0, MAX_LEVEL, level)
    if pos.to_play is None:
        raise PositionError("the round is over: nothing to analyse or play", rule="E1")
    if kind == "analyze":
        seat_to_analyse(pos)
    elif pos.seats[pos.to_play].hand is None:
        raise PositionError("the hand of the seat to play is unknown", where="position")
    if kind == "advise" and seat not in (None, pos.to_play):
        raise PositionError("advise ranks the plays of the seat to play", where="seat")
    params = {
        "position": formats.position_to_line(pos),
        "seat": req.get("seat"),
        "time_limit": time_limit,
        "seed": seed,
        "samples": samples,
        "level": lvl,
    }
    return jobs.submit(str(kind), params, time_limit if kind != "play" else 30.0)


def submit_review(jobs: Pool, req: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/jobs`` of kind ``review``: ``{"record", "seat", "time_limit"?}``:
    the entering seat's plays of an entered round judged from its own view (the command line's
    ``review RECORD --seat S``), answered with the review page (``html``) and a one-line
    summary. The record is read and replayed here (a 4xx at once when it is bad)."""
    api.check_keys(req, {"kind", "record", "seat", "time_limit"})
    obj = req.get("record")
    if not isinstance(obj, dict):
        raise ApiError(400, "field 'record' must be a round record (a JSON object)")
    record = formats.from_json_obj(obj)
    if not isinstance(record, Record):
        raise FormatError("expected a round record (catbox-record/1)", where="record")
    record.position()  # replay: every move checked
    seat = api.seat_field(req, "seat", record.players)
    if seat is None or record.deal[seat] is None:
        raise PositionError("the reviewed seat's dealt hand must be in the record", where="seat")
    time_limit = api.number_field(req, "time_limit", 0.1, MAX_TIME_LIMIT, DEFAULT_TIME_LIMIT)
    params = {
        "record": formats.to_json_obj(record),
        "seat": req.get("seat"),
        "time_limit": time_limit,
    }
    return jobs.submit("review", params, time_limit + 30.0)
