"""Store benchmark: save, open and query latency on solved games of growing size.

Two kinds of file, each over a grid of sizes with a fixed seed:

* synthetic: a random solution with ``n`` positions (3 moves each) and sparse random codes,
  queried by code (binary search + three array reads: the store's own cost);
* a registered game solved by ``perfectplay.api.solve`` and queried through the game
  (``probe(position)``: canonicalise + encode + binary search) and with ``move_values``.

Query latency is the median of many look-ups of random positions right after ``open_store``
(``verify=False``, so the file is not read ahead): pages are faulted in on demand.

Run: ``.venv/bin/python benchmarks/bench_store.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.store import open_store, save

SEED = 20261121


def _synthetic(n: int, rng: np.random.Generator) -> tuple[Solution, np.ndarray]:
    src = np.repeat(np.arange(n), 3)
    dst = rng.integers(0, n, size=3 * n)
    graph = GameGraph.from_edges(src, dst, n=n)
    value = rng.integers(0, 4, size=n).astype(np.uint8)
    remoteness = rng.integers(0, 40, size=n).astype(np.int32)
    codes = np.unique(rng.integers(0, 2**40, size=n + n // 8))[:n]
    rng.shuffle(codes)
    return Solution(graph, value, remoteness, solver="synthetic"), codes


def _median_us(calls: list[Callable[[], Any]]) -> float:
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def bench_synthetic(sizes: list[int], queries: int) -> None:
    rng = np.random.default_rng(SEED)
    print(
        f"{'n':>10} {'file MiB':>9} {'save s':>7} {'open ms':>8} {'verify ms':>10} {'probe us':>9}"
    )
    for n in sizes:
        solution, codes = _synthetic(n, rng)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.ppstore")
            start = time.perf_counter()
            save(path, solution, game="synthetic", codes=codes)
            saved = time.perf_counter() - start
            start = time.perf_counter()
            with open_store(path, verify=False) as store:
                opened = time.perf_counter() - start
                picks = rng.choice(codes, size=queries)
                probe = _median_us([lambda c=int(c): store.entry(store.code_id(c)) for c in picks])
                start = time.perf_counter()
                store.verify()
                verified = time.perf_counter() - start
            size = os.path.getsize(path) / 2**20
        print(
            f"{n:>10} {size:>9.1f} {saved:>7.2f} {opened * 1e3:>8.2f} "
            f"{verified * 1e3:>10.1f} {probe:>9.1f}"
        )


def bench_game(name: str, params: dict[str, Any], queries: int) -> None:
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game

    game = load_game(name, **params)
    start = time.perf_counter()
    solved = solve(game)
    solve_s = time.perf_counter() - start
    rng = np.random.default_rng(SEED)
    ids = rng.integers(0, len(solved), size=queries)
    positions = [solved.position_of(int(i)) for i in ids]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g.ppstore")
        save(path, solved)
        start = time.perf_counter()
        with open_store(path, verify=False) as store:
            opened = time.perf_counter() - start
            probe = _median_us([lambda p=p: store.probe(p) for p in positions])
            moves = _median_us([lambda p=p: store.move_values(p) for p in positions[:1000]])
        size = os.path.getsize(path) / 2**20
    print(
        f"{name} {params}: n={len(solved)}, solve {solve_s:.2f} s, file {size:.1f} MiB, "
        f"open {opened * 1e3:.2f} ms, probe {probe:.1f} us, move_values {moves:.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    sizes = [10**4, 10**5] if args.quick else [10**4, 10**5, 10**6, 10**7]
    queries = 2_000 if args.quick else 20_000
    bench_synthetic(sizes, queries)
    bench_game("connect-four", {"rows": 4, "cols": 4 if args.quick else 5}, queries)


if __name__ == "__main__":
    main()
