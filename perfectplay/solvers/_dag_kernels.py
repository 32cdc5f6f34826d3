"""numba kernels of the DAG solver: topological order (Kahn), cycle witness, minimax sweep.

The sweep packs each position's value and remoteness into one integer *key*, ordered by how
much the player moving INTO that position likes it, so the retrograde rules become a single
maximum over the children (one random read per move instead of two):

* a child LOSE in r moves -> ``(3 << SHIFT) + (LOW - r)``  (best: a win, the sooner the better)
* a child TIE in r moves  -> ``(2 << SHIFT) + (LOW - r)``  (a tie, the sooner the better)
* a child DRAW            -> ``1 << SHIFT``
* a child WIN in r moves  -> ``r``                        (a loss, the later the better)

where ``LOW = (1 << SHIFT) - 1``. The best child key decides the parent: a LOSE child makes the
parent WIN in ``1 + r``; a TIE child a TIE in ``1 + r``; a DRAW child a DRAW; otherwise every
child is a WIN for its mover and the parent LOSEs in ``1 + (largest r)``. Remoteness never
exceeds ``n - 1`` in an acyclic graph, so ``SHIFT`` must satisfy ``n <= LOW``; keys are int32
with ``SHIFT = 29`` while that holds, int64 with ``SHIFT = 61`` beyond.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

__all__ = [
    "SHIFT32",
    "SHIFT64",
    "cycle_witness",
    "decode_keys",
    "kahn_order",
    "monotone_direction",
    "sweep",
]

SHIFT32 = 29
SHIFT64 = 61

# Return codes of the sweep.
OK = -1


@nb.njit(cache=True)
def monotone_direction(indptr, indices):  # type: ignore[no-untyped-def]
    """+1 if every move goes to a larger id, -1 if every move goes to a smaller id, else 0.

    A graph without moves counts as +1. One pass over the moves, no allocation.
    """
    n = indptr.shape[0] - 1
    up = True
    down = True
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if v <= u:
                up = False
            if v >= u:
                down = False
        if not up and not down:
            return 0
    return 1 if up else -1


@nb.njit(cache=True)
def kahn_order(indptr, indices, order, indegree):  # type: ignore[no-untyped-def]
    """Fill `order` with a topological order (every move goes later); return how many fit.

    `indegree` (length n, zeroed) is left holding, for every position not placed, its number of
    moves from other unplaced positions; fewer than n placed means a cycle. `order` has n slots
    and each position enters it at most once, when its last incoming move is removed.
    """
    n = indptr.shape[0] - 1
    for e in range(indices.shape[0]):
        indegree[indices[e]] += 1
    tail = 0
    for u in range(n):
        if indegree[u] == 0:
            order[tail] = u
            tail += 1
    head = 0
    while head < tail:
        u = order[head]
        head += 1
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            indegree[v] -= 1
            if indegree[v] == 0:
                order[tail] = v
                tail += 1
    return tail


@nb.njit(cache=True)
def cycle_witness(rindptr, rindices, indegree, walk):  # type: ignore[no-untyped-def]
    """After a failed `kahn_order`: write one cycle into `walk`; return its length.

    Every unplaced position (``indegree > 0``) has an unplaced predecessor, so walking backwards
    through unplaced predecessors never stops and must revisit a position; the walk from that
    position's first visit is a cycle. `walk` has n slots: positions are distinct until the
    repeat. The cycle is returned in move order (``walk[0] -> walk[1] -> ... -> walk[0]``).
    """
    n = indegree.shape[0]
    seen_at = np.full(n, -1, np.int64)
    u = 0
    while indegree[u] == 0:
        u += 1
    steps = 0
    while seen_at[u] < 0:
        seen_at[u] = steps
        walk[steps] = u
        steps += 1
        for e in range(rindptr[u], rindptr[u + 1]):
            if indegree[rindices[e]] > 0:
                u = rindices[e]
                break
    start = seen_at[u]
    length = steps - start
    # The backward walk lists the cycle against the moves: reverse it, then move it to the front.
    for k in range(length // 2):
        walk[start + k], walk[steps - 1 - k] = walk[steps - 1 - k], walk[start + k]
    for k in range(length):
        walk[k] = walk[start + k]
    return length


@nb.njit(cache=True)
def _own_key(value, remoteness, shift):  # type: ignore[no-untyped-def]
    """The key of a position with this value and remoteness (see the module docstring)."""
    low = (1 << shift) - 1
    if value == LOSE:
        return (3 << shift) + (low - remoteness)
    if value == TIE:
        return (2 << shift) + (low - remoteness)
    if value == DRAW:
        return 1 << shift
    return remoteness


@nb.njit(cache=True)
def _parent_key(best, shift):  # type: ignore[no-untyped-def]
    """The key of a position whose best child (for its mover) has key `best`."""
    low = (1 << shift) - 1
    rank = best >> shift
    if rank == 3:  # a LOSE child in r: WIN in 1 + r
        return 1 + low - (best - (3 << shift))
    if rank == 2:  # a TIE child in r: TIE in 1 + r
        return (2 << shift) + (low - 1 - (low - (best - (2 << shift))))
    if rank == 1:  # a DRAW child
        return best
    return (3 << shift) + (low - 1 - best)  # every child WIN, the longest in r: LOSE in 1 + r


@nb.njit(cache=True)
def sweep(  # type: ignore[no-untyped-def]
    indptr,
    indices,
    order,
    direction,
    primitive,
    no_move_value,
    gain,
    terminal,
    keys,
    shift,
    score,
    scored,
):
    """Fill `keys` (and `score` if `scored`) in reverse topological order; return OK or a position.

    The order is ``order[n - 1], ..., order[0]`` when `order` is non-empty, otherwise the ids
    themselves: descending when ``direction == 1`` (moves go up), ascending when -1.
    `primitive` is empty or holds UNDECIDED except fixed positions; `gain` is empty or per move;
    `terminal` is empty or per position; `shift` is SHIFT32 for int32 keys, SHIFT64 for int64.
    Returns the first position whose score overflows int64.
    """
    n = indptr.shape[0] - 1
    has_primitive = primitive.shape[0] > 0
    has_gain = gain.shape[0] > 0
    has_terminal = terminal.shape[0] > 0
    no_move_key = _own_key(no_move_value, 0, shift)
    for k in range(n):
        if order.shape[0] > 0:
            u = order[n - 1 - k]
        elif direction == 1:
            u = n - 1 - k
        else:
            u = k
        start = indptr[u]
        stop = indptr[u + 1]
        fixed = has_primitive and primitive[u] != UNDECIDED
        if fixed:
            keys[u] = _own_key(primitive[u], 0, shift)
        elif start == stop:
            keys[u] = no_move_key
        else:
            best = keys[indices[start]]
            for e in range(start + 1, stop):
                c = keys[indices[e]]
                if c > best:
                    best = c
            keys[u] = _parent_key(best, shift)
        if scored:
            if fixed or start == stop:
                score[u] = terminal[u] if has_terminal else 0
            else:
                top = np.int64(0)
                for e in range(start, stop):
                    g = gain[e] if has_gain else np.int64(0)
                    s = score[indices[e]]
                    r = g - s
                    if ((g ^ s) & (g ^ r)) < 0:  # the subtraction wrapped around
                        return u
                    if e == start or r > top:
                        top = r
                score[u] = top
    return OK


@nb.njit(cache=True)
def decode_keys(keys, shift, value, remoteness):  # type: ignore[no-untyped-def]
    """Unpack every key into `value` and `remoteness` (DRAW gets NO_REMOTENESS)."""
    low = (1 << shift) - 1
    for u in range(keys.shape[0]):
        key = keys[u]
        rank = key >> shift
        if rank == 3:
            value[u] = LOSE
            remoteness[u] = low - (key - (3 << shift))
        elif rank == 2:
            value[u] = TIE
            remoteness[u] = low - (key - (2 << shift))
        elif rank == 1:
            value[u] = DRAW
            remoteness[u] = NO_REMOTENESS
        else:
            value[u] = WIN
            remoteness[u] = key
