"""numba kernels of retrograde analysis, one per named step (each is tested on its own).

The steps, in the order :func:`perfectplay.solvers.retrograde.solve_retrograde` runs them:

1. :func:`count_children` - every position's number of moves (multi-edges count twice).
2. :func:`seed_primitives` - positions decided by the rules or without moves get their value
   and remoteness 0; the WIN/LOSE ones enter the queue.
3. :func:`propagate_win_lose` - breadth-first over predecessors: a LOSE child makes its parent
   a WIN; a parent whose every move leads to a WIN becomes a LOSE.
4. :func:`seed_ties` - TIE primitives enter the queue once WIN/LOSE reached its fixed point.
5. :func:`propagate_ties` - breadth-first: an undecided parent of a TIE becomes a TIE.
6. :func:`mark_draws` - whatever is still undecided is a DRAW.

All arrays are indexed by position; ``queue`` is one buffer of n slots shared by both
propagations: a position enters it only when it is decided, and it is decided once, so at most
n positions ever enter it. Positions leave the queue in the order they entered, and the
remoteness of those entering is never smaller than that of those leaving, so every position is
processed in non-decreasing remoteness: the first LOSE child seen is the nearest one (the
winner's shortest win) and the last WIN child seen is the farthest one (the loser's longest loss).
"""

from __future__ import annotations

import numba as nb

from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

__all__ = [
    "count_children",
    "mark_draws",
    "propagate_ties",
    "propagate_win_lose",
    "seed_primitives",
    "seed_ties",
]


@nb.njit(cache=True)
def count_children(indptr, counters):  # type: ignore[no-untyped-def]
    """``counters[p]`` = number of moves from ``p`` (a move counted once per edge)."""
    for p in range(counters.shape[0]):
        counters[p] = indptr[p + 1] - indptr[p]


@nb.njit(cache=True)
def seed_primitives(indptr, primitive, terminal_value, value, remoteness, queue):  # type: ignore[no-untyped-def]
    """Decide the positions the rules decide; return how many entered `queue`.

    A position with a primitive value (not UNDECIDED) gets it; a position without moves and
    without a primitive value gets `terminal_value` (LOSE in normal play, WIN in misere play).
    Both get remoteness 0. WIN and LOSE positions are queued in position order; TIE primitives
    wait for :func:`seed_ties`. Every other position is set to UNDECIDED.
    """
    tail = 0
    for p in range(value.shape[0]):
        v = primitive[p]
        if v == UNDECIDED and indptr[p + 1] == indptr[p]:
            v = terminal_value
        value[p] = v
        if v == UNDECIDED:
            remoteness[p] = NO_REMOTENESS
        else:
            remoteness[p] = 0
            if v != TIE:
                queue[tail] = p
                tail += 1
    return tail


@nb.njit(cache=True)
def propagate_win_lose(rindptr, rindices, counters, value, remoteness, queue, head, tail):  # type: ignore[no-untyped-def]
    """Run the WIN/LOSE queue ``queue[head:tail]`` to its fixed point; return the new tail.

    Each dequeued WIN position takes one off the counter of every predecessor move; a
    predecessor whose counter reaches 0 has only WIN moves and becomes a LOSE. Each dequeued
    LOSE position makes every undecided predecessor a WIN. New positions get remoteness one
    more than the dequeued one and join the queue.
    """
    while head < tail:
        c = queue[head]
        head += 1
        child_value = value[c]
        r = remoteness[c] + 1
        for e in range(rindptr[c], rindptr[c + 1]):
            p = rindices[e]
            if value[p] != UNDECIDED:
                continue
            if child_value == LOSE:
                value[p] = WIN
            else:
                counters[p] -= 1
                if counters[p] != 0:
                    continue
                value[p] = LOSE
            remoteness[p] = r
            queue[tail] = p
            tail += 1
    return tail


@nb.njit(cache=True)
def seed_ties(value, queue, tail):  # type: ignore[no-untyped-def]
    """Append every TIE position (after WIN/LOSE, only TIE primitives) to `queue`; new tail."""
    for p in range(value.shape[0]):
        if value[p] == TIE:
            queue[tail] = p
            tail += 1
    return tail


@nb.njit(cache=True)
def propagate_ties(rindptr, rindices, value, remoteness, queue, head, tail):  # type: ignore[no-untyped-def]
    """Run the TIE queue ``queue[head:tail]``: undecided predecessors become TIE; new tail.

    Called after :func:`propagate_win_lose`, so an undecided position has no LOSE child and
    at least one non-WIN child: one TIE child makes it a TIE, at one move more than the
    nearest TIE child (the first one dequeued).
    """
    while head < tail:
        c = queue[head]
        head += 1
        r = remoteness[c] + 1
        for e in range(rindptr[c], rindptr[c + 1]):
            p = rindices[e]
            if value[p] == UNDECIDED:
                value[p] = TIE
                remoteness[p] = r
                queue[tail] = p
                tail += 1
    return tail


@nb.njit(cache=True)
def mark_draws(value, remoteness):  # type: ignore[no-untyped-def]
    """Every still UNDECIDED position becomes a DRAW with remoteness -1; return how many."""
    count = 0
    for p in range(value.shape[0]):
        if value[p] == UNDECIDED:
            value[p] = DRAW
            remoteness[p] = NO_REMOTENESS
            count += 1
    return count
