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
    parser.add_argument(
        "--draw",
        metavar="FILE",
        help="also draw the input's first instance (only the first when it holds several) to "
        "FILE.svg or FILE.png: the board or graph, a maximum matching, D(G), each start "
        "coloured by its winner (see docs/pictures.md)",
    )
    parser.add_argument(
        "--certificate",
        metavar="FILE",
        help="geography problems: also write a certificate of every maximum matching and D(G) "
        "computed (check it with perfectplay verify FILE)",
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
    if args.draw is not None:
        from perfectplay.draw.output import check_picture_path

        check_picture_path(args.draw)
    if args.input == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(args.input, "rb") as source:
            data = source.read()
    answer = _solve(problem, data, args.certificate)
    sys.stdout.write(answer)
    if args.draw is not None:  # drawn after solving: the input is known to be well-formed
        from perfectplay.draw import write_picture
        from perfectplay.draw.problems import problem_svg

        sys.stdout.flush()  # the answer stands even if the picture is then refused
        write_picture(args.draw, problem_svg(problem.name, data))
    return 0


def _solve(problem: Any, data: bytes, certificate: str | None) -> str:
    """The judge output; with `certificate`, also write the geography results' certificates."""
    if certificate is None:
        answer: str = problem.solve(data)
        return answer
    from perfectplay.errors import InputFormatError
    from perfectplay.solvers.certificate import save_certificates
    from perfectplay.solvers.geography import recording

    with recording() as results:
        answer = problem.solve(data)
    if not results:
        raise InputFormatError(
            f"--certificate: problem {problem.name} solves no geography game on this input"
        )
    save_certificates(certificate, results)
    return answer
