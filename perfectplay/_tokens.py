"""Integer tokens read straight from a byte buffer, in numba kernels.

Shared by the judge-input reader (:mod:`perfectplay.problems._reader`) and the graph-file parser
(:mod:`perfectplay.graphfile`); each caller checks that the byte after the digits ends a token
by its own rules (the graph format also ends a token at ``#``).

>>> import numpy as np
>>> read_int(np.frombuffer(b"x -42 ", np.uint8), 2)
(0, -42, 5)
>>> read_int(np.frombuffer(b"-", np.uint8), 0)[0] == INT_BAD
True
"""

from __future__ import annotations

import numba as nb

__all__ = ["INT_BAD", "INT_OK", "INT_TOO_BIG", "MAX_DIGITS", "read_int"]

# read_int status codes.
INT_OK, INT_BAD, INT_TOO_BIG = 0, 1, 2
# 18 decimal digits always fit in an int64 (19 may not): longer numbers are refused.
MAX_DIGITS = 18


@nb.njit(cache=True)
def read_int(buf, pos):  # type: ignore[no-untyped-def]
    """(status, value, end) of an optional ``-`` and the digits starting at `buf[pos]`.

    `end` is the first byte after the digits read. Status INT_BAD when there is no digit,
    INT_TOO_BIG as soon as a 19th digit is read (value 0 in both cases). Cost: O(digits).
    """
    n = buf.shape[0]
    negative = False
    if pos < n and buf[pos] == 45:  # '-'
        negative = True
        pos += 1
    value = 0
    digits = 0
    while pos < n and 48 <= buf[pos] <= 57:
        value = value * 10 + (buf[pos] - 48)
        digits += 1
        pos += 1
        if digits > MAX_DIGITS:
            return INT_TOO_BIG, 0, pos
    if digits == 0:
        return INT_BAD, 0, pos
    return INT_OK, -value if negative else value, pos
