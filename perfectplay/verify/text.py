"""Read a solution in ``perfectplay solve``'s text format, vectorised with numpy.

Each line is ``id VALUE remoteness`` (``-`` as a DRAW's remoteness); blank lines and ``\\r\\n``
line ends are allowed, and the ids may come in any order but each exactly once.

Examples
--------
>>> value, remoteness = parse_solution(b"0 WIN 1\\n1 LOSE 0\\n2 DRAW -\\n", 3)
>>> value.tolist(), remoteness.tolist()
([3, 0, 1], [1, 0, -1])
>>> parse_solution(b"0 WIN 1\\n1 LOOSE 0\\n", 2)
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: line 2: unknown value: 'LOOSE' (expected WIN, LOSE, ...)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay.errors import InputFormatError
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

__all__ = ["parse_solution"]

_DIGITS = 18  # at most 18 digits: every such number fits in int64
_SPACE = np.zeros(256, dtype=np.bool_)
_SPACE[[9, 10, 11, 12, 13, 32]] = True
_WORDS = {LOSE: b"LOSE", DRAW: b"DRAW", TIE: b"TIE", WIN: b"WIN"}


def _quoted(data: bytes, start: int, stop: int) -> str:
    return repr(data[start : min(stop, start + 40)].decode("utf-8", "backslashreplace"))


def _integers(
    buf: NDArray[np.uint8], starts: NDArray[np.int64], lengths: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The decimal integers at `starts` (`lengths` bytes each) and which tokens are not one."""
    value = np.zeros(starts.shape[0], dtype=np.int64)
    bad = (lengths > _DIGITS) | (lengths == 0)
    for j in range(int(min(lengths.max(initial=0), _DIGITS))):
        active = j < lengths
        digit = buf[starts + np.minimum(j, lengths - 1)].astype(np.int64) - 48
        bad |= active & ((digit < 0) | (digit > 9))
        value = np.where(active, value * 10 + digit, value)
    return value, bad


def _words(
    buf: NDArray[np.uint8], starts: NDArray[np.int64], lengths: NDArray[np.int64]
) -> NDArray[np.uint8]:
    """The value code of each token (upper case only), UNDECIDED where it is no value word."""
    code = np.full(starts.shape[0], UNDECIDED, dtype=np.uint8)
    for v, word in _WORDS.items():
        same = lengths == len(word)
        for j, letter in enumerate(word):
            same &= buf[starts + np.minimum(j, lengths - 1)] == letter
        code[same] = v
    return code


def parse_solution(data: bytes, n: int) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The value and remoteness arrays a solution text gives for positions ``0..n-1``.

    Parameters
    ----------
    data : bytes
        The text, one ``id VALUE remoteness`` line per position.
    n : int
        The number of positions of the graph it solves.

    Returns
    -------
    value : ndarray of uint8, shape (n,)
        Value codes for the player to move.
    remoteness : ndarray of int64, shape (n,)
        Remoteness, -1 where the text says ``-``.

    Raises
    ------
    InputFormatError
        Naming the line: not three tokens, an id that is not an integer in ``0..n-1`` or
        repeats, an unknown value word, a remoteness that is neither ``-`` nor an integer; or
        a position missing from the text.

    Notes
    -----
    Cost: O(bytes) numpy passes (about 20 of them over the bytes and the tokens), no Python
    loop over lines; under 20 bytes of memory per input byte at peak.
    """
    check_memory(20.0 * len(data), f"reading a solution text of {len(data)} bytes")
    buf = np.frombuffer(data, dtype=np.uint8)
    space = _SPACE[buf]
    edge = np.diff(space.view(np.int8), prepend=np.int8(1), append=np.int8(1))
    del space
    starts = np.flatnonzero(edge == -1)  # a space (or the start) before a token byte
    stops = np.flatnonzero(edge == 1)[-starts.shape[0] :] if starts.size else starts
    del edge
    lines = np.searchsorted(np.flatnonzero(buf == 10), starts) + 1
    # Every line holding a token must hold exactly three.
    opens = np.ones(lines.shape[0], dtype=np.bool_)  # the first token of its line
    opens[1:] = lines[1:] != lines[:-1]
    line_start = np.flatnonzero(opens)
    per_line = np.diff(np.append(line_start, starts.shape[0]))
    wrong = np.flatnonzero(per_line != 3)
    if wrong.size:
        k = int(line_start[wrong[0]])
        raise InputFormatError(
            f"expected `id VALUE remoteness`, got {int(per_line[wrong[0]])} tokens starting "
            f"with {_quoted(data, int(starts[k]), int(stops[k]))}",
            int(lines[k]),
        )
    lengths = stops - starts
    ids, id_bad = _integers(buf, starts[0::3], lengths[0::3])
    codes = _words(buf, starts[1::3], lengths[1::3])
    r_starts, r_lengths = starts[2::3], lengths[2::3]
    dash = (r_lengths == 1) & (buf[r_starts] == 45)
    remoteness, r_bad = _integers(buf, r_starts, r_lengths)
    remoteness[dash] = NO_REMOTENESS
    r_bad &= ~dash
    row_lines = lines[0::3]
    problems = [
        (id_bad, 0, "expected a position id (an integer)"),
        (~id_bad & (ids >= n), 0, f"position out of range 0..{n - 1}"),
        (codes == UNDECIDED, 1, "unknown value"),
        (r_bad, 2, "expected a remoteness (an integer, or - for a DRAW)"),
    ]
    first = [(int(np.argmax(mask)), column, what) for mask, column, what in problems if mask.any()]
    if first:
        row, column, what = min(first)
        k = 3 * row + column
        token = _quoted(data, int(starts[k]), int(stops[k]))
        suffix = " (expected WIN, LOSE, TIE or DRAW)" if column == 1 else ""
        raise InputFormatError(f"{what}: {token}{suffix}", int(row_lines[row]))
    seen = np.bincount(ids, minlength=n)
    if (seen > 1).any():
        p = int(np.argmax(seen > 1))
        row = int(np.flatnonzero(ids == p)[1])
        raise InputFormatError(f"position {p} appears a second time", int(row_lines[row]))
    if (seen == 0).any():
        p = int(np.argmax(seen == 0))
        last = int(row_lines[-1]) if row_lines.size else 1
        raise InputFormatError(f"no line for position {p} ({ids.shape[0]} of {n} given)", last)
    value = np.empty(n, dtype=np.uint8)
    value[ids] = codes
    result = np.empty(n, dtype=np.int64)
    result[ids] = remoteness
    return value, result
