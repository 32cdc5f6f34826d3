"""``perfectplay play GAME|FILE``: play a registered game (or a saved one) against perfect play."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from perfectplay.cli._options import (
    add_game_options,
    add_position_arguments,
    add_target_argument,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play a game against perfect play in the terminal",
        description=(
            "Play a registered game against perfect play: the board is drawn after every move; "
            "enter moves by label or number; commands: values, hint, undo, help, quit. GAME is "
            "a registered game's name (solved first), or a store file or tier directory saved "
            "by `perfectplay solve GAME -o PATH` (nothing to solve). A game too large to solve in "
            "memory that offers a compiled search (Connect Four 6x7) is played by search: each "
            "position is searched when it comes up, the elapsed time shown while it thinks."
        ),
    )
    add_target_argument(parser)
    add_position_arguments(parser)
    add_game_options(parser)
    parser.add_argument(
        "--db",
        metavar="FILE|DIR",
        help="play GAME from this saved solution or tier directory instead of solving it",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="play by search, each position searched when it comes up, even where the game "
        "could be solved (a game too large to solve in memory that offers a compiled search, "
        "such as Connect Four 6x7, is played by search anyway)",
    )
    parser.add_argument(
        "--side",
        choices=("first", "second"),
        default="first",
        help="move first or second (default: first)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Solve (or open) the game, then run the session on stdin and stdout from the position
    asked for."""
    from perfectplay.cli._options import read_position
    from perfectplay.cli._resolve import build_game, open_saved, resolve, with_game
    from perfectplay.errors import InputFormatError, TooLargeError
    from perfectplay.play import PlaySession, ThinkingLine
    from perfectplay.search.service import SearchedGame, offers_search

    args.target, args.position = with_game(args.target, args.position, args.game)
    where = resolve(args.target) if args.target is not None else None
    db = args.db if where is None or where.path is None else where.path
    if db is not None:
        with open_saved(db, args.game, args.param) as store:
            named = None if where is None or where.entry is None else where.entry.name
            if named is not None and store.game_name != named:
                raise InputFormatError(f"{args.db} holds {store.game_name}, not {named}")
            session = PlaySession(
                store.game, store, human=args.side, stdin=sys.stdin, stdout=sys.stdout
            )
            session.history = read_position(store.game, args.position, args.moves)
            return session.run()
    from perfectplay.api import solve

    game: Any = build_game(args.target, args.param, args.game)
    path = read_position(game, args.position, args.moves)
    solved: Any = None
    if not args.search:
        print(f"Solving {game.info.name}...", file=sys.stderr)
        try:
            solved = solve(game)
        except TooLargeError as error:
            if not offers_search(game):
                raise
            why = error.what  # the engine's finding, without its advice
            print(
                f"{why}, too many to solve in memory: playing by search, position by position",
                file=sys.stderr,
            )
    with contextlib.ExitStack() as stack:
        if solved is None:
            solved = stack.enter_context(SearchedGame(game, on_wait=ThinkingLine(sys.stdout)))
        session = PlaySession(game, solved, human=args.side, stdin=sys.stdin, stdout=sys.stdout)
        session.history = path  # --side first: the side to move at POSITION
        return session.run()
