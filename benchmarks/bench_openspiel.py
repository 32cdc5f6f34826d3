"""OpenSpiel benchmark: perfectplay's bridge against OpenSpiel's own minimax on the same games.

For each game: the time for perfectplay to solve every reachable state through the bridge
(``solve_openspiel``: enumeration through OpenSpiel's state API, then perfectplay's solver),
and the time for OpenSpiel's ``alpha_beta_search`` (``open_spiel.python.algorithms.minimax``,
full depth, no transposition table) to find the value of the start alone. Both values of the
start are asserted equal. The work differs: the bridge answers every state (value,
remoteness, best moves), alpha-beta one; the ratio says what a whole solution costs against
one answer. Best of ``--runs`` runs (default 3; a run over 10 s is not repeated), after a
warm-up solve that loads numba's compiled solvers.

Run: ``.venv/bin/python benchmarks/bench_openspiel.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import pyspiel
from open_spiel.python.algorithms import minimax

from perfectplay.bridges.openspiel import solve_openspiel

GAMES = [
    "tic_tac_toe",
    "nim(pile_sizes=1;3;5;7,is_misere=false)",
    "connect_four(rows=3,columns=4)",
    "dots_and_boxes(num_rows=2,num_cols=2)",
]


def best_time(run: Callable[[], Any], runs: int) -> tuple[float, Any]:
    """(best seconds, last result) of `runs` calls; a single call when the first one is slow."""
    best, result = float("inf"), None
    for _ in range(runs):
        began = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - began)
        if best > 10:
            break
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    solve_openspiel("tic_tac_toe")  # warm-up: loads numba's cached solvers
    print(f"{'game':42} {'states':>8} {'bridge s':>9} {'alpha-beta s':>13} {'ratio':>7}")
    print("ratio: alpha-beta seconds / bridge seconds (above 1: the bridge is faster)")
    for spec in GAMES:
        game = pyspiel.load_game(spec)
        ours, solved = best_time(lambda game=game: solve_openspiel(game), runs)
        theirs, (value, _) = best_time(
            lambda game=game: minimax.alpha_beta_search(
                game, maximum_depth=game.max_game_length() + 1, maximizing_player_id=0
            ),
            runs,
        )
        assert solved.returns(game.new_initial_state())[0] == value, spec
        print(
            f"{spec:42} {len(solved.solution):>8} {ours:>9.3f} {theirs:>13.3f} "
            f"{theirs / ours:>7.2f}"
        )


if __name__ == "__main__":
    main()
