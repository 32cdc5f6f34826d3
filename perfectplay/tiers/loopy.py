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

from perfectplay._mappings import populated_empty, populated_zeros
from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers._kernels import (
    NO_POSITION_VALUE,
    apply_tie_level,
    apply_win_lose_level,
    file_levels,
    finish_records,
    gather_level,
    init_loopy,
    most_level,
    next_level,
    take_level,
    widest_run,
)
from perfectplay.tiers.expand import BATCH, SolvedTier, expand, slot_ranks
from perfectplay.tiers.records import record_dtype

__all__ = ["LOOPY_BYTES_PER_RANK", "loopy_bytes", "solve_loopy"]

LOOPY_BYTES_PER_RANK = 11
"""Work memory per rank of a loopy tier with earlier tiers, at most, where positions have fewer
than 2^16 moves and the tier fewer than 2^31 ranks (:func:`loopy_bytes` in general)."""

_PARENT_BATCH = 1 << 14
_PARENT_GROUP = _PARENT_BATCH << 6
"""Positions of a level whose parents are held at once (a level of Dobutsu Shogi has 2.4e8
positions and 1.2e9 parents: asked for in groups, they take tens of MB instead of 10 GB)."""


_NO_LIMIT = 1 << 62
"""The queue's limit once no section is filed at its end."""


def _counter_dtype(max_moves: int | None) -> type[np.unsignedinteger]:
    """The narrowest counter holding a position's number of moves."""
    if max_moves is None or max_moves >= 2**16:
        return np.uint32
    return np.uint8 if max_moves < 2**8 else np.uint16


def _queue_dtype(size: int) -> type[np.signedinteger]:
    return np.int32 if size < 2**31 else np.int64


def loopy_bytes(size: int, has_children: bool, max_moves: int | None, levels: int = 0) -> int:
    """Work memory of a loopy tier of `size` ranks, at most (the arrays :func:`solve_loopy`
    holds at once; the game's batches of moves and parents come on top).

    `levels` bounds the levels of remoteness, the tier's and its children's (1 + their largest
    remoteness): 64 bytes each count the positions entering at each level, bound the sections
    filed for each level and where each level's run of the queue ends (kilobytes where
    remoteness stays in the hundreds; left out where not known yet).

    Per rank: value 1, the counter of open children 1, 2 or 4 (`max_moves`, the game's bound
    on moves per position, below 2^8, 2^16 or not), the queue 4 (8 from 2^31 ranks) and, with
    earlier tiers, their children's summary up to 4 (as wide as the widest child record:
    unknown before they are solved). The records written at the end (up to 4 bytes) replace
    the counter and the summary.

    >>> loopy_bytes(10**9, True, 864) // 10**9, loopy_bytes(10**9, False, 864) // 10**9
    (11, 9)
    """
    value, queue = 1, np.dtype(_queue_dtype(size)).itemsize
    solving = value + np.dtype(_counter_dtype(max_moves)).itemsize + queue
    solving += 4 if has_children else 0
    return max(solving, value + queue + 4) * size + 64 * levels


def _out_dtype(children: Sequence[SolvedTier]) -> type[np.unsignedinteger]:
    """The summary of children in earlier tiers, as wide as their widest record: a record of
    ``b`` bits holds remoteness below ``2^(b - 2) - 1``, so a level (1 + remoteness) and the
    summary's two kind bits fit ``b`` bits."""
    widest = max((c.records.dtype.itemsize for c in children), default=1)
    if widest > 2:
        return np.uint32
    return np.uint8 if widest == 1 else np.uint16


class _Tier:
    """The work arrays of one loopy tier: per rank its value, its number of open children
    inside the tier, the summary of its children in earlier tiers (``out``, kinds in
    :func:`~perfectplay.tiers._kernels.init_loopy`) and the queue of positions in the order
    decided, level after level: its runs give the remoteness of each. They are mapped at once
    and reused from tier to tier (:func:`~perfectplay._mappings.populated_empty`)."""

    def __init__(
        self,
        size: int,
        children: Sequence[SolvedTier],
        counter_dtype: type[np.unsignedinteger],
    ) -> None:
        self.value = populated_empty(size, np.uint8)
        self.value.fill(NO_POSITION_VALUE)
        self.counter: NDArray[np.unsignedinteger] = populated_zeros(size, counter_dtype)
        self.has_out = len(children) > 0
        out_dtype = _out_dtype(children)
        self.out: NDArray[np.unsignedinteger] = populated_zeros(
            size if self.has_out else 1, out_dtype
        )
        self.top = 1 << (8 * np.dtype(out_dtype).itemsize - 2)
        # Each position enters the queue once, when decided: `size` entries are enough.
        self.queue: NDArray[np.integer] = populated_empty(size, _queue_dtype(size))


def _count(
    game: TieredGame,
    tier: int,
    work: _Tier,
    children: Sequence[SolvedTier],
    pool: ThreadPoolExecutor | None,
    advance: Callable[[int], None] | None,
) -> tuple[int, bool]:
    """The first pass (:func:`~perfectplay.tiers._kernels.init_loopy`, batches in parallel);
    returns the highest level of the summaries of children in earlier tiers (0 if none) and
    whether a TIE primitive or a TIE child in an earlier tier was met."""
    size = len(work.value)
    levels: list[int] = [0]  # one entry per batch (list.append is atomic)
    ties: list[bool] = [False]

    def one(start: int) -> None:
        stop = min(start + BATCH, size)
        ranks = slot_ranks(game, tier, start, stop)
        batch = expand(game, tier, ranks, children, False)
        moves = batch.moves
        most = int(widest_run(moves.indptr))
        if most > np.iinfo(work.counter.dtype).max:
            raise GameDefinitionError(
                f"{game.info.name}: a position of tier {tier} has {most} moves, more than "
                f"max_moves() = {game.max_moves()}"
            )
        bad, level, tied = init_loopy(
            ranks, moves.primitive, moves.indptr, moves.which, moves.rank, batch.child_value,
            batch.child_rem, work.has_out, work.value, work.counter, work.out, work.top,
            np.empty(most, dtype=np.int64),
        )  # fmt: skip
        levels.append(level)
        ties.append(tied)
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
    return max(levels), any(ties)


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
    tie: bool,
    start: int,
    levels: int,
    pool: ThreadPoolExecutor | None,
) -> NDArray[np.int64]:
    """Run one phase (WIN/LOSE, or TIE) level by level from queue entry `start` until no level
    has anything left; returns where each level's run of the queue ends (``ends[level]``).

    The positions the first pass may decide at a level are filed at the end of the queue, a
    section per level (:func:`~perfectplay.tiers._kernels.file_levels`), and each level takes
    its section; while the queue grows towards the sections not taken yet, up to the next one.
    Where they do not fit, or the queue would reach them, each level scans the tier instead
    (:func:`~perfectplay.tiers._kernels.gather_level`): the same positions, a pass per level.
    """
    counts = np.empty(levels, dtype=np.int64)
    sections = np.empty(levels + 1, dtype=np.int64)
    filed = file_levels(
        work.value, work.out, work.top, work.has_out, tie, work.queue, start, counts, sections
    )
    ends = np.empty(len(counts) + 1, dtype=np.int64)
    buf = np.empty(0, dtype=np.int64)
    head = tail = start
    level = 0
    while True:
        if level < len(counts) and counts[level]:
            if filed:
                tail = take_level(
                    level, work.value, work.out, work.top, tie, work.queue, tail,
                    sections[level], sections[level + 1],
                )  # fmt: skip
            else:
                tail = gather_level(
                    level, work.value, work.out, work.top, tie, counts[level], work.queue, tail
                )
        if level >= len(ends):
            ends = np.concatenate([ends, np.empty(len(ends) + 1, np.int64)])
        ends[level] = tail
        if head == tail:
            ahead = next_level(counts, level)
            if ahead < 0:
                return ends[: level + 1]
            ends[level:ahead] = tail
            level = ahead
            continue
        frontier = work.queue[head:tail]
        frontier.sort()
        head = tail
        groups = range(0, len(frontier), _PARENT_GROUP)
        for batch, indptr, parents in (
            found
            for g in groups
            for found in _parents(game, tier, frontier[g : g + _PARENT_GROUP], pool)
        ):
            if not tie:
                most = int(widest_run(indptr))
                if len(buf) < most:
                    buf = np.empty(most, dtype=np.int64)
            done = 0
            while True:
                limit = int(sections[min(level + 1, len(counts))]) if filed else _NO_LIMIT
                part, pindptr = batch[done:], indptr[done:] - indptr[done]
                pparents = parents[indptr[done] :]
                if tie:
                    tail, bad, stop = apply_tie_level(
                        level, part, pindptr, pparents, work.has_out, work.value, work.out,
                        work.top, work.queue, tail, limit, counts,
                    )  # fmt: skip
                else:
                    tail, bad, stop = apply_win_lose_level(
                        level, part, pindptr, pparents, work.has_out, work.value,
                        work.counter, work.out, work.top, work.queue, tail, limit, counts, buf,
                    )  # fmt: skip
                if bad >= 0:
                    raise _not_inverse(game, tier, part, pindptr, pparents, bad)
                if stop < 0:
                    break
                # The queue would reach the sections filed: the levels left scan the tier.
                filed = False
                done += stop
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
    or TIE, O(1) work per move and un-move, plus a scan of the tier for each level at which
    positions enter from earlier tiers. Memory: :func:`loopy_bytes` for the tier plus the
    child tiers' records.
    """
    size = game.tier_size(tier)
    work = _Tier(size, children, _counter_dtype(game.max_moves()))
    pool = ThreadPoolExecutor(jobs) if jobs > 1 else None
    try:
        most, tied = _count(game, tier, work, children, pool, advance)
        win_lose = _propagate(game, tier, work, False, 0, 1 + most, pool)
        # Without a TIE to start from, the TIE phase would scan the tier to find nothing.
        ties = (
            _propagate(game, tier, work, True, int(win_lose[-1]), 1 + most, pool)
            if tied
            else win_lose[-1:]
        )
    finally:
        if pool is not None:
            pool.shutdown()
    # The records take the room of the counter and the summary.
    del work.counter, work.out
    most = int(most_level(win_lose, ties))
    records = populated_empty(size, record_dtype(most))
    finish_records(work.value, work.queue, win_lose, ties, records)
    return records, most
