"""``perfectplay solve FILE``: solve a game graph file, one line per position (or ``--json``)."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time: numba stays out of start-up
    from perfectplay.graphfile import ParsedGraph

__all__ = ["add_parser", "resolve_target", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a game graph file: value and remoteness of every position",
        description=(
            "Solve a game graph given in the plain text format (first line `n m`, then m moves "
            "`u v`, then optional `u WIN|LOSE|TIE` lines; `#` starts a comment) by retrograde "
            "analysis. Prints `id VALUE remoteness` per position, values for the player to move, "
            "remoteness `-` for a DRAW."
        ),
    )
    parser.add_argument(
        "target",
        metavar="FILE",
        help="a game graph file, or - to read it from standard input",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object {"positions": [...], "summary": {...}} instead',
    )
    parser.set_defaults(handler=run)


def resolve_target(target: str) -> ParsedGraph:
    """The game graph `target` names: ``-`` (standard input), a path containing ``/`` or an
    existing file is read as a graph file.

    Raises
    ------
    FileNotFoundError
        If `target` names no existing file.
    InputFormatError, TooLargeError
        If the file is malformed or too large (see :func:`perfectplay.graphfile.parse_graph`).
    """
    from perfectplay.graphfile import read_graph_file

    if target == "-" or "/" in target or os.path.isfile(target):
        return read_graph_file(target)
    raise FileNotFoundError(errno.ENOENT, "no such file", target)


def run(args: argparse.Namespace) -> int:
    """Solve the graph `args.target` names and print every position's value and remoteness.

    The whole output is built before anything is written, so an error leaves stdout empty.
    """
    from perfectplay.graphfile import format_solution, format_solution_json
    from perfectplay.solvers.retrograde import solve_retrograde

    parsed = resolve_target(args.target)
    solution = solve_retrograde(parsed.graph, parsed.primitive)
    text = format_solution_json(solution) + "\n" if args.json else format_solution(solution)
    sys.stdout.write(text)
    return 0
