"""`solve_graph`: solve any game graph with the right solver (DAG sweep or retrograde analysis).

Examples
--------
>>> from perfectplay.graph import GameGraph
>>> from perfectplay.solvers.auto import solve_graph
>>> solve_graph(GameGraph.from_edges([0, 1], [1, 2], n=3))
<Solution by dag: n=3, WIN=1, LOSE=2, TIE=0, DRAW=0>
>>> solve_graph(GameGraph.from_edges([0, 1, 1], [1, 0, 2], n=3))
<Solution by retrograde: n=3, WIN=1, LOSE=2, TIE=0, DRAW=0>
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from perfectplay.errors import CyclicGraphError
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.solvers.dag import solve_dag
from perfectplay.solvers.retrograde import solve_retrograde

__all__ = ["solve_graph"]


def solve_graph(
    graph: GameGraph,
    primitive: ArrayLike | None = None,
    *,
    misere: bool = False,
    terminal_score: ArrayLike | None = None,
) -> Solution:
    """Solve a game graph: :func:`solve_dag` if it is acyclic, else :func:`solve_retrograde`.

    Parameters
    ----------
    graph : GameGraph
        The game graph; ``graph.gain`` makes it a scored game.
    primitive : array of uint8, shape (n,), optional
        WIN, LOSE or TIE (for the player to move) where the rules fix the value, UNDECIDED
        (255) elsewhere.
    misere : bool
        A position without moves that is not primitive is a WIN for the player to move
        (default: a LOSE).
    terminal_score : array of int, shape (n,), optional
        Scored games: the player to move's (own - opponent) total still to come where the
        game ends. Makes the game scored even without gains.

    Returns
    -------
    Solution
        Value and remoteness of every position for the player to move (identical from both
        solvers on acyclic graphs), scores for scored games. ``solution.solver`` tells which
        solver ran: ``"dag"`` or ``"retrograde"``.

    Raises
    ------
    CyclicGraphError
        A scored game (gains or `terminal_score`) whose graph has a cycle: an endless game has
        no total. The message names the cycle.
    InvalidGraphError, ScoreOverflowError, TooLargeError
        As :func:`~perfectplay.solvers.dag.solve_dag` and
        :func:`~perfectplay.solvers.retrograde.solve_retrograde`.

    Notes
    -----
    Cost: O(n + m). The acyclicity test is the DAG solver's own topological sort; on a cyclic
    graph it stops early and the reverse graph it builds to name a cycle is reused by the
    retrograde solver.
    """
    try:
        return solve_dag(graph, primitive, misere=misere, terminal_score=terminal_score)
    except CyclicGraphError as error:
        if graph.gain is not None or terminal_score is not None:
            cycle = error.cycle
            where = (
                f"the game graph has a cycle through position {cycle[0]} "
                f"({' -> '.join(map(str, cycle[:8]))}{' -> ...' if len(cycle) > 8 else ''}"
                f" -> {cycle[0]})"
                if cycle
                else str(error)
            )
            raise CyclicGraphError(
                f"scores need an acyclic game graph (an endless game has no total), but {where}",
                cycle=cycle,
            ) from None
    return solve_retrograde(graph, primitive, misere=misere)
