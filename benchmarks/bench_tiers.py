"""Benchmark of the tier engine: whole ``solve --tiers`` commands, and 1 against 2 cores.

Rows (each the issue's target beside the figure):

* Connect Four 5 rows x 5 cols into a tier directory, whole command, every core;
* one tier solved again in this process with 1 thread and with 2 (the largest tier of 5 x 5;
  with ``--big`` also of 5 x 6), the speed-up;
* Quixo 4x4, whole command (CPU and wall);
* Quixo 4x4 on 2 threads in this process, its independent tiers side by side against one tier
  at a time (wall and CPU; the files are the same);
* Teeko on 4x4 with 4 pieces solved in this process with the 8 symmetries and without (slots,
  wall, CPU): what the symmetry reduction saves;
* with ``--big``: Connect Four 5 x 6 (about 10^10 rank slots); with ``--six DIR`` too,
  Connect Four 6 x 6 strongly solved into DIR (tiers by column heights, 3.1e11 ranks);
* with ``--big``: Teeko (5x5, 4 pieces each) on 2 threads beside GamesmanOne v1.3.0's
  ``gamesman solve teeko`` on 2 OpenMP threads, when ``--gamesmanone PATH`` names its binary
  (built apart: it is GPL code, never part of this repository); the ratios of wall time and
  peak memory (target: at most 0.5x each).

Usage: ``python benchmarks/bench_tiers.py [--big [--six DIR]] [--keep DIR] [--gamesmanone
PATH]``. Times are seconds; RSS is the child's peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from typing import Any

from _child import perfectplay_command, run_child

from perfectplay.games.registry import game_names, load_tiered_game
from perfectplay.solved import open_tiers
from perfectplay.tiers import TieredGame
from perfectplay.tiers.engine import DEFAULT_CHUNK, SolveStats, _solve_chunked
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.plan import BLOCK, chunk_bounds
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.storage import MemoryStore


def _solve(game: str, params: dict[str, int], directory: str, jobs: int | None = None) -> dict:
    args = [*perfectplay_command(), "solve", game, "--tiers", directory, "--json"]
    for key, value in params.items():
        args += ["--param", f"{key}={value}"]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    wall, cpu, rss, out = run_child(args, os.devnull)
    record = json.loads(out)
    record.update(wall=wall, cpu=cpu, rss=rss)
    return record


def _row(what: str, r: dict, target: str) -> None:
    per = r["bytes"] / max(r["stored_classes"], 1)
    start = r["start"]["value"]
    if r["start"]["remoteness"] >= 0:  # draws have none
        start += f" in {r['start']['remoteness']}"
    print(
        f"| {what} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss'] / 2**20:.0f} | "
        f"{r['stored_classes']:,} | {per:.2f} | {start} | {target} |"
    )


def _speedup(directory: str, game: TieredGame) -> None:
    """Solve the largest tier of a solved directory again in this process, 1 and 2 threads."""
    largest = max(game.tiers(), key=game.tier_size)
    with open_tiers(directory, game=game) as db:
        children = [SolvedTier(c, db.records(c), None) for c in game.child_tiers(largest)]
        bound = 1 + max(db.records(c).max() // 4 for c in game.child_tiers(largest))
    times: dict[int, list[float]] = {1: [], 2: []}
    for jobs in (1, 2, 1, 2):
        start = time.perf_counter()
        _solve_chunked(
            game, largest, MemoryStore(), children,
            chunk_bounds(game.tier_size(largest), DEFAULT_CHUNK, BLOCK), jobs,
            record_dtype(int(bound)), lambda n: None, SolveStats(), threading.Lock(),
        )  # fmt: skip
        times[jobs].append(time.perf_counter() - start)
    one, two = min(times[1]), min(times[2])
    print(
        f"\ntier {largest} of {game.info.name} {dict(game.info.params)} "
        f"({game.tier_size(largest):,} slots), solved in this process: 1 thread {one:.2f} s, "
        f"2 threads {two:.2f} s, speed-up {one / two:.2f}x (target >= 1.8x)\n"
    )


def _side_by_side(root: str) -> None:
    """Quixo 4x4 on 2 threads: ready tiers side by side, then one tier at a time."""
    from perfectplay.tiers import scheduler, solve_tiers

    game = load_tiered_game("quixo", size=4)
    real = scheduler.Scheduler.__init__
    for side in (True, False):

        def init(self: Any, *args: Any, side: bool = side, **kwargs: Any) -> None:
            real(self, *args, **kwargs)
            self.side_by_side = side  # False: the rule for tiers solved in memory

        scheduler.Scheduler.__init__ = init  # type: ignore[method-assign]
        directory = os.path.join(root, f"quixo-side-{side}")
        shutil.rmtree(directory, ignore_errors=True)
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            solve_tiers(game, directory, jobs=2, progress=False).close()
        finally:
            scheduler.Scheduler.__init__ = real  # type: ignore[method-assign]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        how = "independent tiers side by side" if side else "one tier at a time"
        print(f"Quixo 4x4, 2 threads, {how}: {wall:.1f} s wall, {cpu:.1f} s CPU")
        shutil.rmtree(directory, ignore_errors=True)


def _symmetry() -> None:
    """Teeko 4x4 with 4 pieces in memory on 2 threads, canonical forms under 8 symmetries or 1."""
    from perfectplay.games.teeko import _tier_kernels as kernels
    from perfectplay.tiers import solve_tiers

    for symmetries in (8, 1):
        game = load_tiered_game("teeko", size=4, pieces=4)
        game._tables = kernels.tables(4, 4, symmetries)  # type: ignore[attr-defined]
        slots = sum(int(game.slots(t, 0, game.tier_size(t)).sum()) for t in game.tiers())
        wall, cpu = time.perf_counter(), time.process_time()
        solve_tiers(game, jobs=2, progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"Teeko 4x4, 4 pieces, {symmetries} symmetr{'ies' if symmetries > 1 else 'y'}: "
              f"{slots:,} slots, {wall:.2f} s wall, {cpu:.2f} s CPU")  # fmt: skip


def _teeko(root: str, gamesmanone: str | None) -> None:
    """Teeko on 2 threads, and GamesmanOne's solve of it on 2 threads if its binary is given."""
    print(
        "| work | wall s | CPU s | peak RSS MiB | stored classes | bytes/class | start | target |"
    )
    print("|---|---|---|---|---|---|---|---|")
    ours = os.path.join(root, "teeko")
    shutil.rmtree(ours, ignore_errors=True)
    r = _solve("teeko", {}, ours, jobs=2)
    _row("Teeko 5x5, 2 threads", r, "<= 0.5x GamesmanOne's wall and RSS, DRAW")
    if gamesmanone is None:
        print("\n(GamesmanOne skipped: give --gamesmanone PATH to its gamesman binary)")
        return
    work = os.path.join(root, "gamesmanone")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "data"))
    # `env` and `sh` exec the binary in the same process: wait4 reports its own figures.
    args = ["env", "OMP_NUM_THREADS=2", "sh", "-c", 'cd "$1" && exec "$0" solve teeko',
            os.path.abspath(gamesmanone), work]  # fmt: skip
    wall, cpu, rss, _ = run_child(args, os.devnull)
    print(f"| GamesmanOne v1.3.0 Teeko, 2 threads | {wall:.1f} | {cpu:.1f} | {rss / 2**20:.0f} "
          "| - | - | - | the peer |")  # fmt: skip
    print(
        f"\nTeeko, perfectplay / GamesmanOne: wall {r['wall'] / wall:.2f}x, "
        f"peak RSS {r['rss'] / rss:.2f}x (target <= 0.5x each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also Connect Four 5x6 (minutes)")
    parser.add_argument(
        "--six",
        metavar="DIR",
        help="with --big: also Connect Four 6x6 solved into DIR (an hour or more; run again "
        "after an interruption, it resumes; its wall and CPU are then this run's only)",
    )
    parser.add_argument("--keep", metavar="DIR", help="keep the tier directories under DIR")
    parser.add_argument(
        "--gamesmanone", metavar="PATH", help="GamesmanOne's gamesman binary (--big: Teeko)"
    )
    args = parser.parse_args()
    root = args.keep or tempfile.mkdtemp(prefix="bench-tiers-")
    os.makedirs(root, exist_ok=True)
    print(f"# tier engine, {os.cpu_count()} cores; directories under {root}")
    print(
        "| work | wall s | CPU s | peak RSS MiB | stored classes | bytes/class | start | target |"
    )
    print("|---|---|---|---|---|---|---|---|")
    c55 = os.path.join(root, "c4-5x5")
    shutil.rmtree(c55, ignore_errors=True)
    r = _solve("connect-four", {"rows": 5, "cols": 5}, c55)
    _row("Connect Four 5x5", r, "<= 10 s wall, <= 1 GB")

    _speedup(c55, load_tiered_game("connect-four", rows=5, cols=5))

    if "quixo" in game_names():
        q = os.path.join(root, "quixo-4")
        shutil.rmtree(q, ignore_errors=True)
        r = _solve("quixo", {"size": 4}, q)
        _row("Quixo 4x4", r, "<= 17 s CPU, <= 15 s wall, WIN in 21")

        print()
        _side_by_side(root)

    if "teeko" in game_names():
        print()
        _symmetry()

    if args.big:
        big = os.path.join(root, "c4-5x6")
        params = {"rows": 5, "cols": 6}
        r = _solve("connect-four", params, big)
        _row("Connect Four 5x6", r, "<= 20 min, <= 8 GB, <= 2 bytes/class, TIE")
        _speedup(big, load_tiered_game("connect-four", **params))
        if args.six:
            r = _solve("connect-four", {"rows": 6, "cols": 6}, args.six)
            _row(
                "Connect Four 6x6 (tiers by column heights)", r,
                "<= 2 h wall, <= 20 GiB, <= 40 GB on disk, LOSE in 36",
            )  # fmt: skip
            print(f"\n6x6: {r['bytes'] / 1e9:.1f} GB in {args.six}; run: {r.get('run')}")
        print()
        _teeko(root, args.gamesmanone)
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
