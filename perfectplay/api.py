"""``perfectplay.solve``: one call from a game (or a game graph) to perfect play everywhere.

Given a :class:`~perfectplay.protocol.game.Game`, :func:`solve` enumerates every reachable
position, solves the position graph (DAG sweep when acyclic, retrograde analysis otherwise)
and returns a :class:`GameSolution` you index by *position*. Given a graph (a
:class:`~perfectplay.graph.GameGraph`, scipy sparse matrix, networkx graph or edge array) it
returns the graph :class:`~perfectplay.solution.Solution`. Every value is stated for the
player to move.

Examples
--------
>>> from perfectplay.games.tictactoe.rules import TicTacToe
>>> s = solve(TicTacToe())
>>> s.value(s.initial), len(s)
(<Value.TIE: 2>, 765)
>>> [m.label for m in s.best_moves("XX." "OO." "...")]
['c1']
>>> s.move_values("XX." "OO." "...")[0]
Move(label='c1', position='XXXOO....', value=<Value.WIN: 3>, remoteness=1, score=None)
>>> solve([(0, 1), (1, 2)]).value.tolist()
[0, 3, 0]
"""

from __future__ import annotations

from typing import Any, overload

from numpy.typing import ArrayLike

from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.enumeration.solving import GameSolution, solve_enumeration
from perfectplay.errors import GameDefinitionError
from perfectplay.graph import as_game_graph
from perfectplay.protocol.game import Game, P
from perfectplay.protocol.tiered import TieredGame
from perfectplay.solution import Solution

__all__ = ["GameSolution", "check_game", "solve", "solve_enumeration"]
# GameSolution and solve_enumeration (the enumeration engine, perfectplay.enumeration.solving)
# are re-exported here, where users find them.


@overload
def solve(
    obj: Game[P],
    primitive: None = None,
    *,
    misere: bool = ...,
    terminal_score: None = None,
    max_positions: int | None = ...,
    progress: bool | None = ...,
    vectorized: bool | None = ...,
) -> GameSolution[P]: ...


@overload
def solve(
    obj: Any,
    primitive: ArrayLike | None = None,
    *,
    misere: bool = ...,
    terminal_score: ArrayLike | None = None,
) -> Solution: ...


def solve(
    obj: Any,
    primitive: ArrayLike | None = None,
    *,
    misere: bool = False,
    terminal_score: ArrayLike | None = None,
    max_positions: int | None = None,
    progress: bool | None = None,
    vectorized: bool | None = None,
) -> GameSolution[Any] | Solution:
    """Perfect play for a game or a game graph: value, remoteness (and score) everywhere.

    Parameters
    ----------
    obj : Game or graph-like
        A :class:`~perfectplay.protocol.game.Game` (e.g. from ``load_game``), or anything
        :func:`~perfectplay.graph.as_game_graph` accepts.
    primitive, terminal_score : array, optional
        Graphs only: the values the rules fix (WIN/LOSE/TIE, UNDECIDED elsewhere) and the
        terminal scores, per position id. A game's rules provide both.
    misere : bool
        A position without moves (and no value fixed by the rules) is a WIN for the player to
        move instead of a LOSE.
    max_positions, progress, vectorized : optional
        Games only: passed to :func:`~perfectplay.enumeration.enumerate.enumerate_game`.

    Returns
    -------
    GameSolution or Solution
        A GameSolution, indexed by position, for a game; the graph Solution otherwise.

    Raises
    ------
    GameDefinitionError
        If the game breaks its protocol or declared properties, or graph-only options are
        given with a game (or game-only options with a graph).
    TooLargeError
        If the game has more than `max_positions` positions or the work does not fit in memory.
    InvalidGraphError
        If a graph's arrays are malformed.

    Notes
    -----
    Cost: the enumeration (see :func:`~perfectplay.enumeration.enumerate.enumerate_game`) plus the
    solver's O(n + m) (acyclic) or O(n + m) retrograde analysis.
    """
    if isinstance(obj, Game):
        if primitive is not None or terminal_score is not None:
            raise GameDefinitionError(
                "solve: primitive and terminal_score apply to graphs; a game's rules give them"
            )
        enumeration = enumerate_game(
            obj, max_positions=max_positions, progress=progress, vectorized=vectorized
        )
        return solve_enumeration(enumeration, misere=misere)
    if max_positions is not None or progress is not None or vectorized is not None:
        raise GameDefinitionError(
            "solve: max_positions, progress and vectorized apply to games, not graphs"
        )
    from perfectplay.solvers.auto import solve_graph

    return solve_graph(as_game_graph(obj), primitive, misere=misere, terminal_score=terminal_score)


def check_game(
    game: Game[Any] | TieredGame,
    *,
    seed: int = 0,
    samples: int = 300,
    max_positions: int = 50_000,
    strict: bool = False,
) -> list[str]:
    """Check that `game` follows its protocol; return the violations found.

    A :class:`~perfectplay.protocol.game.Game` is checked by
    :func:`perfectplay.enumeration.check.check_game` (its parameters); a
    :class:`~perfectplay.protocol.tiered.TieredGame` first by
    :func:`~perfectplay.tiers.check.check_tiered_game` (ranking round trips, children's tiers,
    parents inverse to children, all against its ``as_game()`` rules), then its ``as_game()``.

    Examples
    --------
    >>> from perfectplay.games.registry import load_game, load_tiered_game
    >>> check_game(load_game("nim", heaps=(1, 2)))
    []
    >>> check_game(load_tiered_game("connect-four", rows=3, cols=3), samples=20)
    []
    """
    from perfectplay.enumeration.check import check_game as check_plain

    if isinstance(game, TieredGame):
        from perfectplay.tiers.check import check_tiered_game

        try:
            check_tiered_game(game, samples=samples, seed=seed)
        except GameDefinitionError as error:
            if strict:
                raise
            return [str(error)]
        game = game.as_game()
    return check_plain(game, seed=seed, samples=samples, max_positions=max_positions, strict=strict)
