"""The plain game-graph text format: read a graph file, write a solution as text or JSON.

A graph file lists the moves of a game whose positions are ``0..n-1``::

    # a comment runs to the end of its line; blank lines are allowed anywhere
    n m          # the header: number of positions, number of moves
    u v          # m lines: a move from position u to position v
    u WIN        # optional lines: a value fixed by the rules (WIN, LOSE or TIE,
                 # for the player to move at u; any letter case)

A position without moves and without a fixed value is lost for the player to move. The
solved values come back one line per position, ``id VALUE remoteness``, with ``-`` as the
remoteness of a DRAW (:func:`format_solution`), or as JSON (:func:`format_solution_json`).

Examples
--------
>>> parsed = parse_graph(b"3 2  # a path\\n0 1\\n1 2\\n2 WIN\\n")
>>> parsed.graph
<GameGraph n=3, m=2>
>>> parsed.primitive.tolist()
[255, 255, 3]
>>> parse_graph(b"2 1\\n0 5\\n")
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: line 2: position 5 is out of range 0..1 (move 1 of 1)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay._tokens import INT_BAD, INT_TOO_BIG, read_int
from perfectplay.errors import InputFormatError, InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.values import DRAW, NO_REMOTENESS, UNDECIDED, VALUE_DTYPE, WIN, Value

__all__ = [
    "ParsedGraph",
    "format_solution",
    "format_solution_json",
    "parse_graph",
    "read_graph_file",
    "solve_bytes",
]

# ---------------------------------------------------------------------------- kernel statuses
_OK = 0
_EMPTY = 1  # no header at all
_BAD_INT = 2  # a token that should be an integer is not one
_TOO_BIG = 3  # more than 18 digits
_EXTRA = 4  # something after the last expected token of a line
_EOL = 5  # the line ends before its second token
_NEGATIVE = 6  # n or m below zero
_EOF_MOVES = 7  # fewer than m move lines
_RANGE = 8  # a position id outside 0..n-1
_BAD_WORD = 9  # a value word that is not WIN, LOSE or TIE
_DRAW_WORD = 10  # DRAW given as a primitive value
_DUPLICATE = 11  # a second primitive value for the same position

# Slots of the kernels' `info` output array.
_STATUS, _LINE, _OFFSET, _INDEX, _VALUE = 0, 1, 2, 3, 4


def _word_table() -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The value names as a byte table indexed by value (row v spells Value(v).name)."""
    values = (Value.LOSE, Value.DRAW, Value.TIE, Value.WIN)
    words = np.zeros((len(values), 4), dtype=np.uint8)
    lengths = np.zeros(len(values), dtype=np.int64)
    for v in values:
        words[v, : len(v.name)] = np.frombuffer(v.name.encode(), dtype=np.uint8)
        lengths[v] = len(v.name)
    return words, lengths


_WORDS, _WORD_LENGTHS = _word_table()


@nb.njit(cache=True)
def _is_blank(c):  # type: ignore[no-untyped-def]
    # space, \t, \v, \f, \r: whitespace that does not end a line
    return c == 32 or c == 9 or c == 11 or c == 12 or c == 13


@nb.njit(cache=True)
def _ends_token(c):  # type: ignore[no-untyped-def]
    return c == 10 or c == 35 or _is_blank(c)


@nb.njit(cache=True)
def _skip_to_token(buf, pos, line):  # type: ignore[no-untyped-def]
    """Skip whitespace, comments and blank lines: (pos, line) of the next token, or EOF."""
    n = buf.shape[0]
    while pos < n:
        c = buf[pos]
        if c == 10:
            line += 1
            pos += 1
        elif c == 35:  # '#': skip to the end of the line (the newline is counted above)
            while pos < n and buf[pos] != 10:
                pos += 1
        elif _is_blank(c):
            pos += 1
        else:
            break
    return pos, line


@nb.njit(cache=True)
def _skip_inline(buf, pos):  # type: ignore[no-untyped-def]
    """Skip blanks and a comment on the current line: the next token of this line, or its end."""
    n = buf.shape[0]
    while pos < n and _is_blank(buf[pos]):
        pos += 1
    if pos < n and buf[pos] == 35:
        while pos < n and buf[pos] != 10:
            pos += 1
    return pos


@nb.njit(cache=True)
def _at_line_end(buf, pos):  # type: ignore[no-untyped-def]
    return pos >= buf.shape[0] or buf[pos] == 10


@nb.njit(cache=True)
def _read_int(buf, pos):  # type: ignore[no-untyped-def]
    """(status, value, end) of the integer token at `pos` (ended by a blank, newline or '#')."""
    status, value, end = read_int(buf, pos)
    if status == INT_TOO_BIG:
        return _TOO_BIG, 0, end
    if status == INT_BAD or (end < buf.shape[0] and not _ends_token(buf[end])):
        return _BAD_INT, 0, end
    return _OK, value, end


@nb.njit(cache=True)
def _read_value_word(buf, pos, words, lengths):  # type: ignore[no-untyped-def]
    """(value, end) of the word at `pos`: the row of `words` it spells in any letter case,
    or UNDECIDED if none."""
    n = buf.shape[0]
    end = pos
    while end < n and not _ends_token(buf[end]):
        end += 1
    for v in range(words.shape[0]):
        if lengths[v] != end - pos:
            continue
        same = True
        for i in range(lengths[v]):
            c = buf[pos + i]
            if 97 <= c <= 122:  # lower case -> upper case
                c -= 32
            if c != words[v, i]:
                same = False
                break
        if same:
            return v, end
    return UNDECIDED, end


@nb.njit(cache=True)
def _parse_header(buf, info):  # type: ignore[no-untyped-def]
    """Read ``n m``; fill `info`; return (n, m, position after the header line, its line)."""
    pos, line = _skip_to_token(buf, 0, 1)
    info[_LINE] = line
    info[_OFFSET] = pos
    if pos >= buf.shape[0]:
        info[_STATUS] = _EMPTY
        return 0, 0, pos, line
    status, n, end = _read_int(buf, pos)
    if status != _OK:
        info[_STATUS] = status
        return 0, 0, pos, line
    info[_INDEX] = 0
    if n < 0:
        info[_STATUS] = _NEGATIVE
        info[_VALUE] = n
        return 0, 0, pos, line
    pos = _skip_inline(buf, end)
    info[_OFFSET] = pos
    info[_INDEX] = 1
    if _at_line_end(buf, pos):
        info[_STATUS] = _EOL
        return 0, 0, pos, line
    status, m, end = _read_int(buf, pos)
    if status != _OK:
        info[_STATUS] = status
        return 0, 0, pos, line
    if m < 0:
        info[_STATUS] = _NEGATIVE
        info[_VALUE] = m
        return 0, 0, pos, line
    pos = _skip_inline(buf, end)
    if not _at_line_end(buf, pos):
        info[_STATUS] = _EXTRA
        info[_OFFSET] = pos
        return 0, 0, pos, line
    info[_STATUS] = _OK
    return n, m, pos, line


@nb.njit(cache=True)
def _parse_body(buf, pos, line, n, src, dst, primitive, words, lengths, info):  # type: ignore[no-untyped-def]
    """Fill `src`, `dst` (one slot per move, m = len(src)) and `primitive` (one per position).

    On an error, `info` holds the status, line, byte offset, move index or position, and the
    offending number; filling stops there.
    """
    size = buf.shape[0]
    m = src.shape[0]
    for k in range(m):
        pos, line = _skip_to_token(buf, pos, line)
        info[_LINE] = line
        info[_INDEX] = k
        info[_OFFSET] = pos
        if pos >= size:
            info[_STATUS] = _EOF_MOVES
            return
        for j in range(2):
            if j == 1:
                pos = _skip_inline(buf, pos)
                info[_OFFSET] = pos
                if _at_line_end(buf, pos):
                    info[_STATUS] = _EOL
                    return
            status, x, end = _read_int(buf, pos)
            if status != _OK:
                info[_STATUS] = status
                return
            if x < 0 or x >= n:
                info[_STATUS] = _RANGE
                info[_VALUE] = x
                return
            if j == 0:
                src[k] = x
            else:
                dst[k] = x
            pos = end
        pos = _skip_inline(buf, pos)
        if not _at_line_end(buf, pos):
            info[_STATUS] = _EXTRA
            info[_OFFSET] = pos
            return
    info[_INDEX] = -1  # from here on, errors are about primitive value lines
    while True:
        pos, line = _skip_to_token(buf, pos, line)
        info[_LINE] = line
        info[_OFFSET] = pos
        if pos >= size:
            break
        status, u, end = _read_int(buf, pos)
        if status != _OK:
            info[_STATUS] = status
            return
        if u < 0 or u >= n:
            info[_STATUS] = _RANGE
            info[_VALUE] = u
            return
        pos = _skip_inline(buf, end)
        info[_OFFSET] = pos
        info[_VALUE] = u
        if _at_line_end(buf, pos):
            info[_STATUS] = _EOL
            return
        value, end = _read_value_word(buf, pos, words, lengths)
        if value == UNDECIDED:
            info[_STATUS] = _BAD_WORD
            return
        if value == DRAW:
            info[_STATUS] = _DRAW_WORD
            return
        if primitive[u] != UNDECIDED:
            info[_STATUS] = _DUPLICATE
            return
        primitive[u] = value
        pos = _skip_inline(buf, end)
        if not _at_line_end(buf, pos):
            info[_STATUS] = _EXTRA
            info[_OFFSET] = pos
            return
    info[_STATUS] = _OK


class ParsedGraph(NamedTuple):
    """A graph file's contents."""

    graph: GameGraph
    """The moves, in file order per position."""
    primitive: NDArray[np.uint8]
    """Per position: the value fixed by the file (WIN, LOSE or TIE), else UNDECIDED (255)."""


def _token(data: bytes, offset: int) -> str:
    """The whitespace-delimited token at `offset`, quoted (at most 40 bytes, undecodable bytes
    shown as escapes) for an error message."""
    end = offset
    while end < len(data) and end - offset < 40 and data[end : end + 1] not in b" \t\r\n\v\f#":
        end += 1
    return repr(data[offset:end].decode("utf-8", "backslashreplace"))


def _last_line(data: bytes) -> int:
    """Number of the file's last line (1 for an empty file)."""
    return max(1, data.count(b"\n") + (0 if data.endswith(b"\n") else 1))


def _header_error(data: bytes, info: NDArray[np.int64]) -> InputFormatError:
    status, line, offset = int(info[_STATUS]), int(info[_LINE]), int(info[_OFFSET])
    what = ("n (the number of positions)", "m (the number of moves)")[int(info[_INDEX])]
    if status == _EMPTY:
        return InputFormatError(
            "no header: expected `n m` (numbers of positions and moves)", _last_line(data)
        )
    if status == _EOL:
        return InputFormatError(f"the header ends early: expected {what} after n", line)
    if status == _NEGATIVE:
        return InputFormatError(f"{what} must be >= 0, got {int(info[_VALUE])}", line)
    if status == _TOO_BIG:
        return InputFormatError(f"number too large for {what}: {_token(data, offset)}", line)
    if status == _EXTRA:
        return InputFormatError(f"unexpected {_token(data, offset)} after the header `n m`", line)
    return InputFormatError(f"expected an integer for {what}, got {_token(data, offset)}", line)


def _body_error(data: bytes, info: NDArray[np.int64], n: int, m: int) -> InputFormatError:
    status, line, offset = int(info[_STATUS]), int(info[_LINE]), int(info[_OFFSET])
    k = int(info[_INDEX])
    where = f"move {k + 1} of {m}" if k >= 0 else "a primitive value line `u WIN|LOSE|TIE`"
    token = _token(data, offset)
    if status == _EOF_MOVES:
        return InputFormatError(f"the file ends after {k} of {m} moves", _last_line(data))
    if status == _RANGE:
        return InputFormatError(
            f"position {int(info[_VALUE])} is out of range 0..{n - 1} ({where})", line
        )
    if status == _TOO_BIG:
        return InputFormatError(f"number too large: {token} ({where})", line)
    if status == _BAD_INT:
        return InputFormatError(f"expected an integer, got {token} ({where})", line)
    if status == _EOL:
        second = "the target position v" if k >= 0 else "a value WIN, LOSE or TIE"
        return InputFormatError(f"the line ends early: expected {second} ({where})", line)
    if status == _EXTRA:
        return InputFormatError(f"unexpected {token} at the end of {where}", line)
    u = int(info[_VALUE])
    if status == _BAD_WORD:
        hint = f"; more than m = {m} moves?" if token.strip("'").isdigit() else ""
        return InputFormatError(
            f"unknown value {token} for position {u} (expected WIN, LOSE or TIE{hint})", line
        )
    if status == _DRAW_WORD:
        return InputFormatError(
            f"position {u}: DRAW cannot be given as a primitive value "
            "(a draw is an endless game; expected WIN, LOSE or TIE)",
            line,
        )
    return InputFormatError(f"a second primitive value for position {u}", line)


def _estimate_bytes(n: int, m: int) -> int:
    """Peak memory of parsing and building the graph: src, dst (int32 or int64 ids), the
    primitive array, then GameGraph.from_edges' CSR arrays and its int64 permutation."""
    id_bytes = 4 if n < 2**31 else 8
    return 2 * id_bytes * m + n + (8 * (n + 1) + id_bytes * m + 8 * m)


def parse_graph(data: bytes, *, then: Callable[[int, int], float] | None = None) -> ParsedGraph:
    """Parse a game graph in the plain text format.

    Parameters
    ----------
    data : bytes
        The whole file. Any encoding is accepted byte-wise; only ASCII digits, value words,
        whitespace and ``#`` comments are meaningful.

    Returns
    -------
    ParsedGraph
        The graph and the primitive values (UNDECIDED where the file fixes none).

    Raises
    ------
    InputFormatError
        A malformed file: the message names the line and what is wrong (a missing or
        non-integer number, an id out of range, an unknown value word, a second value for the
        same position, a truncated list of moves, extra tokens on a line, negative n or m).
    TooLargeError
        If the header announces more positions and moves than memory can hold; raised right
        after reading the header, before anything large is allocated.

    Notes
    -----
    Cost: O(bytes + n + m), one compiled pass over the text, then a counting sort into CSR.

    Examples
    --------
    >>> p = parse_graph(b"# two positions\\n2 1\\n\\n0 1   # the only move\\n1 lose\\n")
    >>> p.graph.moves(0).tolist(), Value(int(p.primitive[1])).name
    ([1], 'LOSE')
    >>> parse_graph(b"3 2\\n0 1\\n")
    Traceback (most recent call last):
    ...
    perfectplay.errors.InputFormatError: line 2: the file ends after 1 of 2 moves
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    info = np.zeros(5, dtype=np.int64)
    n, m, pos, line = _parse_header(buf, info)
    if info[_STATUS] != _OK:
        raise _header_error(data, info)
    estimate = _estimate_bytes(n, m) + (0.0 if then is None else then(n, m))
    what = f"a graph file with {n} positions and {m} moves"
    check_memory(estimate, what if then is None else f"{what}, solved and printed")
    id_dtype = np.int32 if n < 2**31 else np.int64
    src = np.empty(m, dtype=id_dtype)
    dst = np.empty(m, dtype=id_dtype)
    primitive = np.full(n, UNDECIDED, dtype=VALUE_DTYPE)
    _parse_body(buf, pos, line, n, src, dst, primitive, _WORDS, _WORD_LENGTHS, info)
    if info[_STATUS] != _OK:
        raise _body_error(data, info, n, m)
    return ParsedGraph(GameGraph.from_edges(src, dst, n=n), primitive)


def read_graph_file(path: str, *, then: Callable[[int, int], float] | None = None) -> ParsedGraph:
    """Read and parse the graph file at `path` (``-`` reads standard input).

    `then` (as :func:`parse_graph`) estimates the bytes the caller needs after parsing.

    Raises
    ------
    OSError
        If the file cannot be read.
    InputFormatError, TooLargeError
        As :func:`parse_graph`.
    """
    if path == "-":
        return parse_graph(sys.stdin.buffer.read(), then=then)
    with open(path, "rb") as source:
        return parse_graph(source.read(), then=then)


def solve_bytes(n: int, m: int, *, json: bool = False) -> float:
    """Memory that solving a parsed graph of `n` positions and `m` moves by retrograde analysis
    and printing it (text, or JSON) adds to the parsed graph: the reverse CSR and the solver's
    work arrays, the solution, and the output buffer twice (the buffer and its string).

    ``solve FILE`` passes it to :func:`read_graph_file` so that a file too large for its whole
    run is refused before anything is allocated.

    >>> solve_bytes(10, 20) > solve_bytes(10, 10)
    True
    """
    out = (_MAX_ENTRY if json else _MAX_LINE) * n
    return 8.0 * (n + 1) + 8.0 * m + 13.2 * n + 5.0 * n + 2.0 * out


# ---------------------------------------------------------------------------- output
# Longest output line: a 19-digit id, a space, a 4-letter word, a space, an 11-character
# remoteness ("-2147483648"), a newline.
_MAX_LINE = 19 + 1 + 4 + 1 + 11 + 1


@nb.njit(cache=True)
def _write_int(out, pos, x):  # type: ignore[no-untyped-def]
    if x < 0:
        out[pos] = 45
        pos += 1
        x = -x
    start = pos
    while True:
        out[pos] = 48 + x % 10
        pos += 1
        x //= 10
        if x == 0:
            break
    i, j = start, pos - 1
    while i < j:
        out[i], out[j] = out[j], out[i]
        i += 1
        j -= 1
    return pos


@nb.njit(cache=True)
def _format_lines(value, remoteness, words, lengths, out):  # type: ignore[no-untyped-def]
    """Write ``id VALUE remoteness`` lines into `out` (sized n * _MAX_LINE); return bytes used."""
    pos = 0
    for p in range(value.shape[0]):
        pos = _write_int(out, pos, p)
        out[pos] = 32
        pos += 1
        v = value[p]
        for i in range(lengths[v]):
            out[pos] = words[v, i]
            pos += 1
        out[pos] = 32
        pos += 1
        if remoteness[p] == NO_REMOTENESS:
            out[pos] = 45
            pos += 1
        else:
            pos = _write_int(out, pos, remoteness[p])
        out[pos] = 10
        pos += 1
    return pos


def _check_decided(solution: Solution) -> None:
    undecided = np.flatnonzero(solution.value > WIN)
    if undecided.size:
        p = int(undecided[0])
        raise InvalidGraphError(f"position {p} has no final value ({int(solution.value[p])})")


def format_solution(solution: Solution) -> str:
    """One line per position: ``id VALUE remoteness`` (``-`` for a DRAW's remoteness).

    Values are for the player to move at that position.

    Raises
    ------
    InvalidGraphError
        If a position is still UNDECIDED (never the case for a finished solver run).

    Notes
    -----
    Cost: O(n), in a compiled loop; about 40 bytes of memory per position.

    Examples
    --------
    >>> from perfectplay.values import LOSE, WIN, DRAW
    >>> g = GameGraph.from_edges([0, 2], [1, 2], n=3)
    >>> s = Solution(g, np.array([WIN, LOSE, DRAW], np.uint8), np.array([1, 0, -1], np.int32),
    ...              solver="example")
    >>> print(format_solution(s), end="")
    0 WIN 1
    1 LOSE 0
    2 DRAW -
    """
    _check_decided(solution)
    n = solution.graph.n
    check_memory(_MAX_LINE * n * 2.0, f"the text output for {n} positions")
    out = np.empty(_MAX_LINE * n, dtype=np.uint8)  # each line needs at most _MAX_LINE bytes
    used = _format_lines(solution.value, solution.remoteness, _WORDS, _WORD_LENGTHS, out)
    return out[:used].tobytes().decode("ascii")


# Longest JSON entry: `{"id": ` (7) + a 19-digit id + `, "value": "` (12) + a 4-letter word +
# `", "remoteness": ` (17) + an 11-character remoteness + `}, ` (3).
_MAX_ENTRY = 7 + 19 + 12 + 4 + 17 + 11 + 3
_JSON_ID = np.frombuffer(b'{"id": ', dtype=np.uint8)
_JSON_VALUE = np.frombuffer(b', "value": "', dtype=np.uint8)
_JSON_REMOTENESS = np.frombuffer(b'", "remoteness": ', dtype=np.uint8)
_JSON_NULL = np.frombuffer(b"null", dtype=np.uint8)


@nb.njit(cache=True)
def _put(out, pos, text):  # type: ignore[no-untyped-def]
    for i in range(text.shape[0]):
        out[pos + i] = text[i]
    return pos + text.shape[0]


@nb.njit(cache=True)
def _format_entries(value, remoteness, words, lengths, parts, out):  # type: ignore[no-untyped-def]
    """Write the ``{"id": p, "value": "WIN", "remoteness": r}`` entries, joined by ``, ``, into
    `out` (sized n * _MAX_ENTRY); return the bytes used. `parts`: the constant pieces (_JSON_ID,
    _JSON_VALUE, _JSON_REMOTENESS, _JSON_NULL)."""
    pos = 0
    for p in range(value.shape[0]):
        if p:
            out[pos] = 44  # ", "
            out[pos + 1] = 32
            pos += 2
        pos = _put(out, pos, parts[0])
        pos = _write_int(out, pos, p)
        pos = _put(out, pos, parts[1])
        v = value[p]
        for i in range(lengths[v]):
            out[pos] = words[v, i]
            pos += 1
        pos = _put(out, pos, parts[2])
        if remoteness[p] == NO_REMOTENESS:
            pos = _put(out, pos, parts[3])
        else:
            pos = _write_int(out, pos, remoteness[p])
        out[pos] = 125  # "}"
        pos += 1
    return pos


def format_solution_json(solution: Solution) -> str:
    """The solution as one JSON object: ``{"positions": [...], "summary": {...}}``.

    Each entry of ``positions`` is ``{"id": p, "value": "WIN", "remoteness": r}`` with
    ``remoteness`` null for a DRAW; ``summary`` has the numbers of positions, moves and of
    positions of each value. The text is exactly what ``json.dumps`` gives for that object.

    Notes
    -----
    Cost: O(n) in a compiled loop that writes the entries' bytes (no Python object per
    position): about 60 bytes of output and 120 bytes of memory at peak per position.

    Examples
    --------
    >>> from perfectplay.values import LOSE, WIN
    >>> g = GameGraph.from_edges([0], [1], n=2)
    >>> s = Solution(g, np.array([WIN, LOSE], np.uint8), np.array([1, 0], np.int32),
    ...              solver="example")
    >>> print(format_solution_json(s))  # doctest: +NORMALIZE_WHITESPACE
    {"positions": [{"id": 0, "value": "WIN", "remoteness": 1},
                   {"id": 1, "value": "LOSE", "remoteness": 0}],
     "summary": {"positions": 2, "moves": 1, "WIN": 1, "LOSE": 1, "TIE": 0, "DRAW": 0}}
    """
    _check_decided(solution)
    n = solution.graph.n
    summary: dict[str, int] = {"positions": n, "moves": solution.graph.m}
    summary.update(solution.summary())
    head = np.frombuffer(b'{"positions": [', dtype=np.uint8)
    tail = np.frombuffer(f'], "summary": {json.dumps(summary)}}}'.encode(), dtype=np.uint8)
    size = head.size + _MAX_ENTRY * n + tail.size  # each entry needs at most _MAX_ENTRY bytes
    check_memory(2.0 * size, f"the JSON output for {n} positions")
    out = np.empty(size, dtype=np.uint8)
    out[: head.size] = head
    parts = (_JSON_ID, _JSON_VALUE, _JSON_REMOTENESS, _JSON_NULL)
    used = head.size + _format_entries(
        solution.value, solution.remoteness, _WORDS, _WORD_LENGTHS, parts, out[head.size :]
    )
    out[used : used + tail.size] = tail
    return str(out[: used + tail.size].data, "ascii")  # one copy, no bytes object between
