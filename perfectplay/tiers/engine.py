"""The tier engine in this process: ``solve_tiers`` and the executor of threads.

:func:`solve_tiers` refuses what cannot fit (before the plan from the largest tiers, then from
every tier: the worst tier alone, its child tiers at 1 byte per rank and its work arrays, and
the files on the disk), opens the store (a tier directory, resumed, or memory) and hands the
tiers to the one :class:`~perfectplay.tiers.scheduler.Scheduler`, over threads here or over a
Dask cluster (:mod:`perfectplay.tiers.cluster`). Here each running tier has a thread of its
own and keeps an equal share of the ``jobs`` threads to its end: it reads the child tiers it
needs (decompressed once, kept while a tier left to solve reads them), then either solves its
chunks on its threads (a tier whose moves all leave it, :mod:`perfectplay.tiers.acyclic`),
each chunk written to its own file and skipped when that file exists, the chunks merged into
the tier file at the end; or solves it whole by retrograde analysis (a tier with inner moves,
:mod:`perfectplay.tiers.loopy`). A tier's files do not depend on which tiers ran beside it or
on how many threads it had: they are byte-identical to a run of one tier at a time. Tiers
solved in memory (no directory) run one at a time, every solved tier being kept.
:func:`solve_some_tiers` runs the same on some tiers of a directory and the missing tiers they
read, and no other.
"""

from __future__ import annotations

import dataclasses
import heapq
import os
import shutil
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory, format_bytes
from perfectplay.errors import InputFormatError, SolveStoppedError, TooLargeError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.acyclic import solve_range
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import solve_loopy
from perfectplay.tiers.plan import (
    BLOCK,
    DASK_CHUNK,
    DEFAULT_CHUNK,
    SolveStats,
    chunk_bounds,
    progress_bar,
    tier_order,
    tiers_read,
)
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.scheduler import Machine, Scheduler
from perfectplay.tiers.storage import (
    MANIFEST,
    DirectoryStore,
    MemoryStore,
    game_manifest,
    read_manifest,
    tier_file,
)

__all__ = [
    "DASK_CHUNK",
    "DEFAULT_CHUNK",
    "SolveStats",
    "chunk_bounds",
    "refuse_early",
    "solve_some_tiers",
    "solve_tiers",
    "tier_order",
]


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


def _refuse(game: TieredGame, tier: int, need: int) -> None:
    check_memory(
        need,
        f"{game.info.name}: tier {game.tier_label(tier)} with the tiers it reads "
        f"(1 byte per rank of a solved tier)",
    )


_FIRST_LOOK = 64
"""The largest tiers whose needs are checked before the plan (:func:`refuse_early`)."""


def refuse_early(
    game: TieredGame,
    chunk_size: int | None = None,
    *,
    dask: bool = False,
    tiers: Collection[int] | None = None,
    directory: str | None = None,
) -> None:
    """Refuse, before planning (the child tiers of every tier, minutes for Connect Four 7x6's
    412,972 tiers), a game one of whose 64 largest tiers (of `tiers`, when given) does not fit
    with the tiers it reads on one thread: a figure every solve of that tier needs at least.
    A tier whose file `directory` holds is not solved again, so not checked.
    :func:`solve_tiers` calls it first; a front end may call it before saying that a solve
    starts.

    Parameters
    ----------
    game : TieredGame
        The game.
    chunk_size : int, optional
        Ranks per chunk, as :func:`solve_tiers` takes it (default: its default).
    dask : bool
        Whether the solve runs on a Dask cluster (its default chunk is larger).
    tiers : collection of int, optional
        The tiers to solve (:func:`solve_some_tiers`; default: every tier).
    directory : str, optional
        The tier directory the solve resumes, if any (its own chunk size is checked).

    Raises
    ------
    TooLargeError
        If one of the largest tiers with the tiers it reads would not fit in memory.
    InputFormatError
        If `chunk_size` is not a valid chunk size.

    Notes
    -----
    Cost: the child tiers and sizes of 64 tiers, found by the game's
    :meth:`~perfectplay.protocol.tiered.TieredGame.largest_tiers` where it has one, else the
    size of every tier; with `directory`, a ``stat`` of each of the 64 tiers' files.
    """
    chunk, _ = _chunking(chunk_size, dask, directory)
    if tiers is None:
        largest = game.largest_tiers(_FIRST_LOOK)
    else:
        largest = heapq.nlargest(_FIRST_LOOK, tiers, key=game.tier_size)
    if largest is None:
        sizes = {int(t): game.tier_size(t) for t in game.tiers()}
        largest = heapq.nlargest(_FIRST_LOOK, sizes, key=sizes.__getitem__)
    else:
        reads = {int(c) for t in largest for c in game.child_tiers(t)}
        sizes = {t: game.tier_size(t) for t in {*map(int, largest), *reads}}
    machine = Machine(game, sizes, chunk, threads=1, copies=1, assembles=False)
    for tier in _left(game, largest, directory):
        if all(int(c) in sizes for c in game.child_tiers(tier)):  # else tier_order says why
            _refuse(game, int(tier), machine.alone(int(tier)))


def _left(game: TieredGame, tiers: Iterable[int], directory: str | None) -> list[int]:
    """The tiers of `tiers` whose file `directory` lacks (all of them without a directory),
    in their order. Cost: a ``stat`` per tier."""
    if directory is None:
        return [int(t) for t in tiers]
    return [int(t) for t in tiers if not os.path.exists(tier_file(directory, game.tier_label(t)))]


def _chunking(chunk_size: int | None, dask: bool, directory: str | None = None) -> tuple[int, int]:
    """``(chunk, block)``: ranks per chunk (`chunk_size`, or the default of threads or of
    Dask) and per block, checked; an existing `directory`'s own (its manifest's), in which it
    is solved whatever was asked."""
    chunk = (DASK_CHUNK if dask else DEFAULT_CHUNK) if chunk_size is None else chunk_size
    block = min(BLOCK, chunk)
    if chunk < 1 or chunk % block:
        raise InputFormatError(
            f"chunk size must be a positive multiple of {BLOCK} (or smaller), got {chunk}"
        )
    if directory is not None and os.path.exists(os.path.join(directory, MANIFEST)):
        kept = read_manifest(directory)
        return kept["chunk"], kept["block"]
    return chunk, block


def _check_resources(
    game: TieredGame, order: list[int], directory: str | None, machine: Machine
) -> int:
    """Refuse a game whose largest tier left to solve (with its child tiers) or files yet to
    write will not fit; return the memory figure accepted (bytes), which tiers run at once
    stay within. A tier whose file a resumed solve finds is not solved: it is not counted."""
    sizes = machine.sizes
    todo = _left(game, order, directory)
    worst, worst_tier = 0, todo[0] if todo else 0
    solved = 0  # in memory, every tier solved before is kept
    for t in todo:
        need = machine.alone(t)
        if directory is None:
            need += solved - sum(sizes[c] for c in set(game.child_tiers(t)))
            solved += sizes[t]
        if need > worst:
            worst, worst_tier = need, t
    if todo:
        _refuse(game, worst_tier, worst)
    if directory is not None:  # the tiers a resumed solve has yet to write
        disk = sum(_stored_estimate(game, t, sizes[t]) for t in todo)
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


class _Threads:
    """The executor of threads in this process: each tier in a thread of its own, its chunks
    on the threads it was given (:class:`~perfectplay.tiers.scheduler.Executor`)."""

    queued, least = False, 1

    def __init__(
        self,
        game: TieredGame,
        store: DirectoryStore | MemoryStore,
        jobs: int,
        chunk: int,
        block: int,
        stats: SolveStats,
        progress: bool | None,
    ) -> None:
        self.game, self.store, self.stats, self.progress = game, store, stats, progress
        self.threads, self.chunk, self.block = jobs, chunk, block
        self.loaded: dict[int, SolvedTier] = {}
        self.most: dict[int, int] = {}
        self.lock = threading.Lock()  # the counts in `stats`, updated from the tiers' threads
        self.stopping = threading.Event()
        self.pool = ThreadPoolExecutor(jobs)
        self.running: dict[Future[None], int] = {}

    def start(self, tier: int, threads: int) -> None:
        for c in self.game.child_tiers(tier):
            if c not in self.loaded:
                self.loaded[c] = self.store.load(c, threads=self.threads)
            if c not in self.most:
                self.most[c] = self.store.max_remoteness(c)
        self.running[self.pool.submit(self._solve, tier, threads)] = tier

    def ended(self) -> list[int]:
        finished, _ = wait(self.running, return_when=FIRST_COMPLETED)
        for future in finished:
            future.result()  # a failure is raised here
        return [self.running.pop(future) for future in finished]

    def drop(self, tiers: Collection[int]) -> None:
        for c in tiers:
            self.loaded.pop(c, None)

    def close(self, failed: bool) -> None:
        if failed:  # the running tiers stop after their chunks in flight
            self.stopping.set()
        self.pool.shutdown()

    def _solve(self, tier: int, threads: int) -> None:
        game, store = self.game, self.store
        children = [self.loaded[c] for c in game.child_tiers(tier)]
        size = game.tier_size(tier)
        with progress_bar(size, game.tier_label(tier), self.progress) as bar:
            if game.inner_moves(tier):
                records, top = solve_loopy(game, tier, children, jobs=threads, advance=bar.update)
                store.put(tier, records, None, top)
            else:
                bound = 1 + max((self.most[c] for c in game.child_tiers(tier)), default=-1)
                self._chunked(
                    tier, children, chunk_bounds(size, self.chunk, self.block), threads,
                    record_dtype(bound), bar.update,
                )  # fmt: skip

    def _chunked(
        self,
        tier: int,
        children: Sequence[SolvedTier],
        bounds: list[tuple[int, int]],
        jobs: int,
        dtype: type[np.unsignedinteger],
        advance: Callable[[int], None],
    ) -> None:
        game, store, stats, lock = self.game, self.store, self.stats, self.lock
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
            if self.stopping.is_set():
                raise SolveStoppedError
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
    chunk in flight, or up to 11 bytes per rank of a loopy tier. Disk: the compressed records.
    """
    from perfectplay.tiers.database import TierDatabase

    path = None if directory is None else os.fspath(directory)
    order, store, stats = _solve(game, path, None, jobs, progress, chunk_size, dask)
    if isinstance(store, MemoryStore):
        db = TierDatabase.in_memory(game, order, store)
    else:
        db = TierDatabase.open(store.directory, game=game)
    db.stats = stats
    return db


def solve_some_tiers(
    game: TieredGame,
    directory: str | os.PathLike[str],
    tiers: Collection[int],
    *,
    jobs: int | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
    dask: str | None = None,
) -> SolveStats:
    """Solve `tiers` of `game` into a tier directory, with the tiers they read (directly or
    not) whose files are missing, and no other tier: the directory may stay partly solved.

    A tier whose file exists is kept, as a resumed :func:`solve_tiers` keeps it; so removing
    the files of some tiers of a solved directory and calling this on them solves exactly
    those tiers again (their files are the same, byte for byte). The other parameters and the
    errors are :func:`solve_tiers`'s.

    Parameters
    ----------
    game : TieredGame
        The game.
    directory : path
        The tier directory (created if missing; an existing one must hold `game`'s tiers).
    tiers : collection of int
        The tiers to solve (at least one).
    jobs, progress, chunk_size, dask
        As for :func:`solve_tiers`.

    Returns
    -------
    SolveStats
        The tiers and chunks this run solved, and those it kept (of the tiers `tiers` read).

    Raises
    ------
    InputFormatError
        If `tiers` is empty or names a tier `game` does not have; or as :func:`solve_tiers`.

    Examples
    --------
    >>> import os, tempfile
    >>> import perfectplay
    >>> from perfectplay.tiers.storage import tier_file
    >>> game = perfectplay.load_tiered_game("quixo", size=3)
    >>> top = next(t for t in game.tiers() if game.tier_label(t) == "1Blank_1X_7O")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = solve_some_tiers(game, d, [top], jobs=1, progress=False)
    ...     files = sorted(n for n in os.listdir(d) if n.endswith(".tier"))
    ...     os.remove(tier_file(d, "1Blank_1X_7O"))
    ...     again = solve_some_tiers(game, d, [top], jobs=1, progress=False)
    >>> files  # the tier and the two it reads, of the game's 38
    ['tier-0Blank_1X_8O.tier', 'tier-0Blank_2X_7O.tier', 'tier-1Blank_1X_7O.tier']
    >>> first.tiers_solved, (again.tiers_solved, again.tiers_kept)
    (3, (1, 2))

    Notes
    -----
    Cost: the plan of every tier of the game (:func:`~perfectplay.tiers.plan.tier_order`, as
    for :func:`solve_tiers`: the manifest lists them all), the child tiers of the tiers the
    named ones read once more, and :func:`solve_tiers`'s work for the tiers solved only.
    """
    known = {int(t) for t in game.tiers()}
    only = {int(t) for t in tiers}
    if not only:
        raise InputFormatError("give at least one tier to solve")
    strange = sorted(only - known)
    if strange:
        raise InputFormatError(f"{game.info.name} has no tier {strange[0]}")
    return _solve(game, os.fspath(directory), only, jobs, progress, chunk_size, dask)[2]


def _solve(
    game: TieredGame,
    path: str | None,
    only: Collection[int] | None,
    jobs: int | None,
    progress: bool | None,
    chunk_size: int | None,
    dask: str | None,
) -> tuple[list[int], DirectoryStore | MemoryStore, SolveStats]:
    """Solve the tiers `only` reads (None: every tier) into `path` (None: memory); return the
    plan's order of every tier, the store and what was solved and kept."""
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise InputFormatError(f"jobs must be at least 1, got {jobs}")
    chunk, block = _chunking(chunk_size, dask is not None, path)
    refuse_early(game, chunk, tiers=only, directory=path)
    order = tier_order(game)
    plan = order if only is None else tiers_read(game, order, only)
    if dask is not None:  # Dask itself is imported only once the cluster starts
        from perfectplay.tiers.cluster import check_cluster, solve_on_cluster

        if path is None:
            raise InputFormatError("a Dask cluster solves into a tier directory: give one")
        check_cluster(dask, game, plan, chunk, _left(game, plan, path))
    sizes = {t: game.tier_size(t) for t in plan}
    machine = Machine(game, sizes, chunk, threads=jobs, copies=1, assembles=False)
    budget = _check_resources(game, plan, path, machine)
    store: DirectoryStore | MemoryStore
    if path is None:
        store = MemoryStore()
    else:
        store = DirectoryStore(path, game_manifest(game, order, chunk, block))
        chunk, block = store.chunk, store.block
    stats = SolveStats()
    try:
        if dask is not None and isinstance(store, DirectoryStore):
            solve_on_cluster(dask, game, plan, store, stats, progress=progress)
        else:
            machine = dataclasses.replace(machine, chunk=chunk)
            executor = _Threads(game, store, jobs, chunk, block, stats, progress)
            scheduler = Scheduler(
                game, plan, executor, machine, budget, stats, side_by_side=path is not None
            )
            scheduler.run(complete=[t for t in plan if store.complete(t)])
    finally:
        if isinstance(store, DirectoryStore):
            store.release()  # the directory's lock, at once (a failure's traceback holds it)
    return order, store, stats
