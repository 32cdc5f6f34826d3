"""`TokenReader`: whitespace-separated judge input, parsed fast, with line numbers in errors.

Integers are parsed by a numba kernel straight from the byte buffer (millions per second) when
the input is larger than :data:`SMALL_INPUT` (64 KiB); smaller inputs, such as a judge's 10 x 10
board, by regular expressions, which spares the numba import (about 0.6 s of start-up) for a
few thousand numbers. Both paths give the same integers, positions and errors. Words (grid
rows, names) are always read by a regular expression. Every error names the 1-based line.

>>> r = TokenReader(b"2 3\\n1 2\\n#.#\\n")
>>> r.integer("n"), r.integer("m")
(2, 3)
>>> r.integers(2, "an edge").tolist()
[1, 2]
>>> r.word("a grid row")
'#.#'
>>> r.at_end()
True
>>> TokenReader(b"1\\nx").integers(2, "the values")
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: line 2: expected an integer (the values), got 'x'

A problem's documented limits (the judge's bounds) are checked by the reader when it is made
with ``limits=True``, and ignored with ``limits=False``:

>>> TokenReader(b"\\n101 3", limits=True).integer("the number of rows N", at_most=100)
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: line 2: the number of rows N: 101 is above ... 100 ...
>>> TokenReader(b"\\n101 3", limits=False).integer("the number of rows N", at_most=100)
101
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import InputFormatError

__all__ = ["SMALL_INPUT", "TokenReader"]

SMALL_INPUT = 64 * 1024
"""Inputs of at most this many bytes are parsed by regular expressions, never importing numba."""

_WORD = re.compile(rb"\s*(\S+)")
_SPACE = re.compile(rb"\s*")
# A token of more than 18 digits: refused as too large even if a non-digit follows.
_TOO_LONG = re.compile(rb"-?[0-9]{19}")

# Parser status codes: the values of perfectplay._tokens.PARSE_OK, PARSE_BAD, PARSE_END and
# PARSE_TOO_BIG (not imported from there: that module loads numba).
_OK, _BAD_TOKEN, _EOF, _TOO_BIG = 0, 1, 2, 3


def _parse_ints_small(data: bytes, pos: int, out: NDArray[np.int64]) -> tuple[int, int]:
    """``perfectplay._tokens.parse_ints`` on bytes, by regular expressions: same results.

    Fills `out` with integers read from ``data[pos:]`` and returns (status, position reached),
    the position being the end of the last token on success and the start of the offending
    token (or ``len(data)`` at the end of input) on an error. One regular expression matches
    the longest run of up to ``len(out)`` well-formed tokens (ASCII whitespace, then an
    optional ``-`` and 1 to 18 digits ending at whitespace or the end); only the token after
    it is classified. Cost: O(bytes read), in the regular-expression engine and ``int``.
    """
    count = out.shape[0]
    if count == 0:
        return _OK, pos
    run = re.compile(rb"(?:\s*-?[0-9]{1,18}(?!\S)){0,%d}" % count).match(data, pos)
    end = run.end()  # type: ignore[union-attr]  # {0,count} matches at least the empty run
    tokens = data[pos:end].split()
    out[: len(tokens)] = np.array(tokens, dtype=np.int64)
    if len(tokens) == count:
        return _OK, end
    start = _SPACE.match(data, end).end()  # type: ignore[union-attr]
    if start == len(data):
        return _EOF, start
    return (_TOO_BIG if _TOO_LONG.match(data, start) else _BAD_TOKEN), start


class TokenReader:
    """Read whitespace-separated integers and words from a judge input.

    Parameters
    ----------
    data : bytes
        The whole input. At most :data:`SMALL_INPUT` bytes: integers are read by regular
        expressions and numba is never imported; larger: by the numba kernel
        :func:`perfectplay._tokens.parse_ints`. The results and errors are the same.
    limits : bool, default False
        Enforce the problem's documented limits (the ``at_most`` bounds of :meth:`integer`
        and the checks of :meth:`within_limit`); off, only the format is checked.
    """

    def __init__(self, data: bytes, *, limits: bool = False) -> None:
        self.data = data
        self.buf = np.frombuffer(data, dtype=np.uint8)
        self.pos = 0
        self.limits = limits

    def _parse_ints(self, pos: int, out: NDArray[np.int64]) -> tuple[int, int]:
        """Fill `out` from `pos` on: the numba kernel on large inputs, regular expressions else."""
        if len(self.data) <= SMALL_INPUT:
            return _parse_ints_small(self.data, pos, out)
        from perfectplay._tokens import parse_ints

        status, end = parse_ints(self.buf, pos, out)
        return int(status), int(end)

    def line_at(self, offset: int) -> int:
        """1-based line number of byte `offset`."""
        return self.data.count(b"\n", 0, offset) + 1

    def _last_line(self) -> int:
        """Line of the last non-whitespace byte (1 if there is none): where input ends early."""
        content = len(self.data.rstrip())
        return self.line_at(content - 1) if content else 1

    def _token_at(self, offset: int) -> str:
        match = _WORD.match(self.data, offset)
        text = match.group(1)[:40] if match else b""
        return text.decode("utf-8", "replace")

    def at_end(self) -> bool:
        """True when only whitespace is left."""
        return _SPACE.match(self.data, self.pos).end() == len(self.data)  # type: ignore[union-attr]

    def expect_end(self) -> None:
        """Raise InputFormatError if anything but whitespace is left."""
        if not self.at_end():
            offset = _SPACE.match(self.data, self.pos).end()  # type: ignore[union-attr]
            raise InputFormatError(
                f"unexpected extra input {self._token_at(offset)!r}", self.line_at(offset)
            )

    def integers(
        self, count: int, what: str, *, low: int | None = None, high: int | None = None
    ) -> NDArray[np.int64]:
        """The next `count` integers, each checked to lie in ``low..high`` when given.

        Cost: O(bytes read), in a compiled loop: the numba kernel, or regular expressions on
        inputs of at most :data:`SMALL_INPUT` bytes. The most integers such an input holds,
        32,768 one-digit ones, took 12 to 18 ms (median 13 ms over 10 processes) on the first
        call in a process, which compiles the pattern for that count, and 5 ms on later calls
        (measured on a shared 2-core machine). Memory O(min(count, bytes left)), so a huge
        `count` in a short input is refused without allocating it.
        """
        # Each integer takes at least one digit and one separator (none after the last): the
        # rest of the input holds at most `room` of them, and `out` never needs more.
        room = (len(self.data) - self.pos + 1) // 2
        out = np.empty(min(count, room), dtype=np.int64)
        status, pos = self._parse_ints(self.pos, out)
        if status == _OK and count > room:
            status = _EOF  # all `room` integers read: nothing but whitespace can be left
        if status == _EOF:
            raise InputFormatError(f"input ends early: expected {what}", self._last_line())
        if status == _BAD_TOKEN:
            raise InputFormatError(
                f"expected an integer ({what}), got {self._token_at(pos)!r}", self.line_at(pos)
            )
        if status == _TOO_BIG:
            raise InputFormatError(
                f"number too large ({what}): {self._token_at(pos)!r}", self.line_at(pos)
            )
        if count and (low is not None or high is not None):
            lo = np.iinfo(np.int64).min if low is None else low
            hi = np.iinfo(np.int64).max if high is None else high
            bad = np.flatnonzero((out < lo) | (out > hi))
            if bad.size:
                k = int(bad[0])
                _, offset = self._parse_ints(self.pos, np.empty(k, dtype=np.int64))
                offset = _SPACE.match(self.data, offset).end()  # type: ignore[union-attr]
                bounds = f"{'' if low is None else low}..{'' if high is None else high}"
                raise InputFormatError(
                    f"{what}: {int(out[k])} is out of range {bounds}", self.line_at(offset)
                )
        self.pos = pos
        return out

    def integer(
        self,
        what: str,
        *,
        low: int | None = None,
        high: int | None = None,
        at_most: int | None = None,
    ) -> int:
        """The next integer, checked to lie in ``low..high`` when given, and to be at most
        `at_most` (the problem's documented limit) when the reader enforces limits."""
        line = self.line()
        value = int(self.integers(1, what, low=low, high=high)[0])
        if at_most is not None:
            self.within_limit(value, at_most, what, line)
        return value

    def within_limit(self, value: int, limit: int, what: str, line: int) -> None:
        """Refuse `value` above the documented `limit` when the reader enforces limits.

        Raises
        ------
        InputFormatError
            Naming `what`, the value, the limit, the `line` and the option that lifts it.
        """
        if self.limits and value > limit:
            raise InputFormatError(
                f"{what}: {value} is above the documented limit {limit} "
                "(--no-limits or limits=False lifts it)",
                line,
            )

    def word(self, what: str) -> str:
        """The next whitespace-free token, as text."""
        match = _WORD.match(self.data, self.pos)
        if match is None:
            raise InputFormatError(f"input ends early: expected {what}", self._last_line())
        self.pos = match.end()
        return match.group(1).decode("utf-8", "replace")

    def line(self) -> int:
        """Line number of the next token (for messages about values already read)."""
        return self.line_at(_SPACE.match(self.data, self.pos).end())  # type: ignore[union-attr]
