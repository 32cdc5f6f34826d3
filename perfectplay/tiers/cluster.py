"""The tier engine on a Dask cluster: each chunk of a tier is a task run by the workers.

``solve_tiers(game, DIR, dask="local:N")`` (``perfectplay solve GAME --tiers DIR --dask
local:N``) starts a :class:`distributed.LocalCluster` of N worker processes on this machine
and prints its dashboard's address; ``dask="tcp://HOST:PORT"`` connects to a running
scheduler. This process, the *driver*, schedules tier after tier: it submits one task
(:func:`~perfectplay.tiers.tasks.chunk_task`) per chunk whose file is missing, under a
deterministic key (the directory, tier and chunk), shows a progress bar per tier fed by the
finished tasks, and merges the chunk files into the tier file itself. A tier with inner moves
is one task (:func:`~perfectplay.tiers.tasks.loopy_task`). Workers read the child tiers from
DIR and write their chunk files into it: DIR must be the same path on every machine.

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
from collections.abc import Callable
from typing import Any

import numpy as np

from perfectplay._dask import dask_client, parse_dask
from perfectplay._memory import check_memory
from perfectplay.errors import ClusterError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.loopy import LOOPY_BYTES_PER_RANK
from perfectplay.tiers.plan import ACYCLIC_BYTES_PER_RANK, SolveStats, chunk_bounds, progress_bar
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.shared import has_room
from perfectplay.tiers.storage import DirectoryStore
from perfectplay.tiers.tasks import (
    TaskResult,
    chunk_task,
    clean_up,
    game_class,
    loopy_task,
    solve_token,
)

__all__ = ["check_cluster", "solve_on_cluster", "throughput"]


def check_cluster(spec: str, game: TieredGame, order: list[int], chunk: int) -> None:
    """Refuse, before anything is written, what cannot run: a bad `spec`, a game workers
    cannot rebuild, or a ``local:N`` cluster whose N workers would not fit in memory together
    (each maps the child tiers of the tier being solved, and the tier is assembled from its
    chunks, one copy of each in shared memory if it has room; each worker solves a chunk per
    thread; a tier with inner moves is solved by one worker).

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
    if isinstance(target, str):
        return  # the workers run on other machines: docs/distributed.md says what each needs
    processes, threads = target
    worst, worst_tier = 0, order[0] if order else 0
    for tier in order:
        size = game.tier_size(tier)
        reads = sum(game.tier_size(c) for c in game.child_tiers(tier))
        shared = has_room(reads + size)  # the children and the tier assembled, one copy each
        if game.inner_moves(tier):
            need = reads + LOOPY_BYTES_PER_RANK * size + (size if shared else 0)
        else:
            copies = 1 if shared else processes  # shared by the processes, or not
            need = copies * reads + (size if shared else 0)
            need += processes * threads * ACYCLIC_BYTES_PER_RANK * min(size, chunk)
        if need > worst:
            worst, worst_tier = need, tier
    check_memory(
        worst,
        f"{game.info.name} on {processes} local Dask worker processes: tier "
        f"{game.tier_label(worst_tier)} (each worker reads its child tiers, 1 byte per rank)",
    )


class _Tiers:
    """The driver's side of one solve: the client, the game's name and the worker's store."""

    def __init__(self, client: Any, game: TieredGame, store: DirectoryStore) -> None:
        self.client = client
        self.game = game
        self.name, self.params = game_class(game)
        self.store = store
        # What the workers get: the same store with an absolute path (their working folders
        # differ from the driver's).
        self.remote = copy.copy(store)
        self.remote.directory = os.path.abspath(store.directory)
        self.token = solve_token(self.remote.directory)
        self.results: list[TaskResult] = []

    def key(self, tier: int, start: int) -> str:
        """The task key of a chunk (the same in every run on the same directory)."""
        return f"perfectplay-{self.token}-tier-{self.store.labels[tier]}-{start:014d}"

    def result(self, future: Any, what: str) -> TaskResult:
        from distributed import KilledWorker

        try:
            result: TaskResult = future.result()
        except KilledWorker as error:
            raise ClusterError(
                f"{what}: the workers running it died again and again ({error}); out of memory?"
            ) from None
        self.results.append(result)
        return result

    def chunks(self, tier: int, advance: Callable[[int], None], stats: SolveStats) -> None:
        """Solve the chunks of a tier without inner moves on the workers, then merge them."""
        from distributed import as_completed

        game, store = self.game, self.store
        bounds = chunk_bounds(game.tier_size(tier), store.chunk, store.block)
        todo = []
        for start, stop in bounds:
            if store.chunk_done(tier, start):
                stats.chunks_kept += 1
                advance(stop - start)
            else:
                todo.append((start, stop))
        bound = 1 + max((store.max_remoteness(c) for c in game.child_tiers(tier)), default=-1)
        dtype = np.dtype(record_dtype(bound)).name
        job = (self.name, self.params, self.remote, tier)
        submit = self.client.submit
        futures = [submit(chunk_task, *job, *b, dtype, key=self.key(tier, b[0])) for b in todo]
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            done = self.result(future, f"tier {store.labels[tier]}, chunk {future.key}")
            if done.solved:
                stats.chunks_solved += 1
            else:
                stats.chunks_kept += 1
            advance(done.ranks)
        starts = [start for start, _ in bounds]
        missing = [s for s in starts if not store.chunk_done(tier, s)]
        if missing:
            raise ClusterError(
                f"{store.chunk_path(tier, missing[0])} is missing although its task ended: "
                "the workers do not write to the directory this driver reads (give every "
                "machine the same shared path)"
            )
        store.merge(tier, starts)

    def loopy(self, tier: int, advance: Callable[[int], None]) -> None:
        """Solve a tier with inner moves as one task."""
        future = self.client.submit(
            loopy_task, self.name, self.params, self.remote, tier,
            key=self.key(tier, 0) + "-loopy",
        )  # fmt: skip
        done = self.result(future, f"tier {self.store.labels[tier]}")
        if not self.store.complete(tier):
            raise ClusterError(
                f"{self.store.tier_path(tier)} is missing although its task ended: the workers "
                "do not write to the directory this driver reads"
            )
        advance(done.ranks)


def solve_on_cluster(
    spec: str,
    game: TieredGame,
    order: list[int],
    store: DirectoryStore,
    stats: SolveStats,
    *,
    progress: bool | None = None,
) -> None:
    """Solve every tier of `game` not complete in `store`, in `order`, on a Dask cluster.

    Parameters
    ----------
    spec : str
        ``local:N`` (a LocalCluster of N worker processes, one thread each) or a scheduler
        address ``tcp://HOST:PORT``.
    game : TieredGame
        The tiered game; each worker rebuilds it from its class and parameters.
    order : list of int
        The tiers, children first (:func:`~perfectplay.tiers.engine.tier_order`).
    store : DirectoryStore
        The tier directory; workers must see it at the same (absolute) path.
    stats : SolveStats
        Counts of tiers and chunks solved here and kept from earlier runs (updated).
    progress : bool, optional
        A progress bar per tier; default: when standard error is a terminal.

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
    (a read and a write of the compressed chunk files). Each machine holds the child tiers of
    the tier being solved and the part of that tier solved there (1 byte per rank) once, in
    shared memory (:mod:`perfectplay.tiers.shared`), and each worker thread one chunk (18
    bytes per rank).
    """
    with dask_client(spec) as client:
        tiers = _Tiers(client, game, store)
        client.run(clean_up, tiers.remote.directory)  # shared copies of a killed run's workers
        try:
            for tier in order:
                if store.complete(tier):
                    stats.tiers_kept += 1
                    continue
                stats.tiers_solved += 1
                with progress_bar(game.tier_size(tier), game.tier_label(tier), progress) as bar:
                    if game.inner_moves(tier):
                        tiers.loopy(tier, bar.update)
                    else:
                        tiers.chunks(tier, bar.update, stats)
        finally:  # the machines' shared child tiers freed, even after a failed task
            with contextlib.suppress(Exception):  # a cluster that failed may not answer
                client.run(clean_up, tiers.remote.directory)
        if any(r.solved for r in tiers.results):
            print(throughput(tiers.results), file=sys.stderr)


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
