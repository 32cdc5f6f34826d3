"""Geography problems benchmark: wall time of ``perfectplay problem NAME`` at judge and large sizes.

Each case is a generated judge input (fixed seed) run as a subprocess, ``perfectplay problem NAME
--no-limits < input`` (the large sizes are beyond the judges' limits), after one warm-up run of the
same problem (numba cache filled), so the times include interpreter start-up and imports. Reported:
best wall time of the repeats, CPU time (user + sys) and peak memory (max RSS of the child, from
``wait4``) of that run, and a digest of the answer.

* ``board-game``: 200 random 8 x 8 boards (judge), one 64 x 64 board with 10% walls;
* ``planinarenje``: N = M = 5000 (judge), N = 10^6 with M = 2 * 10^6 trails;
* ``jsoi-game``: 100 x 100 with 30% walls (judge), 2000 x 2000 with 30% walls;
* ``knights``: n = 8 with two knights, n = 40 with two knights and 5% blocked;
* ``hamilg``: 100 cases of N = 50, M = 200 (many small cases), N = 2000 with M = 10^6.

Run: ``.venv/bin/python benchmarks/bench_problems.py [--quick]`` (quick: judge sizes only).
Target: every judge-size case <= 0.6 s wall on a quiet 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

import numpy as np
from _child import perfectplay_command, run_child

SEED = 20261121
REPEATS = 3


def _rows(free: np.ndarray, marks: dict[tuple[int, int], str] | None = None) -> str:
    chars = np.where(free, ".", "#").astype("<U1")
    for (r, c), ch in (marks or {}).items():
        chars[r, c] = ch
    return "\n".join("".join(row) for row in chars.tolist()) + "\n"


def board_game(rng: np.random.Generator, count: int, side: int, walls: float) -> str:
    """`count` boards `side` x `side`, each cell removed with probability `walls`, two tokens."""
    parts = []
    for _ in range(count):
        free = rng.random((side, side)) >= walls
        free.flat[rng.choice(side * side, 2, replace=False)] = True
        cells = np.flatnonzero(free)
        a, b = rng.choice(cells, 2, replace=False)
        marks = {divmod(int(a), side): "P", divmod(int(b), side): "P"}
        parts.append(f"{side} {side}\n" + _rows(free, marks))
    return "\n".join(parts)


def planinarenje(rng: np.random.Generator, n: int, m: int) -> str:
    """N peaks and valleys, M distinct random trails."""
    keys = rng.choice(n * n, m, replace=False)
    lines = np.stack([keys // n + 1, keys % n + 1], axis=1)
    return f"{n} {m}\n" + "\n".join(f"{v} {d}" for v, d in lines.tolist()) + "\n"


def jsoi_game(rng: np.random.Generator, side: int, walls: float) -> str:
    return f"{side} {side}\n" + _rows(rng.random((side, side)) >= walls)


def knights(rng: np.random.Generator, n: int, m: int, blocked: float) -> str:
    cells = np.flatnonzero(rng.random(n * n) < blocked)
    body = "".join(f"{c // n + 1} {c % n + 1}\n" for c in cells.tolist())
    return f"{n} {m} {cells.size}\n" + body


def hamilg(rng: np.random.Generator, cases: int, n: int, m: int) -> str:
    """`cases` random simple graphs with `n` vertices and `m` distinct edges each."""
    out = [f"{cases}\n"]
    for _ in range(cases):
        ranks = rng.choice(n * (n - 1) // 2, m, replace=False)
        hi = ((1 + np.sqrt(1 + 8 * ranks.astype(np.float64))) / 2).astype(np.int64)
        hi -= hi * (hi - 1) // 2 > ranks
        hi += (hi + 1) * hi // 2 <= ranks
        lo = ranks - hi * (hi - 1) // 2
        out.append(
            f"{n} {m}\n" + "\n".join(f"{a + 1} {b + 1}" for a, b in zip(lo, hi, strict=True)) + "\n"
        )
    return "".join(out)


def digest(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= 3:
        return " / ".join(lines)
    return f"{lines[0]} ... ({len(lines)} lines)"


Case = tuple[str, str, bool, Callable[[np.random.Generator], str]]

CASES: list[Case] = [
    ("board-game", "200 x 8x8, 20% walls", True, lambda g: board_game(g, 200, 8, 0.2)),
    ("board-game", "64x64, 10% walls", False, lambda g: board_game(g, 1, 64, 0.1)),
    ("planinarenje", "N=M=5000", True, lambda g: planinarenje(g, 5000, 5000)),
    ("planinarenje", "N=10^6, M=2*10^6", False, lambda g: planinarenje(g, 10**6, 2 * 10**6)),
    ("jsoi-game", "100x100, 30% walls", True, lambda g: jsoi_game(g, 100, 0.3)),
    ("jsoi-game", "2000x2000, 30% walls", False, lambda g: jsoi_game(g, 2000, 0.3)),
    ("knights", "n=8, two knights", True, lambda g: knights(g, 8, 2, 0.0)),
    ("knights", "n=40, two, 5% blocked", False, lambda g: knights(g, 40, 2, 0.05)),
    ("hamilg", "100 x (N=50, M=200)", True, lambda g: hamilg(g, 100, 50, 200)),
    ("hamilg", "N=2000, M=10^6", True, lambda g: hamilg(g, 1, 2000, 10**6)),
]

WARM_UP = {
    "board-game": "1 3\nP.P\n",
    "planinarenje": "2 3\n1 2\n2 2\n2 1\n",
    "jsoi-game": "3 3\n.##\n...\n#.#\n",
    "knights": "3 2 0\n",
    "hamilg": "1\n3 3\n1 2\n2 3\n3 1\n",
}


def generate(directory: str, quick: bool) -> None:
    """Write every case's input to `directory` as ``<index>.txt``."""
    for index, (_, _, judge, make) in enumerate(CASES):
        if judge or not quick:
            with open(os.path.join(directory, f"{index}.txt"), "w", encoding="ascii") as f:
                f.write(make(np.random.default_rng(SEED)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="judge sizes only")
    parser.add_argument("--generate", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        generate(args.generate, args.quick)
        return
    base = perfectplay_command()
    print("perfectplay problem NAME < input (subprocess, warm numba cache, best of 3 wall)")
    header = (
        f"{'problem':<13} {'input':<24} {'MiB in':>7} {'wall s':>7} {'cpu s':>6} {'RSS MiB':>8}"
    )
    print(header, " answer")
    with tempfile.TemporaryDirectory() as tmp:
        # Inputs are written by a child process: a child forked from a parent that once held
        # big inputs would report the parent's peak as its own max RSS.
        quick = ["--quick"] if args.quick else []
        subprocess.run([sys.executable, __file__, "--generate", tmp, *quick], check=True)
        warm = os.path.join(tmp, "warm.txt")
        for name, text in WARM_UP.items():
            with open(warm, "w", encoding="ascii") as f:
                f.write(text)
            run_child([*base, "problem", name, "--no-limits"], warm)
        for index, (name, label, judge, _) in enumerate(CASES):
            if args.quick and not judge:
                continue
            path = os.path.join(tmp, f"{index}.txt")
            size = os.path.getsize(path) / 2**20
            runs = [
                run_child([*base, "problem", name, "--no-limits"], path) for _ in range(REPEATS)
            ]
            wall, cpu, rss, out = min(runs)
            print(
                f"{name:<13} {label:<24} {size:>7.1f} {wall:>7.2f} {cpu:>6.2f} "
                f"{rss / 2**20:>8.0f}  {digest(out)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
