"""Memory and CPU of the loopy tier worker on a real tier: one tier of a solved directory
solved again.

The tier's child tiers are read from the directory's files, the worker's kernels compiled on
the smallest loopy tier first, then the tier is solved under ``tracemalloc`` (numpy reports
every array to it): the peak of what the worker allocated, per rank, against
:func:`~perfectplay.tiers.loopy.loopy_bytes`, the growth of the resident set, the time, and
whether the records equal the tier's file. Usage::

    perfectplay solve nine-mens-morris --param stones=5 --tiers DIR --jobs 1
    python benchmarks/bench_loopy_memory.py DIR nine-mens-morris --param stones=5

(the largest tier with inner moves unless ``--tier LABEL`` names one).

With ``--cpu`` the tier is solved on one thread without ``tracemalloc``, ``--repeat`` times
(best of), and the CPU time is split per slot: the game's kernels (its ``slots``,
``children`` and ``parents`` calls), the engine (the rest), and each numba kernel of the
engine by name. ``--against PATH`` runs the same measurement with another checkout of
perfectplay (``git archive main | tar -x -C PATH``) in child processes alternated with this
one, and prints both side by side::

    python benchmarks/bench_loopy_memory.py DIR squadro --tier 10001-01002 --cpu --against PATH
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numba
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


def _timed(spent: dict[str, float], name: str, f: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[name] += time.thread_time() - began

    return call


def _cpu_parts(game: TieredGame, tier: int, children: Sequence[SolvedTier]) -> dict[str, Any]:
    """One solve of `tier` on one thread: the CPU seconds of the game's kernels (``game``), of
    each numba kernel the engine calls (by name), in all (``total``), and its records."""
    from perfectplay.tiers import expand, loopy

    spent: dict[str, float] = defaultdict(float)
    for method in ("slots", "children", "parents"):
        setattr(game, method, _timed(spent, f"game.{method}", getattr(game, method)))
    patched = [
        (module, name, value)
        for module in (loopy, expand)
        for name, value in vars(module).items()
        if isinstance(value, numba.core.registry.CPUDispatcher)
    ]
    for module, name, value in patched:
        setattr(module, name, _timed(spent, name, value))
    try:
        cpu = time.process_time()
        records, _ = solve_loopy(game, tier, children)
        spent["total"] = time.process_time() - cpu
        spent["game"] = sum(v for k, v in spent.items() if k.startswith("game."))
    finally:
        for module, name, value in patched:
            setattr(module, name, value)
        for method in ("slots", "children", "parents"):
            delattr(game, method)
    return {"spent": dict(spent), "records": records}


def _cpu_table(runs: dict[str, list[dict[str, float]]], slots: int) -> None:
    """Per slot, best of the runs of each code: the game's kernels, the engine, its kernels."""
    labels = list(runs)
    parts = {p for rs in runs.values() for r in rs for p in r} - {"total", "game"}
    calls = sorted(p for p in parts if p.startswith("game."))
    rows: list[tuple[str, list[float]]] = []
    kernels = sorted(parts - set(calls))
    for part in ["total", "game", *calls, "engine", *kernels, "engine, Python and numpy"]:
        best = []
        for label in labels:
            if part == "engine":
                values = [r["total"] - r.get("game", 0.0) for r in runs[label]]
            elif part.startswith("engine,"):
                values = [
                    r["total"] - r.get("game", 0.0) - sum(r.get(k, 0.0) for k in kernels)
                    for r in runs[label]
                ]
            else:
                values = [r.get(part, 0.0) for r in runs[label]]
            best.append(min(values) / slots * 1e6)
        rows.append((part, best))
    print(f"| part (us per slot, best of {len(runs[labels[0]])}) | " + " | ".join(labels)
          + (" | ratio |" if len(labels) == 2 else " |"))  # fmt: skip
    print("|---" * (len(labels) + 1 + (len(labels) == 2)) + "|")
    for part, best in rows:
        ratio = f" {best[0] / best[1]:.2f}x |" if len(best) == 2 and best[1] > 0 else ""
        print(f"| {part} | " + " | ".join(f"{b:.3f}" for b in best) + " |" + ratio)


def _against(path: str, repeat: int) -> dict[str, list[dict[str, float]]]:
    """`repeat` child runs of this measurement with the checkout at `path` ("before") and
    with this one ("now"), alternated; each child's parts."""
    own = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    argv = [a for a in sys.argv[1:] if not a.startswith("--against") and a != path]
    runs: dict[str, list[dict[str, float]]] = {"before": [], "now": []}
    for _ in range(repeat):
        for label, root in (("before", path), ("now", own)):
            env = {**os.environ, "PYTHONPATH": os.path.abspath(root)}
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), *argv, "--repeat", "1", "--json"],
                env=env, check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            child = json.loads(out)
            if not child["same"]:
                raise SystemExit(f"{label}: records differ from the file")
            runs[label].append(child["spent"])
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("game")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--tier", metavar="LABEL", help="the tier (default: the largest loopy)")
    parser.add_argument("--cpu", action="store_true", help="CPU per slot, by part (one thread)")
    parser.add_argument("--repeat", type=int, default=3, help="--cpu: runs, best of (3)")
    parser.add_argument("--against", metavar="PATH", help="--cpu: also the checkout at PATH")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    params = {k: int(v) if v.isdigit() else v for k, v in (p.split("=", 1) for p in args.param)}
    game = perfectplay.load_tiered_game(args.game, **params)
    loopy = [t for t in game.tiers() if game.inner_moves(t)]
    labels = {game.tier_label(t): t for t in loopy}
    tier = labels[args.tier] if args.tier else max(loopy, key=game.tier_size)
    size = game.tier_size(tier)
    if args.cpu and args.against:
        slots = int(np.count_nonzero(game.slots(tier, 0, size)))
        print(f"tier {game.tier_label(tier)}: {size:,} ranks, {slots:,} slots; before: "
              f"{args.against}, records of both as the file")  # fmt: skip
        _cpu_table(_against(args.against, args.repeat), slots)
        return
    children = [_records(args.directory, game, c) for c in game.child_tiers(tier)]
    expected = _records(args.directory, game, tier).records

    def stored(t: int) -> bool:
        return all(
            os.path.exists(os.path.join(args.directory, f"tier-{game.tier_label(u)}.tier"))
            for u in (t, *game.child_tiers(t))
        )

    small = min(filter(stored, loopy), key=lambda t: (not game.child_tiers(t), game.tier_size(t)))
    solve_loopy(game, small, [_records(args.directory, game, c) for c in game.child_tiers(small)])
    if args.cpu:
        runs: dict[str, list[dict[str, float]]] = {"now": []}
        for _ in range(args.repeat):
            one = _cpu_parts(game, tier, children)
            same = one["records"].dtype == expected.dtype and np.array_equal(
                one["records"], expected
            )
            if args.json:
                print(json.dumps({"spent": one["spent"], "same": bool(same)}))
                return
            if not same:
                raise SystemExit("the records differ from the file")
            runs["now"].append(one["spent"])
        slots = int(np.count_nonzero(game.slots(tier, 0, size)))
        print(f"tier {game.tier_label(tier)}: {size:,} ranks, {slots:,} slots, records as the file")
        _cpu_table(runs, slots)
        return
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
