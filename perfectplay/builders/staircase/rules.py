"""The staircase game ("一双木棋"): fill an n x m board in a Young-diagram shape, for points.

Two players, black first, alternately place one stone each until the board is full. A stone
may go on an empty cell only if the cell to its left and the cell above it are filled (or off
the board), so the filled cells always form a staircase: row lengths
``l[0] >= l[1] >= ... >= l[n-1]``. A stone on cell ``(i, j)`` earns ``a[i][j]`` for black and
``b[i][j]`` for white; each player maximises (own total - opponent's total).

A position is the tuple of row lengths; whose turn it is follows from the number of stones.
Positions are numbered by a bijection with ``0..C(n + m, n) - 1`` (the staircase's boundary as
an n-subset of the n + m boundary steps, ranked in the combinatorial number system), in which
every move goes to a larger number: the empty board is 0, the full board the last number.

Scores are computed by one of two sweeps from the full board back to the empty one: on small
boards (up to 12 x 12) a numpy sweep level by level (:mod:`._levels`), which spares
the start-up of numba (about 1 s with a cached kernel, while a 10 x 10 board takes 0.02 s in
numpy); on larger boards a numba sweep that generates the moves on the fly
(:mod:`._kernels`). This module imports numba only when a method needs it (the
larger boards' sweep, :meth:`Staircase.graph`, :meth:`Staircase.decode_many`).

Examples
--------
>>> game = Staircase([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
>>> game.size, game.encode((0, 0)), game.encode((3, 3))
(10, 0, 9)
>>> game.moves((1, 0))
[('r1c2', (2, 0), 7), ('r2c1', (1, 1), 2)]
>>> print(game.render((2, 1)))
##.
#..
white to move
>>> game.best_score()
2
"""

from __future__ import annotations

import itertools
from math import comb, lgamma, log
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay._ranking import binomials, colex_rank
from perfectplay.builders.staircase import _levels as levels
from perfectplay.errors import (
    GameDefinitionError,
    InputFormatError,
    InvalidGraphError,
    ScoreOverflowError,
    TooLargeError,
)
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import TIE, UNDECIDED, VALUE_DTYPE, Value

if TYPE_CHECKING:
    from perfectplay.graph import GameGraph

__all__ = ["Rows", "Staircase", "count_positions", "score_bytes", "staircase_score"]

Rows = tuple[int, ...]
"""A staircase position: the number of stones in each row, top row first (non-increasing)."""

_INT32_MAX = 2**31 - 1
_INT64_MAX = 2**63 - 1


_LOG2_LIMIT = 62
"""Boards with more than about ``2**62`` staircases are refused without counting them exactly."""


def count_positions(n: int, m: int) -> int:
    """The number of staircases of an ``n x m`` board, ``C(n + m, n)``, if it is below ~2^62.

    Parameters
    ----------
    n, m : int
        The board's rows and columns (at least 1).

    Returns
    -------
    int
        ``C(n + m, n)``.

    Raises
    ------
    TooLargeError
        If ``log2 C(n + m, n)`` exceeds 62: such a board could not be numbered with int64, let
        alone solved. Decided from ``lgamma`` first, so a huge board is refused at once instead
        of computing a binomial with millions of digits.

    Notes
    -----
    Cost: O(1) for a refused board, else one exact binomial of at most 63 bits.

    Examples
    --------
    >>> count_positions(10, 10)
    184756
    >>> count_positions(1000000, 1000000)
    Traceback (most recent call last):
    ...
    perfectplay.errors.TooLargeError: a 1000000 x 1000000 staircase board has about 2^1999989 ...
    """
    log2 = (lgamma(n + m + 1) - lgamma(n + 1) - lgamma(m + 1)) / log(2)
    if log2 > _LOG2_LIMIT:
        raise TooLargeError(
            f"a {n} x {m} staircase board has about 2^{round(log2)} positions, "
            f"more than the 2^{_LOG2_LIMIT} that can be numbered and far beyond memory"
        )
    return comb(n + m, n)


_LEVELS_MAX_ENTRIES = 40_000_000
"""Boards with at most this many row lengths in all (``C(n + m, n) * (n + 1)``, the sentinel row
included) are solved by the numpy level sweep (12 x 12 has 35 million, 13 x 13 145 million)."""
_LEVELS_MAX_CELLS = 4_000
"""... if they also have at most this many cells (the level sweep makes a dozen numpy calls per
level, and there are ``n * m + 1`` levels)."""


def _uses_levels(n: int, m: int) -> bool:
    """True when the numpy level sweep beats numba's start-up on an ``n x m`` board.

    Timed on whole ``perfectplay problem staircase`` runs (see :func:`staircase_score`).
    """
    return n * m <= _LEVELS_MAX_CELLS and comb(n + m, n) * (n + 1) <= _LEVELS_MAX_ENTRIES


def score_bytes(n: int, m: int, itemsize: int) -> int:
    """Peak bytes of the sweep filling the score table of an ``n x m`` board (as given).

    Parameters
    ----------
    n, m : int
        The board's rows and columns, as the sweep sees them: :func:`staircase_score`
        transposes the board first when ``n > m``, :meth:`Staircase.scores` does not.
    itemsize : int
        Bytes per score: 4 (int32, while every total fits) or 8.

    Returns
    -------
    int
        On boards the numpy level sweep takes (up to about 12 x 12, see
        :func:`staircase_score`): its tables, ``itemsize`` plus about 30 bytes per staircase
        (:func:`perfectplay.builders.staircase._levels.level_bytes`). On larger boards: the numba
        sweep's score table, ``itemsize`` bytes per staircase, and its binomial table.

    Raises
    ------
    TooLargeError
        At once if the board has more than about 2^62 staircases (:func:`count_positions`).

    Examples
    --------
    >>> score_bytes(12, 12, 4), score_bytes(14, 14, 4)
    (104482543, 160469880)
    """
    count = count_positions(n, m)
    if _uses_levels(n, m):
        return levels.level_bytes(n, m, itemsize)
    return itemsize * count + 8 * (n + m + 1) * (n + 1)  # and the binomial coefficients


def _board(name: str, values: ArrayLike) -> NDArray[np.int64]:
    """`values` as a 2-D int64 array with at least one row and one column."""
    arr = np.asarray(values)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise GameDefinitionError(f"{name} must be a non-empty 2-D grid, got shape {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise GameDefinitionError(f"{name} must hold integers, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and int(arr.max()) > _INT64_MAX:
        raise GameDefinitionError(f"{name} holds {int(arr.max())}, beyond int64")
    return arr.astype(np.int64)


def _largest_total(a: NDArray[np.int64], b: NDArray[np.int64]) -> int:
    """An upper bound on |any total|: cells times the largest |gain| (exact Python integers)."""
    largest = max(abs(int(x.min())) for x in (a, b)) + max(abs(int(x.max())) for x in (a, b))
    return largest * a.size


class Staircase(Game[Rows]):
    """The staircase game on an ``n x m`` board with black's gains `a` and white's gains `b`.

    Parameters
    ----------
    a, b : 2-D arrays of int, shape (n, m)
        ``a[i][j]`` is what black scores by a stone on row i, column j (0-based, top-left
        origin); ``b[i][j]`` what white scores there.

    Raises
    ------
    GameDefinitionError
        Shapes differ or are empty, or the entries are not integers.
    ScoreOverflowError
        The gains could add up beyond the int64 range.

    Notes
    -----
    ``C(n + m, n)`` positions (184,756 for 10 x 10, 40,116,600 for 14 x 14). Move labels read
    ``r<row>c<column>`` (1-based). Every game lasts ``n * m`` moves; the rules end it level
    (``outcome`` is TIE at the full board), so the points alone decide: ``score`` is the
    result. :meth:`scores` runs a dedicated sweep with no graph in memory: on boards up to
    about 12 x 12 the numpy level sweep (about 40 bytes per position in all), on larger ones
    a numba sweep that generates moves on the fly (8 bytes per position); see
    :func:`score_bytes`. :meth:`graph` builds the full GameGraph for the generic solvers
    (small boards).
    """

    def __init__(self, a: ArrayLike, b: ArrayLike) -> None:
        self.a = _board("a", a)
        self.b = _board("b", b)
        if self.a.shape != self.b.shape:
            raise GameDefinitionError(
                f"a and b must have the same shape, got {self.a.shape} and {self.b.shape}"
            )
        self.n, self.m = (int(x) for x in self.a.shape)
        self.bound = _largest_total(self.a, self.b)
        if self.bound > _INT64_MAX:
            raise ScoreOverflowError(
                f"staircase gains may add up to {self.bound}, beyond the int64 range"
            )
        self.size = count_positions(self.n, self.m)
        """Number of positions, ``C(n + m, n)``."""
        self.info = GameInfo(
            "staircase",
            {"n": self.n, "m": self.m},
            scored=True,
            description="fill a board in staircase shape; black gains a, white gains b",
        )
        self._binom: NDArray[np.int64] | None = None

    # ------------------------------------------------------------------ ranking
    def _table(self) -> NDArray[np.int64]:
        if self._binom is None:
            if self.size > _INT64_MAX:
                raise InvalidGraphError(
                    f"a {self.n} x {self.m} staircase board has {self.size} positions, "
                    "too many to number with int64"
                )
            self._binom = binomials(self.n + self.m, self.n)
        return self._binom

    def _check_rows(self, rows: NDArray[np.int64]) -> None:
        bad = (rows < 0) | (rows > self.m)
        bad[:, 1:] |= rows[:, 1:] > rows[:, :-1]
        where = np.flatnonzero(bad.any(axis=1))
        if where.size:
            shown = tuple(int(x) for x in rows[where[0]])
            raise InvalidGraphError(
                f"{shown} is not a staircase of a {self.n} x {self.m} board "
                f"(row lengths must be non-increasing, each 0..{self.m})"
            )

    def encode_many(self, rows: ArrayLike) -> NDArray[np.int64]:
        """Ranks of many positions at once: `rows` has shape ``(k, n)``.

        Raises
        ------
        InvalidGraphError
            If a row is not a staircase of this board.

        Examples
        --------
        >>> Staircase(np.zeros((2, 2), int), np.zeros((2, 2), int)).encode_many(
        ...     [[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]]).tolist()
        [0, 1, 2, 3, 4, 5]
        """
        arr = np.asarray(rows, dtype=np.int64).reshape(-1, self.n)
        self._check_rows(arr)
        # The boundary subset, smallest element first: c[j] = l[n - j] + (j - 1).
        subsets = arr[:, ::-1] + np.arange(self.n, dtype=np.int64)
        return colex_rank(subsets, self._table())

    def decode_many(self, codes: ArrayLike) -> NDArray[np.int64]:
        """Row lengths of many positions at once: shape ``(k, n)``.

        Raises
        ------
        InvalidGraphError
            If a code is not in ``0..size - 1``.
        """
        from perfectplay.builders.staircase import _kernels as kernels

        arr = np.asarray(codes, dtype=np.int64).reshape(-1)
        bad = np.flatnonzero((arr < 0) | (arr >= self.size))
        if bad.size:
            raise InvalidGraphError(
                f"{int(arr[bad[0]])} is not a position code (expected 0..{self.size - 1})"
            )
        rows = np.empty((arr.shape[0], self.n), dtype=np.int64)
        kernels.unrank(arr, self.n, self._table(), rows)
        return rows

    def encode(self, position: Rows) -> int:
        return int(self.encode_many([position])[0])

    def decode(self, code: int) -> Rows:
        return tuple(int(x) for x in self.decode_many([code])[0])

    # ------------------------------------------------------------------ rules
    def initial(self) -> Rows:
        return (0,) * self.n

    def black_to_move(self, position: Rows) -> bool:
        """True when black (the first player) moves at `position`: an even number of stones."""
        return sum(position) % 2 == 0

    def moves(self, position: Rows) -> list[tuple[str, Rows, int]]:
        gains = self.a if self.black_to_move(position) else self.b
        return [
            (f"r{i + 1}c{length + 1}", (*position[:i], length + 1, *position[i + 1 :]),
             int(gains[i, length]))
            for i, length in enumerate(position)
            if length < self.m and (i == 0 or position[i - 1] > length)
        ]  # fmt: skip

    def outcome(self, position: Rows) -> Value | None:
        return Value.TIE if sum(position) == self.n * self.m else None

    def render(self, position: Rows) -> str:
        lines = ["#" * length + "." * (self.m - length) for length in position]
        if sum(position) == self.n * self.m:
            lines.append("board full")
        else:
            lines.append(f"{'black' if self.black_to_move(position) else 'white'} to move")
        return "\n".join(lines)

    def parse(self, text: str) -> Rows:
        """The inverse of :meth:`render`: n lines of ``#`` then ``.`` (a status line may follow).

        Raises
        ------
        InputFormatError
            Wrong number or width of lines, other characters, or not a staircase.
        """
        lines = [line.strip() for line in text.strip().splitlines()][: self.n]
        if len(lines) != self.n:
            raise InputFormatError(f"expected {self.n} board lines, got {len(lines)}")
        rows = []
        for k, line in enumerate(lines, start=1):
            length = len(line) - len(line.lstrip("#"))
            if len(line) != self.m or line[length:] != "." * (self.m - length):
                raise InputFormatError(
                    f"expected {self.m} characters: '#' (stones) then '.', got {line!r}", k
                )
            rows.append(length)
        if any(x < y for x, y in itertools.pairwise(rows)):
            raise InputFormatError(f"row lengths {tuple(rows)} are not a staircase")
        return tuple(rows)

    # ------------------------------------------------------------------ whole-game arrays
    def graph(self) -> GameGraph:
        """Every position and move as a GameGraph (gain: the mover's points), ids = codes.

        Raises
        ------
        TooLargeError
            If the graph would not fit in memory (about 20 bytes per move plus 16 per position).

        Notes
        -----
        Cost: O(C(n + m, n) * n) time, two numba passes (count the moves, then fill them).
        """
        from perfectplay.builders.staircase import _kernels as kernels
        from perfectplay.graph import GameGraph

        size = self.size
        check_memory(16.0 * size, self._what("graph"))  # degree and indptr, then the moves
        binom = self._table()
        degree = np.empty(size, dtype=np.int64)
        kernels.count_moves(self.n, self.m, size, binom, degree)
        indptr = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(degree, out=indptr[1:])
        moves = int(indptr[-1])
        # int64 targets and gains, then the GameGraph's int32 copy of the targets.
        check_memory(20.0 * moves + 16.0 * size, self._what("graph"))
        indices = np.empty(moves, dtype=np.int64)  # indptr[-1] slots: one per counted move
        gain = np.empty(moves, dtype=np.int64)
        kernels.build_graph(self.n, self.m, size, binom, self.a, self.b, indptr, indices, gain)
        return GameGraph(indptr, indices, gain=gain)

    def primitive(self) -> NDArray[np.uint8]:
        """Values fixed by the rules: TIE at the full board, UNDECIDED elsewhere (for solvers)."""
        check_memory(float(self.size), self._what("primitive values"))
        prim = np.full(self.size, UNDECIDED, dtype=VALUE_DTYPE)
        prim[-1] = TIE
        return prim

    def scores(self) -> NDArray[np.int64]:
        """The best (own - opponent) total for the player to move at every position (by code).

        Raises
        ------
        TooLargeError
            If the sweep's memory does not fit, checked before allocating: on boards up to about
            12 x 12 the level sweep's tables and the int64 scores (about 40 bytes per
            position), else the scores (8 bytes per position); see :func:`score_bytes`.

        Notes
        -----
        Cost: O(C(n + m, n) * n) time, by the numpy level sweep on small boards, else by the
        numba sweep (see :func:`staircase_score`); memory :func:`score_bytes`.
        """
        return self._fill_scores(np.int64)

    def _fill_scores(self, dtype: type[np.int32] | type[np.int64]) -> NDArray[Any]:
        """The score table by code, of `dtype`, by whichever sweep is faster on this board."""
        estimate = score_bytes(self.n, self.m, np.dtype(dtype).itemsize)
        check_memory(estimate, self._what("score sweep"))
        if _uses_levels(self.n, self.m):
            score = np.empty(self.size, dtype=dtype)
            levels.level_scores(self.n, self.m, self.a, self.b, score)
            return score
        from perfectplay.builders.staircase import _kernels as kernels

        score = np.empty(self.size, dtype=dtype)
        kernels.sweep_scores(self.n, self.m, self.size, self._table(), self.a, self.b, score)
        return score

    def best_score(self) -> int:
        """Black's total minus white's under perfect play from the empty board."""
        return staircase_score(self.a, self.b)

    def _what(self, array: str) -> str:
        return f"the {array} of a {self.n} x {self.m} staircase board ({self.size} positions)"


def staircase_score(a: ArrayLike, b: ArrayLike) -> int:
    """Black's total minus white's under perfect play on an empty staircase board.

    Parameters
    ----------
    a, b : 2-D arrays of int, shape (n, m)
        Black's and white's gain on each cell.

    Returns
    -------
    int
        The first player's (own - opponent) total when both play perfectly.

    Raises
    ------
    TooLargeError
        If the sweep's memory (:func:`score_bytes`) does not fit, checked before allocating:
        on boards the level sweep takes, its tables and the int32 scores, about
        ``(min(n, m) + 1) * b + 25`` bytes per staircase (``b``: 1 byte per row length below
        128 columns, else 2), 38 on 12 x 12; on larger boards the score table, 4 bytes per
        staircase while every total fits in int32, else 8.
    GameDefinitionError, ScoreOverflowError
        As :class:`Staircase`.

    Notes
    -----
    The board is transposed first when it has more rows than columns (the game is the same
    on the transposed board), so the sweep keeps ``min(n, m)`` boundary elements.
    Cost: O(C(n + m, n) * min(n, m)) time, by one of two sweeps over all staircases:

    - small boards (at most 40 million row lengths ``C(n + m, n) * (min(n, m) + 1)`` and
      4,000 cells: up to 12 x 12, 10 x 14, 4 x 100, 1 x 4000): the numpy level sweep of
      :mod:`perfectplay.builders.staircase._levels`, which never imports numba. numba's import
      alone takes about 0.6 s and loading a cached kernel 0.4 s more, more than the whole
      numpy sweep of a judge-sized board;
    - larger boards: the numba sweep of :mod:`perfectplay.builders.staircase._kernels`, which
      generates moves on the fly (4 or 8 bytes per staircase; the level sweep needs about
      30 to 40, :func:`score_bytes`).

    Both give the same score table. The switch sits where whole ``perfectplay problem
    staircase`` runs are faster by the level sweep (10 x 10: 0.34 s against 1.76 s) and where
    they are faster by the numba sweep (13 x 13: 2.1 s against 5.9 s); docs/scored-games.md
    has the table.

    Examples
    --------
    >>> staircase_score([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
    2
    >>> staircase_score([[5]], [[100]])
    5
    """
    game = Staircase(a, b)
    if game.n > game.m:
        game = Staircase(game.a.T, game.b.T)
    return int(game._fill_scores(np.int32 if game.bound <= _INT32_MAX else np.int64)[0])
