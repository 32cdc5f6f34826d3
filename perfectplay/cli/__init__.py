"""The ``perfectplay`` command line.

Each subcommand lives in its own module ``perfectplay.cli.<command>`` with a function
``add_parser(subparsers)`` that registers its arguments and sets ``handler``; a new command is
one module and one name in ``_COMMANDS``. What a GAME|FILE argument names is decided in one
place (:mod:`perfectplay.cli._resolve`); shared options are defined in
:mod:`perfectplay.cli._options`. Command modules
import solvers and games inside their handlers, so start-up stays fast.

Any :class:`~perfectplay.errors.PerfectPlayError` (and unreadable files), and any usage error,
becomes one line on standard error and exit code 2, never a traceback. A reader that closes
the pipe early (``perfectplay ... | head``) ends the command silently with exit code 141.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from perfectplay.errors import PerfectPlayError

__all__ = ["main"]

# Subcommands in the order `perfectplay --help` lists them.
_COMMANDS = (
    "demo",
    "problem",
    "solve",
    "search",
    "book",
    "query",
    "analyze",
    "verify",
    "play",
    "games",
    "draw",
    "serve",
)

_OPTION = re.compile(r"--?[A-Za-z][\w-]*(=.*)?\Z", re.DOTALL)
"""A word written as an option (``-x``, ``--name``, ``--name=value``); a position may begin
with ``-`` too (Dobutsu's ``-l-/---/-C-/-L- F c``, an empty Morris board ``------...``)."""

EXIT_USAGE = 2
# What a shell reports for a command killed by SIGPIPE (128 + 13).
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        """Print ``perfectplay: error: [COMMAND: ]MESSAGE`` and exit with code 2."""
        command = " ".join(self.prog.split()[1:])
        self.exit(EXIT_USAGE, f"perfectplay: error: {command + ': ' if command else ''}{message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    from perfectplay import __version__

    parser = _Parser(
        prog="perfectplay",
        description="Perfect play for two-player games: who wins from every position, and how.",
    )
    parser.add_argument("--version", action="version", version=f"perfectplay {__version__}")
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    for name in _COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def fail(message: str) -> int:
    """Print one error line to stderr and return the usage exit code."""
    print(f"perfectplay: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so flushing what is left after a broken pipe cannot fail."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests): nothing to flush
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 on success, 2 on bad input).

    Usage errors (from argparse) print one line and raise ``SystemExit(2)``.
    """
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # A POSITION may follow options (search GAME --param rows=6 4453): words argparse
        # left over join the position of a command that takes one.
        options = [word for word in extra if _OPTION.match(word)]
        if isinstance(getattr(args, "position", None), list) and not options:
            args.position = [*args.position, *extra]
        else:
            parser.error(f"unrecognized arguments: {' '.join(options or extra)}")
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (| head): not an error of ours
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except PerfectPlayError as error:
        return fail(str(error))
    except OSError as error:  # unreadable or unwritable files named on the command line
        if error.filename is None:
            return fail(str(error.strerror or error))
        return fail(f"cannot open {error.filename}: {error.strerror or error}")
    except KeyboardInterrupt:
        return 130
    return code
