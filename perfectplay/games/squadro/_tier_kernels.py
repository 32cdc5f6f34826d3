"""numba kernels of Squadro's tier form (see :mod:`perfectplay.games.squadro.tiers`).

A position is an array ``pos`` of ``2n`` track positions, the top player's pieces ``0..n-1``
then the left player's ``n..2n-1`` (piece ``k``), and the side to move (0 top, 1 left). A tier
fixes every piece's leg (0 out, 1 back, 2 home); within it a piece stands on one of
``sizes[k, leg]`` track positions, and a rank is

    rank = side * half + sum(index of pos[k] within its leg * mult[k])

with ``mult`` the mixed-radix place values of the tier (``half``: the positions of one side to
move). A move to another tier is ranked with that tier's place values.

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

__all__ = ["Tables", "children", "decode", "encode", "parents", "slots", "tables"]


class Tables(NamedTuple):
    """The track tables of one set of speeds, passed to every kernel as one tuple."""

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
    return Tables(n, home, np.array(outs, dtype=np.int64), places, sizes, order, legs)


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


@nb.njit(cache=True, nogil=True, inline="always")
def _move(pos: NDArray[np.int64], k: int, t: Tables) -> None:
    """Move piece `k` by its speed for its leg, jumping the opponent's pieces (in place)."""
    n = t.n
    piece = k % n
    theirs = n - (k // n) * n  # offset of the opponent's pieces
    p = pos[k]
    speed = t.out[k] if p <= n else 4 - t.out[k]
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


@nb.njit(cache=True, nogil=True, inline="always")
def _homes(pos: NDArray[np.int64], side: int, t: Tables) -> int:
    homes = 0
    for i in range(t.n):
        homes += pos[side * t.n + i] == 2 * t.n + 2
    return homes


@nb.njit(cache=True, nogil=True, inline="always")
def _is_slot(pos: NDArray[np.int64], side: int, t: Tables) -> bool:
    """Whether no two pieces share a crossing, the side to move has fewer than ``home``
    pieces home and the other at most ``home``."""
    n = t.n
    for i in range(n):
        lane = _lane(pos[i], n)
        if lane >= 0 and _lane(pos[n + lane], n) == i:
            return False
    return _homes(pos, side, t) < t.home and _homes(pos, 1 - side, t) <= t.home


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
    start: int, stop: int, legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    t: Tables,
) -> NDArray[np.bool_]:  # fmt: skip
    """Which ranks ``start..stop-1`` are positions (:func:`_is_slot`). ~0.15 us per rank."""
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    pos = np.empty(2 * t.n, dtype=np.int64)
    for i in range(out.shape[0]):
        side = _decode(start + i, legs, mult, half, t, pos)
        out[i] = _is_slot(pos, side, t)
    return out


@nb.njit(cache=True, nogil=True)
def children(
    ranks: NDArray[np.int64], legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    which_of: NDArray[np.int64], child_mult: NDArray[np.int64], child_half: NDArray[np.int64],
    t: Tables,
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:  # fmt: skip
    """Primitive values and children of slots of a tier.

    A position where the player who just moved has ``home`` pieces home is a LOSE for the
    player to move, without moves. Otherwise each piece of the player to move that is not
    home moves; a move that takes piece ``k`` into its next leg goes to child tier
    ``which_of[k]`` (place values ``child_mult[k]``, ``child_half[k]``), any other stays
    (``which`` 0).
    """
    n = t.n
    count = ranks.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(count * n, dtype=np.int8)
    child = np.empty(count * n, dtype=np.int64)
    pos = np.empty(2 * n, dtype=np.int64)
    after = np.empty(2 * n, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        side = _decode(ranks[i], legs, mult, half, t, pos)
        over = _homes(pos, 1 - side, t) >= t.home
        primitive[i] = LOSE if over else UNDECIDED
        if not over:
            for k in range(side * n, side * n + n):
                if pos[k] == 2 * n + 2:
                    continue
                after[:] = pos
                _move(after, k, t)
                if t.leg[after[k]] == legs[k]:
                    which[m] = 0
                    child[m] = _encode(after, 1 - side, mult, half, t)
                else:
                    which[m] = which_of[k]
                    child[m] = _encode(after, 1 - side, child_mult[k], child_half[k], t)
                m += 1
        indptr[i + 1] = m
    return primitive, indptr, which[:m], child[:m]


@nb.njit(cache=True, nogil=True)
def parents(
    ranks: NDArray[np.int64], legs: NDArray[np.int64], mult: NDArray[np.int64], half: int,
    t: Tables,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # fmt: skip
    """Slots of the same tier with a move to each rank.

    The player not to move made the move undone: one of its pieces ``k`` came from an earlier
    track position of the same leg, either by its full speed, or by a shorter move that
    jumped a run of the opponent's pieces now back at the start of their legs (each put back
    on its crossing with ``k``'s lane; the run ends just behind ``k``). Each candidate is
    checked by playing its move forward; a candidate that is no slot or is over is left out.
    """
    n = t.n
    count = ranks.shape[0]
    most = n * (1 + 3 * n)
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(count * most, dtype=np.int64)
    pos = np.empty(2 * n, dtype=np.int64)
    before = np.empty(2 * n, dtype=np.int64)
    check = np.empty(2 * n, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        side = _decode(ranks[i], legs, mult, half, t, pos)
        mover = 1 - side
        if _homes(pos, side, t) < t.home and _homes(pos, mover, t) < t.home:
            theirs = side * n
            for k in range(mover * n, mover * n + n):
                p = pos[k]
                start = 0 if p <= n else n + 1
                if p == start or p == 2 * n + 2:
                    continue
                speed = t.out[k] if p <= n else 4 - t.out[k]
                lane_k = k % n
                before[:] = pos
                run = 0  # jumped pieces put back so far: crossings p-1, ..., p-run
                while True:
                    # the move started at `origin`, first jumped at p - run (none if run 0)
                    first = p - run
                    lo = max(start, first - speed) if run else p - speed
                    hi = first - 1 if run else p - speed
                    for origin in range(max(lo, start), hi + 1):
                        before[k] = origin
                        if t.order[k, origin] < 0 or not _is_slot(before, mover, t):
                            continue
                        check[:] = before
                        _move(check, k, t)
                        same = True
                        for j in range(2 * n):
                            if check[j] != pos[j]:
                                same = False
                                break
                        if same:
                            out[m] = _encode(before, mover, mult, half, t)
                            m += 1
                    before[k] = p
                    c = p - run - 1  # the next crossing back, jumped too?
                    lane = _lane(c, n) if c > start else -1
                    if lane < 0:
                        break
                    q = before[theirs + lane]
                    if q == 0:
                        back = lane_k + 1
                    elif q == n + 1:
                        back = 2 * n + 1 - lane_k
                    else:
                        break
                    if t.order[theirs + lane, back] < 0:
                        break
                    before[theirs + lane] = back
                    run += 1
        indptr[i + 1] = m
    return indptr, out[:m]
