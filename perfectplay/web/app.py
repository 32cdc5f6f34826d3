"""The web app: a Starlette ASGI application serving the pages and the JSON API under ``/api/``.

Routes (the API is documented in ``docs/web.md``):

=====================================  =======================================================
``GET /``                              the gallery of games and databases (a page)
``GET /games/{name}``                  a game's page (``?params=...&position=...&moves=...``)
``GET /databases/{id}``                a database's page
``GET /api/games``                     registered games and databases, the value colours
``GET /api/gallery``                   the front page's cards: each game's start pictured,
                                       its value and size as far as known (never waits)
``GET /api/games/{name}/position``     a position of a registered game (solved on first use)
``GET /api/databases/{id}/position``   a position of a database given on the command line
``GET /static/...``                    the pages' scripts and style sheet
=====================================  =======================================================

Every error answers JSON ``{"error": "..."}`` with a 4xx status naming the problem (unknown
game: 404; bad parameters, illegal moves, unreadable or unreachable positions, ``params`` that
are not a database's own: 400; a game too large to solve here: 413, at once). A position whose
game is still being solved answers 202 with ``{"solving": true, ...}``: ask again. A game not
yet solved while the solver already has its limit of games solving or waiting answers 503 with
``{"error": ..., "busy": true, ...}`` and ``Retry-After``: nothing is started for it. A game too
large to solve that offers a compiled search (Connect Four 6x7) is served by search, position
by position: a position whose search is under way answers 202 with ``{"thinking": true, ...}``
and the seconds elapsed; the search goes on in a process of its own, so nothing else waits.

Examples
--------
>>> from starlette.testclient import TestClient
>>> with TestClient(create_app()) as client:
...     [g["name"] for g in client.get("/api/games").json()["games"]][:2]
...     client.get("/api/games/chess/position").json()
['tic-tac-toe', 'connect-four']
{'error': "unknown game 'chess'; registered games: tic-tac-toe, connect-four, ..."}
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from perfectplay._names import normalise_name
from perfectplay._targets import class_target
from perfectplay.errors import (
    InputFormatError,
    PerfectPlayError,
    TooLargeError,
    UnknownNameError,
)
from perfectplay.games.registry import game_entry, game_names, load_game
from perfectplay.params import parse_params
from perfectplay.protocol.answers import Answers
from perfectplay.protocol.game import Game, param_value_text
from perfectplay.search.service import SearchedGame, Thinking
from perfectplay.web.gallery import Gallery
from perfectplay.web.report import board_report, position_report, searched_report
from perfectplay.web.solutions import (
    DEFAULT_MAX_POSITIONS,
    RETRY_SECONDS,
    Busy,
    Database,
    SolutionCache,
    Solving,
    game_key,
    param_text,
)

__all__ = ["create_app", "database_ids", "parse_param_text"]

_STATIC = str(files("perfectplay.web") / "static")
FIRST_WAIT = 0.5
"""Seconds a position request waits for its game's solve before answering 202: small games and
games refused as their solve starts (too large) answer at once."""
SEARCH_WAIT = 0.2
"""Seconds a position of a game served by search waits for its search before answering 202:
positions near the end are answered at once, the others show that the program thinks."""


def database_ids(paths: Sequence[str]) -> list[str]:
    """URL names for store files: each file name's stem, lower case, ``-2``... if repeated.

    >>> database_ids(["a/ttt.ppstore", "b/ttt.ppstore", "C4 small.db"])
    ['ttt', 'ttt-2', 'c4-small']
    """
    ids: list[str] = []
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0].lower()
        base = re.sub(r"[^a-z0-9_.-]+", "-", stem).strip("-") or "db"
        name, k = base, 1
        while name in ids:
            k += 1
            name = f"{base}-{k}"
        ids.append(name)
    return ids


def parse_param_text(name: str, text: str) -> dict[str, Any]:
    """A game's parameters written ``KEY=VALUE;KEY=VALUE`` (values as ``--param`` takes them).

    >>> parse_param_text("nim", "heaps=1,2,3")
    {'heaps': (1, 2, 3)}
    >>> parse_param_text("connect-four", " rows=4 ; cols=4 ")
    {'rows': 4, 'cols': 4}
    """
    items = [item for item in text.split(";") if item.strip()]
    return parse_params(game_entry(name), items)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _status_of(error: PerfectPlayError) -> int:
    if isinstance(error, UnknownNameError):
        return 404
    if isinstance(error, TooLargeError):
        return 413
    return 400


def _query_text(request: Request, key: str) -> str | None:
    values = request.query_params.getlist(key)
    if len(values) > 1:
        raise InputFormatError(f"give {key} at most once, got it {len(values)} times")
    return values[0] if values else None


def _move_labels(request: Request) -> list[str]:
    text = _query_text(request, "moves")
    return [label.strip() for label in text.split(",")] if text else []


def _json_params(game: Game[Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in game.info.params.items()}


def _game_listing() -> list[dict[str, Any]]:
    """Every registered game's name, description and parameters, as ``/api/games`` lists them."""
    listing = []
    for name in game_names():
        entry = game_entry(name)
        params = [
            {
                "name": p.name,
                "kind": p.kind,
                "default": list(p.default) if isinstance(p.default, tuple) else p.default,
                "help": p.help,
            }
            for p in entry.parameters()
        ]
        listing.append({"name": entry.name, "description": entry.summary, "params": params})
    return listing


def _own_listing(game: Game[Any]) -> dict[str, Any]:
    """A game of one's own (``serve --game``) as ``/api/games`` lists it: its parameters are
    fixed, so none is offered."""
    params = param_text(game).replace(";", ", ")
    fixed = f"; parameters {params}" if params else ""
    about = game.info.description or (type(game).__doc__ or "").strip().split("\n")[0]
    summary = f"{about} ({class_target(type(game))}{fixed})".lstrip()
    return {"name": game.info.name, "description": summary, "params": []}


def _check_own_params(game: Game[Any], request: Request) -> None:
    """Refuse ``params`` other than those a game of one's own is served with."""
    text = _query_text(request, "params")
    if text is None:
        return
    asked = {k.strip(): v.strip() for k, _, v in (i.partition("=") for i in text.split(";") if i)}
    if asked != {k: param_value_text(v) for k, v in game.info.params.items()}:
        raise InputFormatError(
            f"params={text!r}: {game.info.name} is served with params={param_text(game)!r}, "
            "which are fixed; leave params out"
        )


def _check_database_params(db: Database, request: Request) -> None:
    """Refuse ``params`` that are not `db`'s own: a database's parameters are fixed."""
    text = _query_text(request, "params")
    if text is None:
        return
    game = db.source.game
    asked = load_game(game.info.name, **parse_param_text(game.info.name, text))
    if game_key(asked) != game_key(game):
        raise InputFormatError(
            f"params={text!r}: database {db.id!r} holds {game.info.name} with "
            f"params={param_text(game)!r}, which are fixed; leave params out"
        )


def _report(solved: Answers, request: Request) -> dict[str, Any] | Thinking:
    """The position the request names, reported (or a search's status)."""
    game = solved.game
    start, played = _query_text(request, "position"), _move_labels(request)
    found = (
        searched_report(solved, start, played, SEARCH_WAIT)
        if isinstance(solved, SearchedGame)
        else position_report(solved, start, played)
    )
    if isinstance(found, Thinking):
        return found
    report: dict[str, Any] = {
        "game": game.info.name,
        "params": _json_params(game),
        "param_text": param_text(game),
        "start": start,
        "played": played,
    }
    report.update(found)
    return report


def create_app(
    databases: Sequence[Database] = (),
    *,
    cache: SolutionCache | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    games: Sequence[Game[Any]] = (),
) -> Starlette:
    """The ASGI application.

    Parameters
    ----------
    databases : sequence of Database
        Saved solutions to serve (from :func:`open_database`; the caller closes them).
    cache : SolutionCache, optional
        Where registered games are solved and kept; default: a new one, closed with the app.
    max_positions : int
        Largest game solved on request (for a new cache).
    games : sequence of Game
        Games of one's own to list and serve by name (``serve --game``), each with its own
        parameters only; a registered game of the same name is then not served.

    Returns
    -------
    Starlette
        Serve it with uvicorn (see :func:`perfectplay.web.server.serve`) or test it with
        ``starlette.testclient.TestClient``.
    """
    solutions = cache if cache is not None else SolutionCache(max_positions=max_positions)
    by_id = {db.id: db for db in databases}

    own = {normalise_name(game.info.name): game for game in games}
    listing = [_own_listing(game) for game in games] + [
        entry for entry in _game_listing() if normalise_name(entry["name"]) not in own
    ]

    async def games_listing(request: Request) -> Response:
        from perfectplay.draw import PALETTE

        stores = [
            {
                "id": db.id,
                "file": os.path.basename(os.path.normpath(db.path)),
                "game": db.source.game_name,
                "params": db.source.params,
                "positions": db.positions,
            }
            for db in databases
        ]
        return JSONResponse({"games": listing, "databases": stores, "palette": PALETTE})

    gallery = Gallery(
        [*games, *(entry["name"] for entry in listing[len(games) :])], databases, solutions
    )

    async def gallery_cards(request: Request) -> Response:
        from perfectplay.draw import PALETTE

        # in a worker thread: the first call draws every start and estimates every size
        cards = await run_in_threadpool(gallery.cards)
        return JSONResponse({"cards": cards, "palette": PALETTE})

    async def game_position(request: Request) -> Response:
        game = own.get(normalise_name(request.path_params["name"]))
        if game is None:
            name = game_entry(request.path_params["name"]).name
            game = load_game(name, **parse_param_text(name, _query_text(request, "params") or ""))
        else:
            _check_own_params(game, request)
        # in a worker thread: the wait for a quick solve must not hold up other requests
        found = await run_in_threadpool(solutions.lookup, game, FIRST_WAIT)
        if isinstance(found, Busy):
            busy = {
                "error": found.message(),
                "busy": True,
                "game": found.game,
                "solving": list(found.solving),
                "limit": found.limit,
            }
            return JSONResponse(busy, status_code=503, headers={"Retry-After": f"{RETRY_SECONDS}"})
        if isinstance(found, Solving):
            status = {
                "solving": True,
                "game": found.game,
                "elapsed": round(found.elapsed, 2),
                "running": found.running,
            }
            return JSONResponse(status, status_code=202)
        # in a worker thread: a search's answer is waited for up to SEARCH_WAIT
        report = await run_in_threadpool(_report, found, request)
        if isinstance(report, Thinking):
            start, played = _query_text(request, "position"), _move_labels(request)
            # the board without values, so that the page shows it while the search runs
            board = await run_in_threadpool(board_report, found.game, start, played)
            status = {
                "thinking": True,
                "game": report.game,
                "elapsed": round(report.elapsed, 2),
                "running": report.running,
                **board,
            }
            return JSONResponse(status, status_code=202)
        return JSONResponse(report)

    async def database_position(request: Request) -> Response:
        key = request.path_params["id"]
        db = by_id.get(key)
        if db is None:
            known = ", ".join(by_id) or "none"
            raise UnknownNameError(f"unknown database {key!r}; databases served: {known}")
        _check_database_params(db, request)
        report = _report(db.source, request)
        assert not isinstance(report, Thinking)  # a database answers, it does not search
        report["database"] = db.id
        return JSONResponse(report)

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return FileResponse(os.path.join(_STATIC, name), media_type="text/html")

        return endpoint

    async def on_perfectplay_error(request: Request, error: Exception) -> Response:
        if not isinstance(error, PerfectPlayError):  # registered for this class only
            raise error
        return _error(_status_of(error), str(error))

    async def on_http_error(request: Request, error: Exception) -> Response:
        if not isinstance(error, HTTPException):  # registered for this class only
            raise error
        return _error(error.status_code, f"{error.detail}: {request.method} {request.url.path}")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        if cache is None:
            solutions.close()

    routes = [
        Route("/", page("index.html")),
        Route("/games/{name}", page("game.html")),
        Route("/databases/{id}", page("game.html")),
        Route("/api/games", games_listing),
        Route("/api/gallery", gallery_cards),
        Route("/api/games/{name}/position", game_position),
        Route("/api/databases/{id}/position", database_position),
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            PerfectPlayError: on_perfectplay_error,
            HTTPException: on_http_error,
        },
        lifespan=lifespan,
    )
    app.state.solutions = solutions
    app.state.databases = by_id
    return app
