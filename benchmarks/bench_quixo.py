"""Benchmark of Quixo's tier kernels: children, parents and slots per second on one core.

For three of the largest tiers (4x4 by default, or ``--size 5``), ``slots`` runs over the
first 4M ranks, ``children`` and ``parents`` over 65,536 consecutive slots from a third of the
way in (the engine's batch, in its order), best of ``--repeat`` runs, timed in CPU time of the
calling thread (other jobs on the machine count less). The whole 4x4 solve is in
``benchmarks/bench_tiers.py``.

Usage: ``python benchmarks/bench_quixo.py [--size 4] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from perfectplay.games.quixo.tiers import TieredQuixo

_BATCH = 1 << 16


def _best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The smallest thread CPU time of `repeat` calls of `fn` and what it returned."""
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.thread_time()
        count = fn()
        best = min(best, time.thread_time() - start)
    return best, count


def _batch(game: TieredQuixo, tier: int) -> NDArray[np.int64]:
    """`_BATCH` consecutive slots of `tier` from a third of the way in (the engine's order)."""
    size = game.tier_size(tier)
    found: list[NDArray[np.int64]] = []
    lo = size // 3
    while sum(map(len, found)) < _BATCH and lo < size:
        hi = min(size, lo + 64 * _BATCH)
        found.append(lo + np.flatnonzero(game.slots(tier, lo, hi)).astype(np.int64))
        lo = hi
    return np.concatenate(found)[:_BATCH]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = TieredQuixo(args.size)
    cells = args.size * args.size
    middle = (cells + 1) // 3
    shapes = [(middle, middle), (middle + 1, middle), (middle - 1, middle - 1)]
    print(f"quixo {args.size}x{args.size}: tier kernels, one core (best of {args.repeat})")
    print(f"{'tier':>16} {'slots M/s':>10} {'children M/s':>13} {'parents M/s':>12} "
          f"{'per slot':>9}")  # fmt: skip
    for nx, no in shapes:
        _row(game, nx * (cells + 1) + no, args.repeat)


def _row(game: TieredQuixo, tier: int, repeat: int) -> None:
    """Time the three kernels on `tier` and print one row."""
    span = min(game.tier_size(tier), 64 * _BATCH)
    ranks = _batch(game, tier)  # also compiles or loads the slots kernel
    game.children(tier, ranks[:16])
    game.parents(tier, ranks[:16])

    def slots() -> int:
        return len(game.slots(tier, 0, span))

    def children() -> int:
        return len(game.children(tier, ranks).rank)

    def parents() -> int:
        return len(game.parents(tier, ranks)[1])

    slot_time, _ = _best(slots, repeat)
    child_time, child_count = _best(children, repeat)
    parent_time, parent_count = _best(parents, repeat)
    print(
        f"{game.tier_label(tier):>16} {span / slot_time / 1e6:>10.1f} "
        f"{child_count / child_time / 1e6:>13.1f} {parent_count / parent_time / 1e6:>12.1f} "
        f"{child_count / len(ranks):>6.1f} ch {parent_count / len(ranks):>4.1f} pa"
    )


if __name__ == "__main__":
    main()
