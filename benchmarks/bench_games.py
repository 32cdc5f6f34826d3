"""Games benchmark: enumeration and solve rates of the plain and the vectorized paths.

For each game: positions and moves enumerated, the enumeration rate (positions per second of
wall time, best of several runs after a warm-up), and the solve rate (``solve_graph`` on the
enumerated graph). The plain path calls the game's Python ``moves``/``outcome`` once per
position; the vectorized path calls ``batch_moves``/``batch_outcome`` once per layer. No
randomness is involved (every run enumerates the whole game); the published value of each
game's start is asserted as a sanity check.

Run: ``.venv/bin/python benchmarks/bench_games.py [--quick | --full]`` (quick: skips Connect
Four 4x5 and Dodgem 4x4; full: adds Connect Four with 4 rows and 6 columns, 47,455,869
positions, a second-player win on the last move: minutes and several GB). Targets (2-core
machine, quiet): plain path >= 200,000 positions/s on tic-tac-toe (GamesmanPy reports about
25,000 states/s); vectorized path >= 10 M positions/s on Connect Four.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from perfectplay.api import solve_enumeration
from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.dodgem.rules import Dodgem
from perfectplay.games.nim.rules import Nim
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.protocol.game import Game
from perfectplay.values import Value

# (label, game, path, canonical, expected start value, runs, tier: 0 quick, 1 default, 2 --full)
CASES: list[tuple[str, Game[Any], str, bool, Value, int, int]] = [
    ("tic-tac-toe (full)", TicTacToe(), "plain", False, Value.TIE, 21, 0),
    ("tic-tac-toe (symmetry)", TicTacToe(), "plain", True, Value.TIE, 7, 0),
    ("tic-tac-toe (symmetry)", TicTacToe(), "vectorized", True, Value.TIE, 7, 0),
    ("nim 5,6,7,8", Nim((5, 6, 7, 8)), "plain", True, Value.WIN, 5, 0),
    ("subtraction 2000 S(1,3,4)", Subtraction(2000, (1, 3, 4)), "plain", True, Value.WIN, 5, 0),
    ("dodgem 3x3", Dodgem(3), "plain", True, Value.WIN, 5, 0),
    ("dodgem 3x3", Dodgem(3), "vectorized", True, Value.WIN, 5, 0),
    ("dodgem 4x4", Dodgem(4), "plain", True, Value.DRAW, 1, 1),
    ("dodgem 4x4", Dodgem(4), "vectorized", True, Value.DRAW, 3, 1),
    ("connect-four 4x4", ConnectFour(4, 4), "plain", True, Value.TIE, 1, 0),
    ("connect-four 4x4", ConnectFour(4, 4), "vectorized", True, Value.TIE, 5, 0),
    ("connect-four 5x4", ConnectFour(5, 4), "vectorized", True, Value.TIE, 5, 0),
    ("connect-four 4x5", ConnectFour(4, 5), "vectorized", True, Value.TIE, 5, 1),
    ("connect-four 4x6", ConnectFour(4, 6), "vectorized", True, Value.LOSE, 1, 2),
]


def measure(game: Game[Any], path: str, canonical: bool, runs: int) -> tuple[Any, float, float]:
    """(enumeration, best enumeration seconds, best solve seconds) over `runs` runs."""
    vectorized = path == "vectorized"
    enumerate_game(game, vectorized=vectorized, canonical=canonical, progress=False)  # warm-up
    best_enum = best_solve = float("inf")
    for _ in range(runs):
        e = enumerate_game(game, vectorized=vectorized, canonical=canonical, progress=False)
        best_enum = min(best_enum, e.seconds)
        began = time.perf_counter()
        solved = solve_enumeration(e)
        best_solve = min(best_solve, time.perf_counter() - began)
    return solved, best_enum, best_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the larger cases")
    parser.add_argument("--full", action="store_true", help="add Connect Four 4x6 (47 M positions)")
    args = parser.parse_args()
    top = 0 if args.quick else 2 if args.full else 1
    header = (
        f"{'game':<27} {'path':<10} {'positions':>10} {'moves':>10} "
        f"{'enum s':>8} {'enum pos/s':>12} {'solve s':>8} {'solve pos/s':>12}  start"
    )
    print(header)
    print("-" * len(header))
    for label, game, path, canonical, expected, runs, tier in CASES:
        if tier > top:
            continue
        solved, enum_s, solve_s = measure(game, path, canonical, runs)
        start = solved.value(solved.initial)
        assert start is expected, f"{label}: start is {start.name}, expected {expected.name}"
        n, m = len(solved), solved.graph.m
        print(
            f"{label:<27} {path:<10} {n:>10,} {m:>10,} {enum_s:>8.3f} {n / enum_s:>12,.0f} "
            f"{solve_s:>8.3f} {n / solve_s:>12,.0f}  {start.name}"
        )


if __name__ == "__main__":
    main()
