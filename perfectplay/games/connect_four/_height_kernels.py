"""numba kernels of Connect Four tiered by column heights (see
:mod:`perfectplay.games.connect_four.heights`).

A tier is a vector of column heights ``h``; its ``n = sum(h)`` filled cells, taken in
bitboard order (column by column, bottom up: the set bits of the tier's *filled mask*), are
numbered ``0..n-1``. A board of the tier is the set of those cells X holds (``(n + 1) // 2``
of them), and its rank the colex rank of that set: ranks run over every colouring of the
filled cells with the right number of X stones, in increasing order of the set as an
``n``-bit mask, so consecutive ranks are consecutive masks (Gosper's step, no division).

Three tables turn masks into boards and back without a loop over cells:

* ``deposit[j, b]``: the bitboard of byte ``b`` of an ``n``-bit mask (cells ``8j..8j+7``),
  per tier; a board is ``n / 8`` table reads;
* the per-column *offsets* (cells below column ``c`` in the order): a bitboard's cells of a
  tier are gathered into an ``n``-bit mask column by column;
* ``colex[j, k, b]``: the colex rank of byte ``b`` at bits ``8j..8j+7`` when ``k`` set bits
  lie below it (global, 1 MiB); a mask's rank is ``n / 8`` table reads.

Bitboards follow :mod:`perfectplay.games.connect_four._bitboard`: bit ``c * (rows + 1) + r``
is column ``c``, row ``r``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._ranking_kernels import colex_unrank_bits
from perfectplay.games.connect_four._bitboard import four
from perfectplay.games.connect_four._tier_kernels import _reachable
from perfectplay.values import LOSE, TIE, UNDECIDED

__all__ = [
    "build_colex",
    "build_deposit",
    "children",
    "locate_bitboards",
    "orbit_sizes",
    "slots",
]

_BYTES = 8
"""Bytes of a mask of at most 63 cells."""


def build_colex(binom: NDArray[np.int64]) -> NDArray[np.int64]:
    """``colex[j, k, b]``: the colex rank's share of byte `b` at bits ``8j..8j+7`` of a mask
    with ``k`` set bits below that byte (``sum C(8j + i, k + m)`` over its set bits ``i``, the
    ``m``-th of them counting from 1). `binom` holds ``C(t, s)`` for ``t, s < 64``.
    Cost: 131,072 entries of at most 8 terms, once per process."""
    table = np.zeros((_BYTES, 64, 256), dtype=np.int64)
    _fill_colex(binom, table)
    return table


@nb.njit(cache=True, nogil=True)
def _fill_colex(binom: NDArray[np.int64], table: NDArray[np.int64]) -> None:
    for j in range(_BYTES):
        for k in range(64):
            for b in range(256):
                total = 0
                m = k
                for i in range(8):
                    if b >> i & 1:
                        m += 1
                        if 8 * j + i < 64 and m < 64:
                            total += binom[8 * j + i, m]
                table[j, k, b] = total


def build_deposit(filled: int) -> NDArray[np.int64]:
    """``deposit[j, b]``: the bitboard of the cells ``8j + i`` (bit ``i`` of `b` set) of the
    tier whose filled cells are the set bits of `filled`. Cost: 2,048 entries."""
    cells = [bit for bit in range(64) if filled >> bit & 1]
    table = np.zeros((_BYTES, 256), dtype=np.int64)
    byte = np.arange(256)
    for index, cell in enumerate(cells):
        j, i = divmod(index, 8)
        table[j, (byte >> i) & 1 == 1] |= 1 << cell
    return table


@nb.njit(cache=True, nogil=True, inline="always")
def _deposit(mask: int, deposit: NDArray[np.int64]) -> int:
    """The bitboard of an `n`-bit mask of the tier `deposit` belongs to."""
    board = 0
    j = 0
    while mask != 0:
        board |= deposit[j, mask & 255]
        mask >>= 8
        j += 1
    return board


@nb.njit(cache=True, nogil=True, inline="always")
def _gather(board: int, heights: NDArray[np.int64], offsets: NDArray[np.int64], height: int) -> int:
    """The `n`-bit mask of the tier's cells (`heights`, `offsets`) that `board` holds."""
    mask = 0
    for c in range(heights.shape[0]):
        column = (board >> (c * height)) & ((1 << heights[c]) - 1)
        mask |= column << offsets[c]
    return mask


@nb.njit(cache=True, nogil=True, inline="always")
def _colex_rank(mask: int, colex: NDArray[np.int64]) -> int:
    """The colex rank of the set of bits of `mask`."""
    rank = 0
    below = 0
    j = 0
    while mask != 0:
        b = mask & 255
        rank += colex[j, below, b]
        below += popcount(b)
        mask >>= 8
        j += 1
    return rank


@nb.njit(cache=True, nogil=True, inline="always")
def _mirror(board: int, cols: int, height: int) -> int:
    """`board` with its columns in reverse order."""
    column = (1 << height) - 1
    out = 0
    for c in range(cols):
        out |= ((board >> (c * height)) & column) << ((cols - 1 - c) * height)
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def _next_mask(mask: int) -> int:
    """The next larger mask with as many set bits (Gosper's step, shifts only)."""
    low = mask & -mask
    ripple = mask + low
    shift = popcount(low - 1) + 2
    return ripple | ((ripple ^ mask) >> shift)


@nb.njit(cache=True, nogil=True)
def slots(
    start: int,
    n: int,
    x: int,
    filled: int,
    palindrome: bool,
    heights: NDArray[np.int64],
    offsets: NDArray[np.int64],
    rows: int,
    binom: NDArray[np.int64],
    deposit: NDArray[np.int64],
    colex: NDArray[np.int64],
    out: NDArray[np.bool_],
) -> None:
    """``out[i]``: whether rank ``start + i`` of the tier is a board to solve (reachable-looking,
    and in a tier that is its own mirror image, not above its mirror image). Cost: one mask
    step, ``n / 8`` table reads and two four-in-a-row tests per rank; the mirror's rank too in
    a symmetric tier."""
    height = rows + 1
    cols = heights.shape[0]
    bottom = 0
    for c in range(cols):
        bottom |= 1 << (c * height)
    mask = colex_unrank_bits(start, x, n, binom) if x > 0 else 0
    for i in range(out.shape[0]):
        xs = _deposit(mask, deposit)
        ok = _reachable(n, xs, filled ^ xs, height, bottom)
        if ok and palindrome:
            ok = start + i <= _colex_rank(
                _gather(_mirror(xs, cols, height), heights, offsets, height), colex
            )
        out[i] = ok
        if x > 0:
            mask = _next_mask(mask)


@nb.njit(cache=True, nogil=True, inline="always")
def _insert(mask: int, place: int, bit: int) -> int:
    """`mask` with a cell inserted at `place` (the cells above move up one), set if `bit`."""
    low = (1 << place) - 1
    return (mask & low) | ((mask >> place) << (place + 1)) | (bit << place)


_STEPS = 64
"""Ranks stepped over (one mask step each) to reach the next sorted rank; farther ranks are
unranked afresh (``n`` steps)."""


@nb.njit(cache=True, nogil=True)
def children(
    ranks: NDArray[np.int64],
    n: int,
    x: int,
    filled: int,
    rows: int,
    heights: NDArray[np.int64],
    offsets: NDArray[np.int64],
    mirror_offsets: NDArray[np.int64],
    binom: NDArray[np.int64],
    deposit: NDArray[np.int64],
    colex: NDArray[np.int64],
    which_of: NDArray[np.int8],
    mirrored: NDArray[np.bool_],
    symmetric: NDArray[np.bool_],
    primitive: NDArray[np.uint8],
    indptr: NDArray[np.int64],
    which: NDArray[np.int8],
    child: NDArray[np.int64],
) -> int:
    """Primitive values and canonical children of boards `ranks` of the tier; returns the
    number of moves written.

    Per column ``c``: ``which_of[c]`` the child tier's index (0: the column is full),
    ``mirrored[c]`` whether the child's heights are the mirror image of the canonical child
    tier's (the board is mirrored into it), ``symmetric[c]`` whether that tier is its own
    mirror image (the smaller rank of the board and its mirror image is canonical).
    `mirror_offsets` are the cell offsets of the mirrored heights. A child's mask is the
    board's (or its mirror image's) with the new cell inserted, so a move costs ``n / 8``
    table reads. Cost per board: a few mask steps when `ranks` are sorted and close together
    (else one unranking, ``n`` steps), one gathering of the mirror image.
    """
    height = rows + 1
    cols = heights.shape[0]
    full = n == rows * cols
    x_moves = n % 2 == 0
    mirror_needed = False
    for c in range(cols):
        mirror_needed |= mirrored[c] or symmetric[c]
    mirror_heights = heights[::-1].copy()
    m = 0
    mask = 0
    at = np.int64(-1)
    for i in range(ranks.shape[0]):
        indptr[i] = m
        rank = ranks[i]
        if x > 0:
            if at >= 0 and at < rank <= at + _STEPS:
                while at < rank:
                    mask = _next_mask(mask)
                    at += 1
            elif rank != at:
                mask = colex_unrank_bits(rank, x, n, binom)
            at = rank
        xs = _deposit(mask, deposit)
        last = xs if not x_moves else filled ^ xs
        if four(last, height):
            primitive[i] = LOSE
            continue
        if full:
            primitive[i] = TIE
            continue
        primitive[i] = UNDECIDED
        image = 0
        if mirror_needed:
            image = _gather(_mirror(xs, cols, height), mirror_heights, mirror_offsets, height)
        for c in range(cols):
            if which_of[c] == 0:
                continue
            place = offsets[c] + heights[c]
            mirror_place = mirror_offsets[cols - 1 - c] + heights[c]
            if mirrored[c]:
                rank = _colex_rank(_insert(image, mirror_place, x_moves), colex)
            else:
                rank = _colex_rank(_insert(mask, place, x_moves), colex)
                if symmetric[c]:
                    rank = min(rank, _colex_rank(_insert(image, mirror_place, x_moves), colex))
            which[m] = which_of[c]
            child[m] = rank
            m += 1
    indptr[ranks.shape[0]] = m
    return m


@nb.njit(cache=True, nogil=True)
def orbit_sizes(
    ranks: NDArray[np.int64],
    n: int,
    x: int,
    rows: int,
    cols: int,
    binom: NDArray[np.int64],
    deposit: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """``out[i]``: 1 if board `ranks[i]` of a tier that is its own mirror image is its own
    mirror image too, else 2. Cost: one unranking per board."""
    height = rows + 1
    for i in range(ranks.shape[0]):
        xs = _deposit(colex_unrank_bits(ranks[i], x, n, binom) if x > 0 else 0, deposit)
        out[i] = 1 if _mirror(xs, cols, height) == xs else 2


@nb.njit(cache=True, nogil=True)
def locate_bitboards(
    xs: NDArray[np.int64],
    os: NDArray[np.int64],
    rows: int,
    cols: int,
    colex: NDArray[np.int64],
    tiers: NDArray[np.int64],
    ranks: NDArray[np.int64],
) -> int:
    """``tiers[i]``, ``ranks[i]``: the canonical tier and rank of the board whose X and O
    stones are the bitboards ``xs[i]``, ``os[i]``; returns the index of the first board that
    is no board of the tiers (stones overlapping, off the board or floating, X not holding
    ``(n + 1) // 2`` of the ``n`` stones), -1 if none. Cost per board: a pass over the
    columns, ``n / 8`` table reads, twice in a tier that is its own mirror image."""
    height = rows + 1
    column = (1 << height) - 1
    bottom = 0
    for c in range(cols):
        bottom |= 1 << (c * height)
    board = bottom * ((1 << rows) - 1)  # every cell but the guard row
    heights = np.empty(cols, dtype=np.int64)
    offsets = np.empty(cols, dtype=np.int64)
    for i in range(xs.shape[0]):
        x, filled = xs[i], xs[i] | os[i]
        n = popcount(filled)
        if (
            x & os[i] != 0
            or filled & ~board != 0
            or (filled + bottom) & filled != 0  # a stone above an empty cell
            or popcount(x) != (n + 1) // 2
        ):
            return i
        flip = False  # the heights above their mirror image: the first difference decides
        for c in range(cols // 2):
            left = popcount((filled >> (c * height)) & column)
            right = popcount((filled >> ((cols - 1 - c) * height)) & column)
            if left != right:
                flip = left > right
                break
        if flip:
            x = _mirror(x, cols, height)
            filled = _mirror(filled, cols, height)
        tier = 0
        at = 0
        weight = 1
        palindrome = True
        for c in range(cols):
            heights[c] = popcount((filled >> (c * height)) & column)
            offsets[c] = at
            at += heights[c]
            tier += heights[c] * weight
            weight *= height
        for c in range(cols // 2):
            palindrome &= heights[c] == heights[cols - 1 - c]
        rank = _colex_rank(_gather(x, heights, offsets, height), colex)
        if palindrome:
            image = _gather(_mirror(x, cols, height), heights, offsets, height)
            rank = min(rank, _colex_rank(image, colex))
        tiers[i] = tier
        ranks[i] = rank
    return -1
