"""numba kernels of the DAG solver: minimax sweeps in id order or depth-first, cycle witness.

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
    "CYCLE",
    "OK",
    "OVERFLOW",
    "SHIFT32",
    "SHIFT64",
    "UNSEEN",
    "decode_keys",
    "dfs_sweep",
    "monotone_direction",
    "sweep",
]

SHIFT32 = 29
SHIFT64 = 61

# Return codes of the sweeps, and the key states of positions not yet decided (keys are >= 0).
OK = -1
OVERFLOW = -2
CYCLE = -3
UNSEEN = -1
OPEN = -2


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
def _settle_end(u, primitive, no_move_key, terminal, keys, shift, score, scored):  # type: ignore[no-untyped-def]
    """Decide a position where the game is over (primitive, or without moves)."""
    if primitive.shape[0] > 0 and primitive[u] != UNDECIDED:
        keys[u] = _own_key(primitive[u], 0, shift)
    else:
        keys[u] = no_move_key
    if scored:
        score[u] = terminal[u] if terminal.shape[0] > 0 else 0


@nb.njit(cache=True)
def _is_end(u, indptr, primitive):  # type: ignore[no-untyped-def]
    return indptr[u] == indptr[u + 1] or (primitive.shape[0] > 0 and primitive[u] != UNDECIDED)


@nb.njit(cache=True)
def _move_score(e, c, gain, score):  # type: ignore[no-untyped-def]
    """``(gain[e] - score[c], wrapped)``: the move's worth and whether int64 overflowed."""
    g = gain[e] if gain.shape[0] > 0 else np.int64(0)
    s = score[c]
    r = g - s
    return r, ((g ^ s) & (g ^ r)) < 0


@nb.njit(cache=True)
def sweep(  # type: ignore[no-untyped-def]
    indptr,
    indices,
    direction,
    primitive,
    no_move_value,
    gain,
    terminal,
    keys,
    shift,
    score,
    scored,
    info,
):
    """Fill `keys` (and `score` if `scored`) when every move goes up (`direction` 1) or down (-1).

    Positions are visited by descending id (ascending for -1), children first. `primitive` is
    empty or holds UNDECIDED except fixed positions; `gain` is empty or per move; `terminal`
    is empty or per position; `shift` is SHIFT32 for int32 keys, SHIFT64 for int64. Returns OK,
    or OVERFLOW with the position whose score leaves int64 in ``info[0]``.
    """
    n = indptr.shape[0] - 1
    no_move_key = _own_key(no_move_value, 0, shift)
    for k in range(n):
        u = n - 1 - k if direction == 1 else k
        if _is_end(u, indptr, primitive):
            _settle_end(u, primitive, no_move_key, terminal, keys, shift, score, scored)
            continue
        start = indptr[u]
        stop = indptr[u + 1]
        best = keys[indices[start]]
        for e in range(start + 1, stop):
            best = max(best, keys[indices[e]])  # branch-free: the loads overlap
        keys[u] = _parent_key(best, shift)
        if scored:
            top, wrapped = _move_score(start, indices[start], gain, score)
            for e in range(start + 1, stop):
                r, wrapped_here = _move_score(e, indices[e], gain, score)
                wrapped |= wrapped_here
                top = max(top, r)
            if wrapped:
                info[0] = u
                return OVERFLOW
            score[u] = top
    return OK


@nb.njit(cache=True)
def dfs_sweep(  # type: ignore[no-untyped-def]
    indptr,
    indices,
    primitive,
    no_move_value,
    gain,
    terminal,
    keys,
    shift,
    score,
    scored,
    stack,
    edge_at,
    best_at,
    top_at,
    post,
    info,
):
    """Like `sweep` for any numbering: a depth-first search decides each position on leaving it.

    `keys` must come filled with UNSEEN; a position on the search path is OPEN, so meeting an
    OPEN child is a cycle. `stack`, `edge_at`, `best_at` (and `top_at` when scored) have n
    slots: the path holds distinct positions. When `post` is non-empty it receives the
    positions in the order they are decided (children first). Returns OK; OVERFLOW with the
    position in ``info[0]``; or CYCLE with the cycle ``stack[info[0]] -> ... ->
    stack[info[1]] -> stack[info[0]]``.
    """
    n = indptr.shape[0] - 1
    no_move_key = _own_key(no_move_value, 0, shift)
    decided = 0
    for root in range(n):
        if keys[root] != UNSEEN:
            continue
        if _is_end(root, indptr, primitive):
            _settle_end(root, primitive, no_move_key, terminal, keys, shift, score, scored)
            if post.shape[0] > 0:
                post[decided] = root
            decided += 1
            continue
        keys[root] = OPEN
        depth = 0
        stack[0] = root
        edge_at[0] = indptr[root]
        while depth >= 0:
            u = stack[depth]
            e = edge_at[depth]
            stop = indptr[u + 1]
            while e < stop:
                c = indices[e]
                key = keys[c]
                if key == UNSEEN:
                    if not _is_end(c, indptr, primitive):
                        keys[c] = OPEN
                        edge_at[depth] = e  # resume at this move once c is decided
                        depth += 1
                        stack[depth] = c
                        edge_at[depth] = indptr[c]
                        break
                    _settle_end(c, primitive, no_move_key, terminal, keys, shift, score, scored)
                    if post.shape[0] > 0:
                        post[decided] = c
                    decided += 1
                    key = keys[c]
                elif key == OPEN:
                    first = depth
                    while stack[first] != c:
                        first -= 1
                    info[0] = first
                    info[1] = depth
                    return CYCLE
                first_move = e == indptr[u]
                best_at[depth] = key if first_move else max(best_at[depth], key)
                if scored:
                    r, wrapped = _move_score(e, c, gain, score)
                    if wrapped:
                        info[0] = u
                        return OVERFLOW
                    top_at[depth] = r if first_move else max(top_at[depth], r)
                e += 1
            if e < stop:
                continue  # descended into a child
            keys[u] = _parent_key(best_at[depth], shift)
            if scored:
                score[u] = top_at[depth]
            if post.shape[0] > 0:
                post[decided] = u
            decided += 1
            depth -= 1
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
