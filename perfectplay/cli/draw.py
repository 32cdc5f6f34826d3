"""``perfectplay draw GAME|FILE [POSITION]``: a position as a picture, moves coloured by value."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from perfectplay.cli._options import (
    add_game_options,
    add_position_arguments,
    add_target_argument,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``draw`` subcommand."""
    parser = subparsers.add_parser(
        "draw",
        help="draw a position with every legal move coloured by its value (SVG or PNG)",
        description=(
            "Draw a position of a registered game (solved first, in memory) or of a saved "
            "solution FILE (perfectplay solve GAME --save FILE) or tier directory (nothing is "
            "re-solved), with "
            "every legal move coloured by its value for the player making it and its "
            "remoteness. Writes SVG to standard output, or to -o FILE (.svg, or .png: needs "
            "cairosvg, pip install 'perfectplay[png]')."
        ),
    )
    add_target_argument(parser)
    add_position_arguments(parser)
    add_game_options(parser)
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE.svg or FILE.png")
    parser.add_argument(
        "--history",
        metavar="FILE",
        help="also write the value history of the positions played (start and --moves) to "
        "FILE.svg or FILE.png",
    )
    parser.add_argument("--width", type=float, metavar="PIXELS", help="picture width in pixels")
    parser.set_defaults(handler=run)


def _solved(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """``(game or None, solved, store or None)`` for GAME|FILE."""
    from perfectplay.cli._resolve import build_game, open_saved, resolve, with_game

    args.target, args.position = with_game(args.target, args.position, args.game)
    where = resolve(args.target) if args.target is not None else None
    if where is not None and where.path is not None:
        store: Any = open_saved(where.path, args.game, args.param)
        return (None if store.game_name is None else store.game), store, store
    from perfectplay.api import solve

    game: Any = build_game(args.target, args.param, args.game)
    return game, solve(game), None


def _path(game: Any, store: Any, args: argparse.Namespace) -> list[Any]:
    """The positions from POSITION (the start by default) through ``--moves``."""
    if game is None:  # a game graph: ids, moves by label through the solution
        from perfectplay.cli.query import parse_position
        from perfectplay.protocol.game import replay

        start = parse_position(store, " ".join(args.position) if args.position else None)
        return replay(_graph_game(store), start, _labels(args.moves))
    from perfectplay.cli._options import read_position

    return read_position(game, args.position, args.moves)


def _labels(text: str) -> list[str]:
    from perfectplay.cli._options import move_labels

    return move_labels(text)


def _graph_game(store: Any) -> Any:
    """A saved game graph's moves as a Game, for :func:`~perfectplay.protocol.game.replay`."""
    from perfectplay.protocol.game import Game

    class GraphMoves(Game[int]):
        def moves(self, position: int) -> list[tuple[str, int]]:
            return [(m.label, m.position) for m in store.move_values(position)]

    return GraphMoves()


def _value(solved: Any, position: Any) -> tuple[Any, int]:
    if hasattr(solved, "probe"):
        entry = solved.probe(position)
        return entry.value, entry.remoteness
    return solved.value(position), solved.remoteness(position)


def run(args: argparse.Namespace) -> int:
    """Solve or open, play the moves, draw, write."""
    from perfectplay.draw import position_svg, value_history_svg, write_picture
    from perfectplay.draw.output import check_picture_path
    from perfectplay.draw.position import graph_position_svg, side_to_move

    if args.width is not None and not 0 < args.width <= 100_000:
        from perfectplay.errors import InputFormatError

        raise InputFormatError(
            f"--width must be a number of pixels in (0, 100000], got {args.width}"
        )
    for path in (args.output, args.history):
        if path is not None:
            check_picture_path(path)
    game, solved, store = _solved(args)
    try:
        path = _path(game, store, args)
        moves = solved.move_values(path[-1])
        if game is None:
            svg = graph_position_svg(path[-1], moves, size=args.width)
        else:
            svg = position_svg(game, path[-1], moves, size=args.width)
        history = [_value(solved, p) for p in path]
    finally:
        if store is not None:
            store.close()
    if args.history is not None:
        side = None if game is None else side_to_move(game, path[0])
        write_picture(args.history, value_history_svg(history, side=side, size=args.width))
    if args.output is None:
        sys.stdout.write(svg)
    else:
        write_picture(args.output, svg)
    return 0
