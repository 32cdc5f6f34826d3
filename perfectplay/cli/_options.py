"""Options shared by the commands, each defined once: the same spelling and help everywhere.

``add_target_argument`` (``GAME|FILE``), ``add_game_options`` (``--param``, ``--game``),
``add_json_option``, ``add_position_arguments`` (``POSITION`` and ``--moves``) and
``read_position`` (a typed position, then the moves).
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = [
    "POSITION_HELP",
    "add_game_options",
    "add_json_option",
    "add_position_arguments",
    "add_target_argument",
    "move_labels",
    "read_position",
]

POSITION_HELP = (
    "the position as the game draws it, or on one line: rows joined by / (tic-tac-toe X../.O./..., "
    "Connect Four ...../...../O..../XX... or the columns played, 1-based, 4453 or 4,4,10; dodgem "
    "B../B../.RR B; quixo X--/-O-/--- O; nim 3 4 5; every game's: perfectplay games); several "
    "words are the drawing's lines, one per word; default: the starting position"
)
"""The ``POSITION`` help shared by every command that takes a position."""


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--param KEY=VALUE`` (repeatable) and ``--game package.module:Class``."""
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the game, e.g. --param heaps=3,4,5 (repeatable; see "
        "perfectplay games)",
    )
    parser.add_argument(
        "--game",
        metavar="MODULE:CLASS",
        help="a game class of your own, e.g. mypackage.rules:MyGame (its module is imported); "
        "with a saved FILE, the game that made it",
    )


def add_target_argument(parser: argparse.ArgumentParser) -> None:
    """Add the optional ``GAME|FILE`` argument: a registered game or a saved solution (read by
    the rule of :mod:`perfectplay.cli._resolve`)."""
    parser.add_argument(
        "target",
        metavar="GAME|FILE",
        nargs="?",
        help="a registered game or alias, or a saved solution (a store file or a tier "
        "directory); a name without '/' is a registered game when there is one",
    )


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``: the command's data as one JSON object on standard output."""
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the optional ``POSITION`` words and ``--moves LABELS``."""
    parser.add_argument("position", metavar="POSITION", nargs="*", help=POSITION_HELP)
    parser.add_argument(
        "--moves",
        metavar="LABELS",
        default="",
        help="play these moves (labels separated by commas) from POSITION first, e.g. "
        "--moves b2,a1",
    )


def move_labels(text: str) -> list[str]:
    """The labels of ``--moves`` (comma-separated, blanks ignored).

    >>> move_labels(" b2, a1 ,")
    ['b2', 'a1']
    """
    return [word.strip() for word in text.split(",") if word.strip()]


def read_position(game: Any, words: list[str], moves: str) -> list[Any]:
    """The positions from the one `words` write (the start if none) through ``--moves``.

    Several words are the lines of the drawing, one per word (``". . X" ". O ." "X . ."``,
    each quoted), so games whose lines hold blanks can be typed without newlines.

    Returns ``[typed position, after the first move, ...]``; the last is the one asked for.
    Cost: one ``parse`` and one ``moves`` call per label.

    Raises
    ------
    InputFormatError
        A position the game cannot read, or an illegal move (named with its index).
    """
    from perfectplay.protocol.game import replay

    start = game.initial() if not words else game.parse("\n".join(words))
    return replay(game, start, move_labels(moves))
