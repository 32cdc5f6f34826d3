"""Counts of a solved tiered game: positions reachable from the start, by value and remoteness.

A ranking may number more slots than the game reaches (a superset ranking), so counting the
records would count positions no game ever sees. :func:`analyze_tiers` walks forward from the
start instead (from every start of a game with several, ``starts``), as GamesmanOne's analyzer
does: tiers in reverse solving order (parents first), every reached position's children
marked reached in their tiers, breadth first inside tiers with inner moves. Each reached
symmetry class is counted once as a *class* and ``orbit_sizes`` times as *positions* (the
positions it stands for). Values are for the player to move.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.tiers._kernels import claim_bits_where, set_bits, set_bits_where
from perfectplay.tiers.database import TierDatabase
from perfectplay.tiers.expand import BATCH
from perfectplay.tiers.files import atomic_write_bytes
from perfectplay.tiers.records import unpack
from perfectplay.values import Value

__all__ = ["Analysis", "TierCounts", "analyze_tiers"]

_CACHE = "analysis.json"
_BLOCK = 1 << 22
"""Ranks of a tier scanned at once for reached positions."""
_NAMES = ("WIN", "LOSE", "TIE", "DRAW")


def _zero() -> dict[str, int]:
    return dict.fromkeys(_NAMES, 0)


@dataclass
class TierCounts:
    """The reachable positions of one tier, by value for the player to move."""

    tier: int
    """The tier."""
    label: str
    """Its label (``tier_label``)."""
    classes: dict[str, int] = field(default_factory=_zero)
    """Reachable symmetry classes (stored ranks) per value name."""
    positions: dict[str, int] = field(default_factory=_zero)
    """Reachable positions per value name (each class counts its whole orbit)."""


@dataclass
class Analysis:
    """Counts of a solved game's positions reachable from its start."""

    tiers: list[TierCounts]
    """Per tier, in solving order; per group of tiers where the game names groups
    (``tier_group``: Connect Four by column heights, per number of stones), each under its
    first tier."""
    remoteness: list[tuple[Value, int, int, int]]
    """``(value, remoteness, classes, positions)`` for every pair that occurs, sorted."""

    @property
    def classes(self) -> dict[str, int]:
        """Reachable classes per value name, all tiers."""
        return {k: sum(t.classes[k] for t in self.tiers) for k in _NAMES}

    @property
    def positions(self) -> dict[str, int]:
        """Reachable positions per value name, all tiers."""
        return {k: sum(t.positions[k] for t in self.tiers) for k in _NAMES}

    def to_json(self) -> dict[str, Any]:
        """The JSON form ``perfectplay analyze DIR --json`` prints."""
        return {
            "tiers": [
                {"tier": t.tier, "label": t.label, "positions": t.positions, "classes": t.classes}
                for t in self.tiers
            ],
            "positions": self.positions,
            "classes": self.classes,
            "remoteness": [
                {"value": v.name, "remoteness": r, "classes": c, "positions": p}
                for v, r, c, p in self.remoteness
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        """The inverse of :meth:`to_json`."""
        tiers = [
            TierCounts(t["tier"], t["label"], t["classes"], t["positions"]) for t in data["tiers"]
        ]
        rows = [
            (Value[r["value"]], r["remoteness"], r["classes"], r["positions"])
            for r in data["remoteness"]
        ]
        return cls(tiers, rows)


class _Walk:
    """The forward pass: reached flags per tier (a bit per rank), filled parents first."""

    def __init__(self, db: TierDatabase, pool: ThreadPoolExecutor | None) -> None:
        self.db = db
        self.game = db.tiered
        self.pool = pool
        self.reached: dict[int, NDArray[np.uint8]] = {}
        self.locks: dict[int, threading.Lock] = {}

    def _flags(self, tier: int) -> NDArray[np.uint8]:
        flags = self.reached.get(tier)
        if flags is None:
            flags = self.reached[tier] = np.zeros(-(-self.game.tier_size(tier) // 8), np.uint8)
            self.locks[tier] = threading.Lock()
        return flags

    def expand(
        self, tier: int, ranks: NDArray[np.int64], own: NDArray[np.uint8] | None = None
    ) -> NDArray[np.int64]:
        """Mark the children of `ranks` in earlier tiers; with `own` (`tier`'s flags), also
        those in `tier`, and return the ones not marked before (each once: the next frontier
        of the breadth-first walk, never every in-tier child at once)."""
        children = list(self.game.child_tiers(tier))
        targets = [self._flags(c) for c in children]
        locks = [self.locks[c] for c in children]
        own_lock = threading.Lock()

        def one(start: int) -> NDArray[np.int64]:
            moves = self.game.children(tier, ranks[start : start + BATCH])
            for j, (flags, lock) in enumerate(zip(targets, locks, strict=True), start=1):
                with lock:  # a byte holds 8 ranks: threads marking one tier take turns
                    set_bits_where(flags, moves.which, moves.rank, j)
            if own is None:
                return np.empty(0, dtype=np.int64)
            with own_lock:
                return np.asarray(claim_bits_where(own, moves.which, moves.rank, 0), np.int64)

        starts = range(0, len(ranks), BATCH)
        if self.pool is None or len(ranks) <= BATCH:
            parts = [one(s) for s in starts]
        else:
            parts = list(self.pool.map(one, starts))
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)

    def tier(
        self, tier: int, advance: Callable[[int], None], count: Callable[[NDArray[np.int64]], None]
    ) -> None:
        """Walk `tier` (breadth first inside it if it has inner moves), then `count` its
        reached ranks, a block at a time."""
        flags = self.reached.pop(tier, None)
        self.locks.pop(tier, None)
        if flags is None:
            return
        if not self.game.inner_moves(tier):  # every move leaves the tier: one pass, by blocks
            for ranks in _blocks(flags):
                self.expand(tier, ranks)
                advance(len(ranks))
                count(ranks)
            return
        frontier = np.concatenate([np.empty(0, dtype=np.int64), *_blocks(flags)])
        while len(frontier):
            walked = len(frontier)
            frontier = self.expand(tier, frontier, flags)
            advance(walked)
        for ranks in _blocks(flags):
            count(ranks)


def _blocks(flags: NDArray[np.uint8]) -> Iterator[NDArray[np.int64]]:
    """The ranks whose bit is set, in increasing order, at most `_BLOCK` ranks scanned at a
    time (so a tier's reached ranks are never all in memory at 8 bytes each)."""
    step = -(-_BLOCK // 8) * 8  # whole bytes
    for lo in range(0, len(flags) * 8, step):
        bits = np.unpackbits(flags[lo // 8 : (lo + step) // 8], bitorder="little")
        yield lo + np.flatnonzero(bits).astype(np.int64)


class _Counter:
    """Classes and positions of one tier by value, and of all tiers by value and remoteness."""

    def __init__(self, db: TierDatabase, tier: int, table: dict[tuple[int, int], list[int]]):
        self.db, self.tier, self.table = db, tier, table
        self.counts = TierCounts(tier, db.tiered.tier_label(tier))
        self.records: NDArray[Any] | None = None  # read at the first reached rank

    def __call__(self, ranks: NDArray[np.int64]) -> None:
        if not len(ranks):
            return
        if self.records is None:
            self.records = self.db.records(self.tier)
        keys = self.records[ranks].astype(np.int64)  # a record is its value and remoteness
        orbit = np.concatenate(
            [
                self.db.tiered.orbit_sizes(self.tier, ranks[s : s + BATCH])
                for s in range(0, len(ranks), BATCH)
            ]
        )
        classes = np.bincount(keys)
        positions = np.bincount(keys, weights=orbit)
        found = np.flatnonzero(classes)
        values, rems = unpack(found.astype(self.records.dtype))
        for k, v, r in zip(found.tolist(), values.tolist(), rems.tolist(), strict=True):
            name = Value(v).name
            self.counts.classes[name] += int(classes[k])
            self.counts.positions[name] += int(positions[k])
            row = self.table.setdefault((v, r), [0, 0])
            row[0] += int(classes[k])
            row[1] += int(positions[k])


def _grouped(game: Any, tiers: list[TierCounts]) -> list[TierCounts]:
    """The counts of the tiers reported together (``tier_group``) added up, in the order of
    each group's first tier; tiers without a group of their own stand alone."""
    groups: dict[str, TierCounts] = {}
    for counts in tiers:
        name = game.tier_group(counts.tier)
        if name is None:
            groups[f"\0{counts.tier}"] = counts
            continue
        total = groups.setdefault(name, TierCounts(counts.tier, name))
        for key in _NAMES:
            total.classes[key] += counts.classes[key]
            total.positions[key] += counts.positions[key]
    return list(groups.values())


def analyze_tiers(
    db: TierDatabase, *, jobs: int | None = None, progress: bool | None = None
) -> Analysis:
    """Count the positions reachable from the start (any start) of a solved tiered game.

    Parameters
    ----------
    db : TierDatabase
        A solved game (a tier directory or tiers solved in memory).
    jobs : int, optional
        Threads generating moves (default: every core).
    progress : bool, optional
        A progress bar per tier; default: when standard error is a terminal.

    Returns
    -------
    Analysis
        Per tier and overall: classes and positions per value, and per value and remoteness.
        A tier directory keeps the result in ``analysis.json`` and later calls read it back
        while every tier file passes its checksums.

    Raises
    ------
    StoreError
        If a tier file is damaged or missing (the cache is not read then either).

    Notes
    -----
    Cost: one ``children`` call per reachable class (the moves, not the values, are needed),
    plus one decompression of each tier; from the cache, one read of the compressed files.
    Memory: one flag byte per rank of the tiers being walked (a tier and its child tiers) and
    one tier's records; reached ranks are taken 2^22 ranks at a time (a tier with inner moves
    holds its breadth-first frontier, 8 bytes per reached rank).

    Examples
    --------
    >>> from perfectplay.games.registry import load_tiered_game
    >>> from perfectplay.tiers import solve_tiers
    >>> db = solve_tiers(load_tiered_game("connect-four", rows=4, cols=4), progress=False)
    >>> a = analyze_tiers(db, progress=False)
    >>> sum(a.positions.values()), a.tiers[-1].positions  # the start: a tie
    (161029, {'WIN': 0, 'LOSE': 0, 'TIE': 1, 'DRAW': 0})
    """
    cache = None if db.directory is None else os.path.join(db.directory, _CACHE)
    if cache is not None and os.path.exists(cache):
        db.check()  # the counts stand for the files only while they are intact
        try:
            with open(cache, encoding="utf-8") as handle:
                return Analysis.from_json(json.load(handle))
        except (OSError, ValueError, KeyError, TypeError):
            os.unlink(cache)  # unreadable: count again
    from tqdm import tqdm

    game = db.tiered
    workers = jobs or os.cpu_count() or 1
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    table: dict[tuple[int, int], list[int]] = {}
    per_tier: dict[int, TierCounts] = {}
    try:
        walk = _Walk(db, pool)
        for start_tier, start_rank in game.starts():
            set_bits(walk._flags(start_tier), np.array([start_rank], dtype=np.int64))
        for tier in reversed(db.order):
            label = game.tier_label(tier)
            disable = None if progress is None else not progress
            counter = _Counter(db, tier, table)
            with tqdm(
                desc=f"tier {label}", unit="pos", unit_scale=True, leave=False, disable=disable
            ) as bar:
                walk.tier(tier, bar.update, counter)
            per_tier[tier] = counter.counts
    finally:
        if pool is not None:
            pool.shutdown()
    rows = sorted(
        ((Value(v), r, c, p) for (v, r), (c, p) in table.items()),
        key=lambda row: (int(row[0]), row[1]),
    )
    result = Analysis(_grouped(game, [per_tier[t] for t in db.order]), rows)
    if cache is not None:
        atomic_write_bytes(cache, [json.dumps(result.to_json(), sort_keys=True).encode()])
    return result
