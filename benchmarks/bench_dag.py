"""DAG solver and staircase benchmark: edges per second of the sweep, judge runs of p4363.

Two parts, fixed seed:

* ``solve_dag`` on random acyclic graphs of ``n`` positions with 3 moves each, timed without
  building the graph (the sweep, the order test or search, unpacking values), best of 3 runs
  after a warm-up of every path on a tiny graph:

  - *uniform*: each move goes to a uniformly random larger id (every move a cache miss: the
    worst case), *layered*: to a random position of the next layer of 100,000 (as an
    enumeration by depth produces);
  - ids kept topological (one pass in id order) or shuffled (Kahn's order computed first), scored
    (random gains) or not.

* ``perfectplay problem staircase`` on random n x n boards (gains 0..100000), as a
  subprocess after a warm-up run (numba cache filled): wall time, CPU time and peak memory
  (max RSS of the child, from ``wait4``).

Run: ``.venv/bin/python benchmarks/bench_dag.py [--quick]`` (quick: 10^6 positions, boards up to
12 x 12). Targets (2-core machine, quiet): uniform topological >= 60 M moves/s, shuffled
>= 20 M moves/s at 10^7 positions; staircase 10 x 10 <= 0.5 s, 13 x 13 <= 5 s, 14 x 14
<= 25 s and <= 2 GB.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from math import comb
from typing import Any

import numpy as np
from _child import perfectplay_command, run_child
from numpy.typing import NDArray

from perfectplay.graph import GameGraph
from perfectplay.solvers.dag import solve_dag

SEED = 20261121
DEGREE = 3
LAYER = 100_000
REPEATS = 3  # each solve is timed 3 times; the table shows the best


def random_dag(n: int, kind: str, rng: np.random.Generator) -> tuple[NDArray[Any], NDArray[Any]]:
    """Moves ``src -> dst`` with ``dst > src``: uniform over larger ids, or in the next layer."""
    src = np.repeat(np.arange(n - 1, dtype=np.int64), DEGREE)
    if kind == "uniform":
        dst = src + 1 + (rng.random(src.size) * (n - 1 - src)).astype(np.int64)
    else:
        layer_end = np.minimum((src // LAYER + 2) * LAYER, n)
        low = np.minimum((src // LAYER + 1) * LAYER, n - 1)
        low = np.maximum(low, src + 1)
        dst = low + (rng.random(src.size) * (layer_end - low)).astype(np.int64)
    return src, dst


def bench_sweep(n: int) -> None:
    rng = np.random.default_rng(SEED)
    # Warm the numba cache on every path: ids going up and Kahn's order, scored or not.
    for gain in (None, [1, 2]):
        solve_dag(GameGraph.from_edges([0, 1], [1, 2], n=3, gain=gain))
        solve_dag(GameGraph.from_edges([1, 0], [0, 2], n=3, gain=gain))
    print(f"solve_dag, n = {n:,} positions, {DEGREE} moves each")
    columns = ("graph", 9), ("ids", 12), ("scored", 7), ("moves", 11), ("wall s", 7)
    print(
        " ".join(f"{name:>{width}}" for name, width in columns), f"{'cpu s':>6} {'M moves/s':>10}"
    )
    for kind in ("uniform", "layered"):
        src, dst = random_dag(n, kind, rng)
        gain = rng.integers(-100, 101, src.size)
        perm = rng.permutation(n)
        for ids in ("topological", "shuffled"):
            s, d = (src, dst) if ids == "topological" else (perm[src], perm[dst])
            for scored in (False, True):
                graph = GameGraph.from_edges(s, d, n=n, gain=gain if scored else None)
                wall = cpu = float("inf")
                for _ in range(REPEATS):
                    began, began_cpu = time.perf_counter(), time.process_time()
                    solve_dag(graph)
                    cpu = min(cpu, time.process_time() - began_cpu)
                    wall = min(wall, time.perf_counter() - began)
                rate = graph.m / wall / 1e6
                print(
                    f"{kind:>9} {ids:>12} {scored!s:>7} {graph.m:>11,} {wall:>7.2f} {cpu:>6.2f} "
                    f"{rate:>10.1f}"
                )
                del graph


def bench_staircase(sides: list[int]) -> None:
    rng = np.random.default_rng(SEED)
    command = [*perfectplay_command(), "problem", "staircase", "--no-limits"]
    print("perfectplay problem staircase (subprocess, warm numba cache)")
    columns = ("board", 7), ("positions", 12), ("wall s", 7), ("cpu s", 6), ("max RSS MiB", 12)
    print(" ".join(f"{name:>{width}}" for name, width in columns), f"{'answer':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for side in [2, *sides]:
            path = os.path.join(tmp, f"{side}.txt")
            grids = rng.integers(0, 100_001, (2 * side, side))
            with open(path, "w", encoding="ascii") as f:
                f.write(f"{side} {side}\n")
                f.write("\n".join(" ".join(map(str, row)) for row in grids.tolist()) + "\n")
            wall, cpu, rss, answer = run_child(command, path)
            if side == 2:
                continue  # the warm-up run
            print(
                f"{side:>3} x {side:<2} {comb(2 * side, side):>12,} {wall:>7.2f} {cpu:>6.2f} "
                f"{rss / 2**20:>12.0f} {answer.strip():>10}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = parser.parse_args()
    # Children first: a child forked from a parent holding big graphs would inherit its RSS.
    bench_staircase([10, 12] if args.quick else [10, 12, 13, 14])
    print()
    bench_sweep(10**6 if args.quick else 10**7)


if __name__ == "__main__":
    main()
