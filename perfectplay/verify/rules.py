"""The local check of a solution against its game graph, written in plain numpy.

Every position's value and remoteness (for the player to move) must be exactly what its moves
imply. Values and remoteness are the unique least solution of these local equations (see
:func:`perfectplay.solvers.retrograde.solve_retrograde`), and remoteness strictly decreases
along the moves that justify a WIN, LOSE or TIE, so a solution passing the check everywhere is
the solution: the check is a certificate, and it needs nothing from the solvers.

How one pass decides every position: each move is turned into one integer *key* that orders
the outcomes the mover can get, best last (a move into a LOSE at remoteness r beats one into a
LOSE at r + 1, which beats a TIE, which beats a DRAW, which beats the slowest move into a WIN,
...). The best key of each position's moves (``np.maximum.reduceat`` over the CSR rows) gives
the value and remoteness its moves imply, which must equal the claimed ones.

Examples
--------
>>> import numpy as np
>>> indptr, indices = np.array([0, 1, 2, 2]), np.array([1, 2])
>>> report = check_solution(indptr, indices, np.array([0, 3, 0], np.uint8), np.array([2, 1, 0]))
>>> report.ok, report.positions, report.moves
(True, 3, 2)
>>> bad = check_solution(indptr, indices, np.array([3, 3, 0], np.uint8), np.array([2, 1, 0]))
>>> print(bad.problems[0])
position 0: WIN 2 but move to 1 gives WIN 1 to the opponent (its moves imply LOSE 2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value

__all__ = ["CHUNK_MOVES", "Report", "check_solution", "chunks"]

CHUNK_MOVES = 1 << 22
"""Moves per chunk of the check: the chunk's work arrays (about 20 bytes per move) stay small
while numpy's per-call overhead stays negligible."""
SHOWN = 5
"""How many offending positions a report describes."""

IntArray = NDArray[np.integer]
_BANDS = 4  # key bands, worst first: a move into a WIN, a DRAW, a TIE, a LOSE


@dataclass
class Report:
    """The outcome of a check.

    Attributes
    ----------
    positions, moves : int
        How many positions and moves were checked.
    bad : int
        How many positions break the rules (0 when the solution holds).
    problems : list of str
        The first few offending positions, each with the reason.
    notes : list of str
        What was taken on trust (e.g. values fixed by the rules that nothing can re-derive).
    """

    positions: int = 0
    moves: int = 0
    bad: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every position checked holds."""
        return self.bad == 0

    def add(self, positions: IntArray, describe: Callable[[int], str] | str) -> None:
        """Count the offending `positions` and describe the first ones (up to SHOWN in all).

        `describe` maps a position to its problem, or is a template with ``{p}`` for it.
        """
        self.bad += int(positions.size)
        for p in positions[: max(0, SHOWN - len(self.problems))].tolist():
            text = describe.format(p=p) if isinstance(describe, str) else describe(int(p))
            self.problems.append(text)


def _name(value: int, remoteness: int) -> str:
    """``WIN 3``, ``DRAW``, or the raw numbers of an invalid record."""
    if value in (LOSE, TIE, WIN) and remoteness >= 0:
        return f"{Value(value).name} {remoteness}"
    if value == DRAW and remoteness == NO_REMOTENESS:
        return "DRAW"
    word = Value(value).name if value in (LOSE, DRAW, TIE, WIN) else f"value code {value}"
    return f"{word} with remoteness {remoteness}"


def _band_width(n: int) -> int:
    """A power of two above every valid remoteness (at most n - 1, a chain of distinct ids)."""
    return 1 << max(1, int(n + 1).bit_length())


def _child_keys(value: NDArray[np.uint8], remoteness: IntArray, width: int) -> IntArray:
    """Per position c: the key of a move into c, for the mover (larger is better for him)."""
    dtype = np.int32 if _BANDS * width < 2**31 else np.int64
    r = remoteness.astype(dtype)
    top = width - 1
    key = np.where(value == WIN, r, width)  # WIN: the mover loses, slowest is best
    key = np.where(value == TIE, (2 * width + top) - r, key)
    key = np.where(value == LOSE, (3 * width + top) - r, key)
    return key.astype(dtype, copy=False)


def _claimed_keys(value: NDArray[np.uint8], remoteness: IntArray, width: int) -> IntArray:
    """Per position: the best move key its claimed value and remoteness require (the inverse
    of :func:`_implied`; -1 or 4 * width, which no move key equals, for LOSE 0 and WIN 0)."""
    dtype = np.int32 if _BANDS * width < 2**31 else np.int64
    r = remoteness.astype(dtype)
    key = np.where(value == WIN, 4 * width - r, r - 1)  # LOSE r: the slowest WIN child, r - 1
    key = np.where(value == TIE, 3 * width - r, key)
    key = np.where(value == DRAW, width, key)
    return key.astype(dtype, copy=False)


def _implied(best: IntArray, width: int) -> tuple[NDArray[np.uint8], IntArray]:
    """The value and remoteness that the best move key of a position implies."""
    band, low = best // width, best % width
    value = np.choose(band, [LOSE, DRAW, TIE, WIN]).astype(np.uint8)
    remoteness = np.where(band == 0, low + 1, width - low)  # width - 1 - low + 1
    remoteness = np.where(band == 1, NO_REMOTENESS, remoteness)
    return value, remoteness


def chunks(indptr: IntArray, size: int = CHUNK_MOVES) -> Iterator[tuple[int, int]]:
    """Ranges ``[a, b)`` of positions covering ``0..n-1``, each with about `size` moves.

    >>> list(chunks(np.array([0, 3, 3, 9, 10]), size=4))
    [(0, 2), (2, 3), (3, 4)]
    """
    n = indptr.shape[0] - 1
    a = 0
    while a < n:
        b = int(np.searchsorted(indptr, int(indptr[a]) + size, side="right")) - 1
        b = min(n, max(b, a + 1))
        yield a, b
        a = b


def _check_records(value: NDArray[np.uint8], remoteness: IntArray, report: Report) -> bool:
    """Values are WIN/LOSE/TIE/DRAW, remoteness -1 exactly for DRAW and below n otherwise."""
    n = value.shape[0]
    decided = (value == LOSE) | (value == TIE) | (value == WIN)
    good = np.where(decided, (remoteness >= 0) & (remoteness < n), value == DRAW)
    good &= np.where(value == DRAW, remoteness == NO_REMOTENESS, True)
    bad = np.flatnonzero(~good)
    report.add(
        bad,
        lambda p: (
            f"position {p}: {_name(int(value[p]), int(remoteness[p]))} is not a valid "
            f"record (WIN/LOSE/TIE with remoteness 0..{n - 1}, or DRAW)"
        ),
    )
    return bad.size == 0


def check_solution(
    indptr: IntArray,
    indices: IntArray,
    value: NDArray[np.uint8],
    remoteness: IntArray,
    primitive: NDArray[np.uint8] | None = None,
    *,
    misere: bool = False,
    score: NDArray[np.int64] | None = None,
    gain: NDArray[np.int64] | None = None,
    terminal_score: NDArray[np.int64] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> Report:
    """Check every position's value and remoteness (and score) against its moves.

    Parameters
    ----------
    indptr, indices : arrays of int
        The game graph in CSR form (the moves of ``p`` go to ``indices[indptr[p]:indptr[p+1]]``),
        already validated (ids in range, `indptr` non-decreasing).
    value, remoteness : arrays, shape (n,)
        The claimed solution, for the player to move: Value codes and remoteness (-1 for DRAW).
    primitive : array of uint8, shape (n,), optional
        WIN, LOSE or TIE where the rules fix the value (remoteness must then be 0 and the
        position's moves are ignored), UNDECIDED elsewhere.
    misere : bool
        A position without moves and without a fixed value is a WIN (default: a LOSE).
    score, gain : arrays of int64, optional
        Scored games: the claimed score of each position and each move's gain (0 if absent).
        A position where play goes on must score ``max(gain - score of the child)``.
    terminal_score : array of int64, optional
        Scored games: the score where play is over; without it those scores are taken as given.
    on_chunk : callable, optional
        Called with the number of moves after each chunk (a progress bar's ``update``).
    workers : int, optional
        Threads checking chunks in parallel (numpy releases the GIL in its gathers and
        reductions); default: one per CPU.

    Returns
    -------
    Report
        ``ok`` when every position holds; otherwise the count and the first offenders.

    Notes
    -----
    Cost: O(n + m) in numpy, chunk by chunk: one gather and one ``maximum.reduceat`` per move
    (two more for scores), about 20 bytes per move of a chunk plus 13 bytes per position.
    """
    n = value.shape[0]
    prim = np.full(n, UNDECIDED, np.uint8) if primitive is None else primitive
    report = Report(positions=n, moves=int(indices.shape[0]))
    # Per move: one gather and one maximum; per position: the key its claim requires.
    if not _check_records(value, remoteness, report):
        return report
    width = _band_width(n)
    keys = _child_keys(value, remoteness, width)
    claimed = _claimed_keys(value, remoteness, width)
    degree = np.diff(indptr)
    fixed = prim != UNDECIDED
    # Fixed by the rules: that value at remoteness 0. Stuck: LOSE 0 (WIN 0 in misere play).
    bad = np.flatnonzero(fixed & ((value != prim) | (remoteness != 0)))
    report.add(
        bad,
        lambda p: (
            f"position {p}: {_name(int(value[p]), int(remoteness[p]))} but the rules fix "
            f"{Value(int(prim[p])).name} 0"
        ),
    )
    stuck_value = WIN if misere else LOSE
    bad = np.flatnonzero(~fixed & (degree == 0) & ((value != stuck_value) | (remoteness != 0)))
    report.add(
        bad,
        lambda p: (
            f"position {p}: {_name(int(value[p]), int(remoteness[p]))} but it has no "
            f"moves ({Value(stuck_value).name} 0)"
        ),
    )

    def check_chunk(bounds: tuple[int, int]) -> tuple[IntArray, IntArray, int]:
        a, b = bounds
        e0, e1 = int(indptr[a]), int(indptr[b])
        # Every position with moves gets a segment (a segment runs to the next one's start),
        # positions whose value the rules fix are dropped afterwards.
        rows = np.flatnonzero(degree[a:b] > 0)
        p = rows + a
        wrong_score = p[:0]
        if rows.size:
            starts = indptr[a:b][rows] - e0
            targets = indices[e0:e1]
            free = ~fixed[p]
            best = np.maximum.reduceat(keys[targets], starts)[free]
            p = p[free]
            wrong = best != claimed[p]
            if score is not None:
                moves = -score[targets] if gain is None else gain[e0:e1] - score[targets]
                wrong_score = p[score[p] != np.maximum.reduceat(moves, starts)[free]]
            p = p[wrong]
        return p, wrong_score, e1 - e0

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count()) as pool:
        for wrong, wrong_score, done in pool.map(check_chunk, chunks(indptr)):
            report.add(wrong, lambda q: _explain(q, indptr, indices, value, remoteness, keys))
            if score is not None:
                report.add(wrong_score, lambda q: _explain_score(q, indptr, indices, score, gain))
            if on_chunk is not None:
                on_chunk(done)
    if score is not None and terminal_score is not None:
        over = fixed | (degree == 0)
        bad = np.flatnonzero(over & (score != terminal_score))
        report.add(
            bad,
            lambda p: (
                f"position {p}: score {int(score[p])} but the game is over there "
                f"with score {int(terminal_score[p])}"
            ),
        )
    return report


def _explain(
    p: int,
    indptr: IntArray,
    indices: IntArray,
    value: NDArray[np.uint8],
    remoteness: IntArray,
    keys: IntArray,
) -> str:
    """``position p: CLAIM but move to c gives V r to the opponent (its moves imply ...)``."""
    width = _band_width(value.shape[0])
    children = indices[int(indptr[p]) : int(indptr[p + 1])]
    child_keys = keys[children]
    best = int(child_keys.max())
    claim = _name(int(value[p]), int(remoteness[p]))
    want_value, want_remoteness = _implied(np.array([best]), width)
    implied = _name(int(want_value[0]), int(want_remoteness[0]))
    # The move that refutes the claim: one better than the claim allows, else the best one.
    c = int(children[int(np.argmax(child_keys))])
    return (
        f"position {p}: {claim} but move to {c} gives "
        f"{_name(int(value[c]), int(remoteness[c]))} to the opponent (its moves imply {implied})"
    )


def _explain_score(
    p: int,
    indptr: IntArray,
    indices: IntArray,
    score: NDArray[np.int64],
    gain: NDArray[np.int64] | None,
) -> str:
    """``position p: score s but move to c gains g and leaves the opponent t (best: ...)``."""
    e0, e1 = int(indptr[p]), int(indptr[p + 1])
    children = indices[e0:e1]
    gains = np.zeros(e1 - e0, np.int64) if gain is None else gain[e0:e1]
    options = gains - score[children]
    k = int(np.argmax(options))
    c = int(children[k])
    return (
        f"position {p}: score {int(score[p])} but move to {c} gains {int(gains[k])} and leaves "
        f"the opponent {int(score[c])} (its moves imply score {int(options[k])})"
    )
