"""``perfectplay serve [GAME | DB ...]``: the local web app to play and explore perfect play."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
from typing import TYPE_CHECKING, Any

from perfectplay.cli import fail
from perfectplay.cli._options import add_game_options

if TYPE_CHECKING:
    from perfectplay.web.solutions import Database

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="serve a local web page to play and explore perfect play",
        description=(
            "Serve the web app: a front page showing each registered game (and database "
            "given) at its start with its value and size as far as the server knows them (small "
            "games are solved on viewing it), and a page per game where you play against "
            "perfect play or explore both sides, "
            "every legal move coloured by its value. Games are solved on first use and kept "
            "in memory (a game too large to solve that offers a compiled search, such as "
            "Connect Four 6x7, is searched position by position); a database (a file written "
            "by `perfectplay solve GAME --save FILE`, or a directory by `--tiers DIR`) is "
            "served without solving. The JSON API is described in docs/web.md."
        ),
    )
    parser.add_argument(
        "sources",
        metavar="GAME|FILE",
        nargs="*",
        help="registered games or aliases to solve at once (the others are solved when first "
        "opened), or saved solutions to serve: store files or tier directories (solve GAME "
        "-o PATH; with --game, saved solutions of that game); a name without '/' is a "
        "registered game when there is one",
    )
    add_game_options(parser)
    parser.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free port)"
    )
    parser.add_argument(
        "--host",
        help="address to listen on (default 127.0.0.1, this machine only); an address other "
        "machines can reach, such as 0.0.0.0, is used only when given here",
    )
    parser.add_argument(
        "--max-positions",
        type=int,
        default=None,
        metavar="N",
        help="largest game to solve on request, in positions (default 20,000,000); a larger "
        "game that offers a compiled search (Connect Four 6x7) is served by search, each "
        "position searched when first asked about",
    )
    parser.add_argument(
        "--max-searches",
        type=int,
        default=None,
        metavar="N",
        help="searches running at once over all games served by search (default 2)",
    )
    parser.add_argument(
        "--max-solves",
        type=int,
        default=None,
        metavar="N",
        help="games solving or waiting to be solved at once (default 2); a request for one "
        "more game is answered 503 (retry later), nothing started",
    )
    parser.add_argument(
        "--keep-positions",
        type=int,
        default=None,
        metavar="N",
        help="positions of solved games kept in memory in all (default 40,000,000); beyond, "
        "the games least recently asked about are dropped and solved again when asked",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Open the databases, start solving the games named, bind, print the URL, serve."""
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        return fail(
            f"perfectplay serve needs {' and '.join(missing)}: pip install 'perfectplay[web]'"
        )
    from perfectplay.cli._resolve import build_game, resolve
    from perfectplay.errors import InputFormatError
    from perfectplay.web.app import create_app, database_ids
    from perfectplay.web.server import bind, serve
    from perfectplay.web.solutions import (
        DEFAULT_KEEP_POSITIONS,
        DEFAULT_MAX_POSITIONS,
        DEFAULT_MAX_SEARCHES,
        DEFAULT_MAX_SOLVES,
        SolutionCache,
        game_page,
        open_database,
    )

    names: list[str] = []
    files: list[str] = []
    for source in args.sources:
        where = resolve(source)
        if where.entry is not None:
            names.append(where.entry.name)
        else:
            files.append(source)
    if args.param and len(names) + (args.game is not None) != 1:
        raise InputFormatError("--param applies to exactly one game named on the command line")
    max_positions = DEFAULT_MAX_POSITIONS if args.max_positions is None else args.max_positions
    max_solves = DEFAULT_MAX_SOLVES if args.max_solves is None else args.max_solves
    keep = DEFAULT_KEEP_POSITIONS if args.keep_positions is None else args.keep_positions
    for option, value in (("--max-solves", max_solves), ("--keep-positions", keep)):
        if value < 1:
            raise InputFormatError(f"{option} must be at least 1, got {value}")
    games: list[Any] = [build_game(name, args.param, None) for name in names]
    own: list[Any] = []
    if args.game is not None and not files:
        own.append(build_game(None, args.param, args.game))
    games += own
    with contextlib.ExitStack() as stack:
        databases = []
        for key, path in zip(database_ids(files), files, strict=True):
            db = (
                open_database(key, path)
                if args.game is None
                else _database_of(key, path, args.game, args.param)
            )
            stack.callback(db.source.close)
            databases.append(db)
        sock = stack.enter_context(
            bind(args.host or "127.0.0.1", args.port, allow_remote=args.host is not None)
        )
        searches = DEFAULT_MAX_SEARCHES if args.max_searches is None else args.max_searches
        cache = SolutionCache(
            max_positions=max_positions,
            max_searches=searches,
            max_solves=max_solves,
            keep_positions=keep,
        )
        stack.callback(cache.close)
        for game in games:
            cache.lookup(game)  # starts solving now, in the background

        def announce(base: str) -> None:
            print(f"perfectplay: serving on {base} (Ctrl-C stops)", flush=True)
            for game in games:
                print(f"  {game.info.name}: {base}{game_page(game)}", flush=True)
            for db in databases:
                print(f"  {db.path}: {base}databases/{db.id}", flush=True)

        serve(create_app(databases, cache=cache, games=own), sock, announce=announce)
    return 0


def _database_of(key: str, path: str, target: str, params: list[str]) -> Database:
    """The saved solution at `path` opened with the game class `target` (``--game``) and
    `params`, as database `key`: a game of one's own, which the registry cannot rebuild.

    Cost: as :func:`~perfectplay.web.solutions.open_database`, plus importing `target`'s module.
    """
    from perfectplay.cli._resolve import open_saved
    from perfectplay.store import SolutionStore
    from perfectplay.web.solutions import Database

    source = open_saved(path, target, params)
    try:
        positions = source.n if isinstance(source, SolutionStore) else source.footprint()[0]
    except BaseException:
        source.close()
        raise
    return Database(key, path, source, positions)
