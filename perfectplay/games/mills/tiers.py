"""The Morris family for the tier engine: tiers are Malom's subspaces.

Positions are seen from the player to move (as :meth:`Mills.canonical` makes them: White to
move). A *subspace* ``(m, o, mf, of)`` holds the boards with ``m`` stones of the mover and ``o``
of the opponent on the board and ``mf``, ``of`` in their hands: Gévay and Danner's Malom
names it ``std_W_B_WF_BF``. Its ranks go by symmetry classes as Malom's do: the mover's stones
by their class under the board's symmetries (16 on the 24- and 16-point boards, 8 on the
3 x 3 grid), the opponent's by colex rank among the free points
(:mod:`perfectplay.games.mills._tier_kernels`), about 16 times fewer ranks than boards; its
slots are the boards canonical under the symmetries (one per class of positions).

A tier is one subspace, or two where a move (no placement, no mill) leads from one to the other
and back: ``(m, o, 0, 0)`` and ``(o, m, 0, 0)`` in the moving phase (Lasker Morris: also with
stones in hand), ranked one after the other (*blocks*), labelled by the first, the one whose
number ``((m * 13 + o) * 13 + mf) * 13 + of`` is larger; that number is the tier. Moves:

* a placement goes to ``(o, m + 1, of, mf - 1)``, with a removal to ``(o - 1, m + 1, of, mf - 1)``:
  the placement tiers have no inner moves and are ordered by the stones in hand;
* a move stays in the tier (the other block, or the same where ``m == o`` and ``mf == of``), with
  a removal it goes to ``(o - 1, m, of, mf)``: the moving tiers are loopy, joined by captures.

A subspace exists where the counts can occur: at most ``stones`` stones per side, hands of the
mover one more than or equal to the opponent's (Nine Men's Morris: White places first; any
hands in Lasker Morris), the opponent with at least 3 stones, the mover with at least 2 (with 2
it has lost: those subspaces are the captures' last children, every position a LOSE).

Examples
--------
>>> game = TieredMills()
>>> tier, rank = game.initial()
>>> game.tier_label(tier), [game.tier_label(t) for t in game.child_tiers(tier)]
('0_0_9_9', ['0_1_9_8'])
>>> moves = game.children(tier, np.array([rank]))
>>> len(moves.rank), len(set(moves.rank.tolist()))  # 24 placements, 4 up to symmetry
(24, 4)
>>> game.tier_label(game.locate(game.as_game().parse("WWW-------B----B-----BB- B 0 0"))[0])
'4_3_0_0'
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.mills import _tier_kernels as kernels
from perfectplay.games.mills.rules import Mills, MillsPosition, swap_colours
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["TieredMills"]

Key = tuple[int, int, int, int]
"""A subspace ``(m, o, mf, of)``: stones on the board and in hand, the mover's first."""


def _number(key: Key) -> int:
    m, o, mf, of = key
    return ((m * 13 + o) * 13 + mf) * 13 + of


def _swap(key: Key) -> Key:
    m, o, mf, of = key
    return o, m, of, mf


class TieredMills(TieredGame):
    """The Morris family for the tier engine: Malom's subspaces as tiers (module doc).

    Parameters
    ----------
    variant, stones
        As for :class:`~perfectplay.games.mills.rules.Mills`.
    """

    def __init__(self, variant: str = "nine", stones: int = 0) -> None:
        self._game = Mills(variant, stones)
        rules = self._game.variant
        self.stones, self.points = rules.stones, self._game.points
        self.info = GameInfo(
            "nine-mens-morris",
            {"variant": variant, "stones": stones},
            cyclic=True,
            description=f"Morris ({variant}, {self.stones} stones each) by Malom's subspaces",
        )
        self._lasker = rules.lasker
        self._tables = kernels.tables(rules.board.name, rules.jumps, rules.lasker)
        self._blocks: dict[int, list[Key]] = {}
        for key in self._keys():
            if self.moves_inside(key) and self.valid(_swap(key)) and _swap(key) != key:
                first = max(key, _swap(key), key=_number)
                self._blocks[_number(first)] = [first, _swap(first)]
            else:
                self._blocks[_number(key)] = [key]
        self._where = {
            key: (tier, b) for tier, keys in self._blocks.items() for b, key in enumerate(keys)
        }
        self._arrays: dict[int, tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]]
        self._arrays = {}

    # ------------------------------------------------------------------ subspaces
    def valid(self, key: Key) -> bool:
        """Whether subspace `key` can occur (see the module docstring)."""
        m, o, mf, of = key
        s = self.stones
        return (
            0 <= mf <= s
            and 0 <= of <= s
            and 0 <= m <= s - mf
            and 0 <= o <= s - of
            and m + o <= self.points
            and o + of >= 3
            and m + mf >= 2
            and (self._lasker or mf - of in (0, 1))
        )

    def moves_inside(self, key: Key) -> bool:
        """Whether the mover of `key` may move a stone (not lost, and no stone in hand or
        Lasker's rule)."""
        m, _, mf, _ = key
        return m + mf >= 3 and (mf == 0 or self._lasker)

    def _keys(self) -> Iterator[Key]:
        s = self.stones
        for mf in range(s + 1):
            for of in range(s + 1):
                for m in range(s + 1):
                    for o in range(s + 1):
                        if self.valid((m, o, mf, of)):
                            yield m, o, mf, of

    def blocks(self, tier: int) -> list[Key]:
        """The subspaces of `tier`, in rank order; GameDefinitionError if there is no such tier."""
        if isinstance(tier, bool) or not isinstance(tier, int | np.integer):
            raise GameDefinitionError(f"morris has no tier {tier!r}")
        found = self._blocks.get(int(tier))
        if found is None:
            raise GameDefinitionError(f"morris ({self._game.variant.name}) has no tier {tier!r}")
        return found

    def _size(self, key: Key) -> int:
        """Ranks of subspace `key`: the classes of the mover's stones times the opponent's
        sets of points among the free ones."""
        m, o, _, _ = key
        starts = self._tables.starts
        return int(starts[m + 1] - starts[m]) * comb(self.points - m, o)

    def _tier_arrays(
        self, tier: int
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The kernels' ``blocks``, ``kinds`` and ``back`` arrays of `tier` (made once)."""
        if tier in self._arrays:
            return self._arrays[tier]
        keys = self.blocks(tier)
        starts = [0]
        for key in keys[:-1]:
            starts.append(starts[-1] + self._size(key))
        blocks = np.array([(start, *key) for start, key in zip(starts, keys, strict=True)])
        targets = [tier, *self.child_tiers(tier)]
        kinds = np.full((len(keys), kernels.KINDS, 4), -1, dtype=np.int64)
        back = np.full(len(keys), -1, dtype=np.int64)
        for b, key in enumerate(keys):
            for k, child in enumerate(self._kinds(key)):
                if child is not None:
                    child_tier, cb = self._where[child]
                    child_start = 0 if cb == 0 else self._size(self.blocks(child_tier)[0])
                    kinds[b, k] = (targets.index(child_tier), child_start, child[0], child[1])
            if self.moves_inside(_swap(key)) and _swap(key) in keys:
                back[b] = starts[keys.index(_swap(key))]
        self._arrays[tier] = (blocks.astype(np.int64), kinds, back)
        return self._arrays[tier]

    def _kinds(self, key: Key) -> list[Key | None]:
        """The subspaces a placement, a placement with a removal, a move and a move with a
        removal from `key` land in (seen from the next mover), None where there is none."""
        m, o, mf, of = key
        if m + mf < 3:
            return [None] * kernels.KINDS
        place = (o, m + 1, of, mf - 1) if mf > 0 and m + o < self.points else None
        moves = (o, m, of, mf) if self.moves_inside(key) else None
        out = []
        for child in (place, moves):
            out.append(child)
            out.append(None if child is None or o == 0 else (o - 1, *child[1:]))
        return [c if c is not None and self.valid(c) else None for c in out]

    # ------------------------------------------------------------------ tiers
    def tiers(self) -> list[int]:
        return sorted(self._blocks)

    def child_tiers(self, tier: int) -> list[int]:
        found = {
            self._where[child][0]
            for key in self.blocks(tier)
            for child in self._kinds(key)
            if child is not None
        }
        return sorted(found - {tier})

    def tier_size(self, tier: int) -> int:
        return sum(self._size(key) for key in self.blocks(tier))

    def tier_label(self, tier: int) -> str:
        """Malom's name of the tier's first subspace, ``m_o_mf_of`` (``9_8_0_0``)."""
        return "_".join(map(str, self.blocks(tier)[0]))

    def tier_parts(self, tier: int) -> list[tuple[str, int]] | None:
        """A moving tier's two subspaces, each under Malom's name, for ``analyze --by-tier``;
        None for a tier of one subspace.

        >>> game = TieredMills(stones=4)
        >>> game.tier_parts(_number((4, 3, 0, 0)))
        [('4_3_0_0', 0), ('3_4_0_0', 862980)]
        """
        keys = self.blocks(tier)
        if len(keys) == 1:
            return None
        firsts = self._tier_arrays(tier)[0][:, 0].tolist()  # each block's first rank
        return [("_".join(map(str, key)), first) for key, first in zip(keys, firsts, strict=True)]

    def inner_moves(self, tier: int) -> bool:
        """Whether a stone may move in the tier (a move stays in it)."""
        return any(self.moves_inside(key) for key in self.blocks(tier))

    def max_moves(self) -> int:
        """Placements and moves (jumps: 3 stones to any point), each times the removals."""
        degree = int(max(bin(int(n)).count("1") for n in self._tables.neighbours))
        s, p = self.stones, self.points
        return s * (p + max(3 * p, s * degree))

    # ------------------------------------------------------------------ positions
    def _locate_block(
        self, tier: int, start: int, stop: int
    ) -> Iterator[tuple[Key, int, int, int]]:
        """``(key, block start, lo, hi)`` for each block of `tier` overlapping ranks
        ``start..stop-1``, ``lo..hi`` the overlap in the block's own ranks."""
        offset = 0
        for key in self.blocks(tier):
            size = self._size(key)
            lo, hi = max(start - offset, 0), min(stop - offset, size)
            if lo < hi:
                yield key, offset, lo, hi
            offset += size

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~45 ns per child."""
        blocks, kinds, _ = self._tier_arrays(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), blocks, kinds, self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical ranks of the tier with a move to each rank; ~75 ns per parent."""
        if not self.inner_moves(tier):
            raise GameDefinitionError(f"morris tier {self.tier_label(tier)} has no inner moves")
        blocks, _, back = self._tier_arrays(tier)
        return kernels.parents(
            np.ascontiguousarray(ranks, dtype=np.int64), blocks, back, self._tables
        )

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """The canonical boards among ranks ``start..stop-1``; ~4 ns per rank."""
        parts = [
            kernels.slots(lo, hi, key[0], key[1], self._tables)
            for key, _, lo, hi in self._locate_block(tier, start, stop)
        ]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.bool_)

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """Positions each rank stands for: the distinct boards its symmetries make, twice
        that where the colours exchanged (the other player to move) occur too (the moving
        phase; every position of Lasker Morris)."""
        ranks = np.ascontiguousarray(ranks, dtype=np.int64)
        out = np.zeros(len(ranks), dtype=np.int64)
        for key, offset, lo, hi in self._locate_block(tier, 0, self.tier_size(tier)):
            inside = (ranks >= offset + lo) & (ranks < offset + hi)
            both = self._lasker or key[2] == key[3] == 0
            sizes = kernels.orbit_sizes(ranks[inside] - offset, key[0], key[1], self._tables)
            out[inside] = sizes * (2 if both else 1)
        return out

    def initial(self) -> tuple[int, int]:
        return self.locate(self._game.initial())

    def position(self, tier: int, rank: int) -> MillsPosition:
        size = self.tier_size(tier)
        if not 0 <= rank < size:
            raise GameDefinitionError(
                f"rank {rank} is outside morris tier {self.tier_label(tier)} (0..{size - 1})"
            )
        (((m, o, mf, of), offset, _, _),) = self._locate_block(tier, rank, rank + 1)
        xs, ys = kernels.boards(np.array([rank - offset], dtype=np.int64), m, o, self._tables)
        x, y = int(xs[0]), int(ys[0])
        board = "".join(
            "W" if x >> d & 1 else "B" if y >> d & 1 else "-" for d in range(self.points)
        )
        return board, "W", mf, of

    def locate(self, position: Any) -> tuple[int, int]:
        ok = isinstance(position, tuple) and len(position) == 4
        if (
            not ok
            or not isinstance(position[0], str)
            or not all(isinstance(v, int) for v in position[2:])
        ):
            raise InputFormatError(
                f"expected a morris position (board of {self.points} points W/B/-, 'W' or 'B' to "
                f"move, stones in hand of White and Black), got {position!r}"
            )
        self._game.check(position)
        board, turn, wf, bf = position
        if turn == "B":
            board, wf, bf = swap_colours(board), bf, wf
        key = (board.count("W"), board.count("B"), wf, bf)
        if key not in self._where:
            raise InputFormatError(f"no morris game reaches {self._game.notation(position)!r}")
        tier, b = self._where[key]
        x = sum(1 << d for d, c in enumerate(board) if c == "W")
        y = sum(1 << d for d, c in enumerate(board) if c == "B")
        rank = kernels.ranks(
            np.array([x], np.int64), np.array([y], np.int64), key[0], key[1], self._tables, True
        )
        return tier, int(rank[0]) + (0 if b == 0 else self._size(self.blocks(tier)[0]))

    def as_game(self) -> Mills:
        return self._game
