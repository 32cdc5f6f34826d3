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

import numpy as np
from numpy.typing import NDArray

from perfectplay import _graphfile_kernels as kernels
from perfectplay._memory import check_memory
from perfectplay.errors import InputFormatError, InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.values import UNDECIDED, VALUE_DTYPE, WIN

__all__ = [
    "ParsedGraph",
    "format_solution",
    "format_solution_json",
    "parse_graph",
    "read_graph_file",
    "solve_bytes",
]


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
    status, line, offset = (
        int(info[kernels.STATUS]),
        int(info[kernels.LINE]),
        int(info[kernels.OFFSET]),
    )
    what = ("n (the number of positions)", "m (the number of moves)")[int(info[kernels.INDEX])]
    if status == kernels.EMPTY:
        return InputFormatError(
            "no header: expected `n m` (numbers of positions and moves)", _last_line(data)
        )
    if status == kernels.EOL:
        return InputFormatError(f"the header ends early: expected {what} after n", line)
    if status == kernels.NEGATIVE:
        return InputFormatError(f"{what} must be >= 0, got {int(info[kernels.VALUE])}", line)
    if status == kernels.TOO_BIG:
        return InputFormatError(f"number too large for {what}: {_token(data, offset)}", line)
    if status == kernels.EXTRA:
        return InputFormatError(f"unexpected {_token(data, offset)} after the header `n m`", line)
    return InputFormatError(f"expected an integer for {what}, got {_token(data, offset)}", line)


def _body_error(data: bytes, info: NDArray[np.int64], n: int, m: int) -> InputFormatError:
    status, line, offset = (
        int(info[kernels.STATUS]),
        int(info[kernels.LINE]),
        int(info[kernels.OFFSET]),
    )
    k = int(info[kernels.INDEX])
    where = f"move {k + 1} of {m}" if k >= 0 else "a primitive value line `u WIN|LOSE|TIE`"
    token = _token(data, offset)
    if status == kernels.EOF_MOVES:
        return InputFormatError(f"the file ends after {k} of {m} moves", _last_line(data))
    if status == kernels.RANGE:
        return InputFormatError(
            f"position {int(info[kernels.VALUE])} is out of range 0..{n - 1} ({where})", line
        )
    if status == kernels.TOO_BIG:
        return InputFormatError(f"number too large: {token} ({where})", line)
    if status == kernels.BAD_INT:
        return InputFormatError(f"expected an integer, got {token} ({where})", line)
    if status == kernels.EOL:
        second = "the target position v" if k >= 0 else "a value WIN, LOSE or TIE"
        return InputFormatError(f"the line ends early: expected {second} ({where})", line)
    if status == kernels.EXTRA:
        return InputFormatError(f"unexpected {token} at the end of {where}", line)
    u = int(info[kernels.VALUE])
    if status == kernels.BAD_WORD:
        hint = f"; more than m = {m} moves?" if token.strip("'").isdigit() else ""
        return InputFormatError(
            f"unknown value {token} for position {u} (expected WIN, LOSE or TIE{hint})", line
        )
    if status == kernels.DRAW_WORD:
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
    >>> from perfectplay.values import Value
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
    n, m, pos, line = kernels.parse_header(buf, info)
    if info[kernels.STATUS] != kernels.OK:
        raise _header_error(data, info)
    estimate = _estimate_bytes(n, m) + (0.0 if then is None else then(n, m))
    what = f"a graph file with {n} positions and {m} moves"
    check_memory(estimate, what if then is None else f"{what}, solved and printed")
    id_dtype = np.int32 if n < 2**31 else np.int64
    src = np.empty(m, dtype=id_dtype)
    dst = np.empty(m, dtype=id_dtype)
    primitive = np.full(n, UNDECIDED, dtype=VALUE_DTYPE)
    kernels.parse_body(
        buf, pos, line, n, src, dst, primitive, kernels.WORDS, kernels.WORD_LENGTHS, info
    )
    if info[kernels.STATUS] != kernels.OK:
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
    used = kernels.format_lines(
        solution.value, solution.remoteness, kernels.WORDS, kernels.WORD_LENGTHS, out
    )
    return out[:used].tobytes().decode("ascii")


# Longest JSON entry: `{"id": ` (7) + a 19-digit id + `, "value": "` (12) + a 4-letter word +
# `", "remoteness": ` (17) + an 11-character remoteness + `}, ` (3).
_MAX_ENTRY = 7 + 19 + 12 + 4 + 17 + 11 + 3


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
    parts = (kernels.JSON_ID, kernels.JSON_VALUE, kernels.JSON_REMOTENESS, kernels.JSON_NULL)
    used = head.size + kernels.format_entries(
        solution.value,
        solution.remoteness,
        kernels.WORDS,
        kernels.WORD_LENGTHS,
        parts,
        out[head.size :],
    )
    out[used : used + tail.size] = tail
    return str(out[: used + tail.size].data, "ascii")  # one copy, no bytes object between
