"""numba kernels of Connect Four's single-position search: negamax alpha-beta on bitboards.

Boards have ``rows`` x ``cols`` cells with ``(rows + 1) * cols <= 128`` (6 x 7 is the usual
board). The search is written once over a board word (:mod:`._words`): a ``uint64`` where
``(rows + 1) * cols <= 64``, a :class:`~._words.Wide` of two past it; numba compiles it for
each. The search follows the approach of Pascal Pons's solver (a bitboard negamax with a
transposition table, null-window iterative narrowing of the score, pruning of moves that
lose at once, and move ordering by the threats a move creates), and returns the same scores.

Bitboards
---------
A board is a word (one or two) with bit ``offset + c * (rows + 1) + r`` for the cell in column
``c``, row ``r`` from the bottom (``offset`` is 0 but in tests, which move a small board across
the two words so as to check the two-word search against the one-word one), and one guard
row (always empty) on top of every column, so that shifting a board never carries a line
from one column into the next. A position is
``(current, mask)``: the stones of the player to move, and every stone. ``current + mask``
is a unique key of the position (adding ``mask`` sets the bit above each column's top stone
and leaves ``current``'s stones below it readable). The transposition table's key is that
one, or, for positions of fewer than ``MIRROR_MAX_STONES`` stones, the smaller of it and the
mirror image's, so that a position and its mirror image share their entry.

Scores
------
Scores are Pons's, for the player to move in a position with ``n`` stones on a board of
``cells = rows * cols`` cells:

- a win whose winning stone is the ``(n + 1)``-th, ``(n + 3)``-th, ... stone of the game:
  ``score = (cells + 2 - s) // 2 > 0`` where ``s`` is the number of stones on the board
  right after the winning move (for 6 x 7: 22 minus the number of stones the winner played,
  so 21 for a win with one's first stone). Equivalently ``(cells + 1 - m) // 2`` with
  ``m = s - 1`` the stones on the board before the winning move.
- a loss: minus the opponent's winning score, ``< 0``;
- a tie (full board, no line): 0.

Under best play both sides maximise their score: the winner wins as early as possible and
the loser loses as late as possible, so a score also gives the remoteness (see
:func:`perfectplay.games.connect_four.search.score_to_value`). *Weak* mode returns only the
sign (1 win, 0 tie, -1 loss), as Pons's ``-w``, but reaches it by a different sequence of
null-window probes (see :func:`solve_kernel`).

A transposition table (:mod:`perfectplay.search._kernel_table`) holds bounds keyed by
``current + mask`` (past one word, a key of ``64 + extra`` bits: the table keeps the
``extra`` bits in its checks, so it needs at least ``2**(17 + extra)`` entries), which names
a position of one board size only: use one table per ``(rows, cols)``. Within a size, a
table may serve any number of searches, strong and weak alike.

Examples
--------
>>> import numpy as np
>>> from perfectplay.search._kernel_table import new_table, table_shift
>>> slots = new_table(2**20)
>>> current, mask = np.uint64(0x10200000), np.uint64(0x10604000)  # 4453 on 6 x 7
>>> shift = table_shift(slots)
>>> int(solve_kernel(current, mask, 4, 6, 7, 0, False, slots, shift, np.uint64(0))[0])
-2

The same position moved up by 40 bits, across two words (keys of 64 + 3 bits):

>>> from perfectplay.games.connect_four._words import Wide
>>> from perfectplay.search._kernel_table import wide_shift
>>> def wide(x):
...     return Wide(np.uint64(x << 40 & (2**64 - 1)), np.uint64(x << 40 >> 64))
>>> current, mask = wide(0x10200000), wide(0x10604000)
>>> wide_slots = new_table(2**23)  # 2**20 entries, the least for keys of 64 + 3 bits
>>> shift = wide_shift(wide_slots, 3)
>>> int(solve_kernel(current, mask, 4, 6, 7, 40, False, wide_slots, shift, np.uint64(3))[0])
-2
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._prefetch import prefetch
from perfectplay.games.connect_four._words import (
    board_array,
    bucket,
    count,
    lesser,
    load,
    many,
    nonzero,
    one_like,
    plus,
    probe,
    record,
    store,
)
from perfectplay.search._kernel_table import NO_BOUND

__all__ = [
    "ETC_MIN_EMPTY",
    "INVALID_MOVE",
    "MIRROR_MAX_STONES",
    "WALK_MAX_STONES",
    "Geometry",
    "geometry",
    "move_bounds_kernel",
    "move_scores_kernel",
    "next_probe",
    "solve_kernel",
    "solve_many_kernel",
]

INVALID_MOVE = -1000
"""A full column's entry in the move scores."""
ETC_MIN_EMPTY = 20
"""Enhanced transposition cutoffs are tried at nodes with this many empty cells or more: far
from the leaves, where a subtree saved outweighs a probe per move (docs/search.md)."""

MIRROR_MAX_STONES = 16
"""Positions of fewer stones are keyed as the smaller of their key and their mirror image's:
near the root, where subtrees are large, a position and its mirror image share one entry.
Deeper, where they seldom meet, the key is left plain (docs/search.md)."""

WALK_MAX_STONES = 3
"""Positions of fewer stones are narrowed to their score by a walk of null windows from zero,
later ones by Pons's halving (:func:`next_probe`, docs/search.md)."""

_NO_VALUE = -1000
"""Below every score: a node's best child value before any child returns."""
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)


class Geometry(NamedTuple):
    """A board's masks, as boards of its word type (:func:`geometry`)."""

    height: Any
    """Bits per column, the guard bit included (``uint64``)."""
    bottom: Any
    """The bottom cell of every column."""
    board: Any
    """Every cell."""
    column: Any
    """The cells of column 0."""
    full: Any
    """The cells of column 0 and its guard bit."""
    evens: Any
    """The cells of rows 2, 4, ... (1-based) of every column."""
    lines: bool
    """Whether rows and diagonals hold fours: 4 columns or more. On fewer, only a column does
    (and a row's or diagonal's shifts, ``3 * (height + 1)``, could pass the board's words
    on 1 to 3 tall columns: numba leaves such shifts undefined)."""


# ---------------------------------------------------------------------------- board helpers
@nb.njit(cache=True)
def geometry(rows: int, cols: int, offset: int, like: Any) -> Geometry:
    """The masks of a board of ``rows`` x ``cols`` cells starting at bit `offset`, as boards of
    `like`'s type (one word or two). Cost: ``O(rows + cols)`` word operations."""
    one = one_like(like)
    zero = one ^ one
    height = np.uint64(rows + 1)
    column = zero
    for r in range(rows):
        column |= one << np.uint64(offset + r)
    bottom = zero
    board = zero
    for c in range(cols):
        bottom |= one << np.uint64(offset + c * (rows + 1))
        board |= column << (np.uint64(c) * height)
    evens = zero
    for r in range(1, rows, 2):
        evens |= bottom << np.uint64(r)
    full = column | (one << np.uint64(offset + rows))
    return Geometry(height, bottom, board, column, full, evens, cols >= 4)


@nb.njit(cache=True, inline="always")
def _key(current: Any, mask: Any, n: int, cols: int, g: Geometry) -> Any:
    """The table key of a position of `n` stones: ``current + mask``, or the smaller of it and
    its mirror image's when ``n < MIRROR_MAX_STONES`` (each column's bits of the key are its
    own: a column's stones plus its mask stay below its guard bit)."""
    key = plus(current, mask)
    if n >= MIRROR_MAX_STONES:
        return key
    image = key ^ key
    for c in range(cols):
        image |= ((key >> (np.uint64(c) * g.height)) & g.full) << (
            np.uint64(cols - 1 - c) * g.height
        )
    return lesser(key, image)


@nb.njit(cache=True, inline="always")
def _winning_spots(stones: Any, mask: Any, g: Geometry) -> Any:
    """Empty cells (playable now or later) that would complete a line of four of `stones`.

    For each direction ``d`` (1 up, ``height`` right, ``height - 1`` and ``height + 1`` the
    diagonals), a cell wins when three stones lie next to it along ``d``: all three on one
    side, or two on one side and one on the other.
    """
    spots = (stones << _ONE) & (stones << _TWO) & (stones << _THREE)
    if not g.lines:
        return spots & (g.board ^ mask)
    height = g.height
    for d in (height, height - _ONE, height + _ONE):
        d2 = d + d
        pair = (stones << d) & (stones << d2)
        spots |= pair & (stones << (d2 + d))
        spots |= pair & (stones >> d)
        pair = (stones >> d) & (stones >> d2)
        spots |= pair & (stones >> (d2 + d))
        spots |= pair & (stones << d)
    return spots & (g.board ^ mask)


@nb.njit(cache=True, inline="always")
def _possible(mask: Any, g: Geometry) -> Any:
    """The cell each stone would land on, one per open column (a full column carries into
    its guard bit, which lies outside the board)."""
    return plus(mask, g.bottom) & g.board


@nb.njit(cache=True, inline="always")
def _non_losing(threats: Any, mask: Any, g: Geometry) -> Any:
    """Moves that do not let the opponent win at once (the mover cannot win at once), given
    the opponent's winning cells `threats`.

    A move is forced when the opponent threatens to win on a playable cell; two such threats
    cannot both be stopped (returns 0). A move right below an opponent's winning cell would
    let the opponent play there, so it is dropped.
    """
    possible = _possible(mask, g)
    forced = possible & threats
    if nonzero(forced):
        if many(forced):
            return forced ^ forced
        possible = forced
    return possible & ~(threats >> _ONE)


@nb.njit(cache=True, inline="always")
def _can_win_now(current: Any, mask: Any, g: Geometry) -> bool:
    """Whether the player to move has a winning move."""
    return nonzero(_winning_spots(current, mask, g) & _possible(mask, g))


@nb.njit(cache=True, inline="always")
def _fours(stones: Any, g: Geometry) -> Any:
    """The cells of `stones` that lie on a line of four of `stones` (any direction)."""
    cells = stones ^ stones
    height = g.height
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and not g.lines:
            break
        starts = stones & (stones >> d)
        starts &= starts >> (d + d)  # bit i: cells i, i + d, i + 2d, i + 3d all in `stones`
        line = starts | (starts << d)
        cells |= line | (line << (d + d))
    return cells


@nb.njit(cache=True, inline="always")
def _has_four(stones: Any, g: Geometry) -> bool:
    """Whether `stones` hold a line of four (any direction)."""
    height = g.height
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and not g.lines:
            break
        starts = stones & (stones >> d)
        if nonzero(starts & (starts >> (d + d))):
            return True
    return False


@nb.njit(cache=True, inline="always")
def _evens_bound(current: Any, mask: Any, n: int, rows: int, cells: int, g: Geometry) -> int:
    """An upper bound on the score of the first player to move (`n` even) on a board of an
    even number of rows, from the second player's *claimeven*: answer each stone on an odd
    row (1-based) by the stone right above it, and a stone on an even cell playable now by
    another such cell (their columns, of an odd number of stones, come in pairs). Then the
    mover gets no other cell (`mine`), the second player every even cell not playable now.

    If `mine` holds no line of four the mover never wins (bound 0); if moreover the second
    player's cells hold one, the mover loses, at the latest when that line's last empty cell
    is filled, which leaves the cells above it in its column empty. Returns a score above
    every possible one when `mine` holds a line of four (no bound).
    """
    possible = _possible(mask, g)
    theirs = (current ^ mask) | (g.evens & ~mask & ~possible)
    if _has_four(g.board & ~theirs, g):
        return 1000
    lines = _fours(theirs, g) & ~mask
    if not nonzero(lines):
        return 0
    top = 0  # the highest row of an empty cell of some line: no line ends above it
    for r in range(rows - 1, 0, -1):
        if nonzero(lines & (g.bottom << np.uint64(r))):
            top = r
            break
    last = cells - (rows - 1 - top)  # the latest stone that may complete a line
    last -= (last - n) % 2  # the second player's stones have the parity of n
    return -((cells + 2 - last) // 2)


# ---------------------------------------------------------------------------- the search
@nb.njit(cache=True)
def _search(
    root_cur: Any,
    root_mask: Any,
    n0: int,
    alpha0: int,
    beta0: int,
    rows: int,
    cols: int,
    g: Geometry,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    stack: NDArray[np.uint64],
    windows: NDArray[np.int64],
    moves: NDArray[np.uint64],
    order_scores: NDArray[np.int64],
) -> tuple[int, int]:
    """Fail-soft negamax with an explicit stack; returns ``(bound, nodes)``.

    The root must be a position where nobody has four and the mover cannot win at once,
    and ``alpha0 < beta0``. The result is the exact score when it lies in
    ``[alpha0, beta0]``, else a bound beyond the window on the side it failed (an upper
    bound ``<= alpha0`` or a lower bound ``>= beta0``).

    Row ``d`` of the work arrays (:func:`_work_arrays`) is the node ``d`` plies below the
    root (``n0 + d`` stones): ``stack[d]`` = (current, mask, key), ``windows[d]`` = (alpha,
    beta, number of moves, next move, 1 when its one move is forced and it goes unstored, the
    nodes counted before it: its subtree's size is the work stored with its result, the best
    value its moves have returned),
    ``moves[d]`` its moves in the order to try them (``order_scores[d]`` their ordering
    scores). An explicit stack instead of recursion spares a call per node, with its argument
    passing and reference counting of the arrays (measured: recursion was 1.5x slower).
    """
    cells = rows * cols
    nodes = 0
    d = 0
    store(stack, 0, 0, root_cur)
    store(stack, 0, 1, root_mask)
    windows[0, 0] = alpha0
    windows[0, 1] = beta0
    while True:
        # ---- enter node d: settle it at once (into `value`) or descend into its first move
        windows[d, 5] = nodes
        nodes += 1
        n = n0 + d
        cur = load(stack, d, 0)
        msk = load(stack, d, 1)
        key = _key(cur, msk, n, cols, g)
        store(stack, d, 2, key)
        alpha = windows[d, 0]
        beta = windows[d, 1]
        settled = True
        forced = False
        value = 0
        opponent = cur ^ msk
        threats = _winning_spots(opponent, msk, g)
        playable = _non_losing(threats, msk, g)
        if not nonzero(playable):  # the opponent wins with the next stone, stone n + 2
            value = -((cells - n) // 2)
        elif n >= cells - 2:  # at most two stones left and neither wins: a tie
            value = 0
        else:
            # Bounds without search: the opponent cannot win with stone n + 2 (we stop every
            # threat), nor can we win with stone n + 1 (the root's caller checked; below, the
            # parent's non-losing filter did).
            low = -((cells - 2 - n) // 2)
            high = (cells - 1 - n) // 2
            if alpha < low:
                alpha = low
            if beta > high:
                beta = high
            if alpha >= beta:
                value = alpha if alpha == low else beta  # the bound that closed the window
            elif not many(playable):
                # One move does not lose at once: the node is its child's mirror image, so
                # it is neither probed nor stored (its child is), sparing a probe, likely a
                # cache miss, and a slot.
                settled = False
                forced = True
            else:
                stored_low, stored_high = probe(slots, shift, extra, key)
                if stored_low != NO_BOUND and stored_low >= beta:
                    value = stored_low
                elif stored_high != NO_BOUND and stored_high <= alpha:
                    value = stored_high
                else:
                    if stored_low != NO_BOUND and stored_low > alpha:
                        alpha = stored_low
                    if stored_high != NO_BOUND and stored_high < beta:
                        beta = stored_high
                    if alpha >= beta:  # both bounds stored and equal: the exact score
                        value = alpha
                    elif rows % 2 == 0 and n % 2 == 0:
                        bound = _evens_bound(cur, msk, n, rows, cells, g)
                        if bound < beta:
                            beta = bound
                        if alpha >= beta:
                            value = beta
                        else:
                            settled = False
                    else:
                        settled = False
        if forced:
            store(moves, d, 0, playable)
            prefetch(slots, bucket(shift, extra, _key(opponent, msk | playable, n + 1, cols, g)))
            windows[d, 0] = alpha
            windows[d, 1] = beta
            windows[d, 2] = 1
            windows[d, 3] = 0
            windows[d, 4] = 1
            windows[d, 6] = _NO_VALUE
        elif not settled:
            # Order the moves by the winning cells they create (after Steininger's solver):
            # those not right above an opponent's winning cell (which can never be played
            # while the opponent's is open) count, three times over when one or two cells
            # above a cell playable after the move; ties centre first (insertion sort,
            # stable). Prefetch each child's table slot so that its probe,
            # a likely cache miss, overlaps with the work before it.
            k = 0
            for i in range(cols):
                c = cols // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2  # 3 4 2 5 1 6 0 for 7
                move = playable & (g.column << (np.uint64(c) * g.height))
                if not nonzero(move):
                    continue
                spots = _winning_spots(cur | move, msk, g)
                replies = _possible(msk | move, g)
                wins = spots & replies
                if (
                    many(wins)
                    or nonzero(spots & (wins << _ONE))
                    or not nonzero(replies & ~(spots >> _ONE))
                ):
                    # Two threats playable at once, one above another, or every reply
                    # right below a threat: the opponent (who cannot win at once) cannot
                    # stop them all and we win with stone n + 3.
                    value = (cells - 1 - n) // 2
                    settled = True
                    break
                useful = spots & ~(threats << _ONE)
                above = (replies << _ONE) & g.board
                near = useful & (above | (above << _ONE))
                s = 2 * count(near) + count(useful)
                j = k
                while j > 0 and order_scores[d, j - 1] < s:
                    store(moves, d, j, load(moves, d, j - 1))
                    order_scores[d, j] = order_scores[d, j - 1]
                    j -= 1
                store(moves, d, j, move)
                order_scores[d, j] = s
                prefetch(slots, bucket(shift, extra, _key(opponent, msk | move, n + 1, cols, g)))
                k += 1
            if not settled:
                # No move wins with stone n + 3 (the test above finds every such win):
                # at best a win with stone n + 5.
                high = (cells - 3 - n) // 2
                if beta > high:
                    beta = high
                    if alpha >= beta:
                        value = beta
                        settled = True
            windows[d, 0] = alpha
            windows[d, 1] = beta
            windows[d, 2] = k
            windows[d, 3] = 0
            windows[d, 4] = 0
            windows[d, 6] = _NO_VALUE
            if not settled and cells - n >= ETC_MIN_EMPTY:
                # Enhanced transposition cutoff: a child whose stored upper bound u gives
                # us -u >= beta refutes this node without a search. It costs a probe per
                # move, which pays only far from the leaves, where subtrees are large.
                for j in range(k):
                    child_key = _key(opponent, msk | load(moves, d, j), n + 1, cols, g)
                    _, child_high = probe(slots, shift, extra, child_key)
                    if child_high != NO_BOUND and -child_high >= beta:
                        value = -child_high
                        settled = True
                        record(slots, shift, extra, key, value, NO_BOUND, 1)
                        break
        if settled:
            # ---- unwind: node d is settled with `value`; hand it up to its parents
            while d > 0:
                d -= 1
                value = -value
                if value >= windows[d, 1]:  # fail high: a lower bound of the parent
                    if windows[d, 4] == 0:
                        record(
                            slots, shift, extra, load(stack, d, 2), value, NO_BOUND,
                            nodes - windows[d, 5],
                        )  # fmt: skip
                    continue
                if value > windows[d, 0]:
                    windows[d, 0] = value
                if value > windows[d, 6]:
                    windows[d, 6] = value
                if windows[d, 3] < windows[d, 2]:
                    break  # the parent has moves left: descend into the next one below
                # Every move failed low: the best of their upper bounds bounds the node
                # (fail-soft: often below alpha, a tighter bound for the table).
                value = windows[d, 6]
                if windows[d, 4] == 0:
                    record(
                        slots, shift, extra, load(stack, d, 2), NO_BOUND, value,
                        nodes - windows[d, 5],
                    )  # fmt: skip
            else:
                return value, nodes
        # ---- descend into node d's next move
        i = windows[d, 3]
        windows[d, 3] = i + 1
        msk = load(stack, d, 1)
        store(stack, d + 1, 0, load(stack, d, 0) ^ msk)
        store(stack, d + 1, 1, msk | load(moves, d, i))
        windows[d + 1, 0] = -windows[d, 1]
        windows[d + 1, 1] = -windows[d, 0]
        d += 1


@nb.njit(cache=True, inline="always")
def _work_arrays(
    depth: int, cols: int, like: Any
) -> tuple[NDArray[np.uint64], NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64]]:
    """The rows of :func:`_search` for `depth` plies, boards of `like`'s type: stack, windows,
    moves, order scores."""
    return (
        board_array(depth, 3, like),
        np.empty((depth, 7), dtype=np.int64),
        board_array(depth, cols, like),
        np.empty((depth, cols), dtype=np.int64),
    )


@nb.njit(cache=True)
def next_probe(low: int, high: int, weak: bool, probes: int, n: int) -> tuple[int, int, bool]:
    """``(med, probes, go)``: the next null-window probe ``[med, med + 1]`` of the score of a
    position of `n` stones, known to lie in ``[low, high]`` (``low < high``); ``go`` False
    when `weak` and the sign is known. `probes` counts the extreme probes of weak mode done.

    Strong, fewer than ``WALK_MAX_STONES`` stones: a walk from zero (Steininger's), ``[0, 1]``
    first, then one step beyond the bound nearest zero: near the start the score is small
    (the game's end is far), and every probe but the last two is a search far from it.
    Strong, later: Pons's schedule, halfway towards the extreme scores first. Weak: the two
    extreme probes (a fast win or loss settles the sign), then ``[-1, 0]`` and ``[0, 1]``.
    """
    if not weak:
        if n < WALK_MAX_STONES:
            if low >= 0:
                return low, probes, True
            if high <= 0:
                return high - 1, probes, True
            return 0, probes, True
        med = low + (high - low) // 2
        if med <= 0 and low // 2 < med:
            med = low // 2
        elif med >= 0 and high // 2 > med:
            med = high // 2
        return med, probes, True
    while True:
        if low > 0 or high < 0 or (low == 0 and high == 0):
            return low, probes, False
        if probes == 0:
            med = high // 2
        elif probes == 1:
            med = low // 2
        else:
            return (-1 if low < 0 else 0), probes, True
        probes += 1
        if low < med < high:
            return med, probes, True


@nb.njit(cache=True)
def _narrow(
    current: Any,
    mask: Any,
    n: int,
    rows: int,
    cols: int,
    g: Geometry,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    work: tuple[NDArray[np.uint64], NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64]],
) -> tuple[int, int]:
    """``(score, nodes)`` of a position where nobody has four, the mover cannot win at once
    and the board is not full: null-window searches ``[m, m + 1]`` (:func:`next_probe`), each
    telling whether the score exceeds ``m``, narrowing ``[low, high]``; `work` holds
    :func:`_work_arrays` of at least ``cells - n + 1`` plies."""
    cells = rows * cols
    stack, windows, moves, order_scores = work
    nodes = 0
    low = -((cells - n) // 2)
    high = (cells + 1 - n) // 2
    probes = 0
    while low < high:
        med, probes, go = next_probe(low, high, weak, probes, n)
        if not go:
            break
        r, k = _search(
            current, mask, n, med, med + 1, rows, cols, g, slots, shift, extra,
            stack, windows, moves, order_scores,
        )  # fmt: skip
        nodes += k
        if r <= med:
            high = r
        else:
            low = r
    if weak:
        return (low > 0) - (high < 0), nodes
    return low, nodes


@nb.njit(cache=True)
def solve_kernel(
    current: Any,
    mask: Any,
    n: int,
    rows: int,
    cols: int,
    offset: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
) -> tuple[int, int]:
    """``(score, nodes)`` of a position where nobody has four yet (module docstring).

    Parameters
    ----------
    current, mask : uint64 or Wide
        The stones of the player to move, and all stones: one word where
        ``offset + (rows + 1) * cols <= 64``, else two.
    n : int
        The number of stones.
    rows, cols, offset : int
        The board, at bit `offset` (0 but in tests).
    weak : bool
        Whether to return only the sign of the score.
    slots : ndarray of uint64
        The transposition table (:mod:`perfectplay.search._kernel_table`); entries persist
        across calls.
    shift, extra : uint64
        ``table_shift(slots)`` and 0 for one word; two: the bits of a key's high word and
        ``wide_shift(slots, extra)``.

    Notes
    -----
    The score is found by null-window searches (:func:`next_probe`): Pons's schedule, or in
    weak mode two extreme probes, then ``[-1, 0]`` and ``[0, 1]``.
    """
    g = geometry(rows, cols, offset, current)
    cells = rows * cols
    if _can_win_now(current, mask, g):
        return (1 if weak else (cells + 1 - n) // 2), 1
    if n >= cells:
        return 0, 1
    work = _work_arrays(cells - n + 1, cols, current)
    return _narrow(current, mask, n, rows, cols, g, weak, slots, shift, extra, work)


@nb.njit(cache=True)
def _move_values(
    current: Any,
    mask: Any,
    n: int,
    rows: int,
    cols: int,
    offset: int,
    weak: bool,
    exact: bool,
    alpha: int,
    beta: int,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` for the player to
    move (``INVALID_MOVE`` for a full column): exact (its sign when `weak`) when `exact`, else
    bounded by the window ``alpha < beta``; return the nodes searched."""
    g = geometry(rows, cols, offset, current)
    cells = rows * cols
    wins = _winning_spots(current, mask, g)
    possible = _possible(mask, g)
    work = _work_arrays(cells - n + 1, cols, current)
    stack, windows, moves, order_scores = work
    nodes = 0
    for c in range(cols):
        move = possible & (g.column << (np.uint64(c) * g.height))
        child, child_mask = current ^ mask, mask | move
        if not nonzero(move):
            out[c] = INVALID_MOVE
        elif nonzero(move & wins):
            out[c] = 1 if weak else (cells + 1 - n) // 2
        elif _can_win_now(child, child_mask, g):  # the opponent wins with stone n + 2
            out[c] = -1 if weak else -((cells - n) // 2)
        elif n + 1 >= cells:
            out[c] = 0
        else:
            if exact:
                r, k = _narrow(
                    child, child_mask, n + 1, rows, cols, g, weak, slots, shift, extra, work
                )
            else:
                r, k = _search(
                    child, child_mask, n + 1, -beta, -alpha, rows, cols, g, slots, shift,
                    extra, stack, windows, moves, order_scores,
                )  # fmt: skip
            out[c] = -r
            nodes += k
    return nodes


@nb.njit(cache=True)
def move_scores_kernel(
    current: Any,
    mask: Any,
    n: int,
    rows: int,
    cols: int,
    offset: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` (for the player to
    move), ``INVALID_MOVE`` for a full column; return the nodes searched.

    Parameters as :func:`solve_kernel`; `out` has `cols` entries.
    """
    return _move_values(
        current, mask, n, rows, cols, offset, weak, True, 0, 0, slots, shift, extra, out
    )


@nb.njit(cache=True)
def move_bounds_kernel(
    current: Any,
    mask: Any,
    n: int,
    rows: int,
    cols: int,
    offset: int,
    alpha: int,
    beta: int,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` for the player to
    move, bounded by the window ``alpha < beta``: exact strictly inside it, an upper bound
    ``<= alpha`` or a lower bound ``>= beta`` outside (``INVALID_MOVE`` for a full column);
    return the nodes searched.

    With the null window ``(t - 1, t)`` it tells which moves reach the score ``t``: one cheap
    search per move once the table holds the position's own search.
    """
    return _move_values(
        current, mask, n, rows, cols, offset, False, False, alpha, beta, slots, shift, extra, out
    )


@nb.njit(cache=True)
def solve_many_kernel(
    boards: NDArray[np.uint64],
    rows: int,
    cols: int,
    offset: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    scores: NDArray[np.int64],
) -> int:
    """:func:`solve_kernel` of every position ``(boards[i, 0], boards[i, 1])`` (current, mask;
    ``boards`` of shape ``(k, 2)``, or ``(k, 2, 2)`` for two words) into ``scores[i]``, one
    table for all (what one search stores serves the next); return the nodes searched.

    Every position must be one where nobody has four yet.
    """
    nodes = 0
    for i in range(boards.shape[0]):
        mask = load(boards, i, 1)
        score, k = solve_kernel(
            load(boards, i, 0), mask, count(mask), rows, cols, offset, weak, slots, shift, extra
        )
        scores[i] = score
        nodes += k
    return nodes
