"""Benchmark of the tier engine on Dask: the same solve in-process, on local:1 and on local:2.

Rows: Connect Four 5 rows x 5 cols (5 x 6 with ``--big``) solved into a fresh tier directory
by the whole ``perfectplay solve --tiers`` command, in-process with 1 thread and with 2, then
on a LocalCluster of 1 and of 2 worker processes (``--dask local:N``, cluster start-up
included), and on one worker process with 2 threads (``local:1x2``). Then:

* the overhead of the cluster against in-process on the same number of cores (issue target:
  at most 15% at 5 x 6);
* the speed-up from 1 to 2 workers (target: at least 1.7x);
* a projection for Connect Four 6 x 6 on a 16-machine cluster, from the ranks per second per
  worker the tasks measured (the driver prints them) and the sizes of 6 x 6's tiers.

Usage: ``python benchmarks/bench_dask.py [--big] [--repeat N] [--machines 16] [--cores 2]``.
Times are seconds; CPU is the whole process tree's (driver, scheduler, workers). With
``--repeat N`` the five runs are made N times in turn (so that a slow spell of a shared machine
touches every configuration) and the table gives each one's median, with its range; ratios
are of medians, and the speed-up of each round is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from _child import perfectplay_command

from perfectplay.games.registry import load_tiered_game

_RATE = re.compile(r"\(([0-9.]+) s CPU\): ([0-9.]+) M ranks/s per worker \(([0-9.]+) per CPU")


def _solve(rows: int, cols: int, directory: str, extra: list[str]) -> dict:
    """Run one solve; wall and CPU seconds, its JSON record and the workers' rate if any."""
    args = [*perfectplay_command(), "solve", "connect-four", "--param", f"rows={rows}"]
    args += ["--param", f"cols={cols}", "--tiers", directory, "--json", *extra]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        wall = time.perf_counter()
        child = subprocess.Popen(args, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - wall
        out.seek(0)
        err.seek(0)
        text, log = out.read().decode(), err.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{log}")
    tasks = _RATE.search(log)
    record = json.loads(text)
    record.update(wall=wall, cpu=usage.ru_utime + usage.ru_stime, tasks_cpu=None, rate=None)
    if tasks is not None:
        record.update(
            tasks_cpu=float(tasks.group(1)),
            rate=float(tasks.group(2)),
            cpu_rate=float(tasks.group(3)),
        )
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="Connect Four 5x6 (many minutes)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the five runs")
    parser.add_argument("--machines", type=int, default=16, help="machines of the projection")
    parser.add_argument("--cores", type=int, default=2, help="cores per projected machine")
    args = parser.parse_args()
    rows, cols = (5, 6) if args.big else (5, 5)
    root = tempfile.mkdtemp(prefix="bench-dask-")
    runs = [
        ("in-process, 1 thread", ["--jobs", "1"]),
        ("in-process, 2 threads", ["--jobs", "2"]),
        ("local:1", ["--dask", "local:1"]),
        ("local:2", ["--dask", "local:2"]),
        # One process, two threads: child tiers held once (the layout for a cluster's machine).
        ("local:1x2", ["--dask", "local:1x2"]),
    ]
    print(f"# Connect Four {rows}x{cols} on Dask, {os.cpu_count()} cores; load {os.getloadavg()}")
    rounds: dict[str, list[dict]] = {what: [] for what, _ in runs}
    try:
        for _ in range(args.repeat):
            for what, extra in runs:
                directory = os.path.join(root, re.sub(r"\W+", "-", what))
                rounds[what].append(_solve(rows, cols, directory, extra))
                shutil.rmtree(directory)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.repeat} round(s); load after: {os.getloadavg()}")
    print(
        "| run | wall s | CPU s | tasks' CPU s | M ranks/s per worker (per task s, per CPU s) "
        "| start |"
    )
    print("|---|---|---|---|---|---|")
    results = {what: _median(rs) for what, rs in rounds.items()}
    for what, r in results.items():
        walls = [x["wall"] for x in rounds[what]]
        spread = f" ({min(walls):.1f}-{max(walls):.1f})" if len(walls) > 1 else ""
        tasks = "-" if r["rate"] is None else f"{r['tasks_cpu']:.1f}"
        rate = "-" if r["rate"] is None else f"{r['rate']:.2f}, {r['cpu_rate']:.2f}"
        start = f"{r['start']['value']} in {r['start']['remoteness']}"
        print(f"| {what} | {r['wall']:.1f}{spread} | {r['cpu']:.1f} | {tasks} | {rate} | {start} |")
    one, two = results["local:1"], results["local:2"]
    pairs = [("local:1", "in-process, 1 thread"), ("local:2", "in-process, 2 threads")]
    pairs.append(("local:1x2", "in-process, 2 threads"))
    for there, here in pairs:
        wall, base = results[there]["wall"], results[here]["wall"]
        print(
            f"overhead of {there}: {wall:.1f} s against {base:.1f} s {here} = "
            f"{100 * (wall / base - 1):+.0f}% wall, {results[there]['cpu']:.1f} against "
            f"{results[here]['cpu']:.1f} s CPU (target <= 15%)"
        )
    pairs_of_rounds = zip(rounds["local:1"], rounds["local:2"], strict=True)
    each = [a["wall"] / b["wall"] for a, b in pairs_of_rounds]
    print(
        f"speed-up local:1 -> local:2: {one['wall'] / two['wall']:.2f}x (target >= 1.7x); "
        f"each round: {', '.join(f'{x:.2f}x' for x in each)}"
    )
    # Per CPU second: what a core of a machine without other jobs gives (this one is shared).
    rate = two["cpu_rate"] * 1e6
    game = load_tiered_game("connect-four", rows=6, cols=6)
    size = {t: game.tier_size(t) for t in game.tiers()}
    workers = args.machines * args.cores
    seconds = sum(size.values()) / (rate * workers)
    held = max(sum(size[c] for c in game.child_tiers(t)) + size[t] / args.machines for t in size)
    print(
        f"projection, Connect Four 6x6 ({sum(size.values()):.3g} rank slots, largest tier "
        f"{max(size.values()):.3g}) on {args.machines} machines x {args.cores} cores at "
        f"{rate / 1e6:.2f} M ranks/s per worker: {seconds / 3600:.1f} h of tasks; each machine "
        f"holds, once in /dev/shm, the child tiers of the tier it solves and its share of "
        f"that tier: up to {held / 2**30:.0f} GiB"
    )


def _median(records: list[dict]) -> dict:
    """The run of median wall time (the upper one of an even count)."""
    ordered = sorted(records, key=lambda r: r["wall"])
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    main()
