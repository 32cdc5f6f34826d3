"""Pursuit (``problem make-you-happy``): whole command and solve alone, materialised vs implicit.

Inputs (one judge case each, fixed seed), the shapes of issue 9's figures, with the seed C++
program's times quoted there (that program is not in this repository):

* ``dense``: n = 2000, 7181 distinct random edges (C++ 3.0 s, 67 MB);
* ``sparse``: n = 2000, a random Hamiltonian cycle plus 20 random chords, m = 2020 (every vertex
  reachable; the issue's sparse input is not known beyond "n = 2000, m close to n": C++ 1.1 s);
* ``path``: n = 2000, the path 1 -> 2 -> ... -> 2000 (m = 1999), Bob on 1 and Alice on 2: the
  longest games (remoteness 3996: as many retrograde levels);
* ``n500``: n = 500, 24000 distinct random edges (C++ 0.04 s).

For each input: the whole command ``perfectplay problem make-you-happy < input`` (a child
process after a warm-up run, best of 3 wall; CPU and peak RSS of that run, from ``wait4``),
then the solve alone in a fresh child per method, which reads the board, warms numba up on a
tiny board, resets its peak RSS (``/proc/self/clear_refs``), solves the board part reachable
from the start and reports the time and the peak RSS above the baseline:

* ``materialised``: :meth:`Pursuit.solve` (the position graph, its reverse, the retrograde
  solver), as ``make-you-happy`` did before the tier engine;
* ``implicit``: :class:`~perfectplay.builders.pursuit_tiers.PursuitTiers` solved in memory by
  :func:`perfectplay.tiers.solve_tiers` (moves and un-moves generated from the board).

The whole command carries numba's start-up, whatever the input: the ``start-up`` row runs the
judge sample (three boards of five vertices), so every other row reads as that floor plus the
input's own work. ``x C++`` is the whole command's wall time over the C++ time quoted for the
input (a ratio below 1 is faster).

``--baseline TREE`` also runs the whole command from another perfectplay source tree (a
checkout of an older commit, e.g. ``git worktree add --detach /tmp/old COMMIT``) with this
interpreter, and prints its wall time and ours over it: the way to find a regression with
``git bisect``. A tree older than ``--no-limits`` is run without the flag.

Run: ``.venv/bin/python benchmarks/bench_pursuit.py [--jobs N] [--baseline TREE]``.
Target (issue 9): at most half the C++ time and at most 200 MB at n = 2000.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _child import perfectplay_command, run_child

SEED = 20261124
REPEATS = 3
CPP = {
    "dense": (3.0, "3.0 s, 67 MB"),
    "sparse": (1.1, "1.1 s"),
    "path": (None, "-"),
    "n500": (0.04, "0.04 s"),
}


def _distinct_edges(rng: np.random.Generator, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    keys = rng.choice(n * (n - 1), m, replace=False)
    src = keys // (n - 1)
    dst = keys % (n - 1)
    return src, dst + (dst >= src)


def make_input(name: str) -> str:
    """The judge input of case `name` (1-based vertices); ``start-up`` is the judge sample."""
    if name == "start-up":
        from perfectplay.problems.make_you_happy import SAMPLE

        return SAMPLE.decode("ascii")
    rng = np.random.default_rng(SEED)
    n = 500 if name == "n500" else 2000
    if name == "dense":
        src, dst = _distinct_edges(rng, n, 7181)
    elif name == "n500":
        src, dst = _distinct_edges(rng, n, 24000)
    elif name == "path":
        src, dst = np.arange(n - 1), np.arange(1, n)
    else:
        order = rng.permutation(n)
        chord_src, chord_dst = _distinct_edges(rng, n, 20)
        keys = np.unique(np.r_[order * n + np.roll(order, -1), chord_src * n + chord_dst])
        src, dst = keys // n, keys % n
    edges = "".join(f"{a + 1} {b + 1}\n" for a, b in zip(src.tolist(), dst.tolist(), strict=True))
    return f"1\n{n} {src.size}\n{edges}1 2\n"


def solve_alone(path: str, method: str, jobs: int | None) -> dict[str, float]:
    """In this process: solve the input at `path` by `method`; time and peak RSS above base."""
    from perfectplay.builders.pursuit import Pursuit
    from perfectplay.builders.pursuit_tiers import PursuitTiers
    from perfectplay.graph import GameGraph
    from perfectplay.tiers import solve_tiers

    with open(path, "rb") as f:
        numbers = np.array(f.read().split(), dtype=np.int64)
    n, m = int(numbers[1]), int(numbers[2])
    edges = numbers[3 : 3 + 2 * m].reshape(m, 2) - 1
    x, y = (int(v) - 1 for v in numbers[3 + 2 * m : 5 + 2 * m])
    board = GameGraph.from_edges(edges[:, 0], edges[:, 1], n=n)

    def run(b: GameGraph, start: tuple[int, int]) -> int:
        game, kept = Pursuit(b).restricted(*start)
        bob, alice = np.searchsorted(kept, start).tolist()
        if method == "materialised":
            return int(game.solve().value[game.encode(bob, alice, 0)])
        tiered = PursuitTiers(game.board, start=(bob, alice))
        db = solve_tiers(tiered, jobs=jobs, progress=False)
        return int(db.probe(tiered.start).value)

    run(GameGraph.from_edges([0, 1], [1, 0], n=2), (0, 1))  # warm numba up
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    base = _status("VmRSS")
    wall, cpu = time.perf_counter(), time.process_time()
    value = run(board, (x, y))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"wall": wall, "cpu": cpu, "peak": _status("VmHWM") - base, "value": value}


def _times(run: dict[str, float]) -> str:
    return f"{run['wall']:.2f}/{run['cpu']:.2f}"


def _status(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise SystemExit(f"no {key} in /proc/self/status")


def baseline_command(tree: str) -> tuple[list[str], dict[str, str], list[str]]:
    """The whole command run from source tree `tree`: arguments, environment, its flags.

    The command is run in `tree` (``python -c`` puts its directory first on the path)."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    args = [sys.executable, "-c", "import sys; from perfectplay.cli import main; sys.exit(main())"]
    usage = subprocess.run(
        [*args, "problem", "make-you-happy", "--help"],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
    )
    return args, env, ["--no-limits"] if "--no-limits" in usage.stdout else []


def _ratio(ours: float, other: float | None) -> str:
    return "-" if other is None else f"{ours / other:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None, help="engine threads (default: all)")
    parser.add_argument("--baseline", metavar="TREE", help="also run another source tree's command")
    parser.add_argument("--solve", nargs=2, metavar=("PATH", "METHOD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.solve:
        print(json.dumps(solve_alone(args.solve[0], args.solve[1], args.jobs)))
        return
    command = [*perfectplay_command(), "problem", "make-you-happy", "--no-limits"]
    baseline = None
    if args.baseline:
        base_args, base_env, base_flags = baseline_command(args.baseline)
        baseline = [*base_args, "problem", "make-you-happy", *base_flags]
    jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    print("whole command: perfectplay problem make-you-happy < input (best of 3 wall);")
    print("solve alone: the reachable board solved once in a warm child: wall s / CPU s,")
    print("peak RSS above the child's base; mat = materialised graph, impl = implicit (engine)")
    if baseline:
        print(f"base s: the whole command from {args.baseline} (best of 3 wall); x base: ours / it")
    print(
        f"{'input':<8} {'n':>5} {'m':>5} {'C++ (issue)':>13} {'cmd s':>6} {'x C++':>5} "
        f"{'cpu s':>6} {'cmd MiB':>7}"
        + (f" {'base s':>6} {'x base':>6}" if baseline else "")
        + f" {'mat s':>11} {'mat MiB':>7} {'impl s':>11} {'impl MiB':>8}  answer"
    )
    with tempfile.TemporaryDirectory() as tmp:
        warm = os.path.join(tmp, "warm.txt")
        with open(warm, "w", encoding="ascii") as f:
            f.write(make_input("n500"))
        run_child(command, warm)
        if baseline:
            run_child(baseline, warm, env=base_env, cwd=args.baseline)
        for name in ["start-up", *CPP]:
            cpp_seconds, cpp_text = CPP.get(name, (None, "-"))
            path = os.path.join(tmp, f"{name}.txt")
            with open(path, "w", encoding="ascii") as f:
                f.write(make_input(name))
            wall, cpu, rss, out = min(run_child(command, path) for _ in range(REPEATS))
            base = ""
            if baseline:
                base_wall, _, _, base_out = min(
                    run_child(baseline, path, env=base_env, cwd=args.baseline)
                    for _ in range(REPEATS)
                )
                if base_out != out:
                    raise SystemExit(f"{name}: the baseline answers otherwise")
                base = f" {base_wall:>6.2f} {wall / base_wall:>6.2f}"
            with open(path, encoding="ascii") as f:
                n, m = f.readlines()[1].split()
            line = (
                f"{name:<8} {n:>5} {m:>5} {cpp_text:>13} {wall:>6.2f} "
                f"{_ratio(wall, cpp_seconds):>5} {cpu:>6.2f} {rss / 2**20:>7.0f}{base}"
            )
            if name == "start-up":
                print(f"{line} {'-':>11} {'-':>7} {'-':>11} {'-':>8}  {out.splitlines()[0]}")
                continue
            alone = {}
            for method in ("materialised", "implicit"):
                child = subprocess.run(
                    [sys.executable, __file__, "--solve", path, method, *jobs],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                alone[method] = json.loads(child.stdout)
            if alone["materialised"]["value"] != alone["implicit"]["value"]:
                raise SystemExit(f"{name}: the two methods disagree")
            mat, imp = alone["materialised"], alone["implicit"]
            print(
                f"{line} {_times(mat):>11} {mat['peak'] / 2**20:>7.0f} "
                f"{_times(imp):>11} {imp['peak'] / 2**20:>8.0f}  {out.strip()}",
                flush=True,
            )


if __name__ == "__main__":
    main()
