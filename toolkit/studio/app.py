"""The studio's HTTP API and pages: a Starlette app over the same library calls as the CLI.

Every request passes toolkit.studio.security.Guard first (Host, token, Origin, size). Handlers
parse their input, call one function of toolkit.studio.design / games / runs, and answer JSON;
a ToolkitError becomes status 400 and its one line (`{"error": ...}`, with `problems` for a
spec), which the page shows as it is.
"""
from __future__ import annotations

import asyncio
import json
import sys
import traceback
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from toolkit.errors import SpecError, ToolkitError, UsageError
from toolkit.fileio import check_json_depth
from toolkit.studio.runs import MAX_REPORT_BYTES
from toolkit.studio.security import LOOPBACK_NAMES, MAX_BODY_BYTES, Guard, sheet_key, static_key

STATIC = Path(__file__).parent / "static"
WATCH_SECONDS = 0.5
"""How often FOLDER's spec files and records are looked at for changes."""
MAX_BODY_DEPTH = 32
"""Deepest nesting a request body may have (a posted patch or run is 3 levels deep)."""
BODY_SECONDS = 10.0
"""Longest the studio waits for a request's body once its headers have arrived."""
MAX_WAIT_SECONDS = 25.0
CLOSING_CHECK_SECONDS = 0.25
"""Longest a /api/changes request waits before answering `no change`."""


class Studio:
    """The state of one studio: its folder, games, records, runs and the folder's version."""

    def __init__(self, root: Path, max_running: int | None = None):
        from toolkit.studio.games import Games, Records
        from toolkit.studio.runs import MAX_RUNNING, Runs

        self.root = root.resolve()
        self.games = Games()
        self.records = Records()
        self.runs = Runs(self.root, max_running or MAX_RUNNING)
        self.version = 0
        self._signature: tuple | None = None
        self._changed: asyncio.Event | None = None
        self.closing = False
        """Set when the server stops: waiting requests answer at once."""
        self.static_prefix = "/static/"
        """Where the page's scripts and styles are served (create_app adds the token's key)."""
        self.tables = None
        """Doodle tables (toolkit.studio.table.Tables; create_app gives it the players' keys)."""
        self.links: list[str] = []
        """The studio's addresses on the network (with the token), for another device."""

    def signature(self) -> tuple:
        """(path, mtime, size) of every spec file and record of FOLDER."""
        import os

        from toolkit.studio.design import SPEC_SUFFIXES, walk

        out = []
        for rel in walk(self.root, (*SPEC_SUFFIXES, ".json")):
            try:
                st = os.stat(self.root / rel)
            except OSError:
                continue
            out.append((rel, st.st_mtime_ns, st.st_size))
        return tuple(out)

    def look(self) -> bool:
        """Look at FOLDER once; True (and a new version) when something changed."""
        signature = self.signature()
        if signature != self._signature:
            first = self._signature is None
            self._signature = signature
            if not first:
                self.version += 1
                return True
        return False

    async def watch(self) -> None:
        self._changed = asyncio.Event()
        await run_in_threadpool(self.look)
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                changed = await run_in_threadpool(self.look)
            except Exception:  # a file vanishing mid-walk: look again next time
                continue
            if changed:
                self._changed.set()
                self._changed = asyncio.Event()

    async def wait_change(self, since: int, seconds: float) -> int:
        """The folder's version once it differs from `since`, or after `seconds` (sooner when the
        studio is stopping, so an open page never holds up Ctrl-C)."""
        deadline = asyncio.get_running_loop().time() + seconds
        while self.version == since and self._changed is not None and not self.closing:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            try:
                await asyncio.wait_for(self._changed.wait(), min(left, CLOSING_CHECK_SECONDS))
            except asyncio.TimeoutError:
                pass
        return self.version


# ----- helpers ------------------------------------------------------------------------------------

def _error(error: Exception, studio: Studio) -> JSONResponse:
    if isinstance(error, ToolkitError):
        body: dict[str, Any] = {"error": error.render().split("\n")[0] if isinstance(error, SpecError) else error.render()}
        if isinstance(error, SpecError):
            from toolkit.studio.design import problem_json

            problems = [problem_json(studio.root, p) for p in error.problems]
            body["problems"] = problems
            body["error"] = f"{len(problems)} problem(s) in the spec: " + problems[0]["text"] if problems else body["error"]
        problems = getattr(error, "problems_json", None)
        if problems is not None:
            body["problems"] = problems
        return JSONResponse(body, status_code=400)
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
    return JSONResponse({"error": f"internal error ({type(error).__name__}): {error}"}, status_code=500)


async def _read_body(request: Request) -> bytearray:
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > MAX_BODY_BYTES:
            raise _TooLarge()
    return data


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to MAX_BODY_BYTES (a body without a length is counted)
    and within BODY_SECONDS: a body trickling in a byte at a time keeps its connection only so long."""
    try:
        data = await asyncio.wait_for(_read_body(request), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise _TooSlow() from None
    if not data:
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the request is not JSON (not UTF-8 text)") from None
    # measured before parsing: a deep enough body would exhaust the parser's recursion
    check_json_depth(text, MAX_BODY_DEPTH, "the request")
    try:
        value = json.loads(text)
    except ValueError:
        raise UsageError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise UsageError("the request must be a JSON object")
    return value


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


def _handler(work):
    """A route: run `work(request, studio)`, turning errors into one line of JSON."""

    async def endpoint(request: Request) -> Response:
        studio: Studio = request.app.state.studio
        try:
            result = await work(request, studio)
        except _TooLarge:
            return JSONResponse({"error": f"refused: the request is larger than {MAX_BODY_BYTES} bytes"}, status_code=413)
        except _TooSlow:
            return JSONResponse({"error": f"refused: the request's body did not arrive within {BODY_SECONDS:g} s"},
                                status_code=408, headers={"connection": "close"})
        except Exception as error:  # noqa: BLE001 - every error becomes a message on the page
            return _error(error, studio)
        if isinstance(result, Response):
            return result
        return JSONResponse(result, headers={"cache-control": "no-store"})

    return endpoint


def _int(request: Request, name: str, default: int | None = None, low: int = 0, high: int = 10**9) -> int:
    text = request.query_params.get(name)
    if text is None:
        if default is None:
            raise UsageError(f"{name} is needed")
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise UsageError(f"{name}: a whole number {low}..{high}")
    return int(text)


# ----- routes -------------------------------------------------------------------------------------

def _page(name: str, studio: Studio) -> Response:
    # a page names its scripts and styles under the studio's static key (see security.py)
    page = (STATIC / name).read_text(encoding="utf-8").replace('"/static/', f'"{studio.static_prefix}')
    return Response(page, media_type="text/html; charset=utf-8", headers={"cache-control": "no-store"})


async def index(request: Request, studio: Studio):
    return _page("index.html", studio)


async def links(request: Request, studio: Studio):
    """The studio's network links, each with its QR code (an SVG), to open on another device."""
    from toolkit.studio import qr

    return {"links": [{"url": url, "qr": qr.svg(url)} for url in studio.links]}


async def qr_code(request: Request, studio: Studio):
    """The QR code of a link of this studio (a player's sheet at a table) as an SVG picture."""
    from toolkit.studio import qr

    text = request.query_params.get("text", "")
    if not text.startswith(("http://", "https://")) or len(text) > 300:
        raise UsageError("text: a link of at most 300 characters")
    return Response(qr.svg(text), media_type="image/svg+xml", headers={"cache-control": "no-store"})


async def table_deal(request: Request, studio: Studio):
    body = await _body(request)
    table = await run_in_threadpool(studio.tables.deal, studio.root, body)
    return await run_in_threadpool(_locked_table, table)


def _locked_table(table, work=None, seat=None):
    with table.lock:
        if work is not None:
            work()
        return table.view() if seat is None else table.sheet_view(seat)


async def table_view(request: Request, studio: Studio):
    return await run_in_threadpool(_locked_table, studio.tables.get(request.path_params["table"]))


async def table_next(request: Request, studio: Studio):
    table = studio.tables.get(request.path_params["table"])
    return await run_in_threadpool(_locked_table, table, table.next)


async def sheet_page(request: Request, studio: Studio):
    studio.tables.get(request.path_params["table"])
    return _page("sheet.html", studio)


async def sheet_view(request: Request, studio: Studio):
    table = studio.tables.get(request.path_params["table"])
    return await run_in_threadpool(_locked_table, table, None, int(request.path_params["seat"]))


async def sheet_cells(request: Request, studio: Studio):
    table = studio.tables.get(request.path_params["table"])
    seat = int(request.path_params["seat"])
    body = await _body(request)
    return await run_in_threadpool(_locked_table, table, lambda: table.set_cells(seat, body.get("cells")), seat)


async def info(request: Request, studio: Studio):
    def work():
        from toolkit import __version__
        from toolkit.bots import bot_names
        from toolkit.families import all_families

        families = []
        for family in all_families():
            i = family.info
            families.append({"name": i.name, "title": i.title, "default_edition": i.default_edition,
                             "bots": list(bot_names(family.family)), "fixed_seats": i.fixed_seats,
                             "balance_bots": i.balance_bots, "prices_patches": i.prices_patches,
                             "sweepable": i.sweep_names()})
        return {"folder": str(studio.root), "version": __version__, "families": families}

    return await run_in_threadpool(work)


async def specs(request: Request, studio: Studio):
    from toolkit.studio.design import spec_listing

    return await run_in_threadpool(spec_listing, studio.root)


async def deck(request: Request, studio: Studio):
    from toolkit.studio.design import deck_view

    ref = request.query_params.get("ref", "")
    return await run_in_threadpool(deck_view, studio.root, ref)


async def shape(request: Request, studio: Studio):
    from toolkit.studio.design import shape_facts

    return await run_in_threadpool(shape_facts, studio.root, await _body(request))


async def shape_preview(request: Request, studio: Studio):
    from toolkit.studio.design import preview_patch

    return await run_in_threadpool(preview_patch, studio.root, await _body(request))


async def shape_save(request: Request, studio: Studio):
    from toolkit.studio.design import save_patch

    return await run_in_threadpool(save_patch, studio.root, await _body(request))


async def changes(request: Request, studio: Studio):
    since = _int(request, "since", 0, 0, 10**12)
    wait = _int(request, "wait", 0, 0, int(MAX_WAIT_SECONDS))
    version = await studio.wait_change(since, float(wait))
    return {"version": version}


async def play_start(request: Request, studio: Studio):
    body = await _body(request)
    session = await run_in_threadpool(studio.games.start, studio.root, body)
    return await run_in_threadpool(_locked_view, session)


def _locked_view(session, work=None):
    with session.lock:
        if work is not None:
            work()
        return session.view()


async def play_view(request: Request, studio: Studio):
    session = studio.games.get(request.path_params["game"])
    return await run_in_threadpool(_locked_view, session)


async def play_act(request: Request, studio: Studio):
    session = studio.games.get(request.path_params["game"])
    body = await _body(request)
    return await run_in_threadpool(_locked_view, session, lambda: session.act(body.get("action")))


async def play_undo(request: Request, studio: Studio):
    session = studio.games.get(request.path_params["game"])
    return await run_in_threadpool(_locked_view, session, session.undo)


async def play_hint(request: Request, studio: Studio):
    session = studio.games.get(request.path_params["game"])

    def work():
        with session.lock:
            return session.hint()

    return await run_in_threadpool(work)


async def play_record(request: Request, studio: Studio):
    from toolkit.records import dumps

    session = studio.games.get(request.path_params["game"])

    def work():
        with session.lock:
            return dumps(session.record())

    text = await run_in_threadpool(work)
    name = f"{session.game.edition.name}-seed{session.game.seed}.json"
    return Response(text, media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="{name}"', "cache-control": "no-store"})


async def record_list(request: Request, studio: Studio):
    from toolkit.studio.games import record_listing

    return {"records": await run_in_threadpool(record_listing, studio.root)}


async def record_step(request: Request, studio: Studio):
    path = request.query_params.get("path", "")
    step = _int(request, "step", 0)

    def work():
        steps = studio.records.open(studio.root, path)
        return steps.view(min(step, len(steps.positions) - 1))

    return await run_in_threadpool(work)


async def run_start(request: Request, studio: Studio):
    body = await _body(request)
    # started from the event loop's thread, which lives as long as the studio: a child set to die
    # with its parent thread must not have a short-lived worker thread as that parent
    run = studio.runs.start(body)
    return run.view()


async def run_list(request: Request, studio: Studio):
    return {"runs": [run.view() for run in reversed(list(studio.runs.runs.values()))],
            "max_running": studio.runs.max_running}


async def run_view(request: Request, studio: Studio):
    return studio.runs.get(request.path_params["run"]).view()


async def run_stop(request: Request, studio: Studio):
    run = studio.runs.get(request.path_params["run"])
    run.stop()
    return run.view()


async def run_report(request: Request, studio: Studio):
    return await run_in_threadpool(studio.runs.report, request.path_params["run"])


RUN_FILE_TYPES = {".png": "image/png", ".pdf": "application/pdf", ".json": "application/json",
                  ".md": "text/markdown; charset=utf-8"}


async def run_file(request: Request, studio: Studio):
    run = studio.runs.get(request.path_params["run"])
    name = request.path_params["name"]
    if name not in run.files() or not any(name.endswith(s) for s in RUN_FILE_TYPES):
        raise UsageError(f"no file {name[:60]!r} in this run's results")
    suffix = "." + name.rsplit(".", 1)[-1]
    data = await run_in_threadpool(run.read, name, MAX_REPORT_BYTES)
    return Response(data, media_type=RUN_FILE_TYPES[suffix], headers={"cache-control": "no-store"})


async def run_page(request: Request, studio: Studio):
    from toolkit.studio.runs import report_page

    run = studio.runs.get(request.path_params["run"])
    if "report.pdf" not in run.files():
        raise UsageError("this run has written no report.pdf (yet)")
    data = await run_in_threadpool(report_page, run, int(request.path_params["page"]))
    return Response(data, media_type="image/png")


def create_app(folder: str | Path, token: str, allowed_hosts: frozenset[str] = LOOPBACK_NAMES,
               max_running: int | None = None, watch: bool = True, network_links: tuple[str, ...] = ()):
    """The studio's ASGI app for FOLDER, guarded by `token`; `network_links` are its addresses
    another device of the network may open (shown on the page with their QR codes)."""
    from toolkit.studio.table import Tables

    studio = Studio(Path(folder), max_running)
    studio.static_prefix = f"/static/{static_key(token)}/"
    studio.tables = Tables(lambda table, seat: sheet_key(token, table, seat))
    studio.links = list(network_links)

    @asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(studio.watch()) if watch else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
            await run_in_threadpool(studio.runs.stop_all)

    get, post = ["GET"], ["POST"]
    routes = [
        Route("/", _handler(index), methods=get),
        Route("/api/info", _handler(info), methods=get),
        Route("/api/specs", _handler(specs), methods=get),
        Route("/api/deck", _handler(deck), methods=get),
        Route("/api/shape", _handler(shape), methods=post),
        Route("/api/shape/preview", _handler(shape_preview), methods=post),
        Route("/api/shape/save", _handler(shape_save), methods=post),
        Route("/api/changes", _handler(changes), methods=get),
        Route("/api/play", _handler(play_start), methods=post),
        Route("/api/play/{game}", _handler(play_view), methods=get),
        Route("/api/play/{game}/act", _handler(play_act), methods=post),
        Route("/api/play/{game}/undo", _handler(play_undo), methods=post),
        Route("/api/play/{game}/hint", _handler(play_hint), methods=get),
        Route("/api/play/{game}/record", _handler(play_record), methods=get),
        Route("/api/records", _handler(record_list), methods=get),
        Route("/api/record", _handler(record_step), methods=get),
        Route("/api/runs", _handler(run_start), methods=post),
        Route("/api/runs", _handler(run_list), methods=get),
        Route("/api/runs/{run}", _handler(run_view), methods=get),
        Route("/api/runs/{run}/stop", _handler(run_stop), methods=post),
        Route("/api/runs/{run}/report", _handler(run_report), methods=get),
        Route("/api/runs/{run}/files/{name}", _handler(run_file), methods=get),
        Route("/api/runs/{run}/pages/{page:int}", _handler(run_page), methods=get),
        Route("/api/links", _handler(links), methods=get),
        Route("/api/qr", _handler(qr_code), methods=get),
        Route("/api/table", _handler(table_deal), methods=post),
        Route("/api/table/{table}", _handler(table_view), methods=get),
        Route("/api/table/{table}/next", _handler(table_next), methods=post),
        # a player's sheet: the Guard lets these through with that player's key instead of the token
        Route("/sheet/{table}/{seat:int}", _handler(sheet_page), methods=get),
        Route("/api/sheet/{table}/{seat:int}", _handler(sheet_view), methods=get),
        Route("/api/sheet/{table}/{seat:int}", _handler(sheet_cells), methods=post),
        Mount(f"/static/{static_key(token)}", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.studio = studio
    guarded = Guard(app, token, allowed_hosts)
    guarded.studio = studio
    return guarded
