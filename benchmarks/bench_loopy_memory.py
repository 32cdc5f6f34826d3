"""Memory of the loopy tier worker on a real tier: one tier of a solved directory solved again.

The tier's child tiers are read from the directory's files, the worker's kernels compiled on
the smallest loopy tier first, then the tier is solved under ``tracemalloc`` (numpy reports
every array to it): the peak of what the worker allocated, per rank, against
:func:`~perfectplay.tiers.loopy.loopy_bytes`, the growth of the resident set, the time, and
whether the records equal the tier's file. Usage::

    perfectplay solve nine-mens-morris --param stones=5 --tiers DIR --jobs 1
    python benchmarks/bench_loopy_memory.py DIR nine-mens-morris --param stones=5

(the largest tier with inner moves unless ``--tier LABEL`` names one).
"""

from __future__ import annotations

import argparse
import os
import resource
import time
import tracemalloc

import numpy as np

import perfectplay
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.files import TierFile
from perfectplay.tiers.loopy import loopy_bytes, solve_loopy


def _records(directory: str, game: TieredGame, tier: int) -> SolvedTier:
    with TierFile(os.path.join(directory, f"tier-{game.tier_label(tier)}.tier")) as file:
        return SolvedTier(tier, file.read("records"), None)


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("game")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--tier", metavar="LABEL", help="the tier (default: the largest loopy)")
    args = parser.parse_args()
    params = {k: int(v) if v.isdigit() else v for k, v in (p.split("=", 1) for p in args.param)}
    game = perfectplay.load_tiered_game(args.game, **params)
    loopy = [t for t in game.tiers() if game.inner_moves(t)]
    labels = {game.tier_label(t): t for t in loopy}
    tier = labels[args.tier] if args.tier else max(loopy, key=game.tier_size)
    children = [_records(args.directory, game, c) for c in game.child_tiers(tier)]
    expected = _records(args.directory, game, tier).records
    small = min(loopy, key=lambda t: (not game.child_tiers(t), game.tier_size(t)))
    solve_loopy(game, small, [_records(args.directory, game, c) for c in game.child_tiers(small)])
    size = game.tier_size(tier)
    resident = _resident()
    tracemalloc.start()
    began, cpu = time.perf_counter(), time.process_time()
    base = tracemalloc.get_traced_memory()[0]
    records, most = solve_loopy(game, tier, children)
    peak = tracemalloc.get_traced_memory()[1] - base
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    tracemalloc.stop()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - resident
    bound = loopy_bytes(size, bool(children), game.max_moves(), most + 1)
    reads = sum(len(c.records) for c in children)
    same = records.dtype == expected.dtype and np.array_equal(records, expected)
    print(f"tier {game.tier_label(tier)}: {size:,} ranks, reading {reads:,}")
    print(f"same records as the file: {same}")
    print(f"allocated at the peak: {peak:,} B, {peak / size:.2f} B a rank", end=" ")
    print(f"(loopy_bytes {bound / size:.2f})")
    print(f"resident set grown by {grown:,} B, {grown / size:.2f} B a rank")
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s, largest remoteness {most}")


if __name__ == "__main__":
    main()
