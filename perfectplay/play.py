"""Play a game against perfect play, in a text session: commands in, board and replies out.

The session reads one command per line from a text stream and writes to another, so it runs
in a terminal (``perfectplay play GAME``) and in tests alike. A person enters a move by its
label (or by its number in the ``values`` list); the computer answers with a best move, the
first of them in the game's move order, so replays are deterministic.

Values come from a solved game: a :class:`~perfectplay.api.GameSolution` or an open
:class:`~perfectplay.store.SolutionStore` (anything with ``move_values`` and ``best_moves``),
or, for a game too large to solve, from a :class:`SearchedGame`: each position searched when
it is first asked about (:class:`~perfectplay.search.Searcher`, in a process of its own so
that the caller keeps running while it thinks), its answers kept in a bounded cache.

Examples
--------
>>> import io
>>> from perfectplay.api import solve
>>> from perfectplay.games.registry import load_game
>>> game = load_game("nim", heaps=(1, 2))
>>> out = io.StringIO()
>>> PlaySession(game, solve(game), stdin=io.StringIO("hint\\nh2-1\\n"), stdout=out).run()
0
>>> print(out.getvalue(), end="")
nim: you play first against perfect play. Type 'help' for commands.
h1 h2
 1  2
Your move.
> Hint: h2-1 (WIN in 3)
> h1 h2
 1  1
Computer to move.
Computer plays h1-1.
h1 h2
 0  1
Your move.
>
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO

from perfectplay.api import GameMove
from perfectplay.errors import InputFormatError, PerfectPlayError
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game, provides
from perfectplay.values import NO_REMOTENESS, Value

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from perfectplay.search import SearchResult

__all__ = [
    "ABANDON_AFTER",
    "COMMANDS",
    "DEFAULT_CACHE_SIZE",
    "PlaySession",
    "SearchAnswer",
    "SearchedGame",
    "Solved",
    "Thinking",
    "ThinkingLine",
    "describe",
    "offers_search",
]

COMMANDS = {
    "values": "list every legal move with its value and remoteness for you",
    "hint": "show a best move",
    "undo": "take back your last move (and the computer's reply)",
    "help": "show this help",
    "quit": "leave the game",
}
"""The session's commands, with one line of help each."""


class Solved(Protocol):
    """A solved game, as a session needs it (GameSolution, SolutionStore and SearchedGame are
    ones)."""

    def move_values(self, position: Any) -> list[GameMove[Any]]:
        """Every move from `position` with its label and value for the mover."""
        ...

    def best_moves(self, position: Any) -> list[GameMove[Any]]:
        """The optimal moves from `position`, in the game's order."""
        ...


def describe(value: Value, remoteness: int, score: int | None = None) -> str:
    """A value in words: ``"WIN in 3"``, ``"DRAW"``, ``"score +2, WIN in 5"``.

    >>> describe(Value.LOSE, 4), describe(Value.DRAW, -1), describe(Value.TIE, 0, 0)
    ('LOSE in 4', 'DRAW', 'score +0, TIE in 0')
    """
    words = value.name if remoteness == NO_REMOTENESS else f"{value.name} in {remoteness}"
    return words if score is None else f"score {score:+d}, {words}"


class PlaySession:
    """A game between a person (reading `stdin`) and perfect play (`solved`).

    Parameters
    ----------
    game : Game
        The game; ``labelled`` (``render`` where the game has no coordinates) draws the board
        after every move.
    solved : Solved
        The solved game: a GameSolution, an open SolutionStore, or a :class:`SearchedGame`
        (a game too large to solve, each position searched when the session needs it: the
        computer's turn, ``values`` and ``hint``).
    human : {"first", "second"}
        Whether the person moves first.
    stdin, stdout : text streams
        Where commands come from and where the session writes.

    Notes
    -----
    Input never raises: an unknown command or an illegal move gets a one-line message and
    the prompt again. End of input ends the session like ``quit``.
    """

    def __init__(
        self,
        game: Game[Any],
        solved: Solved,
        *,
        human: Literal["first", "second"] = "first",
        stdin: TextIO,
        stdout: TextIO,
    ) -> None:
        if human not in ("first", "second"):
            raise InputFormatError(f"side must be 'first' or 'second', got {human!r}")
        self.game = game
        self.solved = solved
        self.human = human
        self.stdin = stdin
        self.stdout = stdout
        self.history: list[Any] = [game.initial()]
        """Positions from the start to the current one."""

    # ------------------------------------------------------------------ state
    @property
    def position(self) -> Any:
        """The current position."""
        return self.history[-1]

    def human_to_move(self) -> bool:
        """Whether the person moves at the current position (the first player at even plies)."""
        return self._human_at(len(self.history) - 1)

    def final_value(self) -> Value | None:
        """The value for the player to move where the game is over here, else None.

        Over: the rules fix the value (``outcome``), or the player to move has no move and
        loses (normal play).
        """
        ruled = self.game.outcome(self.position)
        if ruled is not None:
            return Value(ruled)
        return None if any(True for _ in self.game.moves(self.position)) else Value.LOSE

    # ------------------------------------------------------------------ output
    def say(self, text: str) -> None:
        """Write one line (or several) to the session's output."""
        self.stdout.write(text + "\n")

    def show(self) -> None:
        """Draw the board with the coordinates the move labels name (the game's ``labelled``,
        its ``render`` where it has none) and say whose turn it is, or how the game ended."""
        self.say(self.game.labelled(self.position))
        final = self.final_value()
        if final is None:
            self.say("Your move." if self.human_to_move() else "Computer to move.")
            return
        mine = final if self.human_to_move() else final.flipped()
        verdict = {Value.WIN: "You win.", Value.LOSE: "You lose.", Value.TIE: "It is a tie."}
        self.say(f"Game over: {verdict.get(mine, mine.name)} Type undo or quit.")

    # ------------------------------------------------------------------ commands
    def values(self) -> None:
        """List every legal move with its value for the person."""
        moves = self.solved.move_values(self.position)
        if not moves:
            self.say("No legal moves: the game is over.")
        width = max((len(m.label) for m in moves), default=0)
        for i, move in enumerate(moves, start=1):
            what = describe(move.value, move.remoteness, move.score)
            self.say(f"{i:>3}. {move.label:<{width}}  {what}")

    def hint(self) -> None:
        """Say a best move."""
        best = self.best()
        if best is None:
            self.say("No legal moves: the game is over.")
        else:
            self.say(f"Hint: {best.label} ({describe(best.value, best.remoteness, best.score)})")

    def undo(self) -> None:
        """Go back to the person's previous turn (before their last move)."""
        turns = [ply for ply in range(len(self.history) - 1) if self._human_at(ply)]
        if not turns:
            self.say("Nothing to undo.")
            return
        del self.history[turns[-1] + 1 :]
        self.show()

    def _human_at(self, ply: int) -> bool:
        """Whether the person moves after `ply` moves (the first player moves at even plies)."""
        return (ply % 2 == 0) == (self.human == "first")

    def help(self) -> None:
        """List the commands."""
        self.say("Enter a move by its label or by its number in 'values'. Commands:")
        for name, text in COMMANDS.items():
            self.say(f"  {name:<7} {text}")

    def best(self) -> GameMove[Any] | None:
        """The move perfect play makes here (first best move), or None where play is over."""
        chosen = self.solved.best_moves(self.position)
        return chosen[0] if chosen else None

    def find_move(self, text: str) -> Any | None:
        """The position the legal move `text` names leads to: a label (exact, then any case),
        else a 1-based number in the game's move order (as ``values`` lists them), or None.

        Read from the rules alone, so entering a move never waits for a search.
        """
        moves = [(str(m[0]), m[1]) for m in self.game.moves(self.position)]
        for key in (str, str.casefold):
            for label, child in moves:
                if key(label) == key(text):
                    return child
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1][1]
        return None

    # ------------------------------------------------------------------ the loop
    def computer_moves(self) -> None:
        """Play the computer's best move and show the board."""
        move = self.best()
        if move is None:
            return
        self.say(f"Computer plays {move.label}.")
        self.history.append(move.position)
        self.show()

    def run(self) -> int:
        """Play until ``quit`` or the end of input; returns 0 (the exit code)."""
        name = self.game.info.name
        self.say(f"{name}: you play {self.human} against perfect play. Type 'help' for commands.")
        self.show()
        while True:
            if self.final_value() is None and not self.human_to_move():
                self.computer_moves()
                continue
            self.stdout.write("> ")
            line = self.stdin.readline()
            if not line:
                self.say("")
                return 0
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command == "quit":
                return 0
            action = {
                "values": self.values,
                "hint": self.hint,
                "undo": self.undo,
                "help": self.help,
            }.get(command)
            if action is not None:
                action()
                continue
            if self.final_value() is not None:
                self.say(f"The game is over; {text!r} is not a command. Type undo or quit.")
                continue
            child = self.find_move(text)
            if child is None:
                self.say(
                    f"{text!r} is not a legal move here. Type 'values' to list the moves, "
                    "'help' for commands."
                )
                continue
            self.history.append(child)
            self.show()


# ---------------------------------------------------------------------- play by search
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
    """Moves to the end under best play (0 where the game is over)."""
    best: tuple[str, ...]
    """Labels of the optimal moves, in the game's move order."""
    moves: tuple[GameMove[Any], ...]
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


def _serve_searches(conn: Connection, game: Game[Any], memory: int | None) -> None:
    """A search process: ``(position, all_moves)`` in, ``("ok", SearchResult)`` or
    ``("error", exception)`` out, one at a time with one table, until the pipe closes.

    Ctrl-C is left to the parent (which ends this process), so a terminal's interrupt prints
    no second traceback from here.
    """
    from perfectplay.search import Searcher

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    searcher: Searcher | None = None
    while True:
        try:
            position, all_moves = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if searcher is None:
                searcher = Searcher(game, memory=memory)
            answer: tuple[str, Any] = ("ok", searcher.search(position, all_moves=all_moves))
        except Exception as error:  # handed to the parent, which raises it for the asker
            answer = ("error", error)
        try:
            conn.send(answer)
        except (OSError, ValueError):  # the parent is gone
            return


class _SearchProcess:
    """One search process for one game, started on first use, its table kept across searches.

    A compiled search holds the interpreter lock for as long as it runs, so it runs in a
    process of its own: the caller's threads (a server's requests, a terminal's clock) go on.
    Searches are sent one at a time (the caller serialises them).
    """

    def __init__(self, game: Game[Any], memory: int | None) -> None:
        self.game = game
        self.memory = memory
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def search(self, position: Any, all_moves: bool) -> SearchResult:
        """Search `position` in the process (started if needed); blocks until it answers.

        Raises
        ------
        PerfectPlayError
            What the search raised (TooLargeError for a table that does not fit, ...), or,
            if the process ended without answering, one naming its exit code.
        """
        if self._process is None or self._conn is None or not self._process.is_alive():
            self.close()
            context = multiprocessing.get_context("spawn")  # no fork of a threaded parent
            parent, child = context.Pipe()
            started = context.Process(
                target=_serve_searches,
                args=(child, self.game, self.memory),
                name=f"perfectplay-search-{self.game.info.name}",
                daemon=True,
            )
            started.start()
            child.close()
            self._process, self._conn = started, parent
        conn, process = self._conn, self._process
        try:
            conn.send((position, all_moves))
            kind, payload = conn.recv()
        except (EOFError, OSError):
            process.join(timeout=1.0)
            self.close()
            raise PerfectPlayError(
                f"the search process of {self.game.info.name} ended without answering "
                f"(exit code {process.exitcode}); ask again to start a new one"
            ) from None
        if kind == "error":
            raise payload
        result: SearchResult = payload
        return result

    def close(self) -> None:
        """End the process (at once, even in the middle of a search)."""
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            process.kill()
            process.join()


class SearchedGame:
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

    :meth:`move_values`, :meth:`best_moves` and :meth:`probe` block until the answer is there,
    as a :class:`~perfectplay.api.GameSolution` would answer them, so a :class:`PlaySession`
    plays from a ``SearchedGame`` as from a solved game.

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
        from perfectplay.errors import CyclicGraphError

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

    def move_values(self, position: Any) -> list[GameMove[Any]]:
        """Every move from `position`, valued for the player making it (blocks while searching)."""
        found = self.answer(position)
        assert isinstance(found, SearchAnswer)
        return list(found.moves)

    def best_moves(self, position: Any) -> list[GameMove[Any]]:
        """The optimal moves from `position`, in the game's order (blocks while searching).

        A best move is valued as the position: its value, and its remoteness counting it.
        """
        found = self.answer(position, all_moves=False)
        assert isinstance(found, SearchAnswer)
        best = set(found.best)
        return [
            GameMove(str(m[0]), m[1], found.value, found.remoteness)
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
        """The rules' answer where the game is over at `position` (no moves: a loss), else None."""
        ruled = self.game.outcome(position)
        if ruled is None and any(True for _ in self.game.moves(position)):
            return None
        value = Value.LOSE if ruled is None else Value(ruled)
        return SearchAnswer(value, 0, (), (), True, 0.0)

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
        remoteness = result.remoteness if result.remoteness is not None else NO_REMOTENESS
        children = {str(m[0]): m[1] for m in self.game.moves(position)}
        moves = tuple(
            GameMove(
                m.label,
                children[m.label],
                m.value,
                m.remoteness if m.remoteness is not None else NO_REMOTENESS,
            )
            for m in result.moves
        )
        answer = SearchAnswer(
            result.value, remoteness, tuple(result.best_moves), moves, all_moves, result.seconds
        )
        with self._lock:
            self._remember(self._answers, self._key(position), answer)
            for move in moves:
                child = PositionValue(move.value.flipped(), move.remoteness - 1)
                self._remember(self._values, self._key(move.position), child)
        return answer

    def _remember(self, cache: OrderedDict[Hashable, Any], key: Hashable, item: Any) -> None:
        cache[key] = item
        cache.move_to_end(key)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)


class ThinkingLine:
    """Shows ``Thinking... 3.2 s`` on one updating line of a terminal while a search runs.

    An ``on_wait`` for :class:`SearchedGame`: on a terminal, each call rewrites the line
    with the seconds elapsed, and the last (None) erases it; on anything else (a pipe, a
    file) it writes nothing, so scripted sessions read the same whatever the search time.

    >>> import io
    >>> line = ThinkingLine(io.StringIO())
    >>> line(1.5); line(None); line.stream.getvalue()
    ''
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, elapsed: float | None) -> None:
        if not self.stream.isatty():
            return
        if elapsed is None:
            if self.shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self.shown = False
            return
        self.stream.write(f"\rThinking... {elapsed:.1f} s")
        self.stream.flush()
        self.shown = True
