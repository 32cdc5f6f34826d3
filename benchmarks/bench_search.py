"""Single-position search of Connect Four 6 x 7 beside Christophe Steininger's and Pascal Pons's
solvers, on their test sets.

Usage::

    python benchmarks/bench_search.py [--sets DIR] [--pons-src SRC] [--steininger-src SRC]
                                      [--limit N] [--hard-limit N] [--only NAMES]
                                      [--modes strong,weak] [--memory 16M] [--empty]
                                      [--baseline TREE]
    python benchmarks/bench_search.py --sizes [--sizes-max 14] [--sizes-min 4]
                                      [--sizes-list WxH,...] [--size-table-max 4G]
                                      [--size-cap SECONDS] [--steininger-src SRC] [--memory M]

``--sets DIR`` holds Pons's six public test sets (``Test_L3_R1`` ... ``Test_L1_R3``: lines
``moves score``); without it their rows are skipped. ``--pons-src SRC`` is a checkout of
github.com/PascalPons/connect4 (or its bare git directory): the benchmark builds it with ``g++
-O3 -march=native`` into a temporary folder and runs it beside ours; without it the peer's
columns are skipped. His code is AGPL and never enters this repository.

``--steininger-src SRC`` is a checkout of github.com/ChristopheSteininger/c4 (or its bare git
directory, AGPL too): the benchmark copies his ``src/solver`` into a temporary folder, writes
the board size, one search thread and a table of the same memory as ours (``--memory``: a prime
number of 8-byte entries, as his ``settings.h`` asks) into its ``settings.h``, and compiles it
with ``g++ -O3 -flto -march=native`` beside a small reader of our own (positions on standard
input, one score out per line). His six 6 x 7 sets (``tst/data/7x6/*``: 0-based columns, the
score for the player to move, Pons's scale) are then run too, by ours, his and Pons's.

For each set and mode, each peer's binary reads all the set's positions on standard input in
one process, its table kept across them (Pons's without an opening book: ``-b`` names a missing
file, in an empty directory), and ours answers the same positions in this process through the
public API (one :class:`perfectplay.search.Searcher`, whose table lives across the positions as
theirs do), after one warm-up search that loads the compiled kernels. CPU time per position is
printed for each side (the steadier figure on a shared machine; ours also as wall-clock), with
the ratios ``ours/St`` and ``ours/Pons`` and the count of answers equal to the file's (strong:
the exact score, as value and remoteness; weak: its sign). Every answer is checked, not only
timed. ``--baseline TREE`` also runs ours from another perfectplay source tree (the commit
before a step) right after this tree on each set, in a process of its own, and prints its CPU
time and ``ours/base``: how a step is measured. ``--empty`` adds the empty board (minutes on
each side, the baseline's too); a last row times ``perfectplay search`` on one end-game
position as a whole command.

``--sizes`` prints instead the table of outcomes of every board size (the empty board solved by
ours and by Steininger's solver built for that size, beside his published table): see
``benchmarks/_sizes.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
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
    _source_files(source, src)
    binary = str(Path(into) / "c4solver")
    subprocess.run(
        ["g++", "-std=c++11", "-O3", "-march=native", "-DNDEBUG", "-o", binary,
         str(src / "main.cpp"), str(src / "Solver.cpp")],
        check=True,
    )  # fmt: skip
    return binary


STEININGER_SETS = [
    ("endgame_L1", "end"),
    ("midgame_L1", "middle-1"),
    ("midgame_L2", "middle-2"),
    ("opening_L1", "opening-1"),
    ("opening_L2", "opening-2"),
    ("opening_L3", "opening-3"),
]
"""Steininger's 6 x 7 test sets, in ``tst/data/7x6/`` of his repository."""

# Our reader of positions for Steininger's solver: 0-based column digits per line (an empty
# line is the empty board), the score for the player to move out; "-w" for his weak solve.
_STEININGER_MAIN = r"""
#include <iostream>
#include <string>
#include "solver/position.h"
#include "solver/solver.h"
int main(int argc, char **argv) {
    bool weak = argc > 1 && std::string(argv[1]) == "-w";
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        Position pos{};
        for (char c : line) pos.move(c - '0');
        std::cout << (weak ? solver.solve_weak(pos) : solver.solve_strong(pos)) << std::endl;
    }
    return 0;
}
"""


def _prime_at_most(n: int) -> int:
    """The largest odd prime ``<= n`` (his table needs an odd, preferably prime, size)."""
    n -= 1 - n % 2
    while any(n % d == 0 for d in range(3, int(n**0.5) + 1, 2)):
        n -= 2
    return n


def _source_files(source: str, into: Path) -> None:
    """The newest files of `source` (a checkout or a bare git directory) copied into `into`."""
    into.mkdir()
    if not (Path(source) / "HEAD").is_file() or (Path(source) / ".git").exists():
        shutil.copytree(source, into, dirs_exist_ok=True)
        return
    archive = subprocess.run(
        ["git", "--git-dir", source, "archive", "HEAD"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def build_steininger(source: str, into: str, rows: int, cols: int, memory: int) -> str:
    """Steininger's solver for `rows` x `cols` with a table of `memory` bytes and one thread,
    compiled from `source` into `into` (his ``settings.h`` rewritten in the copy)."""
    src = Path(into) / "steininger"
    _source_files(source, src)
    settings = src / "src" / "solver" / "settings.h"
    text = settings.read_text()
    for name, value in [
        ("BOARD_WIDTH", str(cols)),
        ("BOARD_HEIGHT", str(rows)),
        ("NUM_THREADS", "1"),
        ("NUM_TABLE_ENTRIES", str(_prime_at_most(memory // 8))),
    ]:
        text, count = re.subn(rf"({name} = )[^;]+;", rf"\g<1>{value};", text)
        if count != 1:
            raise SystemExit(f"{settings}: no single '{name} = ...;' to set")
    settings.write_text(text)
    (src / "src" / "bench_main.cpp").write_text(_STEININGER_MAIN)
    binary = str(Path(into) / "steininger_c4")
    subprocess.run(
        ["g++", "-std=c++20", "-O3", "-flto", "-march=native", "-DNDEBUG", "-pthread",
         "-o", binary, str(src / "src" / "bench_main.cpp"),
         *sorted(str(f) for f in (src / "src" / "solver").rglob("*.cpp"))],
        check=True,
    )  # fmt: skip
    return binary


def steininger_sets(source: str, into: str) -> list[tuple[str, str, list[str], list[int]]]:
    """His 6 x 7 sets as ``(name, label, positions, scores)``, positions in our notation (1-based
    columns)."""
    folder = Path(into) / "steininger" / "tst" / "data" / "7x6"
    if not folder.is_dir():
        _source_files(source, Path(into) / "steininger")
    sets = []
    for name, label in STEININGER_SETS:
        rows = [r.split() for r in (folder / f"{name}.txt").read_text().splitlines() if r.strip()]
        lines = ["".join(str(int(c) + 1) for c in r[0]) for r in rows]
        sets.append((name, label, lines, [int(r[1]) for r in rows]))
    return sets


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pons(binary: str, lines: list[str], weak: bool) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds of one Pons process on `lines`, and its scores."""
    return _run_peer([binary, "-b", "/nonexistent/no.book", *(["-w"] if weak else [])], lines)


def run_steininger(binary: str, lines: list[str], weak: bool) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds of one Steininger process on `lines` (1-based), and its scores."""
    zero_based = ["".join(str(int(c) - 1) for c in line) for line in lines]
    return _run_peer([binary, *(["-w"] if weak else [])], zero_based)


def _run_peer(command: list[str], lines: list[str]) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds of one peer process answering `lines`, and its scores."""
    with tempfile.TemporaryDirectory() as empty:  # no book or table file found by accident
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


def run_baseline(
    tree: str, lines: list[str], weak: bool, memory: int
) -> tuple[float, float, list[tuple[Value, int | None]], int]:
    """:func:`run_ours` with the perfectplay of another source tree (the code before a step),
    in a process of its own: this script again, with `tree` first on the path."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    out = subprocess.run(
        [sys.executable, __file__, "--answer-json", "--memory", str(memory),
         *(["--modes", "weak"] if weak else [])],
        input=json.dumps(lines), capture_output=True, text=True, env=env, check=True,
    ).stdout  # fmt: skip
    wall, cpu, answers, nodes = json.loads(out)
    return wall, cpu, [(Value[v], r) for v, r in answers], nodes


def _answer_json(memory: int, weak: bool) -> None:
    """The hidden mode of :func:`run_baseline`: positions in (JSON), ``run_ours`` out."""
    game = ConnectFour(ROWS, COLS)
    lines = json.load(sys.stdin)
    Searcher(game, memory=1 << 20).search(game.parse(END_GAME))  # load the kernels first
    wall, cpu, answers, nodes = run_ours(game, lines, weak, memory)
    print(json.dumps([wall, cpu, [(v.name, r) for v, r in answers], nodes]))


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


def _pons_sets(directory: str, only: list[str]) -> list[tuple[str, str, list[str], list[int]]]:
    sets = []
    for name, label in (s for s in SETS if s[0] in only):
        rows = [r.split() for r in Path(directory, name).read_text().splitlines() if r]
        sets.append((name, label, [r[0] for r in rows], [int(r[1]) for r in rows]))
    return sets


def _peer_ok(scores: list[int], expected: list[int], weak: bool) -> int:
    """How many of a peer's answers equal the file's (weak: the sign; Pons's -w prints bounds
    beyond [-1, 1])."""
    if weak:
        return sum(_sign_value(a) == _sign_value(b) for a, b in zip(scores, expected, strict=True))
    return sum(a == b for a, b in zip(scores, expected, strict=True))


def _ratio(ours: float, peer: float | None) -> str:
    return f"{ours / max(peer, 1e-9):>7.2f}" if peer is not None else f"{'-':>7}"


def _ms(cpu: float | None, k: int) -> str:
    return f"{1e3 * cpu / k:>10.4f}" if cpu is not None else f"{'-':>10}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", help="folder of Pons's Test_L*_R* files (without: no sets)")
    parser.add_argument("--pons-src", help="PascalPons/connect4 sources (or bare git dir)")
    parser.add_argument(
        "--steininger-src", help="ChristopheSteininger/c4 sources (or bare git dir): his solver "
        "and his 6x7 sets",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, default=1000, help="positions per set")
    parser.add_argument(
        "--hard-limit", type=int, default=100, help="positions of begin-hard and opening_L3"
    )
    parser.add_argument(
        "--only",
        default=",".join(n for n, _ in SETS + STEININGER_SETS),
        help="sets to run (Pons's Test_L*_R* and Steininger's *_L* names)",
    )
    parser.add_argument("--modes", default="strong,weak")
    parser.add_argument("--memory", default="16M", help="our table and Steininger's")
    parser.add_argument("--empty", action="store_true", help="also the empty board")
    parser.add_argument(
        "--baseline",
        metavar="TREE",
        help="also run ours from TREE (a perfectplay source tree, e.g. the commit before a "
        "step: git worktree add TREE COMMIT), right after this tree's run of each set",
    )
    parser.add_argument("--answer-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--sizes", action="store_true", help="instead: the empty board of every size, beside "
        "Steininger's solver and his published outcomes (benchmarks/_sizes.py)",
    )  # fmt: skip
    parser.add_argument("--sizes-max", type=int, default=14, help="largest width + height")
    parser.add_argument("--sizes-min", type=int, default=4, help="smallest width and height")
    parser.add_argument(
        "--sizes-list", metavar="WxH,...", help="with --sizes: these boards instead (width x "
        "height, e.g. 11x5,9x7)",
    )  # fmt: skip
    parser.add_argument(
        "--size-table-max", default="4G", metavar="SIZE",
        help="with --sizes: skip a board whose table (two-word keys: 2**(17 + bits - 64) "
        "entries) needs more",
    )  # fmt: skip
    parser.add_argument(
        "--size-cap", type=float, default=600.0, metavar="SECONDS",
        help="with --sizes: stop each solver of each size after this much CPU time",
    )  # fmt: skip
    parser.add_argument(
        "--check-tiers",
        metavar="DIR",
        help="also compare 2,000 random positions with DIR, a tier directory of Connect Four "
        "(5x6 or 6x6: perfectplay solve connect-four --param rows=5 --param cols=6 -o DIR)",
    )
    args = parser.parse_args()
    memory = parse_bytes(args.memory)
    if args.answer_json:
        _answer_json(memory, args.modes == "weak")
        return
    if args.sizes:
        from _sizes import run_sizes

        source = os.path.abspath(args.steininger_src) if args.steininger_src else None
        listed = (
            [tuple(map(int, s.split("x"))) for s in args.sizes_list.split(",")]
            if args.sizes_list
            else None
        )
        run_sizes(
            source, build_steininger, memory, args.sizes_max, args.sizes_min, args.size_cap,
            listed, parse_bytes(args.size_table_max),
        )  # fmt: skip
        return
    game = ConnectFour(ROWS, COLS)
    with tempfile.TemporaryDirectory() as scratch:
        pons = build_pons(os.path.abspath(args.pons_src), scratch) if args.pons_src else None
        stein = None
        sets = _pons_sets(args.sets, args.only.split(",")) if args.sets else []
        if args.steininger_src:
            source = os.path.abspath(args.steininger_src)
            stein = build_steininger(source, scratch, ROWS, COLS, memory)
            sets += steininger_sets(source, scratch)
        began = time.perf_counter()
        Searcher(game, memory=1 << 20).search(game.parse(END_GAME))
        print(f"# kernels loaded in {time.perf_counter() - began:.2f} s; our table {args.memory}")
        cpu = time.process_time()
        Searcher(game, memory=memory)
        print(
            f"# our table mapped in {1e3 * (time.process_time() - cpu):.1f} ms of CPU, once per "
            "set and mode (in its time, as the peers' start and table are in theirs)"
        )
        print(f"# Pons: {'built from ' + args.pons_src if pons else 'none (--pons-src)'}")
        print(
            f"# Steininger: {'built from ' + args.steininger_src if stein else 'none'}"
            f"{f', one thread, table {_prime_at_most(memory // 8):,} entries' if stein else ''}"
        )
        if not sets:
            print("# sets: none (--sets DIR, --steininger-src SRC): their rows skipped")
        header = (
            f"{'set':<11} {'name':<14} {'mode':<6} {'pos':>5} {'ours wall':>10} "
            f"{'ours cpu':>10} {'Stein cpu':>10} {'Pons cpu':>10} {'ours/St':>7} "
            f"{'ours/Pons':>9} {'ours ok':>9} {'Stein ok':>9} {'Pons ok':>9} {'our nodes':>14}"
        )
        print("# ms per position; ratios of CPU time")
        print(header)
        print("-" * len(header))
        hard = ("Test_L1_R3", "opening_L3")
        for name, label, lines, scores in sets:
            if name not in args.only.split(","):
                continue
            limit = args.hard_limit if name in hard else args.limit
            lines, scores = lines[:limit], scores[:limit]
            k = len(lines)
            for mode in args.modes.split(","):
                weak = mode == "weak"
                wall, cpu, answers, nodes = run_ours(game, lines, weak, memory)
                expected = [_expected(a, s, weak) for a, s in zip(lines, scores, strict=True)]
                ours_ok = sum(a == b for a, b in zip(answers, expected, strict=True))
                s_cpu = p_cpu = None
                s_ok = p_ok = "-"
                if args.baseline:
                    _, b_cpu, b_answers, b_nodes = run_baseline(args.baseline, lines, weak, memory)
                    b_ok = sum(a == b for a, b in zip(b_answers, expected, strict=True))
                    print(
                        f"{name:<11} {label:<14} {mode:<6} {k:>5} {'baseline':>10} "
                        f"{_ms(b_cpu, k)} {'ours/base':>10} {cpu / max(b_cpu, 1e-9):>10.2f} "
                        f"{'':>7} {'':>9} {f'{b_ok}/{k}':>9} {'':>9} {'':>9} {b_nodes:>14,}"
                    )
                if stein:
                    _, s_cpu, s_scores = run_steininger(stein, lines, weak)
                    s_ok = f"{_peer_ok(s_scores, scores, weak)}/{k}"
                if pons:
                    _, p_cpu, p_scores = run_pons(pons, lines, weak)
                    p_ok = f"{_peer_ok(p_scores, scores, weak)}/{k}"
                print(
                    f"{name:<11} {label:<14} {mode:<6} {k:>5} {1e3 * wall / k:>10.4f} "
                    f"{_ms(cpu, k)} {_ms(s_cpu, k)} {_ms(p_cpu, k)} {_ratio(cpu, s_cpu)} "
                    f"{_ratio(cpu, p_cpu):>9} {f'{ours_ok}/{k}':>9} {s_ok:>9} {p_ok:>9} "
                    f"{nodes:>14,}",
                    flush=True,
                )
        if args.empty:
            wall, cpu, answers, nodes = run_ours(game, [""], False, 2 * memory)
            print(f"# ours on the empty board: {answers[0]}, {wall:.1f} s wall, {cpu:.1f} s CPU, "
                  f"{nodes:,} nodes", flush=True)  # fmt: skip
            expected = [(Value.WIN, 41)]  # the first player wins with the 41st stone
            if args.baseline:
                _, b_cpu, b_answers, b_nodes = run_baseline(args.baseline, [""], False, 2 * memory)
                print(
                    f"{'empty 6x7':<11} {'41st stone':<14} {'strong':<6} {1:>5} {'baseline':>10} "
                    f"{_ms(b_cpu, 1)} {'ours/base':>10} {cpu / max(b_cpu, 1e-9):>10.2f} "
                    f"{'':>7} {'':>9} {f'{int(b_answers == expected)}/1':>9} {'':>9} {'':>9} "
                    f"{b_nodes:>14,}",
                    flush=True,
                )
            s_cpu = p_cpu = None
            s_ok = p_ok = "-"
            if stein:
                _, s_cpu, s_scores = run_steininger(stein, [""], False)
                s_ok = f"{_peer_ok(s_scores, [1], False)}/1"
            if pons:
                _, p_cpu, p_scores = run_pons(pons, [""], False)
                p_ok = f"{_peer_ok(p_scores, [1], False)}/1"
            print(
                f"{'empty 6x7':<11} {'41st stone':<14} {'strong':<6} {1:>5} {1e3 * wall:>10.1f} "
                f"{_ms(cpu, 1)} {_ms(s_cpu, 1)} {_ms(p_cpu, 1)} {_ratio(cpu, s_cpu)} "
                f"{_ratio(cpu, p_cpu):>9} {f'{int(answers == expected)}/1':>9} {s_ok:>9} "
                f"{p_ok:>9} {nodes:>14,}",
                flush=True,
            )
    if args.check_tiers:
        print(check_against_tiers(args.check_tiers, 2000))
    print(f"# perfectplay search on one end-game position, whole command: "
          f"{startup(args.memory):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
