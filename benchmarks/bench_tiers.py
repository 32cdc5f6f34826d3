"""Benchmark of the tier engine: whole ``solve --tiers`` commands, and 1 against 2 cores.

Rows (each the issue's target beside the figure):

* Connect Four 5 rows x 5 cols into a tier directory, whole command, every core;
* one tier solved again in this process with 1 thread and with 2 (the largest tier of 5 x 5;
  with ``--big`` also of 5 x 6), the speed-up;
* Quixo 4x4, whole command (CPU and wall);
* with ``--big``: Connect Four 5 x 6 (about 10^10 rank slots), and the projection for 6 x 6
  from its measured rate of slots per second.

Usage: ``python benchmarks/bench_tiers.py [--big] [--keep DIR]``. Times are seconds; RSS is the
child's peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from _child import perfectplay_command, run_child

from perfectplay.games.registry import game_names, load_tiered_game
from perfectplay.solved import open_tiers
from perfectplay.tiers import TieredGame
from perfectplay.tiers.engine import DEFAULT_CHUNK, SolveStats, _solve_chunked
from perfectplay.tiers.expand import SolvedTier
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


def _slots(game: str, params: dict[str, int]) -> int:
    tiered = load_tiered_game(game, **params)
    return sum(tiered.tier_size(t) for t in tiered.tiers())


def _row(what: str, r: dict, target: str) -> None:
    per = r["bytes"] / max(r["stored_classes"], 1)
    start = f"{r['start']['value']} in {r['start']['remoteness']}"
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
            game, largest, MemoryStore(), children, DEFAULT_CHUNK, jobs,
            record_dtype(int(bound)), lambda n: None, SolveStats(),
        )  # fmt: skip
        times[jobs].append(time.perf_counter() - start)
    one, two = min(times[1]), min(times[2])
    print(
        f"\ntier {largest} of {game.info.name} {dict(game.info.params)} "
        f"({game.tier_size(largest):,} slots), solved in this process: 1 thread {one:.2f} s, "
        f"2 threads {two:.2f} s, speed-up {one / two:.2f}x (target >= 1.8x)\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also Connect Four 5x6 (minutes)")
    parser.add_argument("--keep", metavar="DIR", help="keep the tier directories under DIR")
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

    if args.big:
        big = os.path.join(root, "c4-5x6")
        params = {"rows": 5, "cols": 6}
        started = time.perf_counter()
        r = _solve("connect-four", params, big)
        _row("Connect Four 5x6", r, "<= 20 min, <= 8 GB, <= 2 bytes/class, TIE")
        _speedup(big, load_tiered_game("connect-four", **params))
        slots = _slots("connect-four", params)
        rate = slots / (time.perf_counter() - started)
        target = _slots("connect-four", {"rows": 6, "cols": 6})
        print(
            f"\n5x6: {slots:.3e} rank slots at {rate / 1e6:.1f} M slots/s on "
            f"{os.cpu_count()} cores. 6x6 has {target:.3e} slots: about "
            f"{target / rate / 3600:.1f} h at that rate here, "
            f"{target / rate / 3600 / 16:.1f} h on 16 machines like this one"
            f"; its files about {r['bytes'] / r['stored_classes'] * 6.92e10 / 2 / 2**30:.0f} GiB."
        )
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
