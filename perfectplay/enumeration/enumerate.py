"""The enumerator: every position reachable in a :class:`~perfectplay.protocol.game.Game`,
as a graph.

Positions are numbered breadth-first from the initial position (id 0): layer ``k`` holds the
positions first reached after ``k`` moves. When every move leads to a later layer (games where
each move adds a stone), the numbering is a topological order and the DAG solver uses it as
is; otherwise solvers compute their own order or use retrograde analysis.

Two paths build the same graph, id for id:

* the **plain path** calls ``outcome`` and ``moves`` once per position, in Python, and keeps the
  positions themselves (a dict maps each position to its id);
* the **vectorized path**, for games with ``encode``/``decode``, ``batch_outcome`` and
  ``batch_moves``, works on whole layers of integer codes: it calls the game once per layer,
  groups the layer's moves by parent and numbers every move's child in one numba pass over
  a hash table of all the codes seen so far (:mod:`perfectplay.enumeration._kernels`).
  No Python call per position, no sort.

Both give a position its id when it is first met, parents taken by increasing id and each
parent's moves in the game's order, so ids are breadth-first and deterministic, and the two
paths agree exactly (the tests check it on every registered game).

Examples
--------
>>> from perfectplay.games.nim.rules import Nim
>>> e = enumerate_game(Nim(heaps=(1, 2)))
>>> e.graph, e.positions
(<GameGraph n=5, m=8>, [(1, 2), (0, 2), (1, 1), (0, 1), (0, 0)])
>>> e.layers.tolist(), e.id_of((2, 0)), e.topological
([0, 1, 4, 5], 1, False)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, Generic

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import available_bytes, check_memory
from perfectplay.enumeration._kernels import (
    BAD_CODE,
    BAD_PARENT,
    LIMIT,
    OVER_MOVES,
    CodeTable,
    first_bad_outcome,
    group_moves,
)
from perfectplay.errors import GameDefinitionError, PositionNotFoundError, TooLargeError
from perfectplay.graph import GameGraph
from perfectplay.protocol.game import Game, P, provides
from perfectplay.values import LOSE, TIE, UNDECIDED, VALUE_DTYPE, WIN, Value

__all__ = ["DEFAULT_MAX_POSITIONS", "Enumeration", "enumerate_game", "has_vectorized_path"]

DEFAULT_MAX_POSITIONS = {"plain": 20_000_000, "vectorized": 1_000_000_000}
"""Position limits when ``max_positions`` is not given: Python objects cost ~100-200 bytes per
position on the plain path; on the vectorized one, a code (8 bytes, in a buffer with room for
8 to 16), its 2 to 4 hash-table slots (32 to 64), its ``indptr`` entry (4, room for 8) and
primitive value (1) cost 45 to 89 bytes (the buffers' untouched room takes no memory), plus 4
bytes per move."""

_PROGRESS_FORMAT = "{desc}: {n:,}{unit} [{elapsed}, {rate_noinv_fmt}{postfix}]"
"""The enumeration's progress bar (a tqdm ``bar_format``; the total is not known ahead): the
positions found so far, a whole number with thousands separators (``3 positions``,
``80,541 positions``; tqdm's own ``unit_scale`` count would print ``3.00`` and ``80.5k``), the
time elapsed and the rate with a metric prefix (``5.81M positions/s``)."""

_PROGRESS_EVERY = 1 << 16  # plain path: positions between progress-bar updates
# the least a position costs: vectorized, its code (8), int32 indptr entry (4), primitive
# value (1) and 2 table slots of 16 bytes
_BYTES_PER_POSITION = {"plain": 100, "vectorized": 45}
# plain path: a list slot, the int64 copy and the graph's int32 copy; vectorized path: the
# layer's parent and child codes (16) and the move's int32 id (4), copied when the layers join
_BYTES_PER_MOVE = {"plain": 32, "vectorized": 24}
_CODE_LIMIT = 2**63  # codes are int64
# the numba kernels take the limit as an int64: a larger one is clamped to this, which no
# memory can hold (the table alone would take 2**67 bytes)
_KERNEL_LIMIT = 2**62
_RULE_VALUES = frozenset((LOSE, TIE, WIN))
# layers growing by more than this ratio per move make the hash table hedge when it grows
# (quadruple, see CodeTable.reserve): Connect Four's layers grow by 1.3 to 3 until the last
# few before the peak
_FAST_GROWTH = 1.2
_INTEGER_KINDS = "iu"  # numpy's dtype kinds of signed and unsigned integers (not bool)


class Enumeration(Generic[P]):
    """Every reachable position of a game, numbered breadth-first, with its moves.

    Attributes
    ----------
    game : Game
        The enumerated game.
    graph : GameGraph
        The moves between position ids; id 0 is the initial position.
    primitive : ndarray of uint8, shape (n,)
        The value the rules fix for the player to move where the game is over (WIN, LOSE or
        TIE), ``UNDECIDED`` elsewhere: the ``primitive`` argument of the graph solvers.
    terminal_score : ndarray of int64, shape (n,), or None
        Scored games: ``game.terminal_score`` where the game is over, 0 elsewhere.
    layers : ndarray of int64, shape (depth + 2,)
        Layer ``k`` is ids ``layers[k]:layers[k + 1]``: positions first reached in ``k`` moves.
    path : str
        ``"plain"`` or ``"vectorized"``.
    canonical : bool
        Whether positions were replaced by ``game.canonical`` forms.
    seconds : float
        Wall-clock time of the enumeration.
    """

    def __init__(
        self,
        game: Game[P],
        graph: GameGraph,
        primitive: NDArray[np.uint8],
        layers: NDArray[np.int64],
        *,
        path: str,
        canonical: bool,
        seconds: float,
        positions: list[P] | None = None,
        index: dict[P, int] | None = None,
        codes: NDArray[np.int64] | None = None,
        terminal_score: NDArray[np.int64] | None = None,
    ) -> None:
        self.game = game
        self.graph = graph
        self.primitive = primitive
        self.layers = layers
        self.path = path
        self.canonical = canonical
        self.seconds = seconds
        self.terminal_score = terminal_score
        self._positions = positions
        self._index = index
        self._codes = codes
        self._sorted: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None

    @property
    def n(self) -> int:
        """Number of positions."""
        return self.graph.n

    @property
    def rate(self) -> float:
        """Positions enumerated per second."""
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    @property
    def topological(self) -> bool:
        """Whether every move goes to a later layer (so ids are a topological order)."""
        layer = np.repeat(np.arange(self.layers.size - 1), np.diff(self.layers))
        src = np.repeat(layer, np.diff(self.graph.indptr))
        return bool(np.all(layer[self.graph.indices] > src))

    @property
    def positions(self) -> list[P]:
        """The position of every id (built by decoding on the vectorized path)."""
        if self._positions is None:
            decode = self.game.decode
            self._positions = [decode(int(c)) for c in self.codes]
        return self._positions

    @property
    def codes(self) -> NDArray[np.int64]:
        """The integer code of every id (``game.encode``; computed once on the plain path).

        Raises
        ------
        GameDefinitionError
            If the game has no ``encode``.
        """
        if self._codes is None:
            game = self.game
            self._codes = np.fromiter(
                (_code(game, p) for p in self.positions), dtype=np.int64, count=self.n
            )
        return self._codes

    def id_of_code(self, code: int) -> int:
        """The id of the position with integer code `code` (already canonical).

        Raises
        ------
        PositionNotFoundError
            If no reachable position has that code.
        """
        if self._sorted is None:
            order = np.argsort(self.codes, kind="stable")
            self._sorted = (self.codes[order], order)
        keys, order = self._sorted
        i = int(np.searchsorted(keys, code))
        if i == keys.size or int(keys[i]) != code:
            raise PositionNotFoundError(
                f"code {code} is not a position reachable in {self.game.info.name}"
            )
        return int(order[i])

    def id_of(self, position: P) -> int:
        """The id of `position` (its canonical form, if the enumeration used them).

        Raises
        ------
        PositionNotFoundError
            If the position is not reachable from the initial position.
        """
        asked = position
        if self.canonical:
            position = self.game.canonical(position)
        by_code = self._index is None and self._positions is None
        code = self.game.encode(position) if by_code else None
        try:
            if code is not None:
                return self.id_of_code(code)
            if self._index is None:
                self._index = {p: i for i, p in enumerate(self.positions)}
            return self._index[position]
        except (KeyError, TypeError, PositionNotFoundError):
            raise PositionNotFoundError(
                f"{self._shown(asked)} is not a position reachable in {self.game.info.name}"
            ) from None

    def _shown(self, position: Any) -> str:
        """`position` as a message names it: its notation, quoted (as typed), else its repr."""
        try:
            return repr(self.game.notation(position))
        except Exception:  # a value that is no position of the game: shown as it is
            return repr(position)

    def position_of(self, pid: int) -> P:
        """The position with id `pid` (decoded on the vectorized path)."""
        if not 0 <= pid < self.n:
            raise PositionNotFoundError(f"position id {pid} out of range 0..{self.n - 1}")
        if self._positions is None:
            return self.game.decode(int(self.codes[pid]))
        return self._positions[pid]

    def __repr__(self) -> str:
        return (
            f"<Enumeration of {self.game.info.name}: n={self.n}, m={self.graph.m}, "
            f"{self.path} path, {self.rate:,.0f} positions/s>"
        )


def has_vectorized_path(game: Game[Any]) -> bool:
    """Whether `game` provides everything the vectorized path needs."""
    return all(
        provides(game, name) for name in ("encode", "decode", "batch_outcome", "batch_moves")
    )


def enumerate_game(
    game: Game[P],
    *,
    max_positions: int | None = None,
    progress: bool | None = None,
    vectorized: bool | None = None,
    canonical: bool = True,
) -> Enumeration[P]:
    """Explore every position reachable from ``game.initial()``.

    Parameters
    ----------
    game : Game
        The game to enumerate.
    max_positions : int, optional
        Stop with :class:`TooLargeError` beyond this many positions. Defaults to
        :data:`DEFAULT_MAX_POSITIONS` for the path taken. Below 1 (fewer than the initial
        position) it is refused at once; any larger int is accepted (the vectorized path's
        kernels count in int64 and stop at ``2**62`` instead, far beyond any memory).
    progress : bool, optional
        Show a tqdm progress bar on standard error. Default: only when standard error is a
        terminal, and only once the run has lasted half a second.
    vectorized : bool, optional
        Use the vectorized path. Default: whenever the game provides it (and `canonical` is
        not turned off for a game with symmetries).
    canonical : bool
        Replace positions by ``game.canonical`` forms (symmetry reduction). ``False`` explores
        the full game on the plain path, e.g. to check that canonical forms keep values.

    Returns
    -------
    Enumeration
        The graph, primitive values, layers, id <-> position mapping and timing.

    Raises
    ------
    TooLargeError
        If more than `max_positions` positions are reachable (always when it is below 1),
        or the moves or positions
        found would not fit in memory. A game with ``position_bound`` or ``move_bound`` is
        refused before any work when its bounds exceed `max_positions` or memory (the bounds
        are used only when positions are reduced by ``canonical``, or the game has none).
    GameDefinitionError
        If the game breaks the protocol: a move that is not a ``(label, position)`` pair (or
        triple for scored games), an unhashable position, an outcome that is not WIN, LOSE,
        TIE or None, malformed batch arrays, or ``vectorized=True`` for a game without them
        (or with ``canonical=False`` for a game with symmetries), a code outside
        ``0..2**63 - 1``, or ``batch_moves`` listing moves from a code that
        ``batch_outcome`` says is over (the plain path never asks ``moves`` there).

    Notes
    -----
    Cost: plain path, one ``outcome`` call per position and one ``moves`` call per position
    where play goes on, plus a dict lookup per move: O(n + m) Python work, typically 10^5 to
    10^6 positions per second. Vectorized path: per layer, the game's batch calls, a counting
    sort of the moves by parent (skipped when the game lists them by parent already) and one
    hash-table probe per move: O(n + m) expected array work, 12 to 16 million positions per
    second on Connect Four (see ``benchmarks/bench_games.py``). Memory: the graph takes 4
    bytes per move (``indices``, int32 while n < 2**31) and 4 per position (``indptr``,
    int32 while m < 2**31; 8 bytes each beyond), the primitive values 1 byte per position.
    The plain path adds the positions and their dict (100 to 200 bytes per position) and a
    Python list of the move ids while collecting them; the vectorized path, the codes (8 bytes
    per position) and a hash table of 32 to 64 bytes per position (up to 128 while it is
    below 64 MiB: a small table grows at least fourfold while the layers grow fast), and
    briefly holds the move ids twice when joining the layers.
    """
    reduced = canonical or not provides(game, "canonical")  # batch_moves gives canonical codes
    if vectorized is None:
        vectorized = has_vectorized_path(game) and not game.info.scored and reduced
    elif vectorized and not reduced:
        raise GameDefinitionError(
            f"{game.info.name}: the vectorized path always reduces by symmetry "
            "(batch_moves gives canonical codes); use canonical=True or the plain path"
        )
    elif vectorized and not has_vectorized_path(game):
        raise GameDefinitionError(
            f"{game.info.name} has no vectorized path: it needs encode, decode, "
            "batch_outcome and batch_moves"
        )
    if vectorized and game.info.scored:
        raise GameDefinitionError(f"{game.info.name} is scored; the vectorized path is unscored")
    path = "vectorized" if vectorized else "plain"
    limit = DEFAULT_MAX_POSITIONS[path] if max_positions is None else max_positions
    if limit < 1:  # the initial position alone is too many
        raise _too_large(game, limit)
    use_canonical = canonical and provides(game, "canonical")
    if reduced:
        _check_bound(game, limit, path)
    show = sys.stderr.isatty() if progress is None else progress
    from tqdm import tqdm

    bar = tqdm(
        desc=f"enumerating {game.info.name}",
        unit=" positions",
        unit_scale=True,  # the rate with a metric prefix: 5.81M positions/s, not 5812368.94
        bar_format=_PROGRESS_FORMAT,
        disable=not show,
        delay=0.5 if progress is None else 0.0,
        leave=False,
    )
    try:
        if vectorized:
            return _enumerate_vectorized(game, limit, use_canonical, bar)
        return _enumerate_plain(game, limit, use_canonical, bar)
    finally:
        bar.close()


def _check_bound(game: Game[Any], limit: int, path: str) -> None:
    """Refuse a game whose ``position_bound`` exceeds `limit`, or whose ``position_bound`` and
    ``move_bound`` together exceed memory, before any work."""
    bound = game.position_bound() if provides(game, "position_bound") else None
    move_bound = game.move_bound() if provides(game, "move_bound") else None
    if bound is not None and bound > limit:
        raise TooLargeError(
            f"{game.info.name} may have up to {bound:,} reachable positions, more than "
            f"max_positions={limit:,}",
            limit="max_positions",
            estimate=bound,
            advice="raise max_positions if memory allows",
        )
    # ints: a bound may exceed any float; check_memory takes arbitrarily large ints
    estimate = _BYTES_PER_POSITION[path] * (bound or 0) + _BYTES_PER_MOVE[path] * (move_bound or 0)
    sizes = [
        f"up to {count:,} {what}"
        for count, what in ((bound, "positions"), (move_bound, "moves"))
        if count is not None
    ]
    if sizes:
        check_memory(estimate, f"enumerating {game.info.name} ({' and '.join(sizes)})")


def _code(game: Game[Any], position: Any) -> int:
    """``game.encode(position)``, checked to be an int in ``0..2**63 - 1``."""
    code = game.encode(position)
    if isinstance(code, bool) or not isinstance(code, int | np.integer):
        raise GameDefinitionError(
            f"{game.info.name}: encode({position!r}) returned {code!r}; expected an int"
        )
    if not 0 <= int(code) < _CODE_LIMIT:
        raise GameDefinitionError(
            f"{game.info.name}: encode({position!r}) returned {int(code)}, outside the int64 "
            f"codes 0..{_CODE_LIMIT - 1}; the game is too large for integer codes"
        )
    return int(code)


class _Budget:
    """The memory available, re-read from the system at most once a second."""

    def __init__(self) -> None:
        self.read_at = time.monotonic()
        self.available = available_bytes()

    def check(self, estimate: float, what: str) -> None:
        """Raise TooLargeError (through check_memory) if `estimate` bytes exceed the budget."""
        now = time.monotonic()
        if now - self.read_at > 1.0:
            self.read_at, self.available = now, available_bytes()
        if estimate > self.available:
            check_memory(estimate, what)


def _too_large(game: Game[Any], limit: int) -> TooLargeError:
    return TooLargeError(
        f"{game.info.name} has more than max_positions={limit:,} reachable positions",
        limit="max_positions",
        advice="raise max_positions if memory allows",
    )


def _enumerate_plain(game: Game[P], limit: int, use_canonical: bool, bar: Any) -> Enumeration[P]:
    """Breadth-first search calling the game once per position (see :func:`enumerate_game`)."""
    began = time.perf_counter()
    scored = game.info.scored
    canon = game.canonical if use_canonical else None
    start = game.initial()
    if canon is not None:
        start = canon(start)
    _check_hashable(game, start, "the initial position")
    positions: list[P] = [start]
    index: dict[P, int] = {start: 0}
    targets: list[int] = []
    gains: list[int] = []
    indptr: list[int] = [0]
    over_ids: list[int] = []
    over_values: list[Any] = []
    layers = [0]
    layer_end = 1
    outcome = game.outcome
    moves: Callable[[P], Iterable[Any]] = game.moves  # tuples checked by unpacking
    head = 0
    p = start
    # Everything collected so far is already allocated, so the budget is fixed at the start.
    move_budget = available_bytes() // _BYTES_PER_MOVE["plain"]
    try:
        while head < len(positions):
            if len(targets) > move_budget:
                raise TooLargeError(
                    f"{game.info.name} has more than {len(targets):,} moves from its first "
                    f"{head:,} positions: the enumeration would not fit in memory"
                )
            if head == layer_end:
                layers.append(head)
                layer_end = len(positions)
                bar.update(head - bar.n)
            p = positions[head]
            rule = outcome(p)
            if rule is None:
                for move in moves(p):
                    if scored:
                        _, q, gain = move
                        gains.append(gain)
                    else:
                        _, q = move
                    if canon is not None:
                        q = canon(q)
                    i = index.get(q)
                    if i is None:
                        i = len(positions)
                        if i >= limit:
                            raise _too_large(game, limit)
                        index[q] = i
                        positions.append(q)
                    targets.append(i)
            else:
                over_ids.append(head)
                over_values.append(rule)
            indptr.append(len(targets))
            head += 1
            if not head & (_PROGRESS_EVERY - 1):
                bar.update(head - bar.n)
    except (TypeError, ValueError) as error:
        raise GameDefinitionError(_diagnose(game, p, error)) from error
    n = len(positions)
    layers.append(n)
    primitive = np.full(n, UNDECIDED, dtype=VALUE_DTYPE)
    if over_values:
        _check_rule_values(game, over_values, over_ids, positions)
        primitive[np.array(over_ids)] = np.array(over_values, dtype=VALUE_DTYPE)
    terminal = None
    if scored:
        terminal = np.zeros(n, dtype=np.int64)
        score = game.terminal_score
        terminal[over_ids] = [score(positions[i]) for i in over_ids]
    graph = GameGraph(
        np.array(indptr, dtype=np.int64),
        np.array(targets, dtype=np.int64),
        gain=np.array(gains, dtype=np.int64) if scored else None,
    )
    return Enumeration(
        game,
        graph,
        primitive,
        np.array(layers, dtype=np.int64),
        path="plain",
        canonical=canon is not None,
        seconds=time.perf_counter() - began,
        positions=positions,
        index=index,
        terminal_score=terminal,
    )


def _check_hashable(game: Game[Any], position: Any, what: str) -> None:
    try:
        hash(position)
    except TypeError:
        raise GameDefinitionError(
            f"{game.info.name}: {what} {position!r} is unhashable "
            f"({type(position).__name__}); use a tuple, str, int or frozen dataclass"
        ) from None


def _check_rule_values(
    game: Game[Any], values: list[Any], ids: list[int], positions: list[Any]
) -> None:
    """Every outcome that ended the game is WIN, LOSE or TIE, else name the first bad one."""
    bad = set(values) - _RULE_VALUES
    if bad:
        i = next(k for k, v in enumerate(values) if v in bad)
        raise GameDefinitionError(
            f"{game.info.name}: outcome({positions[ids[i]]!r}) returned {values[i]!r}; "
            "expected None, Value.WIN, Value.LOSE or Value.TIE"
        )


def _diagnose(game: Game[Any], position: Any, error: Exception) -> str:
    """One sentence on why enumerating from `position` failed with `error`."""
    name = game.info.name
    shape = "(label, position, gain)" if game.info.scored else "(label, position)"
    try:
        moves: Iterable[Any] = list(game.moves(position))
    except Exception:
        return f"{name}: moves({position!r}) failed: {error}"
    for move in moves:
        if not isinstance(move, tuple) or len(move) not in (2, 3):
            return f"{name}: moves({position!r}) yielded {move!r}; expected a {shape} tuple"
        if len(move) != (3 if game.info.scored else 2):
            hint = "GameInfo(scored=False)" if len(move) == 2 else "GameInfo(scored=True)"
            return f"{name}: moves({position!r}) yielded {move!r}; a {len(move)}-tuple needs {hint}"
        try:
            hash(game.canonical(move[1]))
        except TypeError:
            return (
                f"{name}: move {move[0]!r} from {position!r} leads to an unhashable "
                f"position ({type(move[1]).__name__}); use a tuple, str, int or frozen dataclass"
            )
    return f"{name}: enumerating from {position!r} failed: {error}"


def _as_codes(game: Game[Any], what: str, arr: Any) -> NDArray[np.int64]:
    a = np.asarray(arr)
    if a.dtype == np.int64 and a.ndim == 1:  # the usual case, checked at no cost
        return a
    if a.ndim != 1 or (a.size and a.dtype.kind not in _INTEGER_KINDS):
        raise GameDefinitionError(
            f"{game.info.name}: {what} must be a 1-D integer array, got {a.dtype} {a.shape}"
        )
    if a.dtype == np.uint64 and a.size and int(a.max()) >= _CODE_LIMIT:
        raise GameDefinitionError(
            f"{game.info.name}: {what} holds {int(a.max())}, beyond the int64 codes"
        )
    return a.astype(np.int64, copy=False)


def _batch(
    game: Game[Any], frontier: NDArray[np.int64]
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int64]]:
    """The game's batch calls on one layer, checked: (outcomes, parents, children).

    The parents' range and the children's signs are checked while the moves are grouped.
    """
    name = game.info.name
    outcomes = np.asarray(game.batch_outcome(frontier))
    if outcomes.shape != frontier.shape or (
        outcomes.size and outcomes.dtype.kind not in _INTEGER_KINDS
    ):
        raise GameDefinitionError(
            f"{name}: batch_outcome returned {outcomes.dtype} {outcomes.shape} for "
            f"{frontier.size} codes; expected one integer value per code"
        )
    i = first_bad_outcome(outcomes)
    if i >= 0:
        raise GameDefinitionError(
            f"{name}: batch_outcome gave {int(outcomes[i])} for code {int(frontier[i])}; "
            "expected WIN, LOSE, TIE or UNDECIDED"
        )
    parents, children = game.batch_moves(frontier)
    parent = _as_codes(game, "batch_moves parents", parents)
    child = _as_codes(game, "batch_moves children", children)
    if parent.shape != child.shape:
        raise GameDefinitionError(
            f"{name}: batch_moves returned {parent.size} parents but {child.size} children"
        )
    return outcomes.astype(VALUE_DTYPE, copy=False), parent, child


def _group(
    game: Game[Any],
    frontier: NDArray[np.int64],
    outcomes: NDArray[np.uint8],
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
    degree: NDArray[np.int32],
) -> NDArray[np.int64]:
    """One layer's moves grouped by parent, counted into the zeros of `degree`
    (:func:`group_moves`), or GameDefinitionError naming the first bad parent, or the first code
    that is over but has moves (the plain path never asks for the moves of an over position)."""
    status, i, grouped = group_moves(parent, child, outcomes, degree)
    if status == BAD_PARENT:
        raise GameDefinitionError(
            f"{game.info.name}: batch_moves parents must index the codes given "
            f"(0..{frontier.size - 1}), got {int(parent[i])}"
        )
    if status == OVER_MOVES:
        count = int(degree[i])
        raise GameDefinitionError(
            f"{game.info.name}: code {int(frontier[i])} is over (outcome "
            f"{Value(int(outcomes[i])).name}) but batch_moves gives {count} "
            f"move{'s' if count > 1 else ''}; an over position must have no moves"
        )
    return grouped


def _enumerate_vectorized(
    game: Game[P], limit: int, use_canonical: bool, bar: Any
) -> Enumeration[P]:
    """Layer-by-layer search over integer codes (see :func:`enumerate_game`)."""
    began = time.perf_counter()
    start = game.initial()
    if use_canonical:
        start = game.canonical(start)
    seen = CodeTable()
    stop_at = min(limit, _KERNEL_LIMIT)  # an int64 for the kernels
    # every id is below `limit`
    id_dtype: type[np.signedinteger[Any]] = np.int32 if limit <= 2**31 else np.int64
    first = np.array([_code(game, start)], dtype=np.int64)
    # limit >= 1 (enumerate_game) and the code is checked: the first position is always numbered
    _, _, frontier = seen.number(first, stop_at, np.empty(1, dtype=id_dtype))
    # the move count of id i at counts[i + 1], summed in place into indptr at the end: room
    # for every code the table may hold (reallocated with it), zeros where not counted yet; a
    # position's moves fit in memory, so int32
    counts = np.zeros(seen.codes.size + 1, dtype=np.int32)
    bounds = [0, 1]  # the first id of each layer, then n
    outcome_parts: list[NDArray[np.uint8]] = []
    dst_parts: list[NDArray[Any]] = []
    budget = _Budget()
    fresh_per_move = 1.0  # new positions per move in the last layer
    growth = 1.0  # the last layer's size over the one before
    while frontier.size:
        outcomes, parent, child = _batch(game, frontier)
        outcome_parts.append(outcomes)
        fresh = fresh_per_move * child.size  # the new positions this layer is expected to add
        expected = min(seen.n + int(fresh), stop_at)
        # if the table must grow, it grows once for this layer and, at the same rate, the next
        target = (
            expected if seen.has_room(expected) else min(expected + int(fresh * growth), stop_at)
        )
        # while layers still grow fast, more positions are likely to follow than foreseen
        hedge = growth > _FAST_GROWTH
        grown = seen.grown_bytes(target, hedge)
        # grouped codes (8) and ids (4 or 8) of this layer's moves; the table, its codes and
        # the counts, and their new copies (the counts take 1/10 of the table's new bytes)
        budget.check(
            16.0 * child.size + seen.nbytes + counts.nbytes + 1.1 * grown, "the enumeration"
        )
        low = bounds[-2]  # the frontier's first id
        grouped = _group(
            game, frontier, outcomes, parent, child, counts[low + 1 : low + 1 + frontier.size]
        )
        del parent, child
        seen.reserve(target, hedge)
        dst = np.empty(grouped.size, dtype=id_dtype)  # one id per move
        status, stop, frontier_next = seen.number(grouped, stop_at, dst)
        if status == BAD_CODE:
            raise GameDefinitionError(
                f"{game.info.name}: batch_moves gave a negative code {int(grouped[stop])}"
            )
        fresh_per_move = frontier_next.size / max(grouped.size, 1)
        growth = frontier_next.size / max(frontier.size, 1)
        if status == LIMIT:
            raise _too_large(game, limit)
        if counts.size < seen.codes.size + 1:  # the table grew: so do the counts
            bigger = np.zeros(seen.codes.size + 1, dtype=np.int32)
            bigger[: bounds[-1] + 1] = counts[: bounds[-1] + 1]  # counted: up to the frontier
            counts = bigger
        frontier = frontier_next
        dst_parts.append(dst)
        bounds.append(seen.n)
        bar.update(seen.n - bar.n)
    n = seen.n
    codes = seen.codes[:n]  # a view: the buffer's tail is never written (fresh pages cost nothing)
    del seen
    m = sum(part.size for part in dst_parts)
    if m < 2**31:  # as GameGraph keeps it
        indptr = np.cumsum(counts[: n + 1], dtype=np.int32, out=counts[: n + 1])
    else:
        indptr = np.cumsum(counts[: n + 1], dtype=np.int64)
    graph = GameGraph(indptr, np.concatenate(dst_parts))
    return Enumeration(
        game,
        graph,
        np.concatenate(outcome_parts),
        np.array(bounds[:-1], dtype=np.int64),
        path="vectorized",
        canonical=use_canonical,
        seconds=time.perf_counter() - began,
        codes=codes,
    )
