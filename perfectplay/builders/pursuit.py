"""Pursuit on a directed graph: a pursuer tries to land on the evader's vertex.

Two pieces, the *evader* and the *pursuer*, stand on vertices of a directed graph (the
*board*). The players alternate; a move takes the mover's own piece along one outgoing edge
of its vertex. When both pieces stand on the same vertex the pursuer has won (whoever moved
there). A player who cannot move loses. Who wins an endless game is a rule of the variant:
the evader (the usual convention), the pursuer, or nobody (a draw).

Positions are ``(evader vertex, pursuer vertex, side to move)`` triples, numbered
``side * n * n + evader * n + pursuer`` with ``EVADER = 0`` and ``PURSUER = 1``.

Examples
--------
A directed triangle ``0 -> 1 -> 2 -> 0``: the evader one step ahead of the pursuer runs
forever when it is its turn, and is caught when it is the pursuer's.

>>> game = Pursuit([(0, 1), (1, 2), (2, 0)])
>>> solution = game.solve()
>>> start = game.encode(1, 0, EVADER)
>>> game.render(start)
'evader at 1, pursuer at 0, evader to move'
>>> solution[start].name, game.winner(solution, start)
('DRAW', 'evader')
>>> game.winner(solution, game.encode(1, 0, PURSUER))
'pursuer'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay.builders._pursuit_kernels import fill_pursuit_graph
from perfectplay.errors import InvalidGraphError, UnknownNameError
from perfectplay.graph import GameGraph, as_game_graph
from perfectplay.solution import Solution
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import DRAW, LOSE, UNDECIDED, VALUE_DTYPE, WIN, Position

__all__ = ["EVADER", "PURSUER", "Pursuit"]

EVADER = 0
"""Side number of the evader (the player trying not to be caught)."""
PURSUER = 1
"""Side number of the pursuer (the player trying to land on the evader)."""
_SIDE_NAMES = ("evader", "pursuer")
_ENDLESS = ("evader", "pursuer", "draw")


class Pursuit:
    """Pursuit on a directed graph, enumerated as a position graph.

    Parameters
    ----------
    board : GameGraph, scipy sparse matrix, networkx graph or edge list
        The graph the pieces move on (anything :func:`~perfectplay.graph.as_game_graph`
        accepts). Self-loops are allowed (a piece may then stay where it is); repeated
        edges give repeated, equivalent moves.
    endless : {"evader", "pursuer", "draw"}
        Who wins a game that never ends: applied by :meth:`outcome` and :meth:`winner` to the
        DRAW values the solver reports; ``"draw"`` keeps them as draws.

    Raises
    ------
    UnknownNameError
        If `endless` is not one of the three names.
    InvalidGraphError
        If `board` is not a valid graph.

    Notes
    -----
    A board with ``n`` vertices and ``m`` edges gives ``2 n^2`` positions and
    ``2 m (n - 1)`` moves (contact positions have none). Building the graph costs
    O(n^2 + m n) time and about ``4 (2 n^2 + 2 m n)`` bytes, int32 ids while they fit.
    """

    __slots__ = ("board", "endless", "n")

    def __init__(self, board: Any, *, endless: str = "evader") -> None:
        if endless not in _ENDLESS:
            raise UnknownNameError(
                f"unknown endless-game rule {endless!r}; expected one of {', '.join(_ENDLESS)}"
            )
        self.board: GameGraph = as_game_graph(board)
        self.endless = endless
        self.n: int = self.board.n

    # ------------------------------------------------------------------ sizes
    @property
    def n_positions(self) -> int:
        """Number of positions: ``2 n^2``."""
        return 2 * self.n * self.n

    @property
    def n_moves(self) -> int:
        """Number of moves of the position graph: ``2 m (n - 1)``."""
        return 2 * self.board.m * max(self.n - 1, 0)

    def estimate_bytes(self) -> int:
        """Peak memory of :meth:`solve`: the position graph, its reverse (built by the solver),
        the graph validation's temporaries and the solver's per-position arrays.

        >>> Pursuit([(0, 1), (1, 0)]).estimate_bytes()
        308
        """
        positions, moves = self.n_positions, self.n_moves
        id_bytes = 4 if positions < 2**31 else 8
        ptr_bytes = 4 if moves < 2**31 else 8
        csr = ptr_bytes * (positions + 1) + id_bytes * moves
        return 2 * csr + 3 * moves + 24 * positions

    # ------------------------------------------------------------------ positions
    def encode(self, evader: int, pursuer: int, mover: int) -> Position:
        """The id of the position with the pieces on `evader` and `pursuer`, `mover` to move.

        Raises
        ------
        InvalidGraphError
            If a vertex is not on the board or `mover` is not EVADER (0) or PURSUER (1).

        >>> game = Pursuit([(0, 1), (1, 2)])
        >>> game.encode(2, 1, PURSUER)
        16
        >>> game.decode(16)
        (2, 1, 1)
        """
        for name, vertex in (("evader", evader), ("pursuer", pursuer)):
            if not 0 <= vertex < self.n:
                raise InvalidGraphError(
                    f"{name} vertex {vertex} is not on the board (0..{self.n - 1})"
                )
        if mover not in (EVADER, PURSUER):
            raise InvalidGraphError(f"mover must be EVADER (0) or PURSUER (1), got {mover}")
        return (mover * self.n + evader) * self.n + pursuer

    def decode(self, position: Position) -> tuple[int, int, int]:
        """``(evader vertex, pursuer vertex, mover)`` of a position id.

        Raises
        ------
        InvalidGraphError
            If `position` is not in ``0..2 n^2 - 1``.
        """
        if not 0 <= position < self.n_positions:
            raise InvalidGraphError(f"position {position} is not in 0..{self.n_positions - 1}")
        rest, pursuer = divmod(int(position), self.n)
        mover, evader = divmod(rest, self.n)
        return evader, pursuer, mover

    def render(self, position: Position) -> str:
        """A one-line description, with the board's vertex labels when it has them.

        >>> Pursuit([(0, 1)]).render(3)
        'evader at 1, pursuer at 1, evader to move (caught)'
        """
        evader, pursuer, mover = self.decode(position)
        labels = self.board.labels
        e = evader if labels is None else labels[evader]
        p = pursuer if labels is None else labels[pursuer]
        caught = " (caught)" if evader == pursuer else ""
        return f"evader at {e}, pursuer at {p}, {_SIDE_NAMES[mover]} to move{caught}"

    def restricted(self, evader: int, pursuer: int) -> tuple[Pursuit, NDArray[np.int64]]:
        """The same game on the part of the board the pieces can reach from `evader` and
        `pursuer`, and the original vertex of each kept vertex.

        Every position of a game started with the pieces on `evader` and `pursuer` lies on
        the vertices reachable from one of them, a set closed under moves: solving the smaller
        game gives the same values there. The kept vertices keep their order and are
        renumbered ``0..k-1``; the new board's labels are the original labels (or ids).

        Returns
        -------
        game : Pursuit
            The game on the induced board, with the same `endless` rule.
        kept : ndarray of int64, shape (k,)
            ``kept[i]`` is the original id of new vertex ``i`` (increasing).

        Raises
        ------
        InvalidGraphError
            If a vertex is not on the board.

        Notes
        -----
        Cost: O(n + m) time and memory: one depth-first search, one counting sort.

        >>> game, kept = Pursuit([(0, 1), (2, 3), (3, 2)]).restricted(2, 1)
        >>> kept.tolist(), game.board.moves(1).tolist(), game.render(game.encode(1, 0, EVADER))
        ([1, 2, 3], [2], 'evader at 2, pursuer at 1, evader to move')
        """
        self.encode(evader, pursuer, EVADER)  # checks both vertices
        n = self.n
        seen = self.board.reachable(np.array([evader, pursuer], dtype=np.int64))
        kept = np.flatnonzero(seen)
        new_id = np.full(n, -1, dtype=np.int64)
        new_id[kept] = np.arange(kept.size)
        src = np.repeat(np.arange(n), self.board.out_degree())
        inside = seen[src]  # a kept vertex's successors are kept: the set is closed
        labels = self.board.labels
        names = kept.tolist() if labels is None else [labels[v] for v in kept.tolist()]
        board = GameGraph.from_edges(
            new_id[src[inside]], new_id[self.board.indices[inside]], n=kept.size, labels=names
        )
        return Pursuit(board, endless=self.endless), kept

    # ------------------------------------------------------------------ graph and solution
    def graph(self) -> GameGraph:
        """Every position and move of the game, as a GameGraph.

        Raises
        ------
        TooLargeError
            If :meth:`estimate_bytes` exceeds the memory available (checked first).

        Notes
        -----
        Cost: O(n^2 + m n) time in one compiled pass that writes the CSR arrays in place;
        see :meth:`estimate_bytes` for memory.

        >>> Pursuit([(0, 1), (1, 0)]).graph()
        <GameGraph n=8, m=4>
        """
        check_memory(self.estimate_bytes(), self._what())
        positions, moves = self.n_positions, self.n_moves
        indptr = np.empty(positions + 1, dtype=np.int32 if moves < 2**31 else np.int64)
        indices = np.empty(moves, dtype=np.int32 if positions < 2**31 else np.int64)
        fill_pursuit_graph(self.board.indptr, self.board.indices, indptr, indices)
        return GameGraph(indptr, indices)

    def primitive(self) -> NDArray[np.uint8]:
        """Values fixed by the rules, for the player to move: contact positions are WIN when
        the pursuer is to move and LOSE when the evader is; UNDECIDED elsewhere.

        Cost: O(n^2), vectorized.

        >>> Pursuit([(0, 1)]).primitive().tolist()
        [0, 255, 255, 0, 3, 255, 255, 3]
        """
        value = np.full(self.n_positions, UNDECIDED, dtype=VALUE_DTYPE)
        contact = np.arange(self.n) * (self.n + 1)
        value[EVADER * self.n * self.n + contact] = LOSE
        value[PURSUER * self.n * self.n + contact] = WIN
        return value

    def solve(self) -> Solution:
        """Solve every position by retrograde analysis (DRAW for endless games, before the
        `endless` rule: see :meth:`outcome`).

        Notes
        -----
        Cost: building (see :meth:`graph`) plus O(positions + moves) solving.
        """
        return solve_retrograde(self.graph(), self.primitive())

    def outcome(self, solution: Solution) -> NDArray[np.uint8]:
        """The solved values with the endless-game rule applied, for the player to move.

        A DRAW becomes WIN where the side the rule favours is to move, LOSE where the other
        side is; with ``endless="draw"`` the values are returned unchanged (as a copy).

        Cost: O(positions), vectorized.
        """
        value = solution.value.copy()
        if self.endless == "draw":
            return value
        favoured = _ENDLESS.index(self.endless)
        draws = np.flatnonzero(value == DRAW)
        mover = draws // (self.n * self.n)
        value[draws] = np.where(mover == favoured, WIN, LOSE).astype(VALUE_DTYPE)
        return value

    def winner(self, solution: Solution, position: Position) -> str | None:
        """``"evader"`` or ``"pursuer"``: who wins from `position` with best play, endless
        games counted by the `endless` rule; None for a draw when ``endless="draw"``."""
        _, _, mover = self.decode(position)
        value = int(solution.value[position])
        if value == DRAW:
            return None if self.endless == "draw" else self.endless
        return _SIDE_NAMES[mover if value == WIN else 1 - mover]

    def _what(self) -> str:
        return (
            f"the pursuit game on {self.n} vertices and {self.board.m} edges "
            f"({self.n_positions} positions, {self.n_moves} moves)"
        )

    def __repr__(self) -> str:
        return f"<Pursuit n={self.n}, m={self.board.m}, endless={self.endless!r}>"
