"""``perfectplay problem NAME``: judge input on stdin, the judge's expected output on stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser", "plain", "problem_help", "sample"]


def add_parser(subparsers: Any) -> None:
    """Register the ``problem`` subcommand."""
    parser = subparsers.add_parser(
        "problem",
        help="solve a contest problem: judge input on stdin, judge output on stdout",
        description="Solve a registered contest problem byte for byte as its judge expects. "
        "problem NAME --help shows the problem's input and output formats and a sample.",
        add_help=False,
    )
    parser.add_argument(
        "-h",
        "--help",
        action="store_true",
        help="show this help; with NAME, the problem's formats and a sample input and output",
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
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="lift the judge's documented limits (sizes, numbers of lines), which are "
        "otherwise enforced before any work; memory is still checked",
    )
    parser.set_defaults(handler=run, usage=parser.format_help)


def run(args: argparse.Namespace) -> int:
    """List the problems, or solve one."""
    from perfectplay.cli import fail
    from perfectplay.problems import get_problem, problem_names

    if args.help:
        sys.stdout.write(args.usage() if args.name is None else problem_help(args.name))
        return 0
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
    answer = _solve(problem, data, args.certificate, limits=not args.no_limits)
    sys.stdout.write(answer)
    if args.draw is not None:  # drawn after solving: the input is known to be well-formed
        from perfectplay.draw import write_picture
        from perfectplay.draw.problems import problem_svg

        sys.stdout.flush()  # the answer stands even if the picture is then refused
        write_picture(args.draw, problem_svg(problem.name, data))
    return 0


def _solve(problem: Any, data: bytes, certificate: str | None, *, limits: bool) -> str:
    """The judge output; with `certificate`, also write the geography results' certificates."""
    if certificate is None:
        answer: str = problem.solve(data, limits=limits)
        return answer
    from perfectplay.errors import InputFormatError
    from perfectplay.solvers.certificate import save_certificates
    from perfectplay.solvers.geography import recording

    with recording() as results:
        answer = problem.solve(data, limits=limits)
    if not results:
        raise InputFormatError(
            f"--certificate: problem {problem.name} solves no geography game on this input"
        )
    save_certificates(certificate, results)
    return answer


def problem_help(name: str) -> str:
    """The help of problem `name`: its module's documentation (what it solves, the input and
    output formats) and its first example as a sample input and output.

    >>> print(problem_help("knights").splitlines()[0])
    knights (aliases: none): One or two knights, no repeated positions: count the starting ...
    """
    import textwrap

    from perfectplay.problems import get_problem

    problem = get_problem(name)
    doc = sys.modules[problem.solve.__module__].__doc__ or ""
    prose = doc.split("\n>>>")[0].strip()
    first, _, rest = prose.partition("\n")
    aliases = ", ".join(problem.aliases) or "none"
    body = textwrap.dedent(rest).strip()
    lines = [f"{problem.name} (aliases: {aliases}): {plain(first)}", plain(body), ""]
    found = sample(doc)
    if found is not None:
        given, expected = found
        lines += ["Sample input:", given.rstrip("\n"), "Sample output:", expected.rstrip("\n")]
    lines += ["", f"Usage: perfectplay problem {problem.name} < INPUT"]
    return "\n".join(lines) + "\n"


def plain(text: str) -> str:
    """`text` without its reST markup: a role names its target (``:class:`~a.b.C``` is ``C``,
    ``:func:`a.f``` is ``a.f``), a literal loses its double backquotes.

    >>> plain("graph of :class:`~perfectplay.builders.knights.Knights`; input ``n m k``")
    'graph of Knights; input n m k'
    """
    import re

    def target(found: re.Match[str]) -> str:
        name = found.group(2)
        return name.rsplit(".", 1)[-1] if found.group(1) else name

    text = re.sub(r":[\w:]+:`(~?)([^`<]+?)(?:\s*<[^>]*>)?`", target, text)
    return text.replace("``", "")


def sample(doc: str) -> tuple[str, str] | None:
    r"""``(input, output)`` of the first ``solve(b"...")`` example of a problem's docstring.

    >>> sample('>>> solve(b"1 2\\n")\n\'3\\n\'\n')
    ('1 2\n', '3\n')
    """
    import ast
    import doctest

    for example in doctest.DocTestParser().get_examples(doc):
        tree = ast.parse(example.source.strip(), mode="eval").body
        printed = isinstance(tree, ast.Call) and getattr(tree.func, "id", "") == "print"
        call = tree.args[0] if printed and isinstance(tree, ast.Call) and tree.args else tree
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "solve"):
            continue
        given = ast.literal_eval(call.args[0]).decode()
        expected = example.want if printed else ast.literal_eval(example.want.strip())
        return given, expected
    return None
