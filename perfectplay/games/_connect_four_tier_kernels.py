"""numba kernels of Connect Four's tiered form (see :mod:`perfectplay.games.connect_four_tiers`).

A board is a tuple of column states ``s[0..cols-1]``. A column state is an integer in
``1..2**(rows + 1) - 1``: its highest set bit is a sentinel at the column's height ``h``, the
``h`` bits below it hold the stones from the bottom up (1 for X, 0 for O). Tier ``k`` holds the
boards of ``k`` stones, ``(k + 1) // 2`` of them X.

Ranks are a mixed combinatorial number system: with ``r`` stones and ``x`` X stones left for
column ``i`` and the ``j = cols - 1 - i`` columns after it, ``T[j, r, x, s]`` counts the ways to
fill columns ``i..`` whose column ``i`` takes a state smaller than ``s``; the rank of a board is
the sum of its columns' entries. Ranks therefore order a tier's boards lexicographically by
their column states, and the rank of a board is smaller than its mirror image's exactly when its
column tuple is lexicographically smaller than the reversed tuple.

``NV[j, r, x, s]`` is the next state after ``s`` that column ``i`` may take (``2**(rows + 1)``:
none), so the boards of a range of ranks are visited in order with a few table reads each
(:func:`_advance`) instead of a binary search per column.

Bitboards follow :mod:`perfectplay.games._connect_four_kernels`: bit ``c * (rows + 1) + r`` is
column ``c``, row ``r``, with a guard row on top of each column.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay.values import LOSE, TIE, UNDECIDED

__all__ = [
    "build_tables",
    "children",
    "orbit_sizes",
    "rank_boards",
    "slots",
    "unrank_boards",
]

_GAP = 48
"""Ranks at most this far apart are reached by stepping through the boards between them
(about 3 ns a board) rather than by a binary search per column (about 100 ns)."""


@nb.njit(cache=True, nogil=True)
def build_tables(
    rows: int, cols: int
) -> tuple[NDArray[np.int64], NDArray[np.int16], NDArray[np.int64], NDArray[np.int64]]:
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
    nxt = np.empty((cols, kmax + 1, xmax + 1, ns), dtype=np.int16)
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
def _unrank(
    rank: int,
    k: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
) -> None:
    """Fill ``s`` with the board of rank `rank` in tier `k`, and ``r_at[i]``/``x_at[i]``
    with the stones and X stones in columns ``i..`` (binary search per column)."""
    cols = s.shape[0]
    ns = table.shape[3] - 1
    r, x = k, (k + 1) // 2
    for i in range(cols):
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
    r_at[cols], x_at[cols] = r, x


@nb.njit(cache=True, nogil=True)
def _advance(
    nxt: NDArray[np.int16],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
) -> int:
    """Step ``s`` to the board of the next rank; return the first column changed (-1 after
    the tier's last board)."""
    cols = s.shape[0]
    ns = nxt.shape[3]
    for i in range(cols - 1, -1, -1):
        state = nxt[cols - 1 - i, r_at[i], x_at[i], s[i]]
        if state < ns:
            s[i] = state
            for c in range(i, cols):
                if c > i:
                    s[c] = nxt[cols - 1 - c, r_at[c], x_at[c], 0]
                r_at[c + 1] = r_at[c] - h_of[s[c]]
                x_at[c + 1] = x_at[c] - x_of[s[c]]
            return i
    return -1


@nb.njit(cache=True, nogil=True)
def _board_bits(s: NDArray[np.int64], height: int, h_of: NDArray[np.int64]) -> tuple[int, int]:
    """``(x_stones, o_stones)`` bitboards of the board ``s``."""
    xs = 0
    os = 0
    for i in range(s.shape[0]):
        stones = (1 << h_of[s[i]]) - 1
        xs |= (s[i] & stones) << (i * height)
        os |= (~s[i] & stones) << (i * height)
    return xs, os


@nb.njit(cache=True, nogil=True)
def _four(stones: int, height: int) -> bool:
    """Whether `stones` hold four in a row (the guard row stops wrap-around)."""
    pairs = stones & (stones >> 1)
    lines = pairs & (pairs >> 2)
    for d in (height, height + 1, height - 1):
        pairs = stones & (stones >> d)
        lines |= pairs & (pairs >> (2 * d))
    return bool(lines != 0)


@nb.njit(cache=True, nogil=True)
def _is_slot(s: NDArray[np.int64], k: int, xs: int, os: int, height: int, bottom: int) -> bool:
    """Whether the board ``s`` of tier `k` is canonical (its column tuple is not above the
    reversed tuple) and could have been reached: the player to move has no four, and unless the
    board is empty the last mover owns a top stone whose removal leaves them without a four."""
    cols = s.shape[0]
    for i in range(cols // 2):
        if s[i] != s[cols - 1 - i]:
            if s[i] > s[cols - 1 - i]:
                return False
            break
    mover, last = (xs, os) if k % 2 == 0 else (os, xs)
    if _four(mover, height):
        return False
    if k == 0:
        return True
    stones = xs | os
    tops = ((stones + bottom) >> 1) & stones & last
    if not _four(last, height):
        return tops != 0
    while tops != 0:
        top = tops & -tops
        if not _four(last ^ top, height):
            return True
        tops ^= top
    return False


@nb.njit(cache=True, nogil=True)
def slots(
    start: int,
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int16],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    out: NDArray[np.bool_],
) -> None:
    """``out[n]``: whether rank ``start + n`` of tier `k` is a slot (see :func:`_is_slot`).

    One binary-search unrank of `start`, then one step per rank; the bitboards are updated
    only for the columns a step changes.
    """
    cols = table.shape[0]
    height = rows + 1
    bottom = 0
    for i in range(cols):
        bottom |= 1 << (i * height)
    s = np.empty(cols, dtype=np.int64)
    r_at = np.empty(cols + 1, dtype=np.int64)
    x_at = np.empty(cols + 1, dtype=np.int64)
    _unrank(start, k, table, h_of, x_of, s, r_at, x_at)
    xs, os = _board_bits(s, height, h_of)
    for n in range(out.shape[0]):
        out[n] = _is_slot(s, k, xs, os, height, bottom)
        if n + 1 < out.shape[0]:
            first = _advance(nxt, h_of, x_of, s, r_at, x_at)
            for i in range(first, cols):
                keep = ~(((1 << height) - 1) << (i * height))
                stones = (1 << h_of[s[i]]) - 1
                xs = (xs & keep) | ((s[i] & stones) << (i * height))
                os = (os & keep) | ((~s[i] & stones) << (i * height))


@nb.njit(cache=True, nogil=True)
def _child_ranks(
    s: NDArray[np.int64],
    r_at: NDArray[np.int64],
    x_at: NDArray[np.int64],
    x_moves: int,
    rows: int,
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[c]``: the rank in the next tier of board ``s`` with a stone dropped in column
    ``c`` (X's if `x_moves`), for every column not full.

    Columns before ``c`` see one more stone left to place, columns after it the same as in
    ``s``: a prefix and a suffix sum of table entries, 3 reads per column in all.
    """
    cols = s.shape[0]
    after = np.int64(0)
    for c in range(cols - 1, -1, -1):  # out[c] = sum of the unchanged terms of columns > c
        out[c] = after
        after += table[cols - 1 - c, r_at[c], x_at[c], s[c]]
    before = np.int64(0)
    for c in range(cols):
        row = table[cols - 1 - c, r_at[c] + 1, x_at[c] + x_moves]
        h = h_of[s[c]]
        if h < rows:
            out[c] += before + row[s[c] + ((1 + x_moves) << h)]
        before += row[s[c]]


@nb.njit(cache=True, nogil=True)
def children(
    ranks: NDArray[np.int64],
    k: int,
    rows: int,
    table: NDArray[np.int64],
    nxt: NDArray[np.int16],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    primitive: NDArray[np.uint8],
    indptr: NDArray[np.int64],
    child: NDArray[np.int64],
) -> int:
    """Fill ``primitive[i]``, ``indptr[i + 1]`` and the canonical child ranks (tier ``k + 1``,
    columns left to right) of every rank; return the number of moves. `child` needs room for
    ``cols`` moves per rank.

    LOSE where the last mover has four in a row, TIE on a full board, else one move per open
    column, each child the smaller of its rank and its mirror image's. Ranks close after the
    previous one are reached by stepping (:data:`_GAP`), others by a binary search.
    """
    cols = table.shape[0]
    height = rows + 1
    s = np.empty(cols, dtype=np.int64)
    r_at = np.empty(cols + 1, dtype=np.int64)
    x_at = np.empty(cols + 1, dtype=np.int64)
    mirror = np.empty(cols, dtype=np.int64)
    mr_at = np.empty(cols + 1, dtype=np.int64)
    mx_at = np.empty(cols + 1, dtype=np.int64)
    forward = np.empty(cols, dtype=np.int64)
    backward = np.empty(cols, dtype=np.int64)
    x_moves = 1 if k % 2 == 0 else 0
    current = -1
    m = 0
    indptr[0] = 0
    for n in range(ranks.shape[0]):
        target = ranks[n]
        if current < 0 or not 0 <= target - current <= _GAP:
            _unrank(target, k, table, h_of, x_of, s, r_at, x_at)
        else:
            for _ in range(target - current):
                _advance(nxt, h_of, x_of, s, r_at, x_at)
        current = target
        xs, os = _board_bits(s, height, h_of)
        if _four(xs if k % 2 else os, height):
            primitive[n] = LOSE
        elif k == rows * cols:
            primitive[n] = TIE
        else:
            primitive[n] = UNDECIDED
            mr_at[cols], mx_at[cols] = 0, 0
            for i in range(cols - 1, -1, -1):
                mirror[i] = s[cols - 1 - i]
                mr_at[i] = mr_at[i + 1] + h_of[mirror[i]]
                mx_at[i] = mx_at[i + 1] + x_of[mirror[i]]
            _child_ranks(s, r_at, x_at, x_moves, rows, table, h_of, forward)
            _child_ranks(mirror, mr_at, mx_at, x_moves, rows, table, h_of, backward)
            for c in range(cols):
                if h_of[s[c]] < rows:
                    child[m] = min(forward[c], backward[cols - 1 - c])
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
    s = np.empty(cols, dtype=np.int64)
    r_at = np.empty(cols + 1, dtype=np.int64)
    x_at = np.empty(cols + 1, dtype=np.int64)
    for n in range(ranks.shape[0]):
        _unrank(ranks[n], k, table, h_of, x_of, s, r_at, x_at)
        out[n] = 1
        for i in range(cols // 2):
            if s[i] != s[cols - 1 - i]:
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
    """``out[i]``: the column states of rank ``ranks[i]`` of tier `k` (shape ``(n, cols)``)."""
    cols = table.shape[0]
    r_at = np.empty(cols + 1, dtype=np.int64)
    x_at = np.empty(cols + 1, dtype=np.int64)
    for n in range(ranks.shape[0]):
        _unrank(ranks[n], k, table, h_of, x_of, out[n], r_at, x_at)


@nb.njit(cache=True, nogil=True)
def rank_boards(
    boards: NDArray[np.int64],
    table: NDArray[np.int64],
    h_of: NDArray[np.int64],
    x_of: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[i]``: the rank of the column states ``boards[i]`` in their tier (the number of
    stones; X has ``(k + 1) // 2`` of them, as the caller checks)."""
    cols = table.shape[0]
    for n in range(boards.shape[0]):
        r = np.int64(0)
        x = np.int64(0)
        for i in range(cols):
            r += h_of[boards[n, i]]
            x += x_of[boards[n, i]]
        rank = np.int64(0)
        for i in range(cols):
            rank += table[cols - 1 - i, r, x, boards[n, i]]
            r -= h_of[boards[n, i]]
            x -= x_of[boards[n, i]]
        out[n] = rank
