"""``perfectplay demo``: solve two built-in games and print a short human summary.

1. The sample of "The Problem to Make You Happy" (pursuit on a digraph), through the judge
   adapter, then one of its positions explained with the pursuit game.
2. A random game graph (fixed seed; by default 10^6 positions, 3 moves per position on
   average, cycles allowed): counts by value, time, moves per second, the longest forced win
   and a few example positions with their best moves.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time: numba stays out of start-up
    from perfectplay.solution import Solution

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``demo`` subcommand."""
    parser = subparsers.add_parser(
        "demo",
        help="solve a contest sample and a random game graph, and summarise",
        description=(
            "Solve the sample of the pursuit problem make-you-happy and a random game graph "
            "(fixed seed), and print what was found and how fast."
        ),
    )
    parser.add_argument(
        "--positions",
        type=_positive,
        default=1_000_000,
        help="positions of the random game graph (default: 1000000)",
    )
    parser.add_argument(
        "--degree",
        type=_non_negative,
        default=3.0,
        help="mean number of moves per position (default: 3)",
    )
    parser.add_argument("--seed", type=_seed, default=2014, help="random seed (default: 2014)")
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    return _integer(text, 1, "a positive integer")


def _seed(text: str) -> int:
    return _integer(text, 0, "a non-negative integer")


def _integer(text: str, low: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a non-negative number, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    """Print the two demonstrations."""
    lines = [*_pursuit_demo(), "", *_random_demo(args.positions, args.degree, args.seed)]
    print("\n".join(lines))
    return 0


def _pursuit_demo() -> list[str]:
    from perfectplay.builders.pursuit import EVADER, Pursuit
    from perfectplay.problems import get_problem
    from perfectplay.problems.make_you_happy import SAMPLE

    problem = get_problem("make-you-happy")
    start = time.perf_counter()
    answer = problem.solve(SAMPLE)
    elapsed = time.perf_counter() - start
    lines = [
        f"1. {problem.summary}",
        f"   the judge sample (3 cases) solved in {elapsed * 1000:.0f} ms"
        " (loading the compiled kernels included):",
        *(f"     {line}" for line in answer.splitlines()),
        "   case 3 as a pursuit game on the directed triangle 0 -> 1 -> 2 -> 0 (0-based),",
        "   Bob the evader, Alice the pursuer:",
    ]
    game = Pursuit([(0, 1), (1, 2), (2, 0)], endless="evader")
    solution = game.solve()
    for position in (game.encode(1, 0, EVADER), game.encode(0, 1, EVADER)):
        lines.append(
            f"     {game.render(position)}: {solution[position].name}, "
            f"{game.winner(solution, position)} wins"
        )
    lines.append("     (a DRAW is an endless chase, which the rules give to Bob)")
    return lines


def _random_demo(n: int, degree: float, seed: int) -> list[str]:
    import numpy as np

    from perfectplay._memory import check_memory
    from perfectplay.graph import GameGraph
    from perfectplay.solvers.retrograde import solve_retrograde

    m = round(n * degree)
    check_memory(40.0 * m + 40.0 * n, f"a random game graph of {n} positions and {m} moves")
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, size=m)
    dst = rng.integers(0, n, size=m)
    start = time.perf_counter()
    graph = GameGraph.from_edges(src, dst, n=n)
    built = time.perf_counter()
    solution = solve_retrograde(graph)
    solved = time.perf_counter()
    counts = solution.summary()
    rate = m / max(solved - built, 1e-9)
    lines = [
        f"2. a random game graph: {n:,} positions, {m:,} moves (seed {seed}), cycles allowed,",
        "   a player without moves loses; endless play is a DRAW",
        f"   built in {built - start:.2f} s, solved in {solved - built:.2f} s "
        f"({rate / 1e6:.1f} million moves/s)",
        "   values for the player to move: "
        + ", ".join(f"{name} {count:,}" for name, count in counts.items()),
        f"   longest forced game: {int(solution.remoteness.max())} moves",
        "   examples (value, remoteness; best moves and what they give the mover):",
    ]
    lines += _examples(solution)
    return lines


def _examples(solution: Solution) -> list[str]:
    """One position of each value that has moves: its value and best moves."""
    import numpy as np

    from perfectplay.moves import outcome_words
    from perfectplay.values import Value

    lines = []
    has_moves = solution.graph.out_degree() > 0
    for value in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW):
        found = np.flatnonzero((solution.value == value) & has_moves & (solution.remoteness != 0))
        if found.size == 0:
            continue
        p = int(found[0])
        r = int(solution.remoteness[p])
        best = {int(b) for b in solution.best_moves(p)}
        shown = [mv for mv in solution.move_values(p) if mv.position in best][:3]
        moves = ", ".join(
            f"-> {mv.position} ({outcome_words(mv.value, mv.remoteness)})" for mv in shown
        )
        lines.append(f"     position {p}: {outcome_words(value, r)}; best: {moves}")
    return lines
