"""The retrograde worker: a tier with moves inside it, solved by retrograde analysis.

Named steps, as in the in-memory solver (:mod:`perfectplay.solvers.retrograde`), on the
tier's ranks instead of a stored graph:

1. **count** (:func:`~perfectplay.tiers._kernels.init_loopy`, batches in parallel): primitives,
   each position's number of distinct children inside the tier, and a summary of its children
   in earlier tiers (already solved: the nearest LOSE, the farthest WIN, the nearest TIE,
   whether a TIE or DRAW child means it can never lose);
2. **propagate WIN/LOSE** level by level of remoteness: the positions decided at a level ask
   the game for their parents inside the tier (``parents``, batches in parallel) and decide or
   count down those parents (:func:`~perfectplay.tiers._kernels.apply_win_lose_level`);
   positions an earlier tier decides enter at their level;
3. **propagate TIE** likewise from TIE primitives and TIE children in earlier tiers;
4. **mark draws**: whatever is still open.

The results equal :func:`~perfectplay.solvers.retrograde.solve_retrograde` on the tier's
positions with the earlier tiers' values fixed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers._kernels import (
    NO_POSITION_VALUE,
    apply_tie_level,
    apply_win_lose_level,
    enqueue_decided,
    finish_records,
    gather_level,
    init_loopy,
)
from perfectplay.tiers.expand import BATCH, SolvedTier, expand, slot_ranks
from perfectplay.tiers.records import record_dtype
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN

__all__ = ["LOOPY_BYTES_PER_RANK", "loopy_bytes", "solve_loopy"]

LOOPY_BYTES_PER_RANK = 27
"""Work memory per rank of a loopy tier, at most: value 1, remoteness 4, counter 2 or 4, queue
4 (8 past 2^31 ranks), records 1 to 4, and with earlier tiers 13 more for the summary of their
children and 8 for the list of LOSEs decided ahead of their level (counted here without
those: a tier without child tiers needs 11 to 16 bytes per rank)."""

_PARENT_BATCH = 1 << 14
_PARENT_GROUP = _PARENT_BATCH << 6
"""Positions of a level whose parents are held at once (a level of Dobutsu Shogi has 2.4e8
positions and 1.2e9 parents: asked for in groups, they take tens of MB instead of 10 GB)."""


def loopy_bytes(size: int, has_children: bool, moves_below_2_16: bool) -> int:
    """Work memory of a loopy tier of `size` ranks, at most: :data:`LOOPY_BYTES_PER_RANK` per
    rank with earlier tiers; without them value 1, remoteness 4, counter 2 (fewer than 2^16
    moves per position) or 4, queue 4 (8 past 2^31 ranks) and records up to 4 (the positions the
    count decides go straight into the queue: no list of them, no summaries).

    >>> loopy_bytes(10**9, True, True) // 10**9, loopy_bytes(10**9, False, True) // 10**9
    (27, 15)
    """
    if has_children:
        return LOOPY_BYTES_PER_RANK * size
    return (1 + 4 + (2 if moves_below_2_16 else 4) + (4 if size < 2**31 else 8) + 4) * size


def _grouped(
    positions: NDArray[np.int64], levels: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """`positions` sorted by level (then rank) and the start of each level's group."""
    order = np.lexsort((positions, levels))
    top = int(levels.max()) + 1 if len(levels) else 0
    starts = np.zeros(top + 1, dtype=np.int64)
    np.cumsum(np.bincount(levels, minlength=top), out=starts[1:])
    return positions[order], starts


class _Tier:
    """The work arrays of one loopy tier."""

    def __init__(self, size: int, has_out: bool, counter_dtype: type[np.integer]) -> None:
        self.value = np.full(size, NO_POSITION_VALUE, dtype=np.uint8)
        self.rem = np.full(size, -1, dtype=np.int32)
        self.counter = np.zeros(size, dtype=counter_dtype)
        self.has_out = has_out
        n_out = size if has_out else 1
        self.out_win = np.zeros(n_out, dtype=np.int32)
        self.out_lose = np.zeros(n_out, dtype=np.int32)
        self.out_tie = np.zeros(n_out, dtype=np.int32)
        self.blocked = np.zeros(n_out, dtype=np.bool_)
        # Each position enters the queue once, when decided: `size` entries are enough.
        self.queue: NDArray[np.integer] = np.empty(
            size, dtype=np.int32 if size < 2**31 else np.int64
        )


def _count(
    game: TieredGame,
    tier: int,
    work: _Tier,
    children: Sequence[SolvedTier],
    pool: ThreadPoolExecutor | None,
    advance: Callable[[int], None] | None,
) -> None:
    size = len(work.value)

    def one(start: int) -> None:
        stop = min(start + BATCH, size)
        ranks = slot_ranks(game, tier, start, stop)
        batch = expand(game, tier, ranks, children, False)
        moves = batch.moves
        most = int(np.diff(moves.indptr).max(initial=0))
        bad = init_loopy(
            ranks, moves.primitive, moves.indptr, moves.which, moves.rank, batch.child_value,
            batch.child_rem, work.has_out, work.value, work.rem, work.counter, work.out_win,
            work.out_lose, work.out_tie, work.blocked, np.empty(most, dtype=np.int64),
        )  # fmt: skip
        if bad >= 0:
            parent = int(ranks[np.searchsorted(moves.indptr, bad, side="right") - 1])
            raise GameDefinitionError(
                f"{game.info.name}: tier {tier} rank {parent} has a move to rank "
                f"{int(moves.rank[bad])} of its own tier, outside 0..{size - 1}"
            )
        if advance is not None:
            advance(stop - start)

    starts = range(0, size, BATCH)
    if pool is None:
        for start in starts:
            one(start)
    else:
        list(pool.map(one, starts))


def _parents(
    game: TieredGame, tier: int, frontier: NDArray[np.integer], pool: ThreadPoolExecutor | None
) -> list[tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]]:
    """``(batch, indptr, parent ranks)`` for the frontier, in order, batches in parallel."""

    def one(start: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        batch = frontier[start : start + _PARENT_BATCH].astype(np.int64)
        indptr, parents = game.parents(tier, batch)
        indptr = np.asarray(indptr, dtype=np.int64)
        if indptr.shape != (len(batch) + 1,) or (len(batch) and indptr[-1] != len(parents)):
            raise GameDefinitionError(
                f"{game.info.name}: parents({tier}, ...) gave an indptr that does not fit "
                f"{len(batch)} ranks"
            )
        return batch, indptr, np.asarray(parents, dtype=np.int64)

    starts = range(0, len(frontier), _PARENT_BATCH)
    if pool is None or len(frontier) <= _PARENT_BATCH:
        return [one(s) for s in starts]
    return list(pool.map(one, starts))


def _not_inverse(
    game: TieredGame,
    tier: int,
    batch: NDArray[np.int64],
    indptr: NDArray[np.int64],
    parents: NDArray[np.int64],
    bad: int,
) -> GameDefinitionError:
    child = int(batch[np.searchsorted(indptr, bad, side="right") - 1])
    return GameDefinitionError(
        f"{game.info.name}: parents({tier}, ...) of rank {child} lists rank "
        f"{int(parents[bad])}, which has no such move (parents are not inverse to children)"
    )


def _propagate(
    game: TieredGame,
    tier: int,
    work: _Tier,
    fixed: tuple[NDArray[np.int64], NDArray[np.int64]],
    candidates: tuple[NDArray[np.int64], NDArray[np.int64]],
    candidate_value: int,
    pool: ThreadPoolExecutor | None,
    queued: int = 0,
) -> None:
    """Run one phase (WIN/LOSE, or TIE) level by level until no level has anything left; the
    first `queued` entries of the queue are decided at level 0 already."""
    win_lose = candidate_value == WIN
    top = max(len(fixed[1]), len(candidates[1]))
    bucket_head = np.full(int(work.out_lose.max(initial=0)) + 2 if win_lose else 1, -1, np.int64)
    link = np.empty(len(work.value) if win_lose and work.has_out else 1, dtype=work.queue.dtype)
    buf = np.empty(0, dtype=np.int64)
    head, tail = 0, queued
    level = 0
    while True:
        tail = gather_level(
            level, fixed[0], fixed[1], candidates[0], candidates[1], candidate_value, bucket_head,
            link, work.value, work.rem, work.queue, tail,
        )  # fmt: skip
        if head == tail and level + 1 >= top and not bool((bucket_head[level + 1 :] >= 0).any()):
            return
        frontier = work.queue[head:tail]
        frontier.sort()
        head = tail
        groups = range(0, len(frontier), _PARENT_GROUP)
        for batch, indptr, parents in (
            found
            for g in groups
            for found in _parents(game, tier, frontier[g : g + _PARENT_GROUP], pool)
        ):
            if win_lose:
                most = int(np.diff(indptr).max(initial=0))
                if len(buf) < most:
                    buf = np.empty(most, dtype=np.int64)
                tail, bad = apply_win_lose_level(
                    level, batch, indptr, parents, work.has_out, work.value, work.rem,
                    work.counter, work.out_win, work.out_lose, work.blocked, work.queue, tail,
                    bucket_head, link, buf,
                )  # fmt: skip
            else:
                tail, bad = apply_tie_level(
                    level, batch, indptr, parents, work.value, work.rem, work.queue, tail
                )
            if bad >= 0:
                raise _not_inverse(game, tier, batch, indptr, parents, bad)
        level += 1


def solve_loopy(
    game: TieredGame,
    tier: int,
    children: Sequence[SolvedTier],
    *,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> tuple[NDArray[np.unsignedinteger], int]:
    """Records (value and remoteness) of every rank of a tier with moves inside it.

    Parameters
    ----------
    game, tier : the tiered game and the tier (``game.parents`` is required).
    children : sequence of SolvedTier
        The solved tiers of ``game.child_tiers(tier)``, in that order.
    jobs : int
        Threads for the counting pass and the parents of large levels.
    advance : callable, optional
        Called with the number of ranks counted after each batch (a progress bar).

    Returns
    -------
    records, most
        Per rank, the packed value for the player to move and remoteness
        (:mod:`perfectplay.tiers.records`: 0 where the rank is no position), in the narrowest
        record dtype that holds them; the largest remoteness (0 if none).

    Raises
    ------
    GameDefinitionError
        If the game's moves and un-moves do not agree, or its arrays are inconsistent.

    Notes
    -----
    Cost: one ``children`` call per rank, one ``parents`` call per position decided WIN, LOSE
    or TIE, O(1) work per move and un-move. Memory: :data:`LOOPY_BYTES_PER_RANK` bytes per
    rank of the tier plus the child tiers' records.
    """
    size = game.tier_size(tier)
    bound = game.max_moves()
    counter_dtype = np.uint16 if bound is not None and bound < 2**16 else np.int32
    work = _Tier(size, len(children) > 0, counter_dtype)
    pool = ThreadPoolExecutor(jobs) if jobs > 1 else None
    try:
        _count(game, tier, work, children, pool, advance)
        value, rem = work.value, work.rem
        none = _grouped(np.empty(0, np.int64), np.empty(0, np.int64))
        if not work.has_out:
            # Without earlier tiers the count decides only primitives (remoteness 0): they go
            # straight into the queue, in rank order, as level 0 would put them.
            queued = enqueue_decided(value, work.queue)
            _propagate(game, tier, work, none, none, WIN, pool, queued)
        else:
            decided = (value == WIN) | (value == LOSE)
            open_ = value == UNDECIDED
            # Positions whose children all lie in earlier tiers and cannot win or tie: LOSE.
            sure = open_ & (work.counter == 0) & ~work.blocked & (work.out_win == 0)
            value[sure] = LOSE
            rem[sure] = work.out_lose[sure]
            decided |= sure
            cand = np.flatnonzero(open_ & ~sure & (work.out_win > 0))
            candidates = _grouped(cand, work.out_win[cand].astype(np.int64))
            fixed_ranks = np.flatnonzero(decided)
            _propagate(
                game, tier, work, _grouped(fixed_ranks, rem[fixed_ranks].astype(np.int64)),
                candidates, WIN, pool,
            )  # fmt: skip
        ties = np.flatnonzero(value == TIE)
        if work.has_out:
            cand = np.flatnonzero((value == UNDECIDED) & (work.out_tie > 0))
            tie_candidates = _grouped(cand, work.out_tie[cand].astype(np.int64))
        else:
            tie_candidates = _grouped(np.empty(0, np.int64), np.empty(0, np.int64))
        if len(ties) or len(tie_candidates[0]):
            _propagate(
                game, tier, work, _grouped(ties, np.zeros(len(ties), np.int64)), tie_candidates,
                TIE, pool,
            )  # fmt: skip
    finally:
        if pool is not None:
            pool.shutdown()
    most = max(int(rem.max(initial=0)), 0)
    records = np.empty(size, dtype=record_dtype(most))
    finish_records(value, rem, records)
    return records, most
