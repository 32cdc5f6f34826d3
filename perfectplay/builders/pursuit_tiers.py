"""Pursuit as an implicit tiered game: the product of the board with itself is never built.

The game of :mod:`perfectplay.builders.pursuit` (two pieces on a digraph, the pursuer wins on
contact, a player who cannot move loses) as one loopy tier of ``2 n^2`` ranks, numbered as
:class:`~perfectplay.builders.pursuit.Pursuit` numbers its positions:
``turn * n * n + evader * n + pursuer``, ``turn`` 0 when the evader is to move. Moves are read
off the board's CSR and un-moves off its reverse, an array of ranks at a time
(:mod:`perfectplay.builders._pursuit_tier_kernels`), so memory is the board plus what the tier
engine keeps per position, instead of the position graph and its reverse (4 bytes per move
each, int32).

Values are for the player to move, endless play a DRAW: who wins an endless game (the evader
in make-you-happy) is decided above this layer, as :meth:`Pursuit.outcome` does.

Examples
--------
The directed triangle ``0 -> 1 -> 2 -> 0`` with the evader one step ahead of the pursuer:

>>> game = PursuitTiers([(0, 1), (1, 2), (2, 0)], start=(1, 0))
>>> game.tier_size(0), game.initial()
(18, (0, 3))
>>> moves = game.children(0, np.array([3, 4]))  # (1, 0) and contact (1, 1), evader to move
>>> moves.primitive.tolist(), moves.indptr.tolist(), moves.rank.tolist()
([255, 0], [0, 1, 1], [15])
>>> game.as_game().render(15)
'evader at 2, pursuer at 0, pursuer to move'
>>> indptr, parents = game.parents(0, np.array([15]))
>>> parents.tolist()
[3]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.builders._pursuit_tier_kernels import pursuit_children, pursuit_parents
from perfectplay.builders.pursuit import EVADER, PURSUER, Pursuit
from perfectplay.errors import InvalidGraphError
from perfectplay.graph import GameGraph, as_game_graph
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.values import Value

__all__ = ["PursuitGame", "PursuitTiers"]


def _simple_board(board: Any) -> GameGraph:
    """`board` as a GameGraph with each repeated edge kept once (a repeat only repeats a move).

    Cost: O(n + m log m) (one sort of the edges).
    """
    graph = as_game_graph(board)
    src = np.repeat(np.arange(graph.n, dtype=np.int64), graph.out_degree())
    keys = np.unique(src * graph.n + graph.indices.astype(np.int64))
    return GameGraph.from_edges(keys // graph.n, keys % graph.n, n=graph.n, labels=graph.labels)


def _params(board: GameGraph) -> dict[str, Any]:
    """The game's parameters: the board's size and a digest of its edges, so that a tier
    directory of another board with as many vertices and edges is told apart. O(n + m)."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(board.indptr.astype(np.int64).tobytes())
    digest.update(board.indices.astype(np.int64).tobytes())
    return {"n": board.n, "m": board.m, "board": digest.hexdigest()}


class PursuitGame(Game[int]):
    """Pursuit as an ordinary :class:`~perfectplay.protocol.game.Game` over position ids.

    Positions are the ids of :class:`~perfectplay.builders.pursuit.Pursuit`. A move is labelled
    ``"evader to V"`` or ``"pursuer to V"`` with the board's label of the vertex reached.
    Each call costs O(out-degree).
    """

    def __init__(self, pursuit: Pursuit, start: int) -> None:
        self.pursuit = pursuit
        self.start = start
        self.info = GameInfo("pursuit", _params(pursuit.board), cyclic=True)

    def initial(self) -> int:
        return self.start

    def moves(self, position: int) -> Iterator[tuple[str, int]]:
        evader, pursuer, mover = self.pursuit.decode(position)
        if evader == pursuer:
            return
        board = self.pursuit.board
        for v in board.moves(evader if mover == EVADER else pursuer).tolist():
            label = v if board.labels is None else board.labels[v]
            if mover == EVADER:
                child = self.pursuit.encode(v, pursuer, PURSUER)
            else:
                child = self.pursuit.encode(evader, v, EVADER)
            yield f"{'evader' if mover == EVADER else 'pursuer'} to {label}", child

    def outcome(self, position: int) -> Value | None:
        evader, pursuer, mover = self.pursuit.decode(position)
        if evader != pursuer:
            return None
        return Value.LOSE if mover == EVADER else Value.WIN

    def render(self, position: int) -> str:
        return self.pursuit.render(position)

    def encode(self, position: int) -> int:
        return position

    def decode(self, code: int) -> int:
        self.pursuit.decode(code)  # checks the range
        return code


class PursuitTiers(TieredGame):
    """Pursuit on a directed graph as one loopy tier, moves generated from the board.

    Parameters
    ----------
    board : GameGraph, scipy sparse matrix, networkx graph or edge list
        The graph the pieces move on; a repeated edge is kept once.
    start : tuple of int, optional
        ``(evader, pursuer)``: the vertices of the start, the evader to move. Default
        ``(0, 1)`` (``(0, 0)`` on a one-vertex board).

    Raises
    ------
    InvalidGraphError
        If `board` is not a valid graph, has no vertex, or a start vertex is not on it.

    Notes
    -----
    Memory: the board and its reverse CSR, O(n + m); the engine adds its per-position
    arrays for the ``2 n^2`` ranks. ``children`` and ``parents`` cost O(ranks + moves listed).
    """

    def __init__(self, board: Any, start: tuple[int, int] | None = None) -> None:
        self.board = _simple_board(board)
        self.n = self.board.n
        if self.n == 0:
            raise InvalidGraphError("a pursuit board needs at least one vertex, got none")
        evader, pursuer = start if start is not None else (0, min(1, self.n - 1))
        self._pursuit = Pursuit(self.board, endless="draw")
        self.start = self._pursuit.encode(evader, pursuer, EVADER)
        self._rindptr, self._rindices = self.board.reverse()
        self.info = GameInfo("pursuit", _params(self.board), cyclic=True)

    def tiers(self) -> list[int]:
        return [0]

    def child_tiers(self, tier: int) -> list[int]:
        return []

    def tier_size(self, tier: int) -> int:
        return 2 * self.n * self.n

    def inner_moves(self, tier: int) -> bool:
        return True

    def max_moves(self) -> int:
        return int(self.board.out_degree().max(initial=0))

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        primitive, indptr, child = pursuit_children(
            self.board.indptr, self.board.indices, np.asarray(ranks, dtype=np.int64)
        )
        return TierMoves(primitive, indptr, np.zeros(child.size, dtype=np.int8), child)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        indptr, parent = pursuit_parents(
            self._rindptr, self._rindices, np.asarray(ranks, dtype=np.int64)
        )
        return indptr, parent

    def initial(self) -> tuple[int, int]:
        return (0, self.start)

    def position(self, tier: int, rank: int) -> int:
        self._pursuit.decode(rank)  # checks the range
        return rank

    def locate(self, position: Any) -> tuple[int, int]:
        if not isinstance(position, (int, np.integer)):
            raise InvalidGraphError(f"a pursuit position is an integer id, got {position!r}")
        self._pursuit.decode(int(position))
        return (0, int(position))

    def as_game(self) -> PursuitGame:
        return PursuitGame(self._pursuit, self.start)
