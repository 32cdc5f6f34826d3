"""Shared machinery of the board games: cell ids, neighbour tables, pair graphs.

A board is a boolean array ``free`` of shape ``(rows, cols)``. Its free cells, in row-major
order, get the ids ``0..F-1``; ``Board.cell_of[c]`` is the flat index ``row * cols + col`` of
cell ``c`` and ``Board.id_of[flat]`` maps back (``-1`` on blocked cells). Unordered pairs of cell
ids ``i < j`` are ranked colexicographically, ``rank(i, j) = j * (j - 1) / 2 + i``, a bijection
onto ``0..F(F-1)/2 - 1`` that every two-piece game uses as its position id
(:func:`perfectplay._ranking.pair_rank`, :func:`perfectplay._ranking.pair_unrank`).

No Python loop runs over cells or pairs: cell tables are vectorized numpy, and the pair graph
(up to tens of millions of moves) is written by two passes of a numba kernel, which needs no
temporary arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numba as nb
import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay._ranking import pair_count
from perfectplay.errors import InputFormatError, InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.values import Position

__all__ = [
    "KING_STEPS",
    "KNIGHT_JUMPS",
    "Board",
    "TokenGame",
    "marked_cells",
    "parse_rows",
    "parse_text",
]

KING_STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
"""The four orthogonal steps (up, left, right, down): a token's moves."""

KNIGHT_JUMPS: tuple[tuple[int, int], ...] = (
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
)
"""The eight knight jumps, in row-major order of their target squares."""

IntArray = NDArray[np.int64]


def parse_rows(
    rows: Sequence[str],
    symbols: str,
    *,
    width: int | None = None,
    line_of: Callable[[int], int] | None = None,
) -> NDArray[np.uint8]:
    """The characters of a board's rows as a ``(rows, cols)`` uint8 array, validated.

    Parameters
    ----------
    rows : sequence of str
        One string per board row.
    symbols : str
        The allowed characters.
    width : int, optional
        Required row length; defaults to the first row's length.
    line_of : callable, optional
        Input line number of row ``r`` (0-based), for error messages; called only on an error.

    Raises
    ------
    InputFormatError
        A row of another length, or a character outside `symbols`; the message names the row
        (and line) and the column.

    Notes
    -----
    Cost: O(cells), one vectorized comparison per symbol.

    >>> parse_rows([".#", "P."], ".#P").tolist()
    [[46, 35], [80, 46]]
    """
    height = len(rows)
    cols = (len(rows[0]) if rows else 0) if width is None else width

    def where(r: int) -> tuple[str, int | None]:
        return f"row {r + 1}", (None if line_of is None else line_of(r))

    for r, row in enumerate(rows):
        if len(row) != cols or not row.isascii():
            place, line = where(r)
            problem = f"has {len(row)} characters, expected {cols}" if len(row) != cols else ""
            if not problem:
                bad = next(k for k, ch in enumerate(row) if not ch.isascii())
                problem = f"column {bad + 1}: bad character {row[bad]!r} (allowed: {symbols!r})"
            raise InputFormatError(f"board {place} {problem}", line)
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(height, cols)
    allowed = np.zeros(256, dtype=np.bool_)
    allowed[np.frombuffer(symbols.encode("ascii"), dtype=np.uint8)] = True
    bad_flat = np.flatnonzero(~allowed[codes])
    if bad_flat.size:
        r, c = divmod(int(bad_flat[0]), cols)
        place, line = where(r)
        raise InputFormatError(
            f"board {place} column {c + 1}: bad character {chr(codes[r, c])!r} "
            f"(allowed: {symbols!r})",
            line,
        )
    return codes


def marked_cells(
    codes: NDArray[np.uint8],
    symbol: str,
    *,
    at_most: int,
    line_of: Callable[[int], int] | None = None,
) -> IntArray:
    """Flat indices (row-major) of the cells of `codes` holding `symbol`, at most `at_most`.

    Raises
    ------
    InputFormatError
        If more cells hold `symbol`; the message names the first one too many (and its line).

    >>> marked_cells(parse_rows(["P.", ".P"], ".P"), "P", at_most=2).tolist()
    [0, 3]
    """
    flat = np.flatnonzero(codes.ravel() == ord(symbol))
    if flat.size > at_most:
        r, c = divmod(int(flat[at_most]), codes.shape[1])
        raise InputFormatError(
            f"board row {r + 1} column {c + 1}: more than {at_most} {symbol!r} on the board",
            None if line_of is None else line_of(r),
        )
    return flat.astype(np.int64)


def parse_text(text: str, *, at_most: int) -> tuple[NDArray[np.bool_], IntArray]:
    """``(free, tokens)``: a board drawn as text and the flat indices of its tokens.

    The text holds rows of ``.`` (free), ``#`` (blocked) and at most `at_most` ``P`` (a token,
    on a free cell); blank lines and white space around a row are ignored. `free` is the
    ``(rows, cols)`` boolean array of the cells that are not ``#``; `tokens` lists the ``P``
    cells row-major, as flat indices ``row * cols + col``.

    Raises
    ------
    InputFormatError
        Rows of different lengths, other characters or more than `at_most` ``P`` (the message
        names the row and column).

    Notes
    -----
    Cost: O(cells), vectorized.

    >>> free, tokens = parse_text("P#\\n.P\\n", at_most=2)
    >>> free.tolist(), tokens.tolist()
    ([[True, False], [True, True]], [0, 3])
    """
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    codes = parse_rows(rows, ".#P")
    return codes != ord("#"), marked_cells(codes, "P", at_most=at_most)


@nb.njit(cache=True)
def _pair_degrees(table, row, col, min_distance, counts):  # type: ignore[no-untyped-def]
    # counts has P + 1 slots; counts[r + 1] = number of moves from the pair of rank r. Pairs
    # are visited in rank order: rank(i, j) = j (j - 1) / 2 + i for i < j.
    rank = 0
    for j in range(1, table.shape[0]):
        for i in range(j):
            if abs(row[i] - row[j]) + abs(col[i] - col[j]) >= min_distance:
                count = 0
                for k in range(table.shape[1]):
                    t = table[i, k]
                    if t >= 0 and abs(row[t] - row[j]) + abs(col[t] - col[j]) >= min_distance:
                        count += 1
                    t = table[j, k]
                    if t >= 0 and abs(row[t] - row[i]) + abs(col[t] - col[i]) >= min_distance:
                        count += 1
                counts[rank + 1] = count
            rank += 1


@nb.njit(cache=True, inline="always")
def _piece_moves(table, row, col, moving, staying, min_distance, indices, slot):  # type: ignore[no-untyped-def]
    # Write from `slot` on the ranks of the pairs the piece on `moving` can reach, the other
    # piece staying on `staying`; return the slot after them. Inlined into _pair_moves.
    for k in range(table.shape[1]):
        t = table[moving, k]
        if t >= 0 and abs(row[t] - row[staying]) + abs(col[t] - col[staying]) >= min_distance:
            lo, hi = (t, staying) if t < staying else (staying, t)
            indices[slot] = hi * (hi - 1) // 2 + lo
            slot += 1
    return slot


@nb.njit(cache=True)
def _pair_moves(table, row, col, min_distance, indptr, indices):  # type: ignore[no-untyped-def]
    # Second pass of _pair_degrees: indices has indptr[-1] slots, the moves it counted; each
    # pair's moves go to its own range, the piece on i first, then the piece on j.
    rank = 0
    for j in range(1, table.shape[0]):
        for i in range(j):
            slot = indptr[rank]
            if abs(row[i] - row[j]) + abs(col[i] - col[j]) >= min_distance:
                slot = _piece_moves(table, row, col, i, j, min_distance, indices, slot)
                _piece_moves(table, row, col, j, i, min_distance, indices, slot)
            rank += 1


class Board:
    """A rectangular board of free and blocked cells, with free cells numbered ``0..F-1``.

    Parameters
    ----------
    free : array of bool, shape (rows, cols)
        True on the cells a piece may stand on.

    Raises
    ------
    InvalidGraphError
        If `free` is not a two-dimensional boolean array.

    Examples
    --------
    >>> b = Board([[True, False], [True, True]])
    >>> b.cells, b.cell_of.tolist(), b.id_of.tolist()
    (3, [0, 2, 3], [0, -1, 1, 2])
    >>> b.neighbours(KING_STEPS).tolist()
    [[-1, -1, -1, 1], [0, -1, 2, -1], [-1, 1, -1, -1]]
    """

    __slots__ = ("cell_of", "cells", "col", "cols", "free", "id_of", "row", "rows")

    def __init__(self, free: ArrayLike) -> None:
        mask = np.asarray(free)
        if mask.ndim != 2:
            raise InvalidGraphError(f"a board must be two-dimensional, got shape {mask.shape}")
        if mask.dtype != np.bool_:
            raise InvalidGraphError(f"a board must be an array of bool, got dtype {mask.dtype}")
        self.free: NDArray[np.bool_] = mask
        self.rows, self.cols = int(mask.shape[0]), int(mask.shape[1])
        check_memory(33.0 * self.rows * self.cols, f"a board of {self.rows} x {self.cols} cells")
        self.cell_of: IntArray = np.flatnonzero(mask).astype(np.int64)
        self.cells = int(self.cell_of.shape[0])
        self.id_of: IntArray = np.full(self.rows * self.cols, -1, dtype=np.int64)
        self.id_of[self.cell_of] = np.arange(self.cells, dtype=np.int64)
        self.row: IntArray = self.cell_of // max(self.cols, 1)
        self.col: IntArray = self.cell_of % max(self.cols, 1)

    def cell_id(self, row: int, col: int) -> int:
        """Id of the free cell at (`row`, `col`), 0-based.

        Raises
        ------
        InputFormatError
            If the cell is off the board or blocked.
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InputFormatError(
                f"cell ({row}, {col}) is off the {self.rows} x {self.cols} board"
            )
        cell = int(self.id_of[row * self.cols + col])
        if cell < 0:
            raise InputFormatError(f"cell ({row}, {col}) is blocked")
        return cell

    def coordinates(self, cell: int) -> tuple[int, int]:
        """``(row, col)`` of free cell `cell`, 0-based."""
        if not 0 <= cell < self.cells:
            raise InvalidGraphError(f"cell id {cell} is out of range 0..{self.cells - 1}")
        return int(self.row[cell]), int(self.col[cell])

    def neighbours(self, steps: Sequence[tuple[int, int]]) -> IntArray:
        """``(F, len(steps))`` table: the free cell reached from each cell by each step, or -1.

        Cost: O(rows * cols * len(steps)) time, vectorized: one shifted window of a padded id
        image per step, read at the free cells.
        """
        pad = max((max(abs(dr), abs(dc)) for dr, dc in steps), default=0)
        ids = np.full((self.rows + 2 * pad, self.cols + 2 * pad), -1, dtype=np.int64)
        ids[pad : pad + self.rows, pad : pad + self.cols] = self.id_of.reshape(self.rows, self.cols)
        table = np.empty((self.cells, len(steps)), dtype=np.int64)
        for k, (dr, dc) in enumerate(steps):
            # The ids window shifted by the step, read at the free cells (row-major order).
            shifted = ids[pad + dr : pad + dr + self.rows, pad + dc : pad + dc + self.cols]
            table[:, k] = shifted[self.free]
        return table

    def distance(self, a: ArrayLike, b: ArrayLike) -> IntArray:
        """Manhattan distance between free cells `a` and `b` (vectorized)."""
        i = np.asarray(a)
        j = np.asarray(b)
        return np.abs(self.row[i] - self.row[j]) + np.abs(self.col[i] - self.col[j])

    def cell_graph(self, steps: Sequence[tuple[int, int]]) -> GameGraph:
        """Geography graph of one piece: positions are free cells, a move is one step.

        Cost: O(F * len(steps)) time and memory.
        """
        check_memory(self.cells * len(steps) * 24.0, f"a board of {self.cells} free cells")
        table = self.neighbours(steps)
        ok = table >= 0
        indptr = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(ok.sum(axis=1), out=indptr[1:])
        return GameGraph(indptr, table[ok], undirected=True)

    def reachable(self, cells: ArrayLike, steps: Sequence[tuple[int, int]]) -> NDArray[np.bool_]:
        """Per free cell: can a piece moving by `steps` get there from one of the `cells` (ids)?

        Cost: O(F * len(steps)), one search (numba) on the cell graph.
        """
        return self.cell_graph(steps).reachable(np.asarray(cells, dtype=np.int64).reshape(-1))

    def pair_graph(self, steps: Sequence[tuple[int, int]], min_distance: int) -> GameGraph:
        """Geography graph of two indistinguishable pieces: positions are ranked unordered pairs.

        A move takes one piece one step onto a free cell. Pairs whose Manhattan distance is
        below `min_distance` (at least 1: the pieces never share a cell) are not playable
        positions: they keep their ids but have no moves in or out.

        Notes
        -----
        Cost: O(P * len(steps)) time for P = F(F-1)/2 pairs, two passes of a numba kernel
        (count the moves of each pair, then write them): no temporaries, memory is the result
        only, 8 bytes per position and 4 per move (checked first, for the worst case).
        """
        pairs = pair_count(self.cells)
        check_memory(
            pairs * (len(steps) * 8.0 + 16.0), f"the position graph of {pairs} pairs of cells"
        )
        table = self.neighbours(steps)
        counts = np.zeros(pairs + 1, dtype=np.int64)
        _pair_degrees(table, self.row, self.col, min_distance, counts)
        total = int(counts.sum())
        indptr = np.cumsum(counts, dtype=np.int32 if total < 2**31 else np.int64)
        indices = np.empty(int(indptr[-1]), dtype=np.int32 if pairs < 2**31 else np.int64)
        _pair_moves(table, self.row, self.col, min_distance, indptr, indices)
        return GameGraph(indptr, indices, undirected=True)

    def draw(self, marks: Sequence[int] = (), symbol: str = "P") -> str:
        """The board as text: ``.`` free, ``#`` blocked, `symbol` on the free cells `marks`.

        >>> print(Board([[True, False], [True, True]]).draw([2]))
        .#
        .P
        """
        chars = np.where(self.free, ord("."), ord("#")).astype(np.uint8)
        for cell in marks:
            r, c = self.coordinates(cell)
            chars[r, c] = ord(symbol)
        return "\n".join(bytes(row).decode("ascii") for row in chars)


class TokenGame:
    """Base of the games whose tokens move on one :class:`Board` (Grid, TwoTokens).

    ``TokenGame(free, start=None)`` keeps ``board = Board(free)`` (so it raises
    InvalidGraphError unless `free` is a two-dimensional boolean array) and the starting
    position `start`; the subclasses document both.
    """

    __slots__ = ("board", "start")

    def __init__(self, free: ArrayLike, start: Position | None = None) -> None:
        self.board = Board(free)
        self.start = start
        """The starting position, when the game has one (the ``P`` cells of ``from_text``)."""
