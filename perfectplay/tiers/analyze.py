"""Counts of a solved tiered game: positions reachable from the start, by value and remoteness.

A ranking may number more slots than the game reaches (a superset ranking), so counting the
records would count positions no game ever sees. :func:`analyze_tiers` walks forward from the
start instead (from every start of a game with several, ``starts``), as GamesmanOne's analyzer
does: tiers in reverse solving order (parents first), every reached position's children
marked reached in their tiers, breadth first inside tiers with inner moves. Each reached
symmetry class is counted once as a *class* and ``orbit_sizes`` times as *positions* (the
positions it stands for). Values are for the player to move; a game that tells who moves
(``movers``) also has its positions counted by the player who wins them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
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
_WALK = "analysis.walk"
"""The directory of a walk under way: reached flags per tier and the counts so far."""
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
    """Its label (``tier_label``), its part's (``tier_parts``) or its group's name
    (``tier_group``)."""
    classes: dict[str, int] = field(default_factory=_zero)
    """Reachable symmetry classes (stored ranks) per value name."""
    positions: dict[str, int] = field(default_factory=_zero)
    """Reachable positions per value name (each class counts its whole orbit)."""
    won: list[int] | None = None
    """Reachable positions won by each player (``players`` order): a WIN counts for the player
    to move, a LOSE for the other; None if the game does not tell who moves (``movers``)."""


@dataclass
class Analysis:
    """Counts of a solved game's positions reachable from its start."""

    tiers: list[TierCounts]
    """Per tier, in solving order; per part of a tier where the game names parts
    (``tier_parts``: Morris's two subspaces of a moving tier); per group of tiers where the
    game names groups (``tier_group``: Connect Four by column heights, per number of stones),
    each under its first tier."""
    remoteness: list[tuple[Value, int, int, int]]
    """``(value, remoteness, classes, positions)`` for every pair that occurs, sorted."""
    players: tuple[str, str] | None = None
    """The players' names if the game tells who moves (``movers``), else None."""

    @property
    def classes(self) -> dict[str, int]:
        """Reachable classes per value name, all tiers."""
        return {k: sum(t.classes[k] for t in self.tiers) for k in _NAMES}

    @property
    def positions(self) -> dict[str, int]:
        """Reachable positions per value name, all tiers."""
        return {k: sum(t.positions[k] for t in self.tiers) for k in _NAMES}

    @property
    def won(self) -> dict[str, int] | None:
        """Reachable positions won by each player, by name; None if the game does not tell who
        moves."""
        if self.players is None:
            return None
        return {
            name: sum(t.won[i] for t in self.tiers if t.won is not None)
            for i, name in enumerate(self.players)
        }

    def to_json(self) -> dict[str, Any]:
        """The JSON form ``perfectplay analyze DIR --json`` prints."""
        tiers = []
        for t in self.tiers:
            tier = {
                "tier": t.tier,
                "label": t.label,
                "positions": t.positions,
                "classes": t.classes,
            }
            if t.won is not None:
                tier["won"] = t.won
            tiers.append(tier)
        record = {
            "tiers": tiers,
            "positions": self.positions,
            "classes": self.classes,
            "remoteness": [
                {"value": v.name, "remoteness": r, "classes": c, "positions": p}
                for v, r, c, p in self.remoteness
            ],
        }
        if self.won is not None:
            record["won"] = self.won
        return record

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        """The inverse of :meth:`to_json`."""
        tiers = [
            TierCounts(t["tier"], t["label"], t["classes"], t["positions"], t.get("won"))
            for t in data["tiers"]
        ]
        rows = [
            (Value[r["value"]], r["remoteness"], r["classes"], r["positions"])
            for r in data["remoteness"]
        ]
        names = list(data.get("won", {}))  # the players' names, if the game tells who moves
        return cls(tiers, rows, (names[0], names[1]) if names else None)


class _Walk:
    """The forward pass: reached flags per tier (a bit per rank), filled parents first.

    With a `directory`, each tier's flags are a file there, mapped into memory, so a walk
    stopped at any point (kill -9 included) goes on from its files: a bit is set only for a
    position reached, and setting it again changes nothing.
    """

    def __init__(
        self, db: TierDatabase, pool: ThreadPoolExecutor | None, directory: str | None
    ) -> None:
        self.db = db
        self.game = db.tiered
        self.pool = pool
        self.directory = directory
        self.reached: dict[int, NDArray[np.uint8]] = {}
        self.locks: dict[int, threading.Lock] = {}

    def _path(self, tier: int) -> str:
        assert self.directory is not None
        return os.path.join(self.directory, f"{self.game.tier_label(tier)}.bits")

    def _flags(self, tier: int) -> NDArray[np.uint8]:
        """`tier`'s flags: in memory, in its file, or new (zeros)."""
        flags = self._found(tier, create=True)
        assert flags is not None
        return flags

    def _found(self, tier: int, create: bool = False) -> NDArray[np.uint8] | None:
        """`tier`'s flags if any rank of it was reached (or `create`), else None."""
        flags = self.reached.get(tier)
        if flags is not None:
            return flags
        size = -(-self.game.tier_size(tier) // 8)
        if self.directory is None:
            if not create:
                return None
            flags = np.zeros(size, np.uint8)
        else:
            path = self._path(tier)
            exists = os.path.exists(path) and os.path.getsize(path) == size
            if not exists and not create:
                return None
            flags = np.memmap(path, np.uint8, "r+" if exists else "w+", shape=(size,))
        self.reached[tier] = flags
        self.locks[tier] = threading.Lock()
        return flags

    def mark(self, tier: int, ranks: NDArray[np.int64]) -> None:
        """Mark `ranks` of `tier` reached (the starts)."""
        set_bits(self._flags(tier), ranks)

    def forget(self, tier: int) -> None:
        """Drop `tier`'s flags (walked and counted) and their file."""
        self.reached.pop(tier, None)
        self.locks.pop(tier, None)
        if self.directory is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._path(tier))

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
        flags = self._found(tier)
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
    """Classes and positions of one tier by value, per part (``tier_parts``: the whole tier
    where the game names none), and by value and remoteness over the tier (``rows``)."""

    def __init__(self, db: TierDatabase, tier: int):
        self.db, self.tier = db, tier
        game = db.tiered
        parts = game.tier_parts(tier) or [(game.tier_label(tier), 0)]
        told = game.movers(tier, np.empty(0, dtype=np.int64)) is not None
        self.parts = [TierCounts(tier, label, won=[0, 0] if told else None) for label, _ in parts]
        self.firsts = np.array([first for _, first in parts[1:]], dtype=np.int64)
        self.rows: dict[tuple[int, int], list[int]] = {}
        self.records: NDArray[Any] | None = None  # read at the first reached rank

    def __call__(self, ranks: NDArray[np.int64]) -> None:
        """Count `ranks` (increasing) by their records."""
        if not len(ranks):
            return
        if self.records is None:
            self.records = self.db.records(self.tier)
        bounds = [0, *np.searchsorted(ranks, self.firsts).tolist(), len(ranks)]
        for part, lo, hi in zip(self.parts, bounds, bounds[1:], strict=False):
            if lo < hi:
                self._count(part, ranks[lo:hi])

    def _count(self, part: TierCounts, ranks: NDArray[np.int64]) -> None:
        assert self.records is not None
        keys = self.records[ranks].astype(np.int64)  # a record is its value and remoteness
        orbit = np.concatenate(
            [
                self.db.tiered.orbit_sizes(self.tier, ranks[s : s + BATCH])
                for s in range(0, len(ranks), BATCH)
            ]
        )
        classes = np.bincount(keys)
        positions = np.bincount(keys, weights=orbit)
        won = part.won
        movers = None if won is None else self.db.tiered.movers(self.tier, ranks)
        by_mover = None  # positions per record and player to move: 2 * key + mover
        if movers is not None:
            by_mover = np.bincount(2 * keys + movers, weights=orbit, minlength=2 * len(classes))
        found = np.flatnonzero(classes)
        values, rems = unpack(found.astype(self.records.dtype))
        for k, v, r in zip(found.tolist(), values.tolist(), rems.tolist(), strict=True):
            name = Value(v).name
            part.classes[name] += int(classes[k])
            part.positions[name] += int(positions[k])
            row = self.rows.setdefault((v, r), [0, 0])
            row[0] += int(classes[k])
            row[1] += int(positions[k])
            if won is not None and by_mover is not None and v in (Value.WIN, Value.LOSE):
                for mover in (0, 1):  # a WIN is won by the mover, a LOSE by the other
                    won[mover if v == Value.WIN else 1 - mover] += int(by_mover[2 * k + mover])

    def line(self) -> bytes:
        """The tier's counts as one line of the walk's log."""
        parts = []
        for c in self.parts:
            part: dict[str, Any] = {
                "label": c.label,
                "classes": c.classes,
                "positions": c.positions,
            }
            if c.won is not None:
                part["won"] = c.won
            parts.append(part)
        rows = [[v, r, n, p] for (v, r), (n, p) in self.rows.items()]
        return (json.dumps({"tier": self.tier, "parts": parts, "rows": rows}) + "\n").encode()

    def restore(self, record: dict[str, Any]) -> None:
        """Take back the counts of :meth:`line`'s `record`, parts as the record has them: a
        record without ``parts`` holds the whole tier's counts (``classes``, ``positions``,
        ``won``) and gives one part, labelled
        :meth:`~perfectplay.protocol.tiered.TieredGame.tier_label`."""
        label = self.db.tiered.tier_label(self.tier)
        self.parts = []
        for part in record.get("parts") or [{"label": label, **record}]:
            counts = TierCounts(self.tier, part["label"], won=part.get("won"))
            counts.classes.update(part["classes"])
            counts.positions.update(part["positions"])
            self.parts.append(counts)
        self.rows = {(v, r): [n, p] for v, r, n, p in record["rows"]}


class _Log:
    """The counts of every tier walked so far, a line per tier appended to ``counts.jsonl`` in
    the walk's directory: what a walk stopped midway keeps. A last line cut short by a stop is
    dropped (that tier is walked again)."""

    def __init__(self, directory: str | None, db: TierDatabase) -> None:
        self.path = None if directory is None else os.path.join(directory, "counts.jsonl")
        self.done: dict[int, _Counter] = {}
        if self.path is None or not os.path.exists(self.path):
            return
        with open(self.path, "rb") as handle:
            lines = handle.read().split(b"\n")
        for raw in lines[:-1]:  # the part after the last newline is a cut line, or nothing
            record = json.loads(raw)
            counter = _Counter(db, record["tier"])
            counter.restore(record)
            self.done[counter.tier] = counter
        with open(self.path, "r+b") as handle:
            handle.truncate(sum(len(raw) + 1 for raw in lines[:-1]))

    def add(self, counter: _Counter) -> None:
        """Keep the counts of a tier walked (its records, read for them, are let go)."""
        counter.records = None
        self.done[counter.tier] = counter
        if self.path is not None:
            with open(self.path, "ab") as handle:  # kept by the system through a kill -9
                handle.write(counter.line())


def _grouped(game: Any, tiers: list[TierCounts]) -> list[TierCounts]:
    """The counts of the tiers reported together (``tier_group``) added up, in the order of
    each group's first tier; tiers (and their parts) without a group stand alone."""
    groups: dict[str, TierCounts] = {}
    for i, counts in enumerate(tiers):
        name = game.tier_group(counts.tier)
        if name is None:
            groups[f"\0{i}"] = counts  # parts may share a label: each stands apart
            continue
        total = groups.setdefault(name, TierCounts(counts.tier, name))
        for key in _NAMES:
            total.classes[key] += counts.classes[key]
            total.positions[key] += counts.positions[key]
        if counts.won is not None:
            total.won = [a + b for a, b in zip(total.won or [0, 0], counts.won, strict=True)]
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
        while every tier file passes its checksums. While the walk is under way it keeps its
        flags and the counts of the tiers done in ``analysis.walk/``: a walk stopped at any
        point (``kill -9`` included) goes on from there when called again.

    Raises
    ------
    StoreError
        If a tier file is damaged or missing (the cache is not read then either).

    Notes
    -----
    Cost: one ``children`` call per reachable class (the moves, not the values, are needed),
    plus one decompression of each tier; from the cache, one read of the compressed files.
    Memory: one flag bit per rank of the tiers reached and not yet walked (in memory-mapped
    files for a tier directory, as much disk) and one tier's records; reached ranks are taken
    2^22 ranks at a time (a tier with inner moves holds its breadth-first frontier, 8 bytes
    per reached rank).

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
    walked = None if db.directory is None else os.path.join(db.directory, _WALK)
    if walked is not None:
        os.makedirs(walked, exist_ok=True)
    log = _Log(walked, db)
    try:
        walk = _Walk(db, pool, walked)
        for start_tier, start_rank in game.starts():
            if start_tier not in log.done:
                walk.mark(start_tier, np.array([start_rank], dtype=np.int64))
        for tier in reversed(db.order):
            if tier not in log.done:
                label = game.tier_label(tier)
                disable = None if progress is None else not progress
                counter = _Counter(db, tier)
                with tqdm(
                    desc=f"tier {label}", unit="pos", unit_scale=True, leave=False,
                    disable=disable,
                ) as bar:  # fmt: skip
                    walk.tier(tier, bar.update, counter)
                log.add(counter)
            walk.forget(tier)
    finally:
        if pool is not None:
            pool.shutdown()
    table: dict[tuple[int, int], list[int]] = {}
    for counter in log.done.values():
        for key, (n, p) in counter.rows.items():
            row = table.setdefault(key, [0, 0])
            row[0] += n
            row[1] += p
    rows = sorted(
        ((Value(v), r, c, p) for (v, r), (c, p) in table.items()),
        key=lambda row: (int(row[0]), row[1]),
    )
    tiers = [part for t in db.order for part in log.done[t].parts]
    players = game.players() if any(t.won is not None for t in tiers) else None
    result = Analysis(_grouped(game, tiers), rows, players)
    if cache is not None and walked is not None:
        atomic_write_bytes(cache, [json.dumps(result.to_json(), sort_keys=True).encode()])
        shutil.rmtree(walked)
    return result
