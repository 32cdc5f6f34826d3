"""numba kernels of Squadro's tier form (see :mod:`perfectplay.games.squadro.tiers`).

A position is an array ``pos`` of ``2n`` track positions, the top player's pieces ``0..n-1``
then the left player's ``n..2n-1`` (piece ``k``), and the side to move (0 top, 1 left). A tier
fixes every piece's leg (0 out, 1 back, 2 home); within it a piece stands on one of
``sizes[k, leg]`` track positions (its **digit**: the index among them, 0 at the leg's start),
and a rank is

    rank = side * half + sum(digit[k] * mult[k]) = side * half + top * L + left

with ``mult`` the mixed-radix place values of the tier (``half``: the positions of one side to
move), ``top`` and ``left`` the indices of the two sides' **halves** (the digits of one side's
pieces, ``L`` the number of left halves). A half depends only on that side's legs; its table
(:class:`Half`, built once per side and legs) holds each half's digits, track positions and
crossing masks, so a rank decodes with one division and two table rows.

A move depends on the moving piece, its track position and which of its lane's crossings hold
an opponent's piece (``occupied``, one bit per opponent piece): :class:`Tables` holds the
result of every such move (where the piece stops, which pieces it jumps) and every un-move
(where it came from, which pieces it had jumped), so no kernel plays a move step by step.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay.games.squadro.rules import track
from perfectplay.values import LOSE, UNDECIDED

__all__ = [
    "Half",
    "Tables",
    "children",
    "decode",
    "encode",
    "half",
    "parents",
    "slots",
    "tables",
]


class Tables(NamedTuple):
    """The track, move and un-move tables of one set of speeds, passed to every kernel."""

    n: int
    """Pieces a side."""
    home: int
    """Pieces home that win."""
    out: NDArray[np.int64]
    """Per piece ``k``: its speed on the way out (back: ``4 - out``)."""
    places: NDArray[np.int64]
    """``places[k, leg, i]``: the ``i``-th track position piece ``k`` stands on in `leg`."""
    sizes: NDArray[np.int64]
    """``sizes[k, leg]``: how many track positions piece ``k`` stands on in `leg`."""
    order: NDArray[np.int64]
    """``order[k, p]``: the index of track position ``p`` within its leg for piece ``k``, -1
    where piece ``k`` never stands."""
    leg: NDArray[np.int64]
    """``leg[p]``: the leg of track position ``p`` (0 out, 1 back, 2 home)."""
    moves: NDArray[np.int16]
    """``moves[k, p, occupied]``: where piece ``k`` moving from `p` stops (the low 5 bits) and
    the opponent's pieces it jumps (one bit each, above them); 0 where ``k`` never stands."""
    unmove_ptr: NDArray[np.int32]
    """Start of the un-moves of key ``((k * (2n + 3) + p) * 2^n + occupied) * 2^n + back`` in
    ``unmove_from``/``unmove_jumped``: piece ``k`` now at `p` inside its leg, `occupied` the
    opponent's pieces on its lane's crossings, `back` those at their leg's start that could
    stand on its lane (one bit each)."""
    unmove_from: NDArray[np.int8]
    """Per un-move: the track position piece ``k`` came from."""
    unmove_jumped: NDArray[np.int8]
    """Per un-move: the pieces it jumped (a subset of `back`), put back on its lane."""
    unmove_most: int
    """The most un-moves of one key."""


class Half(NamedTuple):
    """The halves of one side with given legs (index: the digits in mixed radix, piece 0
    first), each half's pieces and crossings."""

    digit: NDArray[np.int8]
    """``digit[h, i]``: the digit of piece ``i``."""
    pos: NDArray[np.int8]
    """``pos[h, i]``: the track position of piece ``i``."""
    cells: NDArray[np.int32]
    """The crossings the pieces stand on: bit ``c * n + r`` for column ``c``, row ``r``."""
    occupied: NDArray[np.int32]
    """Bit ``a * n + i``: piece ``i`` stands on the lane of the opponent's piece ``a``."""
    back: NDArray[np.int32]
    """Bit ``a * n + i``: piece ``i`` is at its leg's start (not home) and may stand on the
    lane of the opponent's piece ``a`` in its leg."""
    onward: NDArray[np.int32]
    """``onward[h, i]``: the index of the half with piece ``i`` at the start of its next leg
    (digit 0), the others as in half ``h``, among the halves of the legs with ``i``'s one
    further (0 where ``i`` is home)."""


@cache
def tables(speeds: tuple[int, ...], home: int) -> Tables:
    """The kernels' tables for the top player's out `speeds` and `home` pieces to win."""
    n = len(speeds)
    end = 2 * n + 2
    outs = [*speeds, *(4 - s for s in speeds)]
    places = np.zeros((2 * n, 3, n + 1), dtype=np.int64)
    sizes = np.zeros((2 * n, 3), dtype=np.int64)
    order = np.full((2 * n, end + 1), -1, dtype=np.int64)
    for k, out in enumerate(outs):
        for leg, positions in enumerate(track(n, out)):
            sizes[k, leg] = len(positions)
            for i, p in enumerate(positions):
                places[k, leg, i] = p
                order[k, p] = i
    legs = np.array([0] * (n + 1) + [1] * (n + 1) + [2], dtype=np.int64)
    speed = np.array(outs, dtype=np.int64)
    moves = _move_tables(n, speed, order)
    ptr, origin, put_back = _unmove_tables(n, order, legs, moves)
    most = int(np.diff(ptr).max())
    return Tables(n, home, speed, places, sizes, order, legs, moves, ptr, origin, put_back, most)


def half(t: Tables, side: int, legs: tuple[int, ...]) -> Half:
    """The halves of `side` (0 top, 1 left) whose pieces are on `legs`; O(halves * n)."""
    return Half(*_half(t, side, np.array(legs, dtype=np.int64)))


# ---------------------------------------------------------------------------- helpers
@nb.njit(cache=True, nogil=True, inline="always")
def _lane(p: int, n: int) -> int:
    """The opponent's lane a piece at track position `p` crosses; -1 where it crosses none."""
    if 1 <= p <= n:
        return p - 1
    if n + 2 <= p <= 2 * n + 1:
        return 2 * n + 1 - p
    return -1


@nb.njit(cache=True, nogil=True, inline="always")
def _decode(
    rank: int, legs: NDArray[np.int64], mult: NDArray[np.int64], half: int, t: Tables,
    pos: NDArray[np.int64],
) -> int:  # fmt: skip
    """Fill `pos` with the track positions of `rank`; return the side to move."""
    side = rank // half
    rest = rank - side * half
    for k in range(2 * t.n):
        c = t.sizes[k, legs[k]]
        pos[k] = t.places[k, legs[k], (rest // mult[k]) % c]
    return side


@nb.njit(cache=True, nogil=True, inline="always")
def _encode(
    pos: NDArray[np.int64], side: int, mult: NDArray[np.int64], half: int, t: Tables
) -> int:
    rank = side * half
    for k in range(2 * t.n):
        rank += t.order[k, pos[k]] * mult[k]
    return rank


@nb.njit(cache=True, nogil=True)
def _move(pos: NDArray[np.int64], k: int, n: int, out: NDArray[np.int64]) -> None:
    """Move piece `k` by its speed for its leg, jumping the opponent's pieces (in place)."""
    piece = k % n
    theirs = n - (k // n) * n  # offset of the opponent's pieces
    p = pos[k]
    speed = out[k] if p <= n else 4 - out[k]
    end = n + 1 if p <= n else 2 * n + 2
    target = min(p + speed, end)
    while p != target:
        p += 1
        lane = _lane(p, n)
        if lane < 0:
            continue
        q = pos[theirs + lane]
        if q == piece + 1:
            pos[theirs + lane] = 0
            target = p + 1
        elif q == 2 * n + 1 - piece:
            pos[theirs + lane] = n + 1
            target = p + 1
    pos[k] = p


@nb.njit(cache=True)
def _move_tables(n: int, out: NDArray[np.int64], order: NDArray[np.int64]) -> NDArray[np.int16]:
    """Every move (:attr:`Tables.moves`), played by :func:`_move` with the occupied
    crossings' pieces standing on them."""
    lanes = 1 << n
    moves = np.zeros((2 * n, 2 * n + 3, lanes), dtype=np.int16)
    pos = np.zeros(2 * n, dtype=np.int64)
    for k in range(2 * n):
        theirs = n - (k // n) * n
        for p in range(2 * n + 2):
            if order[k, p] < 0:
                continue
            for occupied in range(lanes):
                for j in range(n):
                    pos[theirs + j] = k % n + 1 if occupied >> j & 1 else 0
                pos[k] = p
                _move(pos, k, n, out)
                moves[k, p, occupied] = pos[k]
                for j in range(n):
                    if occupied >> j & 1 and pos[theirs + j] != k % n + 1:
                        moves[k, p, occupied] |= 1 << (5 + j)
    return moves


@nb.njit(cache=True)
def _unmove_tables(
    n: int, order: NDArray[np.int64], legs: NDArray[np.int64], moves: NDArray[np.int16]
) -> tuple[NDArray[np.int32], NDArray[np.int8], NDArray[np.int8]]:
    """Every un-move inside a leg (:attr:`Tables.unmove_ptr`): each origin before `p` in the
    leg and each set of pieces among `back` put back on the lane, kept if the origin's
    crossing is free and the move from there (:attr:`Tables.moves`) stops at `p` jumping
    exactly those pieces."""
    lanes = 1 << n
    keys = 2 * n * (2 * n + 3) * lanes * lanes
    ptr = np.zeros(keys + 1, dtype=np.int32)
    origin = np.empty(0, dtype=np.int8)
    put_back = np.empty(0, dtype=np.int8)
    for fill in range(2):
        m = 0
        for k in range(2 * n):
            for p in range(2 * n + 3):
                for occupied in range(lanes):
                    for back in range(lanes):
                        key = ((k * (2 * n + 3) + p) * lanes + occupied) * lanes + back
                        ptr[key] = m
                        if order[k, p] <= 0 or back & occupied or p == 2 * n + 2:
                            continue
                        for o in range(p):
                            if order[k, o] < 0 or legs[o] != legs[p]:
                                continue
                            lane = _lane(o, n)
                            for jump in range(lanes):
                                if jump & ~back:
                                    continue
                                before = occupied | jump
                                if lane >= 0 and before >> lane & 1:
                                    continue
                                if moves[k, o, before] == p | jump << 5:
                                    if fill:
                                        origin[m] = o
                                        put_back[m] = jump
                                    m += 1
        ptr[keys] = m
        if not fill:
            origin = np.empty(m, dtype=np.int8)
            put_back = np.empty(m, dtype=np.int8)
    return ptr, origin, put_back


@nb.njit(cache=True)
def _half(
    t: Tables, side: int, legs: NDArray[np.int64]
) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int32], NDArray[np.int32],
           NDArray[np.int32], NDArray[np.int32]]:  # fmt: skip
    n = t.n
    count = 1
    for i in range(n):
        count *= t.sizes[side * n + i, legs[i]]
    # onward_mult[a, i]: the place value of piece i's digit in the halves with a's leg one on
    onward_mult = np.zeros((n, n), dtype=np.int64)
    for a in range(n):
        value = 1
        for i in range(n - 1, -1, -1):
            onward_mult[a, i] = value
            leg = legs[i] + 1 if i == a else legs[i]
            value *= t.sizes[side * n + i, min(leg, 2)]
    digit = np.zeros((count, n), dtype=np.int8)
    pos = np.zeros((count, n), dtype=np.int8)
    cells = np.zeros(count, dtype=np.int32)
    occupied = np.zeros(count, dtype=np.int32)
    back = np.zeros(count, dtype=np.int32)
    onward = np.zeros((count, n), dtype=np.int32)
    d = np.zeros(n, dtype=np.int64)
    for h in range(count):
        for a in range(n):
            if legs[a] < 2:
                for i in range(n):
                    if i != a:
                        onward[h, a] += d[i] * onward_mult[a, i]
        for i in range(n):
            k = side * n + i
            leg = legs[i]
            p = t.places[k, leg, d[i]]
            digit[h, i] = d[i]
            pos[h, i] = p
            lane = _lane(p, n)
            if lane >= 0:
                cells[h] |= 1 << (i * n + lane if side == 0 else lane * n + i)
                occupied[h] |= 1 << (lane * n + i)
            if d[i] == 0 and leg < 2:
                for a in range(n):
                    if t.order[k, a + 1 if leg == 0 else 2 * n + 1 - a] >= 0:
                        back[h] |= 1 << (a * n + i)
        i = n - 1
        while i >= 0:  # the next half: the last piece's digit first
            d[i] += 1
            if d[i] < t.sizes[side * n + i, legs[i]]:
                break
            d[i] = 0
            i -= 1
    return digit, pos, cells, occupied, back, onward


@nb.njit(cache=True, nogil=True, inline="always")
def _homes(legs: NDArray[np.int64], side: int, n: int) -> int:
    homes = 0
    for i in range(n):
        homes += legs[side * n + i] == 2
    return homes


@nb.njit(cache=True, nogil=True, inline="always")
def _place_values(legs: NDArray[np.int64], mult: NDArray[np.int64], t: Tables) -> NDArray[np.int64]:
    """``[k, p]``: the rank of piece ``k`` standing on `p` in its leg (``digit * mult``)."""
    value = np.zeros((2 * t.n, 2 * t.n + 3), dtype=np.int64)
    for k in range(2 * t.n):
        for p in range(2 * t.n + 3):
            if t.order[k, p] >= 0 and t.leg[p] == legs[k]:
                value[k, p] = t.order[k, p] * mult[k]
    return value


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def decode(
    ranks: NDArray[np.int64], legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    t: Tables,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # fmt: skip
    """Track positions (one row per rank) and sides to move of `ranks` of a tier."""
    pos = np.empty((ranks.shape[0], 2 * t.n), dtype=np.int64)
    side = np.empty(ranks.shape[0], dtype=np.int64)
    for i in range(ranks.shape[0]):
        side[i] = _decode(ranks[i], legs, mult, half, t, pos[i])
    return pos, side


@nb.njit(cache=True, nogil=True)
def encode(
    pos: NDArray[np.int64], side: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    t: Tables,
) -> NDArray[np.int64]:  # fmt: skip
    """Ranks of positions (rows of `pos`, `side` to move) in the tier of place values `mult`."""
    out = np.empty(pos.shape[0], dtype=np.int64)
    for i in range(pos.shape[0]):
        out[i] = _encode(pos[i], side[i], mult, half, t)
    return out


@nb.njit(cache=True, nogil=True)
def slots(
    start: int, stop: int, legs: NDArray[np.int64], half: int, top: Half, left: Half,
    t: Tables,
) -> NDArray[np.bool_]:  # fmt: skip
    """Which ranks ``start..stop-1`` are positions: no two pieces on a crossing (the halves'
    `cells` disjoint), fewer than ``home`` home for the player to move, at most ``home`` for
    the other. ~2 ns per rank."""
    n = t.n
    ok = np.zeros(2, dtype=np.bool_)
    for side in range(2):
        ok[side] = _homes(legs, side, n) < t.home and _homes(legs, 1 - side, n) <= t.home
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    lefts = left.cells.shape[0]
    tops = top.cells.shape[0]
    side = start // half
    rest = start - side * half
    h = rest // lefts
    g = rest - h * lefts
    for i in range(out.shape[0]):
        out[i] = ok[side] and (top.cells[h] & left.cells[g]) == 0
        g += 1
        if g == lefts:
            g = 0
            h += 1
            if h == tops:
                h = 0
                side += 1
    return out


@nb.njit(cache=True, nogil=True)
def _move_shifts(
    legs: NDArray[np.int64], mult: NDArray[np.int64], which_of: NDArray[np.int64],
    child_mult: NDArray[np.int64], child_half: NDArray[np.int64], t: Tables,
) -> tuple[NDArray[np.int64], NDArray[np.int8]]:  # fmt: skip
    """Per move ``[(k * (2n + 3) + p) * 2^n + occupied]`` (:attr:`Tables.moves`) of a piece
    ``k`` on a position ``p`` of its leg here: how it changes the rank, and its child tier
    (0: this one, else ``which_of[k]``).

    A move inside the tier changes the moved piece's digit and sends the pieces it jumps to
    their leg's start (their digit, that of the crossing of its lane, to 0). A move into the
    next leg gives the part of the child's rank from the mover's new digit, the pieces jumped
    and the side to move there (``child_half[k]`` after the top player's move); the halves
    give the rest (``children``).
    """
    n = t.n
    lanes = 1 << n
    value = _place_values(legs, mult, t)
    shift = np.zeros(2 * n * (2 * n + 3) * lanes, dtype=np.int64)
    which = np.zeros(shift.shape[0], dtype=np.int8)
    for k in range(2 * n):
        side = k // n
        for p in range(2 * n + 2):
            if t.order[k, p] < 0 or t.leg[p] != legs[k]:
                continue
            for occupied in range(lanes):
                e = (k * (2 * n + 3) + p) * lanes + occupied
                move = t.moves[k, p, occupied]
                q = move & 31
                inside = t.leg[q] == legs[k]
                c = value[k, q] - value[k, p] if inside else t.order[k, q] * child_mult[k, k]
                if not inside and side == 0:
                    c += child_half[k]
                for j in range(n):
                    if move >> (5 + j) & 1:
                        other = (1 - side) * n + j
                        x = k % n + 1 if legs[other] == 0 else 2 * n + 1 - k % n
                        c -= t.order[other, x] * (mult[other] if inside else child_mult[k, other])
                shift[e] = c
                which[e] = 0 if inside else which_of[k]
    return shift, which


@nb.njit(cache=True, nogil=True)
def children(
    ranks: NDArray[np.int64], legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    which_of: NDArray[np.int64], child_mult: NDArray[np.int64], child_half: NDArray[np.int64],
    top: Half, left: Half, t: Tables,
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:  # fmt: skip
    """Primitive values and children of slots of a tier.

    A position where the player who just moved has ``home`` pieces home is a LOSE for the
    player to move, without moves. Otherwise each piece of the player to move that is not
    home moves (:attr:`Tables.moves`); a move that takes piece ``k`` into its next leg goes to
    child tier ``which_of[k]`` (place values ``child_mult[k]``, ``child_half[k]``), any other
    stays (``which`` 0); :func:`_move_shifts` gives the change of rank of each.
    """
    n = t.n
    full = (1 << n) - 1
    lanes = 1 << n
    count = ranks.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(count * n, dtype=np.int8)
    child = np.empty(count * n, dtype=np.int64)
    shift, goes = _move_shifts(legs, mult, which_of, child_mult, child_half, t)
    lefts = left.cells.shape[0]
    over = np.array([_homes(legs, 1 - side, n) >= t.home for side in range(2)])
    m = 0
    indptr[0] = 0
    for i in range(count):
        rank = ranks[i]
        side = 1 if rank >= half else 0
        rest = rank - side * half
        h = rest // lefts
        g = rest - h * lefts
        if over[side]:
            primitive[i] = LOSE
            indptr[i + 1] = m
            continue
        primitive[i] = UNDECIDED
        # The halves' arrays indexed in place: a row view taken per rank costs its reference
        # counting, a third of the kernel's time.
        occupied = left.occupied[g] if side == 0 else top.occupied[h]
        flipped = rank + (half if side == 0 else -half)
        for a in range(n):
            k = side * n + a
            p = top.pos[h, a] if side == 0 else left.pos[g, a]
            if p == 2 * n + 2:
                continue
            e = (k * (2 * n + 3) + p) * lanes + (occupied >> (a * n) & full)
            w = goes[e]
            if w == 0:
                c = flipped
            elif side == 0:
                # The child tier's halves: the mover's by `onward`, the other side's as here;
                # the top half's place value there is that of the top's last piece.
                c = top.onward[h, a] * child_mult[k, n - 1] + g
            else:
                c = h * child_mult[k, n - 1] + left.onward[g, a]
            which[m] = w
            child[m] = c + shift[e]
            m += 1
        indptr[i + 1] = m
    return primitive, indptr, which[:m], child[:m]


@nb.njit(cache=True, nogil=True)
def _unmove_shifts(
    legs: NDArray[np.int64], mult: NDArray[np.int64], t: Tables
) -> NDArray[np.int64]:
    """``[e]``: how un-move ``e`` of :attr:`Tables.unmove_from` changes a rank of the tier of
    place values `mult` (the moved piece's digit back to where it came from, the pieces it
    jumped from their leg's start back onto its lane), for the pieces ``k`` on positions ``p``
    of their leg in this tier; 0 elsewhere. Four entries of padding follow."""
    n = t.n
    lanes = 1 << n
    value = _place_values(legs, mult, t)
    restore = np.zeros((2 * n, lanes), dtype=np.int64)  # [k, jumped]: those put back on k's lane
    for k in range(2 * n):
        for j in range(n):
            other = n - (k // n) * n + j
            leg = legs[other]
            if leg < 2:
                x = k % n + 1 if leg == 0 else 2 * n + 1 - k % n
                back = max(t.order[other, x], 0) * mult[other]
                for jumped in range(lanes):
                    if jumped >> j & 1:
                        restore[k, jumped] += back
    shift = np.zeros(t.unmove_from.shape[0] + 4, dtype=np.int64)
    for k in range(2 * n):
        for p in range(2 * n + 3):
            if t.order[k, p] <= 0 or t.leg[p] != legs[k]:
                continue
            first = (k * (2 * n + 3) + p) * lanes * lanes
            for e in range(t.unmove_ptr[first], t.unmove_ptr[first + lanes * lanes]):
                came = t.unmove_from[e]
                shift[e] = value[k, came] - value[k, p] + restore[k, t.unmove_jumped[e]]
    return shift


@nb.njit(cache=True, nogil=True, inline="always")
def _parents_run(
    ranks: NDArray[np.int64], lo: int, hi: int, mover: int, half: int, lefts: int,
    pos: NDArray[np.int8], occupied: NDArray[np.int32], back: NDArray[np.int32],
    shift: NDArray[np.int64], t: Tables, indptr: NDArray[np.int64], out: NDArray[np.int64],
    m: int,
) -> int:  # fmt: skip
    """The parents of ``ranks[lo:hi]``, all with `mover` the player who just moved, written
    from ``out[m]`` on (`pos`: the mover's halves' track positions, `occupied` and `back`: the
    opponent's halves' crossings, as in :class:`Half`); returns the new end."""
    n = t.n
    full = (1 << n) - 1
    lanes = 1 << n
    for i in range(lo, hi):
        rank = ranks[i]
        rest = rank - (1 - mover) * half
        h = rest // lefts
        g = rest - h * lefts
        me, them = (h, g) if mover == 0 else (g, h)
        lane = occupied[them]
        start = back[them]
        flipped = rank + (half if mover == 1 else -half)
        for a in range(n):
            # A piece at its leg's start or home has an empty list of un-moves.
            p = pos[me, a]
            key = (((mover * n + a) * (2 * n + 3) + p) * lanes + (lane >> (a * n) & full)) * lanes
            key += start >> (a * n) & full
            e = t.unmove_ptr[key]
            # The first four written whether they exist or not (most lists are shorter): no
            # branch to mispredict on a list's length.
            for j in range(4):
                out[m + j] = flipped + shift[e + j]
            c = t.unmove_ptr[key + 1] - e
            for j in range(4, c):
                out[m + j] = flipped + shift[e + j]
            m += c
        indptr[i + 1] = m
    return m


@nb.njit(cache=True, nogil=True)
def parents(
    ranks: NDArray[np.int64], legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    top: Half, left: Half, t: Tables,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # fmt: skip
    """Slots of the same tier with a move to each rank.

    The player not to move made the move undone: one of its pieces ``k``, not at its leg's
    start, came from an earlier track position of the same leg, perhaps jumping a run of the
    opponent's pieces now at their legs' starts; :attr:`Tables.unmove_ptr` lists those
    un-moves by ``k``'s position, the occupied crossings of its lane and the pieces that may
    be put back on it, and :func:`_unmove_shifts` the change of rank each makes here. Ranks
    are taken in runs of one side to move (two runs when sorted).
    """
    n = t.n
    count = ranks.shape[0]
    indptr = np.zeros(count + 1, dtype=np.int64)
    out = np.empty(count * n * t.unmove_most + 4, dtype=np.int64)
    if _homes(legs, 0, n) >= t.home or _homes(legs, 1, n) >= t.home:
        return indptr, out[:0]
    shift = _unmove_shifts(legs, mult, t)
    lefts = left.cells.shape[0]
    m = 0
    i = 0
    while i < count:
        side = 1 if ranks[i] >= half else 0
        j = i + 1
        while j < count and (ranks[j] >= half) == side:
            j += 1
        if side == 0:  # the left player moved
            m = _parents_run(ranks, i, j, 1, half, lefts, left.pos, top.occupied, top.back,
                             shift, t, indptr, out, m)  # fmt: skip
        else:
            m = _parents_run(ranks, i, j, 0, half, lefts, top.pos, left.occupied, left.back,
                             shift, t, indptr, out, m)  # fmt: skip
        i = j
    return indptr, out[:m]
