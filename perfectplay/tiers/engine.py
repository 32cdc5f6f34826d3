"""The scheduler: solve a tiered game's tiers in dependency order, in parallel chunks, and
independent tiers at the same time.

A tier is *ready* once every tier it reads is complete. Ready tiers are started in the order
of :func:`~perfectplay.tiers.plan.tier_order`, as many at once as there are free threads (each
taking an equal share of them) and as the memory estimate allows (below): a game whose tiers
form a chain (Connect Four, Teeko) runs one tier at a time on every thread, as before; Quixo's
tiers by cube counts, many of them independent, run side by side. A started tier keeps its
threads until it ends. Each tier: skip it if a complete tier file exists; read the child tiers
it needs (decompressed once, kept while a ready or running tier still needs them); then either
solve its chunks in a thread pool (a tier whose moves all leave it,
:mod:`perfectplay.tiers.acyclic`), each chunk written to its own file and skipped when that
file exists, the chunks merged into the tier file at the end; or solve it whole by retrograde
analysis (a tier with inner moves, :mod:`perfectplay.tiers.loopy`). A tier's files do not
depend on which tiers ran beside it or on how many threads it had: they are byte-identical to
a run of one tier at a time.

Memory: the refusal up front takes the worst tier alone, with every thread (its child tiers,
1 byte per rank, and its work arrays); a further tier starts beside running ones only if the
child tiers held in memory and the work arrays of every running tier stay within that same
figure, so the estimate holds for what runs at once. Tiers solved in memory (no directory) run
one at a time, every solved tier being kept.
"""

from __future__ import annotations

import bisect
import os
import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory, format_bytes
from perfectplay.errors import InputFormatError, TooLargeError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.acyclic import solve_range
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import LOOPY_BYTES_PER_RANK, solve_loopy
from perfectplay.tiers.plan import (
    ACYCLIC_BYTES_PER_RANK,
    BLOCK,
    DASK_CHUNK,
    DEFAULT_CHUNK,
    SolveStats,
    chunk_bounds,
    progress_bar,
    tier_order,
)
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.storage import DirectoryStore, MemoryStore, game_manifest

__all__ = [
    "DASK_CHUNK",
    "DEFAULT_CHUNK",
    "SolveStats",
    "chunk_bounds",
    "solve_tiers",
    "tier_order",
]


def _work_bytes(game: TieredGame, tier: int, size: int, chunk: int, threads: int) -> int:
    """Work memory of solving `tier` (`size` ranks) on `threads` threads, its reads apart."""
    if game.inner_moves(tier):
        return LOOPY_BYTES_PER_RANK * size
    return ACYCLIC_BYTES_PER_RANK * min(size, chunk) * threads


_SAMPLES, _SAMPLE = 4, 1024
"""Windows of ranks, and ranks per window, sampled per tier for the disk estimate."""


def _stored_estimate(game: TieredGame, tier: int, size: int) -> int:
    """Bytes of `tier`'s file, estimated: a byte per position, the slots counted in 4
    windows of 1,024 ranks spread over the tier (every rank of a smaller tier), plus one byte per
    4,096 ranks for the zeros of the ranks that are no position (Zstandard packs a block of
    zeros into a few bytes; measured on Connect Four 5x6: 0.2-0.4 % of a byte per empty rank).
    Cost: at most 4,096 slot tests per tier."""
    if size <= _SAMPLES * _SAMPLE:
        windows = [(0, size)]
    else:
        windows = [(k * (size - _SAMPLE) // (_SAMPLES - 1), 0) for k in range(_SAMPLES)]
        windows = [(lo, lo + _SAMPLE) for lo, _ in windows]
    seen = used = 0
    for lo, hi in windows:
        mask = game.slots(tier, lo, hi)
        seen += hi - lo
        used += hi - lo if mask is None else int(np.count_nonzero(mask))
    return (size * used) // max(seen, 1) + size // 4096


def _check_resources(
    game: TieredGame, order: list[int], directory: str | None, jobs: int, chunk: int
) -> int:
    """Refuse a game whose largest tier (with its child tiers) or files will not fit; return
    the memory figure accepted (bytes), which tiers run at once stay within."""
    sizes = {t: game.tier_size(t) for t in order}
    worst = 0
    worst_tier = order[0] if order else 0
    for t in order:
        need = sum(sizes[c] for c in game.child_tiers(t)) + _work_bytes(
            game, t, sizes[t], chunk, jobs
        )
        if directory is None:
            need += sum(sizes[c] for c in order[: order.index(t)]) - sum(
                sizes[c] for c in game.child_tiers(t)
            )
        if need > worst:
            worst, worst_tier = need, t
    check_memory(
        worst,
        f"{game.info.name}: tier {game.tier_label(worst_tier)} with the tiers it reads "
        f"(1 byte per rank of a solved tier)",
    )
    if directory is not None:
        disk = sum(_stored_estimate(game, t, sizes[t]) for t in order)
        existing = os.path.abspath(directory)  # the directory is created only once accepted
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        free = shutil.disk_usage(existing).free
        if disk > free:
            raise TooLargeError(
                f"{game.info.name}: its tier files need about {format_bytes(disk)} of disk "
                f"(a byte per position, from a sample of each tier's slots), {directory} has "
                f"{format_bytes(free)} free"
            )
    return worst


def _solve_chunked(
    game: TieredGame,
    tier: int,
    store: DirectoryStore | MemoryStore,
    children: Sequence[SolvedTier],
    bounds: list[tuple[int, int]],
    jobs: int,
    dtype: type[np.unsignedinteger],
    advance: Callable[[int], None],
    stats: SolveStats,
    lock: threading.Lock,
) -> None:
    scored = game.info.scored
    starts = [start for start, _ in bounds]
    if isinstance(store, DirectoryStore) and len(bounds) == 1:
        # One chunk: its file would be the tier file, so it is written as such at once.
        records, most, score = solve_range(
            game, tier, *bounds[0], children, dtype=dtype, scored=scored, advance=advance
        )
        with lock:
            stats.chunks_solved += 1
        store.put(tier, records, score, most)
        return
    parts: dict[int, tuple[NDArray[Any], NDArray[np.int64] | None, int]] = {}

    def one(start: int, stop: int) -> None:
        if isinstance(store, DirectoryStore) and store.chunk_done(tier, start):
            with lock:
                stats.chunks_kept += 1
            advance(stop - start)
            return
        records, most, score = solve_range(
            game, tier, start, stop, children, dtype=dtype, scored=scored, advance=advance
        )
        with lock:
            stats.chunks_solved += 1
        if isinstance(store, DirectoryStore):
            arrays: dict[str, NDArray[Any]] = {"records": records}
            if score is not None:
                arrays["scores"] = score
            store.put_chunk(tier, start, stop, arrays, most)
        else:
            parts[start] = (records, score, most)

    if jobs > 1 and len(bounds) > 1:
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(one, *zip(*bounds, strict=True)))
    else:
        for start, stop in bounds:
            one(start, stop)
    if isinstance(store, DirectoryStore):
        store.merge(tier, starts)
    else:
        records = np.concatenate([parts[s][0] for s in starts])
        scores = np.concatenate([parts[s][1] for s in starts]) if scored else None
        store.put(tier, records, scores, max(parts[s][2] for s in starts))


class _Scheduler:
    """Runs the tiers of one solve, independent ready tiers side by side (module docstring)."""

    def __init__(
        self,
        game: TieredGame,
        order: list[int],
        store: DirectoryStore | MemoryStore,
        jobs: int,
        chunk: int,
        block: int,
        budget: int,
        stats: SolveStats,
        progress: bool | None,
    ) -> None:
        self.game, self.order, self.store, self.stats = game, order, store, stats
        self.jobs, self.chunk, self.block, self.budget = jobs, chunk, block, budget
        self.progress = progress
        self.sizes = {t: game.tier_size(t) for t in order}
        self.reads = {t: [int(c) for c in game.child_tiers(t)] for t in order}
        self.rank = {t: i for i, t in enumerate(order)}
        self.parents: dict[int, list[int]] = {t: [] for t in order}
        for t in order:
            for c in set(self.reads[t]):
                self.parents[c].append(t)
        # Per tier not yet complete: its child tiers not complete; per tier: the tiers not
        # ended that read it (a loaded tier is dropped once none does).
        self.waiting: dict[int, int] = {}
        self.readers = {t: len(self.parents[t]) for t in order}
        self.loaded: dict[int, SolvedTier] = {}
        self.most: dict[int, int] = {}
        self.lock = threading.Lock()  # the counts in `stats`, updated from the tiers' threads
        # Tiers in memory keep every solved tier: one at a time, as the estimate assumes.
        self.side_by_side = isinstance(store, DirectoryStore)

    def run(self) -> None:
        """Solve every tier not complete; raise the first failure once running tiers end."""
        ready: list[int] = []  # tiers whose child tiers are complete, in the plan's order
        for tier in self.order:
            if self.store.complete(tier):
                self.stats.tiers_kept += 1
                for c in set(self.reads[tier]):
                    self.readers[c] -= 1
            else:
                self.waiting[tier] = sum(1 for c in set(self.reads[tier]) if c in self.waiting)
                if not self.waiting[tier]:
                    ready.append(tier)
        running: dict[Future[None], tuple[int, int]] = {}  # future -> (tier, threads)
        failure: BaseException | None = None
        with ThreadPoolExecutor(self.jobs) as pool:
            while ready or running:
                if failure is None:
                    for tier, threads in self._start(ready, list(running.values())):
                        self.stats.tiers_solved += 1
                        running[pool.submit(self._solve, tier, threads)] = (tier, threads)
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    tier, _ = running.pop(future)
                    error = future.exception()
                    if error is not None:
                        failure = failure or error
                        continue
                    self._ended(tier, ready)
                self._drop([t for t, _ in running.values()])
        if failure is not None:
            raise failure

    def _ended(self, tier: int, ready: list[int]) -> None:
        """Book `tier` complete: its readers' counts, and the parents it makes ready."""
        del self.waiting[tier]
        for c in set(self.reads[tier]):
            self.readers[c] -= 1
        for parent in self.parents[tier]:
            self.waiting[parent] -= 1
            if not self.waiting[parent]:
                bisect.insort(ready, parent, key=self.rank.__getitem__)

    def _held(self, running: list[tuple[int, int]]) -> int:
        """Memory in use: the child tiers held (1 byte per rank) and the running tiers' work."""
        held = sum(self.sizes[c] for c in self.loaded)
        return held + sum(
            _work_bytes(self.game, t, self.sizes[t], self.chunk, k) for t, k in running
        )

    def _start(self, ready: list[int], running: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The ready tiers to start now with their threads (removed from `ready`): in order, an
        equal share of the free threads each, while the memory held stays within the budget
        (or alone)."""
        started: list[tuple[int, int]] = []
        free = self.jobs - sum(k for _, k in running)
        if running and not self.side_by_side:
            return started
        while ready and free > 0 and (self.side_by_side or not started):
            share = free // min(free, len(ready))
            busy = running + started
            for tier in ready:
                fresh = sum(self.sizes[c] for c in set(self.reads[tier]) if c not in self.loaded)
                need = fresh + _work_bytes(self.game, tier, self.sizes[tier], self.chunk, share)
                if self._held(busy) + need <= self.budget:
                    break
                # Without the child tiers held for tiers not running yet (read again later);
                # alone, a tier needs what the check up front accepted.
                keep = [*(t for t, _ in busy), tier]
                wanted = {c for t in keep for c in self.reads[t]}
                spare = sum(self.sizes[c] for c in self.loaded if c not in wanted)
                if not busy or self._held(busy) - spare + need <= self.budget:
                    for c in [c for c in self.loaded if c not in wanted]:
                        del self.loaded[c]
                    break
            else:
                break
            for c in self.reads[tier]:
                if c not in self.loaded:
                    self.loaded[c] = self.store.load(c, threads=self.jobs)
                if c not in self.most:
                    self.most[c] = self.store.max_remoteness(c)
            started.append((tier, share))
            ready.remove(tier)
            free -= share
        return started

    def _drop(self, running: list[int]) -> None:
        """Free the child tiers no running or remaining tier reads."""
        wanted = {c for t in running for c in self.reads[t]}
        for c in list(self.loaded):
            if c not in wanted and not self.readers[c]:
                del self.loaded[c]

    def _solve(self, tier: int, threads: int) -> None:
        game, store = self.game, self.store
        children = [self.loaded[c] for c in self.reads[tier]]
        size = self.sizes[tier]
        with progress_bar(size, game.tier_label(tier), self.progress) as bar:
            if game.inner_moves(tier):
                records, top = solve_loopy(game, tier, children, jobs=threads, advance=bar.update)
                store.put(tier, records, None, top)
            else:
                bound = 1 + max((self.most[c] for c in self.reads[tier]), default=-1)
                _solve_chunked(
                    game, tier, store, children, chunk_bounds(size, self.chunk, self.block),
                    threads, record_dtype(bound), bar.update, self.stats, self.lock,
                )  # fmt: skip


def solve_tiers(
    game: TieredGame,
    directory: str | os.PathLike[str] | None = None,
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
    dask: str | None = None,
) -> Any:
    """Solve every tier of `game`, in memory or into a tier directory; returns the database.

    Parameters
    ----------
    game : TieredGame
        The game (see :mod:`perfectplay.protocol.tiered`).
    directory : path, optional
        Where to write the tier files. An existing directory of the same game resumes: tiers
        and chunks already complete are kept. None: solve in memory.
    jobs : int, optional
        Threads (default: every core).
    progress : bool, optional
        A progress bar per tier (positions/s, ETA); default: when standard error is a terminal.
    chunk_size : int, optional
        Ranks per chunk (default 2^22, or 2^26 on Dask; a new directory only, an existing one
        keeps its own).
    dask : str, optional
        Run the chunks as tasks on a Dask cluster instead of threads here: ``local:N`` (N
        worker processes on this machine) or a scheduler address ``tcp://HOST:PORT``
        (:mod:`perfectplay.tiers.cluster`; needs `directory`, seen by every worker).

    Returns
    -------
    TierDatabase
        Values, remoteness (and scores) of every position, for the player to move; its
        ``stats`` (:class:`SolveStats`) say what this run solved and what it kept.

    Raises
    ------
    TooLargeError
        If a tier with the tiers it reads would not fit in memory, or the files on the disk
        (estimated before anything is solved).
    StoreError
        If `directory` holds another game's tiers or damaged files.
    InputFormatError
        If `jobs` or `chunk_size` is not a positive number (a chunk size above 2^18 must be a
        multiple of 2^18, the block size), or `dask` is given without `directory`.
    ClusterError
        If the Dask cluster cannot be reached or fails (see `dask`).
    GameDefinitionError
        If the game breaks the protocol.

    Notes
    -----
    Cost: every slot's moves generated once (``children``), each child looked up once in a
    child tier's records; loopy tiers also generate the un-moves of each decided position once.
    Memory: the child tiers a tier reads (1-4 bytes per rank) plus 18 bytes per rank of each
    chunk in flight, or 22 bytes per rank of a loopy tier. Disk: the compressed records.
    """
    from perfectplay.tiers.database import TierDatabase

    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise InputFormatError(f"jobs must be at least 1, got {jobs}")
    chunk = (DEFAULT_CHUNK if dask is None else DASK_CHUNK) if chunk_size is None else chunk_size
    block = min(BLOCK, chunk)
    if chunk < 1 or chunk % block:
        raise InputFormatError(
            f"chunk size must be a positive multiple of {BLOCK} (or smaller), got {chunk}"
        )
    order = tier_order(game)
    path = None if directory is None else os.fspath(directory)
    if dask is not None:  # Dask itself is imported only once the cluster starts
        from perfectplay.tiers.cluster import check_cluster, solve_on_cluster

        if path is None:
            raise InputFormatError("a Dask cluster solves into a tier directory: give one")
        check_cluster(dask, game, order, chunk)
    budget = _check_resources(game, order, path, jobs, chunk)
    store: DirectoryStore | MemoryStore
    if path is None:
        store = MemoryStore()
    else:
        store = DirectoryStore(path, game_manifest(game, order, chunk, block))
        chunk, block = store.chunk, store.block
    stats = SolveStats()
    try:
        if dask is not None and isinstance(store, DirectoryStore):
            solve_on_cluster(dask, game, order, store, stats, progress=progress)
        else:
            _Scheduler(game, order, store, jobs, chunk, block, budget, stats, progress).run()
    finally:
        if isinstance(store, DirectoryStore):
            store.release()  # the directory's lock, at once (a failure's traceback holds it)
    if isinstance(store, MemoryStore):
        db = TierDatabase.in_memory(game, order, store)
    else:
        db = TierDatabase.open(store.directory, game=game)
    db.stats = stats
    return db
