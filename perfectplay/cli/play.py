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
    parser.add_argument("game", metavar="GAME", help="a registered game, or a saved solution")
    add_param_option(parser)
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
        if "/" not in args.game and not os.path.isfile(args.game):
            raise
        name = None
    if name is None:
        from perfectplay.store import open_store

        if args.param:
            raise InputFormatError("--param applies to a game name, not to a saved solution")
        with open_store(args.game) as store:
            session = PlaySession(
                store.game, store, human=args.side, stdin=sys.stdin, stdout=sys.stdout
            )
            return session.run()
    from perfectplay.api import solve

    game = load_game(name, **parse_params(name, args.param))
    print(f"Solving {game.info.name}...", file=sys.stderr)
    return PlaySession(game, solve(game), human=args.side, stdin=sys.stdin, stdout=sys.stdout).run()
