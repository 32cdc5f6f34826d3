"""The plain search's transposition table: score bounds of positions, in a fixed number of slots.

Each slot holds one position's key (its canonical form), a lower and an upper bound on its
score and the index of the move that was best last time (searched first next time). A key
goes to slot ``slot_hash(key) % capacity`` (the same in every process), replacing whatever
was there (*always replace*: the latest entries are the ones the search is about to need).
A replaced entry only costs work, never correctness: every stored bound is a true fact about
its position, so a lost bound is recomputed and a kept one is never stale.

The capacity is fixed when the table is made, from a byte budget
(:meth:`BoundTable.for_budget`), so a search never grows beyond it; the four slot lists are
allocated at once.

Examples
--------
>>> table = BoundTable(8)
>>> table.store("xo.", -3, 5, 1)
>>> table.get("xo."), table.get("ox."), len(table)
((-3, 5, 1), None, 1)
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable

from perfectplay._memory import check_memory, format_bytes
from perfectplay.errors import InputFormatError

__all__ = ["BYTES_PER_ENTRY", "DEFAULT_MEMORY", "BoundTable", "slot_hash"]


def slot_hash(key: Hashable) -> int:
    """A hash of `key` that is the same in every process: an integer is its own hash, any other
    key the CRC-32 of its ``repr``. Python's ``hash`` of a string is salted per process, so a
    table built on it would search a different number of positions in a worker process than in
    the parent (the same answers, other node counts). Cost: O(length of the key's repr).

    Examples
    --------
    >>> slot_hash(7), slot_hash("xo.") == slot_hash("xo.")
    (7, True)
    """
    if isinstance(key, int):
        return key
    return zlib.crc32(repr(key).encode())


BYTES_PER_ENTRY = 240
"""Bytes one filled slot costs, an estimate: four list slots and two bound integers beyond the
small-int cache (about 80 bytes, measured with ``tracemalloc``: tests/search/test_table.py)
and the key object the slot keeps alive (a 9-character string: 58 bytes; a tuple of three
integers: 64 to 150). Larger keys make the table take more than its budget."""

DEFAULT_MEMORY = 64 << 20
"""The table's budget when none is given: 64 MiB, about 280,000 entries."""

_NO_KEY = object()
"""Marks an empty slot (no position compares equal to it)."""


class BoundTable:
    """A fixed number of slots mapping positions to bounds on their score.

    Parameters
    ----------
    capacity : int
        Number of slots, at least 1.

    Notes
    -----
    Cost: O(capacity) time and 32 bytes per slot at once, plus the keys and bounds stored
    (:data:`BYTES_PER_ENTRY` per filled slot in all); O(1) per look-up or store.

    Examples
    --------
    >>> table = BoundTable(1)           # one slot: the second key replaces the first
    >>> table.store((1, 2), 0, 0, 0)
    >>> table.store((3,), 4, 9, 2)
    >>> table.get((1, 2)), table.get((3,))
    (None, (4, 9, 2))
    """

    __slots__ = ("_keys", "_lower", "_move", "_upper", "capacity", "filled")

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise InputFormatError(f"a transposition table needs at least 1 slot, got {capacity}")
        self.capacity = capacity
        """Number of slots."""
        self.filled = 0
        """Number of slots holding an entry."""
        self._keys: list[object] = [_NO_KEY] * capacity
        self._lower: list[int] = [0] * capacity
        self._upper: list[int] = [0] * capacity
        self._move: list[int] = [0] * capacity

    @classmethod
    def for_budget(cls, memory: int, what: str = "the transposition table") -> BoundTable:
        """A table with as many slots as `memory` bytes hold, refused if memory lacks.

        Parameters
        ----------
        memory : int
            The table's byte budget (:data:`BYTES_PER_ENTRY` per slot).
        what : str
            What the table is for, in the messages.

        Returns
        -------
        BoundTable
            ``memory // BYTES_PER_ENTRY`` slots.

        Raises
        ------
        InputFormatError
            If `memory` is not an integer or holds not even one slot.
        TooLargeError
            If `memory` exceeds the memory available (checked before allocating; the
            message gives the budget and what is available).

        Notes
        -----
        Cost: O(memory / BYTES_PER_ENTRY) to allocate the slot lists.

        Examples
        --------
        >>> BoundTable.for_budget(2400).capacity
        10
        >>> BoundTable.for_budget(2**62)
        Traceback (most recent call last):
        ...
        perfectplay.errors.TooLargeError: the transposition table (19215358410114116 entries ...
        """
        if isinstance(memory, bool) or not isinstance(memory, int):
            raise InputFormatError(f"memory must be a number of bytes, got {memory!r}")
        entries = memory // BYTES_PER_ENTRY
        if entries < 1:
            raise InputFormatError(
                f"memory={memory} bytes holds no entry of {what}; "
                f"give at least {BYTES_PER_ENTRY} bytes ({BYTES_PER_ENTRY} per entry)"
            )
        check_memory(
            memory,
            f"{what} ({entries} entries of about {BYTES_PER_ENTRY} bytes, "
            f"{format_bytes(memory)} in all)",
        )
        return cls(entries)

    def get(self, key: Hashable) -> tuple[int, int, int] | None:
        """``(lower, upper, best move index)`` stored for `key`, or None.

        Examples
        --------
        >>> BoundTable(4).get("anything") is None
        True
        """
        slot = slot_hash(key) % self.capacity
        if self._keys[slot] != key:
            return None
        return self._lower[slot], self._upper[slot], self._move[slot]

    def store(self, key: Hashable, lower: int, upper: int, move: int) -> None:
        """Store bounds ``lower <= score <= upper`` and the best move index for `key`.

        Replaces the slot's previous entry, whichever position it was for.

        Examples
        --------
        >>> table = BoundTable(4)
        >>> table.store("p", 1, 1, 0)
        >>> table.get("p")
        (1, 1, 0)
        """
        slot = slot_hash(key) % self.capacity
        if self._keys[slot] is _NO_KEY:
            self.filled += 1
        self._keys[slot] = key
        self._lower[slot] = lower
        self._upper[slot] = upper
        self._move[slot] = move

    def __len__(self) -> int:
        return self.filled
