"""Benchmark of Connect Four's tiered kernels: slots and children per tier, per core.

For each tier asked (default: the biggest tiers of 5 rows x 6 cols), a window of ranks from the
middle of the tier: ``slots`` over the window (ns per rank), then ``children`` over its slots in
chunks of 65,536 as the engine asks for them (ns per slot, and slots per second). Times are the
CPU time of the calling thread (the kernels run in it), so other work on the machine inflates
them less than wall time; the last line projects one core's kernel time for the whole board.

Usage: ``python benchmarks/bench_connect_four_tiers.py [--rows 5] [--cols 6] [--tiers 20,24]
[--span 4000000]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from perfectplay.games.connect_four_tiers import TieredConnectFour

CHUNK = 65536


def measure(game: TieredConnectFour, tier: int, span: int) -> tuple[int, float, float, float]:
    """``(ranks, slot density, ns per rank of slots, ns per slot of children)``."""
    size = game.tier_size(tier)
    start = max(0, size // 2 - span // 2)
    stop = min(size, start + span)
    began = time.thread_time()
    slots = game.slots(tier, start, stop)
    slot_ns = (time.thread_time() - began) / (stop - start) * 1e9
    ranks = start + np.flatnonzero(slots)
    began = time.thread_time()
    for i in range(0, ranks.size, CHUNK):
        game.children(tier, ranks[i : i + CHUNK])
    child_ns = (time.thread_time() - began) / max(ranks.size, 1) * 1e9
    return stop - start, float(slots.mean()), slot_ns, child_ns


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
    totals = []
    for tier in tiers:
        _, density, slot_ns, child_ns = measure(game, tier, args.span)
        totals.append((sizes[tier], density, slot_ns, child_ns))
        print(
            f"| {tier} | {sizes[tier]:,} | {density:.3f} | {slot_ns:.1f} | {child_ns:.0f} | "
            f"{1e9 / child_ns / 1e6:.2f} M |"
        )
    ranks = sum(sizes)
    slot_ns = sum(ns for _, _, ns, _ in totals) / len(totals)
    per_slot = sum(ns for *_, ns in totals) / len(totals)
    density = sum(n * d for n, d, *_ in totals) / sum(n for n, *_ in totals)
    seconds = ranks * slot_ns * 1e-9 + ranks * density * per_slot * 1e-9
    print(
        f"whole board: {ranks:.3e} ranks; at these tiers' mean rates (slot density {density:.2f}) "
        f"the kernels need about {seconds:,.0f} s of one core"
    )


if __name__ == "__main__":
    main()
