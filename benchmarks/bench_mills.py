"""Benchmark of the Morris family on the tier engine: reduced games solved, on threads and on
Dask, and the full games' up-front estimates.

Rows, each measured in this one run:

* **solved**: Three Men's Morris, Six Men's Morris, and Nine Men's Morris with 3 and with 4
  stones each, each by the whole ``perfectplay solve nine-mens-morris --param ... --tiers DIR
  --jobs 2`` command (a child process; wall, CPU and peak RSS from ``os.wait4``, the process
  tree's), its positions reachable from the start (``perfectplay analyze``) and the start's
  value; then the same solve with ``--dask local:2`` (a LocalCluster of two worker processes,
  its start-up included) into another directory, whether every file of the two directories
  is the same, byte for byte, and the cluster's overhead (its wall time over the threads').
  Both solves use the same ``--chunk-size`` (the threads' default), which the files record.
* **estimated**: the full Nine Men's Morris, Lasker Morris and Morabaraba, which are refused
  before anything is written: their tiers and ranks, the largest tier and the memory it needs
  with the tiers it reads on the solving machine (the engine's own formula,
  :class:`perfectplay.tiers.scheduler.Machine`), the bytes of the files (one byte per slot, the
  slots sampled in each tier as the engine samples them) and the refusal the engine prints.
* With ``--gamesmanone-src PATH`` (a source tree of GamesCrafters/GamesmanOne with its
  ``mills`` game, its branch ``rs/mills``; GPL code, built with CMake into a temporary folder
  and never part of this repository), GamesmanOne's wall time for ``gamesman solve mills 72``
  (Six Men's Morris: no flying, no Lasker rule, standard removal) on 2 OpenMP threads.

* **rates per phase**: for each threads solve, the wall seconds of its placement tiers
  (acyclic) and of its move tiers (loopy), each tier's the time from the file finished before
  it to its own (the files' modification times), and the ranks per second of each phase. The
  nine board with ``k`` stones each is a closed part of Nine Men's Morris itself (the
  subspaces with at most ``k`` stones a side on the board and in hand, the same positions and
  moves), so its rates are those of real tiers; the full game's time is projected from the
  rates of the largest row, phase by phase.

* With ``--kernels``, instead: the game's kernels alone on real tiers of the full Nine Men's
  Morris, CPU time (best of 3; the machine is shared), per rank of windows of consecutive ranks
  spread over the tier (not at its ends: few slots and moves there), as the engine hands them:
  ``slots`` of every rank and ``children`` of the slots; ``parents`` (move tiers) of as many
  ranks drawn at random and sorted, as a level's positions are spread over the tier; then
  every tier sampled the same way (2 windows) and the kernels' CPU time for the whole game
  projected (parents counted once per slot, which the loopy worker does not exceed; the
  engine's own work, about a third of a big tier's solve, left out).

* With ``--redo DIR``, instead: tiers of the already solved (or partly solved) tier directory
  DIR solved again, each in scratch copies of DIR, by ``perfectplay solve ... --only LABEL``
  once with ``--jobs 2`` and once with ``--dask local:2``, each new file compared byte for
  byte with DIR's (:mod:`_redo`; DIR is only read, and may be a directory still being
  solved): real tiers of the full game on Dask, with the cluster's overhead at their scale.
  ``--labels L1,L2,...`` names the tiers (labels as in DIR's manifest, e.g. ``6_5_0_0``); by
  default the 3 largest finished tiers of at most a third of ``--budget-ranks`` ranks each
  (default 10,000,000 ranks in all). ``--scratch PATH`` holds the copies (default: the
  system's temporary folder if it is on DIR's file system, which hard links need, else
  beside DIR). The exit code is 1 if a tier's files differ.

``--quick`` leaves out the 4-stone row; ``--five`` adds Nine Men's Morris with 5 stones (88
tiers, 98 million ranks; minutes). ``--keep DIR`` keeps the tier directories under DIR.
GamesmanOne's CMake files look for the CMake packages of json-c, liblzma and lz4; where the
system's development packages have none (Debian 12 for the last two), point
``CMAKE_PREFIX_PATH`` at a folder of small ``*Config.cmake`` files naming the libraries.

Usage: ``python benchmarks/bench_mills.py [--quick] [--five] [--keep DIR]
[--gamesmanone-src PATH]``, ``python benchmarks/bench_mills.py --kernels`` or ``python
benchmarks/bench_mills.py --redo DIR [--labels L1,L2,...] [--budget-ranks N] [--scratch
PATH]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _child import perfectplay_command, run_child
from _redo import choose_tiers, finished_tiers, redo, scratch_root
from bench_catalogue import _build_gamesmanone, _theirs

from perfectplay.errors import TooLargeError
from perfectplay.games.mills.tiers import TieredMills
from perfectplay.tiers.engine import refuse_early
from perfectplay.tiers.plan import DEFAULT_CHUNK
from perfectplay.tiers.scheduler import Machine
from perfectplay.tiers.storage import LOCK

_SOLVED = [("Three Men's Morris", "three", 0), ("Six Men's Morris", "six", 0),
           ("Nine Men's Morris, 3 stones", "nine", 3),
           ("Nine Men's Morris, 4 stones", "nine", 4)]  # fmt: skip
_ESTIMATED = [("Nine Men's Morris", "nine"), ("Lasker Morris", "lasker"),
              ("Morabaraba", "morabaraba")]  # fmt: skip
_KERNEL_TIERS = ["8_7_0_0", "9_7_0_0", "8_8_1_1", "7_8_2_1", "6_6_3_3"]
"""Tiers of the full game whose kernels are timed: the largest move tiers and placement tiers."""
_SAMPLES, _SAMPLE = 4, 1024
"""Windows of ranks, and ranks per window, whose slots are counted per tier (as the engine's
disk estimate counts them)."""


def _solve(variant: str, stones: int, directory: str, executor: list[str]) -> dict:
    """One whole solve command: its JSON record with wall, CPU and peak RSS added."""
    shutil.rmtree(directory, ignore_errors=True)
    command = [*perfectplay_command(), "solve", "nine-mens-morris", "--param", f"variant={variant}"]
    command += ["--param", f"stones={stones}", "--tiers", directory, "--json"]
    command += ["--chunk-size", str(DEFAULT_CHUNK), *executor]
    wall, cpu, rss, out = run_child(command, os.devnull)
    record = json.loads(out)
    record.update(wall=wall, cpu=cpu, rss=rss)
    return record


def _positions(directory: str) -> int:
    _, _, _, counted = run_child(
        [*perfectplay_command(), "analyze", directory, "--json"], os.devnull
    )
    return sum(json.loads(counted)["positions"].values())


def _digest(directory: str) -> dict[str, str]:
    """Every file under `directory` (but the solve's lock) by relative path, with its SHA-256."""
    root = Path(directory)
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != LOCK
    }


def _slots(game: TieredMills, tier: int, size: int) -> int:
    """The slots of `tier`, estimated from 4 windows of 1,024 ranks spread over it."""
    if size <= _SAMPLES * _SAMPLE:
        return int(game.slots(tier, 0, size).sum())
    starts = [k * (size - _SAMPLE) // (_SAMPLES - 1) for k in range(_SAMPLES)]
    used = sum(int(game.slots(tier, lo, lo + _SAMPLE).sum()) for lo in starts)
    return size * used // (_SAMPLES * _SAMPLE)


def _phases(game: TieredMills, directory: str) -> dict[bool, tuple[int, float]]:
    """Per phase (whether the tiers have inner moves): ``(ranks, wall seconds)`` of a solved
    directory, each tier's seconds from the previous file's modification time to its own."""
    label = {game.tier_label(t): t for t in game.tiers()}
    root = Path(directory)
    done = sorted((p.stat().st_mtime, p.name[5:-5]) for p in root.glob("tier-*.tier"))
    previous = (root / "manifest.json").stat().st_mtime
    out = {False: (0, 0.0), True: (0, 0.0)}
    for when, name in done:
        tier = label[name]
        ranks, seconds = out[game.inner_moves(tier)]
        out[game.inner_moves(tier)] = (ranks + game.tier_size(tier), seconds + when - previous)
        previous = when
    return out


def _cpu(work: Callable[[], object]) -> float:
    """The least CPU seconds of 3 runs of `work`."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def _kernels(game: TieredMills, tier: int, windows: int, width: int) -> dict[str, float]:
    """CPU seconds of the kernels on `windows` windows of `width` consecutive ranks spread over
    `tier` (none at its ends): ``slots`` of every rank, ``children`` of the slots, ``parents``
    of as many ranks drawn at random over the tier, sorted (as the engine asks for a level's);
    with the ranks, slots and children counted."""
    size = game.tier_size(tier)
    width = min(width, size)
    # Inside the tier, not at its ends: the first and last ranks are the first and last classes
    # of the mover's stones, symmetric and crowded (few slots and few moves a slot).
    starts = np.linspace(0, size - width, windows + 2)[1:-1].astype(np.int64).tolist()
    slots = np.concatenate([lo + np.flatnonzero(game.slots(tier, lo, lo + width)) for lo in starts])
    out = {"ranks": float(windows * width), "slots": float(len(slots))}
    out["slot s"] = _cpu(lambda: [game.slots(tier, lo, lo + width) for lo in starts])
    out["children s"] = _cpu(lambda: game.children(tier, slots))
    out["children"] = float(len(game.children(tier, slots).rank))
    inner = game.inner_moves(tier)
    # A level's positions are spread over the tier: their parents miss the caches.
    spread = np.unique(np.random.default_rng(tier).integers(0, size, len(slots)))
    per_slot = _cpu(lambda: game.parents(tier, spread)) / len(spread) if inner else 0.0
    out["parents s"] = per_slot * len(slots)
    return out


def _kernel_rows() -> None:
    """The ``--kernels`` tables."""
    game = TieredMills()
    label = {game.tier_label(t): t for t in game.tiers()}
    print("| tier | ranks | children a slot | slots ns/rank | children ns/slot | parents ns/slot |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in _KERNEL_TIERS:
        tier = label[name]
        k = _kernels(game, tier, 50, 4000)
        parents = f"{k['parents s'] / k['slots'] * 1e9:.0f}" if game.inner_moves(tier) else "-"
        print(
            f"| {name} | {game.tier_size(tier):,} | {k['children'] / k['slots']:.2f} "
            f"| {k['slot s'] / k['ranks'] * 1e9:.1f} | {k['children s'] / k['slots'] * 1e9:.0f} "
            f"| {parents} |"
        )
    total = {False: [0.0, 0.0], True: [0.0, 0.0]}  # per phase: ranks, kernel CPU seconds
    for tier in game.tiers():
        size = game.tier_size(tier)
        k = _kernels(game, tier, 2, 2000)
        spent = k["slot s"] + k["children s"] + k["parents s"]
        total[game.inner_moves(tier)][0] += size
        total[game.inner_moves(tier)][1] += spent * size / k["ranks"]
    for inner, (ranks, seconds) in total.items():
        print(
            f"{'move' if inner else 'placement'} tiers: {ranks:,.0f} ranks, the kernels "
            f"{seconds / 3600:,.2f} CPU hours ({seconds / ranks * 1e9:.0f} ns a rank)"
        )


def _estimate(variant: str) -> dict:
    """The full game's tiers, ranks, largest tier, its memory alone, the files' bytes and the
    engine's refusal (None if it is not refused)."""
    game = TieredMills(variant)
    sizes = {t: game.tier_size(t) for t in game.tiers()}
    largest = max(sizes, key=lambda t: (sizes[t], t))
    machine = Machine(game, sizes, DEFAULT_CHUNK, threads=2, copies=1, assembles=False)
    worst = max(sizes, key=machine.alone)
    try:
        refuse_early(game)
        refused = None
    except TooLargeError as error:
        refused = str(error)
    return {
        "tiers": len(sizes),
        "ranks": sum(sizes.values()),
        "largest": f"{game.tier_label(largest)} ({sizes[largest]:,})",
        "memory": machine.alone(worst),
        "worst": game.tier_label(worst),
        "disk": sum(_slots(game, t, s) + s // 4096 for t, s in sizes.items()),
        "refused": refused,
    }


def _redo_rows(directory: str, labels: str | None, budget: int, scratch: str | None) -> int:
    """The ``--redo`` table; the exit code (1 if a tier's files differ)."""
    finished = finished_tiers(directory)
    chosen = labels.split(",") if labels else choose_tiers(finished, budget)
    if not chosen:
        raise SystemExit(f"{directory}: no finished tier of at most {budget // 3:,} ranks")
    root = scratch_root(directory, scratch)
    print(f"# tiers of {directory} solved again, {os.cpu_count()} cores; load {os.getloadavg()}")
    print(f"# {len(finished)} finished tiers; the copies in {root}")
    try:
        rows, untouched = redo(directory, chosen, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        "| tier | ranks | threads (--jobs 2): wall s, CPU s, peak RSS MiB "
        "| Dask local:2: wall s, CPU s, peak RSS MiB | same bytes | Dask / threads wall |"
    )
    print("|---|---:|---|---|---|---:|")
    for row in rows:
        cells = [f"{w:.1f}, {c:.1f}, {r / 2**20:.0f}" for w, c, r in row.figures.values()]
        ratio = row.figures["dask"][0] / row.figures["threads"][0]
        name = row.label or "none (start-up: nothing to solve)"
        same = "yes" if row.same else "NO"
        print(f"| {name} | {row.ranks:,} | {cells[0]} | {cells[1]} | {same} | {ratio:.2f} |")
    print(f"{directory}'s files read: {'unchanged' if untouched else 'CHANGED'}")
    return 0 if untouched and all(row.same for row in rows) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the 4-stone row")
    parser.add_argument("--five", action="store_true", help="add the 5-stone row (minutes)")
    parser.add_argument("--keep", metavar="DIR", help="keep the tier directories under DIR")
    parser.add_argument(
        "--gamesmanone-src", metavar="PATH", help="GamesmanOne's source tree, built and timed"
    )
    parser.add_argument(
        "--kernels", action="store_true", help="only the kernels' CPU time on the full game"
    )
    parser.add_argument(
        "--redo", metavar="DIR", help="solve tiers of the tier directory DIR again both ways"
    )
    parser.add_argument(
        "--labels", metavar="L1,L2,...", help="--redo: the tiers (default: see --budget-ranks)"
    )
    parser.add_argument(
        "--budget-ranks",
        type=int,
        default=10_000_000,
        metavar="N",
        help="--redo without --labels: the 3 largest finished tiers of at most N/3 ranks each "
        "(default 10,000,000)",
    )
    parser.add_argument(
        "--scratch", metavar="PATH", help="--redo: where the copies go (on DIR's file system)"
    )
    args = parser.parse_args()
    if args.redo:
        raise SystemExit(_redo_rows(args.redo, args.labels, args.budget_ranks, args.scratch))
    if args.kernels:
        print(f"# Nine Men's Morris kernels, CPU time, load {os.getloadavg()}")
        _kernel_rows()
        return
    print(f"# the Morris family on the tier engine, {os.cpu_count()} cores; load {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or scratch
        os.makedirs(root, exist_ok=True)
        binary = None
        if args.gamesmanone_src:
            binary = _build_gamesmanone(args.gamesmanone_src, scratch)
        print(
            "| game | ranks | positions | start | threads: wall s, CPU s, peak RSS MiB "
            "| Dask local:2: wall s, CPU s, peak RSS MiB | same files | Dask / threads wall |"
        )
        print("|---|---:|---:|---|---|---|---|---:|")
        rows = list(_SOLVED[:3] if args.quick else _SOLVED)
        rows += [("Nine Men's Morris, 5 stones", "nine", 5)] if args.five else []
        rates = []
        for title, variant, stones in rows:
            name = f"{variant}-{stones}"
            here = os.path.join(root, name)
            there = os.path.join(root, f"{name}-dask")
            threads = _solve(variant, stones, here, ["--jobs", "2"])
            dask = _solve(variant, stones, there, ["--dask", "local:2"])
            same = "yes" if _digest(here) == _digest(there) else "NO"
            start = threads["start"]["value"]
            if threads["start"]["remoteness"] >= 0:
                start += f" in {threads['start']['remoteness']}"
            game = TieredMills(variant, stones)
            ranks = sum(game.tier_size(t) for t in game.tiers())
            print(
                f"| {title} | {ranks:,} | {_positions(here):,} | {start} "
                f"| {threads['wall']:.1f}, {threads['cpu']:.1f}, {threads['rss'] / 2**20:.0f} "
                f"| {dask['wall']:.1f}, {dask['cpu']:.1f}, {dask['rss'] / 2**20:.0f} | {same} "
                f"| {dask['wall'] / threads['wall']:.2f} |"
            )
            rates.append((title, _phases(game, here)))
        if binary is not None:
            wall = _theirs(binary, "mills", scratch, "72")
            print(f"\nGamesmanOne, `gamesman solve mills 72` (Six Men's Morris): {wall:.1f} s wall")
        else:
            print("\n(GamesmanOne skipped: give --gamesmanone-src PATH to time it on six)")
    print(
        "\n| threads solve | placement tiers: ranks, wall s, ranks/s "
        "| move tiers: ranks, wall s, ranks/s |"
    )
    print("|---|---|---|")
    for title, phases in rates:
        cells = [
            f"{r:,}, {s:.1f}, {r / max(s, 1e-9):,.0f}" for r, s in (phases[False], phases[True])
        ]
        print(f"| {title} | {cells[0]} | {cells[1]} |")
    nine = TieredMills("nine")
    title, phases = rates[-1]
    hours = 0.0
    for inner in (False, True):
        ranks = sum(nine.tier_size(t) for t in nine.tiers() if nine.inner_moves(t) == inner)
        hours += ranks / (phases[inner][0] / max(phases[inner][1], 1e-9)) / 3600
        print(f"Nine Men's Morris, {'move' if inner else 'placement'} tiers: {ranks:,} ranks")
    print(f"projected whole Nine Men's Morris at the rates of {title}: {hours:,.1f} h wall")
    print(
        "\n| full game | tiers | ranks | largest tier (ranks) | memory of the neediest tier "
        "| files | refused |"
    )
    print("|---|---:|---:|---|---|---:|---|")
    for title, variant in _ESTIMATED:
        e = _estimate(variant)
        print(
            f"| {title} | {e['tiers']:,} | {e['ranks']:,} | {e['largest']} "
            f"| {e['memory'] / 2**30:,.1f} GiB ({e['worst']}) | {e['disk'] / 1e9:,.1f} GB "
            f"| {e['refused'] or 'no'} |"
        )


if __name__ == "__main__":
    main()
