"""``perfectplay book GAME --depth D -o FILE``: an opening book for the search.

Every position within D moves of the start (one per symmetry class) is searched once, in worker
processes on every core or as tasks on a Dask cluster, and the answers are written to FILE
(atomically, with a checksum); a build stopped at any moment resumes where it stopped when run
again. ``perfectplay search --book FILE`` answers those positions without searching.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from perfectplay.cli._options import add_game_options

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``book`` subcommand."""
    parser = subparsers.add_parser(
        "book",
        help="search every position up to a depth into an opening book for `search`",
        description=(
            "Search every position within DEPTH moves of the start (one per symmetry class) "
            "and write the values and remoteness for the player to move into FILE, for "
            "perfectplay search --book FILE. Resumable: run it again after an interruption."
        ),
    )
    parser.add_argument(
        "target", metavar="GAME", nargs="?", help="a registered game's name (or use --game)"
    )
    add_game_options(parser)
    parser.add_argument(
        "--depth", type=int, required=True, metavar="D", help="moves from the start"
    )
    parser.add_argument("-o", "--out", required=True, metavar="FILE", help="the book file")
    parser.add_argument("--weak", action="store_true", help="record values only (faster)")
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="worker processes (default: every core)"
    )
    parser.add_argument(
        "--dask",
        metavar="local:N|tcp://HOST:PORT",
        help="run the searches as tasks on a Dask cluster instead",
    )
    parser.add_argument(
        "--memory", metavar="SIZE", help="each search's table (default as for search)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the book and say what it cost."""
    from perfectplay._memory import parse_bytes
    from perfectplay.cli._resolve import build_game
    from perfectplay.errors import InputFormatError
    from perfectplay.search import build_book

    game: Any = build_game(args.target, args.param, args.game)
    if args.jobs is not None and args.jobs < 1:
        raise InputFormatError(f"--jobs must be at least 1, got {args.jobs}")
    memory = None if args.memory is None else parse_bytes(args.memory, "--memory")
    stats = build_book(
        game, args.depth, args.out, weak=args.weak, memory=memory, jobs=args.jobs, dask=args.dask
    )
    print(
        f"{args.out}: {stats.positions:,} positions of depth <= {args.depth} "
        f"({stats.searched:,} searched, {stats.kept:,} kept from an earlier run) in "
        f"{stats.seconds:.1f} s",
        file=sys.stderr,
    )
    return 0
