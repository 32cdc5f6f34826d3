"""Solving an enumerated game: :func:`solve_enumeration` and the :class:`GameSolution` it returns.

The games layer's bridge to the solvers: an :class:`~perfectplay.enumeration.enumerate.Enumeration`
(every reachable position, numbered, with the position graph) goes to
:func:`~perfectplay.solvers.auto.solve_graph`, and the graph solution comes back indexed by
*position*. :func:`perfectplay.solve` (in :mod:`perfectplay.api`) enumerates and calls this;
:func:`~perfectplay.enumeration.check.check_game` calls it directly. Every value is stated for the
player to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

import numpy as np
from numpy.typing import NDArray

from perfectplay.enumeration.enumerate import Enumeration
from perfectplay.errors import CyclicGraphError, GameDefinitionError
from perfectplay.graph import GameGraph
from perfectplay.moves import Move
from perfectplay.protocol.answers import GetByProbe, PositionValue
from perfectplay.protocol.game import P
from perfectplay.solution import Solution
from perfectplay.values import UNDECIDED, Value

__all__ = ["GameSolution", "PositionView", "solve_enumeration"]


@dataclass(frozen=True)
class PositionView(Generic[P]):
    """One position of a solved game with its value and its moves' values; in a notebook it
    shows as the board with every move coloured by value (``_repr_svg_``).

    Made by :meth:`GameSolution.view`.
    """

    game: Any
    """The game (a :class:`~perfectplay.protocol.game.Game`)."""
    position: P
    """The position."""
    value: Value
    """Its value for the player to move."""
    remoteness: int
    """Moves to the end under best play (-1 for a draw, 0 if over)."""
    moves: list[Move[P]]
    """Every legal move, valued for the player making it (empty where the game is over)."""

    def _repr_svg_(self) -> str:
        """The board as SVG (:func:`perfectplay.draw.position_svg`), for notebooks."""
        from perfectplay.draw import position_svg

        return position_svg(self.game, self.position, self.moves)


class GameSolution(GetByProbe, Generic[P]):
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

    def probe(self, position: P) -> PositionValue:
        """Value, remoteness (and score) of `position` for the player to move.

        Raises
        ------
        PositionNotFoundError
            If `position` is not reachable from the initial position.
        """
        pid = self.id_of(position)
        score = None if self.solution.score is None else int(self.solution.score[pid])
        value = Value(int(self.solution.value[pid]))
        return PositionValue(value, int(self.solution.remoteness[pid]), score)

    def is_over(self, position: P) -> bool:
        """Whether the game is over at `position` (the rules fix its value, or no moves)."""
        return int(self.solution.remoteness[self.id_of(position)]) == 0

    def move_values(self, position: P) -> list[Move[P]]:
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
        result: list[Move[P]] = []
        for move in self.game.moves(position):
            label, child = move[0], move[1]
            cid = self.id_of(child)
            result.append(
                Move.into(
                    label,
                    child,
                    Value(int(value[cid])),
                    int(remoteness[cid]),
                    None if score is None else int(score[cid]),
                    int(move[2]) if len(move) == 3 else 0,
                )
            )
        return result

    def best_moves(self, position: P) -> list[Move[P]]:
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

    def view(self, position: P | None = None) -> PositionView[P]:
        """`position` (default: the start) with its value and its moves' values, drawn as a
        board in a notebook.

        Raises
        ------
        PositionNotFoundError
            If `position` is not reachable from the start.

        Examples
        --------
        >>> from perfectplay.games.registry import load_game
        >>> from perfectplay.enumeration.enumerate import enumerate_game
        >>> solved = solve_enumeration(enumerate_game(load_game("nim", heaps=(1, 2))))
        >>> view = solved.view()
        >>> view.value, [m.label for m in view.moves if m.value == Value.WIN]
        (<Value.WIN: 3>, ['h2-1'])
        >>> view._repr_svg_().count('class="move"')
        3
        """
        here = self.initial if position is None else position
        return PositionView(
            self.game, here, self.value(here), self.remoteness(here), self.move_values(here)
        )

    def _repr_svg_(self) -> str:
        """The start position as SVG, every move coloured by value (for notebooks)."""
        return self.view()._repr_svg_()

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary().items())
        start = Value(int(self.solution.value[0])).name
        return f"<GameSolution of {self.game.info.name}: start {start}, n={len(self)}, {counts}>"


def solve_enumeration(enumeration: Enumeration[P], *, misere: bool = False) -> GameSolution[P]:
    """Solve an enumerated game; checks the game's declared ``cyclic`` property.

    Parameters
    ----------
    enumeration : Enumeration
        The game's positions and position graph, from
        :func:`~perfectplay.enumeration.enumerate.enumerate_game`.
    misere : bool
        A position without moves (and no value fixed by the rules) is a WIN for the player to
        move instead of a LOSE.

    Returns
    -------
    GameSolution
        Value, remoteness (and score, for scored games) of every enumerated position, for the
        player to move, indexed by position.

    Raises
    ------
    GameDefinitionError
        If the game declares ``GameInfo(cyclic=False)`` but a position can repeat.

    Notes
    -----
    Cost: O(n + m) for the cycle check of a game declared acyclic (unless the enumeration's
    breadth-first numbering is already topological), plus the solver's O(n + m): a DAG sweep
    when acyclic, retrograde analysis otherwise.

    Examples
    --------
    >>> from perfectplay.enumeration.enumerate import enumerate_game
    >>> from perfectplay.games.subtraction.rules import Subtraction
    >>> solved = solve_enumeration(enumerate_game(Subtraction(8, (1, 2, 3))))
    >>> solved.value(8), solved.value(7), solved.remoteness(7)
    (<Value.LOSE: 0>, <Value.WIN: 3>, 3)
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
