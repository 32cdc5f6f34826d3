"""numba kernels of Connect Four's search on boards past 64 bits: each bitboard in two words.

The search of :mod:`._search_kernels` (the same negamax, pruning, move ordering, bounds and
null-window schedule, the same Pons scores), on boards whose ``(rows + 1) * cols`` bits exceed
one ``uint64``: 7 rows x 9 columns, 8 x 8, 6 x 10, ... (up to 128 bits, ``rows <= 19`` on
boards of 4 columns or more).

Bitboards
---------
A board is John Tromp's layout on a 128-bit integer, bit ``offset + c * (rows + 1) + r`` for the
cell in column ``c``, row ``r``, held as two ``uint64`` words ``(lo, hi)``: bits 0-63 and 64-127.
A column may straddle the two words; shifts carry bits from one word into the other, and a sum
carries from ``lo`` into ``hi``, so every operation of the one-word search has its two-word
twin here (a few more instructions each). ``offset`` is 0 for a real board; a positive
``offset`` moves a small board across the boundary of the words, so that the tests check this
kernel against the one-word one on boards small enough to solve whole.

The table key of ``(current, mask)`` is ``current + mask`` as in the one-word search, here a
number of ``offset + (rows + 1) * cols`` bits: its high word has ``extra`` bits, and the table
(:func:`~perfectplay.search._kernel_table.wide_get`) keeps them in its check, so it needs at
least ``2**(17 + extra)`` entries (7 x 9 and 8 x 8: 256 MiB) and still has no false hits.

The board's masks come in one array ``shape`` of ``cols + 3`` rows of two words: the bottom
cell of every column, every cell, the cells of rows 2, 4, ... (1-based), then each column's
cells (:func:`perfectplay.games.connect_four.wide_search.board_shape` builds it).

Examples
--------
>>> import numpy as np
>>> from perfectplay.search._kernel_table import new_table, wide_shift
>>> from perfectplay.games.connect_four.wide_search import board_shape
>>> slots = new_table(8 << 20)  # 2**20 entries: keys of up to 64 + 3 bits
>>> shape = board_shape(6, 7, 40)  # 6 x 7 moved up by 40 bits: across the two words
>>> current, mask = 0x10200000 << 40, 0x10604000 << 40  # 4453
>>> words = [np.uint64(x >> s & (2**64 - 1)) for x in (current, mask) for s in (0, 64)]
>>> int(solve_kernel(*words, 4, 6, 7, shape, False, slots, wide_shift(slots, 3), 3)[0])
-2
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._prefetch import prefetch
from perfectplay.games.connect_four._search_kernels import (
    ETC_MIN_EMPTY,
    INVALID_MOVE,
    next_probe,
)
from perfectplay.search._kernel_table import NO_BOUND, wide_get, wide_put, wide_slot

__all__ = [
    "move_bounds_kernel",
    "move_scores_kernel",
    "solve_kernel",
    "solve_many_kernel",
]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_WORD = np.uint64(64)
_LINES_MAX_HEIGHT = np.uint64(20)
"""The tallest column (guard bit included) whose rows and diagonals are searched: boards of 4
columns or more have at most 19 rows here, so those directions' shifts (up to
``3 * (height + 1)``) stay below one word. Taller columns come 1 to 3 to a board, where only a
column holds four: the column direction alone."""

Words = tuple[Any, Any]
"""A bitboard: ``(lo, hi)``, two uint64."""
Geometry = tuple[Any, Any, Any, Any, Any]
"""``(height, bottom lo, bottom hi, board lo, board hi)``, uint64."""


# ---------------------------------------------------------------------------- two-word arithmetic
@nb.njit(cache=True, inline="always")
def _shl(lo: Any, hi: Any, s: Any) -> Words:
    """The bitboard shifted up by `s` bits, ``0 < s < 64``."""
    return lo << s, (hi << s) | (lo >> (_WORD - s))


@nb.njit(cache=True, inline="always")
def _shr(lo: Any, hi: Any, s: Any) -> Words:
    """The bitboard shifted down by `s` bits, ``0 < s < 64``."""
    return (lo >> s) | (hi << (_WORD - s)), hi >> s


@nb.njit(cache=True, inline="always")
def _shl_far(lo: Any, hi: Any, s: Any) -> Words:
    """The bitboard shifted up by `s` bits, ``0 < s < 128``."""
    if s >= _WORD:
        return _ZERO, lo << (s - _WORD)
    return _shl(lo, hi, s)


@nb.njit(cache=True, inline="always")
def _add(alo: Any, ahi: Any, blo: Any, bhi: Any) -> Words:
    """The sum of two bitboards (mod 2**128), the carry of the low words into the high."""
    lo = alo + blo
    return lo, ahi + bhi + np.uint64(lo < alo)


@nb.njit(cache=True, inline="always")
def _many(lo: Any, hi: Any) -> bool:
    """Whether more than one bit is set."""
    if lo:
        return hi != _ZERO or (lo & (lo - _ONE)) != _ZERO
    return (hi & (hi - _ONE)) != _ZERO


@nb.njit(cache=True, inline="always")
def _geometry(rows: int, shape: NDArray[np.uint64]) -> Geometry:
    return np.uint64(rows + 1), shape[0, 0], shape[0, 1], shape[1, 0], shape[1, 1]


# ---------------------------------------------------------------------------- board helpers
@nb.njit(cache=True, inline="always")
def _winning_spots(slo: Any, shi: Any, mlo: Any, mhi: Any, g: Geometry) -> Words:
    """Empty cells that would complete a line of four of the stones ``(slo, shi)``: three of
    them next to the cell along a direction, all on one side or two and one (as the one-word
    ``_winning_spots``)."""
    a, b = _shl(slo, shi, _ONE)
    c, e = _shl(slo, shi, np.uint64(2))
    f, h = _shl(slo, shi, np.uint64(3))
    rlo = a & c & f
    rhi = b & e & h
    height = g[0]
    if height > _LINES_MAX_HEIGHT:
        return rlo & (g[3] ^ mlo), rhi & (g[4] ^ mhi)
    for d in (height, height - _ONE, height + _ONE):
        d2 = d + d
        u1lo, u1hi = _shl(slo, shi, d)
        u2lo, u2hi = _shl(slo, shi, d2)
        u3lo, u3hi = _shl(slo, shi, d2 + d)
        v1lo, v1hi = _shr(slo, shi, d)
        v2lo, v2hi = _shr(slo, shi, d2)
        v3lo, v3hi = _shr(slo, shi, d2 + d)
        rlo |= u1lo & u2lo & (u3lo | v1lo)
        rhi |= u1hi & u2hi & (u3hi | v1hi)
        rlo |= v1lo & v2lo & (v3lo | u1lo)
        rhi |= v1hi & v2hi & (v3hi | u1hi)
    return rlo & (g[3] ^ mlo), rhi & (g[4] ^ mhi)


@nb.njit(cache=True, inline="always")
def _possible(mlo: Any, mhi: Any, g: Geometry) -> Words:
    """The cell each stone would land on, one per open column."""
    lo, hi = _add(mlo, mhi, g[1], g[2])
    return lo & g[3], hi & g[4]


@nb.njit(cache=True, inline="always")
def _non_losing(clo: Any, chi: Any, mlo: Any, mhi: Any, g: Geometry) -> Words:
    """Moves that do not let the opponent win at once (the one-word ``_non_losing``)."""
    plo, phi = _possible(mlo, mhi, g)
    tlo, thi = _winning_spots(clo ^ mlo, chi ^ mhi, mlo, mhi, g)
    flo = plo & tlo
    fhi = phi & thi
    if flo | fhi:
        if _many(flo, fhi):
            return _ZERO, _ZERO
        plo, phi = flo, fhi
    below_lo, below_hi = _shr(tlo, thi, _ONE)
    return plo & ~below_lo, phi & ~below_hi


@nb.njit(cache=True, inline="always")
def _can_win_now(clo: Any, chi: Any, mlo: Any, mhi: Any, g: Geometry) -> bool:
    """Whether the player to move has a winning move."""
    slo, shi = _winning_spots(clo, chi, mlo, mhi, g)
    plo, phi = _possible(mlo, mhi, g)
    return ((slo & plo) | (shi & phi)) != _ZERO


@nb.njit(cache=True, inline="always")
def _line_starts(slo: Any, shi: Any, d: Any) -> Words:
    """Bit i: cells i, i + d, i + 2d and i + 3d all hold stones."""
    a, b = _shr(slo, shi, d)
    a &= slo
    b &= shi
    c, e = _shr(a, b, d + d)
    return a & c, b & e


@nb.njit(cache=True, inline="always")
def _fours(slo: Any, shi: Any, height: Any) -> Words:
    """The cells of the stones that lie on a line of four of them."""
    clo = _ZERO
    chi = _ZERO
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and height > _LINES_MAX_HEIGHT:
            break
        a, b = _line_starts(slo, shi, d)
        c, e = _shl(a, b, d)
        a |= c
        b |= e
        c, e = _shl(a, b, d + d)
        clo |= a | c
        chi |= b | e
    return clo, chi


@nb.njit(cache=True, inline="always")
def _has_four(slo: Any, shi: Any, height: Any) -> bool:
    """Whether the stones hold a line of four."""
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and height > _LINES_MAX_HEIGHT:
            break
        a, b = _line_starts(slo, shi, d)
        if a | b:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _evens_bound(
    clo: Any,
    chi: Any,
    mlo: Any,
    mhi: Any,
    n: int,
    rows: int,
    cells: int,
    g: Geometry,
    shape: NDArray[np.uint64],
) -> int:
    """The one-word ``_evens_bound`` (the second player's claimeven) on two words."""
    plo, phi = _possible(mlo, mhi, g)
    tlo = (clo ^ mlo) | (shape[2, 0] & g[3] & ~mlo & ~plo)
    thi = (chi ^ mhi) | (shape[2, 1] & g[4] & ~mhi & ~phi)
    if _has_four(g[3] & ~tlo, g[4] & ~thi, g[0]):
        return 1000
    llo, lhi = _fours(tlo, thi, g[0])
    llo &= ~mlo
    lhi &= ~mhi
    if (llo | lhi) == _ZERO:
        return 0
    top = 0  # the highest row of an empty cell of some line
    for r in range(rows - 1, 0, -1):
        blo, bhi = _shl_far(g[1], g[2], np.uint64(r))
        if (llo & blo) | (lhi & bhi):
            top = r
            break
    last = cells - (rows - 1 - top)
    last -= (last - n) % 2
    return -((cells + 2 - last) // 2)


# ---------------------------------------------------------------------------- the search
@nb.njit(cache=True)
def _search(
    root: NDArray[np.uint64],
    n0: int,
    alpha0: int,
    beta0: int,
    rows: int,
    cols: int,
    shape: NDArray[np.uint64],
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    stack: NDArray[np.uint64],
    windows: NDArray[np.int64],
    moves: NDArray[np.uint64],
    order_scores: NDArray[np.int64],
) -> tuple[int, int]:
    """The one-word ``_search`` on two-word bitboards: ``(bound, nodes)`` of the position
    `root` = (current lo, current hi, mask lo, mask hi), fail-hard in ``[alpha0, beta0]``.

    ``stack[d]`` = (current lo, hi, mask lo, hi, key lo, hi), ``moves[d, j]`` a move's two
    words; ``windows`` and ``order_scores`` as in the one-word search.
    """
    g = _geometry(rows, shape)
    cells = rows * cols
    nodes = 0
    d = 0
    for i in range(4):
        stack[0, i] = root[i]
    windows[0, 0] = alpha0
    windows[0, 1] = beta0
    while True:
        # ---- enter node d: settle it at once (into `value`) or descend into its first move
        windows[d, 5] = nodes
        nodes += 1
        n = n0 + d
        clo = stack[d, 0]
        chi = stack[d, 1]
        mlo = stack[d, 2]
        mhi = stack[d, 3]
        klo, khi = _add(clo, chi, mlo, mhi)
        stack[d, 4] = klo
        stack[d, 5] = khi
        alpha = windows[d, 0]
        beta = windows[d, 1]
        settled = True
        forced = False
        value = 0
        plo, phi = _non_losing(clo, chi, mlo, mhi, g)
        if (plo | phi) == _ZERO:  # the opponent wins with the next stone, stone n + 2
            value = -((cells - n) // 2)
        elif n >= cells - 2:  # at most two stones left and neither wins: a tie
            value = 0
        else:
            low = -((cells - 2 - n) // 2)
            high = (cells - 1 - n) // 2
            if alpha < low:
                alpha = low
            if beta > high:
                beta = high
            if alpha >= beta:
                value = alpha if alpha == low else beta
            elif not _many(plo, phi):  # one move does not lose at once: neither probed nor stored
                settled = False
                forced = True
            else:
                stored_low, stored_high = wide_get(slots, shift, extra, klo, khi)
                if stored_low != NO_BOUND and stored_low >= beta:
                    value = stored_low
                elif stored_high != NO_BOUND and stored_high <= alpha:
                    value = stored_high
                else:
                    if stored_low != NO_BOUND and stored_low > alpha:
                        alpha = stored_low
                    if stored_high != NO_BOUND and stored_high < beta:
                        beta = stored_high
                    if alpha >= beta:
                        value = alpha
                    elif rows % 2 == 0 and n % 2 == 0:
                        bound = _evens_bound(clo, chi, mlo, mhi, n, rows, cells, g, shape)
                        if bound < beta:
                            beta = bound
                        if alpha >= beta:
                            value = beta
                        else:
                            settled = False
                    else:
                        settled = False
        olo = clo ^ mlo
        ohi = chi ^ mhi
        if forced:
            moves[d, 0, 0] = plo
            moves[d, 0, 1] = phi
            ck = _add(olo, ohi, mlo | plo, mhi | phi)
            prefetch(slots, wide_slot(shift, extra, ck[0], ck[1]))
            windows[d, 0] = alpha
            windows[d, 1] = beta
            windows[d, 2] = 1
            windows[d, 3] = 0
            windows[d, 4] = 1
        elif not settled:
            # Moves by the winning cells they create, center first on ties; a move creating two
            # threats the opponent cannot both stop wins with stone n + 3.
            k = 0
            for i in range(cols):
                c = cols // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2
                mvlo = plo & shape[3 + c, 0]
                mvhi = phi & shape[3 + c, 1]
                if (mvlo | mvhi) == _ZERO:
                    continue
                slo, shi = _winning_spots(clo | mvlo, chi | mvhi, mlo, mhi, g)
                rlo, rhi = _possible(mlo | mvlo, mhi | mvhi, g)
                wlo = slo & rlo
                whi = shi & rhi
                above_lo, above_hi = _shl(wlo, whi, _ONE)
                below_lo, below_hi = _shr(slo, shi, _ONE)
                if (
                    _many(wlo, whi)
                    or (slo & above_lo) | (shi & above_hi)
                    or ((rlo & ~below_lo) | (rhi & ~below_hi)) == _ZERO
                ):
                    value = (cells - 1 - n) // 2
                    settled = True
                    break
                s = popcount(slo) + popcount(shi)
                j = k
                while j > 0 and order_scores[d, j - 1] < s:
                    moves[d, j, 0] = moves[d, j - 1, 0]
                    moves[d, j, 1] = moves[d, j - 1, 1]
                    order_scores[d, j] = order_scores[d, j - 1]
                    j -= 1
                moves[d, j, 0] = mvlo
                moves[d, j, 1] = mvhi
                order_scores[d, j] = s
                ck = _add(olo, ohi, mlo | mvlo, mhi | mvhi)
                prefetch(slots, wide_slot(shift, extra, ck[0], ck[1]))
                k += 1
            if not settled:
                high = (cells - 3 - n) // 2  # no win with stone n + 3: at best with n + 5
                if beta > high:
                    beta = high
                    if alpha >= beta:
                        value = beta
                        settled = True
            windows[d, 0] = alpha
            windows[d, 1] = beta
            windows[d, 2] = k
            windows[d, 3] = 0
            windows[d, 4] = 0
            if not settled and cells - n >= ETC_MIN_EMPTY:  # enhanced transposition cutoffs
                for j in range(k):
                    ck = _add(olo, ohi, mlo | moves[d, j, 0], mhi | moves[d, j, 1])
                    _, child_high = wide_get(slots, shift, extra, ck[0], ck[1])
                    if child_high != NO_BOUND and -child_high >= beta:
                        value = -child_high
                        settled = True
                        wide_put(slots, shift, extra, klo, khi, value, NO_BOUND, 1)
                        break
        if settled:
            # ---- unwind: node d is settled with `value`; hand it up to its parents
            while d > 0:
                d -= 1
                value = -value
                if value >= windows[d, 1]:  # fail high: a lower bound of the parent
                    if windows[d, 4] == 0:
                        wide_put(
                            slots, shift, extra, stack[d, 4], stack[d, 5], value, NO_BOUND,
                            nodes - windows[d, 5],
                        )  # fmt: skip
                    continue
                if value > windows[d, 0]:
                    windows[d, 0] = value
                if windows[d, 3] < windows[d, 2]:
                    break  # the parent has moves left: descend into the next one below
                value = windows[d, 0]  # every move failed low: an upper bound
                if windows[d, 4] == 0:
                    wide_put(
                        slots, shift, extra, stack[d, 4], stack[d, 5], NO_BOUND, value,
                        nodes - windows[d, 5],
                    )  # fmt: skip
            else:
                return value, nodes
        # ---- descend into node d's next move
        i = windows[d, 3]
        windows[d, 3] = i + 1
        mlo = stack[d, 2]
        mhi = stack[d, 3]
        stack[d + 1, 0] = stack[d, 0] ^ mlo
        stack[d + 1, 1] = stack[d, 1] ^ mhi
        stack[d + 1, 2] = mlo | moves[d, i, 0]
        stack[d + 1, 3] = mhi | moves[d, i, 1]
        windows[d + 1, 0] = -windows[d, 1]
        windows[d + 1, 1] = -windows[d, 0]
        d += 1


@nb.njit(cache=True, inline="always")
def _work_arrays(
    depth: int, cols: int
) -> tuple[NDArray[np.uint64], NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64]]:
    """The rows of :func:`_search` for `depth` plies: stack, windows, moves, order scores."""
    return (
        np.empty((depth, 6), dtype=np.uint64),
        np.empty((depth, 6), dtype=np.int64),
        np.empty((depth, cols, 2), dtype=np.uint64),
        np.empty((depth, cols), dtype=np.int64),
    )


@nb.njit(cache=True)
def solve_kernel(
    current_lo: np.uint64,
    current_hi: np.uint64,
    mask_lo: np.uint64,
    mask_hi: np.uint64,
    n: int,
    rows: int,
    cols: int,
    shape: NDArray[np.uint64],
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: int,
) -> tuple[int, int]:
    """``(score, nodes)`` of a position where nobody has four yet: the one-word
    ``solve_kernel`` with each bitboard as two words (`extra`: the bits of the key's high
    word, the table's :func:`~perfectplay.search._kernel_table.wide_shift` of it in `shift`)."""
    g = _geometry(rows, shape)
    cells = rows * cols
    if _can_win_now(current_lo, current_hi, mask_lo, mask_hi, g):
        return (1 if weak else (cells + 1 - n) // 2), 1
    if n >= cells:
        return 0, 1
    root = np.array([current_lo, current_hi, mask_lo, mask_hi], dtype=np.uint64)
    stack, windows, moves, order_scores = _work_arrays(cells - n + 1, cols)
    nodes = 0
    low = -((cells - n) // 2)
    high = (cells + 1 - n) // 2
    probes = 0
    while low < high:
        med, probes, go = next_probe(low, high, weak, probes, n)
        if not go:
            break
        r, k = _search(
            root, n, med, med + 1, rows, cols, shape, slots, shift, np.uint64(extra),
            stack, windows, moves, order_scores,
        )  # fmt: skip
        nodes += k
        if r <= med:
            high = r
        else:
            low = r
    if weak:
        return (low > 0) - (high < 0), nodes
    return low, nodes


@nb.njit(cache=True)
def move_scores_kernel(
    current_lo: np.uint64,
    current_hi: np.uint64,
    mask_lo: np.uint64,
    mask_hi: np.uint64,
    n: int,
    rows: int,
    cols: int,
    shape: NDArray[np.uint64],
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: int,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` (``INVALID_MOVE``
    for a full column); return the nodes searched. Parameters as :func:`solve_kernel`."""
    g = _geometry(rows, shape)
    cells = rows * cols
    wlo, whi = _winning_spots(current_lo, current_hi, mask_lo, mask_hi, g)
    plo, phi = _possible(mask_lo, mask_hi, g)
    nodes = 0
    for c in range(cols):
        mvlo = plo & shape[3 + c, 0]
        mvhi = phi & shape[3 + c, 1]
        if (mvlo | mvhi) == _ZERO:
            out[c] = INVALID_MOVE
        elif (mvlo & wlo) | (mvhi & whi):
            out[c] = (cells + 1 - n) // 2 if not weak else 1
        else:
            score, k = solve_kernel(
                current_lo ^ mask_lo, current_hi ^ mask_hi, mask_lo | mvlo, mask_hi | mvhi,
                n + 1, rows, cols, shape, weak, slots, shift, extra,
            )  # fmt: skip
            out[c] = -score
            nodes += k
    return nodes


@nb.njit(cache=True)
def move_bounds_kernel(
    current_lo: np.uint64,
    current_hi: np.uint64,
    mask_lo: np.uint64,
    mask_hi: np.uint64,
    n: int,
    rows: int,
    cols: int,
    shape: NDArray[np.uint64],
    alpha: int,
    beta: int,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: int,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` bounded by the
    window ``alpha < beta`` (the one-word ``move_bounds_kernel``); return the nodes searched."""
    g = _geometry(rows, shape)
    cells = rows * cols
    wlo, whi = _winning_spots(current_lo, current_hi, mask_lo, mask_hi, g)
    plo, phi = _possible(mask_lo, mask_hi, g)
    stack, windows, moves, order_scores = _work_arrays(cells - n + 1, cols)
    child = np.empty(4, dtype=np.uint64)
    nodes = 0
    for c in range(cols):
        mvlo = plo & shape[3 + c, 0]
        mvhi = phi & shape[3 + c, 1]
        if (mvlo | mvhi) == _ZERO:
            out[c] = INVALID_MOVE
            continue
        if (mvlo & wlo) | (mvhi & whi):
            out[c] = (cells + 1 - n) // 2
            continue
        child[0] = current_lo ^ mask_lo
        child[1] = current_hi ^ mask_hi
        child[2] = mask_lo | mvlo
        child[3] = mask_hi | mvhi
        if _can_win_now(child[0], child[1], child[2], child[3], g):
            out[c] = -((cells - n) // 2)  # the opponent wins with stone n + 2
        elif n + 1 >= cells:
            out[c] = 0
        else:
            r, k = _search(
                child, n + 1, -beta, -alpha, rows, cols, shape, slots, shift, np.uint64(extra),
                stack, windows, moves, order_scores,
            )  # fmt: skip
            out[c] = -r
            nodes += k
    return nodes


@nb.njit(cache=True)
def solve_many_kernel(
    boards: NDArray[np.uint64],
    rows: int,
    cols: int,
    shape: NDArray[np.uint64],
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: int,
    scores: NDArray[np.int64],
) -> int:
    """:func:`solve_kernel` of every position ``boards[i]`` = (current lo, current hi, mask
    lo, mask hi) into ``scores[i]``, one table for all; return the nodes searched.

    Every position must be one where nobody has four yet.
    """
    nodes = 0
    for i in range(boards.shape[0]):
        b = boards[i]
        n = popcount(b[2]) + popcount(b[3])
        score, k = solve_kernel(
            b[0], b[1], b[2], b[3], n, rows, cols, shape, weak, slots, shift, extra
        )
        scores[i] = score
        nodes += k
    return nodes
