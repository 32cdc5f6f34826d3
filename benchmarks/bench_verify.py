"""Benchmark of ``perfectplay verify`` (:func:`perfectplay.verify.check_solution`) and of
``perfectplay solve --json``'s output, on the random graphs of ``bench_retrograde.py``.

Graphs: n positions, 10% without moves, mean out-degree 4 (m about 4 n), seed 2024, solved
once by ``solve_retrograde``. Rows:

* ``check``: the local check of every position against its moves (numpy, one thread and the
  default threads), best of 3, in moves per second;
* ``parse``: reading the solution back from ``perfectplay solve``'s text output (numpy), in
  positions per second;
* ``json``: ``format_solution_json`` (the compiled writer ``solve --json`` uses), against the
  two layouts it replaced or could have used with the standard library: one dict per position
  (the former writer) and columns (three lists); and orjson's dict per position when orjson is
  installed. Positions per second.

Usage::

    python benchmarks/bench_verify.py                 # 1e6 and 1e7
    python benchmarks/bench_verify.py --sizes 1e5     # quick
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_retrograde import random_graph

from perfectplay.graph import GameGraph
from perfectplay.graphfile import format_solution, format_solution_json
from perfectplay.solution import Solution
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import Value
from perfectplay.verify import check_solution, parse_solution

REPEATS = 3
JSON_MAX_N = 10**6  # the Python-object layouts take seconds per million positions


def best_of(repeats: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def dict_layout(solution: Solution) -> dict[str, Any]:
    """The ``--json`` object with one Python dict per position."""
    names = [Value(v).name for v in range(4)]
    positions = [
        {"id": p, "value": names[v], "remoteness": None if r < 0 else r}
        for p, (v, r) in enumerate(
            zip(solution.value.tolist(), solution.remoteness.tolist(), strict=True)
        )
    ]
    return {"positions": positions, "summary": solution.summary()}


def dicts(solution: Solution) -> str:
    """The former ``--json`` writer: one Python dict per position, stdlib json."""
    return json.dumps(dict_layout(solution))


def columns(solution: Solution) -> str:
    """A columnar layout: three lists, stdlib json."""
    names = np.array([Value(v).name for v in range(4)])
    remoteness = [None if r < 0 else r for r in solution.remoteness.tolist()]
    body = {
        "id": list(range(solution.graph.n)),
        "value": names[solution.value].tolist(),
        "remoteness": remoteness,
    }
    return json.dumps({"positions": body, "summary": solution.summary()})


def bench(n: int) -> list[tuple[str, float, float, str]]:
    """The rows for a graph of `n` positions: (what, seconds, rate, unit)."""
    graph = GameGraph(*random_graph(n))
    solution = solve_retrograde(graph)
    value, remoteness = _arrays(solution)
    rows: list[tuple[str, float, float, str]] = []
    for workers, label in ((1, "check, 1 thread"), (None, "check, threads")):
        seconds = best_of(
            REPEATS,
            lambda w=workers: _assert_ok(
                check_solution(graph.indptr, graph.indices, value, remoteness, workers=w)
            ),
        )
        rows.append((label, seconds, graph.m / seconds, "moves/s"))
    text = format_solution(solution).encode()
    seconds = best_of(REPEATS, lambda: parse_solution(text, n))
    rows.append(("parse solution text", seconds, n / seconds, "positions/s"))
    seconds = best_of(REPEATS, lambda: format_solution_json(solution))
    rows.append(("json: compiled writer", seconds, n / seconds, "positions/s"))
    if n > JSON_MAX_N:
        return rows
    for label, writer in (("json: dict per position", dicts), ("json: columns", columns)):
        seconds = best_of(1, lambda f=writer: f(solution))
        rows.append((label, seconds, n / seconds, "positions/s"))
    try:
        import orjson

        seconds = best_of(1, lambda: orjson.dumps(dict_layout(solution)))
        rows.append(("json: orjson dicts", seconds, n / seconds, "positions/s"))
    except ImportError:
        rows.append(("json: orjson dicts", float("nan"), float("nan"), "(not installed)"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=float, default=[1e6, 1e7])
    args = parser.parse_args()
    print(f"{'n':>10} {'what':<26} {'seconds':>8} {'rate':>10}")
    tiny = GameGraph(*random_graph(100))
    check_solution(tiny.indptr, tiny.indices, *_arrays(solve_retrograde(tiny)))  # warm up
    format_solution_json(solve_retrograde(tiny))
    for size in args.sizes:
        n = int(size)
        for label, seconds, rate, unit in bench(n):
            print(f"{n:>10} {label:<26} {seconds:>8.3f} {rate / 1e6:>8.1f} M {unit}")


def _arrays(solution: Solution) -> tuple[np.ndarray, np.ndarray]:
    return solution.value, solution.remoteness


def _assert_ok(report: Any) -> None:
    if not report.ok:
        raise AssertionError(report.problems)


if __name__ == "__main__":
    main()
