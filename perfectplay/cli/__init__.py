"""The ``perfectplay`` command line.

Each subcommand lives in its own module ``perfectplay.cli.<command>`` with a function
``add_parser(subparsers)`` that registers its arguments and sets ``handler``. Command modules
import solvers and games inside their handlers, so start-up stays fast.

Any :class:`~perfectplay.errors.PerfectPlayError` (and unreadable files) becomes one line on
standard error and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from perfectplay.errors import PerfectPlayError

__all__ = ["main"]

# Subcommands in the order `perfectplay --help` lists them.
_COMMANDS = ("demo", "problem", "solve", "query", "analyze", "play", "games")

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    from perfectplay import __version__

    parser = argparse.ArgumentParser(
        prog="perfectplay",
        description="Perfect play for two-player games: who wins from every position, and how.",
    )
    parser.add_argument("--version", action="version", version=f"perfectplay {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in _COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def fail(message: str) -> int:
    """Print one error line to stderr and return the usage exit code."""
    print(f"perfectplay: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 on success, 2 on bad input)."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except PerfectPlayError as error:
        return fail(str(error))
    except OSError as error:  # unreadable or unwritable files named on the command line
        where = f": {error.filename}" if error.filename else ""
        return fail(f"{error.strerror or error}{where}")
    except KeyboardInterrupt:
        return 130
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
    return code
