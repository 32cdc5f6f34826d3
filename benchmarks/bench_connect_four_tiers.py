"""Benchmark of Connect Four's tiered kernels: slots and children per tier, per core.

For each tier asked (default: the 5 biggest tiers of 5 rows x 6 cols), windows of ranks at 8
places spread over the tier: ``slots`` over the windows (ns per rank), then ``children`` over
their slots in chunks of 65,536 as the engine asks for them (ns per slot, slots per second).
Times are the CPU time of the calling thread (the kernels run in it), so other work on the
machine inflates them less than wall time. The last line projects one core's kernel time (not
the engine's) for the whole board from the tiers measured.

Usage: ``python benchmarks/bench_connect_four_tiers.py [--rows 5] [--cols 6] [--tiers 20,24]
[--span 4000000]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from perfectplay.games.connect_four.tiers import TieredConnectFour

CHUNK = 65536
WINDOWS = 8


def measure(game: TieredConnectFour, tier: int, span: int) -> tuple[float, float, float]:
    """``(slot density, ns per rank of slots, ns per slot of children)`` over 8 windows of
    ``span / 8`` ranks spread evenly over the tier."""
    size = game.tier_size(tier)
    width = max(1, min(size, span) // WINDOWS)
    slot_time = child_time = 0.0
    ranks_seen = slots_seen = 0
    for w in range(WINDOWS):
        start = min(size - width, (2 * w + 1) * size // (2 * WINDOWS))
        began = time.thread_time()
        slots = game.slots(tier, start, start + width)
        slot_time += time.thread_time() - began
        ranks = start + np.flatnonzero(slots)
        began = time.thread_time()
        for i in range(0, ranks.size, CHUNK):
            game.children(tier, ranks[i : i + CHUNK])
        child_time += time.thread_time() - began
        ranks_seen += width
        slots_seen += ranks.size
    per_slot = child_time / slots_seen * 1e9 if slots_seen else float("nan")
    return slots_seen / ranks_seen, slot_time / ranks_seen * 1e9, per_slot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--cols", type=int, default=6)
    parser.add_argument("--tiers", help="comma-separated tiers (default: the 5 biggest)")
    parser.add_argument("--span", type=int, default=4_000_000, help="ranks per tier")
    args = parser.parse_args()
    game = TieredConnectFour(args.rows, args.cols)
    sizes = [game.tier_size(t) for t in game.tiers()]
    if args.tiers:
        tiers = [int(t) for t in args.tiers.split(",")]
    else:
        tiers = sorted(sorted(game.tiers(), key=lambda t: -sizes[t])[:5])
    game.children(1, game.slots(1, 0, 1).nonzero()[0])  # compile (or load) the kernels
    print(f"Connect Four {args.rows} rows x {args.cols} cols, {args.span:,} ranks per tier")
    print("| tier | ranks in tier | slots | slots ns/rank | children ns/slot | slots/s/core |")
    print("|---|---|---|---|---|---|")
    kernel_seconds = 0.0
    for tier in tiers:
        density, slot_ns, child_ns = measure(game, tier, args.span)
        kernel_seconds += sizes[tier] * (slot_ns + density * child_ns) * 1e-9
        print(
            f"| {tier} | {sizes[tier]:,} | {density:.3f} | {slot_ns:.1f} | {child_ns:.0f} | "
            f"{1e9 / child_ns / 1e6:.2f} M |"
        )
    share = sum(sizes[t] for t in tiers) / sum(sizes)
    print(
        f"these tiers hold {share:.0%} of the {sum(sizes):.3e} ranks; their kernels take about "
        f"{kernel_seconds:,.0f} s of one core, so the whole board about "
        f"{kernel_seconds / share:,.0f} s"
    )


if __name__ == "__main__":
    main()
