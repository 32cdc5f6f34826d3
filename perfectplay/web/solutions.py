"""The web app's solved games: registered games solved on first use, databases opened once.

A registered game (with its parameters) is solved the first time a page or an API client asks
for it, in one background thread, so the server keeps answering while it works: until the
solution is ready :meth:`SolutionCache.lookup` returns a :class:`Solving` status (the page
shows it as a progress indicator). A game whose ``position_bound`` already exceeds the limit is
refused before its solve starts (:func:`preflight`), with its size and the memory it would take.

A burst of requests cannot make the server solve more than it can hold: each game is solved
once (every request for it while it is solved gets the same status), at most ``max_solves``
games are solving or waiting for the solver at once (a request for one more game is answered
:class:`Busy`, which the app turns into 503 with ``Retry-After``), and solved games are kept up
to ``keep_positions`` positions in all, the least recently asked dropped beyond (solved again
when asked). A database given on the command line (a file written by ``perfectplay solve GAME
--save``) is served as it is: its values are read from the file, nothing is solved.

Both kinds are read through one protocol, :class:`~perfectplay.protocol.answers.Answers`: the
game (its rules, to parse, render and list moves), the value of a position for the player to
move, and every move valued for the player making it.

A game whose solve is refused (too large to solve in memory) but that offers a compiled search
(Connect Four 6x7) is served by search instead: :meth:`SolutionCache.lookup` returns its
:class:`~perfectplay.search.service.SearchedGame`, which searches each position asked about in
a process of its own (one search per game at a time, at most ``max_searches`` at once over all
games) and keeps the answers in a bounded cache. At most :data:`MAX_SEARCHED_GAMES` games keep a
search process; the least recently asked is closed for a new one.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> cache = SolutionCache()
>>> game = load_game("subtraction", heap=5)
>>> solved = cache.wait(game)
>>> solved.probe(5), [m.label for m in solved.best_moves(5)]
(PositionValue(value=<Value.WIN: 3>, remoteness=3, score=None), ['1'])
>>> cache.lookup(game) is solved
True
>>> cache.lookup(load_game("quixo", size=5))
Traceback (most recent call last):
...
perfectplay.errors.TooLargeError: quixo may have up to 1,694,577,218,886 reachable positions ...
>>> cache.close()
"""

from __future__ import annotations

import concurrent.futures
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from perfectplay._memory import format_bytes
from perfectplay.api import GameSolution, solve
from perfectplay.enumeration.enumerate import _BYTES_PER_POSITION
from perfectplay.errors import InputFormatError, StoreError, TooLargeError
from perfectplay.protocol.game import Game, provides
from perfectplay.search.service import SearchedGame, offers_search
from perfectplay.solved import open_solved
from perfectplay.store import SolutionStore

if TYPE_CHECKING:
    from perfectplay.tiers.database import TierDatabase

__all__ = [
    "DEFAULT_KEEP_POSITIONS",
    "DEFAULT_MAX_POSITIONS",
    "DEFAULT_MAX_SEARCHES",
    "DEFAULT_MAX_SOLVES",
    "MAX_SEARCHED_GAMES",
    "Busy",
    "Database",
    "SolutionCache",
    "Solving",
    "game_key",
    "game_label",
    "game_page",
    "open_database",
    "param_text",
    "preflight",
]

DEFAULT_MAX_POSITIONS = 20_000_000
"""Largest game the web app solves on request (Connect Four 5x5 has about 7 * 10^7)."""
DEFAULT_MAX_SEARCHES = 2
"""Searches running at once over all games served by search (each takes a core)."""
MAX_SEARCHED_GAMES = 4
"""Games served by search that keep a search process (about 200 MB each with its table)."""
DEFAULT_MAX_SOLVES = 2
"""Games solving or waiting for the solver thread at once: one solving, one next. A request
for one more game is answered :class:`Busy` until one of them ends."""
DEFAULT_KEEP_POSITIONS = 2 * DEFAULT_MAX_POSITIONS
"""Positions of solved games kept in memory in all (two of the largest games solved here);
beyond, the least recently asked games are dropped, to be solved again when asked."""
RETRY_SECONDS = 5
"""Seconds a :class:`Busy` answer suggests waiting before asking again."""


def game_key(game: Game[Any]) -> tuple[str, Hashable]:
    """A game's name and parameters as a hashable key (tuples for lists)."""
    params = tuple(
        sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in game.info.params.items())
    )
    return game.info.name, params


def preflight(game: Game[Any], max_positions: int) -> None:
    """Refuse `game` before solving it if its ``position_bound`` exceeds `max_positions`.

    Raises
    ------
    TooLargeError
        Naming the bound, the memory an in-memory solve of that many positions takes at the
        least (the enumerator's cheapest figure per position), and the limit.

    Notes
    -----
    Cost: one ``position_bound`` call. A game without a bound is not refused here; its solve
    stops at the limit (see :func:`~perfectplay.enumeration.enumerate.enumerate_game`).

    Examples
    --------
    >>> from perfectplay.games.registry import load_game
    >>> preflight(load_game("nim", heaps=(1, 2)), 100)
    >>> preflight(load_game("quixo", size=4), 20_000_000)
    Traceback (most recent call last):
    ...
    perfectplay.errors.TooLargeError: quixo may have up to 86,093,442 reachable positions \
(at least 3.6 GiB of memory to solve), more than the server's limit of 20,000,000 \
(serve --max-positions)
    """
    bound = game.position_bound() if provides(game, "position_bound") else None
    if bound is not None and bound > max_positions:
        need = format_bytes(bound * min(_BYTES_PER_POSITION.values()))
        raise TooLargeError(
            f"{game.info.name} may have up to {bound:,} reachable positions (at least {need} "
            f"of memory to solve), more than the server's limit of {max_positions:,} "
            "(serve --max-positions)"
        )


def param_text(game: Game[Any]) -> str:
    """A game's parameters as the API's ``params`` text: ``KEY=VALUE;KEY=VALUE``.

    >>> from perfectplay.games.registry import load_game
    >>> param_text(load_game("connect-four", rows=4, cols=5)), param_text(load_game("tic-tac-toe"))
    ('rows=4;cols=5', '')
    """
    return ";".join(
        f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}"
        for k, v in game.info.params.items()
    )


def game_page(game: Game[Any]) -> str:
    """The path of `game`'s page, relative to the server's root, with its parameters.

    >>> from perfectplay.games.registry import load_game
    >>> game_page(load_game("nim", heaps=(1, 2)))
    'games/nim?params=heaps%3D1%2C2'
    """
    text = param_text(game)
    return f"games/{game.info.name}" + (f"?params={quote(text)}" if text else "")


@dataclass(frozen=True)
class Database:
    """A database served by the app: a saved solution of a registered game, opened once."""

    id: str
    """Its name in URLs (``/databases/{id}``): the file's name without extension, made unique."""
    path: str
    """The store file or tier directory."""
    source: SolutionStore | TierDatabase
    """The open store or tier database."""
    positions: int
    """Positions stored (a tier directory stores symmetric positions once)."""


def open_database(key: str, path: str) -> Database:
    """Open a store file or a tier directory as database `key`; close its ``source`` after use.

    Raises
    ------
    StoreError
        If `path` is missing, damaged, or holds a plain game graph (no game to draw).
    UnknownNameError
        If its game is not registered in this version of perfectplay.

    Notes
    -----
    Cost: opening the file (see :func:`~perfectplay.store.open_store`, which verifies small
    files' checksums) or reading the tier files' headers.
    """
    source = open_solved(path)
    try:
        if source.game_name is None:
            raise StoreError(f"{path} holds a game graph; the web app serves games only")
        source.game  # noqa: B018 - rebuilds the game now: an unknown game fails here
        positions = source.n if isinstance(source, SolutionStore) else source.footprint()[0]
    except BaseException:
        source.close()
        raise
    return Database(key, path, source, positions)


@dataclass(frozen=True)
class Solving:
    """A game still being solved (or waiting for the solver thread)."""

    game: str
    """The game's name."""
    elapsed: float
    """Seconds since the solve was requested."""
    running: bool
    """True when this game's solve is the one under way (or next, the thread picking it up);
    False while another game is being solved first."""


@dataclass(frozen=True)
class Busy:
    """A game not solved because the solver already has ``limit`` games solving or waiting."""

    game: str
    """The game asked for: its name and parameters (:func:`game_label`)."""
    solving: tuple[str, ...]
    """The games solving or waiting, in order (:func:`game_label`)."""
    limit: int
    """The most games solving or waiting at once (``max_solves``)."""

    def message(self) -> str:
        """One line for the client: what is refused, why, and when to ask again.

        >>> print(Busy("nim heaps=3", ("nim heaps=1", "nim heaps=2"), 2).message())
        the server is already solving 2 games, its limit (nim heaps=1; nim heaps=2): \
nim heaps=3 is not solved now; ask again in 5 s
        """
        games = f"{len(self.solving)} game{'s' if len(self.solving) != 1 else ''}"
        return (
            f"the server is already solving {games}, its limit ({'; '.join(self.solving)}): "
            f"{self.game} is not solved now; ask again in {RETRY_SECONDS} s"
        )


def game_label(game: Game[Any]) -> str:
    """A game's name and parameters, as a person reads them.

    >>> from perfectplay.games.registry import load_game
    >>> game_label(load_game("connect-four", rows=4, cols=5)), game_label(load_game("nim"))
    ('connect-four rows=4 cols=5', 'nim heaps=3,4,5')
    """
    params = game.info.param_text(" ")
    return f"{game.info.name} {params}" if params else game.info.name


@dataclass
class _Job:
    game: Game[Any]
    started: float
    future: Future[GameSolution[Any]]
    positions: int = 0
    """Positions of the solution once solved (what keeping it costs)."""


class SolutionCache:
    """Registered games solved on first use, one at a time, kept in memory.

    Parameters
    ----------
    max_positions : int
        Games with more reachable positions are refused with
        :class:`~perfectplay.errors.TooLargeError` (raised by :meth:`lookup`), or served by
        search if they offer a compiled search.
    max_searches : int
        Searches running at once over all games served by search.
    search_memory : int, optional
        Byte budget of each searched game's table (default: the search engine's, 64 MiB).
    max_solves : int
        Games solving or waiting for the solver at once; :meth:`lookup` answers :class:`Busy`
        for one more.
    keep_positions : int
        Positions of solved games kept in all; beyond, the least recently asked solved games
        are dropped (never the last one solved), to be solved again when asked.

    Notes
    -----
    Thread-safe. Solves run in one daemon thread, so a server stopped by Ctrl-C exits at
    once even in the middle of a long solve; searches in processes that :meth:`close` ends.
    A failed solve (too large, a broken game) is remembered like a solution: the same request
    gets the same error without solving again. Memory: the solutions kept (at most
    `keep_positions` positions, plus the last one solved) and the one being solved (at most
    `max_positions`).
    """

    def __init__(
        self,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_searches: int = DEFAULT_MAX_SEARCHES,
        search_memory: int | None = None,
        max_solves: int = DEFAULT_MAX_SOLVES,
        keep_positions: int = DEFAULT_KEEP_POSITIONS,
    ) -> None:
        for name, value in (("max_searches", max_searches), ("max_solves", max_solves)):
            if value < 1:
                raise InputFormatError(f"{name} must be at least 1, got {value}")
        self.max_positions = max_positions
        self.max_solves = max_solves
        self.keep_positions = keep_positions
        self.search_memory = search_memory
        self._slots = threading.BoundedSemaphore(max_searches)
        self._searched: OrderedDict[tuple[str, Hashable], SearchedGame] = OrderedDict()
        self._jobs: dict[tuple[str, Hashable], _Job] = {}
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._closed = False

    def _work(self) -> None:
        """The solver thread: solve queued games in order until ``None`` arrives."""
        while (job := self._queue.get()) is not None:
            if not job.future.set_running_or_notify_cancel():
                continue  # cancelled by close()
            try:
                solution = solve(job.game, max_positions=self.max_positions, progress=False)
            except Exception as error:  # handed to whoever asks for this game
                job.future.set_exception(error)
            else:
                job.positions = len(solution)
                job.future.set_result(solution)
                self._drop_beyond_budget(job)

    def _drop_beyond_budget(self, kept: _Job) -> None:
        """Drop the least recently asked solved games while the solutions kept hold more than
        `keep_positions` positions (`kept`, just solved, stays). Cost: O(games kept)."""
        with self._lock:
            total = sum(job.positions for job in self._jobs.values())
            for key, job in list(self._jobs.items()):  # least recently asked first
                if total <= self.keep_positions:
                    break
                if job is not kept and job.positions:
                    del self._jobs[key]
                    total -= job.positions

    def _job(self, game: Game[Any]) -> _Job | Busy:
        key = game_key(game)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                if job.future.done():
                    # Now the most recently asked. Unfinished jobs keep their place: the dict
                    # holds them in the solver's queue order (see lookup's status).
                    self._jobs[key] = self._jobs.pop(key)
            else:
                if self._closed:
                    raise RuntimeError("the solution cache is closed")
                preflight(game, self.max_positions)
                pending = [game_label(j.game) for j in self._jobs.values() if not j.future.done()]
                if len(pending) >= self.max_solves:
                    return Busy(game_label(game), tuple(pending), self.max_solves)
                job = self._jobs[key] = _Job(game, time.monotonic(), Future())
                if self._worker is None:
                    self._worker = threading.Thread(
                        target=self._work, name="perfectplay-solve", daemon=True
                    )
                    self._worker.start()
                self._queue.put(job)
            return job

    def lookup(
        self, game: Game[Any], wait: float = 0.0
    ) -> GameSolution[Any] | Solving | Busy | SearchedGame:
        """The solved game, its status while solving (the first call starts the solve), that
        the solver is busy with `max_solves` other games (nothing started), or, for a game
        refused as too large that offers a compiled search, the game by search.

        Parameters
        ----------
        game : Game
            The game, with its parameters.
        wait : float
            Seconds to wait for the solve to end before answering a status: a small game, or
            one refused as soon as its solve starts, is answered at once rather than on the
            next call.

        Raises
        ------
        TooLargeError
            If :func:`preflight` refuses the game (no solve is started), or its solve did,
            and the game offers no compiled search.
        PerfectPlayError
            Whatever else solving the game raised (GameDefinitionError, ...).
        """
        try:
            job = self._job(game)
        except TooLargeError:
            if not offers_search(game):
                raise
            return self._by_search(game)
        if isinstance(job, Busy):
            return job
        if wait > 0:
            concurrent.futures.wait([job.future], timeout=wait)
        if job.future.done():
            if isinstance(job.future.exception(), TooLargeError) and offers_search(game):
                return self._by_search(game)
            return job.future.result()
        return self._status(job)

    def _status(self, job: _Job) -> Solving:
        """The status of `job`, not done yet."""
        with self._lock:  # jobs are kept in queue order; done and cancelled ones are skipped
            first = next((j for j in self._jobs.values() if not j.future.done()), None)
        return Solving(job.game.info.name, time.monotonic() - job.started, first is job)

    def peek(self, game: Game[Any]) -> GameSolution[Any] | Solving | None:
        """The solved game or its status if its solve was asked for, else None: nothing is
        started, and a solved game keeps its place among the least recently asked.

        Raises
        ------
        PerfectPlayError
            Whatever its solve raised (TooLargeError, ...).

        Notes
        -----
        Cost: a dictionary look-up (and a pass over the jobs for a status).
        """
        with self._lock:
            job = self._jobs.get(game_key(game))
        if job is None:
            return None
        if job.future.done():
            return job.future.result()
        return self._status(job)

    def pending(self) -> int:
        """How many games are solving or waiting for the solver. Cost: O(games kept)."""
        with self._lock:
            return sum(not job.future.done() for job in self._jobs.values())

    def _by_search(self, game: Game[Any]) -> SearchedGame:
        """`game` served by search: its SearchedGame, made on first use (the least recently
        used one closed beyond MAX_SEARCHED_GAMES)."""
        key = game_key(game)
        dropped: list[SearchedGame] = []
        with self._lock:
            searched = self._searched.get(key)
            if searched is None:
                if self._closed:
                    raise RuntimeError("the solution cache is closed")
                searched = SearchedGame(game, memory=self.search_memory, slots=self._slots)
                self._searched[key] = searched
            self._searched.move_to_end(key)
            while len(self._searched) > MAX_SEARCHED_GAMES:
                dropped.append(self._searched.popitem(last=False)[1])
        for old in dropped:
            old.close()
        return searched

    def wait(self, game: Game[Any], timeout: float | None = None) -> GameSolution[Any]:
        """The solved game, solving it first if needed (blocks up to `timeout` seconds).

        Raises
        ------
        RuntimeError
            If the solver is busy with `max_solves` other games (:meth:`Busy.message`).
        """
        job = self._job(game)
        if isinstance(job, Busy):
            raise RuntimeError(job.message())
        return job.future.result(timeout)

    def close(self) -> None:
        """Stop the solver thread once the current solve ends; queued solves are cancelled;
        search processes end at once."""
        with self._lock:
            self._closed = True
            for job in self._jobs.values():
                job.future.cancel()  # only those still queued: a running one finishes
            self._queue.put(None)
            searched = list(self._searched.values())
            self._searched.clear()
        for game in searched:
            game.close()
