"""numba kernels of Dodgem as a tiered game: ranking within a tier, children and parents.

A board is an array of ``N = n * n`` cells (``0`` empty, ``1`` Blue, ``2`` Red), cell 0 the
top-left, row by row. The tier of a board is ``(b, r)``, its numbers of Blue and Red cars. Its
rank in the tier is ``(blue * C(N - b, r) + red) * 2 + turn`` where ``blue`` is the colex rank
(:mod:`perfectplay._ranking`) of the set of Blue cells (``sum_i C(c_i, i)`` over the cells
``c_1 < ... < c_b``), ``red`` the colex rank of the Red cells numbered among the ``N - b``
cells without a Blue car, and ``turn`` is 1 when Red is to move: a bijection onto
``0..2 C(N, b) C(N - b, r) - 1``. Both ranks are computed in one pass over the cells
(:func:`_rank`) and unranked by :func:`perfectplay._ranking_kernels.colex_unrank_bits`.

Car steps come from a table ``steps[player, cell, k]`` (player 0 Blue, 1 Red): the cell the
``k``-th step of a car on ``cell`` goes to, :data:`OFF` to leave the board, :data:`NONE` past
the car's last step; ``sources[player, cell, k]`` lists the other way round the cells from
which a car steps onto ``cell`` (un-moves, for the parents).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay._ranking_kernels import colex_unrank_bits

__all__ = ["NONE", "OFF", "cells_rank", "tier_children", "tier_parents", "tier_unrank"]

OFF = -1
"""A step that leaves the board."""
NONE = -2
"""No step (the table's padding)."""


@nb.njit(cache=True, nogil=True)
def _rank(cells, binom):  # type: ignore[no-untyped-def]
    """``(b, r, rank of the cars)`` of a board, the turn not included."""
    total = cells.shape[0]
    b = 0
    r = 0
    blue = 0
    red = 0
    free = 0  # cells without a Blue car seen so far: the Red cells' numbering
    for c in range(total):
        if cells[c] == 1:
            b += 1
            blue += binom[c, b]
        else:
            if cells[c] == 2:
                r += 1
                red += binom[free, r]
            free += 1
    return b, r, blue * binom[total - b, r] + red


@nb.njit(cache=True, nogil=True)
def cells_rank(boards, turns, binom, tiers, ranks):  # type: ignore[no-untyped-def]
    """Car counts (``tiers[q] = (b, r)``) and ranks of many boards (shape ``(k, N)``) at once."""
    for q in range(boards.shape[0]):
        b, r, cars = _rank(boards[q], binom)
        tiers[q, 0] = b
        tiers[q, 1] = r
        ranks[q] = cars * 2 + turns[q]


@nb.njit(cache=True, nogil=True)
def _load(b, r, rank, binom, cells):  # type: ignore[no-untyped-def]
    """Write the board of `rank` in tier ``(b, r)`` into `cells`; return the turn (1: Red)."""
    total = cells.shape[0]
    cars = rank >> 1
    per_blue = binom[total - b, r]
    blue = colex_unrank_bits(cars // per_blue, b, total, binom)
    red = colex_unrank_bits(cars % per_blue, r, total - b, binom)  # among the cells left
    free = 0
    for c in range(total):
        if (blue >> c) & 1:
            cells[c] = 1
        else:
            cells[c] = 2 if (red >> free) & 1 else 0
            free += 1
    return rank & 1


@nb.njit(cache=True, nogil=True)
def tier_unrank(b, r, ranks, binom, boards, turns):  # type: ignore[no-untyped-def]
    """Boards (shape ``(k, N)``) and turns of ranks of tier ``(b, r)``. O(N) per rank."""
    for q in range(ranks.shape[0]):
        turns[q] = _load(b, r, ranks[q], binom, boards[q])


@nb.njit(cache=True, nogil=True)
def tier_children(b, r, ranks, binom, steps, primitive, indptr, which, child):  # type: ignore[no-untyped-def]
    """Every move of each rank of tier ``(b, r)``, in the order of :meth:`Dodgem.moves`.

    Inner moves (a car steps onto an empty cell) have ``which`` 0; a car leaving the board
    goes to child tier 1 (one Blue car fewer; for Red, 1 if ``b == 0`` else 2). A position
    whose player to move has no move is a WIN for them (`primitive` 3, else left as given).
    `which`/`child` need room for ``3 * (cars of the mover)`` moves per rank. O(N) per move.
    """
    total = steps.shape[1]
    cells = np.empty(total, np.int8)
    e = 0
    for q in range(ranks.shape[0]):
        indptr[q] = e
        turn = _load(b, r, ranks[q], binom, cells)
        mine = turn + 1
        for c in range(total):
            if cells[c] != mine:
                continue
            for k in range(steps.shape[2]):
                target = steps[turn, c, k]
                if target == NONE:
                    break
                if target == OFF:
                    cells[c] = 0
                    which[e] = 1 if turn == 0 or b == 0 else 2
                elif cells[target] == 0:
                    cells[c] = 0
                    cells[target] = mine
                    which[e] = 0
                else:
                    continue
                child[e] = _rank(cells, binom)[2] * 2 + 1 - turn
                e += 1
                cells[c] = mine
                if target != OFF:
                    cells[target] = 0
        if e == indptr[q]:
            primitive[q] = 3
    indptr[ranks.shape[0]] = e


@nb.njit(cache=True, nogil=True)
def tier_parents(b, r, ranks, binom, sources, indptr, parent):  # type: ignore[no-untyped-def]
    """Un-moves inside tier ``(b, r)``: the positions with a car step onto each rank's board.

    The player who moved is the one not to move at the rank; each of their cars steps back
    to any empty cell it could have come from. `parent` needs room for
    ``3 * (cars of that player)`` entries per rank. O(N) per parent.
    """
    total = sources.shape[1]
    cells = np.empty(total, np.int8)
    e = 0
    for q in range(ranks.shape[0]):
        indptr[q] = e
        mover = 1 - _load(b, r, ranks[q], binom, cells)
        car = mover + 1
        for c in range(total):
            if cells[c] != car:
                continue
            for k in range(sources.shape[2]):
                origin = sources[mover, c, k]
                if origin == NONE:
                    break
                if cells[origin] != 0:
                    continue
                cells[c] = 0
                cells[origin] = car
                parent[e] = _rank(cells, binom)[2] * 2 + mover
                e += 1
                cells[origin] = 0
                cells[c] = car
    indptr[ranks.shape[0]] = e
