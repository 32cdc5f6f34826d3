"""``perfectplay.solve``: one call from a game (or a game graph) to perfect play everywhere.

Given a :class:`~perfectplay.games.base.Game`, :func:`solve` enumerates every reachable
position, solves the position graph (DAG sweep when acyclic, retrograde analysis otherwise)
and returns a :class:`GameSolution` you index by *position*. Given a graph (a
:class:`~perfectplay.graph.GameGraph`, scipy sparse matrix, networkx graph or edge array) it
returns the graph :class:`~perfectplay.solution.Solution`. Every value is stated for the
player to move.

Examples
--------
>>> from perfectplay.games.tictactoe import TicTacToe
>>> s = solve(TicTacToe())
>>> s.value(s.initial), len(s)
(<Value.TIE: 2>, 765)
>>> [m.label for m in s.best_moves("XX." "OO." "...")]
['c1']
>>> s.move_values("XX." "OO." "...")[0]
GameMove(label='c1', position='XXXOO....', value=<Value.WIN: 3>, remoteness=1, score=None)
>>> solve([(0, 1), (1, 2)]).value.tolist()
[0, 3, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay.errors import CyclicGraphError, GameDefinitionError
from perfectplay.games.base import Game, P
from perfectplay.games.enumerate import Enumeration, enumerate_game
from perfectplay.graph import GameGraph, as_game_graph
from perfectplay.solution import Solution
from perfectplay.values import NO_REMOTENESS, UNDECIDED, Value

__all__ = ["GameMove", "GameSolution", "solve", "solve_enumeration"]


@dataclass(frozen=True)
class GameMove(Generic[P]):
    """One move from a position, valued from the side of the player who makes it."""

    label: str
    """The move's label, as the game's ``moves`` names it."""
    position: P
    """The position the move leads to (as ``moves`` yields it, not canonicalised)."""
    value: Value
    """The outcome for the player making the move, if both play perfectly afterwards."""
    remoteness: int
    """Moves until the game ends after choosing this move, counting it (-1 for a draw)."""
    score: int | None = None
    """Scored games: the mover's (own - opponent) total from here when choosing this move."""


class GameSolution(Generic[P]):
    """Perfect play for every reachable position of a game, indexed by position.

    Attributes
    ----------
    game : Game
        The solved game.
    enumeration : Enumeration
        Its positions, numbered, with the position graph (``enumeration.graph``).
    solution : Solution
        The graph solution: value, remoteness (and score) arrays indexed by position id.

    Notes
    -----
    Look-ups map a position to its id (its canonical form first, if the game has one) through
    a dict on the plain path, or its integer code by binary search on the vectorized path.
    ``move_values`` and ``best_moves`` call the game's ``moves`` once: O(moves) per call.
    """

    __slots__ = ("enumeration", "game", "solution")

    def __init__(self, enumeration: Enumeration[P], solution: Solution) -> None:
        self.game = enumeration.game
        self.enumeration = enumeration
        self.solution = solution

    @property
    def initial(self) -> P:
        """The game's initial position."""
        return self.game.initial()

    @property
    def graph(self) -> GameGraph:
        """The position graph (ids as in :meth:`id_of`)."""
        return self.enumeration.graph

    @property
    def codes(self) -> NDArray[np.int64]:
        """Integer code of each position id (``game.encode``), for the database of solutions."""
        return self.enumeration.codes

    def id_of(self, position: P) -> int:
        """The id of `position` in the arrays of :attr:`solution`.

        Raises
        ------
        PositionNotFoundError
            If `position` is not reachable from the initial position.
        """
        return self.enumeration.id_of(position)

    def position_of(self, pid: int) -> P:
        """The position with id `pid` (canonical form if the game has one)."""
        return self.enumeration.position_of(pid)

    def value(self, position: P) -> Value:
        """The value of `position` for the player to move."""
        return Value(int(self.solution.value[self.id_of(position)]))

    __getitem__ = value

    def __contains__(self, position: object) -> bool:
        try:
            self.id_of(position)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            return False
        return True

    def __len__(self) -> int:
        return self.enumeration.n

    def remoteness(self, position: P) -> int:
        """Moves to the end under best play from `position` (-1 for a DRAW, 0 if over)."""
        return int(self.solution.remoteness[self.id_of(position)])

    def score(self, position: P) -> int | None:
        """Scored games: the best (own - opponent) total the player to move can force."""
        if self.solution.score is None:
            return None
        return int(self.solution.score[self.id_of(position)])

    def is_over(self, position: P) -> bool:
        """Whether the game is over at `position` (the rules fix its value, or no moves)."""
        return int(self.solution.remoteness[self.id_of(position)]) == 0

    def move_values(self, position: P) -> list[GameMove[P]]:
        """Every move from `position`, with its label and value for the player making it.

        A child that is LOSE for its player to move is a WIN for the player moving into it,
        one move further from the end. Empty where the game is over.
        """
        pid = self.id_of(position)
        if int(self.enumeration.primitive[pid]) != UNDECIDED:
            return []
        value, remoteness, score = (
            self.solution.value,
            self.solution.remoteness,
            self.solution.score,
        )
        result: list[GameMove[P]] = []
        for move in self.game.moves(position):
            label, child = move[0], move[1]
            cid = self.id_of(child)
            r = int(remoteness[cid])
            mover_score = None
            if score is not None:
                gain = int(move[2]) if len(move) == 3 else 0
                mover_score = gain - int(score[cid])
            result.append(
                GameMove(
                    label,
                    child,
                    Value(int(value[cid])).flipped(),
                    NO_REMOTENESS if r == NO_REMOTENESS else r + 1,
                    mover_score,
                )
            )
        return result

    def best_moves(self, position: P) -> list[GameMove[P]]:
        """The optimal moves from `position`, by the rule of :meth:`Solution.best_moves`."""
        pid = self.id_of(position)
        best = set(self.solution.best_moves(pid))
        target = None if self.solution.score is None else int(self.solution.score[pid])
        return [
            m
            for m in self.move_values(position)
            if self.id_of(m.position) in best and (target is None or m.score == target)
        ]

    def summary(self) -> dict[str, int]:
        """Number of positions of each value, keyed by value name (WIN, LOSE, TIE, DRAW)."""
        return self.solution.summary()

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary().items())
        start = Value(int(self.solution.value[0])).name
        return f"<GameSolution of {self.game.info.name}: start {start}, n={len(self)}, {counts}>"


def solve_enumeration(enumeration: Enumeration[P], *, misere: bool = False) -> GameSolution[P]:
    """Solve an enumerated game; checks the game's declared ``cyclic`` property.

    Raises
    ------
    GameDefinitionError
        If the game declares ``GameInfo(cyclic=False)`` but a position can repeat.
    """
    from perfectplay.solvers.auto import solve_graph
    from perfectplay.solvers.dag import topological_order

    info = enumeration.game.info
    if not info.cyclic and not enumeration.topological:
        try:
            topological_order(enumeration.graph)
        except CyclicGraphError as error:
            raise GameDefinitionError(
                f"{info.name} declares GameInfo(cyclic=False) but positions can repeat "
                f"({error}); declare cyclic=True"
            ) from None
    solution = solve_graph(
        enumeration.graph,
        enumeration.primitive,
        misere=misere,
        terminal_score=enumeration.terminal_score,
    )
    return GameSolution(enumeration, solution)


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
        A :class:`~perfectplay.games.base.Game` (e.g. from ``load_game``), or anything
        :func:`~perfectplay.graph.as_game_graph` accepts.
    primitive, terminal_score : array, optional
        Graphs only: the values the rules fix (WIN/LOSE/TIE, UNDECIDED elsewhere) and the
        terminal scores, per position id. A game's rules provide both.
    misere : bool
        A position without moves (and no value fixed by the rules) is a WIN for the player to
        move instead of a LOSE.
    max_positions, progress, vectorized : optional
        Games only: passed to :func:`~perfectplay.games.enumerate.enumerate_game`.

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
    Cost: the enumeration (see :func:`~perfectplay.games.enumerate.enumerate_game`) plus the
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
