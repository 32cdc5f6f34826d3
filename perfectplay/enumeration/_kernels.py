"""numba kernels of the vectorized enumerator (see :mod:`perfectplay.enumeration.enumerate`).

Every code seen so far lives in one open-addressing hash table (:class:`CodeTable`): linear
probing, Fibonacci hashing on the top bits, each slot a ``(~code, id)`` pair side by side so a
probe reads one cache line (``~code`` is negative, so a zeroed table is empty), a load factor
of at most 1/2. A layer's moves are first grouped by
parent (a stable counting sort, skipped when the game already gives them grouped), then one
pass numbers every move's child: a code found in the table has its id, a new code gets the next
id and joins the next layer. Children are therefore numbered in the order the plain path meets
them (parents by increasing id, each parent's moves in the game's order): first-seen order,
deterministic, breadth-first, no sort.

Random probes into a table larger than the caches dominate on large games; the numbering loop
knows its future probes, so it prefetches the slot of the move ``AHEAD`` places further on.
Growing the table is streaming work: with hashing on the top bits, the entry in old slot ``i``
lands near new slot ``2 i`` (``4 i``, ...). When a layer will not fit, the enumerator reserves
room for the new positions it expects from that layer and the next, so one rehash replaces
several doublings. While the layers grow fast (or a layer overflows the reservation), a
table below ``2 ** 22`` slots grows at least fourfold: each new table costs its page faults
(zeroing fresh memory takes as long as the rehash itself), so the hedge pays when more
positions are likely to follow, and the layers' growth says when.

The table also keeps the code of every id, in a buffer with room for as many codes as the
table may hold (reallocated with it): a layer's new codes are a slice of it, so they are
neither collected per layer nor joined at the end. The enumerator keeps each position's
move count the same way, in the ``indptr`` it sums in place at the end.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._prefetch import prefetch as _prefetch
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN

__all__ = [
    "BAD_CODE",
    "BAD_PARENT",
    "DONE",
    "GROW",
    "LIMIT",
    "OVER_MOVES",
    "CodeTable",
    "first_bad_outcome",
    "group_moves",
]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing multiplier
_EMPTY = 0  # a free slot; a code c is stored as ~c, negative since codes are non-negative
_FIRST_BITS = 10  # a new table has 2 ** 10 slots
# a hedging table (see CodeTable.reserve) quadruples up to this many slots (64 MiB): each new
# table costs its page faults, so fewer, larger steps pay off while the overshoot stays small
_QUADRUPLE_UP_TO = 1 << 22
AHEAD = 24  # moves between a slot's prefetch and its probe (best of 16, 24, 32 on Connect Four 4x5)

# Status codes of the kernels.
DONE = 0
GROW = 1  # the table is half full: double it and call again from where the pass stopped
LIMIT = 2  # more than `limit` positions
BAD_PARENT = 3  # a parent index outside 0..width-1
BAD_CODE = 4  # a negative child code
OVER_MOVES = 5  # a position that is over has moves


@nb.njit(cache=True)
def first_bad_outcome(outcomes: NDArray[np.integer[Any]]) -> int:
    """Index of the first entry that is not LOSE, TIE, WIN or UNDECIDED, -1 if none."""
    valid = True
    for i in range(outcomes.shape[0]):  # no early exit: the compiler vectorises this pass
        v = outcomes[i]
        valid &= (v == LOSE) | (v == TIE) | (v == WIN) | (v == UNDECIDED)
    if valid:
        return -1
    for i in range(outcomes.shape[0]):
        v = outcomes[i]
        if v != LOSE and v != TIE and v != WIN and v != UNDECIDED:
            return i
    return -1  # pragma: no cover - the first pass found a bad entry


@nb.njit(cache=True)
def _count_moves(
    parent: NDArray[np.integer[Any]], outcomes: NDArray[np.uint8], degree: NDArray[np.int32]
) -> tuple[int, int, bool]:
    """Count the moves of each parent; ``(status, index, ordered)`` with `ordered` true when
    the parents never decrease. `status` is ``BAD_PARENT`` (`index`: the first such move),
    else ``OVER_MOVES`` (`index`: the first parent that is over yet has moves), else DONE."""
    width = degree.shape[0]
    ordered = True
    over = width  # the smallest parent that is over, `width` if none
    previous = 0
    for i in range(parent.shape[0]):
        p = parent[i]
        if p < 0 or p >= width:
            return BAD_PARENT, i, False
        degree[p] += 1
        ordered &= p >= previous
        previous = p
        if outcomes[p] != UNDECIDED:
            over = min(over, p)
    if over < width:
        return OVER_MOVES, over, ordered
    return DONE, -1, ordered


@nb.njit(cache=True)
def _scatter_moves(
    parent: NDArray[np.integer[Any]],
    child: NDArray[np.int64],
    degree: NDArray[np.int32],
    grouped: NDArray[np.int64],
) -> None:
    """Stable counting sort of `child` by `parent` into `grouped`."""
    width = degree.shape[0]
    start = np.empty(width, dtype=np.int64)  # next CSR slot of each parent
    total = 0
    for p in range(width):
        start[p] = total
        total += degree[p]
    for i in range(parent.shape[0]):
        grouped[start[parent[i]]] = child[i]
        start[parent[i]] += 1


def group_moves(
    parent: NDArray[np.integer[Any]],
    child: NDArray[np.int64],
    outcomes: NDArray[np.uint8],
    degree: NDArray[np.int32],
) -> tuple[int, int, NDArray[np.int64]]:
    """One layer's moves grouped by parent: ``(status, index, grouped)``.

    Adds to ``degree[p]`` (zeros on entry, one per frontier position, ``0 <= p < width`` with
    ``width = len(outcomes) = len(degree)``) the moves of frontier position ``p``; `grouped`
    lists the children's codes by increasing parent, each parent's moves in the order given
    (a stable counting sort; `child` itself when the parents never decrease). `status` is
    ``DONE``; ``BAD_PARENT`` with `index` the first move whose parent is outside
    ``0..width-1``; or ``OVER_MOVES`` with `index` the first position whose outcome is not
    UNDECIDED yet has moves. Cost: O(len(child) + width), one pass over `parent` when already
    grouped.
    """
    status, index, ordered = _count_moves(parent, outcomes, degree)
    if status != DONE or ordered:
        return status, index, child
    grouped = np.empty(child.shape[0], dtype=np.int64)  # one code per move
    _scatter_moves(parent, child, degree, grouped)
    return status, index, grouped


@nb.njit(cache=True)
def _shift_of(size: int) -> np.uint64:
    """The right shift that keeps the top log2(size) bits of a 64-bit product."""
    bits = 0
    while (1 << bits) < size:
        bits += 1
    return np.uint64(64 - bits)


@nb.njit(cache=True)
def _slot(code: np.int64, shift: np.uint64) -> np.int64:
    """The home slot of `code`: the top bits of its Fibonacci hash."""
    return np.int64((np.uint64(code) * _GOLDEN) >> shift)


@nb.njit(cache=True)
def _insert_all(old: NDArray[np.int64], table: NDArray[np.int64]) -> None:
    """Insert every entry of `old` into the empty `table` (old slots in increasing order)."""
    size = table.shape[0] // 2
    shift = _shift_of(size)
    mask = size - 1
    for i in range(0, old.shape[0], 2):
        key = old[i]
        if key == _EMPTY:
            continue
        h = _slot(~key, shift)
        while table[2 * h] != _EMPTY:
            h = (h + 1) & mask
        table[2 * h] = key
        table[2 * h + 1] = old[i + 1]


@nb.njit(cache=True)
def _number(
    grouped: NDArray[np.int64],
    table: NDArray[np.int64],
    codes: NDArray[np.int64],
    state: NDArray[np.int64],
    limit: int,
    dst: NDArray[np.signedinteger[Any]],
) -> int:
    # state = [next move, positions so far (the next id)]; a new code c gets id n, codes[n] = c
    size = table.shape[0] // 2
    shift = _shift_of(size)
    mask = size - 1
    room = min(size // 2, codes.shape[0])  # the load factor stays <= 1/2
    e = state[0]
    n = state[1]
    m = grouped.shape[0]
    status = DONE
    while e < m:
        if e + AHEAD < m:
            ahead = _slot(grouped[e + AHEAD], shift)
            _prefetch(table, 2 * ahead)
        code = grouped[e]
        if code < 0:
            status = BAD_CODE
            break
        h = _slot(code, shift)
        while True:
            stored = table[2 * h]
            if stored == ~code:
                dst[e] = table[2 * h + 1]
                break
            if stored == _EMPTY:
                if n >= room:
                    status = GROW
                elif n >= limit:
                    status = LIMIT
                else:
                    table[2 * h] = ~code
                    table[2 * h + 1] = n
                    dst[e] = n
                    codes[n] = code
                    n += 1
                break
            h = (h + 1) & mask
        if status != DONE:
            break
        e += 1
    state[0] = e
    state[1] = n
    return status


class CodeTable:
    """Every code seen so far with its id (an open-addressing hash table, see the module).

    Slot ``h`` is ``table[2 h]`` (``~code``, 0 when free) and ``table[2 h + 1]`` (its id);
    ``codes[i]`` is the code of id ``i`` for ``i < n``, in a buffer with room for as many codes
    as the table may hold (half its slots), reallocated with the table. Memory: 16 bytes per
    slot and 4 per slot for the codes; 2 to 4 slots per code, up to 8 while the table is
    below ``2 ** 22`` slots (64 MiB), where a hedging table quadruples.
    """

    def __init__(self) -> None:
        self.table = np.zeros(2 << _FIRST_BITS, dtype=np.int64)
        self.codes = np.empty(1 << (_FIRST_BITS - 1), dtype=np.int64)  # half the slots
        self.n = 0  # codes held, numbered 0..n-1 in the order added

    @property
    def nbytes(self) -> int:
        """Bytes of the table and the codes buffer."""
        return int(self.table.nbytes + self.codes.nbytes)

    def has_room(self, count: int) -> bool:
        """Whether the table holds `count` codes in all without growing."""
        return count <= self.table.shape[0] // 4

    def grown_bytes(self, count: int, hedge: bool = False) -> int:
        """Bytes of the new table and codes buffer that :meth:`reserve` (`count`, `hedge`)
        allocates (0 when the table has room already)."""
        size = self._grown_size(count, hedge)
        return 0 if size == self.table.shape[0] // 2 else 20 * size

    def _grown_size(self, count: int, hedge: bool) -> int:
        """Slots of the table that holds `count` codes at load <= 1/2: a power of two, the
        current size if it suffices, else (with `hedge`) at least four times it while that
        stays ``<= 2 ** 22`` slots."""
        old = size = self.table.shape[0] // 2
        while count > size // 2:
            size *= 2
        if hedge and old < size < 4 * old <= _QUADRUPLE_UP_TO:
            size = 4 * old
        return size

    def reserve(self, count: int, hedge: bool = False) -> None:
        """Make room for `count` codes in all (at most one rehash, into a power-of-two table).

        With `hedge` (more codes are likely to follow), a table that must grow at least
        quadruples while it stays below ``2 ** 22`` slots: one rehash and one new table
        instead of two.
        """
        size = self._grown_size(count, hedge)
        if size == self.table.shape[0] // 2:
            return
        # the load factor stays <= 1/2; zeros (free slots) come lazily from the system
        bigger = np.zeros(2 * size, dtype=np.int64)
        _insert_all(self.table, bigger)
        self.table = bigger
        codes = np.empty(size // 2, dtype=np.int64)  # room for every code the table may hold
        codes[: self.n] = self.codes[: self.n]
        self.codes = codes

    def number(
        self, grouped: NDArray[np.int64], limit: int, dst: NDArray[np.signedinteger[Any]]
    ) -> tuple[int, int, NDArray[np.int64]]:
        """The id of each code of `grouped` in ``dst``, new codes numbered in first-seen order.

        A code not yet in the table gets the next id and is added. Returns ``(status, stop,
        new)``: `new` holds the codes added, in id order (a view of :attr:`codes`, which
        outlives later growth: a new buffer is a copy); `status` is ``DONE``, ``LIMIT`` if the
        table would exceed `limit` codes, or ``BAD_CODE`` if ``grouped[stop]`` is negative (the
        pass stops there; `new` and the table keep what was added before). Grows the table as
        needed. Cost: one probe per code, O(len(grouped)) expected.
        """
        first = self.n
        state = np.array([0, first], dtype=np.int64)
        status = GROW
        while status == GROW:
            status = _number(grouped, self.table, self.codes, state, limit, dst)
            self.n = int(state[1])
            if status == GROW:  # more codes than foreseen: hedge
                self.reserve(self.n + 1, hedge=True)
        return status, int(state[0]), self.codes[first : self.n]
