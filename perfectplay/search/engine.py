"""``search``: perfect play at ONE position of an acyclic game, without enumerating the game.

:func:`search` runs alpha-beta with a transposition table from the given position only, so it
reaches positions of games far too large to solve whole (as long as the search itself stays
within reach). Every value is stated **for the player to move**, with exactly the remoteness
(and, for scored games, the score) that :func:`perfectplay.solve` would give that position.

It takes one of two paths:

* the **kernel path**, when the game offers a compiled search (an optional method
  ``search_kernel()`` returning a :class:`~perfectplay.search.kernel.SearchKernel`): the
  engine sizes the kernel's table from the memory budget and drives its windows;
* the **plain path** otherwise: :class:`~perfectplay.search.plain.PlainSearch` over the
  game's ``moves``/``outcome`` in Python (about 10^5 positions per second).

Examples
--------
>>> from perfectplay.protocol.game import Game, GameInfo
>>> from perfectplay.values import Value
>>> class TakeAway(Game[int]):
...     info = GameInfo("take-away", impartial=True)
...     def initial(self) -> int:
...         return 7
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> Value | None:
...         return None  # stuck at 0 tokens: the player to move has lost
>>> r = search(TakeAway())
>>> r.value, r.remoteness, r.best_moves
(<Value.WIN: 3>, 5, ('take 1',))
>>> search(TakeAway(), 6, weak=True).value
<Value.LOSE: 0>
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory, format_bytes
from perfectplay.errors import (
    CyclicGraphError,
    GameDefinitionError,
    GameOverError,
    InputFormatError,
)
from perfectplay.moves import Move, optimal_moves, outcome_words
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game, over_value, param_value_text, provides
from perfectplay.search._kernel_table import (
    ENTRY_BYTES,
    MIN_LOG_SIZE,
    entries_for_bytes,
    new_table,
)
from perfectplay.search.kernel import SearchKernel
from perfectplay.search.plain import PlainSearch, deeper_recursion
from perfectplay.search.score import child_window, parent_score, to_value
from perfectplay.search.table import BYTES_PER_ENTRY, DEFAULT_MEMORY, BoundTable
from perfectplay.values import UNKNOWN_REMOTENESS, Value

__all__ = ["KERNEL_MEMORY", "Lookup", "SearchResult", "Searcher", "search"]

Lookup = Callable[[Any], "PositionValue | None"]
"""What the search consults before searching a position: a source of answers' ``get``."""


@dataclass(frozen=True)
class SearchResult:
    """What :func:`search` found at one position, for the player to move there."""

    value: Value
    """WIN, LOSE or TIE for the player to move (by the rules' outcomes, also in scored games)."""
    remoteness: int | None
    """Moves to the end under best play, as the solvers define it; None in a weak search."""
    score: int | None
    """Scored games, strong search: the best (own - opponent) total; None otherwise."""
    best_moves: tuple[str, ...]
    """Labels of the optimal moves, in ``moves`` order (the solvers' best-move rule; in a weak
    search, the moves keeping the value)."""
    moves: tuple[Move[Any], ...]
    """Every move valued for the player making it, in ``moves`` order, when asked with
    ``all_moves`` (a weak search's remoteness :data:`~perfectplay.values.UNKNOWN_REMOTENESS`,
    score None); else empty."""
    nodes: int
    """Positions the search visited (repeat visits count again)."""
    seconds: float
    """Wall-clock time of the search."""

    def __repr__(self) -> str:
        score = "" if self.score is None else f", score {self.score:+d}"
        best = ", ".join(self.best_moves)
        moves = f", {len(self.moves)} moves valued" if self.moves else ""
        return (
            f"<SearchResult: {outcome_words(self.value, self.remoteness)} for the player to move"
            f"{score}; best: {best}{moves}; {self.nodes:,} nodes in {self.seconds:.3f} s>"
        )


def search(
    game: Game[Any],
    position: Any = None,
    *,
    weak: bool = False,
    all_moves: bool = False,
    memory: int | None = None,
    use_kernel: bool = True,
    lookup: Lookup | None = None,
    best: bool = True,
) -> SearchResult:
    """Perfect play at one position: value, remoteness (score) and best moves, by search.

    Parameters
    ----------
    game : Game
        An acyclic game (``GameInfo.cyclic`` false).
    position : optional
        The position to search (default: ``game.initial()``); play must go on there.
    weak : bool
        Decide only WIN/LOSE/TIE (remoteness and score None): one search with the window
        around 0, usually far cheaper than the strong search.
    all_moves : bool
        Also value every move (:attr:`SearchResult.moves`), each for the player making it.
    memory : int, optional
        Byte budget of the transposition table(s) (default 64 MiB; 16 MiB on the kernel
        path, :data:`KERNEL_MEMORY`). Plain path: about 240 bytes per entry, halved between
        two tables for scored games; kernel path: 8 bytes per entry, a power of two of them,
        and by default at least the kernel's ``least_table_bytes`` where it has one (keys
        longer than 64 bits: Connect Four past 64 bits), below which a given budget is
        refused.
    use_kernel : bool
        Use the game's ``search_kernel()`` if it offers one (default); False forces the plain
        path.
    lookup : callable, optional
        Answers known before searching: ``lookup(position)`` gives a
        :class:`~perfectplay.protocol.answers.PositionValue` for the player to move
        (remoteness :data:`~perfectplay.values.UNKNOWN_REMOTENESS` if unknown), or None:
        any source of answers' ``get``. An opening book's or a
        solved database's ``get``. Consulted for `position` and each of its moves' children;
        what it does not hold is searched. Unscored games only (it carries no score).
    best : bool
        Find the best moves (default). False answers the position alone, which saves a
        search per move on the kernel path (:attr:`SearchResult.best_moves` then empty).

    Returns
    -------
    SearchResult
        For the player to move at `position`: ``value`` and ``remoteness`` exactly as
        :func:`~perfectplay.solvers.dag.solve_dag` defines them (from the rules' outcomes,
        gains ignored), ``score`` for scored games, the best moves by the solvers' rule
        (scored games: the score first, then value, then remoteness), the node count and time.

    Raises
    ------
    CyclicGraphError
        If the game declares ``GameInfo(cyclic=True)``: search needs an acyclic game; the
        message points to the retrograde solver and the tier engine.
    GameOverError
        If the game is over at `position` (the rules decide it, or no moves): there is nothing
        to search. An InputFormatError.
    InputFormatError
        If `memory` is not a positive number of bytes holding at least one table entry.
    TooLargeError
        If `memory` exceeds the memory available (refused before allocating, with the
        estimate in the message).
    GameDefinitionError
        If a position repeats on a line of play of a game declared acyclic, or the game's
        kernel is offered for a scored game.

    Notes
    -----
    Cost: the positions alpha-beta visits, which depends on the game and the move order; at
    worst every position reachable from `position`, once per null window (a few windows for
    the strong search: MTD(f) narrows the score, see :func:`~perfectplay.search.score.narrow`).
    A TIE's remoteness costs a breadth-first search through the TIE positions up to the
    nearest level end; best moves one null-window search per move; ``all_moves`` an exact
    search per move. Memory: the table budget, plus one Python frame per ply and, for ties,
    the keys of the TIE positions the breadth-first search meets.

    Examples
    --------
    >>> from perfectplay.protocol.game import Game, GameInfo
    >>> from perfectplay.values import Value
    >>> class TakeAway(Game[int]):
    ...     info = GameInfo("take-away", impartial=True)
    ...     def initial(self) -> int:
    ...         return 4
    ...     def moves(self, heap: int) -> list[tuple[str, int]]:
    ...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
    ...     def outcome(self, heap: int) -> Value | None:
    ...         return None
    >>> r = search(TakeAway(), all_moves=True)
    >>> r
    <SearchResult: WIN in 3 for the player to move; best: take 1, 2 moves valued; ...>
    >>> [str(m) for m in r.moves]
    ['take 1: WIN in 3', 'take 2: LOSE in 2']
    >>> search(TakeAway(), 0)
    Traceback (most recent call last):
    ...
    perfectplay.errors.GameOverError: the game is over at position 0 ...
    """
    searcher = Searcher(game, memory=memory, use_kernel=use_kernel, lookup=lookup)
    return searcher.search(position, weak=weak, all_moves=all_moves, best=best)


class Searcher:
    """Searches of many positions of one game that share one transposition table.

    :func:`search` answers one position; a ``Searcher`` answers many (a file of positions, a
    game played move after move) with the table of the kernel path allocated once and kept:
    what one search stores in it (bounds true of every position) helps the next. Parameters
    as :func:`search`.

    Examples
    --------
    >>> from perfectplay.protocol.game import Game
    >>> class TakeAway(Game[int]):  # take 1 or 2 tokens; who takes the last wins
    ...     def initial(self) -> int:
    ...         return 5
    ...     def moves(self, heap: int) -> list[tuple[str, int]]:
    ...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
    ...     def outcome(self, heap: int) -> None:
    ...         return None
    >>> searcher = Searcher(TakeAway())
    >>> [searcher.search(heap).value.name for heap in (5, 6)]
    ['WIN', 'LOSE']
    """

    def __init__(
        self,
        game: Game[Any],
        *,
        memory: int | None = None,
        use_kernel: bool = True,
        lookup: Lookup | None = None,
    ) -> None:
        info = game.info
        if info.cyclic:
            params = "".join(f" --param {k}={param_value_text(v)}" for k, v in info.params.items())
            raise CyclicGraphError(
                f"{info.name} is loopy (GameInfo(cyclic=True)); search needs an acyclic game: "
                f"solve it with the tier engine (perfectplay solve {info.name}{params} --tiers "
                "DIR, then perfectplay query DIR POSITION) or the retrograde solver "
                "(perfectplay.solve)"
            )
        self.kernel = _kernel(game) if use_kernel else None
        least = _least_table_bytes(self.kernel)
        default = DEFAULT_MEMORY if self.kernel is None else max(KERNEL_MEMORY, least)
        budget = default if memory is None else memory
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InputFormatError(f"memory must be a positive number of bytes, got {memory!r}")
        if self.kernel is not None and budget < least:
            raise InputFormatError(
                f"memory={budget} bytes is below the smallest table {info.name}'s compiled "
                f"search takes here ({format_bytes(least)}, for its longer keys); give at least "
                "that much"
            )
        self.game = game
        self.memory = budget
        self.lookup = lookup if not info.scored else None
        self.use_kernel = use_kernel
        self._table = _kernel_table(budget) if self.kernel is not None else None
        self._over = _over_test(game, self.kernel)

    def search(
        self,
        position: Any = None,
        *,
        weak: bool = False,
        all_moves: bool = False,
        best: bool = True,
    ) -> SearchResult:
        """Perfect play at `position` (default: the start); as :func:`search`."""
        start = time.perf_counter()
        game = self.game
        here = game.initial() if position is None else position
        over = self._over(here)
        if over is not None:
            raise _game_over(game, here, over)
        known = None
        if self.lookup is not None:
            known = self._from_lookup(here, self.lookup, weak, all_moves)
        found = known if known is not None else self._searched(here, weak, all_moves, best)
        value, remoteness, score, chosen, moves, nodes = found
        seconds = time.perf_counter() - start
        return SearchResult(value, remoteness, score, chosen, moves, nodes, seconds)

    def _searched(self, position: Any, weak: bool, all_moves: bool, best: bool) -> _Found:
        """`position` searched on the kernel path (this searcher's table) or the plain path."""
        if self.kernel is not None and self._table is not None:
            return _with_kernel(
                self.kernel, self.game, position, self._table, weak, all_moves, best
            )
        with deeper_recursion():
            return _plain(self.game, position, self.memory, weak, all_moves)

    def _from_lookup(
        self, position: Any, lookup: Lookup, weak: bool, all_moves: bool
    ) -> _Found | None:
        """The answer at `position` from `lookup`, its moves from `lookup` or searched (with
        this searcher's table); None if `lookup` does not hold `position` (or holds no
        remoteness where a strong answer is asked)."""
        root = lookup(position)
        if root is None or (not weak and root.remoteness == UNKNOWN_REMOTENESS):
            return None
        game = self.game
        valued: list[Move[Any]] = []
        nodes = 0
        for move in game.moves(position):
            child = move[1]
            over = over_value(game, child)
            answer = PositionValue(over, 0) if over is not None else lookup(child)
            if answer is None or (not weak and answer.remoteness == UNKNOWN_REMOTENESS):
                found = self._searched(child, weak, False, False)
                nodes += found[5]
                remoteness = UNKNOWN_REMOTENESS if found[1] is None else found[1]
                answer = PositionValue(found[0], remoteness)
            remoteness = UNKNOWN_REMOTENESS if weak else answer.remoteness
            valued.append(Move.into(str(move[0]), child, answer.value, remoteness))
        kept = tuple(valued) if all_moves else ()
        if weak:
            best = tuple(m.label for m in valued if m.value == root.value)
            return root.value, None, None, best, kept, nodes
        best = _best(valued, root.value, None)
        return root.value, root.remoteness, None, best, kept, nodes


KERNEL_MEMORY = 16 << 20
"""The default table of a compiled search: 16 MiB (2 million entries). Connect Four 6 x 7's
hardest test positions search as many nodes with it as with 64 or 256 MiB, and a smaller table
is quicker to map and to probe (docs/search.md)."""

_Found = tuple[Value, int | None, int | None, tuple[str, ...], tuple[Move[Any], ...], int]
"""What a path returns: value, remoteness, score, best moves, moves, nodes."""


def _over_test(game: Game[Any], kernel: SearchKernel | None) -> Callable[[Any], Value | None]:
    """What tells the search whether the game is over at a position (the value for the player
    to move there, else None): the kernel's optional ``over`` where it offers one (the same
    answer as :func:`~perfectplay.protocol.game.over_value`, without building the moves),
    else ``over_value``."""
    over: Callable[[Any], Value | None] | None = getattr(kernel, "over", None)
    return over if over is not None else functools.partial(over_value, game)


def _game_over(game: Game[Any], position: Any, over: Value) -> GameOverError:
    """The error of a search asked at `position`, where the game is over with value `over`."""
    return GameOverError(
        f"the game is over at position {_written(game, position)} ({Value(over).name} for "
        "the player to move); search a position where play goes on"
    )


def _least_table_bytes(kernel: SearchKernel | None) -> int:
    """The smallest table `kernel` takes: its optional ``least_table_bytes`` (a kernel whose
    keys are longer than 64 bits keeps part of them in its entries' checks), else 0."""
    return int(getattr(kernel, "least_table_bytes", 0))


def _written(game: Game[Any], position: Any) -> str:
    """`position` in the game's one-line notation (``notation``), else ``repr``."""
    try:
        return str(game.notation(position))
    except Exception:  # a game of one's own without a notation or a render
        return repr(position)


def _kernel(game: Game[Any]) -> SearchKernel | None:
    """The game's compiled search, if it offers one (the optional ``search_kernel()``)."""
    kernel = game.search_kernel() if provides(game, "search_kernel") else None
    if kernel is None:
        return None
    if game.info.scored:
        raise GameDefinitionError(
            f"{game.info.name} is scored; search kernels are for unscored games (the engine "
            "searches scored games on the plain path)"
        )
    if not isinstance(kernel, SearchKernel):
        raise GameDefinitionError(
            f"{game.info.name}.search_kernel() returned {type(kernel).__name__}, which lacks "
            "the SearchKernel methods (solve, move_scores, move_bounds, "
            "score_to_value_remoteness)"
        )
    return kernel


# ---------------------------------------------------------------------- plain path
def _plain(game: Game[Any], position: Any, memory: int, weak: bool, all_moves: bool) -> _Found:
    """The plain path: PlainSearch over the game's Python methods."""
    scored = game.info.scored and not weak
    tables = 2 if scored else 1
    entries = memory // (BYTES_PER_ENTRY * tables)
    if entries < 1:
        raise InputFormatError(
            f"memory={memory} bytes holds no transposition table entry; give at least "
            f"{BYTES_PER_ENTRY * tables} bytes ({BYTES_PER_ENTRY} per entry"
            f"{', two tables for a scored game' if scored else ''})"
        )
    check_memory(
        memory,
        f"the transposition table{'s' if scored else ''} of {game.info.name} "
        f"({tables * entries:,} entries of about {BYTES_PER_ENTRY} bytes, "
        f"{format_bytes(memory)})",
    )
    s = PlainSearch(game, BoundTable(entries), BoundTable(entries) if scored else None)
    moves = list(game.moves(position))
    if weak:  # every move's sign: the best moves are those keeping the value
        value = s.sign(position)
        valued = [Move(str(m[0]), m[1], s.sign(m[1]).flipped(), UNKNOWN_REMOTENESS) for m in moves]
        best = tuple(m.label for m in valued if m.value == value)
        return value, None, None, best, tuple(valued) if all_moves else (), s.nodes
    exact = s.value_score(position)
    value, remoteness = to_value(exact)
    if remoteness is None:
        remoteness = s.tie_remoteness(position)
    score = s.points(position) if scored else None
    # Strong: moves valued exactly, all of them or only those reaching the position's score.
    chosen = [
        _valued_move(s, m, scored) if all_moves or _may_be_best(s, m, exact, score) else None
        for m in moves
    ]
    best = _best([m for m in chosen if m is not None], value, score)
    kept = tuple(m for m in chosen if m is not None) if all_moves else ()
    return value, remoteness, score, best, kept, s.nodes


def _valued_move(s: PlainSearch[Any], move: tuple[Any, ...], scored: bool) -> Move[Any]:
    """One move valued exactly for the player making it (a strong search of the child)."""
    label, child = move[0], move[1]
    value, remoteness = to_value(parent_score(s.value_score(child)))
    if remoteness is None:
        remoteness = 1 + s.tie_remoteness(child)
    points = None
    if scored:
        gain = int(move[2]) if len(move) == 3 else 0
        points = gain - s.points(child)
    return Move(str(label), child, value, remoteness, points)


def _may_be_best(s: PlainSearch[Any], move: tuple[Any, ...], exact: int, score: int | None) -> bool:
    """Whether a move reaches the position's score: one null-window search of the child."""
    child = move[1]
    if score is None:  # does parent_score(child) reach `exact`?
        a, b = child_window(exact - 1, exact)
        return parent_score(s.value_bound(child, a, b)) >= exact
    gain = int(move[2]) if len(move) == 3 else 0  # does gain - points(child) reach `score`?
    return gain - s.points_bound(child, gain - score, gain - score + 1) >= score


def _best(valued: list[Move[Any]], value: Value, score: int | None) -> tuple[str, ...]:
    """Labels of the optimal moves among `valued` (every move that may qualify), by the
    solvers' rule :func:`~perfectplay.moves.optimal_moves`."""
    return tuple(m.label for m in optimal_moves(valued, value, score))


# ---------------------------------------------------------------------- kernel path
def _kernel_table(memory: int) -> NDArray[np.uint64]:
    """The kernel path's table: the largest power of two of 8-byte entries within `memory`,
    refused before allocating if it is below the smallest or does not fit."""
    least = (1 << MIN_LOG_SIZE) * ENTRY_BYTES
    if memory < least:
        raise InputFormatError(
            f"memory={memory} bytes is below the smallest table of a compiled search "
            f"({format_bytes(least)})"
        )
    entries = entries_for_bytes(memory)
    check_memory(
        entries * ENTRY_BYTES,
        f"the search table ({entries:,} entries of {ENTRY_BYTES} bytes, "
        f"{format_bytes(entries * ENTRY_BYTES)})",
    )
    return new_table(memory)


def _with_kernel(
    kernel: SearchKernel,
    game: Game[Any],
    position: Hashable,
    table: NDArray[np.uint64],
    weak: bool,
    all_moves: bool,
    best: bool,
) -> _Found:
    """The kernel path: the game's compiled alpha-beta over `table` (the game's ``moves``
    name the position each labelled move leads to)."""
    score, nodes = kernel.solve(position, weak, table)
    if weak:
        value = _sign(score)
        if not (all_moves or best):
            return value, None, None, (), (), nodes
        signs, n = kernel.move_scores(position, True, table)
        chosen = tuple(label for label, s in signs if _sign(s) == value)
        if not all_moves:
            return value, None, None, chosen, (), nodes + n
        valued = tuple(
            Move(label, child, _sign(s), UNKNOWN_REMOTENESS)
            for label, s, child in _children(game, position, signs)
        )
        return value, None, None, chosen, valued, nodes + n
    value, remoteness = kernel.score_to_value_remoteness(position, score)
    if all_moves:
        scores, n = kernel.move_scores(position, False, table)
        moves = tuple(
            Move(label, child, *kernel.score_to_value_remoteness(position, s))
            for label, s, child in _children(game, position, scores)
        )
        chosen = tuple(label for label, s in scores if s == score)
        return Value(value), remoteness, None, chosen, moves, nodes + n
    if not best:
        return Value(value), remoteness, None, (), (), nodes
    bounds, n = kernel.move_bounds(position, score - 1, score, table)  # which reach the score?
    chosen = tuple(label for label, s in bounds if s >= score)
    return Value(value), remoteness, None, chosen, (), nodes + n


def _children(
    game: Game[Any], position: Any, scored: tuple[tuple[str, int], ...]
) -> list[tuple[str, int, Any]]:
    """The kernel's ``(label, score)`` pairs, each with the position its move leads to by the
    game's ``moves``: ``(label, score, child)``. Cost: one ``moves`` call."""
    children = {str(m[0]): m[1] for m in game.moves(position)}
    return [(label, s, children[label]) for label, s in scored]


def _sign(score: int) -> Value:
    """The value a score's sign stands for (window (-1, 1) results)."""
    return Value.WIN if score >= 1 else Value.LOSE if score <= -1 else Value.TIE
