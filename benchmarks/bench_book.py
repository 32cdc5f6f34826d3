"""What an opening book of each depth costs: its positions, and the time to search them.

Usage::

    python benchmarks/bench_book.py [--rows 6] [--cols 7] [--min-depth 4] [--max-depth 6]
                                    [--sample 4] [--jobs 2] [--build DEPTH]

A book of depth D holds one position per symmetry class within D moves of the start
(:func:`perfectplay.search.book_positions`), and ``perfectplay book`` searches each once with a
fresh table, sharing nothing, so its cost is the sum of their searches. For each depth d up to
``--max-depth`` the script counts the classes at exactly d moves, times the strong search of
``--sample`` of them drawn at random (CPU seconds, each as a book task does it) and prints the
estimate for the whole book to depth d: positions, CPU time, and wall time on ``--jobs`` cores.
Depths below ``--min-depth`` (default 4: on 6 x 7 a position of depth 3 or less is a search of
seconds to minutes) are counted, not timed, and the estimate leaves their searches out.

``--build DEPTH`` also builds the book of that depth with ``perfectplay.search.build_book``
(``--jobs`` worker processes) into a temporary folder and prints its measured wall time beside
the estimate, which checks the estimate on a board where a whole book is quick (e.g.
``--rows 4 --cols 5 --build 6``).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.search import build_book, search
from perfectplay.search.book import book_positions


def _cpu_of_search(game: ConnectFour, code: int) -> float:
    start = time.process_time()
    search(game, game.decode(code))  # as a book task: value, remoteness and best moves
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--cols", type=int, default=7)
    parser.add_argument("--max-depth", type=int, default=6)
    parser.add_argument("--sample", type=int, default=4, help="positions timed per depth")
    parser.add_argument("--min-depth", type=int, default=4, help="time depths from this one")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--build", type=int, default=None, help="build this depth's book")
    args = parser.parse_args()
    game = ConnectFour(args.rows, args.cols)
    search(ConnectFour(4, 4))  # loads the compiled kernels (the same for every board)
    draw = random.Random(1)
    counted = 0
    cpu = 0.0
    print(f"Connect Four {args.rows}x{args.cols}: a book's cost by depth (strong searches)")
    print("| depth | classes at it | sampled | mean CPU s | book: positions | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|")
    estimates = {}
    for depth in range(args.max_depth + 1):
        codes = book_positions(game, depth)[counted:]
        counted += len(codes)
        if depth < args.min_depth or not codes:  # not timed, or no position this deep
            print(f"| {depth} | {len(codes):,} | - | - | {counted:,} | - | - |")
            continue
        sample = draw.sample(codes, min(args.sample, len(codes)))
        mean = sum(_cpu_of_search(game, code) for code in sample) / len(sample)
        cpu += mean * len(codes)
        estimates[depth] = cpu / args.jobs
        print(
            f"| {depth} | {len(codes):,} | {len(sample)} | {mean:.3f} | {counted:,} | "
            f"{cpu:,.1f} | {cpu / args.jobs:,.1f} |",
            flush=True,
        )
    if args.build is not None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "book"
            start = time.perf_counter()
            stats = build_book(game, args.build, str(path), jobs=args.jobs, progress=False)
            wall = time.perf_counter() - start
        estimate = estimates.get(args.build)
        said = "-" if estimate is None else f"{estimate:,.1f} s"
        print(
            f"\nbuilt: depth {args.build}, {stats.positions:,} positions in {wall:.1f} s wall "
            f"on {args.jobs} worker processes (estimated above: {said})"
        )


if __name__ == "__main__":
    main()
