"""Single-position search of Connect Four 6 x 7 beside Pascal Pons's solver, on his test sets.

Usage::

    python benchmarks/bench_search.py [--sets DIR] [--pons-src SRC] [--limit N] [--hard-limit N]
                                      [--modes strong,weak] [--memory 64M] [--empty]

``--sets DIR`` holds Pons's six public test sets (``Test_L3_R1`` ... ``Test_L1_R3``: lines
``moves score``); without it their rows are skipped. ``--pons-src SRC`` is a checkout of
github.com/PascalPons/connect4 (or its bare git directory): the benchmark builds it with ``g++
-O3 -march=native`` into a temporary folder and runs it beside ours; without it the peer's
columns are skipped. His code is AGPL and never enters this repository.

For each set and mode, Pons's binary reads all the set's positions on standard input in one
process (no opening book: ``-b`` names a missing file, in an empty directory), and ours answers
the same positions in this process through the public API (one :class:`perfectplay.search.
Searcher`, whose table lives across the positions as his does), after one warm-up search that
loads the compiled kernels. Wall-clock and CPU time per position are printed (CPU time is the
steadier figure on a shared machine), with ``ours/Pons`` ratios and the count of answers equal
to the file's (strong: the exact score, as value and remoteness; weak: its sign). Every
answer is checked, not only timed. ``--empty`` adds the empty board (minutes on each side);
a last row times ``perfectplay search`` on one end-game position as a whole command.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfectplay._memory import parse_bytes
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.search import score_to_value
from perfectplay.search import Searcher
from perfectplay.values import Value

SETS = [
    ("Test_L3_R1", "end-easy"),
    ("Test_L2_R1", "middle-easy"),
    ("Test_L2_R2", "middle-medium"),
    ("Test_L1_R1", "begin-easy"),
    ("Test_L1_R2", "begin-medium"),
    ("Test_L1_R3", "begin-hard"),
]
ROWS, COLS = 6, 7
END_GAME = "2252576253462244111563365343671351441"


def build_pons(source: str, into: str) -> str:
    """Pons's solver compiled from `source` (a checkout or a bare git directory) into `into`."""
    src = Path(into) / "src"
    src.mkdir()
    if (Path(source) / "Solver.cpp").exists():
        shutil.copytree(source, src, dirs_exist_ok=True)
    else:  # a bare repository: its newest commit's files
        archive = subprocess.run(
            ["git", "--git-dir", source, "archive", "HEAD"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    binary = str(Path(into) / "c4solver")
    subprocess.run(
        ["g++", "-std=c++11", "-O3", "-march=native", "-DNDEBUG", "-o", binary,
         str(src / "main.cpp"), str(src / "Solver.cpp")],
        check=True,
    )  # fmt: skip
    return binary


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pons(binary: str, lines: list[str], weak: bool) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds of one Pons process on `lines`, and its scores."""
    command = [binary, "-b", "/nonexistent/no.book", *(["-w"] if weak else [])]
    with tempfile.TemporaryDirectory() as empty:  # no 7x6.book found by accident
        cpu, began = _children_cpu(), time.perf_counter()
        out = subprocess.run(
            command, input="\n".join(lines) + "\n", capture_output=True, text=True,
            cwd=empty, check=True,
        )  # fmt: skip
        wall = time.perf_counter() - began
        cpu = _children_cpu() - cpu
    return wall, cpu, [int(row.split()[-1]) for row in out.stdout.splitlines()]  # "" -> " score"


def run_ours(
    game: ConnectFour, lines: list[str], weak: bool, memory: int
) -> tuple[float, float, list[tuple[Value, int | None]], int]:
    """Wall and CPU seconds of our answers to `lines` (parsing and the table included)."""
    cpu, began = time.process_time(), time.perf_counter()
    searcher = Searcher(game, memory=memory)
    answers, nodes = [], 0
    for line in lines:
        position = game.parse(line) if line else game.initial()  # "": the empty board
        found = searcher.search(position, weak=weak, best=False)
        answers.append((found.value, found.remoteness))
        nodes += found.nodes
    return time.perf_counter() - began, time.process_time() - cpu, answers, nodes


def _expected(line: str, score: int, weak: bool) -> tuple[Value, int | None]:
    value, remoteness = score_to_value(score, len(line), ROWS, COLS)
    return (value, None) if weak else (value, remoteness)


def _sign_value(score: int) -> Value:
    return Value.WIN if score > 0 else Value.LOSE if score < 0 else Value.TIE


def startup(memory: str) -> float:
    """Wall seconds of ``perfectplay search`` on one end-game position, as a whole command."""
    command = [
        str(Path(sys.executable).parent / "perfectplay"), "search", "connect-four", "--param",
        f"rows={ROWS}", "--param", f"cols={COLS}", "--memory", memory, END_GAME,
    ]  # fmt: skip
    subprocess.run(command, capture_output=True, check=True)  # the kernels cached on disk
    began = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - began


def check_against_tiers(directory: str, count: int) -> str:
    """Search `count` random positions of the board a solved Connect Four tier directory holds
    (8 to 29 stones; 12 to 29 from 36 cells, whose early positions take longer to search) and
    compare value and remoteness with the directory's."""
    import random

    from perfectplay.solved import open_tiers
    from perfectplay.tiers.storage import read_manifest

    params = read_manifest(directory)["params"]
    rows, cols = int(params["rows"]), int(params["cols"])
    game = ConnectFour(rows, cols)
    rng = random.Random(rows * 10 + cols)
    fewest = 8 if rows * cols < 36 else 12
    positions: list[tuple[str, ...]] = []
    while len(positions) < count:
        position = game.initial()
        for _ in range(rng.randrange(fewest, 30)):
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves)[1]
        if game.outcome(position) is None:
            positions.append(position)
    searcher, same, began = Searcher(game), 0, time.perf_counter()
    with open_tiers(directory) as db:
        for position in positions:
            found, entry = searcher.search(position, best=False), db.probe(position)
            same += (found.value, found.remoteness) == (entry.value, entry.remoteness)
    return (
        f"# {rows}x{cols}: {same}/{count} random positions ({fewest} to 29 stones) equal the "
        f"tier database (value and remoteness), searched in {time.perf_counter() - began:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", help="folder of Pons's Test_L*_R* files (without: no sets)")
    parser.add_argument("--pons-src", help="PascalPons/connect4 sources (or bare git dir)")
    parser.add_argument("--limit", type=int, default=1000, help="positions per set")
    parser.add_argument("--hard-limit", type=int, default=100, help="positions of begin-hard")
    parser.add_argument("--only", default=",".join(n for n, _ in SETS), help="sets to run")
    parser.add_argument("--modes", default="strong,weak")
    parser.add_argument("--memory", default="16M", help="our table (Pons's is about 80 MiB)")
    parser.add_argument("--empty", action="store_true", help="also the empty board")
    parser.add_argument(
        "--check-tiers",
        metavar="DIR",
        help="also compare 2,000 random positions with DIR, a tier directory of Connect Four "
        "(5x6 or 6x6: perfectplay solve connect-four --param rows=5 --param cols=6 -o DIR)",
    )
    args = parser.parse_args()
    memory = parse_bytes(args.memory)
    game = ConnectFour(ROWS, COLS)
    with tempfile.TemporaryDirectory() as scratch:
        pons = build_pons(os.path.abspath(args.pons_src), scratch) if args.pons_src else None
        began = time.perf_counter()
        Searcher(game, memory=1 << 20).search(game.parse(END_GAME))
        print(f"# kernels loaded in {time.perf_counter() - began:.2f} s; our table {args.memory}")
        print(f"# peer: {'Pons, built from ' + args.pons_src if pons else 'none (--pons-src)'}")
        if args.sets is None:
            print("# sets: none (--sets DIR, Pons's Test_L*_R* files): their rows skipped")
        header = (
            f"{'set':<11} {'name':<14} {'mode':<6} {'pos':>5} {'Pons ms/pos':>11} "
            f"{'ours ms/pos':>11} {'wall ratio':>10} {'Pons cpu ms':>11} {'ours cpu ms':>11} "
            f"{'cpu ratio':>9} {'ours ok':>9} {'Pons ok':>9} {'our nodes':>13}"
        )
        print(header)
        print("-" * len(header))
        for name, label in SETS:
            if args.sets is None or name not in args.only.split(","):
                continue
            rows = [r.split() for r in Path(args.sets, name).read_text().splitlines() if r]
            rows = rows[: args.hard_limit if name == "Test_L1_R3" else args.limit]
            lines, scores = [r[0] for r in rows], [int(r[1]) for r in rows]
            for mode in args.modes.split(","):
                weak = mode == "weak"
                wall, cpu, answers, nodes = run_ours(game, lines, weak, memory)
                expected = [_expected(a, s, weak) for a, s in zip(lines, scores, strict=True)]
                ours_ok = sum(a == b for a, b in zip(answers, expected, strict=True))
                k = len(lines)
                row = f"{name:<11} {label:<14} {mode:<6} {k:>5} "
                if pons:
                    p_wall, p_cpu, p_scores = run_pons(pons, lines, weak)
                    if weak:  # his -w prints bounds beyond [-1, 1]: compare the signs
                        pons_ok = sum(
                            _sign_value(a) == _sign_value(b)
                            for a, b in zip(p_scores, scores, strict=True)
                        )
                    else:
                        pons_ok = sum(a == b for a, b in zip(p_scores, scores, strict=True))
                    row += (
                        f"{1e3 * p_wall / k:>11.4f} {1e3 * wall / k:>11.4f} {wall / p_wall:>10.2f} "
                        f"{1e3 * p_cpu / k:>11.4f} {1e3 * cpu / k:>11.4f} "
                        f"{cpu / max(p_cpu, 1e-9):>9.2f} {ours_ok:>4}/{k:<4} {pons_ok:>4}/{k:<4} "
                    )
                else:
                    row += (
                        f"{'-':>11} {1e3 * wall / k:>11.4f} {'-':>10} {'-':>11} "
                        f"{1e3 * cpu / k:>11.4f} {'-':>9} {ours_ok:>4}/{k:<4} {'-':>9} "
                    )
                print(row + f"{nodes:>13,}", flush=True)
        if args.empty:
            wall, cpu, answers, nodes = run_ours(game, [""], False, 2 * memory)
            print(f"# ours on the empty board: {answers[0]}, {wall:.1f} s wall, {cpu:.1f} s CPU, "
                  f"{nodes:,} nodes", flush=True)  # fmt: skip
            row = f"{'empty 6x7':<11} {'41st stone':<14} {'strong':<6} {1:>5} "
            if pons:
                p_wall, p_cpu, p_scores = run_pons(pons, [""], False)
                row += f"{p_wall:>10.1f}s {wall:>10.1f}s {wall / p_wall:>10.2f} "
                row += f"{p_cpu:>10.1f}s {cpu:>10.1f}s {cpu / p_cpu:>9.2f} "
            else:
                row += f"{'-':>11} {wall:>10.1f}s {'-':>10} {'-':>11} {cpu:>10.1f}s {'-':>9} "
            print(row + f"{answers[0]} nodes {nodes:,}", flush=True)
    if args.check_tiers:
        print(check_against_tiers(args.check_tiers, 2000))
    print(f"# perfectplay search on one end-game position, whole command: "
          f"{startup(args.memory):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
