"""The scheduler: solve a tiered game's tiers in dependency order, in parallel chunks.

For each tier in order: skip it if a complete tier file exists; read the child tiers it needs
(memory-mapped files, decompressed once); then either solve its chunks in a thread pool (a tier
whose moves all leave it, :mod:`perfectplay.tiers.acyclic`), each chunk written to its own file
and skipped when that file exists, the chunks merged into the tier file at the end; or solve it
whole by retrograde analysis (a tier with inner moves, :mod:`perfectplay.tiers.loopy`). Child
tiers are dropped from memory as soon as no later tier needs them.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
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


def _check_resources(
    game: TieredGame, order: list[int], directory: str | None, jobs: int, chunk: int
) -> None:
    """Refuse a game whose largest tier (with its child tiers) or files will not fit."""
    sizes = {t: game.tier_size(t) for t in order}
    worst = 0.0
    worst_tier = order[0] if order else 0
    for t in order:
        children = sum(sizes[c] for c in game.child_tiers(t))
        if game.inner_moves(t):
            need = children + LOOPY_BYTES_PER_RANK * sizes[t]
        else:
            need = children + ACYCLIC_BYTES_PER_RANK * min(sizes[t], chunk) * jobs
        if directory is None:
            need += sum(sizes[c] for c in order[: order.index(t)]) - children
        if need > worst:
            worst, worst_tier = need, t
    check_memory(
        worst,
        f"{game.info.name}: tier {game.tier_label(worst_tier)} with the tiers it reads "
        f"(1 byte per rank of a solved tier)",
    )
    if directory is not None:
        disk = sum(sizes.values()) + max(sizes.values(), default=0)
        existing = os.path.abspath(directory)  # the directory is created only once accepted
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        free = shutil.disk_usage(existing).free
        if disk > free:
            raise TooLargeError(
                f"{game.info.name}: its tier files need up to {format_bytes(disk)} of disk "
                f"(1 byte per rank before compression), {directory} has {format_bytes(free)} free"
            )


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
) -> None:
    scored = game.info.scored
    starts = [start for start, _ in bounds]
    parts: dict[int, tuple[NDArray[Any], NDArray[np.int64] | None, int]] = {}
    lock = threading.Lock()

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
    _check_resources(game, order, path, jobs, chunk)
    store: DirectoryStore | MemoryStore
    if path is None:
        store = MemoryStore()
    else:
        store = DirectoryStore(path, game_manifest(game, order, chunk, block))
        chunk, block = store.chunk, store.block
    last_use = {c: i for i, t in enumerate(order) for c in game.child_tiers(t)}
    loaded: dict[int, SolvedTier] = {}
    most: dict[int, int] = {}
    stats = SolveStats()
    if dask is not None and isinstance(store, DirectoryStore):
        solve_on_cluster(dask, game, order, store, stats, progress=progress)
    for index, tier in enumerate(order if dask is None else []):
        if store.complete(tier):
            stats.tiers_kept += 1
            continue
        stats.tiers_solved += 1
        for c in game.child_tiers(tier):
            if c not in loaded:
                loaded[c] = store.load(c, threads=jobs)
            if c not in most:
                most[c] = store.max_remoteness(c)
        children = [loaded[c] for c in game.child_tiers(tier)]
        size = game.tier_size(tier)
        with progress_bar(size, game.tier_label(tier), progress) as bar:
            if game.inner_moves(tier):
                records, top = solve_loopy(game, tier, children, jobs=jobs, advance=bar.update)
                store.put(tier, records, None, top)
                del records
            else:
                bound = 1 + max((most[c] for c in game.child_tiers(tier)), default=-1)
                _solve_chunked(
                    game, tier, store, children, chunk_bounds(size, chunk, block), jobs,
                    record_dtype(bound), bar.update, stats,
                )  # fmt: skip
        for c in list(loaded):
            if last_use.get(c, -1) <= index:
                del loaded[c]
    if isinstance(store, MemoryStore):
        db = TierDatabase.in_memory(game, order, store)
    else:
        db = TierDatabase.open(store.directory, game=game)
    db.stats = stats
    return db
