"""numba kernels of Quixo's tiered form (see :mod:`perfectplay.games.quixo.tiers`).

A board is two bitboards, bit ``d`` for cell ``d = row * n + col`` (row 0 on top): ``x`` (the X
cubes) and ``o`` (the O cubes), joined in one int64 *word* ``(x << 32) | o``. The word is also
the order of canonical forms: the canonical form of a board is the symmetric image with the
smallest word, and ranks grow with the word (below), so it is also the image of smallest rank.

**Ranking** of tier ``(nx, no)`` (``nx`` X cubes, ``no`` O cubes): the colex rank of ``x`` among
the ``C(N, nx)`` patterns of ``nx`` cells, then the colex rank of ``o`` compressed to the
``N - nx`` cells ``x`` leaves free (``C(N - nx, no)`` patterns), then the player to move as the
lowest bit: ``rank = ((rank_x * C(N - nx, no) + rank_o) << 1) | turn``. Colex order of patterns
of equal size is their numeric order, and compressing ``o`` to the free cells keeps its order,
so for one turn the rank order is the order of ``(x, o)``, the order of words.

Every kernel reads tables (:class:`Tables`) built once per board size: binomials
(:func:`perfectplay._ranking.binomials`), per-byte colex
contributions, per-byte bit gather/scatter (``pext``/``pdep``), per-byte images under the seven
non-trivial symmetries, the moves' masks and the lines' first cells; boards of at most 16 cells
(3x3, 4x4) also rank and unrank a pattern by one look-up (every pattern's colex rank, and the
patterns in colex order: 2^16 entries each). A move is one edge cell ``src``
pushed back in at ``dest``, the far end of its row or column: the cubes on ``seg`` (from
``dest`` up to, not including, ``src``) move one cell towards ``src`` (a shift of ``shift`` bits,
both bitboards at once) and the mover's cube lands on ``dest``. Lines are found for both
players at once by shifts of the word (a row is full where ``w & w >> 1 & ... & w >> n-1`` keeps
its first cell).

Speed (4x4, largest tiers, one core): ~45 M canonical children per second, ~30 M parents per
second, ~190 M ranks per second for :func:`slots`; ``benchmarks/bench_quixo.py`` prints them.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._ranking import binomials
from perfectplay.games._square_board import square_symmetries
from perfectplay.values import LOSE, UNDECIDED, WIN

__all__ = [
    "DIRECTIONS",
    "Tables",
    "boards",
    "children",
    "orbit_sizes",
    "parents",
    "ranks",
    "slots",
    "tables",
]

DIRECTIONS = "RLDU"
"""Where a move pushes the cube back in: the Right or Left end of its row, the Down (bottom) or
Up (top) end of its column; GamesmanOne's move order per source index."""

_LANE = 32  # the X bitboard sits above bit 32 of a word, the O bitboard below


class Tables(NamedTuple):
    """Lookup tables of one board size, passed to every kernel as one tuple."""

    n: int
    """Board side."""
    cells: int
    """``n * n``."""
    nbytes: int
    """Bytes of a bitboard: ``ceil(cells / 8)``."""
    binom: NDArray[np.int64]
    """``binom[i, k] = C(i, k)`` for ``0 <= i, k <= cells``."""
    colex: NDArray[np.int32]
    """``colex[b, c, v]``: colex contribution of byte ``v`` at byte ``b``, after ``c`` set bits."""
    pop8: NDArray[np.int64]
    """Set bits of each byte."""
    pext8: NDArray[np.uint8]
    """``pext8[m, v]``: the bits of ``v`` where ``m`` is set, gathered to the bottom."""
    pdep8: NDArray[np.uint8]
    """``pdep8[m, v]``: the low bits of ``v`` scattered to the set bits of ``m``."""
    sym: NDArray[np.int32]
    """``sym[s, b, v]``: the image of byte ``v`` at byte ``b`` under symmetry ``s + 1``."""
    src: NDArray[np.int64]
    """Per move: the source cell's bit in both halves of a word."""
    dest: NDArray[np.int64]
    """Per move: the destination cell's bit (one bitboard)."""
    seg: NDArray[np.int64]
    """Per move: the cells that shift (``dest`` up to ``src``, exclusive) in both halves."""
    shift: NDArray[np.int64]
    """Per move: how far the shifting cubes move, in bits (negative: to lower cells)."""
    edge: int
    """The edge cells as a bitboard."""
    starts: NDArray[np.int64]
    """First cells of the rows (column 0) and of the columns (row 0), in both halves."""
    diagonals: NDArray[np.int64]
    """The two main diagonals, in both halves of a word."""
    patterns: NDArray[np.int32]
    """Boards of at most 16 cells: every pattern, by number of cells then value (so pattern
    ``patterns[offsets[k] + r]`` has colex rank ``r`` among those of ``k`` cells); else empty."""
    offsets: NDArray[np.int64]
    """Where the patterns of ``k`` cells start in `patterns`."""
    order: NDArray[np.int32]
    """Boards of at most 16 cells: the colex rank of every pattern; else empty."""


def move_list(n: int) -> list[tuple[str, int, int]]:
    """Every move ``(label, src, dest)`` in GamesmanOne's order (module :mod:`~.quixo`)."""
    edge = [d for d in range(n * n) if d // n in (0, n - 1) or d % n in (0, n - 1)]
    ends = {
        "R": lambda d: d // n * n + n - 1,
        "L": lambda d: d // n * n,
        "D": lambda d: (n - 1) * n + d % n,
        "U": lambda d: d % n,
    }
    per_direction = {key: [d for d in edge if ends[key](d) != d] for key in DIRECTIONS}
    return [
        (
            f"{per_direction[key][i] + 1}{key}",
            per_direction[key][i],
            ends[key](per_direction[key][i]),
        )
        for i in range(3 * n - 4)
        for key in DIRECTIONS
    ]


def _ints(values: list[int]) -> NDArray[np.int64]:
    return np.array(values, dtype=np.int64)


def _byte_table(fn: Any) -> NDArray[np.uint8]:
    return np.array([[fn(m, v) for v in range(256)] for m in range(256)], dtype=np.uint8)


def _pext(m: int, v: int) -> int:
    out, k = 0, 0
    for bit in range(8):
        if m >> bit & 1:
            out |= (v >> bit & 1) << k
            k += 1
    return out


def _pdep(m: int, v: int) -> int:
    out, k = 0, 0
    for bit in range(8):
        if m >> bit & 1:
            out |= (v >> k & 1) << bit
            k += 1
    return out


@cache
def tables(n: int) -> Tables:
    """The kernels' tables for the n x n board (built once per size; ~0.1 s)."""
    cells = n * n
    nbytes = (cells + 7) // 8
    binom = binomials(cells, cells)
    pop8 = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
    colex = np.zeros((nbytes, cells + 1, 256), dtype=np.int32)  # below C(25, 12) < 2**31
    for b in range(nbytes):
        for c in range(cells + 1):
            for v in range(256):
                total, k = 0, c
                for bit in range(8):
                    if v >> bit & 1 and 8 * b + bit < cells:
                        k += 1
                        total += int(binom[8 * b + bit, k]) if k <= cells else 0
                colex[b, c, v] = total
    perms = square_symmetries(n)
    sym = np.zeros((7, nbytes, 256), dtype=np.int32)  # images of at most 25 bits
    for s in range(7):
        for b in range(nbytes):
            for v in range(256):
                sym[s, b, v] = sum(
                    1 << perms[s + 1][8 * b + bit]
                    for bit in range(8)
                    if v >> bit & 1 and 8 * b + bit < cells
                )
    both = 1 | (1 << _LANE)
    src, dest, seg, shift = [], [], [], []
    for _, s, d in move_list(n):
        step = 1 if abs(s - d) < n else n
        step = step if s > d else -step
        seg.append(sum(1 << c for c in range(d, s, step)) * both)  # d .. s exclusive
        src.append((1 << s) * both)
        dest.append(1 << d)
        shift.append(step)
    main = sum(1 << (i * n + i) for i in range(n))
    anti = sum(1 << (i * n + n - 1 - i) for i in range(n))
    diagonals = [main * both, anti * both]
    edge = sum(1 << d for d in range(cells) if d // n in (0, n - 1) or d % n in (0, n - 1))
    starts = [sum(1 << (r * n) for r in range(n)) * both, ((1 << n) - 1) * both]
    small = cells <= 16
    every = np.arange(1 << cells if small else 0, dtype=np.int32)
    counts = np.array([bin(p).count("1") for p in range(len(every))], dtype=np.int64)
    patterns = every[np.lexsort((every, counts))]
    offsets = np.zeros(cells + 2, dtype=np.int64)
    offsets[1:] = np.cumsum(binom[cells, : cells + 1])
    order = np.empty(len(every), dtype=np.int32)
    order[patterns] = np.arange(len(every)) - offsets[counts[patterns]]
    return Tables(
        n,
        cells,
        nbytes,
        binom,
        colex,
        pop8,
        _byte_table(_pext),
        _byte_table(_pdep),
        sym,
        _ints(src),
        _ints(dest),
        _ints(seg),
        _ints(shift),
        edge,
        _ints(starts),
        _ints(diagonals),
        patterns,
        offsets,
        order,
    )


# ---------------------------------------------------------------------------- bit helpers
@nb.njit(cache=True, nogil=True, inline="always")
def _colex(p: int, t: Tables) -> int:
    """Colex rank of pattern `p` among the patterns with as many set bits."""
    if t.order.shape[0]:
        return t.order[p]
    rank, count = 0, 0
    for b in range(t.nbytes):
        v = (p >> (8 * b)) & 255
        rank += t.colex[b, count, v]
        count += t.pop8[v]
    return rank


@nb.njit(cache=True, nogil=True, inline="always")
def _gather(v: int, mask: int, t: Tables) -> int:
    """The bits of `v` where `mask` is set, packed to the bottom (pext)."""
    out, k = 0, 0
    for b in range(t.nbytes):
        m = (mask >> (8 * b)) & 255
        out |= t.pext8[m, (v >> (8 * b)) & 255] << k
        k += t.pop8[m]
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def _scatter(v: int, mask: int, t: Tables) -> int:
    """The low bits of `v` spread over the set bits of `mask` (pdep)."""
    out = 0
    for b in range(t.nbytes):
        m = (mask >> (8 * b)) & 255
        k = t.pop8[m]
        out |= t.pdep8[m, v & ((1 << k) - 1)] << (8 * b)
        v >>= k
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def _image(p: int, s: int, t: Tables) -> int:
    out = 0
    for b in range(t.nbytes):
        out |= t.sym[s, b, (p >> (8 * b)) & 255]
    return out


# The 4x4 board's symmetries by shifts on both halves of a word at once (the benchmark size;
# a few dozen register operations instead of 28 table look-ups): columns 0 and 1 (mirror),
# rows 0 and 1 (flip), cells (r, r + k) for k = 1, 2, 3 (transpose by delta swaps).
_C0 = 0x0000111100001111
_C1 = 0x0000222200002222
_R0 = 0x0000000F0000000F
_R1 = 0x000000F0000000F0
_U1 = 0x0000084200000842
_U2 = 0x0000008400000084
_U3 = 0x0000000800000008


@nb.njit(cache=True, nogil=True, inline="always")
def _mirror4(w: int) -> int:
    """Word `w` of a 4x4 board reflected left-right."""
    return ((w & _C0) << 3) | ((w >> 3) & _C0) | ((w & _C1) << 1) | ((w >> 1) & _C1)


@nb.njit(cache=True, nogil=True, inline="always")
def _flip4(w: int) -> int:
    """Word `w` of a 4x4 board reflected top-bottom."""
    return ((w & _R0) << 12) | ((w >> 12) & _R0) | ((w & _R1) << 4) | ((w >> 4) & _R1)


@nb.njit(cache=True, nogil=True, inline="always")
def _transpose4(w: int) -> int:
    """Word `w` of a 4x4 board reflected in its main diagonal."""
    s = ((w >> 3) ^ w) & _U1
    w ^= s | (s << 3)
    s = ((w >> 6) ^ w) & _U2
    w ^= s | (s << 6)
    s = ((w >> 9) ^ w) & _U3
    return w ^ (s | (s << 9))


@nb.njit(cache=True, nogil=True, inline="always")
def _canonical(x: int, o: int, t: Tables) -> tuple[int, int]:
    """The symmetric image of board ``(x, o)`` with the smallest word (4x4: by shifts; other
    sizes: by per-byte image tables, X first, O only where X's image ties)."""
    if t.n == 4:
        w = (x << _LANE) | o
        m = _mirror4(w)
        best = min(w, m, _flip4(w), _flip4(m))
        w = _transpose4(w)
        m = _mirror4(w)
        best = min(best, w, m, _flip4(w), _flip4(m))
        return best >> _LANE, best & ((1 << _LANE) - 1)
    bx, bo = x, o
    for s in range(7):
        ix = _image(x, s, t)
        if ix > bx:
            continue
        io = _image(o, s, t)
        if ix < bx or io < bo:
            bx, bo = ix, io
    return bx, bo


@nb.njit(cache=True, nogil=True, inline="always")
def _rank(x: int, o: int, turn: int, nx: int, no: int, t: Tables) -> int:
    full = (1 << t.cells) - 1
    free = _gather(o, full & ~x, t)
    return ((_colex(x, t) * t.binom[t.cells - nx, no] + _colex(free, t)) << 1) | turn


@nb.njit(cache=True, nogil=True, inline="always")
def _colex_unrank(rank: int, k: int, width: int, t: Tables) -> int:
    """The pattern of `k` cells among `width` with colex rank `rank`."""
    if t.patterns.shape[0]:
        return t.patterns[t.offsets[k] + rank]
    # The greedy steps of perfectplay._ranking_kernels.colex_unrank_bits, written out: handing
    # the table array to that helper makes this kernel 3x slower on 5x5 (reference counts).
    p = 0
    for cell in range(width - 1, -1, -1):
        if k > 0 and t.binom[cell, k] <= rank:
            p |= 1 << cell
            rank -= t.binom[cell, k]
            k -= 1
    return p


@nb.njit(cache=True, nogil=True, inline="always")
def _unrank(rank: int, nx: int, no: int, t: Tables) -> tuple[int, int, int]:
    turn = rank & 1
    rank >>= 1
    per_x = t.binom[t.cells - nx, no]
    rank_x = rank // per_x
    x = _colex_unrank(rank_x, nx, t.cells, t)
    free = _colex_unrank(rank - rank_x * per_x, no, t.cells - nx, t)
    return x, _scatter(free, ((1 << t.cells) - 1) & ~x, t), turn


@nb.njit(cache=True, nogil=True, inline="always")
def _lines(w: int, t: Tables) -> tuple[bool, bool]:
    """Whether X, and whether O, have a line on word `w` (all lines at once, by shifts)."""
    rows, cols = w, w
    for k in range(1, t.n):
        rows &= w >> k
        cols &= w >> (k * t.n)
    full = (rows & t.starts[0]) | (cols & t.starts[1])
    low = (1 << _LANE) - 1
    d1, d2 = t.diagonals[0], t.diagonals[1]
    x_line = (
        (full >> _LANE) != 0 or (w & d1 & ~low) == (d1 & ~low) or (w & d2 & ~low) == (d2 & ~low)
    )
    o_line = (full & low) != 0 or (w & d1 & low) == (d1 & low) or (w & d2 & low) == (d2 & low)
    return x_line, o_line


@nb.njit(cache=True, nogil=True, inline="always")
def _legal(x: int, o: int, turn: int, t: Tables) -> bool:
    """GamesmanOne's legality test: the player who just moved has a cube on the edge (their
    cube landed there), except at the start (empty board, X to move)."""
    if turn == 0:
        return (o & t.edge) != 0 or (x == 0 and o == 0)
    return (x & t.edge) != 0


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def ranks(
    xs: NDArray[np.int64],
    os: NDArray[np.int64],
    turns: NDArray[np.int64],
    nx: int,
    no: int,
    t: Tables,
    canonical: bool,
) -> NDArray[np.int64]:
    """Ranks in tier ``(nx, no)`` of boards ``(xs, os)`` with ``turns`` to move (0 X, 1 O),
    of their canonical forms if `canonical`. ~20 ns per board."""
    out = np.empty(xs.shape[0], dtype=np.int64)
    for i in range(xs.shape[0]):
        x, o = xs[i], os[i]
        if canonical:
            x, o = _canonical(x, o, t)
        out[i] = _rank(x, o, turns[i], nx, no, t)
    return out


@nb.njit(cache=True, nogil=True)
def boards(
    rank: NDArray[np.int64], nx: int, no: int, t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Boards ``(x, o, turn)`` of ranks of tier ``(nx, no)``. ~50 ns per rank."""
    xs = np.empty(rank.shape[0], dtype=np.int64)
    os = np.empty(rank.shape[0], dtype=np.int64)
    turns = np.empty(rank.shape[0], dtype=np.int64)
    for i in range(rank.shape[0]):
        xs[i], os[i], turns[i] = _unrank(rank[i], nx, no, t)
    return xs, os, turns


@nb.njit(cache=True, nogil=True)
def children(
    rank: NDArray[np.int64], nx: int, no: int, which_x: int, which_o: int, t: Tables
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:
    """Primitive values and canonical children of ranks of tier ``(nx, no)``.

    A child that takes a blank cube is in the tier with one more of the mover's cubes:
    `which_x` (X moved) or `which_o` (O moved); otherwise it stays (``which`` 0). One pass,
    a few dozen table look-ups per child (its canonical form and rank).
    """
    count = rank.shape[0]
    moves = t.src.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(count * moves, dtype=np.int8)
    child = np.empty(count * moves, dtype=np.int64)
    full = (1 << t.cells) - 1
    m = 0
    indptr[0] = 0
    for i in range(count):
        x, o, turn = _unrank(rank[i], nx, no, t)
        mine, theirs = (x, o) if turn == 0 else (o, x)
        x_line, o_line = _lines((x << _LANE) | o, t)
        value = UNDECIDED
        if x_line if turn == 0 else o_line:
            value = WIN
        elif o_line if turn == 0 else x_line:
            value = LOSE
        primitive[i] = value
        if value == UNDECIDED:
            word = (x << _LANE) | o
            lane = _LANE if turn == 0 else 0
            flip_tier = which_x if turn == 0 else which_o
            cx, co = nx + (turn == 0), no + (turn == 1)
            for k in range(moves):
                src = t.src[k]
                if theirs & src & full:  # the opponent's cube cannot be taken
                    continue
                seg = t.seg[k]
                moved = word & seg
                moved = moved << t.shift[k] if t.shift[k] > 0 else moved >> -t.shift[k]
                after = (word & ~(seg | src)) | moved | (t.dest[k] << lane)
                bx, bo = _canonical(after >> _LANE, after & full, t)
                if mine & src & full:
                    which[m] = 0
                    child[m] = _rank(bx, bo, 1 - turn, nx, no, t)
                else:
                    which[m] = flip_tier
                    child[m] = _rank(bx, bo, 1 - turn, cx, co, t)
                m += 1
        indptr[i + 1] = m
    return primitive, indptr, which[:m], child[:m]


@nb.njit(cache=True, nogil=True)
def parents(
    rank: NDArray[np.int64], nx: int, no: int, t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Canonical ranks of the slots of tier ``(nx, no)`` with a move inside the tier to each rank.

    The player who just moved put a cube of theirs on ``dest`` and, inside the tier, took it
    from ``src``: undoing shifts the segment back and puts the cube on ``src``. Parents that
    are over (a line) or fail the legality test are left out; a parent with several moves to
    the rank (symmetric moves) is listed as often (the engine counts it once).
    """
    count = rank.shape[0]
    moves = t.src.shape[0]
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(count * moves, dtype=np.int64)
    full = (1 << t.cells) - 1
    m = 0
    indptr[0] = 0
    for i in range(count):
        x, o, turn = _unrank(rank[i], nx, no, t)
        before = 1 - turn  # the player who made the move undone
        lane = _LANE if before == 0 else 0
        word = (x << _LANE) | o
        for k in range(moves):
            dest = t.dest[k] << lane
            if not word & dest:
                continue
            src, seg = t.src[k], t.seg[k]
            whole = seg | src
            moved = word & whole & ~dest
            moved = moved >> t.shift[k] if t.shift[k] > 0 else moved << -t.shift[k]
            prior = (word & ~whole) | moved | (src & (full << lane))
            px, po = prior >> _LANE, prior & full
            x_line, o_line = _lines(prior, t)
            if x_line or o_line or not _legal(px, po, before, t):
                continue
            bx, bo = _canonical(px, po, t)
            out[m] = _rank(bx, bo, before, nx, no, t)
            m += 1
        indptr[i + 1] = m
    return indptr, out[:m]


@nb.njit(cache=True, nogil=True, inline="always")
def _next_pattern(p: int) -> int:
    """The next larger pattern with as many set bits (Gosper's hack)."""
    low = p & -p
    ripple = p + low
    return (((ripple ^ p) >> 2) // low) | ripple


@nb.njit(cache=True, nogil=True, inline="always")
def _is_canonical(x: int, o: int, t: Tables) -> bool:
    for s in range(7):
        ix = _image(x, s, t)
        if ix < x:
            return False
        if ix == x and _image(o, s, t) < o:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def slots(start: int, stop: int, nx: int, no: int, t: Tables) -> NDArray[np.bool_]:
    """Which ranks ``start..stop-1`` of tier ``(nx, no)`` are canonical and legal.

    Walks the boards in rank order (next pattern by Gosper's hack, no unranking per rank).
    """
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    if stop <= start:
        return out
    full = (1 << t.cells) - 1
    x, o, turn = _unrank(start, nx, no, t)
    free = _gather(o, full & ~x, t)
    width = t.cells - nx
    i = 0
    while i < out.shape[0]:
        canonical = _is_canonical(x, o, t)
        for side in range(turn, 2):
            if i < out.shape[0]:
                out[i] = canonical and _legal(x, o, side, t)
                i += 1
        turn = 0
        if no > 0:
            free = _next_pattern(free)
        if no == 0 or free >> width:
            free = (1 << no) - 1
            if nx > 0:
                x = _next_pattern(x)
        o = _scatter(free, full & ~x, t)
    return out


@nb.njit(cache=True, nogil=True)
def orbit_sizes(rank: NDArray[np.int64], nx: int, no: int, t: Tables) -> NDArray[np.int64]:
    """How many distinct boards the 8 symmetries make of each rank's board."""
    out = np.empty(rank.shape[0], dtype=np.int64)
    images = np.empty(8, dtype=np.int64)
    for i in range(rank.shape[0]):
        x, o, _ = _unrank(rank[i], nx, no, t)
        images[0] = (x << _LANE) | o
        for s in range(7):
            images[s + 1] = (_image(x, s, t) << _LANE) | _image(o, s, t)
        distinct = 0
        for a in range(8):
            new = True
            for b in range(a):
                if images[b] == images[a]:
                    new = False
                    break
            distinct += new
        out[i] = distinct
    return out
