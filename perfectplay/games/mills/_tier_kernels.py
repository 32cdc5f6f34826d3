"""numba kernels of the Morris tier form (see :mod:`perfectplay.games.mills.tiers`).

A position is seen from the player to move: two bitboards, ``x`` (the mover's stones) and
``y`` (the opponent's), bit ``d`` for point ``d``, and the stones in hand of each, which the
tier fixes. A *subspace* ``(m, o, mf, of)`` holds the boards of ``m`` stones of the mover and
``o`` of the opponent, with ``mf`` and ``of`` in hand (Malom's ``std_W_B_WF_BF`` seen from the
mover); a tier is one subspace or two (a *block* each), ranked one after the other.

**Ranking** in a subspace, by symmetry classes as Malom ranks it: ``x`` is a representative
of its class under the board's symmetries (the smallest of its images) and ranks by its index
``i_x`` among the ``K(m)`` representatives of ``m`` points, then ``y`` by its colex rank among
the ``P - m`` points ``x`` leaves free: ``rank = i_x * C(P - m, o) + rank_y``
(:func:`perfectplay.games._symmetry_kernels.two_classes_rank`; ``K(m)`` is about
``C(P, m) / 16`` on the 24-point boards). The rank order is the numeric order of ``(x, y)``,
so a board's canonical form, its image with the smallest ``(x, y)`` under the board's
symmetries, is also its image of smallest rank; the ranks that are not canonical forms
(``x`` symmetric, ``y`` not the smallest of its images under the symmetries fixing ``x``) are
no slots.

A symmetry's image of a bitboard is read byte by byte from a table
(:mod:`perfectplay.games._symmetry_kernels`), 3 look-ups for the 24-point boards. The
canonical form of a child or a parent is not searched among the symmetries: the mover's
stones of the child are the opponent's of the position (less a removed stone), so one look-up
in the table of every set's class (Malom's, 2^24 entries of 4 bytes) gives their class index
and the symmetry to apply, and the other side's image under it is the image of the
position's own stones, made once per position, with the two points a move changes, one
look-up each.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._prefetch import prefetch as _prefetch
from perfectplay._ranking import binomials
from perfectplay._ranking_kernels import (
    colex_rank_among,
    colex_unrank_bits,
    next_set,
    scatter_bits,
)
from perfectplay.games._symmetry_kernels import (
    CLASS_SHIFT,
    SYMMETRIC,
    SYMMETRY,
    canonical_pair,
    canonical_syms,
    class_table,
    image,
    image_table,
    orbit_size,
    set_classes,
    two_classes_rank,
    two_classes_unrank,
)
from perfectplay.games.mills.board import layout
from perfectplay.values import LOSE, UNDECIDED

__all__ = [
    "KINDS",
    "Tables",
    "boards",
    "children",
    "orbit_sizes",
    "parents",
    "ranks",
    "slots",
    "tables",
]

KINDS = 4
"""The kinds of move, in the order of a block's row of child subspaces: a placement, a
placement closing a mill, a move, a move closing a mill."""

_ROOM = 4096
"""Entries free before each position's children are written: more than any position of the
boards here has (:meth:`~perfectplay.games.mills.tiers.TieredMills.max_moves`: 1,152 for
Morabaraba's 12 stones)."""

_STEPS = 8
"""Ranks a kernel walks forward from the previous one (the next set of the opponent's stones
each) rather than unranking."""

_NONE = np.int64(1) << 62
"""A mill mask no bitboard fills (it pads the per-point rows of mills)."""


class Tables(NamedTuple):
    """Lookup tables of one board and variant, passed to every kernel as one tuple."""

    points: int
    """``P``, the number of points."""
    binom: NDArray[np.int64]
    """``binom[i, j] = C(i, j)`` for ``0 <= i, j <= P``."""
    image: NDArray[np.int64]
    """``image[s, i, v]``: the bitboard symmetry ``s`` (0 the identity) makes of byte value
    ``v`` at byte ``i``."""
    neighbours: NDArray[np.int64]
    """Per point, the points next to it as a bitboard."""
    mills: NDArray[np.int64]
    """Every mill as a bitboard."""
    point_mills: NDArray[np.int64]
    """``point_mills[d, j]``: the mills through point ``d``, padded with a mask nothing fills."""
    jumps: bool
    """Whether a player with 3 stones on the board and none in hand jumps."""
    lasker: bool
    """Whether a player with stones in hand may move instead of placing."""
    reps: NDArray[np.int64]
    """The representatives of the classes of sets of points, by size then increasing
    (:func:`perfectplay.games._symmetry_kernels.set_classes`)."""
    starts: NDArray[np.int64]
    """``reps[starts[k]:starts[k + 1]]``: the representatives of ``k`` points."""
    classes: NDArray[np.uint32]
    """Per set of points, its class index, a symmetry taking it to its representative and
    whether that is symmetric (:func:`perfectplay.games._symmetry_kernels.class_table`)."""
    point_image: NDArray[np.int64]
    """``point_image[s, d]``: the image of point ``d`` under symmetry ``s`` as a bitboard, and
    ``point_image[s, P] = 0`` (no point: a placement moves no stone away)."""


@cache
def _classes(
    board: str, symmetries: bool
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.uint32]]:
    """The image table, representatives, their starts and the class of every set of points
    of `board`, built once per board (0.5 s and 64 MiB for the 24-point boards)."""
    lay = layout(board)
    points = len(lay.points)
    image = image_table(lay.symmetries if symmetries else lay.symmetries[:1], points)
    reps, starts = set_classes(image, points)
    return image, reps, starts, class_table(image, points, reps, starts)


@cache
def tables(board: str, jumps: bool, lasker: bool, symmetries: bool = True) -> Tables:
    """The kernels' tables for `board` (a layout's name), built once (0.5 s for the 24-point
    boards: the classes of sets of points). Without `symmetries` only the identity is used
    (every board its own class, ranked by plain colex ranks)."""
    lay = layout(board)
    points = len(lay.points)
    image, reps, starts, classes = _classes(board, symmetries)
    point_image = np.zeros((image.shape[0], points + 1), dtype=np.int64)
    for d in range(points):
        i, b = divmod(d, 8)
        point_image[:, d] = image[:, i, 1 << b]
    neighbours = np.array([sum(1 << q for q in near) for near in lay.neighbours], dtype=np.int64)
    mills = np.array([sum(1 << q for q in m) for m in lay.mills], dtype=np.int64)
    point_mills = np.full((points, 4), _NONE, dtype=np.int64)
    for d in range(points):
        through = [mask for m, mask in zip(lay.mills, mills.tolist(), strict=True) if d in m]
        point_mills[d, : len(through)] = through
    binom = binomials(points, points)
    return Tables(
        points, binom, image, neighbours, mills, point_mills, jumps, lasker, reps, starts,
        classes, point_image,
    )  # fmt: skip


# ---------------------------------------------------------------------------- bit helpers
@nb.njit(cache=True, nogil=True, inline="always")
def _rank(x: int, y: int, m: int, o: int, t: Tables) -> int:
    """The rank of board ``(x, y)``, `x` a representative, in the subspace of `m` and `o`."""
    return two_classes_rank(x, y, m, o, t.points, t.binom, t.reps, t.starts)


@nb.njit(cache=True, nogil=True, inline="always")
def _unrank(rank: int, m: int, o: int, t: Tables) -> tuple[int, int]:
    """The board ``(x, y)`` of `rank` in the subspace of `m` and `o` stones."""
    return two_classes_unrank(rank, m, o, t.points, t.binom, t.reps, t.starts)


@nb.njit(cache=True, nogil=True, inline="always")
def _cell(low: int) -> int:
    """The point of a bitboard's lowest set bit `low` (a power of two)."""
    return popcount(low - 1)


@nb.njit(cache=True, nogil=True, inline="always")
def _closes(b: int, d: int, t: Tables) -> bool:
    """Whether the stones `b` fill a mill through point `d`."""
    for j in range(t.point_mills.shape[1]):
        mask = t.point_mills[d, j]
        if b & mask == mask:
            return True
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def _removable(y: int, t: Tables) -> int:
    """The stones of `y` a mill may remove: those in no mill of `y`, or all if none is."""
    held = 0
    for j in range(t.mills.shape[0]):
        if y & t.mills[j] == t.mills[j]:
            held |= t.mills[j]
    free = y & ~held
    return free if free else y


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def ranks(
    xs: NDArray[np.int64], ys: NDArray[np.int64], m: int, o: int, t: Tables, canonical: bool
) -> NDArray[np.int64]:
    """Ranks in the subspace of ``m`` mover's and ``o`` opponent's stones of boards
    ``(xs, ys)``, of their canonical forms if `canonical` (else each ``x`` must be a class
    representative: the boards :func:`boards` gives). ~80 ns per board."""
    out = np.empty(xs.shape[0], dtype=np.int64)
    for i in range(xs.shape[0]):
        x, y = xs[i], ys[i]
        if canonical:
            x, y = canonical_pair(x, y, t.image)
        out[i] = _rank(x, y, m, o, t)
    return out


@nb.njit(cache=True, nogil=True)
def boards(
    rank: NDArray[np.int64], m: int, o: int, t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Boards ``(x, y)`` of ranks in the subspace of ``m`` and ``o`` stones on the board."""
    xs = np.empty(rank.shape[0], dtype=np.int64)
    ys = np.empty(rank.shape[0], dtype=np.int64)
    for i in range(rank.shape[0]):
        xs[i], ys[i] = _unrank(rank[i], m, o, t)
    return xs, ys


@nb.njit(cache=True, nogil=True, inline="always")
def _room(a, n):  # type: ignore[no-untyped-def]
    """`a`, or a copy twice as long when it holds fewer than `n` entries (`n` at most twice
    its length)."""
    return np.concatenate((a, np.empty_like(a))) if n > a.shape[0] else a


@nb.njit(cache=True, nogil=True, inline="always")
def _block(rank: int, blocks: NDArray[np.int64]) -> int:
    """The block of the tier `rank` lies in (``blocks[b, 0]``: where block ``b`` starts)."""
    b = 0
    while b + 1 < blocks.shape[0] and rank >= blocks[b + 1, 0]:
        b += 1
    return b


@nb.njit(cache=True, nogil=True, inline="always")
def _least(images, a, d, syms, count, t):  # type: ignore[no-untyped-def]
    """The smallest image, under the symmetries ``syms[:count]``, of the stones whose image
    under each symmetry ``s`` is ``images[s]``, after the stone on point `a` went to `d`
    (``a == P``: a stone placed on `d`)."""
    s = syms[0]
    best = images[s] ^ t.point_image[s, a] ^ t.point_image[s, d]
    for j in range(1, count):
        s = syms[j]
        best = min(best, images[s] ^ t.point_image[s, a] ^ t.point_image[s, d])
    return best


@nb.njit(cache=True, nogil=True, inline="always")
def _images(p, out, t):  # type: ignore[no-untyped-def]
    """Write into `out` the image of stones `p` under every symmetry."""
    for s in range(out.shape[0]):
        out[s] = image(p, s, t.image)


@nb.njit(cache=True, nogil=True, inline="always")
def _less_one(y, iy, removable, rsyms, rcount, rrep, rindex, t):  # type: ignore[no-untyped-def]
    """For each stone ``r`` of `removable` (of the opponent's `y`, ``iy`` its images), write
    the class of ``y ^ r`` at ``r``'s point: the symmetries taking it to its representative
    (``rsyms[q, :rcount[q]]``), the representative and the class index."""
    gone = removable
    while gone:
        r = gone & -gone
        gone ^= r
        q = _cell(r)
        e = t.classes[y ^ r]
        s = e & SYMMETRY
        rep = iy[s] ^ t.point_image[s, q]
        rsyms[q, 0] = s
        rcount[q] = 1
        if e & SYMMETRIC:
            rcount[q] = 0
            for u in range(iy.shape[0]):
                if iy[u] ^ t.point_image[u, q] == rep:
                    rsyms[q, rcount[q]] = u
                    rcount[q] += 1
        rrep[q] = rep
        rindex[q] = e >> CLASS_SHIFT


@nb.njit(cache=True, nogil=True)
def children(
    rank: NDArray[np.int64], blocks: NDArray[np.int64], kinds: NDArray[np.int64], t: Tables
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:
    """Primitive values and canonical children of ranks of one tier.

    ``blocks[b] = (start, m, o, mf, of)`` for each block of the tier; ``kinds[b, k] =
    (which, offset, m, o)``: where a move of kind ``k`` (:data:`KINDS`) from block ``b`` lands
    (its child tier's index and block start, the child's stones seen from its mover). A mover
    with fewer than 3 stones has lost (LOSE, no moves). Moves come as the rules list them:
    placements, then moves, each closing a mill once per removable stone.

    The children's mover is the position's opponent: one class look-up per position for the
    moves closing no mill, one per removable stone for the others (module doc).
    """
    count = rank.shape[0]
    top = t.points
    full = (1 << top) - 1
    symmetries = t.image.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(16 * count + _ROOM, dtype=np.int8)
    child = np.empty(16 * count + _ROOM, dtype=np.int64)
    ix = np.empty(symmetries, dtype=np.int64)
    iy = np.empty(symmetries, dtype=np.int64)
    syms = np.empty(symmetries, dtype=np.int64)
    rsyms = np.empty((top, symmetries), dtype=np.int64)
    rcount = np.empty(top, dtype=np.int64)
    rrep = np.empty(top, dtype=np.int64)
    rindex = np.empty(top, dtype=np.int64)
    moves = np.empty((top * (top + 1), 3), dtype=np.int64)  # (from or P, to, kind)
    n = 0
    indptr[0] = 0
    x = y = free = 0
    last_block, last, end = -1, 0, 0  # the previous rank, and where its x's ranks end
    stale = True  # whether ix is not yet the images of x
    for i in range(count):
        if n + _ROOM > which.shape[0]:  # room for any position's children
            which = np.concatenate((which, np.empty_like(which)))
            child = np.concatenate((child, np.empty_like(child)))
        b = _block(rank[i], blocks)
        m, o, mf = blocks[b, 1], blocks[b, 2], blocks[b, 3]
        row = kinds[b]
        r = rank[i] - blocks[b, 0]
        if b == last_block and last < r < end and r - last <= _STEPS:
            for _ in range(r - last):  # the next sets of the opponent's stones
                free = next_set(free)
        else:
            per_x = t.binom[top - m, o]
            index = r // per_x
            x = t.reps[t.starts[m] + index]
            free = colex_unrank_bits(r - index * per_x, o, top - m, t.binom)
            end = (index + 1) * per_x
            stale = True
        y = scatter_bits(free, x, top)
        if free:  # the class entries the next rank reads, if it follows: they miss the caches
            ahead = scatter_bits(next_set(free), x, top)
            _prefetch(t.classes, ahead)
            stones = ahead
            while stones:
                low = stones & -stones
                stones ^= low
                _prefetch(t.classes, ahead ^ low)
        last_block, last = b, r
        lost = m + mf < 3
        primitive[i] = LOSE if lost else UNDECIDED
        if not lost:
            count_moves = 0
            empty = full & ~(x | y)
            targets = empty if mf > 0 else 0
            while targets:
                dest = targets & -targets
                targets ^= dest
                moves[count_moves, 0], moves[count_moves, 1] = top, _cell(dest)
                moves[count_moves, 2] = 0
                count_moves += 1
            stones = x if mf == 0 or t.lasker else 0
            jumps = t.jumps and mf == 0 and m == 3
            while stones:
                src = stones & -stones
                stones ^= src
                targets = empty if jumps else t.neighbours[_cell(src)] & empty
                while targets:
                    dest = targets & -targets
                    targets ^= dest
                    moves[count_moves, 0], moves[count_moves, 1] = _cell(src), _cell(dest)
                    moves[count_moves, 2] = 2
                    count_moves += 1
            if stale:  # the images of x serve every rank sharing it
                _images(x, ix, t)
                stale = False
            e = t.classes[y]
            plain = canonical_syms(y, e, t.image, syms)
            rep = image(y, syms[0], t.image)
            index = e >> CLASS_SHIFT
            removable = _removable(y, t)
            ready = False  # the classes of y less each removable stone, made at the first mill
            for j in range(count_moves):
                a, d, k = moves[j, 0], moves[j, 1], moves[j, 2]
                nx = x ^ t.point_image[0, a] ^ t.point_image[0, d]
                if removable and _closes(nx, d, t):
                    if not ready:
                        _images(y, iy, t)
                        _less_one(y, iy, removable, rsyms, rcount, rrep, rindex, t)
                        ready = True
                    w, offset = row[k + 1, 0], row[k + 1, 1]
                    per = t.binom[top - row[k + 1, 2], row[k + 1, 3]]
                    gone = removable
                    while gone:
                        r = gone & -gone
                        gone ^= r
                        q = _cell(r)
                        cy = _least(ix, a, d, rsyms[q], rcount[q], t)
                        which[n] = w
                        child[n] = offset + rindex[q] * per + colex_rank_among(cy, rrep[q], t.binom)
                        n += 1
                else:
                    cy = _least(ix, a, d, syms, plain, t)
                    which[n] = row[k, 0]
                    per = t.binom[top - row[k, 2], row[k, 3]]
                    child[n] = row[k, 1] + index * per + colex_rank_among(cy, rep, t.binom)
                    n += 1
        indptr[i + 1] = n
    return primitive, indptr, which[:n].copy(), child[:n].copy()


@nb.njit(cache=True, nogil=True)
def parents(
    rank: NDArray[np.int64], blocks: NDArray[np.int64], back: NDArray[np.int64], t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Canonical ranks of the tier's positions with a move (no placement, no mill closed) to
    each rank.

    ``back[b]`` is the offset of the block whose moves land in block ``b``, or -1 where no
    move lands there. The rank's opponent made the move undone: one of its stones in no mill
    of its own goes back to an empty neighbour (any empty point where it jumped). A parent's
    class is one look-up, its image that of the rank's stones under each symmetry, made once
    (the mover's stones' images once for a run of ranks sharing them: the engine asks for
    sorted ranks).

    The look-ups of the class table (64 MiB) miss the caches where the ranks are spread over
    the tier, as a level's are: each rank's parents are found and their classes prefetched a
    rank ahead of their ranking, with two sets of work arrays taken in turn.
    """
    count = rank.shape[0]
    top = t.points
    full = (1 << top) - 1
    symmetries = t.image.shape[0]
    ix = np.empty((2, symmetries), dtype=np.int64)
    iy = np.empty((2, symmetries), dtype=np.int64)
    undo = np.empty((2, top * top, 3), dtype=np.int64)  # (to, from, the parent's y) of each
    found = np.zeros(2, dtype=np.int64)
    where = np.empty((2, 2), dtype=np.int64)  # the block the parents lie in, and its per_x
    held = np.full((2, 2), -1, dtype=np.int64)  # the (block, index of x) of ix[c]
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(max(16 * count, 64), dtype=np.int64)
    n = 0
    indptr[0] = 0
    for i in range(count + 1):
        c = i & 1  # rank i's work arrays; rank i - 1's are the others
        if i < count:
            found[c] = 0
            b = _block(rank[i], blocks)
            m, o, mf, of = blocks[b, 1], blocks[b, 2], blocks[b, 3], blocks[b, 4]
            if back[b] >= 0 and m + mf >= 3:
                r = rank[i] - blocks[b, 0]
                per_x = t.binom[top - m, o]
                index = r // per_x
                x = t.reps[t.starts[m] + index]
                if held[c, 0] != b or held[c, 1] != index:
                    _images(x, ix[c], t)
                    held[c, 0], held[c, 1] = b, index
                y = scatter_bits(colex_unrank_bits(r - index * per_x, o, top - m, t.binom), x, top)
                where[c, 0], where[c, 1] = back[b], t.binom[top - o, m]
                _images(y, iy[c], t)
                empty = full & ~(x | y)
                jumps = t.jumps and of == 0 and o == 3
                f = 0
                stones = y
                while stones:
                    dest = stones & -stones
                    stones ^= dest
                    d = _cell(dest)
                    if x and _closes(y, d, t):
                        continue  # the move there closed a mill: it removed a stone
                    sources = empty if jumps else t.neighbours[d] & empty
                    while sources:
                        src = sources & -sources
                        sources ^= src
                        parent = y ^ dest ^ src
                        _prefetch(t.classes, parent)
                        undo[c, f, 0], undo[c, f, 1], undo[c, f, 2] = d, _cell(src), parent
                        f += 1
                found[c] = f
        if i > 0:
            p = 1 - c
            offset, per = where[p, 0], where[p, 1]
            out = _room(out, n + found[p])
            for j in range(found[p]):
                d, a, e = undo[p, j, 0], undo[p, j, 1], t.classes[undo[p, j, 2]]
                s = e & SYMMETRY
                rep = iy[p, s] ^ t.point_image[s, d] ^ t.point_image[s, a]
                py = ix[p, s]
                if e & SYMMETRIC:
                    for u in range(symmetries):
                        if iy[p, u] ^ t.point_image[u, d] ^ t.point_image[u, a] == rep:
                            py = min(py, ix[p, u])
                rank_y = colex_rank_among(py, rep, t.binom)
                out[n] = offset + (e >> CLASS_SHIFT) * per + rank_y
                n += 1
            indptr[i] = n
    return indptr, out[:n].copy()


@nb.njit(cache=True, nogil=True)
def slots(start: int, stop: int, m: int, o: int, t: Tables) -> NDArray[np.bool_]:
    """Which ranks ``start..stop-1`` of the subspace of ``m`` and ``o`` stones on the board
    are canonical boards: every rank of a mover's class that is not symmetric; else, walking
    the ranks in order (the next ``y`` by Gosper's hack: no unranking per rank), those whose
    ``y`` no symmetry fixing ``x`` makes smaller."""
    out = np.ones(max(stop - start, 0), dtype=np.bool_)
    syms = np.empty(t.image.shape[0], dtype=np.int64)
    per_x = t.binom[t.points - m, o]
    index = t.starts[m] + start // per_x
    within = start % per_x
    i = 0
    while i < out.shape[0]:
        run = min(per_x - within, out.shape[0] - i)
        x = t.reps[index]
        e = t.classes[x]
        if e & SYMMETRIC:
            fixing = canonical_syms(x, e, t.image, syms)
            free = colex_unrank_bits(within, o, t.points - m, t.binom)
            for j in range(i, i + run):
                y = scatter_bits(free, x, t.points)
                for u in range(fixing):
                    if image(y, syms[u], t.image) < y:
                        out[j] = False
                        break
                if o > 0:
                    free = next_set(free)
        i += run
        index += 1
        within = 0
    return out


@nb.njit(cache=True, nogil=True)
def orbit_sizes(rank: NDArray[np.int64], m: int, o: int, t: Tables) -> NDArray[np.int64]:
    """How many distinct boards the symmetries make of each rank's board."""
    out = np.empty(rank.shape[0], dtype=np.int64)
    for i in range(rank.shape[0]):
        x, y = _unrank(rank[i], m, o, t)
        out[i] = orbit_size(x, y, t.image, t.points)
    return out
