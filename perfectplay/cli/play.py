"""``perfectplay play GAME``: play a registered game (or a saved one) against perfect play."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from perfectplay.cli import add_param_option

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play a game against perfect play in the terminal",
        description=(
            "Play a registered game against perfect play: the board is drawn after every move; "
            "enter moves by label or number; commands: values, hint, undo, help, quit. GAME is "
            "a registered game's name (solved first), or a file saved by "
            "`perfectplay solve GAME --save FILE` (nothing to solve)."
        ),
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a registered game, a saved solution, or a tier directory (solve --tiers)",
    )
    add_param_option(parser)
    parser.add_argument(
        "--db",
        metavar="FILE|DIR",
        help="play GAME from this saved solution or tier directory instead of solving it",
    )
    parser.add_argument(
        "--side",
        choices=("first", "second"),
        default="first",
        help="move first or second (default: first)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Solve (or open) the game, then run the session on stdin and stdout."""
    from perfectplay.errors import InputFormatError, UnknownNameError
    from perfectplay.games.registry import game_entry, load_game, parse_params
    from perfectplay.play import PlaySession

    try:
        name = game_entry(args.game).name
    except UnknownNameError:
        if "/" not in args.game and not os.path.exists(args.game):
            raise
        name = None
    if name is None or args.db is not None:
        from perfectplay.solved import open_solved

        if args.param:
            raise InputFormatError("--param applies to a game name, not to a saved solution")
        with open_solved(args.game if name is None else args.db) as store:
            if name is not None and store.game_name != name:
                raise InputFormatError(f"{args.db} holds {store.game_name}, not {name}")
            session = PlaySession(
                store.game, store, human=args.side, stdin=sys.stdin, stdout=sys.stdout
            )
            return session.run()
    from perfectplay.api import solve

    game = load_game(name, **parse_params(name, args.param))
    print(f"Solving {game.info.name}...", file=sys.stderr)
    return PlaySession(game, solve(game), human=args.side, stdin=sys.stdin, stdout=sys.stdout).run()
