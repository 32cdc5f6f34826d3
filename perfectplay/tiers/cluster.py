"""The tier engine on a Dask cluster: each chunk of a tier is a task run by the workers.

``solve_tiers(game, DIR, dask="local:N")`` (``perfectplay solve GAME --tiers DIR --dask
local:N``) starts a :class:`distributed.LocalCluster` of N worker processes on this machine
and prints its dashboard's address; ``dask="tcp://HOST:PORT"`` connects to a running
scheduler. This process, the *driver*, runs the one scheduler of the tier engine
(:mod:`perfectplay.tiers.scheduler`) over the cluster's executor, which only submits, merges
and drops: starting a tier submits one task (:func:`~perfectplay.tiers.tasks.chunk_task`) per
chunk whose file is missing, under a deterministic key (the directory, tier and chunk),
earlier tiers first; a tier with inner moves is one task
(:func:`~perfectplay.tiers.tasks.loopy_task`) on its share of the cluster's threads, but at
least two (:data:`LOOPY_THREADS`). A progress bar per running tier is fed by the finished
tasks; once a tier's tasks have all ended the driver merges its chunk files into the tier file
itself. Copies the scheduler drops are removed on every worker
(:func:`~perfectplay.tiers.tasks.drop_tiers`). Workers read the child tiers from DIR and write
their chunk files into it: DIR must be the same path on every machine. A tier's files do not
depend on which tiers ran beside it: they are byte-identical to a run of one tier at a time.

Memory, per machine (the one with most worker processes and threads): the scheduler's formula
(:class:`~perfectplay.tiers.scheduler.Machine`) with the copies a machine holds (once in shared
memory, where a tier is also assembled from its chunks, else once per worker process); the
refusal up front (:func:`check_cluster`, local clusters) takes the worst tier alone.

Faults are Dask's and the files': a worker lost mid-task has its tasks run again elsewhere,
and a task finding its chunk file done does nothing; a driver killed and run again keeps every
complete chunk and tier (:class:`~perfectplay.tiers.engine.SolveStats` counts them). Dask itself is
opened by :mod:`perfectplay._dask`.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import os
import sys
from collections import Counter
from collections.abc import Collection, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import Any, NamedTuple

import numpy as np

from perfectplay._dask import dask_client, parse_dask
from perfectplay._memory import check_memory
from perfectplay.errors import ClusterError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.plan import SolveStats, chunk_bounds, progress_bar
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.scheduler import Machine, Scheduler
from perfectplay.tiers.shared import has_room
from perfectplay.tiers.storage import DirectoryStore
from perfectplay.tiers.tasks import (
    TaskResult,
    chunk_task,
    clean_up,
    drop_tiers,
    game_class,
    loopy_task,
    solve_token,
)

__all__ = ["LOOPY_THREADS", "ClusterRun", "check_cluster", "solve_on_cluster", "throughput"]

LOOPY_THREADS = 2
"""The fewest threads a tier with inner moves is given (at most its machine's cores). A tier
keeps its threads to its end, and one started beside small tiers often ends alone, the memory
budget holding the next large tiers back: on a share of one thread it would leave the other
cores idle (Quixo 4x4 on ``local:2``: 39.9 to 44.7 s wall, against 33.4 s with two threads;
docs/distributed.md). With many tiers side by side, each worker thread runs at most two
(twice the cores, where the workers have a thread per core)."""


def check_cluster(
    spec: str,
    game: TieredGame,
    order: list[int],
    chunk: int,
    left: Collection[int] | None = None,
) -> None:
    """Refuse, before anything is written, what cannot run: a bad `spec`, a game workers
    cannot rebuild, or a ``local:N`` cluster whose N workers would not fit in memory together
    with the worst tier alone (each maps the child tiers of the tier being solved, and the
    tier is assembled from its chunks, one copy of each in shared memory if it has room; each
    worker solves a chunk per thread; a tier with inner moves is solved by one worker). Tiers
    run side by side only within the same figure (:func:`solve_on_cluster`). `left` are the
    tiers of `order` to solve (default: all), whose worst is checked.

    Raises
    ------
    InputFormatError
        A bad `spec`, or a game its class cannot rebuild from its parameters.
    ClusterError
        If Dask is not installed.
    TooLargeError
        If the local workers' peak memory exceeds what this machine has available.
    """
    target = parse_dask(spec)
    game_class(game)
    if importlib.util.find_spec("distributed") is None:
        raise ClusterError("--dask needs Dask: pip install 'perfectplay[dask]'")
    left = order if left is None else left
    if isinstance(target, str) or not left:
        return  # the workers run on other machines: docs/distributed.md says what each needs
    processes, threads = target
    sizes = {t: game.tier_size(t) for t in order}
    shared = has_room(_room(game, sizes))
    machine = Machine(
        game, sizes, chunk, processes * threads, copies=1 if shared else processes, assembles=shared
    )
    worst = max(left, key=machine.alone)
    check_memory(
        machine.alone(worst),
        f"{game.info.name} on {processes} local Dask worker processes: tier "
        f"{game.tier_label(worst)} (each worker reads its child tiers, 1 byte per rank)",
    )


def _send_own_module(client: Any, game: TieredGame) -> None:
    """Send the game's module to every worker when it is a file in the current directory
    (``--game mygame:MyGame`` with ``mygame.py`` beside the user), so that workers started in
    other directories or on other machines import it (:meth:`distributed.Client.upload_file`,
    which also reaches workers that join later). A package of one's own must be installed
    where the workers run (docs/distributed.md). Cost: one copy of the file per worker."""
    module = sys.modules.get(type(game).__module__)
    path = getattr(module, "__file__", None)
    if path and path.endswith(".py") and os.path.dirname(os.path.abspath(path)) == os.getcwd():
        client.upload_file(path)


def _room(game: TieredGame, sizes: Mapping[int, int]) -> int:
    """Shared memory that the worst tier takes alone: its child tiers and itself, 1 byte per
    rank each."""
    return max(s + sum(sizes[c] for c in game.child_tiers(t)) for t, s in sizes.items())


class ClusterRun(NamedTuple):
    """What a solve on the cluster ran."""

    results: list[TaskResult]
    """What each task did, in the order they ended."""
    side_by_side: int
    """The most tiers that had tasks in flight at once."""


class _Running:
    """A tier started on the cluster: its progress bar, chunks and tasks not yet ended."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.starts: list[int] = []
        self.left = 0


class _Dask:
    """The executor of a Dask cluster (:class:`~perfectplay.tiers.scheduler.Executor`): a
    tier's chunks are tasks, merged here once they all ended; copies are dropped on every
    worker."""

    queued, least = True, LOOPY_THREADS

    def __init__(
        self,
        client: Any,
        game: TieredGame,
        order: list[int],
        store: DirectoryStore,
        stats: SolveStats,
        progress: bool | None,
    ) -> None:
        from distributed import as_completed

        self.client, self.game, self.store = client, game, store
        self.stats, self.progress = stats, progress
        self.name, self.params = game_class(game)
        # What the workers get: the same store with an absolute path (their working folders
        # differ from the driver's).
        self.remote = copy.copy(store)
        self.remote.directory = os.path.abspath(store.directory)
        self.token = solve_token(self.remote.directory)
        self.priority = {t: -i for i, t in enumerate(order)}  # earlier tiers first
        self.sizes = {t: game.tier_size(t) for t in order}
        workers = list(client.scheduler_info(n_workers=-1)["workers"].values())
        self.threads = sum(int(w["nthreads"]) for w in workers)
        processes = max(Counter(str(w["host"]) for w in workers).values())
        threads = processes * max(int(w["nthreads"]) for w in workers)  # on one machine
        shared = all(client.run(has_room, _room(game, self.sizes) if order else 0).values())
        copies = 1 if shared else processes
        self.machine = Machine(game, self.sizes, store.chunk, threads, copies, shared)
        self.running: dict[int, _Running] = {}
        self.done: list[int] = []  # tiers ended with nothing to run
        self.owner: dict[Any, int] = {}  # a future in flight -> its tier
        self.pending = as_completed()  # type: ignore[no-untyped-call]
        self.results: list[TaskResult] = []
        self.side_by_side = 0
        self.dropping = ThreadPoolExecutor(1)  # drops sent while the driver goes on
        self.drops: list[Future[Any]] = []  # ... not yet done

    def key(self, tier: int, start: int) -> str:
        """The task key of a chunk (the same in every run on the same directory)."""
        return f"perfectplay-{self.token}-tier-{self.store.labels[tier]}-{start:014d}"

    def start(self, tier: int, threads: int) -> None:
        """Submit the tasks of `tier`: one per chunk whose file is missing, or one for a tier
        with inner moves (on `threads` threads), once the copies dropped are gone."""
        game, store = self.game, self.store
        wait_for(self.drops)
        self.drops.clear()
        running = self.running[tier] = _Running(
            progress_bar(self.sizes[tier], game.tier_label(tier), self.progress)
        )
        job = (self.name, self.params, self.remote, tier)
        priority = self.priority[tier]
        if game.inner_moves(tier):
            key = self.key(tier, 0) + "-loopy"
            futures = [self.client.submit(loopy_task, *job, threads, key=key, priority=priority)]
        else:
            bounds = chunk_bounds(self.sizes[tier], store.chunk, store.block)
            running.starts = [start for start, _ in bounds]
            todo = []
            for start, stop in bounds:
                if store.chunk_done(tier, start):
                    self.stats.chunks_kept += 1
                    running.bar.update(stop - start)
                else:
                    todo.append((start, stop))
            most = max((store.max_remoteness(c) for c in game.child_tiers(tier)), default=-1)
            dtype = np.dtype(record_dtype(1 + most)).name
            futures = [
                self.client.submit(
                    chunk_task, *job, *b, dtype, key=self.key(tier, b[0]), priority=priority
                )
                for b in todo
            ]
        running.left = len(futures)
        for future in futures:
            self.owner[future] = tier
            self.pending.add(future)  # type: ignore[no-untyped-call]
        in_flight = sum(1 for r in self.running.values() if r.left)
        self.side_by_side = max(self.side_by_side, in_flight)
        if not futures:
            self._finish(tier)

    def ended(self) -> list[int]:
        """Count the tasks that end until a tier has ended; finish it (the merge)."""
        from distributed import KilledWorker

        while not self.done:
            future = next(self.pending)
            tier = self.owner.pop(future)
            running = self.running[tier]
            try:
                done: TaskResult = future.result()
            except KilledWorker as error:
                raise ClusterError(
                    f"tier {self.store.labels[tier]}, task {future.key}: the workers running it "
                    f"died again and again ({error}); out of memory?"
                ) from None
            self.results.append(done)
            if not self.game.inner_moves(tier):
                if done.solved:
                    self.stats.chunks_solved += 1
                else:
                    self.stats.chunks_kept += 1
            running.bar.update(done.ranks)
            running.left -= 1
            if not running.left:
                self._finish(tier)
        ended, self.done = self.done, []
        return ended

    def _finish(self, tier: int) -> None:
        """Merge the chunk files of `tier` into its tier file (or check the file of a tier
        with inner moves)."""
        store = self.store
        if self.game.inner_moves(tier):
            if not store.complete(tier):
                raise ClusterError(
                    f"{store.tier_path(tier)} is missing although its task ended: the workers "
                    "do not write to the directory this driver reads"
                )
        else:
            starts = self.running[tier].starts
            missing = [s for s in starts if not store.chunk_done(tier, s)]
            if missing:
                raise ClusterError(
                    f"{store.chunk_path(tier, missing[0])} is missing although its task ended: "
                    "the workers do not write to the directory this driver reads (give every "
                    "machine the same shared path)"
                )
            store.merge(tier, starts)
        self.running.pop(tier).bar.close()
        self.done.append(tier)

    def drop(self, tiers: Collection[int]) -> None:
        """Remove the workers' copies of `tiers`, from a thread of the driver while it goes on
        (the next tier starts once they are gone)."""
        job = self.dropping.submit(self.client.run, drop_tiers, self.remote, sorted(tiers))
        self.drops.append(job)

    def close(self, failed: bool) -> None:
        """Close the progress bars; after a failure, wait for the tasks in flight (their
        shared copies)."""
        if failed:
            from distributed import wait

            with contextlib.suppress(Exception):  # a cluster that failed may not answer
                wait(list(self.owner))  # type: ignore[no-untyped-call]
        for running in self.running.values():
            running.bar.close()
        self.dropping.shutdown()


def solve_on_cluster(
    spec: str,
    game: TieredGame,
    order: list[int],
    store: DirectoryStore,
    stats: SolveStats,
    *,
    progress: bool | None = None,
    budget: int | None = None,
) -> ClusterRun:
    """Solve every tier of `game` not complete in `store` on a Dask cluster, independent
    tiers side by side.

    Parameters
    ----------
    spec : str
        ``local:N`` (a LocalCluster of N worker processes, one thread each) or a scheduler
        address ``tcp://HOST:PORT``.
    game : TieredGame
        The tiered game; each worker rebuilds it from its class and parameters.
    order : list of int
        The tiers, children first (:func:`~perfectplay.tiers.engine.tier_order`): ready tiers
        start in this order.
    store : DirectoryStore
        The tier directory; workers must see it at the same (absolute) path.
    stats : SolveStats
        Counts of tiers and chunks solved here and kept from earlier runs (updated).
    progress : bool, optional
        A progress bar per tier; default: when standard error is a terminal.
    budget : int, optional
        Bytes per machine that the tiers running at once stay within (a tier alone starts
        whatever it needs). Default: what the worst tier left to solve needs alone, the figure
        :func:`check_cluster` checks for a local cluster.

    Returns
    -------
    ClusterRun
        The tasks' results, and the most tiers that ran side by side.

    Raises
    ------
    InputFormatError
        A bad `spec`, or a game its class cannot rebuild from its parameters.
    ClusterError
        The scheduler cannot be reached or has no worker; a worker does not see the
        directory; a task's workers kept dying.

    Notes
    -----
    Cost: the tasks' (:mod:`perfectplay.tiers.tasks`) plus, on the driver, one merge per tier
    (a read and a write of the compressed chunk files). Memory per machine: the copies of the
    child tiers of the running tiers and of the running tiers themselves (1 byte per rank,
    once in shared memory, :mod:`perfectplay.tiers.shared`), each worker thread's chunk (18
    bytes per rank) and each tier with inner moves (up to 11 bytes per rank), within `budget`.
    """
    with dask_client(spec) as client:
        _send_own_module(client, game)
        # Shared copies left by a killed run's workers, before the room is measured.
        client.run(clean_up, os.path.abspath(store.directory))
        executor = _Dask(client, game, order, store, stats, progress)
        machine = executor.machine
        alone = max((machine.alone(t) for t in order if not store.complete(t)), default=0)
        scheduler = Scheduler(
            game, order, executor, machine, alone if budget is None else budget, stats
        )
        try:
            scheduler.run(complete=[t for t in order if store.complete(t)])
        finally:  # the machines' shared child tiers freed, even after a failed task
            with contextlib.suppress(Exception):  # a cluster that failed may not answer
                client.run(clean_up, executor.remote.directory)
        if any(r.solved for r in executor.results):
            print(throughput(executor.results), file=sys.stderr)
        return ClusterRun(executor.results, executor.side_by_side)


def throughput(results: list[TaskResult]) -> str:
    """One line on the tasks that solved something: ranks per second of task time per worker.

    The rate to size a cluster by: a tier of R ranks takes about R / (rate x workers) seconds
    once the workers hold its child tiers.

    Examples
    --------
    >>> done = [TaskResult(5, 0, 4 << 20, True, 0.5, 0.4, "a:1"), TaskResult(5, 4 << 20,
    ...         4 << 20, True, 0.5, 0.4, "b:2"), TaskResult(5, 8 << 20, 9, False, 0, 0, "a:1")]
    >>> print(throughput(done))
    Dask: 2 tasks on 2 worker processes solved 8,388,608 ranks in 1.00 s of task time (0.80 s
    CPU): 8.39 M ranks/s per worker (10.49 per CPU second)
    """
    solved = [r for r in results if r.solved]
    ranks = sum(r.ranks for r in solved)
    seconds = sum(r.seconds for r in solved)
    cpu = sum(r.cpu for r in solved)
    return (
        f"Dask: {len(solved)} tasks on {len({r.worker for r in solved})} worker processes "
        f"solved {ranks:,} ranks in {seconds:.2f} s of task time ({cpu:.2f} s CPU): "
        f"{_per(ranks, seconds)} M ranks/s per worker ({_per(ranks, cpu)} per CPU second)"
    )


def _per(ranks: int, seconds: float) -> str:
    return f"{ranks / seconds / 1e6:.2f}" if seconds > 0 else "-"
