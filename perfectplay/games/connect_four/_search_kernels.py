"""numba kernels of Connect Four's single-position search: negamax alpha-beta on bitboards.

Boards have ``rows`` x ``cols`` cells with ``(rows + 1) * cols <= 64`` (6 x 7 is the usual
board). The search follows the approach of Pascal Pons's solver (a bitboard negamax with a
transposition table, null-window iterative narrowing of the score, pruning of moves that
lose at once, and move ordering by the threats a move creates), and returns the same scores.

Bitboards
---------
A board is a ``uint64`` with bit ``c * (rows + 1) + r`` for the cell in column ``c``, row
``r`` from the bottom, and one guard row (always empty) on top of every column, so that
shifting a board never carries a line from one column into the next. A position is
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
``current + mask``, which names a position of one board size only: use one table per
``(rows, cols)``. Within a size, a table may serve any number of searches, strong and weak
alike.

Examples
--------
>>> import numpy as np
>>> from perfectplay.search._kernel_table import new_table, table_shift
>>> slots = new_table(2**20)
>>> current, mask = np.uint64(0x10200000), np.uint64(0x10604000)  # 4453 on 6 x 7
>>> int(solve_kernel(current, mask, 4, 6, 7, False, slots, table_shift(slots))[0])
-2
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._prefetch import prefetch
from perfectplay.search._kernel_table import NO_BOUND, table_get, table_put, table_slot

__all__ = [
    "ETC_MIN_EMPTY",
    "INVALID_MOVE",
    "MIRROR_MAX_STONES",
    "WALK_MAX_STONES",
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

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NO_VALUE = -1000
"""Below every score: a node's best child value before any child returns."""
_LINES_MAX_HEIGHT = np.uint64(16)
"""The tallest column (guard bit included) of a board of 4 columns or more in 64 bits. Only such
boards hold a four along a row or diagonal, and only there do those directions' shifts (up to
``3 * (height + 1)``) stay below 64 bits: numba leaves longer shifts undefined (x86 counts them
mod 64, which finds false fours on 1 to 3 tall columns). Taller columns: the column direction
alone."""


# ---------------------------------------------------------------------------- board helpers
@nb.njit(cache=True, inline="always")
def _masks(rows: int, cols: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """``(height, bottom, board, column)`` of a board: bits per column (with the guard bit),
    the bottom cell of every column, every cell, and the cells of column 0."""
    height = np.uint64(rows + 1)
    bottom = _ZERO
    for c in range(cols):
        bottom |= _ONE << np.uint64(c * (rows + 1))
    column = (_ONE << np.uint64(rows)) - _ONE
    return height, bottom, bottom * column, column


@nb.njit(cache=True, inline="always")
def _key(
    current: np.uint64, mask: np.uint64, n: int, cols: int, height: np.uint64, column: np.uint64
) -> np.uint64:
    """The table key of a position of `n` stones: ``current + mask``, or the smaller of it and
    its mirror image's when ``n < MIRROR_MAX_STONES`` (each column's bits of the key are its
    own: a column's stones plus its mask stay below its guard bit)."""
    key = current + mask
    if n >= MIRROR_MAX_STONES:
        return key
    full = column | (column << _ONE)  # a column's cells and its guard bit
    image = _ZERO
    for c in range(cols):
        image |= ((key >> (np.uint64(c) * height)) & full) << (np.uint64(cols - 1 - c) * height)
    return min(key, image)


@nb.njit(cache=True, inline="always")
def _winning_spots(
    stones: np.uint64, mask: np.uint64, height: np.uint64, board: np.uint64
) -> np.uint64:
    """Empty cells (playable now or later) that would complete a line of four of `stones`.

    For each direction ``d`` (1 up, ``height`` right, ``height - 1`` and ``height + 1`` the
    diagonals), a cell wins when three stones lie next to it along ``d``: all three on one
    side, or two on one side and one on the other.
    """
    spots = (stones << _ONE) & (stones << np.uint64(2)) & (stones << np.uint64(3))
    if height > _LINES_MAX_HEIGHT:
        return spots & (board ^ mask)
    for d in (height, height - _ONE, height + _ONE):
        d2 = d + d
        pair = (stones << d) & (stones << d2)
        spots |= pair & (stones << (d2 + d))
        spots |= pair & (stones >> d)
        pair = (stones >> d) & (stones >> d2)
        spots |= pair & (stones >> (d2 + d))
        spots |= pair & (stones << d)
    return spots & (board ^ mask)


@nb.njit(cache=True, inline="always")
def _possible(mask: np.uint64, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """The cell each stone would land on, one per open column (a full column carries into
    its guard bit, which lies outside `board`)."""
    return (mask + bottom) & board


@nb.njit(cache=True, inline="always")
def _non_losing(
    threats: np.uint64, mask: np.uint64, bottom: np.uint64, board: np.uint64
) -> np.uint64:
    """Moves that do not let the opponent win at once (the mover cannot win at once), given
    the opponent's winning cells `threats`.

    A move is forced when the opponent threatens to win on a playable cell; two such threats
    cannot both be stopped (returns 0). A move right below an opponent's winning cell would
    let the opponent play there, so it is dropped.
    """
    possible = _possible(mask, bottom, board)
    forced = possible & threats
    if forced:
        if forced & (forced - _ONE):
            return _ZERO
        possible = forced
    return possible & ~(threats >> _ONE)


@nb.njit(cache=True, inline="always")
def _can_win_now(
    current: np.uint64, mask: np.uint64, height: np.uint64, bottom: np.uint64, board: np.uint64
) -> bool:
    """Whether the player to move has a winning move."""
    return (_winning_spots(current, mask, height, board) & _possible(mask, bottom, board)) != _ZERO


@nb.njit(cache=True, inline="always")
def _fours(stones: np.uint64, height: np.uint64) -> np.uint64:
    """The cells of `stones` that lie on a line of four of `stones` (any direction)."""
    cells = _ZERO
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and height > _LINES_MAX_HEIGHT:
            break
        starts = stones & (stones >> d)
        starts &= starts >> (d + d)  # bit i: cells i, i + d, i + 2d, i + 3d all in `stones`
        line = starts | (starts << d)
        cells |= line | (line << (d + d))
    return cells


@nb.njit(cache=True, inline="always")
def _has_four(stones: np.uint64, height: np.uint64) -> bool:
    """Whether `stones` hold a line of four (any direction)."""
    for d in (_ONE, height, height - _ONE, height + _ONE):
        if d != _ONE and height > _LINES_MAX_HEIGHT:
            break
        starts = stones & (stones >> d)
        if starts & (starts >> (d + d)):
            return True
    return False


@nb.njit(cache=True, inline="always")
def _evens_bound(
    current: np.uint64,
    mask: np.uint64,
    n: int,
    rows: int,
    cells: int,
    height: np.uint64,
    bottom: np.uint64,
    board: np.uint64,
) -> int:
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
    possible = _possible(mask, bottom, board)
    evens = (bottom * (((_ONE << np.uint64(rows)) - _ONE) // np.uint64(3))) << _ONE  # rows 2, 4..
    theirs = (current ^ mask) | (evens & board & ~mask & ~possible)
    if _has_four(board & ~theirs, height):
        return 1000
    lines = _fours(theirs, height) & ~mask
    if lines == _ZERO:
        return 0
    top = 0  # the highest row of an empty cell of some line: no line ends above it
    for r in range(rows - 1, -1, -1):
        if lines & (bottom << np.uint64(r)):
            top = r
            break
    last = cells - (rows - 1 - top)  # the latest stone that may complete a line
    last -= (last - n) % 2  # the second player's stones have the parity of n
    return -((cells + 2 - last) // 2)


# ---------------------------------------------------------------------------- the search
@nb.njit(cache=True)
def _search(
    root_cur: np.uint64,
    root_mask: np.uint64,
    n0: int,
    alpha0: int,
    beta0: int,
    rows: int,
    cols: int,
    slots: NDArray[np.uint64],
    shift: np.uint64,
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

    Row ``d`` of the work arrays is the node ``d`` plies below the root (``n0 + d`` stones):
    ``stack[d]`` = (current, mask, key), ``windows[d]`` = (alpha, beta, number of moves,
    next move, 1 when its one move is forced and it goes unstored, the nodes counted before
    it: its subtree's size is the work stored with its result, the best value its moves have
    returned), ``moves[d]`` its moves
    in the order to try them (``order_scores[d]`` their ordering scores). An explicit stack
    instead of recursion spares a call per node, with its argument passing and reference
    counting of the arrays (measured: recursion was 1.5x slower).
    """
    height, bottom, board, column = _masks(rows, cols)
    cells = rows * cols
    nodes = 0
    d = 0
    stack[0, 0] = root_cur
    stack[0, 1] = root_mask
    windows[0, 0] = alpha0
    windows[0, 1] = beta0
    while True:
        # ---- enter node d: settle it at once (into `value`) or descend into its first move
        windows[d, 5] = nodes
        nodes += 1
        n = n0 + d
        cur = stack[d, 0]
        msk = stack[d, 1]
        key = _key(cur, msk, n, cols, height, column)
        stack[d, 2] = key
        alpha = windows[d, 0]
        beta = windows[d, 1]
        settled = True
        forced = False
        value = 0
        threats = _winning_spots(cur ^ msk, msk, height, board)  # the opponent's
        playable = _non_losing(threats, msk, bottom, board)
        if playable == _ZERO:  # the opponent wins with the next stone, stone n + 2
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
            elif playable & (playable - _ONE) == _ZERO:
                # One move does not lose at once: the node is its child's mirror image, so
                # it is neither probed nor stored (its child is), sparing a probe, likely a
                # cache miss, and a slot.
                settled = False
                forced = True
            else:
                stored_low, stored_high = table_get(slots, shift, key)
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
                        bound = _evens_bound(cur, msk, n, rows, cells, height, bottom, board)
                        if bound < beta:
                            beta = bound
                        if alpha >= beta:
                            value = beta
                        else:
                            settled = False
                    else:
                        settled = False
        if forced:
            moves[d, 0] = playable
            prefetch(
                slots,
                table_slot(shift, _key(cur ^ msk, msk | playable, n + 1, cols, height, column)),
            )
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
            opponent = cur ^ msk
            k = 0
            for i in range(cols):
                c = cols // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2  # 3 4 2 5 1 6 0 for 7
                move = playable & (column << np.uint64(c * (rows + 1)))
                if move == _ZERO:
                    continue
                spots = _winning_spots(cur | move, msk, height, board)
                replies = _possible(msk | move, bottom, board)
                wins = spots & replies
                if (
                    wins & (wins - _ONE)
                    or spots & (wins << _ONE)
                    or replies & ~(spots >> _ONE) == _ZERO
                ):
                    # Two threats playable at once, one above another, or every reply
                    # right below a threat: the opponent (who cannot win at once) cannot
                    # stop them all and we win with stone n + 3.
                    value = (cells - 1 - n) // 2
                    settled = True
                    break
                useful = spots & ~(threats << _ONE)
                above = (replies << _ONE) & board
                near = useful & (above | (above << _ONE))
                s = 2 * popcount(near) + popcount(useful)
                j = k
                while j > 0 and order_scores[d, j - 1] < s:
                    moves[d, j] = moves[d, j - 1]
                    order_scores[d, j] = order_scores[d, j - 1]
                    j -= 1
                moves[d, j] = move
                order_scores[d, j] = s
                child_key = _key(opponent, msk | move, n + 1, cols, height, column)
                prefetch(slots, table_slot(shift, child_key))
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
                    child_key = _key(opponent, msk | moves[d, j], n + 1, cols, height, column)
                    _, child_high = table_get(slots, shift, child_key)
                    if child_high != NO_BOUND and -child_high >= beta:
                        value = -child_high
                        settled = True
                        table_put(slots, shift, key, value, NO_BOUND, 1)
                        break
        if settled:
            # ---- unwind: node d is settled with `value`; hand it up to its parents
            while d > 0:
                d -= 1
                value = -value
                if value >= windows[d, 1]:  # fail high: a lower bound of the parent
                    if windows[d, 4] == 0:
                        table_put(slots, shift, stack[d, 2], value, NO_BOUND, nodes - windows[d, 5])
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
                    table_put(slots, shift, stack[d, 2], NO_BOUND, value, nodes - windows[d, 5])
            else:
                return value, nodes
        # ---- descend into node d's next move
        i = windows[d, 3]
        windows[d, 3] = i + 1
        msk = stack[d, 1]
        stack[d + 1, 0] = stack[d, 0] ^ msk
        stack[d + 1, 1] = msk | moves[d, i]
        windows[d + 1, 0] = -windows[d, 1]
        windows[d + 1, 1] = -windows[d, 0]
        d += 1


@nb.njit(cache=True, inline="always")
def _work_arrays(
    depth: int, cols: int
) -> tuple[NDArray[np.uint64], NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64]]:
    """The rows of :func:`_search` for `depth` plies: stack, windows, moves, order scores."""
    return (
        np.empty((depth, 3), dtype=np.uint64),
        np.empty((depth, 7), dtype=np.int64),
        np.empty((depth, cols), dtype=np.uint64),
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
def solve_kernel(
    current: np.uint64,
    mask: np.uint64,
    n: int,
    rows: int,
    cols: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
) -> tuple[int, int]:
    """``(score, nodes)`` of a position where nobody has four yet (module docstring).

    Parameters
    ----------
    current, mask : uint64
        The stones of the player to move, and all stones.
    n : int
        The number of stones (``popcount(mask)``).
    rows, cols : int
        The board, with ``(rows + 1) * cols <= 64``.
    weak : bool
        Whether to return only the sign of the score.
    slots : ndarray of uint64
        The transposition table (see :mod:`table`); entries persist across calls.
    shift : uint64
        ``table_shift(slots)``.

    Notes
    -----
    The score is found by null-window searches ``[m, m + 1]`` that each tell whether the
    score exceeds ``m``, narrowing ``[low, high]`` (:func:`next_probe`: near the start a
    walk from zero, later Pons's schedule, whose first probes go halfway towards the extreme
    scores, cheap to settle when a side wins fast). Weak mode first tries those two extreme
    probes (a fast win or a fast loss settles the sign at once), then decides with the
    probes ``[-1, 0]`` and ``[0, 1]``.
    """
    height, bottom, board, _ = _masks(rows, cols)
    cells = rows * cols
    if _can_win_now(current, mask, height, bottom, board):
        return (1 if weak else (cells + 1 - n) // 2), 1
    if n >= cells:
        return 0, 1
    depth = cells - n + 1  # plies below the root, the root included
    stack, windows, moves, order_scores = _work_arrays(depth, cols)
    nodes = 0
    low = -((cells - n) // 2)
    high = (cells + 1 - n) // 2
    probes = 0
    while low < high:
        med, probes, go = next_probe(low, high, weak, probes, n)
        if not go:
            break
        r, k = _search(
            current,
            mask,
            n,
            med,
            med + 1,
            rows,
            cols,
            slots,
            shift,
            stack,
            windows,
            moves,
            order_scores,
        )
        nodes += k
        if r <= med:
            high = r
        else:
            low = r
    if weak:
        return (low > 0) - (high < 0), nodes
    return low, nodes


@nb.njit(cache=True)
def move_scores_kernel(
    current: np.uint64,
    mask: np.uint64,
    n: int,
    rows: int,
    cols: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` (for the player to
    move), ``INVALID_MOVE`` for a full column; return the nodes searched.

    Parameters as :func:`solve_kernel`; `out` has `cols` entries.
    """
    height, _, board, column = _masks(rows, cols)
    cells = rows * cols
    wins = _winning_spots(current, mask, height, board)
    nodes = 0
    for c in range(cols):
        move = (mask + (_ONE << np.uint64(c) * height)) & (column << np.uint64(c) * height)
        if move == _ZERO:
            out[c] = INVALID_MOVE
        elif move & wins:
            out[c] = (cells + 1 - n) // 2 if not weak else 1
        else:
            score, k = solve_kernel(
                current ^ mask, mask | move, n + 1, rows, cols, weak, slots, shift
            )
            out[c] = -score
            nodes += k
    return nodes


@nb.njit(cache=True)
def move_bounds_kernel(
    current: np.uint64,
    mask: np.uint64,
    n: int,
    rows: int,
    cols: int,
    alpha: int,
    beta: int,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    out: NDArray[np.int64],
) -> int:
    """Fill ``out[c]`` with the score of dropping a stone in column ``c`` for the player to
    move, bounded by the window ``alpha < beta``: exact strictly inside it, an upper bound
    ``<= alpha`` or a lower bound ``>= beta`` outside (``INVALID_MOVE`` for a full column);
    return the nodes searched.

    With the null window ``(t - 1, t)`` it tells which moves reach the score ``t``: one cheap
    search per move once the table holds the position's own search.
    """
    height, bottom, board, column = _masks(rows, cols)
    cells = rows * cols
    wins = _winning_spots(current, mask, height, board)
    depth = cells - n + 1
    stack, windows, moves, order_scores = _work_arrays(depth, cols)
    nodes = 0
    for c in range(cols):
        move = (mask + (_ONE << np.uint64(c) * height)) & (column << np.uint64(c) * height)
        if move == _ZERO:
            out[c] = INVALID_MOVE
            continue
        if move & wins:
            out[c] = (cells + 1 - n) // 2
            continue
        child, child_mask = current ^ mask, mask | move
        if _can_win_now(child, child_mask, height, bottom, board):
            out[c] = -((cells - n) // 2)  # the opponent wins with stone n + 2
        elif n + 1 >= cells:
            out[c] = 0
        else:
            r, k = _search(
                child, child_mask, n + 1, -beta, -alpha, rows, cols, slots, shift,
                stack, windows, moves, order_scores,
            )  # fmt: skip
            out[c] = -r
            nodes += k
    return nodes


@nb.njit(cache=True)
def solve_many_kernel(
    currents: NDArray[np.uint64],
    masks: NDArray[np.uint64],
    rows: int,
    cols: int,
    weak: bool,
    slots: NDArray[np.uint64],
    shift: np.uint64,
    scores: NDArray[np.int64],
) -> int:
    """:func:`solve_kernel` of every position ``(currents[i], masks[i])`` into ``scores[i]``,
    one table for all (what one search stores serves the next); return the nodes searched.

    Every position must be one where nobody has four yet.
    """
    nodes = 0
    for i in range(currents.shape[0]):
        score, k = solve_kernel(
            currents[i], masks[i], popcount(masks[i]), rows, cols, weak, slots, shift
        )
        scores[i] = score
        nodes += k
    return nodes
