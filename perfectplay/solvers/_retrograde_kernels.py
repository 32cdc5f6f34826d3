"""numba kernels of retrograde analysis, one per named step (each is tested on its own).

The steps, in the order :func:`perfectplay.solvers.retrograde.solve_retrograde` runs them:

1. :func:`count_children` - every position's number of moves (multi-edges count twice).
2. :func:`seed_primitives` - positions decided by the rules or without moves get their value
   and remoteness 0; the WIN/LOSE ones enter the queue.
3. :func:`propagate_win_lose` - breadth first over predecessors: a LOSE child makes its parent
   a WIN; a parent whose every move leads to a WIN becomes a LOSE.
4. :func:`seed_ties` - TIE primitives enter the queue once WIN/LOSE reached its fixed point.
5. :func:`propagate_ties` - breadth first: an undecided parent of a TIE becomes a TIE.
6. :func:`mark_draws` - writes the values; whatever is still undecided is a DRAW.

One array, ``state``, holds both the move counters and the values while solving, so that
each move looked at touches one random memory location, not two:

- ``state[p] > 0``: `p` is undecided, and ``state[p]`` of its moves are not (yet) known to
  lead to a WIN;
- ``state[p] <= 0``: `p` is decided and its value is ``-state[p]`` (LOSE = 0, TIE = -2,
  WIN = -3). A counter reaching 0 thus reads as LOSE, which is exactly what it means.

``queue`` is one buffer of n slots shared by both propagations: a position enters it only
when it is decided, and it is decided once, so at most n positions ever enter it. Each
propagation starts from positions of remoteness 0 and dequeues in the order of entry;
positions entering while level r is dequeued get r + 1, so every position is processed in
non-decreasing remoteness and the kernels track the level instead of reading it back: the
first LOSE child seen is the nearest one (the winner's shortest win), the last WIN child
seen the farthest one (the loser's longest loss), the first TIE child seen the nearest one.

Random reads dominate on large graphs: each dequeued position's range in the reverse CSR,
its predecessors, and their `state` entries, each depending on the one before. A level is
known in full before it is dequeued, so both propagations issue software prefetches (the
``llvm.prefetch`` hint of :mod:`perfectplay.solvers._dag_kernels`) for the positions a few
entries ahead, keeping many cache misses in flight instead of one after another (on
graphs of at least ``PREFETCH_MIN_MOVES`` moves; smaller ones stay in cache).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay._prefetch import prefetch as _prefetch
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

__all__ = [
    "count_children",
    "mark_draws",
    "propagate_ties",
    "propagate_win_lose",
    "seed_primitives",
    "seed_ties",
    "sort_level",
]


# Bit index of a power of two by a de Bruijn multiplication (numba has no portable ctz).
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % 2**64) >> 58] = _i
del _i


# How many queue entries ahead the propagations prefetch (measured on random graphs of 10^6
# and 10^7 positions): a position's range in the reverse CSR AHEAD entries ahead, its
# predecessors AHEAD / 2 ahead, their `state` entries AHEAD / 4 ahead, each stage reading
# what the previous one brought into cache. (The prefetches are written out in the dequeuing
# loop of _propagate: a helper function for them measured no faster than no prefetching.)
AHEAD = 16
# Below this many moves the reverse CSR and `state` stay in cache and prefetching only costs
# instructions (10% slower at 10^5 positions, 4 * 10^5 moves): it is skipped.
PREFETCH_MIN_MOVES = 1 << 20


@nb.njit(cache=True)
def count_children(indptr, state):  # type: ignore[no-untyped-def]
    """``state[p]`` = number of moves from ``p`` (a move counted once per edge)."""
    for p in range(state.shape[0]):
        state[p] = indptr[p + 1] - indptr[p]


@nb.njit(cache=True)
def seed_primitives(primitive, terminal_value, state, queue):  # type: ignore[no-untyped-def]
    """Decide the positions the rules decide; return how many entered `queue`.

    Runs after :func:`count_children`. A position with a primitive value (not UNDECIDED)
    gets it; a position without moves (``state[p] == 0``) and without a primitive value gets
    `terminal_value` (LOSE in normal play, WIN in misere play). The WIN and LOSE ones are
    queued in position order (remoteness 0); TIE primitives wait for :func:`seed_ties`.
    Every other position keeps its move count.
    """
    tail = 0
    for p in range(state.shape[0]):
        v = primitive[p]
        if v == UNDECIDED and state[p] == 0:
            v = terminal_value
        if v == UNDECIDED:
            continue
        state[p] = -v
        if v != TIE:
            queue[tail] = p
            tail += 1
    return tail


@nb.njit(cache=True)
def sort_level(queue, start, stop, marks):  # type: ignore[no-untyped-def]
    """Sort ``queue[start:stop]`` (distinct positions) in place when that is cheap; return it.

    `marks` is a zeroed bitmap of ``ceil(n / 64)`` words, left zeroed. Order inside a level
    does not matter to the result; position order makes the walk over the reverse CSR and
    the writes to `remoteness` sequential instead of random, which is where the time goes on
    large graphs. The bitmap is scanned from the lowest to the highest marked word, so the
    sort only runs when the level has at least one position per 8 words of that span
    (O(level size) either way); smaller levels keep their queue order.
    """
    size = stop - start
    if size < 2:
        return False
    low = queue[start]
    high = low
    for i in range(start, stop):
        low = min(low, queue[i])
        high = max(high, queue[i])
    first_word = low >> 6
    last_word = high >> 6
    if 8 * size < last_word - first_word + 1:
        return False
    for i in range(start, stop):
        p = queue[i]
        marks[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    i = start
    for w in range(first_word, last_word + 1):
        word = marks[w]
        marks[w] = 0
        while word:
            bit = word & (~word + np.uint64(1))
            queue[i] = (w << 6) + _BIT_INDEX[(bit * _DE_BRUIJN) >> np.uint64(58)]
            i += 1
            word ^= bit
    return True


@nb.njit(cache=True)
def propagate_win_lose(rindptr, rindices, state, remoteness, queue, marks, head, tail):  # type: ignore[no-untyped-def]
    """Run the WIN/LOSE queue ``queue[head:tail]`` (remoteness 0) to its fixed point.

    Each dequeued LOSE position makes every undecided predecessor a WIN. Each dequeued WIN
    position takes one off the counter of every undecided predecessor, once per move; a
    counter reaching 0 means every move leads to a WIN: a LOSE. Newly decided positions join
    the queue one level (one move of remoteness) further; each level is sorted by
    :func:`sort_level` before it is dequeued and its remoteness is written then.
    Returns the new tail.
    """
    return _propagate(rindptr, rindices, state, remoteness, queue, marks, head, tail, False)


@nb.njit(cache=True)
def seed_ties(state, queue, tail):  # type: ignore[no-untyped-def]
    """Append every TIE position (after WIN/LOSE, only TIE primitives) to `queue`; new tail."""
    for p in range(state.shape[0]):
        if state[p] == -TIE:
            queue[tail] = p
            tail += 1
    return tail


@nb.njit(cache=True)
def propagate_ties(rindptr, rindices, state, remoteness, queue, marks, head, tail):  # type: ignore[no-untyped-def]
    """Run the TIE queue ``queue[head:tail]`` (remoteness 0): undecided predecessors tie.

    Called after :func:`propagate_win_lose`, so an undecided position has no LOSE child and
    at least one move not leading to a WIN: one TIE child makes it a TIE, one move further
    than its nearest TIE child (its first one dequeued). Levels as in
    :func:`propagate_win_lose`. Returns the new tail.
    """
    return _propagate(rindptr, rindices, state, remoteness, queue, marks, head, tail, True)


@nb.njit(cache=True)
def _propagate(rindptr, rindices, state, remoteness, queue, marks, head, tail, ties):  # type: ignore[no-untyped-def]
    """The level-by-level pipeline both propagations run: sort a level, dequeue it with
    prefetches ahead, write each position's remoteness and update its undecided predecessors.

    A predecessor is decided at once by a dequeued TIE (`ties`: it ties) or LOSE (it wins);
    a dequeued WIN takes one off its counter instead, deciding it (a LOSE) at 0.
    """
    level = 0
    prefetch = rindices.shape[0] >= PREFETCH_MIN_MOVES
    decided = -TIE if ties else -WIN
    while head < tail:
        level_end = tail
        sort_level(queue, head, level_end, marks)
        # Prefetch, stage by stage, what dequeuing the entries before `ahead_end` will read.
        ahead_end = level_end if prefetch else 0
        for i in range(head, level_end):
            if i + AHEAD < ahead_end:
                _prefetch(rindptr, queue[i + AHEAD])
            if i + AHEAD // 2 < ahead_end:
                _prefetch(rindices, rindptr[queue[i + AHEAD // 2]])
            if i + AHEAD // 4 < ahead_end:
                w = queue[i + AHEAD // 4]
                for e in range(rindptr[w], rindptr[w + 1]):
                    _prefetch(state, rindices[e])
            c = queue[i]
            remoteness[c] = level
            at_once = ties or state[c] == -LOSE
            for e in range(rindptr[c], rindptr[c + 1]):
                p = rindices[e]
                s = state[p]
                if s <= 0:
                    continue
                if at_once:
                    state[p] = decided
                else:
                    state[p] = s - 1
                    if s != 1:
                        continue
                queue[tail] = p
                tail += 1
        head = level_end
        level += 1
    return tail


@nb.njit(cache=True)
def mark_draws(state, value, remoteness):  # type: ignore[no-untyped-def]
    """Write ``value`` from `state`: decided positions keep theirs, undecided ones are DRAW.

    A DRAW gets remoteness -1. Returns the number of DRAW positions. Written without branches
    (every entry of `remoteness` is rewritten, decided ones with their own value) so that
    the loop vectorises: undecided positions are scattered at random and a branch on them
    would mispredict often (6x slower on random graphs).
    """
    draws = 0
    for p in range(state.shape[0]):
        s = state[p]
        undecided = s > 0
        value[p] = DRAW if undecided else -s
        remoteness[p] = NO_REMOTENESS if undecided else remoteness[p]
        draws += undecided
    return draws
