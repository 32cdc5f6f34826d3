"""``perfectplay problem NAME``: judge input on stdin, the judge's expected output on stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    """Register the ``problem`` subcommand."""
    parser = subparsers.add_parser(
        "problem",
        help="solve a contest problem: judge input on stdin, judge output on stdout",
        description="Solve a registered contest problem byte for byte as its judge expects.",
    )
    parser.add_argument("name", nargs="?", help="problem name or alias (see --list)")
    parser.add_argument("--list", action="store_true", help="list the registered problems")
    parser.add_argument(
        "-i", "--input", default="-", help="read the judge input from this file (default: stdin)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """List the problems, or solve one."""
    from perfectplay.cli import fail
    from perfectplay.problems import get_problem, problem_names

    if args.list:
        for name in problem_names():
            problem = get_problem(name)
            names = ", ".join((problem.name, *problem.aliases))
            print(f"{names:<30} {problem.summary}")
        return 0
    if args.name is None:
        return fail("problem: give a problem NAME, or --list to see them")
    problem = get_problem(args.name)
    if args.input == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(args.input, "rb") as source:
            data = source.read()
    sys.stdout.write(problem.solve(data))
    return 0
