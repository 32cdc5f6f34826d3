"""Check a tier directory (``perfectplay solve GAME --tiers DIR``) against the game's rules.

A tier directory stores values and remoteness per rank of each tier, not the moves: the moves
are regenerated from the game (``TieredGame.children`` on arrays of ranks, with the values its
rules fix and, for scored games, the gains and terminal scores), and every stored position is
checked against them exactly as :func:`~perfectplay.verify.rules.check_solution` checks a
graph: one key per move, the best key of each position's moves, compared with the record.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.tiers.records import unpack
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value
from perfectplay.verify.rules import SHOWN, Report, _child_keys, _implied, _name

__all__ = ["check_tier_database", "verify_tiers"]

CHUNK_RANKS = 1 << 18
"""Ranks whose moves are generated and checked at once."""
BLOCK_RANKS = 1 << 22
"""Ranks of a tier unpacked at once (a thread's unit of work): a tier of a billion ranks is
never unpacked whole."""
_WIDTH = 1 << 31  # a band above every int32 remoteness: keys are int64


class _Tier:
    """One tier's packed records (unpacked a chunk at a time) and its scores."""

    def __init__(self, db: Any, tier: int) -> None:
        self.records = db.records(tier)
        self.score = db.scores(tier) if db.tiered.info.scored else None

    def arrays(
        self, ranks: NDArray[np.int64] | slice
    ) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
        """Value and remoteness of `ranks` (inside the tier: an array or a slice of them)."""
        value, remoteness = unpack(self.records[ranks])
        return value, remoteness.astype(np.int64)


def _check_records(
    value: NDArray[np.uint8], remoteness: NDArray[np.int64], lo: int, label: str, report: Report
) -> None:
    """Every stored rank (``lo + i``) holds WIN/LOSE/TIE with remoteness >= 0, or DRAW with -1."""
    present = value != UNDECIDED
    decided = (value == LOSE) | (value == TIE) | (value == WIN)
    good = np.where(decided, remoteness >= 0, (value == DRAW) & (remoteness == NO_REMOTENESS))

    def describe(p: int) -> str:
        record = _name(int(value[p - lo]), int(remoteness[p - lo]))
        return f"tier {label} rank {p}: {record} is not a valid record"

    report.add(lo + np.flatnonzero(present & ~good), describe)


def _check_chunk(
    db: Any, tier: int, ranks: NDArray[np.int64], tiers: list[_Tier], report: Report
) -> int:
    """Check `ranks` of `tier` (`tiers[0]` is its data, `tiers[j]` its j-th child tier's);
    return the number of moves checked."""
    here = tiers[0]
    label = db.tiered.tier_label(tier)
    moves = db.tiered.children(tier, ranks)
    which = np.asarray(moves.which, dtype=np.int64)
    child = np.asarray(moves.rank, dtype=np.int64)
    keys = np.empty(child.shape[0], dtype=np.int64)
    scores = np.zeros(child.shape[0], dtype=np.int64)
    missing = np.zeros(child.shape[0], dtype=np.bool_)
    for j, data in enumerate(tiers):
        on = which == j
        r = child[on]
        inside = (r >= 0) & (r < data.records.shape[0])
        safe = np.where(inside, r, 0)
        child_value, child_remoteness = data.arrays(safe)
        missing[on] = ~inside | (child_value == UNDECIDED)
        keys[on] = _child_keys(child_value, child_remoteness, _WIDTH)
        if data.score is not None:
            scores[on] = data.score[safe]
    sources = np.repeat(np.arange(ranks.shape[0]), np.diff(moves.indptr))
    report.add(
        ranks[np.unique(sources[missing])],
        lambda p: f"tier {label} rank {p}: a move of the game leads to no stored position",
    )
    value, remoteness = here.arrays(ranks)
    primitive = np.asarray(moves.primitive)
    degree = np.diff(moves.indptr)
    fixed = primitive != UNDECIDED

    def record(p: int) -> str:
        i = int(np.searchsorted(ranks, p))
        return f"tier {label} rank {p}: {_name(int(value[i]), int(remoteness[i]))}"

    def rule(p: int) -> str:
        fixed_value = Value(int(primitive[np.searchsorted(ranks, p)])).name
        return f"{record(p)} but the rules fix {fixed_value} 0"

    report.add(ranks[fixed & ((value != primitive) | (remoteness != 0))], rule)
    stuck = ~fixed & (degree == 0) & ((value != LOSE) | (remoteness != 0))
    report.add(ranks[stuck], lambda p: f"{record(p)} but it has no moves (LOSE 0)")
    rows = np.flatnonzero((degree > 0) & ~fixed)
    if rows.size:
        best = np.maximum.reduceat(keys, moves.indptr[:-1][degree > 0])[~fixed[degree > 0]]
        want_value, want_remoteness = _implied(best, _WIDTH)
        wrong = rows[(value[rows] != want_value) | (remoteness[rows] != want_remoteness)]
        report.add(ranks[wrong], lambda p: f"{record(p)} but its moves imply otherwise")
        if here.score is not None:
            gain = np.zeros(keys.shape[0], np.int64) if moves.gain is None else moves.gain
            best_score = np.maximum.reduceat(gain - scores, moves.indptr[:-1][degree > 0])
            best_score = best_score[~fixed[degree > 0]]
            off = rows[here.score[ranks[rows]] != best_score]
            report.add(ranks[off], lambda p: f"tier {label} rank {p}: its score breaks the rules")
    if here.score is not None:
        terminal = np.zeros(ranks.shape[0], np.int64) if moves.score is None else moves.score
        over = np.flatnonzero((fixed | (degree == 0)) & (here.score[ranks] != terminal))
        report.add(ranks[over], lambda p: f"tier {label} rank {p}: its score breaks the rules")
    return int(child.shape[0])


def _check_block(db: Any, tier: int, tiers: list[_Tier], lo: int) -> Report:
    """The report of the block of ranks from `lo` of `tier`: their records, then their moves."""
    report = Report()
    hi = min(lo + BLOCK_RANKS, int(tiers[0].records.shape[0]))
    value, remoteness = tiers[0].arrays(slice(lo, hi))
    _check_records(value, remoteness, lo, db.tiered.tier_label(tier), report)
    present = lo + np.flatnonzero(value != UNDECIDED)
    report.positions += int(present.shape[0])
    for start in range(0, present.shape[0], CHUNK_RANKS):
        ranks = present[start : start + CHUNK_RANKS].astype(np.int64)
        report.moves += _check_chunk(db, tier, ranks, tiers, report)
    return report


def _merge(into: Report, part: Report) -> None:
    """Add `part`'s counts to `into`, and its problems while `into` shows fewer than SHOWN."""
    into.positions += part.positions
    into.moves += part.moves
    into.bad += part.bad
    into.problems.extend(part.problems[: max(0, SHOWN - len(into.problems))])


def verify_tiers(
    directory: str | os.PathLike[str], *, progress: bool = False, jobs: int | None = None
) -> Report:
    """Check every position of a solved tier directory against the game's moves and rules.

    Parameters
    ----------
    directory : path
        A directory written by :func:`perfectplay.tiers.solve_tiers`.
    progress : bool
        Show a progress bar (tqdm, on standard error) over the tiers' ranks.
    jobs : int, optional
        Threads checking blocks of ranks (default: every core).

    Returns
    -------
    Report
        ``ok`` when every stored position holds.

    Raises
    ------
    StoreError
        If the directory is not a solved tier directory, or a tier file is damaged (their
        checksums are verified as they are read).

    Notes
    -----
    Cost: one decompression of every tier and of each child tier it reads, the game's
    ``children`` for every rank once, then O(moves) numpy work. Memory: the packed records of
    the tier being checked and of its child tiers (1 to 4 bytes a rank), plus per thread a
    block of :data:`BLOCK_RANKS` ranks unpacked and the moves of :data:`CHUNK_RANKS` ranks.
    """
    from perfectplay.solved import open_tiers

    with open_tiers(directory) as db:
        return check_tier_database(db, progress=progress, jobs=jobs)


def check_tier_database(db: Any, *, progress: bool = False, jobs: int | None = None) -> Report:
    """Check every stored position of a :class:`~perfectplay.tiers.TierDatabase` (a directory
    or tiers solved in memory); see :func:`verify_tiers`. The report is the same for any
    number of `jobs` (blocks are merged in rank order)."""
    from tqdm import tqdm

    report = Report()
    total = sum(int(db.tiered.tier_size(t)) for t in db.order)
    workers = jobs or os.cpu_count() or 1
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        with tqdm(total=total, unit="rank", unit_scale=True, disable=not progress) as bar:
            for tier in db.order:
                tiers = [_Tier(db, tier)] + [_Tier(db, c) for c in db.tiered.child_tiers(tier)]
                size = int(tiers[0].records.shape[0])
                block = partial(_check_block, db, tier, tiers)
                starts = range(0, size, BLOCK_RANKS)
                parts = map(block, starts) if pool is None else pool.map(block, starts)
                for lo, part in zip(starts, parts, strict=True):
                    _merge(report, part)
                    bar.update(min(lo + BLOCK_RANKS, size) - lo)
    finally:
        if pool is not None:
            pool.shutdown()
    return report
