"""``perfectplay draw GAME|FILE [POSITION]``: a position as a picture, moves coloured by value."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from perfectplay.cli import add_param_option

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
    parser.add_argument(
        "game",
        metavar="GAME|FILE",
        help="a registered game's name, a saved file or a tier directory",
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="*",
        help="the position in the game's text format (several words are joined by spaces); "
        "default: the starting position",
    )
    add_param_option(parser)
    parser.add_argument(
        "--moves",
        metavar="LABELS",
        default="",
        help="play these moves (labels separated by commas) from POSITION first",
    )
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
    from perfectplay.errors import InputFormatError

    if os.path.exists(args.game):
        if args.param:
            raise InputFormatError("--param applies to a game name, not to a saved FILE")
        from perfectplay.solved import open_solved

        store: Any = open_solved(args.game)  # a store file or a tier directory
        return (None if store.game_name is None else store.game), store, store
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game, parse_params

    game = load_game(args.game, **parse_params(args.game, args.param))
    return game, solve(game), None


def _start(game: Any, store: Any, text: str | None) -> Any:
    """The position `text` names (the start by default)."""
    if store is not None:
        from perfectplay.cli.query import parse_position

        return parse_position(store, text)
    return game.initial() if text is None else game.parse(text)


def _play(solved: Any, position: Any, labels: list[str]) -> list[Any]:
    """The positions from `position` through the moves `labels` (each must be legal)."""
    from perfectplay.errors import InputFormatError

    path = [position]
    for label in labels:
        moves = {m.label: m for m in solved.move_values(path[-1])}
        if label not in moves:
            known = ", ".join(moves) or "none: the game is over"
            raise InputFormatError(f"move {label!r} is not legal here; legal moves: {known}")
        path.append(moves[label].position)
    return path


def _value(solved: Any, position: Any) -> tuple[Any, int]:
    if hasattr(solved, "probe"):
        entry = solved.probe(position)
        return entry.value, entry.remoteness
    return solved.value(position), solved.remoteness(position)


def run(args: argparse.Namespace) -> int:
    """Solve or open, play the moves, draw, write."""
    from perfectplay.draw import position_svg, value_history_svg, write_picture
    from perfectplay.draw.output import check_picture_path
    from perfectplay.draw.position import graph_position_svg

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
        text = " ".join(args.position) if args.position else None
        labels = [w.strip() for w in args.moves.split(",") if w.strip()]
        path = _play(solved, _start(game, store, text), labels)
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
        write_picture(args.history, value_history_svg(history, size=args.width))
    if args.output is None:
        sys.stdout.write(svg)
    else:
        write_picture(args.output, svg)
    return 0
