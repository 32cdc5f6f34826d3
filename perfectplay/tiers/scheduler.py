"""The one tier scheduler: which tiers run when, within one memory formula, over any executor.

A tier is *ready* once every tier it reads is complete. Ready tiers start in the order of
:func:`~perfectplay.tiers.plan.tier_order` while the copies of tiers held in memory and the
work of every running tier fit the budget (:meth:`Machine.need`); copies that no running or
remaining tier reads are dropped, and so are copies held for tiers not running yet when a tier
needs their room (they are read again later). A tier alone always starts: the figure checked
up front is the worst tier alone (:meth:`Machine.alone`). A game whose tiers form a chain
(Connect Four, Teeko) thus runs one tier at a time, Quixo's tiers by cube counts side by side.

Where the work runs is the :class:`Executor`'s business: threads of this process
(:mod:`perfectplay.tiers.engine`) or tasks on a Dask cluster (:mod:`perfectplay.tiers.cluster`).
Threads here belong to the tier that got them until it ends, so a tier starts only with free
threads; a cluster's tasks queue on every worker thread (``queued``), and only a tier with
inner moves, solved by one task on several threads, keeps threads of its own. Tiers found
complete are kept; a tier whose file is missing is solved again, whatever the state of the
tiers reading it.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.loopy import loopy_bytes
from perfectplay.tiers.plan import ACYCLIC_BYTES_PER_RANK, SolveStats

__all__ = ["Executor", "Machine", "Scheduler"]


@dataclass(frozen=True)
class Machine:
    """The memory of one machine while tiers run: the copies of tiers it holds and the
    running tiers' work (the one memory formula of both executors).

    A held copy is 1 byte per rank, ``copies`` times (the worker processes of a machine that
    do not share memory each read their own). Where ``assembles``, a running tier is held too,
    assembled from its chunks as they end (a Dask machine with shared memory). A tier with
    inner moves works in :func:`~perfectplay.tiers.loopy.loopy_bytes` (at most
    ``LOOPY_BYTES_PER_RANK`` bytes per rank for most games); chunks take
    ``ACYCLIC_BYTES_PER_RANK`` bytes per rank on each thread a tier has, and at most on the
    machine's ``threads``.

    Examples
    --------
    >>> import perfectplay
    >>> game = perfectplay.load_tiered_game("quixo", size=3)
    >>> sizes = {t: game.tier_size(t) for t in game.tiers()}
    >>> here = Machine(game, sizes, 4096, threads=2, copies=1, assembles=False)
    >>> a, b = [t for t in game.tiers() if game.counts(t) in ((2, 1), (1, 2))]
    >>> reads = sum(sizes[c] for c in game.child_tiers(a))
    >>> here.alone(a) == reads + loopy_bytes(sizes[a], True, game.max_moves())
    True
    >>> here.need({*game.child_tiers(a), *game.child_tiers(b)}, {a: 1, b: 1}) > here.alone(a)
    True
    """

    game: TieredGame
    sizes: Mapping[int, int]
    chunk: int
    threads: int
    copies: int
    assembles: bool

    def need(self, held: Collection[int], running: Mapping[int, int]) -> int:
        """Bytes with the copies of the tiers `held` and the tiers `running` at work (tier ->
        its threads); a tier both held and running counts once."""
        sizes, inner = self.sizes, self.game.inner_moves
        total = sum(
            (self.assembles if t in running else self.copies) * sizes[t] for t in {*held, *running}
        )
        chunks = {t: min(sizes[t], self.chunk) for t in running if not inner(t)}
        work = min(
            sum(running[t] * c for t, c in chunks.items()),
            self.threads * max(chunks.values(), default=0),
        )
        bound = self.game.max_moves()
        loopy = sum(
            loopy_bytes(sizes[t], bool(self.game.child_tiers(t)), bound)
            for t in running
            if inner(t)
        )
        return total + ACYCLIC_BYTES_PER_RANK * work + loopy

    def alone(self, tier: int) -> int:
        """Bytes of `tier` running alone on every thread with its child tiers: the figure
        checked up front."""
        return self.need(set(self.game.child_tiers(tier)), {tier: self.threads})


class Executor(Protocol):
    """Where tiers run: threads of this process or a Dask cluster."""

    threads: int
    """Threads of the whole solve."""
    queued: bool
    """Whether tiers' chunks queue on every thread (a cluster): only a tier with inner moves
    keeps threads of its own; otherwise a tier keeps the threads it got until it ends."""
    least: int
    """The fewest threads a tier with inner moves is given."""

    def start(self, tier: int, threads: int) -> None:
        """Begin solving `tier` on `threads` threads; its child tiers are to be held."""

    def ended(self) -> list[int]:
        """The tiers that ended since the last call (waits for one); raises a failure."""
        ...

    def drop(self, tiers: Collection[int]) -> None:
        """Free the copies of `tiers` (done before the next :meth:`start` at the latest)."""

    def close(self, failed: bool) -> None:
        """After the last tier, or on a failure: stop what runs (keeping what is complete)."""


class Scheduler:
    """Runs the tiers of one solve over `executor` (module docstring).

    `complete(tier)` tells the tiers found done; `side_by_side` False runs one tier at a time
    (tiers solved in memory keep every solved tier, as their estimate assumes).
    """

    def __init__(
        self,
        game: TieredGame,
        order: list[int],
        executor: Executor,
        machine: Machine,
        budget: int,
        stats: SolveStats,
        *,
        side_by_side: bool = True,
    ) -> None:
        self.game, self.order, self.executor, self.machine = game, order, executor, machine
        self.budget, self.stats, self.side_by_side = budget, stats, side_by_side
        self.reads = {t: {int(c) for c in game.child_tiers(t)} for t in order}
        self.rank = {t: i for i, t in enumerate(order)}
        self.parents: dict[int, list[int]] = {t: [] for t in order}
        for t in order:
            for c in self.reads[t]:
                self.parents[c].append(t)
        # Per tier not complete: its child tiers not complete; per tier: the tiers not ended
        # that read it (a held copy is dropped once none does).
        self.waiting: dict[int, int] = {}
        self.readers = {t: len(self.parents[t]) for t in order}
        self.held: set[int] = set()
        self.running: dict[int, int] = {}  # tier -> its threads

    def run(self, complete: Collection[int] | None = None) -> None:
        """Solve every tier not in `complete`; on a failure, stop the executor and raise it."""
        done = set() if complete is None else set(complete)
        ready: list[int] = []  # tiers whose child tiers are complete, in the plan's order
        for tier in self.order:
            if tier in done:
                self.stats.tiers_kept += 1
                for c in self.reads[tier]:
                    self.readers[c] -= 1
            else:
                self.waiting[tier] = sum(1 for c in self.reads[tier] if c in self.waiting)
                if not self.waiting[tier]:
                    ready.append(tier)
        try:
            while ready or self.running:
                for tier, threads in self._start(ready):
                    self.stats.tiers_solved += 1
                    self.running[tier] = threads
                    self.executor.start(tier, threads)
                if not self.running:
                    raise RuntimeError("no tier left to solve can start")  # tier_order's
                for tier in self.executor.ended():
                    self._ended(tier, ready)
                self._drop({c for c in self.held if not self.readers[c] and c not in self.running})
        except BaseException:
            self.executor.close(failed=True)
            raise
        self.executor.close(failed=False)

    def _ended(self, tier: int, ready: list[int]) -> None:
        """Book `tier` complete: its readers' counts, and the parents it makes ready."""
        del self.running[tier], self.waiting[tier]
        for c in self.reads[tier]:
            self.readers[c] -= 1
        for parent in self.parents[tier]:
            if parent in self.waiting:  # not a tier found complete
                self.waiting[parent] -= 1
                if not self.waiting[parent]:
                    bisect.insort(ready, parent, key=self.rank.__getitem__)

    def _drop(self, tiers: set[int]) -> None:
        if tiers:
            self.executor.drop(sorted(tiers))
            self.held -= tiers

    def _start(self, ready: list[int]) -> list[tuple[int, int]]:
        """The ready tiers to start now with their threads (removed from `ready`): in order, an
        equal share of the free threads each, while the copies held and the running tiers'
        work stay within the budget (a tier alone always starts)."""
        started: dict[int, int] = {}
        executor, inner = self.executor, self.game.inner_moves
        while ready and (self.side_by_side or not (self.running or started)):
            busy = {**self.running, **started}
            owned = sum(k for t, k in busy.items() if not executor.queued or inner(t))
            free = executor.threads - owned
            if free <= 0 and not executor.queued:
                break
            share = free // max(1, min(free, len(ready)))
            for tier in ready:
                threads = max(executor.least, share) if inner(tier) else share
                if executor.queued and not inner(tier):
                    threads = executor.threads  # its chunks may take any thread
                busy = {**self.running, **started, tier: threads}
                held = self.held | self.reads[tier] | ({tier} if self.machine.assembles else set())
                if self.machine.need(held, busy) <= self.budget:
                    break
                # Without the copies no running tier reads (read again later); alone, a tier
                # needs what the check up front accepted.
                keep = {c for t in busy for c in self.reads[t]} | set(busy)
                if len(busy) == 1 or self.machine.need(held & keep, busy) <= self.budget:
                    self._drop(self.held - keep)
                    held &= keep
                    break
            else:
                break
            self.held = held
            ready.remove(tier)
            started[tier] = threads
        return list(started.items())
