"""What a Dask worker runs: one chunk of a tier, or one tier with inner moves, into the files.

Module-level functions of plain, picklable arguments (:mod:`perfectplay.tiers.cluster` submits
them; nothing here imports Dask). A task names its game by its class (``"module:Class"``) and
parameters and rebuilds it once per worker process; it reads the child tiers it needs from the
tier directory, which every worker must see at the same path, and keeps them for the next tasks
(of its tier and of the other tiers running beside it) until the driver drops them
(:func:`drop_tiers`, once no tier left to solve reads them). The worker processes of one machine
share one copy of each child tier (:mod:`perfectplay.tiers.shared`), assembled there from the
chunks solved on that machine as they finish, so a machine that solved a whole tier never
decompresses it. It writes its result as a file, atomically, through the driver's
:class:`~perfectplay.tiers.storage.DirectoryStore` (sent pickled: a worker never opens the
directory anew, since opening removes the temporary files of chunks other workers are writing).
A task whose file exists does nothing, so a task run twice (a worker lost, a driver restarted)
cannot change a tier.

Examples
--------
>>> import tempfile
>>> from perfectplay.games.registry import load_tiered_game
>>> from perfectplay.tiers.engine import tier_order
>>> from perfectplay.tiers.storage import DirectoryStore, game_manifest
>>> game = load_tiered_game("connect-four", rows=3, cols=3)
>>> order = tier_order(game)
>>> store = DirectoryStore(tempfile.mkdtemp(), game_manifest(game, order, 1 << 18, 1 << 18))
>>> target, params = game_class(game)
>>> size = game.tier_size(order[0])
>>> first = chunk_task(target, params, store, order[0], 0, size, "uint8")
>>> first.solved, first.ranks == size
(True, True)
>>> chunk_task(target, params, store, order[0], 0, size, "uint8").solved  # done already
False
>>> clean_up(store.directory)  # what the driver runs at the end: the tier's copy in /dev/shm
1
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from perfectplay._targets import class_target, import_target
from perfectplay.errors import ClusterError, InputFormatError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.acyclic import solve_range
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import solve_loopy
from perfectplay.tiers.shared import (
    building_name,
    load_shared,
    release_shared,
    release_tier,
    remove_shared,
    share_chunk,
    shared_name,
)
from perfectplay.tiers.storage import MANIFEST, DirectoryStore

__all__ = [
    "TaskResult",
    "cached_tiers",
    "chunk_task",
    "clean_up",
    "drop_tiers",
    "loopy_task",
    "solve_token",
]

_lock = threading.Lock()  # a worker with several threads runs several tasks at once
_reading = threading.Lock()  # held while a child tier is read (not _lock: the driver's drops
# run in the worker's event loop and must not wait for a read)
_games: dict[tuple[str, tuple[tuple[str, Any], ...]], TieredGame] = {}
_tiers: dict[tuple[str, int, int, int], tuple[SolvedTier, str]] = {}
"""Child tiers mapped by this process and the names of their shared copies, by (directory,
tier, inode, mtime) of the tier file: a directory solved again (another game, or removed and
re-solved) is never answered from here."""


class TaskResult(NamedTuple):
    """What one task did, for the driver's progress bar and counts."""

    tier: int
    start: int
    """The first rank of the chunk (0 for a whole tier)."""
    ranks: int
    """Ranks of the chunk or tier."""
    solved: bool
    """False if the file existed already (an earlier run, or a retried task, wrote it)."""
    seconds: float
    """Time spent solving and writing (0 if not solved)."""
    cpu: float
    """CPU time of the task's thread while solving and writing (0 if not solved)."""
    worker: str
    """The host and process that ran the task."""
    began: float = 0.0
    """When the task began solving, in seconds since the epoch on its machine (0 if not
    solved): tasks of tiers running side by side overlap."""
    ended: float = 0.0
    """When the task's file was written, likewise."""


def game_class(game: TieredGame) -> tuple[str, dict[str, Any]]:
    """The class (``"module:Class"``) and parameters that rebuild `game` in a worker process.

    Raises
    ------
    InputFormatError
        If the class built with ``game.info.params`` is not the same game (its constructor
        does not take its parameters as keywords).
    """
    cls = type(game)
    target, params = class_target(cls), dict(game.info.params)
    try:
        same = _game(target, params).info == game.info
    except Exception:  # any constructor failure means the class cannot rebuild it
        same = False
    if not same:
        raise InputFormatError(
            f"{game.info.name}: a game runs on a Dask cluster only if {target}(**params) "
            "rebuilds it from the parameters in its GameInfo (each worker rebuilds the game)"
        )
    return target, params


def _game(target: str, params: Mapping[str, Any]) -> TieredGame:
    key = (target, tuple(sorted(params.items())))
    with _lock:
        game = _games.get(key)
        if game is None:
            game = _games[key] = import_target(target)(**params)
    return game


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _check_directory(store: DirectoryStore) -> None:
    if not os.path.isfile(os.path.join(store.directory, MANIFEST)):
        raise ClusterError(
            f"the worker {_worker()} does not see the tier directory {store.directory}: "
            "every worker needs it at the same path (a shared filesystem)"
        )


def solve_token(directory: str) -> str:
    """A short name for the solve into `directory` (an absolute path), the same on every
    machine: it prefixes the solve's task keys and its shared files."""
    return hashlib.sha1(directory.encode()).hexdigest()[:12]


def _children(game: TieredGame, store: DirectoryStore, tier: int) -> list[SolvedTier]:
    """The solved child tiers of `tier`, mapped from this machine's shared copies (made by the
    first process that needs them) and kept for the next tasks; a tier solved again (another
    inode or time) replaces its old copy."""
    keys = []
    for child in game.child_tiers(tier):
        stat = os.stat(store.tier_path(child))
        keys.append((store.directory, child, stat.st_ino, stat.st_mtime_ns))
    with _reading:  # the process's other tasks wait for a tier being read: every core reads
        with _lock:
            for key in [k for k in _tiers if k[:2] in {n[:2] for n in keys} and k not in keys]:
                release_shared(_tiers.pop(key)[1])
            found = {key: _tiers[key][0] for key in keys if key in _tiers}
        token = solve_token(store.directory)
        for key in [k for k in keys if k not in found]:
            base = shared_name(store, key[1], token)
            building = building_name(store, key[1], token)
            found[key] = load_shared(store, key[1], base, os.cpu_count() or 1, building)
            with _lock:
                _tiers[key] = (found[key], base)
    return [found[key] for key in keys]


def _share(store: DirectoryStore, tier: int, size: int, start: int, arrays: dict[str, Any]) -> None:
    """Write solved ranks of `tier` (`size` ranks) into this machine's copy of it in shared
    memory too, for the tasks of its parent tiers (ranks not shared there are read from the
    tier file)."""
    name = building_name(store, tier, solve_token(store.directory))
    share_chunk(name, size, store.block, start, arrays)


def clean_up(directory: str) -> int:
    """Drop this process's child tiers of the solve into `directory` and remove this machine's
    shared copies of them; how many shared files there were.

    The driver runs it on every worker at the start of a solve (copies left by killed workers)
    and at its end.
    """
    with _lock:
        for key in [k for k in _tiers if k[0] == directory]:
            del _tiers[key]
    return remove_shared(solve_token(directory))


def drop_tiers(store: DirectoryStore, tiers: list[int]) -> int:
    """Drop this process's copies of `tiers` of `store` and remove this machine's shared copies
    of them (as child tiers, and as assembled while they were solved); how many shared files
    there were.

    The driver runs it on every worker once no tier running or left to solve reads `tiers`
    (or to make room for the next tier, which then reads them again from their files). Cost:
    a few file-name look-ups and removals per tier; the memory is freed once no task of this
    machine maps the copies.
    """
    with _lock:
        for key in [k for k in _tiers if k[0] == store.directory and k[1] in tiers]:
            del _tiers[key]
        token = solve_token(store.directory)
        return sum(release_tier(store, tier, token) for tier in tiers)


def cached_tiers() -> list[tuple[str, int]]:
    """The (directory, tier) pairs of the child tiers this process holds in memory."""
    with _lock:
        return sorted((k[0], k[1]) for k in _tiers)


def chunk_task(
    game_target: str,
    params: Mapping[str, Any],
    store: DirectoryStore,
    tier: int,
    start: int,
    stop: int,
    dtype_name: str,
) -> TaskResult:
    """Solve the chunk ``start..stop-1`` of `tier` (a tier without inner moves) into its file.

    Parameters
    ----------
    game_target, params : the game's class and parameters (:func:`game_class`).
    store : DirectoryStore
        The driver's store of the tier directory (its chunk size and file names).
    tier, start, stop : the tier and the chunk's ranks
        (:func:`~perfectplay.tiers.engine.chunk_bounds`).
    dtype_name : str
        The record dtype (``"uint8"``, ...): wide enough for 1 + the child tiers' largest
        remoteness, the same for every chunk of the tier.

    Returns
    -------
    TaskResult

    Raises
    ------
    ClusterError
        If this worker does not see the tier directory.

    Notes
    -----
    Cost: :func:`~perfectplay.tiers.acyclic.solve_range` over the chunk, plus reading the
    child tiers the first time this process meets the tier (1 byte per rank each, kept).
    """
    game = _game(game_target, params)
    _check_directory(store)
    if store.chunk_done(tier, start):
        return TaskResult(tier, start, stop - start, False, 0.0, 0.0, _worker())
    children = _children(game, store, tier)
    began, clock, cpu = time.perf_counter(), time.time(), time.thread_time()
    records, most, score = solve_range(
        game, tier, start, stop, children, dtype=np.dtype(dtype_name).type,
        scored=game.info.scored,
    )  # fmt: skip
    arrays = {"records": records} if score is None else {"records": records, "scores": score}
    store.put_chunk(tier, start, stop, arrays, most)
    _share(store, tier, game.tier_size(tier), start, arrays)
    return TaskResult(
        tier, start, stop - start, True, time.perf_counter() - began, time.thread_time() - cpu,
        _worker(), clock, time.time(),
    )  # fmt: skip


def loopy_task(
    game_target: str,
    params: Mapping[str, Any],
    store: DirectoryStore,
    tier: int,
    threads: int = 0,
) -> TaskResult:
    """Solve a whole tier with inner moves by retrograde analysis into its tier file.

    The tier is solved on `threads` threads, at most the cores of the worker's machine (0:
    every core; the driver gives each of the tiers running side by side its share of the
    cluster's threads). Cost and memory: :func:`~perfectplay.tiers.loopy.solve_loopy` (up to
    11 bytes per rank) plus the child tiers.

    Raises
    ------
    ClusterError
        If this worker does not see the tier directory.
    """
    game = _game(game_target, params)
    size = game.tier_size(tier)
    _check_directory(store)
    if store.complete(tier):
        return TaskResult(tier, 0, size, False, 0.0, 0.0, _worker())
    children = _children(game, store, tier)
    cores = os.cpu_count() or 1
    jobs = min(threads, cores) if threads > 0 else cores
    # CPU time: on one thread, this thread's; on more, the process's (its other tasks too).
    cpu_time = time.thread_time if jobs == 1 else time.process_time
    began, clock, cpu = time.perf_counter(), time.time(), cpu_time()
    records, top = solve_loopy(game, tier, children, jobs=jobs)
    store.put(tier, records, None, top)
    _share(store, tier, size, 0, {"records": records})
    return TaskResult(
        tier, 0, size, True, time.perf_counter() - began, cpu_time() - cpu, _worker(), clock,
        time.time(),
    )  # fmt: skip
