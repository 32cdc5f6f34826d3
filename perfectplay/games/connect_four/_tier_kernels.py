"""numba kernels of Connect Four's tiered form (see :mod:`perfectplay.games.connect_four.tiers`).

A board is a tuple of column states (in place order, below: ``s[0..cols-1]``). A column state
is an integer in
``1..2**(rows + 1) - 1``: its highest set bit is a sentinel at the column's height ``h``, the
``h`` bits below it hold the stones from the bottom up (1 for X, 0 for O). Tier ``k`` holds the
boards of ``k`` stones, ``(k + 1) // 2`` of them X.

Columns are ranked from the outside in: *place* ``p`` holds column ``p // 2`` for even ``p``
and ``cols - 1 - p // 2`` for odd ``p`` (``0, 5, 1, 4, 2, 3`` on 6 columns), so a column and its
mirror image take places ``2j`` and ``2j + 1``, and a middle column the last place. Ranks are a
mixed combinatorial number system over the places: with ``r`` stones and ``x`` X stones left
for place ``i`` and the ``j = cols - 1 - i`` places after it, ``T[j, r, x, s]`` counts the ways
to fill places ``i..`` whose place ``i`` takes a state smaller than ``s``; the rank of a board
is the sum of its places' entries. Ranks therefore order a tier's boards lexicographically by
their states in place order, and a board ranks below its mirror image exactly when the first
pair of places that differ holds the smaller state first (the left column). A prefix of
places whose pairs already differ thus decides that comparison for every board of its block.

The kernels walk ranks in *blocks*: a block is a prefix (every place but the last two) with
all its tails (fillings of the last two places), whose ranks are consecutive. The tails of
each stone count are listed once (:func:`build_tails`, at most 16,129 on 7x6) with their
bitboards and the index of each tail after a move, so inside a block a rank is a tail index
and a child's rank a per-block sum plus one table read. ``NV[j, r, x, s]`` is the next state
after ``s`` that column ``i`` may take (``2**(rows + 1)``: none), so the next prefix takes a
few table reads (:func:`_advance`); a far rank takes a binary search per column
(:func:`_unrank`).

The loops over ranks call functions that take arrays only once per block (or for a rare
child): such a call measured about 50 ns here (numba counts references to each array
passed), more than the work of a rank.

Bitboards follow :mod:`perfectplay.games.connect_four._bitboard`: bit ``c * (rows + 1) + r`` is
column ``c`` (not place), row ``r``, with a guard row on top of each column.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import lowest_bit
from perfectplay.games.connect_four._bitboard import four
from perfectplay.values import LOSE, TIE, UNDECIDED

__all__ = [
    "Tails",
    "bitboards",
    "build_tables",
    "build_tails",
    "children",
    "orbit_sizes",
    "rank_boards",
    "slots",
    "unrank_boards",
]

Tails = tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]
"""``(offset, states, x_bits, o_bits, child)`` of :func:`build_tails`."""


@nb.njit(cache=True, nogil=True, inline="always")
def _column(place: int, cols: int) -> int:
    """The board column ranked at `place`: columns are ranked from the outside in, ``0,
    cols - 1, 1, cols - 2, ...``, so a column and its mirror image take places ``2j, 2j + 1``."""
    return place // 2 if place % 2 == 0 else cols - 1 - place // 2


@nb.njit(cache=True, nogil=True, inline="always")
def _place(column: int, cols: int) -> int:
    """The place at which board column `column` is ranked (the inverse of :func:`_column`)."""
    mirror = cols - 1 - column
    if column < mirror:
        return 2 * column
    return 2 * mirror + 1 if column > mirror else cols - 1


@nb.njit(cache=True, nogil=True)
def build_tables(
    rows: int, cols: int
) -> tuple[NDArray[np.int64], NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """``(T, NV, H, X)``: the rank and next-state tables and each state's height and X count.

    ``T`` has shape ``(cols, rows * cols + 1, xmax + 1, 2**(rows + 1) + 1)`` with ``xmax =
    (rows * cols + 1) // 2``; the caller checks beforehand that its entries fit in int64.
    Cost: O(cols * (rows * cols)**2 * 2**rows) additions, well under a second on 7x6.
    """
    ns = 1 << (rows + 1)
    kmax = rows * cols
    xmax = (kmax + 1) // 2
    h_of = np.zeros(ns, dtype=np.int64)
    x_of = np.zeros(ns, dtype=np.int64)
    for s in range(1, ns):
        h = 0
        while (s >> (h + 1)) != 0:
            h += 1
        h_of[s] = h
        x_of[s] = 0
        for b in range(h):
            x_of[s] += (s >> b) & 1
    # completions[j, r, x]: ways to fill j columns with r stones, x of them X
    completions = np.zeros((cols + 1, kmax + 1, xmax + 1), dtype=np.int64)
    completions[0, 0, 0] = 1
    for j in range(1, cols + 1):
        for s in range(1, ns):
            h, p = h_of[s], x_of[s]
            for r in range(h, kmax + 1):
                for x in range(p, xmax + 1):
                    completions[j, r, x] += completions[j - 1, r - h, x - p]
    table = np.zeros((cols, kmax + 1, xmax + 1, ns + 1), dtype=np.int64)
    nxt = np.empty((cols, kmax + 1, xmax + 1, ns), dtype=np.int32)
    for j in range(cols):
        for r in range(kmax + 1):
            for x in range(xmax + 1):
                total = np.int64(0)
                for s in range(1, ns):
                    table[j, r, x, s] = total
                    h, p = h_of[s], x_of[s]
                    if h <= r and p <= x:
                        total += completions[j, r - h, x - p]
                table[j, r, x, ns] = total
                following = ns
                for s in range(ns - 1, -1, -1):
                    nxt[j, r, x, s] = following
                    if s >= 1 and table[j, r, x, s + 1] > table[j, r, x, s]:
                        following = s
    return table, nxt, h_of, x_of


@nb.njit(cache=True, nogil=True)
def build_tails(
    rows: int, cols: int, table: NDArray[np.int64], h_of: NDArray[np.int64], x_of: NDArray[np.int64]
) -> Tails:
    """``(offset, states, x_bits, o_bits, child)``: every filling of the last ``w = min(2,
    cols)`` places, grouped by stones ``r`` and X stones ``x`` (``offset[r, x]`` is where a
    group starts), each group in rank order; their X and O bitboards in place; ``child[e, b,
    t]``, the index within group ``(r + 1, x + b)`` after dropping a stone (X if ``b``) in tail
    place ``t`` (-1: full). At most ``(2**(rows + 1) - 1)**2`` entries (16,129 on 7x6).
    """
    ns = 1 << (rows + 1)
    width = min(2, cols)
    first = cols - width  # the tail's first place
    kmax = table.shape[1] - 1
    xmax = table.shape[2] - 1
    offset = np.zeros((kmax + 1, xmax + 1), dtype=np.int64)
    total = 0
    for r in range(kmax + 1):
        for x in range(xmax + 1):
            offset[r, x] = total
            total += table[width - 1, r, x, ns]
    states = np.zeros((total, width), dtype=np.int64)
    x_bits = np.zeros(total, dtype=np.int64)
    o_bits = np.zeros(total, dtype=np.int64)
    child = np.full((total, 2, width), -1, dtype=np.int64)
    tail = np.zeros(width, dtype=np.int64)
    for code in range((ns - 1) ** width):
        r = 0
        x = 0
        for t in range(width):
            tail[t] = 1 + (code // (ns - 1) ** (width - 1 - t)) % (ns - 1)
            r += h_of[tail[t]]
            x += x_of[tail[t]]
        if x > xmax:
            continue  # more X stones than any tier has
        e = offset[r, x] + _local_rank(tail, r, x, table, h_of, x_of)
        for t in range(width):
            states[e, t] = tail[t]
            stones = (1 << h_of[tail[t]]) - 1
            shift = _column(first + t, cols) * (rows + 1)
            x_bits[e] |= (tail[t] & stones) << shift
            o_bits[e] |= (~tail[t] & stones) << shift
        for b in range(2):
            if r + 1 > kmax or x + b > xmax:
                continue
            for t in range(width):
                h = h_of[tail[t]]
                if h < rows:
                    old = tail[t]
                    tail[t] = old + ((1 + b) << h)
                    child[e, b, t] = _local_rank(tail, r + 1, x + b, table, h_of, x_of)
                    tail[t] = old
    return offset, states, x_bits, o_bits, child


@nb.njit(cache=True, nogil=True)
def _local_rank(
    tail: NDArray[np.int64],
    r: int,
    x: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
) -> int:
    """The rank of the last ``len(tail)`` places among those holding `r` stones, `x` of X."""
    width = tail.shape[0]
    rank = 0
    for t in range(width):
        rank += table[width - 1 - t, r, x, tail[t]]
        r -= h_of[tail[t]]
        x -= x_of[tail[t]]
    return rank


@nb.njit(cache=True, nogil=True)
def _unrank(
    rank: int,
    k: int,
    upto: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
) -> int:
    """Fill ``s[:upto]`` with the first `upto` places of rank `rank` in tier `k`, and
    ``r_at[i]``/``x_at[i]`` (``i <= upto``) with the stones and X stones in places ``i..``;
    return the rank left for the remaining places. A binary search per place."""
    cols = table.shape[0]
    ns = table.shape[3] - 1
    r, x = k, (k + 1) // 2
    for i in range(upto):
        r_at[i], x_at[i] = r, x
        row = table[cols - 1 - i, r, x]
        lo, hi = 1, ns  # row[lo] <= rank < row[hi]
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            if row[mid] <= rank:
                lo = mid
            else:
                hi = mid
        s[i] = lo
        rank -= row[lo]
        r -= h_of[lo]
        x -= x_of[lo]
    r_at[upto], x_at[upto] = r, x
    return rank


@nb.njit(cache=True, nogil=True)
def _advance(
    upto: int,
    nxt: NDArray[np.int32],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
) -> bool:
    """Step the first `upto` places ``s[:upto]`` to the next prefix in rank order (each
    prefix heads the block of ranks of its tails); False after the tier's last prefix."""
    cols = s.shape[0]
    ns = nxt.shape[3]
    for i in range(upto - 1, -1, -1):
        state = nxt[cols - 1 - i, r_at[i], x_at[i], s[i]]
        if state < ns:
            s[i] = state
            for c in range(i, upto):
                if c > i:
                    s[c] = nxt[cols - 1 - c, r_at[c], x_at[c], 0]
                r_at[c + 1] = r_at[c] - h_of[s[c]]
                x_at[c + 1] = x_at[c] - x_of[s[c]]
            return True
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def _reachable(k: int, xs: int, os: int, height: int, bottom: int) -> bool:
    """Whether a board of tier `k` with X stones `xs` and O stones `os` could have been
    reached: the player to move has no four, and unless the board is empty the last mover owns
    a top stone whose removal leaves them without a four. (Scalars only: a call passing arrays
    costs their reference counts, more than this test.)"""
    mover, last = (xs, os) if k % 2 == 0 else (os, xs)
    if four(mover, height):
        return False
    if k == 0:
        return True
    stones = xs | os
    tops = ((stones + bottom) >> 1) & stones & last
    if not four(last, height):
        return tops != 0
    while tops != 0:
        top = lowest_bit(tops)
        if not four(last ^ top, height):
            return True
        tops ^= top
    return False


# The cursor: a prefix (all columns but the tail), its block of ranks and derived sums.
_BASE, _FIRST, _COUNT, _XS, _OS, _TAIL_CHILD = range(6)
_CURSOR = 6
_STEPS = 32
"""Blocks stepped over at most to reach a later rank (a few table reads each); farther ranks
are unranked afresh (a binary search per column)."""


@nb.njit(cache=True, nogil=True)
def _scratch(
    cols: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """``(s, r_at, x_at, cursor)``: a board's states in place order, the stones and X stones
    left from each place on (:func:`_unrank`), and an empty cursor (its first seek unranks)."""
    return (
        np.empty(cols, dtype=np.int64),
        np.empty(cols + 1, dtype=np.int64),
        np.empty(cols + 1, dtype=np.int64),
        np.zeros(_CURSOR, dtype=np.int64),
    )


@nb.njit(cache=True, nogil=True)
def _refresh(
    k: int,
    rows: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    offset: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
    cursor: NDArray[np.int64],
    prefix_child: NDArray[np.int64],
) -> None:
    """Set the cursor from the prefix ``s[:upto]``: the block's first rank, where its tails
    start and how many; the prefix's bitboards; with `prefix_child` of length ``upto`` (not
    on a full board), each prefix place's child rank less the tail's index in its group
    (-1: column full), and in ``cursor[_TAIL_CHILD]`` the same for a stone in the tail.

    Dropping a stone at place ``c`` gives one more stone to place to the places up to ``c``
    and leaves the later ones unchanged: a prefix sum and a suffix sum of table entries."""
    cols = table.shape[0]
    ns = table.shape[3] - 1
    height = rows + 1
    upto = cols - min(2, cols)
    r, x = r_at[upto], x_at[upto]
    base = 0
    xs = 0
    os = 0
    for i in range(upto):
        base += table[cols - 1 - i, r_at[i], x_at[i], s[i]]
        stones = (1 << h_of[s[i]]) - 1
        xs |= (s[i] & stones) << (_column(i, cols) * height)
        os |= (~s[i] & stones) << (_column(i, cols) * height)
    cursor[_BASE], cursor[_XS], cursor[_OS] = base, xs, os
    cursor[_FIRST] = offset[r, x]
    cursor[_COUNT] = table[min(2, cols) - 1, r, x, ns]
    if prefix_child.shape[0] == 0 and upto > 0:
        return
    x_moves = 1 if k % 2 == 0 else 0
    after = 0
    for c in range(upto - 1, -1, -1):
        prefix_child[c] = after
        after += table[cols - 1 - c, r_at[c], x_at[c], s[c]]
    before = 0
    for c in range(upto):
        row = table[cols - 1 - c, r_at[c] + 1, x_at[c] + x_moves]
        h = h_of[s[c]]
        if h < rows:
            prefix_child[c] += before + row[s[c] + ((1 + x_moves) << h)]
        else:
            prefix_child[c] = -1
        before += row[s[c]]
    cursor[_TAIL_CHILD] = before


@nb.njit(cache=True, nogil=True)
def _seek(
    target: int,
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int32],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    offset: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
    cursor: NDArray[np.int64],
    prefix_child: NDArray[np.int64],
) -> int:
    """Move the cursor to rank `target` of tier `k` (stepping over a few blocks when it lies
    just ahead, else by binary search); return its tail's index."""
    width = min(2, table.shape[0])
    upto = table.shape[0] - width
    ns = table.shape[3] - 1
    distance = target - cursor[_BASE]
    if 0 <= distance < cursor[_COUNT]:
        return int(cursor[_FIRST] + distance)
    if cursor[_COUNT] > 0 and distance > 0:  # step over blocks: only their sizes are needed
        count = cursor[_COUNT]
        for _ in range(_STEPS):
            _advance(upto, nxt, h_of, x_of, s, r_at, x_at)
            distance -= count
            count = table[width - 1, r_at[upto], x_at[upto], ns]
            if distance < count:
                _refresh(k, rows, table, h_of, offset, s, r_at, x_at, cursor, prefix_child)
                return int(cursor[_FIRST] + distance)
    rest = _unrank(target, k, upto, table, h_of, x_of, s, r_at, x_at)
    _refresh(k, rows, table, h_of, offset, s, r_at, x_at, cursor, prefix_child)
    return int(cursor[_FIRST] + rest)


@nb.njit(cache=True, nogil=True)
def slots(
    start: int,
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int32],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    tails: Tails,
    out: NDArray[np.bool_],
) -> None:
    """``out[n]``: whether rank ``start + n`` of tier `k` is a slot: canonical (not above
    its mirror image: the first mirror pair of places whose columns differ holds the smaller
    state first) and :func:`_reachable`.

    One binary search for `start`'s prefix, then the tails of each block in turn, a table
    read per rank (the prefix's bitboards are kept per block); a block whose prefix is above
    its mirror image, or gives the player to move four in a row, is skipped whole.
    """
    offset, tail_states, tail_xs, tail_os, _ = tails
    cols = table.shape[0]
    width = min(2, cols)
    upto = cols - width
    height = rows + 1
    bottom = 0
    for i in range(cols):
        bottom |= 1 << (i * height)
    s, r_at, x_at, cursor = _scratch(cols)
    none = np.empty(0, dtype=np.int64)
    rest = _unrank(start, k, upto, table, h_of, x_of, s, r_at, x_at)
    _refresh(k, rows, table, h_of, offset, s, r_at, x_at, cursor, none)
    e = cursor[_FIRST] + rest
    n = 0
    while n < out.shape[0]:
        if e == cursor[_FIRST] + cursor[_COUNT]:
            _advance(upto, nxt, h_of, x_of, s, r_at, x_at)
            _refresh(k, rows, table, h_of, offset, s, r_at, x_at, cursor, none)
            e = cursor[_FIRST]
        end = cursor[_FIRST] + cursor[_COUNT]
        pair = 0  # the mirror pairs wholly in the prefix may decide the whole block
        side = 0  # -1: below its mirror image (canonical), 1: above, 0: the tail decides
        while 2 * pair + 1 < upto and side == 0:
            if s[2 * pair] != s[2 * pair + 1]:
                side = -1 if s[2 * pair] < s[2 * pair + 1] else 1
            pair += 1
        if side > 0 or four(cursor[_XS] if k % 2 == 0 else cursor[_OS], height):
            # above its mirror image, or the player to move has four in a row already among
            # the prefix's columns: no slots in the block
            stop = min(out.shape[0], n + end - e)
            out[n:stop] = False
            e += stop - n
            n = stop
            continue
        while e < end and n < out.shape[0]:
            canonical = True  # not above its mirror image
            if side == 0:
                for t in range(width):
                    s[upto + t] = tail_states[e, t]
                for j in range(pair, cols // 2):
                    if s[2 * j] != s[2 * j + 1]:
                        canonical = s[2 * j] < s[2 * j + 1]
                        break
            if canonical:
                xs = cursor[_XS] | tail_xs[e]
                os = cursor[_OS] | tail_os[e]
                out[n] = _reachable(k, xs, os, height, bottom)
            else:
                out[n] = False
            e += 1
            n += 1


@nb.njit(cache=True, nogil=True)
def bitboards(
    ranks: NDArray[np.int64],
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int32],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    tails: Tails,
    xs: NDArray[np.int64],
    os: NDArray[np.int64],
) -> None:
    """``xs[n]``, ``os[n]``: the X and the O bitboard of rank ``ranks[n]`` of tier `k`.

    A rank in the block of the one before costs a table read (the prefix's bitboards are
    kept per block); a later one a few blocks stepped over, any other a binary search per
    column (:func:`_seek`).
    """
    offset, _, tail_xs, tail_os, _ = tails
    cols = table.shape[0]
    s, r_at, x_at, cursor = _scratch(cols)  # an empty block: the first seek unranks
    none = np.empty(0, dtype=np.int64)
    for n in range(ranks.shape[0]):
        distance = ranks[n] - cursor[_BASE]  # in the current block: no call (nor its refcounts)
        if 0 <= distance < cursor[_COUNT]:
            e = cursor[_FIRST] + distance
        else:
            e = _seek(
                ranks[n], k, rows, table, nxt, h_of, x_of, offset, s, r_at, x_at, cursor, none
            )
        xs[n] = cursor[_XS] | tail_xs[e]
        os[n] = cursor[_OS] | tail_os[e]


@nb.njit(cache=True, nogil=True, inline="always")
def _mirror_first(s: NDArray[np.int64], place: int, state: int) -> bool:
    """Whether board ``s`` with `state` at `place` is above its mirror image (ranks higher:
    the first mirror pair of places that differ holds the larger state first)."""
    for j in range(s.shape[0] // 2):
        a = state if 2 * j == place else s[2 * j]
        b = state if 2 * j + 1 == place else s[2 * j + 1]
        if a != b:
            return a > b
    return False


@nb.njit(cache=True, nogil=True)
def children(
    ranks: NDArray[np.int64],
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int32],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    tails: Tails,
    primitive: NDArray[np.uint8],
    indptr: NDArray[np.int64],
    child: NDArray[np.int64],
) -> int:
    """Fill ``primitive[i]``, ``indptr[i + 1]`` and the canonical child ranks (tier ``k + 1``,
    columns left to right) of every rank; return the number of moves. `child` needs room for
    ``cols`` moves per rank.

    LOSE where the last mover has four in a row, TIE on a full board, else one move per open
    column, each child the smaller of its rank and its mirror image's. A child's rank is a
    sum kept per block of ranks plus a table read; only a child whose mirror image ranks
    lower (it is then the canonical one) costs a pass over the columns.
    """
    offset, tail_states, tail_xs, tail_os, tail_child = tails
    cols = table.shape[0]
    width = min(2, cols)
    upto = cols - width
    height = rows + 1
    full = k == rows * cols
    s, r_at, x_at, cursor = _scratch(cols)  # an empty block: the first seek unranks
    prefix_child = np.empty(0 if full else upto, dtype=np.int64)
    x_moves = 1 if k % 2 == 0 else 0
    m = 0
    indptr[0] = 0
    for n in range(ranks.shape[0]):
        distance = ranks[n] - cursor[_BASE]  # in the current block: no call (nor its refcounts)
        if 0 <= distance < cursor[_COUNT]:
            e = cursor[_FIRST] + distance
        else:
            e = _seek(
                ranks[n],
                k,
                rows,
                table,
                nxt,
                h_of,
                x_of,
                offset,
                s,
                r_at,
                x_at,
                cursor,
                prefix_child,
            )
        for t in range(width):
            s[upto + t] = tail_states[e, t]
        xs = cursor[_XS] | tail_xs[e]
        os = cursor[_OS] | tail_os[e]
        if four(xs if k % 2 else os, height):
            primitive[n] = LOSE
        elif full:
            primitive[n] = TIE
        else:
            primitive[n] = UNDECIDED
            index = e - cursor[_FIRST]
            split = 0  # the first mirror pair that differs, and whether s is above its mirror
            while split < cols // 2 and s[2 * split] == s[2 * split + 1]:
                split += 1
            above = split < cols // 2 and s[2 * split] > s[2 * split + 1]
            for c in range(cols):
                p = _place(c, cols)
                h = h_of[s[p]]
                if h == rows:
                    continue
                state = s[p] + ((1 + x_moves) << h)  # a stone raises its column's state
                if 2 * c + 1 == cols or p // 2 > split:
                    flipped = above  # the first differing pair is unchanged
                elif p // 2 < split:
                    flipped = p % 2 == 0  # the pair differs now, the left column higher
                else:
                    flipped = _mirror_first(s, p, state)
                if flipped:  # the mirror image's rank, written out here (no array call)
                    r, x = k + 1, (k + 2) // 2
                    rank = 0
                    for i in range(cols):
                        q = i ^ 1 if i ^ 1 < cols else i  # its mirror's place
                        column = state if q == p else s[q]
                        rank += table[cols - 1 - i, r, x, column]
                        r -= h_of[column]
                        x -= x_of[column]
                    child[m] = rank
                elif p < upto:
                    child[m] = prefix_child[p] + index
                else:
                    child[m] = cursor[_TAIL_CHILD] + tail_child[e, x_moves, p - upto]
                m += 1
        indptr[n + 1] = m
    return m


@nb.njit(cache=True, nogil=True)
def orbit_sizes(
    ranks: NDArray[np.int64],
    k: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[i]``: 1 if the board of ``ranks[i]`` is its own mirror image, else 2."""
    cols = table.shape[0]
    s, r_at, x_at, _ = _scratch(cols)
    for n in range(ranks.shape[0]):
        _unrank(ranks[n], k, cols, table, h_of, x_of, s, r_at, x_at)
        out[n] = 1
        for j in range(cols // 2):
            if s[2 * j] != s[2 * j + 1]:
                out[n] = 2


@nb.njit(cache=True, nogil=True)
def unrank_boards(
    ranks: NDArray[np.int64],
    k: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[i]``: the column states of rank ``ranks[i]`` of tier `k`, left to right (shape
    ``(n, cols)``)."""
    cols = table.shape[0]
    s, r_at, x_at, _ = _scratch(cols)
    for n in range(ranks.shape[0]):
        _unrank(ranks[n], k, cols, table, h_of, x_of, s, r_at, x_at)
        for p in range(cols):
            out[n, _column(p, cols)] = s[p]


@nb.njit(cache=True, nogil=True)
def rank_boards(
    boards: NDArray[np.int64],
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[i]``: the rank of the column states ``boards[i]`` (left to right) in their tier
    (the number of stones; X has ``(k + 1) // 2`` of them, as the caller checks)."""
    cols = table.shape[0]
    for n in range(boards.shape[0]):
        r = np.int64(0)
        x = np.int64(0)
        for i in range(cols):
            r += h_of[boards[n, i]]
            x += x_of[boards[n, i]]
        rank = np.int64(0)
        for p in range(cols):
            state = boards[n, _column(p, cols)]
            rank += table[cols - 1 - p, r, x, state]
            r -= h_of[state]
            x -= x_of[state]
        out[n] = rank
