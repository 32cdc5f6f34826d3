"""The judges' documented limits of a contest problem, checked through the command line.

`assert_limit` runs one input at a limit and one just past it: the first is solved, the
second refused with one error line (exit 2, nothing on standard output) before any work, and
solved again once ``--no-limits`` (``limits=False`` in Python) lifts the limits.
"""

from __future__ import annotations

import time

from cli_helpers import run_cli

from perfectplay.problems import get_problem

REFUSAL_SECONDS = 0.5
"""A refusal reads a few numbers: far below the solve it spares (in-process, warm imports)."""


def assert_limit(name: str, at_limit: str, past: str, message: str) -> None:
    """`at_limit` is solved; `past` is refused with ``line N: <message>``; lifted, it is solved.

    `message` is the error after ``perfectplay: error: ``, with its line number.
    """
    accepted = run_cli(["problem", name], at_limit)
    assert accepted.code == 0 and accepted.err == "", accepted.err
    assert accepted.out == get_problem(name).solve(at_limit.encode(), limits=False)
    start = time.perf_counter()
    refused = run_cli(["problem", name], past)
    seconds = time.perf_counter() - start
    assert (refused.code, refused.out) == (2, "")
    assert refused.err == f"perfectplay: error: {message}\n"
    assert "documented limit" in message and "--no-limits" in message
    assert seconds < REFUSAL_SECONDS
    lifted = run_cli(["problem", name, "--no-limits"], past)
    assert lifted.code == 0 and lifted.err == "", lifted.err
    assert lifted.out == get_problem(name).solve(past.encode(), limits=False)


def refusal(line: int, what: str, value: int, limit: int) -> str:
    """The error line of a value above its documented limit, as the reader words it."""
    return (
        f"line {line}: {what}: {value} is above the documented limit {limit} "
        "(--no-limits or limits=False lifts it)"
    )
