"""Alpha-beta over the plain-Python Game protocol: one position, no enumeration.

:class:`PlainSearch` calls a game's ``moves`` and ``outcome`` (and ``canonical``, for the
table's keys) only at the positions the search visits. It answers three kinds of question,
each the engine (:func:`perfectplay.search.engine.search`) combines into a result:

* :meth:`PlainSearch.value_bound`: negamax with alpha-beta on the value score of
  :mod:`perfectplay.search.score` (WIN in r: ``BIG - r``, LOSE in r: ``r - BIG``, TIE: 0),
  fail-soft, with the bounds of visited positions in a :class:`~.table.BoundTable`. A window
  ``(-1, 1)`` decides only WIN/LOSE/TIE (the weak search); :meth:`PlainSearch.value_score`
  narrows null windows (MTD(f), :func:`narrow`) down to the exact score, i.e. the remoteness.
* :meth:`PlainSearch.tie_remoteness`: the remoteness of a TIE, which the zero-sum score cannot
  carry (both players prefer the shortest tie): a breadth-first search through TIE positions
  to the nearest position the rules end level, each child's value decided by a weak search.
* :meth:`PlainSearch.points_bound`: scored games, the same alpha-beta on the best (own -
  opponent) total, ``max(gain - points(child))``, with a table of its own.

Positions are searched recursively, one Python frame per ply: the engine raises the
recursion limit for the search's duration (:func:`deeper_recursion`), enough for games of
thousands of plies (Python 3.11 frames of Python calls take no C stack). A position met again
on the current line of play means the game is not acyclic after all: GameDefinitionError.

Examples
--------
>>> from perfectplay.protocol.game import Game, GameInfo
>>> from perfectplay.values import Value
>>> class TakeAway(Game[int]):
...     info = GameInfo("take-away")
...     def initial(self) -> int:
...         return 7
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> Value | None:
...         return None  # stuck at 0 tokens: the player to move has lost
>>> from perfectplay.search.score import to_value
>>> s = PlainSearch(TakeAway(), BoundTable(1000))
>>> s.value_bound(7, -1, 1) > 0  # weak: 7 tokens win for the player to move
True
>>> to_value(s.value_score(7)), to_value(s.value_score(6))
((<Value.WIN: 3>, 5), (<Value.LOSE: 0>, 4))
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import Game, P, provides
from perfectplay.search.score import (
    BIG,
    INFINITY,
    MAX_REMOTENESS,
    child_window,
    from_value,
    narrow,
    parent_score,
)
from perfectplay.search.table import BoundTable
from perfectplay.values import Value

__all__ = ["RECURSION_HEADROOM", "PlainSearch", "deeper_recursion"]

RECURSION_HEADROOM = 20_000
"""How many frames :func:`deeper_recursion` adds to the recursion limit: one per ply searched."""

_NO_LOWER = -(1 << 80)
_NO_UPPER = 1 << 80
"""Bounds of a position nothing is known about (beyond every int64 score)."""


@contextmanager
def deeper_recursion(frames: int = RECURSION_HEADROOM) -> Iterator[None]:
    """Raise the recursion limit by `frames` while the block runs, then restore it.

    Examples
    --------
    >>> before = sys.getrecursionlimit()
    >>> with deeper_recursion(100):
    ...     sys.getrecursionlimit() - before
    100
    >>> sys.getrecursionlimit() == before
    True
    """
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(old + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class PlainSearch(Generic[P]):
    """Alpha-beta searches of positions of `game`, sharing transposition tables and a node count.

    Parameters
    ----------
    game : Game
        An acyclic game (``GameInfo.cyclic`` false); the caller checks it.
    table : BoundTable
        Bounds on value scores (:mod:`perfectplay.search.score`).
    points_table : BoundTable, optional
        Scored games: bounds on points, for :meth:`points_bound`.

    Attributes
    ----------
    nodes : int
        Positions visited so far (each call of the recursion, and each position a tie's
        breadth-first search expands).

    Notes
    -----
    Cost: the positions an alpha-beta search visits, each costing one ``outcome`` call and,
    unless the table answers, one ``moves`` call (and a ``canonical`` call for the key); at most
    every reachable position once per window, in practice far fewer.
    """

    def __init__(
        self, game: Game[P], table: BoundTable, points_table: BoundTable | None = None
    ) -> None:
        self.game = game
        self.table = table
        self.points_table = points_table
        self.nodes = 0
        self._key: Callable[[P], Hashable] = (
            game.canonical if provides(game, "canonical") else _identity
        )
        self._line: set[Hashable] = set()  # keys on the current line of play (cycle check)

    # ------------------------------------------------------------------ value score
    def value_bound(self, position: P, alpha: int, beta: int) -> int:
        """The value score of `position` for the player to move, by the window contract.

        Parameters
        ----------
        position : P
            Any position of the game (over or not).
        alpha, beta : int
            The window, ``alpha < beta``.

        Returns
        -------
        int
            ``v`` with: ``alpha < v < beta`` exact; ``v <= alpha`` an upper bound; ``v >= beta``
            a lower bound. Always a score some position has (fail-soft).

        Raises
        ------
        GameDefinitionError
            If a position repeats on the line searched (the game is cyclic), or remoteness
            exceeds what the score can carry.

        Examples
        --------
        >>> from perfectplay.protocol.game import Game
        >>> class Two(Game[int]):  # 2 -> 1 -> 0, stuck at 0
        ...     def moves(self, p: int) -> list[tuple[str, int]]:
        ...         return [("down", p - 1)] if p else []
        ...     def outcome(self, p: int) -> None:
        ...         return None
        >>> from perfectplay.search.score import to_value
        >>> to_value(PlainSearch(Two(), BoundTable(10)).value_bound(2, -INFINITY, INFINITY))
        (<Value.LOSE: 0>, 2)
        """
        self.nodes += 1
        game = self.game
        over = game.outcome(position)
        if over is not None:
            return from_value(over, 0)
        key = self._key(position)
        entry = self.table.get(key)
        lower, upper, first = (_NO_LOWER, _NO_UPPER, 0) if entry is None else entry
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        a, b = max(alpha, lower), min(beta, upper)
        moves = _children(game, position)
        if not moves:  # stuck: lost for the player to move (normal play)
            self.table.store(key, -BIG, -BIG, 0)
            return -BIG
        self._enter(key)
        best, best_index = -INFINITY, first
        for i in _order(len(moves), first):
            ca, cb = child_window(a, b)
            v = parent_score(self.value_bound(moves[i][1], ca, cb))
            if v > best:
                best, best_index = v, i
                if v > a:
                    a = v
                    if a >= b:
                        break
        self._line.discard(key)
        if best < 0 and BIG + best > MAX_REMOTENESS:
            raise GameDefinitionError(
                f"{game.info.name}: a game longer than {MAX_REMOTENESS} moves cannot be searched"
            )
        self._store(self.table, key, best, max(alpha, lower), min(beta, upper), lower, upper,
                    best_index)  # fmt: skip
        return best

    def value_score(self, position: P, guess: int = 0) -> int:
        """The exact value score of `position` (:func:`~.score.narrow` over :meth:`value_bound`).

        Examples
        --------
        >>> from perfectplay.protocol.game import Game
        >>> class Two(Game[int]):
        ...     def moves(self, p: int) -> list[tuple[str, int]]:
        ...         return [("down", p - 1)] if p else []
        ...     def outcome(self, p: int) -> None:
        ...         return None
        >>> from perfectplay.search.score import to_value
        >>> to_value(PlainSearch(Two(), BoundTable(10)).value_score(3))
        (<Value.WIN: 3>, 3)
        """
        return narrow(lambda a, b: self.value_bound(position, a, b), -BIG, BIG, guess)[0]

    def sign(self, position: P) -> Value:
        """WIN, LOSE or TIE for the player to move at `position`: the weak search, window (-1, 1).

        Examples
        --------
        >>> from perfectplay.protocol.game import Game
        >>> class Two(Game[int]):
        ...     def moves(self, p: int) -> list[tuple[str, int]]:
        ...         return [("down", p - 1)] if p else []
        ...     def outcome(self, p: int) -> None:
        ...         return None
        >>> PlainSearch(Two(), BoundTable(10)).sign(5)
        <Value.WIN: 3>
        """
        v = self.value_bound(position, -1, 1)
        return Value.WIN if v >= 1 else Value.LOSE if v <= -1 else Value.TIE

    def tie_remoteness(self, position: P) -> int:
        """The remoteness of a TIE: moves to the nearest level end through TIE positions.

        The solvers define it as 0 where the rules end the game level, else 1 + the smallest
        remoteness of a TIE child: the length of the shortest path to such an end through TIE
        positions. Found breadth first, level by level, each child's value decided by a weak
        search (:meth:`sign`) that the table mostly answers.

        Parameters
        ----------
        position : P
            A TIE position (the caller has decided it).

        Raises
        ------
        GameDefinitionError
            If no level end is reachable through TIE positions (`position` was not a TIE).

        Notes
        -----
        Cost: the TIE positions within that many moves (each expanded once, one weak search
        per move), and a set holding their keys.

        Examples
        --------
        >>> from perfectplay.protocol.game import Game
        >>> class Line(Game[int]):  # 3 -> 2 -> 1 -> 0, which the rules end level
        ...     def moves(self, p: int) -> list[tuple[str, int]]:
        ...         return [("down", p - 1)] if p else []
        ...     def outcome(self, p: int) -> Value | None:
        ...         return Value.TIE if p == 0 else None
        >>> PlainSearch(Line(), BoundTable(10)).tie_remoteness(3)
        3
        """
        game = self.game
        frontier = [position]
        seen = {self._key(position)}
        depth = 0
        while frontier:
            for p in frontier:
                if game.outcome(p) is not None:  # only TIE positions are in the frontier
                    return depth
            following = []
            for p in frontier:
                self.nodes += 1
                for move in _children(game, p):
                    child = move[1]
                    key = self._key(child)
                    if key not in seen:
                        seen.add(key)
                        if self.sign(child) == Value.TIE:
                            following.append(child)
            frontier = following
            depth += 1
        raise GameDefinitionError(
            f"{game.info.name}: no level end is reachable through TIE positions from "
            f"{position!r}, which was searched as a TIE"
        )

    # ------------------------------------------------------------------ points
    def points_bound(self, position: P, alpha: int, beta: int) -> int:
        """Scored games: the best (own - opponent) total for the player to move, by the window
        contract of :meth:`value_bound`.

        Where the game is over (the rules decide, or no moves) its ``terminal_score``; else
        ``max(gain - points(child))`` over the moves, as
        :func:`~perfectplay.solvers.dag.solve_dag` defines the score.

        Examples
        --------
        >>> from perfectplay.protocol.game import Game, GameInfo
        >>> class Pick(Game[int]):  # from 2: take 1 point (to 1) or 5 points (to 0)
        ...     info = GameInfo("pick", scored=True)
        ...     def moves(self, p: int) -> list[tuple[str, int, int]]:
        ...         return [("a", 1, 1), ("b", 0, 5)] if p == 2 else [("c", 0, 3)] if p else []
        ...     def outcome(self, p: int) -> None:
        ...         return None
        >>> s = PlainSearch(Pick(), BoundTable(10), BoundTable(10))
        >>> s.points_bound(2, -INFINITY, INFINITY), s.points(1)
        (5, 3)
        """
        table = self.points_table
        if table is None:
            raise GameDefinitionError("points_bound needs a points table (scored games)")
        self.nodes += 1
        game = self.game
        if game.outcome(position) is not None:
            return int(game.terminal_score(position))
        key = self._key(position)
        entry = table.get(key)
        lower, upper, first = (_NO_LOWER, _NO_UPPER, 0) if entry is None else entry
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        a, b = max(alpha, lower), min(beta, upper)
        moves = _children(game, position)
        if not moves:
            end = int(game.terminal_score(position))
            table.store(key, end, end, 0)
            return end
        self._enter(key)
        best, best_index = _NO_LOWER, first
        for i in _order(len(moves), first):
            move = moves[i]
            gain = int(move[2]) if len(move) == 3 else 0
            v = gain - self.points_bound(move[1], gain - b, gain - a)
            if v > best:
                best, best_index = v, i
                if v > a:
                    a = v
                    if a >= b:
                        break
        self._line.discard(key)
        self._store(table, key, best, max(alpha, lower), min(beta, upper), lower, upper,
                    best_index)  # fmt: skip
        return best

    def points(self, position: P) -> int:
        """Scored games: the exact best (own - opponent) total (:func:`~.score.narrow`).

        Examples
        --------
        >>> from perfectplay.protocol.game import Game, GameInfo
        >>> class Pick(Game[int]):
        ...     info = GameInfo("pick", scored=True)
        ...     def moves(self, p: int) -> list[tuple[str, int, int]]:
        ...         return [("a", 1, 1), ("b", 0, 5)] if p == 2 else [("c", 0, 3)] if p else []
        ...     def outcome(self, p: int) -> None:
        ...         return None
        >>> PlainSearch(Pick(), BoundTable(10), BoundTable(10)).points(2)
        5
        """
        return narrow(lambda a, b: self.points_bound(position, a, b))[0]

    # ------------------------------------------------------------------ helpers
    def _enter(self, key: Hashable) -> None:
        """Put `key` on the current line, or GameDefinitionError if it is already there."""
        if key in self._line:
            raise GameDefinitionError(
                f"{self.game.info.name} declares GameInfo(cyclic=False) but position "
                f"{key!r} repeats on a line of play; declare cyclic=True (and solve it with "
                "the retrograde solver or the tier engine)"
            )
        self._line.add(key)

    @staticmethod
    def _store(
        table: BoundTable,
        key: Hashable,
        best: int,
        a0: int,
        b0: int,
        lower: int,
        upper: int,
        move: int,
    ) -> None:
        """Record what a search with window ``(a0, b0)`` (the table's bounds applied) found."""
        if best <= a0:  # failed low: an upper bound
            upper = min(upper, best)
        elif best >= b0:  # failed high: a lower bound
            lower = max(lower, best)
        else:
            lower = upper = best
        table.store(key, lower, upper, move)


def _identity(position: Any) -> Hashable:
    """The position itself: the table's key for games without ``canonical``."""
    return position


def _children(game: Game[Any], position: Any) -> Sequence[Any]:
    """The moves of `position` as a list (``moves`` may return any iterable)."""
    moves = game.moves(position)
    return moves if isinstance(moves, list) else list(moves)


def _order(count: int, first: int) -> Iterator[int]:
    """Move indices with `first` (the table's best move from last time) first."""
    if 0 < first < count:
        yield first
        for i in range(count):
            if i != first:
                yield i
    else:
        yield from range(count)
