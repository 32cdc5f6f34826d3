"""Numba kernels of the tier engine: child look-ups, one-pass tiers, retrograde inside a tier.

Every kernel releases the GIL (``nogil=True``): the engine runs chunks of a tier in threads.
Values are for the player to move (LOSE = 0, DRAW = 1, TIE = 2, WIN = 3); inside a tier being
solved ``NO_POSITION_VALUE`` marks ranks that are no position and UNDECIDED positions still open.
Child records are decoded as in :mod:`perfectplay.tiers.records`: ``r - 1 = 4 * rem + value``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay._prefetch import prefetch as _prefetch
from perfectplay.values import DRAW, LOSE, TIE, UNDECIDED, WIN

__all__ = [
    "NO_POSITION_VALUE",
    "PENDING_LOSE",
    "apply_tie_level",
    "apply_win_lose_level",
    "claim_bits",
    "claim_bits_where",
    "combine",
    "combine_scores",
    "file_levels",
    "finish_records",
    "gather_level",
    "get_bits",
    "group_moves",
    "init_loopy",
    "lookup",
    "lookup_scores",
    "most_level",
    "moves_fit",
    "next_level",
    "scatter_records",
    "set_bits",
    "set_bits_where",
    "take_level",
]

NO_POSITION_VALUE = 254
"""Value code of a rank that is no position while a tier is being solved."""

PENDING_LOSE = 253
"""Value code of a position known to be a LOSE at a level the propagation has not reached."""

_AHEAD = 16
"""Positions between a prefetch of their entries of the tier's arrays and their use: the
spreading to parents, taking filed sections and packing records read those arrays at random
(hints never fault: `out` may be the one-entry array of a tier without earlier tiers)."""

_NONE = np.int32(0)  # "no such child" in the out-of-tier summaries (levels there are >= 1)


@nb.njit(cache=True, nogil=True)
def moves_fit(primitive, indptr, moves):  # type: ignore[no-untyped-def]
    """Whether ``children``'s arrays hold together (lengths already checked): `indptr` runs
    from 0 to `moves` without going down, each primitive code is WIN, LOSE, TIE or UNDECIDED,
    and a position that is over has no moves. One pass; the caller finds what is wrong."""
    if indptr[0] != 0 or indptr[indptr.shape[0] - 1] != moves:
        return False
    for p in range(primitive.shape[0]):
        v = primitive[p]
        if indptr[p + 1] < indptr[p]:
            return False
        if v != UNDECIDED and (not 0 <= v <= WIN or indptr[p + 1] != indptr[p]):
            return False
    return True


_FEW_GROUPS = 4
"""Child tiers up to which :func:`group_moves` makes a pass over the moves per child tier."""


@nb.njit(cache=True, nogil=True)
def group_moves(which, groups):  # type: ignore[no-untyped-def]
    """The moves into earlier tiers grouped by child tier (a counting sort of `which`).

    Returns ``(order, starts, bad)``: ``order[starts[j - 1]:starts[j]]`` are the indices of
    the moves with ``which == j``, ascending, for ``j = 1..groups``; `bad` is the first move
    whose ``which`` lies outside ``0..groups`` (then nothing is grouped), or -1.

    Up to :data:`_FEW_GROUPS` child tiers, a pass per child tier writes every move's index and
    keeps it only if it is one of the group's (no branch, no count before); beyond, two passes
    over `which` (the counts, then the indices) instead of one per child tier. On a placement
    tier of Morris (2 child tiers, 16 moves a position) a pass per child tier took 32 ns of
    CPU a position, the counting sort 57.
    """
    m = which.shape[0]
    starts = np.zeros(groups + 1, dtype=np.int64)
    inside = True
    for i in range(m):
        inside &= 0 <= np.int64(which[i]) <= groups
    if not inside:
        i = 0
        while 0 <= np.int64(which[i]) <= groups:
            i += 1
        return np.empty(0, dtype=np.int64), starts, i
    if groups <= _FEW_GROUPS:
        order = np.empty(m + 1, dtype=np.int64)  # the last index written may be one past
        k = 0
        for j in range(1, groups + 1):
            for i in range(m):
                order[k] = i
                k += np.int64(which[i]) == j
            starts[j] = k
        return order[:k], starts, -1
    # Four rows of counts, taken in turn: one row would chain its increments of count[0]
    # (most moves stay in the tier), each waiting for the one before.
    count = np.zeros((4, groups + 1), dtype=np.int64)
    for i in range(m):
        count[i & 3, np.int64(which[i])] += 1
    for j in range(1, groups + 1):
        starts[j] = starts[j - 1] + count[0, j] + count[1, j] + count[2, j] + count[3, j]
    order = np.empty(starts[groups], dtype=np.int64)
    fill = starts[:groups].copy()
    for i in range(m):
        w = np.int64(which[i])
        if w != 0:
            order[fill[w - 1]] = i
            fill[w - 1] += 1
    return order, starts, -1


@nb.njit(cache=True, nogil=True)
def lookup(order, lo, hi, rank, records, child_value, child_rem):  # type: ignore[no-untyped-def]
    """Decode the records of the moves ``order[lo:hi]`` (children in the tier of `records`)
    into `child_value`/`child_rem`.

    Returns the index of the first move whose child is outside `records` or no position, or -1.
    The record of the move ``2 * _AHEAD`` places on is prefetched: reads of a child tier of up
    to a GB miss the caches, and overlap so (at random in 1 GiB: 24 ns a look-up without, 20
    with the prefetch or with huge pages, 14 with both, in one process; the records are read
    into huge pages, :func:`perfectplay._mappings.populated_empty`).
    """
    size = records.shape[0]
    for k in range(lo, hi):
        if k + 2 * _AHEAD < hi:
            _prefetch(records, rank[order[k + 2 * _AHEAD]])
        i = order[k]
        r = rank[i]
        if r < 0 or r >= size:
            return i
        rec = np.int64(records[r])
        if rec == 0:
            return i
        child_value[i] = (rec - 1) & 3
        child_rem[i] = (rec - 1) >> 2
    return -1


@nb.njit(cache=True, nogil=True)
def lookup_scores(order, lo, hi, rank, scores, child_score):  # type: ignore[no-untyped-def]
    """Copy the scores of the moves ``order[lo:hi]`` (ranks already checked by
    :func:`lookup`)."""
    for k in range(lo, hi):
        i = order[k]
        child_score[i] = scores[rank[i]]


@nb.njit(cache=True, nogil=True)
def combine(primitive, indptr, child_value, child_rem, value, rem):  # type: ignore[no-untyped-def]
    """Value and remoteness of each position from its children's (all decided).

    WIN if a child is LOSE (1 + the smallest such remoteness), else LOSE if every child is WIN
    (1 + the largest), else TIE if a child is TIE (1 + the smallest), else DRAW (remoteness -1).
    A primitive keeps its value with remoteness 0; no moves and no primitive: LOSE 0.
    """
    for p in range(primitive.shape[0]):
        if primitive[p] != UNDECIDED:
            value[p] = primitive[p]
            rem[p] = 0
            continue
        lose = -1
        win = -1
        tie = -1
        other = False
        for i in range(indptr[p], indptr[p + 1]):
            v = child_value[i]
            r = child_rem[i]
            if v == LOSE:
                if lose < 0 or r < lose:
                    lose = r
            elif v == WIN:
                if r > win:
                    win = r
            else:
                other = True
                if v == TIE and (tie < 0 or r < tie):
                    tie = r
        if lose >= 0:
            value[p] = WIN
            rem[p] = lose + 1
        elif not other:
            value[p] = LOSE
            rem[p] = win + 1
        elif tie >= 0:
            value[p] = TIE
            rem[p] = tie + 1
        else:
            value[p] = DRAW
            rem[p] = -1


@nb.njit(cache=True, nogil=True)
def scatter_records(offsets, value, rem, records):  # type: ignore[no-untyped-def]
    """``records[offsets[i]] = 1 + 4 * rem[i] + value[i]`` (remoteness 0 for a DRAW).

    Returns the largest remoteness written (-1 if none). The caller picked a record dtype wide
    enough for it.
    """
    most = -1
    for i in range(offsets.shape[0]):
        r = rem[i]
        if r > most:
            most = r
        records[offsets[i]] = 1 + 4 * max(r, 0) + value[i]
    return most


@nb.njit(cache=True, nogil=True)
def combine_scores(primitive, indptr, gain, child_score, terminal, score):  # type: ignore[no-untyped-def]
    """Best (own - opponent) score for the player to move: max over moves of gain - child score.

    Positions without moves keep their terminal score. Returns the first position whose score
    leaves int64, or -1.
    """
    for p in range(primitive.shape[0]):
        lo = indptr[p]
        hi = indptr[p + 1]
        if primitive[p] != UNDECIDED or lo == hi:
            score[p] = terminal[p]
            continue
        best = np.int64(0)
        for i in range(lo, hi):
            g = gain[i]
            c = child_score[i]
            s = g - c
            # Overflow iff g and -c have the same sign and s has the other one.
            if (g >= 0) == (c < 0) and (s >= 0) != (g >= 0):
                return p
            if i == lo or s > best:
                best = s
        score[p] = best
    return -1


@nb.njit(cache=True, nogil=True, inline="always")
def _occurs(a, lo, hi, x):  # type: ignore[no-untyped-def]
    """Whether `x` is among ``a[lo:hi]``. Cost: ``hi - lo`` comparisons."""
    j = lo
    while j < hi and a[j] != x:
        j += 1
    return j < hi


@nb.njit(cache=True, nogil=True, inline="always")
def _distinct(buf, n):  # type: ignore[no-untyped-def]
    """Move the distinct entries of ``buf[:n]`` to its front; returns their number.

    Short lists (most positions' children and parents) keep the first of each entry, compared
    with those kept before it: sorting them cost about half of spreading a level's decisions
    to their parents. Longer lists are sorted.
    """
    if n > 16:
        part = buf[:n]
        part.sort()
        k = 0
        for i in range(n):
            if i == 0 or part[i] != part[k - 1]:
                part[k] = part[i]
                k += 1
        return k
    k = 0
    for i in range(n):
        x = buf[i]
        if not _occurs(buf, 0, k, x):
            buf[k] = x
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def init_loopy(  # type: ignore[no-untyped-def]
    ranks,
    primitive,
    indptr,
    which,
    rank,
    child_value,
    child_rem,
    has_out,
    value,
    counter,
    out,
    top,
    buf,
):
    """First pass over a loopy tier: primitives, move counters, out-of-tier summaries.

    For each slot ``p = ranks[i]``: a primitive gets its value (remoteness 0); a position
    without moves is a LOSE (remoteness 0); otherwise ``counter[p]`` is its number of distinct
    children inside the tier and (with `has_out`) ``out[p]`` sums up its children in earlier
    tiers, one of three kinds (levels are 1 + a child's remoteness, all below `top`):

    - ``2 * top + w``: a LOSE child there, the nearest at level ``w``; `p` is a WIN at ``w``
      at the latest;
    - ``top + t``: no LOSE child but a TIE or DRAW one there (`p` can never lose), the nearest
      TIE at level ``t`` (0: none);
    - ``l`` below `top`: every child there is a WIN, the farthest at level ``l`` (0: none);
      if `p` has no child inside the tier it is a LOSE at ``l``, marked ``PENDING_LOSE`` until
      the propagation reaches level ``l``.

    Returns ``(bad, most, ties)``: the first move whose in-tier child rank is out of range, or
    -1; the highest level of the summaries written (0 if none); whether a TIE primitive or a
    summary with a TIE child was written (without either the TIE phase has nothing to start
    from).
    """
    size = value.shape[0]
    most = _NONE
    ties = False
    for i in range(ranks.shape[0]):
        p = ranks[i]
        if primitive[i] != UNDECIDED:
            value[p] = primitive[i]
            ties |= primitive[i] == TIE
            continue
        lo = indptr[i]
        hi = indptr[i + 1]
        if lo == hi:
            value[p] = LOSE
            continue
        value[p] = UNDECIDED
        n = 0
        win = _NONE
        lose = _NONE
        tie = _NONE
        block = False
        for e in range(lo, hi):
            if which[e] == 0:
                c = rank[e]
                if c < 0 or c >= size:
                    return e, most, ties
                buf[n] = c
                n += 1
            else:
                v = child_value[e]
                r = child_rem[e] + 1
                if v == LOSE:
                    if win == 0 or r < win:
                        win = r
                elif v == WIN:
                    if r > lose:
                        lose = r
                else:
                    block = True
                    if v == TIE and (tie == 0 or r < tie):
                        tie = r
        k = _distinct(buf, n)
        counter[p] = k
        if has_out:
            if win != 0:
                out[p] = 2 * top + win
                level = win
            elif block:
                out[p] = top + tie
                level = tie
                ties |= tie != 0
            else:
                out[p] = lose
                level = lose
                if k == 0:
                    value[p] = PENDING_LOSE
            if level > most:
                most = level
    return -1, most, ties


@nb.njit(cache=True, nogil=True)
def gather_level(level, value, out, top, tie, want, queue, tail):  # type: ignore[no-untyped-def]
    """Append to `queue` the `want` positions the first pass decides at `level`; returns the new
    tail (a scan of the tier in rank order, stopped once all are found).

    At level 0 the primitives of the phase (WIN and LOSE, or TIE); above, in the WIN/LOSE phase,
    the ``PENDING_LOSE`` positions whose farthest WIN child is at `level` (now LOSE) and the
    open positions with a LOSE child at `level` in an earlier tier (now WIN); in the TIE phase
    the open positions with a TIE child at `level` there (now TIE). Kinds of ``out`` as in
    :func:`init_loopy`.
    """
    found = 0
    p = 0
    size = value.shape[0]
    while found < want and p < size:
        v = value[p]
        hit = False
        if level == 0:
            hit = v == TIE if tie else v in (WIN, LOSE)
        elif tie:
            if v == UNDECIDED and np.int64(out[p]) == top + level:
                value[p] = TIE
                hit = True
        elif v == PENDING_LOSE and np.int64(out[p]) == level:
            value[p] = LOSE
            hit = True
        elif v == UNDECIDED and np.int64(out[p]) == 2 * top + level:
            value[p] = WIN
            hit = True
        if hit:
            queue[tail] = p
            tail += 1
            found += 1
        p += 1
    return tail


@nb.njit(cache=True, nogil=True)
def _filed_level(v, o, top, has_out, tie):  # type: ignore[no-untyped-def]
    """The level whose section of the queue :func:`file_levels` files a position in (value
    `v`, summary `o`), or -1: where :func:`gather_level` may find it, and in the WIN/LOSE
    phase the open positions whose children in earlier tiers are all WIN, the farthest at
    ``o >= 2``, which turn ``PENDING_LOSE`` at ``o`` if their children in the tier are all
    decided WIN before level ``o - 1``."""
    if tie:
        if v == TIE:
            return 0
        if has_out and v == UNDECIDED and top < o < 2 * top:
            return o - top
        return -1
    if v in (WIN, LOSE):
        return 0
    if not has_out:
        return -1
    if v == PENDING_LOSE:
        return o
    if v == UNDECIDED:
        if o > 2 * top:
            return o - 2 * top
        if 2 <= o < top:
            return o
    return -1


@nb.njit(cache=True, nogil=True)
def file_levels(value, out, top, has_out, tie, queue, start, counts, sections):  # type: ignore[no-untyped-def]
    """Count the positions each level of a phase gathers from the first pass and file at the
    end of `queue` every position the phase may gather at a level (:func:`_filed_level`).

    ``counts[level]`` (one entry per level, up to the highest summary's) becomes the number
    :func:`gather_level` gathers there: in the WIN/LOSE phase (`tie` False) at level 0 the WIN
    and LOSE primitives, at level ``l`` the ``PENDING_LOSE`` positions and the open positions
    with a LOSE child at ``l`` in an earlier tier; in the TIE phase at level 0 the TIE
    primitives, at level ``t`` the open positions with a TIE child at ``t`` in an earlier tier.

    The filed positions go level after level, each level's in rank order:
    ``queue[sections[l]:sections[l + 1]]`` for level ``l``, the last section ending at the end
    of the queue. Returns False, filing nothing, if there is nothing to gather or the sections
    do not fit after queue entry `start`. Cost: two passes over the tier (one if False),
    instead of one per level with :func:`gather_level`.
    """
    size = value.shape[0]
    levels = counts.shape[0]
    counts[:] = 0
    sections[:] = 0
    for p in range(size):
        v = value[p]
        o = np.int64(out[p]) if has_out else np.int64(0)
        level = _filed_level(v, o, top, has_out, tie)
        if level >= 0:
            sections[level + 1] += 1
            if tie or v != UNDECIDED or o > 2 * top:  # not a LOSE held back by a farther WIN
                counts[level] += 1
    total = 0
    for level in range(levels):
        total += sections[level + 1]
    if total > size - start or not counts.any():
        return False
    sections[0] = size - total
    for level in range(levels):
        sections[level + 1] += sections[level]
    fill = sections[:levels].copy()
    for p in range(size):
        o = np.int64(out[p]) if has_out else np.int64(0)
        level = _filed_level(value[p], o, top, has_out, tie)
        if level >= 0:
            queue[fill[level]] = p
            fill[level] += 1
    return True


@nb.njit(cache=True, nogil=True)
def take_level(level, value, out, top, tie, queue, tail, lo, hi):  # type: ignore[no-untyped-def]
    """:func:`gather_level` from the section ``queue[lo:hi]`` filed by :func:`file_levels`:
    append to the queue (at `tail`, at most `lo`) the positions of the section still to be
    decided at `level`, decide them as :func:`gather_level` does and return the new tail.
    A filed position decided meanwhile, or left open, is passed over."""
    for k in range(lo, hi):
        if k + _AHEAD < hi:
            _prefetch(value, queue[k + _AHEAD])
            _prefetch(out, queue[k + _AHEAD])
        p = queue[k]
        v = value[p]
        if level == 0:
            hit = True
        elif tie:
            hit = v == UNDECIDED
            if hit:
                value[p] = TIE
        elif v == PENDING_LOSE:
            value[p] = LOSE
            hit = True
        else:
            hit = v == UNDECIDED and np.int64(out[p]) > 2 * top
            if hit:
                value[p] = WIN
        if hit:
            queue[tail] = p
            tail += 1
    return tail


@nb.njit(cache=True, nogil=True)
def apply_win_lose_level(  # type: ignore[no-untyped-def]
    level,
    batch,
    pindptr,
    pranks,
    has_out,
    value,
    counter,
    out,
    top,
    queue,
    tail,
    limit,
    counts,
    buf,
):
    """Spread the WIN/LOSE decisions of `batch` (decided at `level`) to their open parents.

    A LOSE makes each open parent a WIN at ``level + 1``; a WIN takes one off each open
    parent's counter, and a parent whose children are then all WIN becomes a LOSE at
    ``max(level + 1, l)`` (``l``: its farthest WIN child in an earlier tier) unless an earlier
    tier gives it a better value; one decided later than ``level + 1`` is ``PENDING_LOSE``
    until :func:`gather_level` reaches its level. `counts` (:func:`file_levels`) follows: a
    parent gathered at a later level loses its count there, a new ``PENDING_LOSE`` adds one.
    Returns ``(tail, bad, stop)``: the new queue tail; the index in `pranks` of a parent that
    is out of range or whose counter would go below zero (parents not inverse to children), or
    -1; the first position of `batch` left undone because its parents could take the queue
    past entry `limit`, or -1.
    """
    size = value.shape[0]
    n = batch.shape[0]
    for i in range(n):
        # The decided position's value, then its parents' entries, ahead of their use: the
        # misses overlap instead of waiting one by one (1.2-1.35x on Squadro's largest tier).
        if i + 2 * _AHEAD < n:
            _prefetch(value, batch[i + 2 * _AHEAD])
        if i + _AHEAD < n:
            for e in range(pindptr[i + _AHEAD], pindptr[i + _AHEAD + 1]):
                q = pranks[e]
                _prefetch(value, q)
                _prefetch(counter, q)
                if has_out:
                    _prefetch(out, q)
        v = value[batch[i]]
        lo = pindptr[i]
        hi = pindptr[i + 1]
        if tail + hi - lo > limit:
            return tail, -1, i
        for e in range(lo, hi):
            if pranks[e] < 0 or pranks[e] >= size:
                return tail, e, -1
        if v == LOSE:  # a parent met again is a WIN already: no need to spot repeats
            for e in range(lo, hi):
                q = pranks[e]
                if value[q] != UNDECIDED:
                    continue
                value[q] = WIN
                queue[tail] = q
                tail += 1
                if has_out and np.int64(out[q]) > 2 * top:
                    counts[np.int64(out[q]) - 2 * top] -= 1
            continue
        # A WIN takes one off each parent's counter once: a long list is sorted in `buf`, a
        # short one (most) kept where it is, an entry passed over where an equal one comes
        # before it (no copy, no sort).
        long = hi - lo > 16
        k = hi - lo
        if long:
            for e in range(lo, hi):
                buf[e - lo] = pranks[e]
            k = _distinct(buf, k)
        for e in range(k):
            if long:
                q = buf[e]
            else:
                q = pranks[lo + e]
                if _occurs(pranks, lo, lo + e, q):
                    continue
            if value[q] != UNDECIDED:
                continue
            if counter[q] == 0:
                return tail, lo, -1
            counter[q] -= 1
            if counter[q] != 0:
                continue
            if has_out and np.int64(out[q]) >= top:
                continue
            if has_out and np.int64(out[q]) > level + 1:
                value[q] = PENDING_LOSE
                counts[np.int64(out[q])] += 1
            else:
                value[q] = LOSE
                queue[tail] = q
                tail += 1
    return tail, -1, -1


@nb.njit(cache=True, nogil=True)
def apply_tie_level(  # type: ignore[no-untyped-def]
    level, batch, pindptr, pranks, has_out, value, out, top, queue, tail, limit, counts
):
    """Spread the TIEs of `batch` (at `level`): each open parent becomes a TIE at ``level + 1``
    (one gathered at a later level loses its count there, as in :func:`apply_win_lose_level`).

    Returns ``(tail, bad, stop)`` as :func:`apply_win_lose_level`.
    """
    size = value.shape[0]
    for i in range(batch.shape[0]):
        if tail + pindptr[i + 1] - pindptr[i] > limit:
            return tail, -1, i
        for e in range(pindptr[i], pindptr[i + 1]):
            q = pranks[e]
            if q < 0 or q >= size:
                return tail, e, -1
            if value[q] == UNDECIDED:
                value[q] = TIE
                queue[tail] = q
                tail += 1
                if has_out:
                    o = np.int64(out[q])
                    if top < o < 2 * top:
                        counts[o - top] -= 1
    return tail, -1, -1


@nb.njit(cache=True, nogil=True)
def finish_records(value, queue, win_lose, ties, records):  # type: ignore[no-untyped-def]
    """Pack a solved loopy tier from its queue: in the WIN/LOSE phase the positions decided at
    level ``l`` (their remoteness) are ``queue[win_lose[l - 1]:win_lose[l]]`` (from 0 at level
    0), in the TIE phase likewise with `ties` from ``win_lose[-1]``; open positions are DRAWs,
    ranks that are no position 0.

    ``records[p] = 1 + 4 * rem[p] + value[p]`` as in :mod:`perfectplay.tiers.records`.
    """
    for p in range(value.shape[0]):
        v = value[p]
        if v == NO_POSITION_VALUE:
            records[p] = 0
        elif v == UNDECIDED:
            records[p] = 1 + DRAW
    start = 0
    for ends in (win_lose, ties):
        for level in range(ends.shape[0]):
            for k in range(start, ends[level]):
                if k + _AHEAD < ends[level]:
                    _prefetch(value, queue[k + _AHEAD])
                    _prefetch(records, queue[k + _AHEAD])
                q = queue[k]
                records[q] = 1 + 4 * level + value[q]
            start = ends[level]


@nb.njit(cache=True, nogil=True)
def most_level(win_lose, ties):  # type: ignore[no-untyped-def]
    """The highest level whose run of the queue is not empty in either phase (0 if none): the
    largest remoteness of a tier (runs as in :func:`finish_records`)."""
    most = 0
    start = 0
    for ends in (win_lose, ties):
        for level in range(ends.shape[0]):
            if ends[level] > start and level > most:
                most = level
            start = ends[level]
    return most


@nb.njit(cache=True, nogil=True)
def widest_run(indptr):  # type: ignore[no-untyped-def]
    """The longest run ``indptr[i + 1] - indptr[i]`` (0 if none): a buffer's length for any
    one entry's run, found without the interpreter's lock."""
    most = 0
    for i in range(indptr.shape[0] - 1):
        most = max(most, indptr[i + 1] - indptr[i])
    return most


@nb.njit(cache=True, nogil=True)
def next_level(counts, level):  # type: ignore[no-untyped-def]
    """The first level above `level` with ``counts`` left, or -1."""
    for k in range(level + 1, counts.shape[0]):
        if counts[k] != 0:
            return k
    return -1


@nb.njit(cache=True, nogil=True)
def set_bits(flags, ranks):  # type: ignore[no-untyped-def]
    """Set bit ``r`` of the little-endian bit array `flags` for every ``r`` in `ranks`."""
    for r in ranks:
        flags[r >> 3] |= np.uint8(1 << (r & 7))


@nb.njit(cache=True, nogil=True, inline="always")
def _claim(flags, r, out, n):  # type: ignore[no-untyped-def]
    """Set bit `r` of `flags`; if it was clear, write `r` at ``out[n]`` and return ``n + 1``,
    else return `n`."""
    bit = np.uint8(1 << (r & 7))
    if flags[r >> 3] & bit:
        return n
    flags[r >> 3] |= bit
    out[n] = r
    return n + 1


@nb.njit(cache=True, nogil=True)
def claim_bits(flags, ranks):  # type: ignore[no-untyped-def]
    """Set bit ``r`` of `flags` for every ``r`` in `ranks`; return the ranks whose bit was
    clear, each once, in the order first met (a rank repeated in `ranks` is claimed once)."""
    out = np.empty(ranks.shape[0], dtype=np.int64)
    n = 0
    for r in ranks:
        n = _claim(flags, r, out, n)
    return out[:n]


@nb.njit(cache=True, nogil=True)
def set_bits_where(flags, which, rank, j):  # type: ignore[no-untyped-def]
    """:func:`set_bits` of the ranks of the moves with ``which == j`` (one pass, no copy)."""
    for i in range(which.shape[0]):
        if which[i] == j:
            r = rank[i]
            flags[r >> 3] |= np.uint8(1 << (r & 7))


@nb.njit(cache=True, nogil=True)
def claim_bits_where(flags, which, rank, j):  # type: ignore[no-untyped-def]
    """:func:`claim_bits` of the ranks of the moves with ``which == j``."""
    out = np.empty(which.shape[0], dtype=np.int64)
    n = 0
    for i in range(which.shape[0]):
        if which[i] == j:
            n = _claim(flags, rank[i], out, n)
    return out[:n]


@nb.njit(cache=True, nogil=True)
def get_bits(flags, ranks):  # type: ignore[no-untyped-def]
    """Bit ``r`` of the little-endian bit array `flags` for each ``r`` in `ranks`, as booleans."""
    out = np.empty(ranks.shape[0], dtype=np.bool_)
    for i in range(ranks.shape[0]):
        out[i] = (flags[ranks[i] >> 3] >> (ranks[i] & 7)) & 1 == 1
    return out
