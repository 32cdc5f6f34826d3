"""Integer tokens read straight from a byte buffer, in numba kernels.

:func:`read_int` is shared by the judge-input reader (:mod:`perfectplay.problems._reader`) and
the graph-file parser (:mod:`perfectplay.graphfile`); each caller checks that the byte after
the digits ends a token by its own rules (the graph format also ends a token at ``#``).
:func:`parse_ints` reads a run of whitespace-separated integers for the judge-input reader on
large inputs (small ones are read without numba, whose import alone takes about 0.6 s).

>>> import numpy as np
>>> read_int(np.frombuffer(b"x -42 ", np.uint8), 2)
(0, -42, 5)
>>> read_int(np.frombuffer(b"-", np.uint8), 0)[0] == INT_BAD
True
"""

from __future__ import annotations

import numba as nb

__all__ = [
    "INT_BAD",
    "INT_OK",
    "INT_TOO_BIG",
    "MAX_DIGITS",
    "PARSE_BAD",
    "PARSE_END",
    "PARSE_OK",
    "PARSE_TOO_BIG",
    "parse_ints",
    "read_int",
]

# read_int status codes.
INT_OK, INT_BAD, INT_TOO_BIG = 0, 1, 2
# parse_ints status codes (the judge-input reader's pure-Python twin returns the same ones).
PARSE_OK, PARSE_BAD, PARSE_END, PARSE_TOO_BIG = 0, 1, 2, 3
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


@nb.njit(cache=True)
def _is_space(c):  # type: ignore[no-untyped-def]
    return c == 32 or (9 <= c <= 13)


@nb.njit(cache=True)
def parse_ints(buf, pos, out):  # type: ignore[no-untyped-def]
    """Fill `out` with integers read from `buf[pos:]`; return (status, position reached).

    Tokens are separated by ASCII whitespace (space, ``\\t \\n \\v \\f \\r``). Status PARSE_OK
    with the position just after the last digits read; on an error the position is the start
    of the offending token (PARSE_BAD: not an integer, PARSE_TOO_BIG: more than 18 digits) or
    ``len(buf)`` (PARSE_END: the input ends first). Cost: O(bytes read).
    """
    n = buf.shape[0]
    for k in range(out.shape[0]):
        while pos < n and _is_space(buf[pos]):
            pos += 1
        if pos >= n:
            return PARSE_END, pos
        start = pos
        status, value, pos = read_int(buf, pos)
        if status == INT_TOO_BIG:
            return PARSE_TOO_BIG, start
        if status == INT_BAD or (pos < n and not _is_space(buf[pos])):
            return PARSE_BAD, start
        out[k] = value
    return PARSE_OK, pos
