"""The search service: search work run in other processes, and games played by search.

- :func:`process_pool` — the one way search runs work elsewhere: spawned worker processes
  that leave Ctrl-C to their parent; a worker can keep one
  :class:`~perfectplay.search.engine.Searcher` per game (:func:`searcher_of`), so that its
  table helps all its tasks (a book's positions, a played game's). Used by
  :func:`~perfectplay.search.batch.search_positions`, :func:`~perfectplay.search.book.build_book`
  and :class:`SearchedGame`.
- :class:`SearchedGame` — a game too large to solve, answered position by position as a
  solved game answers (:class:`~perfectplay.protocol.answers.Answers`), each search in a
  worker process so the caller (a terminal's clock, a server's requests) keeps running.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("connect-four", rows=4, cols=4)
>>> with SearchedGame(game) as searched:
...     searched.probe(game.parse("1212")).value.name
'TIE'
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from perfectplay.errors import (
    CyclicGraphError,
    InputFormatError,
    PerfectPlayError,
)
from perfectplay.moves import Move
from perfectplay.protocol.answers import GetByProbe, PositionValue
from perfectplay.protocol.game import Game, over_value, provides
from perfectplay.search.engine import Searcher, SearchResult
from perfectplay.values import UNKNOWN_REMOTENESS, Value

__all__ = [
    "ABANDON_AFTER",
    "DEFAULT_CACHE_SIZE",
    "SearchAnswer",
    "SearchedGame",
    "Thinking",
    "end_pool",
    "offers_search",
    "process_pool",
    "searcher_of",
]

DEFAULT_CACHE_SIZE = 100_000
"""Positions whose answers a :class:`SearchedGame` keeps (least recently used dropped first);
an answer with its moves takes about 1-2 KB."""

_POLL_SECONDS = 0.25
"""How often a blocking answer reports the elapsed time while it waits."""

ABANDON_AFTER = 2.0
"""Seconds without anyone asking for the position being searched after which its search is
abandoned (its process ended, the table lost) when another position of the game waits: a
page that moved on polls its new position only."""


def offers_search(game: Game[Any]) -> bool:
    """Whether `game` offers a compiled search (``search_kernel()`` returns a kernel).

    A game too large to solve in memory is played by search when it does: the compiled
    search answers positions far from the end in seconds to minutes, where the plain
    Python search would take hours.

    >>> from perfectplay.games.registry import load_game
    >>> offers_search(load_game("connect-four")), offers_search(load_game("tic-tac-toe"))
    (True, False)
    """
    return provides(game, "search_kernel") and game.search_kernel() is not None


@dataclass(frozen=True)
class SearchAnswer:
    """What a search found at one position, for the player to move there."""

    value: Value
    """WIN, LOSE or TIE for the player to move."""
    remoteness: int
    """Moves to the end under best play (0 where the game is over;
    :data:`~perfectplay.values.UNKNOWN_REMOTENESS` where the search gave none)."""
    best: tuple[str, ...]
    """Labels of the optimal moves, in the game's move order."""
    moves: tuple[Move[Any], ...]
    """Every move valued for the player making it, in the game's order; empty where only the
    best moves were asked for (`all_moves` false) or the game is over."""
    all_moves: bool
    """Whether every move was valued (else `moves` is empty)."""
    seconds: float
    """Wall-clock time of the search (0 where the rules decided)."""


@dataclass(frozen=True)
class Thinking:
    """A position still being searched (or waiting for its turn to be)."""

    game: str
    """The game's name."""
    elapsed: float
    """Seconds since the position was first asked for."""
    running: bool
    """True when its search is under way; False while it waits for another search (of this
    game, or for a free search slot)."""


@dataclass
class _Job:
    position: Any
    all_moves: bool
    started: float = field(default_factory=time.monotonic)
    future: Future[SearchAnswer] = field(default_factory=Future)
    asked: float = field(default_factory=time.monotonic)
    """When someone last asked for it (or waited on it)."""
    abandoned: bool = False
    """Its search was ended for a waiting position: an asker coming back asks again."""
    searching: bool = False
    """Its search is under way (it holds a search slot)."""

    def dropped(self) -> bool:
        """Whether it will never answer: cancelled while waiting, or abandoned unanswered."""
        if self.future.cancelled():
            return True
        return self.abandoned and self.future.done() and self.future.exception() is not None


# ---------------------------------------------------------------------- work in other processes
def _leave_interrupt_to_parent() -> None:
    """A worker ignores Ctrl-C: the parent ends it, so a terminal shows one traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """`jobs` worker processes for search work, started by ``spawn`` (never a fork of a
    threaded parent), each ignoring Ctrl-C; end it with :func:`end_pool` or ``with``.

    Tasks that search should take their table from :func:`searcher_of`. Cost: a worker
    starts in about a second (a fresh interpreter importing the engine).
    """
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_leave_interrupt_to_parent,
    )


def end_pool(pool: ProcessPoolExecutor) -> None:
    """End `pool` at once, its workers killed even in the middle of a task (whose futures
    then raise ``BrokenProcessPool``)."""
    for process in list((pool._processes or {}).values()):
        process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


_SEARCHER: tuple[Game[Any], int | None, Searcher] | None = None
"""This process's searcher: the game and budget it was made for, and itself."""


def searcher_of(game: Game[Any], memory: int | None) -> Searcher:
    """This process's :class:`~perfectplay.search.engine.Searcher` of `game` with a `memory`
    table, made on first use and kept while tasks ask for the same game (same type and
    :class:`~perfectplay.protocol.game.GameInfo`) and budget: a worker's table helps all its
    tasks. For a process running one task at a time (a :func:`process_pool` worker)."""
    global _SEARCHER
    kept = _SEARCHER
    same = kept is not None and type(kept[0]) is type(game) and kept[0].info == game.info
    if kept is not None and same and kept[1] == memory:
        return kept[2]
    searcher = Searcher(game, memory=memory)
    _SEARCHER = (game, memory, searcher)
    return searcher


def _search_here(
    game: Game[Any], memory: int | None, position: Any, all_moves: bool
) -> SearchResult:
    """A worker's task: `position` searched with the worker's table."""
    return searcher_of(game, memory).search(position, all_moves=all_moves)


class _SearchProcess:
    """One worker process for one game, started on first use, its table kept across searches.

    A compiled search holds the interpreter lock for as long as it runs, so it runs in a
    process of its own: the caller's threads (a server's requests, a terminal's clock) go on.
    Searches are sent one at a time (the caller serialises them).
    """

    def __init__(self, game: Game[Any], memory: int | None) -> None:
        self.game = game
        self.memory = memory
        self._pool: ProcessPoolExecutor | None = None

    def search(self, position: Any, all_moves: bool) -> SearchResult:
        """Search `position` in the worker (started if needed); blocks until it answers.

        Raises
        ------
        PerfectPlayError
            What the search raised (TooLargeError for a table that does not fit, ...), or,
            if the worker ended without answering, one saying so.
        """
        if self._pool is None:
            self._pool = process_pool(1)
        task = self._pool.submit(_search_here, self.game, self.memory, position, all_moves)
        try:
            return task.result()
        except concurrent.futures.process.BrokenProcessPool:
            self.close()
            raise PerfectPlayError(
                f"the search process of {self.game.info.name} ended without answering; "
                "ask again to start a new one"
            ) from None

    def close(self) -> None:
        """End the worker (at once, even in the middle of a search)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            end_pool(pool)


class SearchedGame(GetByProbe):
    """Perfect play of a game by search, position by position, with the answers of a solved game.

    Each position is searched when first asked about (:class:`~perfectplay.search.Searcher`,
    one table kept across the game's searches), in a process of its own, so the caller keeps
    running while it searches: :meth:`answer` can wait or give a :class:`Thinking` status. At
    most one search of the game runs at a time; a position asked for meanwhile waits its turn
    (the latest one asked for: an older waiting position is dropped, its askers ask again).
    A search nobody has asked about for :data:`ABANDON_AFTER` seconds while another position
    waits is abandoned (its process ended, so the table is lost): a page that moved on from
    a slow position is not held up by it.
    Answers are kept in a bounded cache (least recently used dropped first), with each
    searched move's child position valued too.

    A source of answers (:class:`~perfectplay.protocol.answers.Answers`): :meth:`probe`,
    :meth:`get`, :meth:`move_values` and :meth:`best_moves` block until the answer is there,
    so the terminal player and the web app play from a ``SearchedGame`` as from a solved game.

    Parameters
    ----------
    game : Game
        An acyclic game; ideally one that offers a compiled search (:func:`offers_search`),
        else each position is searched over its Python rules (about 10^5 positions a second).
    memory : int, optional
        Byte budget of the search table (default: the search engine's, 64 MiB).
    slots : threading.Semaphore, optional
        Taken around each search: a semaphore shared by several games caps the searches
        running at once (default: one of this game's own, one search at a time).
    cache_size : int
        Positions whose answers are kept.
    on_wait : callable, optional
        Called by the blocking methods with the seconds elapsed, every 0.25 s while they
        wait, and with None once the answer is there (see :class:`ThinkingLine`).

    Raises
    ------
    CyclicGraphError
        If the game is loopy: search needs an acyclic game.

    Notes
    -----
    Cost: a position already answered, a dictionary look-up; else its search (milliseconds
    near the end of Connect Four 6x7, minutes from its start), once. Memory: the table in the
    search process (plus the process itself, about 100 MB), and the cache here.

    Examples
    --------
    >>> from perfectplay.games.registry import load_game
    >>> game = load_game("connect-four", rows=4, cols=4)
    >>> with SearchedGame(game) as searched:
    ...     searched.probe(game.parse("1212"))
    ...     [m.label for m in searched.best_moves(game.parse("1212"))]
    PositionValue(value=<Value.TIE: 2>, remoteness=12, score=None)
    ['a', 'b', 'c', 'd']
    """

    def __init__(
        self,
        game: Game[Any],
        *,
        memory: int | None = None,
        slots: threading.Semaphore | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
        on_wait: Callable[[float | None], None] | None = None,
    ) -> None:
        if game.info.cyclic:
            raise CyclicGraphError(
                f"{game.info.name} is loopy (GameInfo(cyclic=True)); search needs an acyclic game"
            )
        if cache_size < 1:
            raise InputFormatError(f"cache_size must be at least 1, got {cache_size}")
        self.game = game
        self.on_wait = on_wait
        self.cache_size = cache_size
        self._slots = slots if slots is not None else threading.Semaphore(1)
        self._process = _SearchProcess(game, memory)
        self._answers: OrderedDict[Hashable, SearchAnswer] = OrderedDict()
        self._values: OrderedDict[Hashable, PositionValue] = OrderedDict()
        self._running: _Job | None = None
        self._waiting: _Job | None = None
        self._closed = False
        self._lock = threading.Lock()

    def __enter__(self) -> SearchedGame:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ answers
    def answer(
        self, position: Any, *, all_moves: bool = True, wait: float | None = None
    ) -> SearchAnswer | Thinking:
        """The answer at `position`, searching it if it is not known yet.

        Parameters
        ----------
        position
            A position of the game (play may be over there: the rules answer).
        all_moves : bool
            Value every move (default); False asks for the best moves only, a cheaper search.
        wait : float, optional
            Seconds to wait for the search before answering :class:`Thinking`; None waits
            until the answer is there (calling ``on_wait`` meanwhile).

        Raises
        ------
        PerfectPlayError
            What the search raised (a table larger than memory: TooLargeError, ...).
        """
        over = self._over(position)
        if over is not None:
            return over
        start = time.monotonic()
        while True:
            job = self._ask(position, all_moves)
            if isinstance(job, SearchAnswer):
                return job
            if wait is not None:
                concurrent.futures.wait([job.future], timeout=wait)
            else:
                try:
                    while not job.future.done():
                        concurrent.futures.wait([job.future], timeout=_POLL_SECONDS)
                        job.asked = time.monotonic()  # still wanted: not abandoned
                        if self.on_wait is not None:
                            self.on_wait(time.monotonic() - start)
                finally:  # also on Ctrl-C: the clock's line is erased
                    if self.on_wait is not None:
                        self.on_wait(None)
            if job.dropped():  # for a newer position, or abandoned: ask again
                if wait is not None:
                    return Thinking(self.game.info.name, time.monotonic() - job.started, False)
                continue
            if job.future.done():
                return job.future.result()
            return Thinking(self.game.info.name, time.monotonic() - job.started, job.searching)

    def known(self, position: Any) -> PositionValue | None:
        """The value of `position` if a search (of it or of a parent) found it, else None;
        never searches. Where the game is over, the rules' value."""
        over = self._over(position)
        if over is not None:
            return PositionValue(over.value, over.remoteness)
        key = self._key(position)
        with self._lock:
            found = self._answers.get(key)
            if found is not None:
                return PositionValue(found.value, found.remoteness)
            return self._values.get(key)

    def probe(self, position: Any) -> PositionValue:
        """Value and remoteness of `position` for the player to move (blocks while searching)."""
        known = self.known(position)
        if known is not None:
            return known
        found = self.answer(position, all_moves=False)
        assert isinstance(found, SearchAnswer)  # answer() without `wait` waits for it
        return PositionValue(found.value, found.remoteness)

    def move_values(self, position: Any) -> list[Move[Any]]:
        """Every move from `position`, valued for the player making it (blocks while searching)."""
        found = self.answer(position)
        assert isinstance(found, SearchAnswer)
        return list(found.moves)

    def best_moves(self, position: Any) -> list[Move[Any]]:
        """The optimal moves from `position`, in the game's order (blocks while searching).

        A best move is valued as the position: its value, and its remoteness counting it.
        """
        found = self.answer(position, all_moves=False)
        assert isinstance(found, SearchAnswer)
        best = set(found.best)
        return [
            Move(str(m[0]), m[1], found.value, found.remoteness)
            for m in self.game.moves(position)
            if m[0] in best
        ]

    def close(self) -> None:
        """End the search process; a search under way stops, its askers get an error."""
        with self._lock:
            self._closed = True
            if self._waiting is not None:
                self._waiting.future.cancel()
                self._waiting = None
        self._process.close()

    # ------------------------------------------------------------------ inside
    @staticmethod
    def _key(position: Any) -> Hashable:
        return position if isinstance(position, Hashable) else repr(position)

    def _over(self, position: Any) -> SearchAnswer | None:
        """The rules' answer where the game is over at `position`, else None."""
        value = over_value(self.game, position)
        return None if value is None else SearchAnswer(value, 0, (), (), True, 0.0)

    def _ask(self, position: Any, all_moves: bool) -> SearchAnswer | _Job:
        """The cached answer, or the job that will give it (started, or waiting its turn)."""
        key = self._key(position)
        with self._lock:
            found = self._answers.get(key)
            if found is not None and (found.all_moves or not all_moves):
                self._answers.move_to_end(key)
                return found
            if self._closed:
                raise PerfectPlayError(f"the search of {self.game.info.name} is closed")
            now = time.monotonic()
            running = self._running
            waited = running is not None and self._waiting is not None
            if waited and running is not None and now - running.asked > ABANDON_AFTER:
                running.abandoned = True  # nobody wants it any more
                self._process.close()
            for job in (running, self._waiting):
                same = job is not None and self._key(job.position) == key
                if job is not None and same and (job.all_moves or not all_moves):
                    job.asked = now
                    return job
            fresh = _Job(position, all_moves)
            if running is None:
                self._running = fresh
                threading.Thread(
                    target=self._work,
                    args=(fresh,),
                    name=f"perfectplay-search-{self.game.info.name}",
                    daemon=True,
                ).start()
            else:
                if self._waiting is not None:
                    self._waiting.future.cancel()
                self._waiting = fresh
            return fresh

    def _work(self, job: _Job | None) -> None:
        """The game's search thread: run `job`, then the waiting one, until none waits.

        The next job is taken in the same locked step that ends this one, so a position
        asked for after this thread's last look starts a thread of its own, never two.
        """
        while job is not None:
            if job.future.set_running_or_notify_cancel():
                try:
                    with self._slots:
                        job.searching = True
                        result = self._process.search(job.position, job.all_moves)
                    job.future.set_result(self._keep(job.position, result, job.all_moves))
                except BaseException as error:  # handed to the askers
                    job.future.set_exception(error)
            with self._lock:
                self._running, self._waiting = self._waiting, None
                job = self._running

    def _keep(self, position: Any, result: SearchResult, all_moves: bool) -> SearchAnswer:
        """`result` as an answer, cached with its moves' children's values."""
        remoteness = UNKNOWN_REMOTENESS if result.remoteness is None else result.remoteness
        answer = SearchAnswer(
            result.value, remoteness, result.best_moves, result.moves, all_moves, result.seconds
        )
        with self._lock:
            self._remember(self._answers, self._key(position), answer)
            for move in result.moves:
                r = move.remoteness
                child = PositionValue(move.value.flipped(), r - 1 if r > 0 else r)
                self._remember(self._values, self._key(move.position), child)
        return answer

    def _remember(self, cache: OrderedDict[Hashable, Any], key: Hashable, item: Any) -> None:
        cache[key] = item
        cache.move_to_end(key)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)
