"""numba kernels of the DAG solver: topological order (Kahn), cycle witness, minimax sweep.

The sweep packs each position's value and remoteness into one integer *key*, ordered by how
much the player moving INTO that position likes it, so the retrograde rules become a single
maximum over the children (one random read per move instead of two):

* a child LOSE in r moves -> ``(3 << SHIFT) + (LOW - r)``  (best: a win, the sooner the better)
* a child TIE in r moves  -> ``(2 << SHIFT) + (LOW - r)``  (a tie, the sooner the better)
* a child DRAW            -> ``1 << SHIFT``
* a child WIN in r moves  -> ``r``                        (a loss, the later the better)

where ``LOW = (1 << SHIFT) - 1``. The best child key decides the parent: a LOSE child makes the
parent WIN in ``1 + r``; a TIE child a TIE in ``1 + r``; a DRAW child a DRAW; otherwise every
child is a WIN for its mover and the parent LOSEs in ``1 + (largest r)``. Remoteness never
exceeds ``n - 1`` in an acyclic graph, so ``SHIFT`` must satisfy ``n <= LOW``; keys are int32
with ``SHIFT = 29`` while that holds, int64 with ``SHIFT = 61`` beyond.

Random reads (a child's key, a position's moves) dominate on large graphs. The loops know
their future addresses a few positions ahead, so they issue software prefetches (LLVM's
``llvm.prefetch``, a hint that never faults) to keep many cache misses in flight.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from perfectplay._prefetch import prefetch as _prefetch
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

__all__ = [
    "OK",
    "OVERFLOW",
    "SHIFT32",
    "SHIFT64",
    "UNORDERED",
    "count_indegree",
    "cycle_witness",
    "decode",
    "kahn_order",
    "monotone_direction",
    "sweep",
    "sweep_ordered",
]

SHIFT32 = 29
SHIFT64 = 61

# Return codes of the sweep.
OK = 0
OVERFLOW = 1
UNORDERED = 2

# A one-byte in-degree counter stops at WIDE; further moves in are counted in a wide array.
WIDE = 255

# How far ahead (in moves or positions) the loops prefetch: enough misses in flight to hide
# memory latency, little enough that prefetched lines are still cached when used.
AHEAD = 32


_trailing_zeros: Any = trailing_zeros  # the index of the lowest set bit of a nonzero word


@nb.njit(cache=True)
def monotone_direction(indptr, indices):  # type: ignore[no-untyped-def]
    """+1 if every move goes to a larger id, -1 if every move goes to a smaller id, else 0.

    A graph without moves counts as +1. One pass over the moves, no allocation.
    """
    n = indptr.shape[0] - 1
    up = True
    down = True
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if v <= u:
                up = False
            if v >= u:
                down = False
        if not up and not down:
            return 0
    return 1 if up else -1


@nb.njit(cache=True)
def _is_end(u, indptr, primitive):  # type: ignore[no-untyped-def]
    """The game is over at `u`: no moves, or a value fixed by the rules (moves ignored)."""
    return indptr[u] == indptr[u + 1] or (primitive.shape[0] > 0 and primitive[u] != UNDECIDED)


@nb.njit(cache=True)
def _sort_wave(order, lo, hi, bits):  # type: ignore[no-untyped-def]
    """Sort ``order[lo:hi]`` (distinct ids) ascending through the bitmap `bits`, if dense.

    Sorted, a wave reads the graph's arrays in increasing addresses, close together (cache
    lines and pages shared, hardware prefetch). Only dense waves are sorted, where the bitmap
    words scanned, ``(largest - smallest) / 64``, are at most 4 per id: O(hi - lo) time.
    `bits` (one bit per position) is all zero on entry and on return.
    """
    if hi - lo < 64:
        return
    smallest = order[lo]
    largest = order[lo]
    for k in range(lo + 1, hi):
        smallest = min(smallest, order[k])
        largest = max(largest, order[k])
    if (largest - smallest) >> 6 > 4 * (hi - lo):
        return
    for k in range(lo, hi):
        v = order[k]
        bits[v >> 6] |= np.uint64(1) << np.uint64(v & 63)
    k = lo
    for w in range(smallest >> 6, (largest >> 6) + 1):
        word = bits[w]
        if word == 0:
            continue
        bits[w] = 0
        while word != 0:
            order[k] = (w << 6) + _trailing_zeros(word)
            k += 1
            word &= word - np.uint64(1)


@nb.njit(cache=True)
def count_indegree(indptr, indices, primitive, indegree, excess):  # type: ignore[no-untyped-def]
    """Count each position's moves in: up to WIDE in `indegree`, the rest in `excess`.

    Moves from positions where the game is over (primitive) are not counted. Both arrays are
    zeroed on entry. One-byte counters stay in cache; `excess` is touched only at the few
    positions with more than WIDE moves in, so its untouched pages are never even mapped.
    """
    n = indptr.shape[0] - 1
    m = indices.shape[0]
    has_primitive = primitive.shape[0] > 0
    for u in range(n):
        if has_primitive and primitive[u] != UNDECIDED:
            continue
        for e in range(indptr[u], indptr[u + 1]):
            if e + AHEAD < m:
                _prefetch(indegree, indices[e + AHEAD])
            v = indices[e]
            count = indegree[v]
            if count < WIDE:
                indegree[v] = count + 1
            else:
                excess[v] += 1


@nb.njit(cache=True)
def kahn_order(  # type: ignore[no-untyped-def]
    indptr, indices, primitive, order, indegree, excess, bits, kptr, kids, gain, kgain
):  # fmt: skip
    """Fill `order` with a topological order (every move goes later); return how many fit.

    `indegree` and `excess` hold what `count_indegree` counted; `indegree` is left nonzero
    exactly at the positions not placed, those with moves in from other unplaced positions:
    fewer than n placed means a cycle. Moves from positions where the game is over
    (primitive) are ignored. `order` has n + 1 slots (the last one is scratch for the
    branch-free push) and each position enters it at most once, when its last incoming move
    is removed.

    Positions are placed wave by wave (a wave: those freed by the previous one). Each wave is
    sorted by id if dense (`bits`: n bits, zeroed; see `_sort_wave`), then handled in two
    passes with one kind of random access each: `_copy_moves` copies its moves, and
    `_release` removes them from the in-degrees of their targets, reading the copy
    sequentially. The copy stays for the sweep: the moves of ``order[k]`` are
    ``kids[kptr[k]:kptr[k + 1]]`` (primitive positions get none), their gains in `kgain` if
    `gain` is not empty. `kptr` has n + 1 slots and `kids` (`kgain`) m.
    """
    n = indptr.shape[0] - 1
    tail = 0
    for u in range(n):
        if indegree[u] == 0:
            order[tail] = u
            tail += 1
    head = 0
    kptr[0] = 0
    while head < tail:
        wave_end = tail
        _sort_wave(order, head, wave_end, bits)
        _copy_moves(order, head, wave_end, indptr, indices, primitive, gain, kptr, kids, kgain)
        tail = _release(kids, kptr[head], kptr[wave_end], indegree, excess, order, tail)
        head = wave_end
    return tail


@nb.njit(cache=True)
def _copy_moves(  # type: ignore[no-untyped-def]
    order, lo, hi, indptr, indices, primitive, gain, kptr, kids, kgain
):  # fmt: skip
    """Copy the moves of ``order[lo:hi]`` (none for primitive positions) after ``kptr[lo]``.

    Prefetches the move range of the position AHEAD on and the moves of the one AHEAD / 2 on.
    """
    has_primitive = primitive.shape[0] > 0
    has_gain = gain.shape[0] > 0
    copied = kptr[lo]
    for k in range(lo, hi):
        if k + AHEAD < hi:
            _prefetch(indptr, order[k + AHEAD])
        if k + AHEAD // 2 < hi:
            first = indptr[order[k + AHEAD // 2]]
            _prefetch(indices, first)
            if has_gain:
                _prefetch(gain, first)
        u = order[k]
        if not (has_primitive and primitive[u] != UNDECIDED):
            for e in range(indptr[u], indptr[u + 1]):
                kids[copied] = indices[e]
                if has_gain:
                    kgain[copied] = gain[e]
                copied += 1
        kptr[k + 1] = copied


@nb.njit(cache=True)
def _release(kids, lo, hi, indegree, excess, order, tail):  # type: ignore[no-untyped-def]
    """Remove the moves ``kids[lo:hi]`` from their targets' in-degrees; push each freed one.

    Returns the new `tail` of `order`. Prefetches the counter of the target AHEAD moves on.
    """
    for e in range(lo, hi):
        if e + AHEAD < hi:
            _prefetch(indegree, kids[e + AHEAD])
        v = kids[e]
        left = indegree[v]
        if left == WIDE and excess[v] > 0:
            excess[v] -= 1
        else:
            left -= 1
            indegree[v] = left
        order[tail] = v  # branch-free push: kept only if that was v's last move in
        tail += left == 0
    return tail


@nb.njit(cache=True)
def cycle_witness(rindptr, rindices, primitive, indegree, walk):  # type: ignore[no-untyped-def]
    """After a failed `kahn_order`: write one cycle into `walk`; return its length.

    Every unplaced position (``indegree > 0``) has an unplaced, non-primitive predecessor, so
    walking backwards through those never stops and must revisit a position; the walk from
    that position's first visit is a cycle. `walk` has n slots: positions are distinct until
    the repeat. The cycle is returned in move order (``walk[0] -> walk[1] -> ... -> walk[0]``).
    """
    n = indegree.shape[0]
    seen_at = np.full(n, -1, np.int64)
    u = 0
    while indegree[u] == 0:
        u += 1
    steps = 0
    while seen_at[u] < 0:
        seen_at[u] = steps
        walk[steps] = u
        steps += 1
        for e in range(rindptr[u], rindptr[u + 1]):
            p = rindices[e]
            if indegree[p] > 0 and (primitive.shape[0] == 0 or primitive[p] == UNDECIDED):
                u = p
                break
    start = seen_at[u]
    length = steps - start
    # The backward walk lists the cycle against the moves: reverse it, then move it to the front.
    for k in range(length // 2):
        walk[start + k], walk[steps - 1 - k] = walk[steps - 1 - k], walk[start + k]
    for k in range(length):
        walk[k] = walk[start + k]
    return length


@nb.njit(cache=True)
def _own_key(value, remoteness, shift):  # type: ignore[no-untyped-def]
    """The key of a position with this value and remoteness (see the module docstring)."""
    low = (1 << shift) - 1
    if value == LOSE:
        return (3 << shift) + (low - remoteness)
    if value == TIE:
        return (2 << shift) + (low - remoteness)
    if value == DRAW:
        return 1 << shift
    return remoteness


@nb.njit(cache=True)
def _parent_key(best, shift):  # type: ignore[no-untyped-def]
    """The key of a position whose best child (for its mover) has key `best`."""
    low = (1 << shift) - 1
    rank = best >> shift
    if rank == 3:  # a LOSE child in r: WIN in 1 + r
        return 1 + low - (best - (3 << shift))
    if rank == 2:  # a TIE child in r: TIE in 1 + r
        return (2 << shift) + (low - 1 - (low - (best - (2 << shift))))
    if rank == 1:  # a DRAW child
        return best
    return (3 << shift) + (low - 1 - best)  # every child WIN, the longest in r: LOSE in 1 + r


@nb.njit(cache=True)
def _move_score(e, c, gain, score):  # type: ignore[no-untyped-def]
    """``(gain[e] - score[c], wrapped)``: the move's worth and whether int64 overflowed."""
    g = gain[e] if gain.shape[0] > 0 else np.int64(0)
    s = score[c]
    r = g - s
    return r, ((g ^ s) & (g ^ r)) < 0


@nb.njit(cache=True)
def _end_key(u, primitive, no_move_key, shift):  # type: ignore[no-untyped-def]
    """The key of a position where the game is over: its fixed value, or `no_move_key`."""
    if primitive.shape[0] > 0 and primitive[u] != UNDECIDED:
        return _own_key(primitive[u], 0, shift)
    return no_move_key


@nb.njit(cache=True)
def sweep(  # type: ignore[no-untyped-def]
    indptr, indices, direction, primitive, no_move_value, gain, terminal, keys, shift, score,
    scored, info, verify,
):  # fmt: skip
    """Fill `keys` (and `score` if `scored`) taking the ids as the reverse topological order.

    The ids are taken in decreasing order when ``direction == 1`` (moves go up), in increasing
    order when -1. `primitive` is empty or holds UNDECIDED except fixed positions; `gain` is
    empty or per move; `terminal` is empty or per position; `shift` is SHIFT32 for int32 keys,
    SHIFT64 for int64. Returns OK, or OVERFLOW with the position whose score leaves int64 in
    ``info[0]``. With `verify` (only for ``direction == 1``), returns UNORDERED as soon as a
    position that is not over has a move to a smaller or equal id: the ids are not an order
    after all.
    """
    n = indptr.shape[0] - 1
    m = indices.shape[0]
    no_move_key = _own_key(no_move_value, 0, shift)
    for k in range(n):
        u = n - 1 - k if direction == 1 else k
        start = indptr[u]
        stop = indptr[u + 1]
        # Moves are met in index order (descending when direction is 1): prefetch the targets
        # of the moves AHEAD further on, as many as this position has.
        low = start - AHEAD if direction == 1 else start + AHEAD
        for e in range(max(low, 0), min(low + stop - start, m)):
            _prefetch(keys, indices[e])
            if scored:
                _prefetch(score, indices[e])
        if _is_end(u, indptr, primitive):
            keys[u] = _end_key(u, primitive, no_move_key, shift)
            if scored:
                score[u] = terminal[u] if terminal.shape[0] > 0 else 0
            continue
        best = keys[indices[start]]
        if verify:  # the same maximum, and the smallest target
            lowest = indices[start]
            for e in range(start + 1, stop):
                c = indices[e]
                best = max(best, keys[c])
                lowest = min(lowest, c)
            if lowest <= u:
                return UNORDERED
        else:
            for e in range(start + 1, stop):
                best = max(best, keys[indices[e]])  # branch-free: the loads overlap
        keys[u] = _parent_key(best, shift)
        if scored and _score_moves(u, start, stop, indices, gain, score, info):
            return OVERFLOW
    return OK


@nb.njit(cache=True, inline="always")
def _score_moves(u, start, stop, targets, gain, score, info):  # type: ignore[no-untyped-def]
    """Set ``score[u]`` to the best ``gain[e] - score[targets[e]]`` over ``start <= e < stop``.

    Returns True, with `u` in ``info[0]``, if a move's worth leaves int64 (score not set).
    """
    top, wrapped = _move_score(start, targets[start], gain, score)
    for e in range(start + 1, stop):
        r, wrapped_here = _move_score(e, targets[e], gain, score)
        wrapped |= wrapped_here
        top = max(top, r)
    if wrapped:
        info[0] = u
        return True
    score[u] = top
    return False


@nb.njit(cache=True)
def sweep_ordered(  # type: ignore[no-untyped-def]
    order, kptr, kids, primitive, no_move_value, kgain, terminal, keys, shift, score, scored, info
):
    """`sweep` in the order `kahn_order` found, on the moves it copied in that order.

    Positions are taken from ``order[n - 1]`` back to ``order[0]``; the moves of ``order[k]``
    are ``kids[kptr[k]:kptr[k + 1]]`` with gains `kgain` (empty when unscored), so the moves
    are read sequentially and only the keys (and scores) of their targets at random. A
    position with no copied moves is over: primitive, or without moves. Returns OK or
    OVERFLOW as `sweep`.
    """
    n = order.shape[0]
    no_move_key = _own_key(no_move_value, 0, shift)
    for k in range(n - 1, -1, -1):
        u = order[k]
        start = kptr[k]
        stop = kptr[k + 1]
        # The moves AHEAD further back, as many as this position has, and the position itself.
        low = start - AHEAD
        for e in range(max(low, 0), max(low + stop - start, 0)):
            _prefetch(keys, kids[e])
            if scored:
                _prefetch(score, kids[e])
        if k >= AHEAD // 2:
            _prefetch(keys, order[k - AHEAD // 2])
        if start == stop:
            keys[u] = _end_key(u, primitive, no_move_key, shift)
            if scored:
                score[u] = terminal[u] if terminal.shape[0] > 0 else 0
            continue
        best = keys[kids[start]]
        for e in range(start + 1, stop):
            best = max(best, keys[kids[e]])
        keys[u] = _parent_key(best, shift)
        if scored and _score_moves(u, start, stop, kids, kgain, score, info):
            return OVERFLOW
    return OK


@nb.njit(cache=True)
def decode(keys, shift, value, remoteness):  # type: ignore[no-untyped-def]
    """Unpack every key into `value` and `remoteness` (one sequential pass)."""
    for u in range(keys.shape[0]):
        value[u], remoteness[u] = _decode(keys[u], shift)


@nb.njit(cache=True)
def _decode(key, shift):  # type: ignore[no-untyped-def]
    """``(value, remoteness)`` of a position with this key (DRAW gets NO_REMOTENESS)."""
    low = (1 << shift) - 1
    rank = key >> shift
    if rank == 3:
        return LOSE, low - (key - (3 << shift))
    if rank == 2:
        return TIE, low - (key - (2 << shift))
    if rank == 1:
        return DRAW, NO_REMOTENESS
    return WIN, key
