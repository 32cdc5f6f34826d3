"""Benchmark of :func:`perfectplay.solvers.retrograde.solve_retrograde` on random game graphs.

Graphs: n positions, 10% of them without moves, the others with 1 + Poisson(4 / 0.9 - 1)
moves to uniformly random positions (mean out-degree 4, so m is about 4 n), seed 2024,
generated with numpy straight into CSR form. Normal play, no primitive values.

Each size runs in a fresh subprocess, which (1) imports perfectplay and warms numba up on a
tiny graph, (2) builds the graph, (3) records its resident memory (VmRSS) as the baseline and
resets the peak (``/proc/self/clear_refs``), (4) times the reverse-CSR build
(``graph.reverse()``), (5) times ``solve_retrograde`` on that graph, whose reverse is now cached
(so "solve" excludes the reverse build; "total" is both), (6) reads the peak resident memory
(VmHWM): "peak B/edge" is (VmHWM - baseline) / m, i.e. everything the reverse CSR and the
solver allocate on top of the graph, outputs included, then (7) solves twice more and keeps
the best solve time. Up to 10^6 positions it then runs a
plain-Python version (lists of predecessors, collections.deque) on the same graph, checks
that it agrees, and reports the ratios of its solve time to ours (both without the reverse
graph) and of its total time to ours (both with it).

Usage::

    python benchmarks/bench_retrograde.py                  # 1e5, 1e6, 1e7
    python benchmarks/bench_retrograde.py --sizes 1e4 1e5  # quick
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import deque

import numpy as np

SEED = 2024
MEAN_DEGREE = 4.0
NO_MOVES = 0.10
PYTHON_MAX_N = 10**6
REPEATS = 3


def random_graph(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """CSR ``(indptr, indices)`` of the benchmark graph with `n` positions."""
    rng = np.random.default_rng(seed)
    degree = 1 + rng.poisson(MEAN_DEGREE / (1 - NO_MOVES) - 1, n)
    degree[rng.random(n) < NO_MOVES] = 0
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=indptr[1:])
    indices = rng.integers(0, n, int(indptr[-1]), dtype=np.int32)
    return indptr, indices


def python_predecessors(indptr: list[int], indices: list[int]) -> list[list[int]]:
    """Plain Python: the list of predecessor moves of every position."""
    predecessors: list[list[int]] = [[] for _ in range(len(indptr) - 1)]
    for p in range(len(indptr) - 1):
        for e in range(indptr[p], indptr[p + 1]):
            predecessors[indices[e]].append(p)
    return predecessors


def python_retrograde(
    indptr: list[int], predecessors: list[list[int]]
) -> tuple[list[int], list[int]]:
    """The same analysis in plain Python (normal play, no primitives): values, remoteness."""
    lose, draw, win = 0, 1, 3
    n = len(indptr) - 1
    counters = [indptr[p + 1] - indptr[p] for p in range(n)]
    value = [draw] * n
    remoteness = [-1] * n
    queue: deque[int] = deque()
    for p in range(n):
        if counters[p] == 0:
            value[p], remoteness[p] = lose, 0
            queue.append(p)
    decided = [c == 0 for c in counters]
    while queue:
        c = queue.popleft()
        child_lost = value[c] == lose
        r = remoteness[c] + 1
        for p in predecessors[c]:
            if decided[p]:
                continue
            if not child_lost:
                counters[p] -= 1
                if counters[p]:
                    continue
            decided[p] = True
            value[p], remoteness[p] = (win if child_lost else lose), r
            queue.append(p)
    return value, remoteness


def _status_kib(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/self/status")


def measure(n: int) -> dict[str, float]:
    """Run one size in this process; return its figures."""
    from perfectplay.graph import GameGraph
    from perfectplay.solvers.retrograde import solve_retrograde

    solve_retrograde(GameGraph.from_edges([0, 1, 1], [1, 0, 2], n=3))  # numba warm-up

    start = time.perf_counter()
    indptr, indices = random_graph(n)
    graph = GameGraph(indptr, indices)
    del indptr, indices
    build = time.perf_counter() - start

    baseline = _status_kib("VmRSS")
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")  # reset VmHWM to the current resident size
    start = time.perf_counter()
    graph.reverse()
    reverse = time.perf_counter() - start
    start = time.perf_counter()
    solution = solve_retrograde(graph)
    solve = time.perf_counter() - start
    peak = _status_kib("VmHWM") - baseline
    for _ in range(REPEATS - 1):  # the best of a few runs: the machine may be busy
        del solution
        start = time.perf_counter()
        solution = solve_retrograde(graph)
        solve = min(solve, time.perf_counter() - start)

    result = {
        "n": n,
        "m": graph.m,
        "build": build,
        "reverse": reverse,
        "solve": solve,
        "peak_bytes": peak * 1024.0,
        "draws": solution.summary()["DRAW"],
        "python_reverse": float("nan"),
        "python_solve": float("nan"),
    }
    if n <= PYTHON_MAX_N:
        ip, ix = graph.indptr.tolist(), graph.indices.tolist()
        start = time.perf_counter()
        predecessors = python_predecessors(ip, ix)
        result["python_reverse"] = time.perf_counter() - start
        start = time.perf_counter()
        value, remoteness = python_retrograde(ip, predecessors)
        result["python_solve"] = time.perf_counter() - start
        if value != solution.value.tolist() or remoteness != solution.remoteness.tolist():
            raise SystemExit(f"plain-Python and numba results differ at n={n}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7], help="numbers of positions"
    )
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(int(args.one))))
        return

    print(f"solve_retrograde on random graphs (mean out-degree 4, 10% without moves, seed {SEED})")
    head = (
        f"{'positions':>10} {'moves':>10} {'reverse s':>10} {'solve s':>8} {'solve M/s':>10} "
        f"{'total M/s':>10} {'python s':>9} {'x solve':>8} {'x total':>8} {'peak B/edge':>11}"
    )
    print(head)
    for size in args.sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(int(size))],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out.splitlines()[-1])
        total = r["reverse"] + r["solve"]
        python_total = r["python_reverse"] + r["python_solve"]
        if np.isnan(python_total):
            python = solve_ratio = total_ratio = "-"
        else:
            python = f"{python_total:.2f}"
            solve_ratio = f"{r['python_solve'] / r['solve']:.0f}x"
            total_ratio = f"{python_total / total:.0f}x"
        print(
            f"{r['n']:>10} {r['m']:>10} {r['reverse']:>10.3f} {r['solve']:>8.3f} "
            f"{r['m'] / r['solve'] / 1e6:>10.1f} {r['m'] / total / 1e6:>10.1f} "
            f"{python:>9} {solve_ratio:>8} {total_ratio:>8} {r['peak_bytes'] / r['m']:>11.1f}"
        )
    print("M/s: million moves per second; total = reverse-CSR build + solve (reverse cached).")
    print("python s: plain-Python predecessor lists + deque solve; x solve: its solve time over")
    print("ours; x total: both parts over ours. peak B/edge: (VmHWM after solving - VmRSS")
    print("after the graph build) / moves, i.e. reverse CSR + solver arrays + outputs.")


if __name__ == "__main__":
    main()
