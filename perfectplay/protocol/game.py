"""The Game protocol: how a user describes a two-player game in plain Python.

A game is a subclass of :class:`Game` with three required methods and optional extras:

===================  ===========================================================================
``initial()``        the starting position (any hashable Python value)
``moves(p)``         the moves from ``p``: ``(label, position)`` pairs, or
                     ``(label, position, gain)`` triples for scored games
``outcome(p)``       ``None`` while the game goes on at ``p``; otherwise the value the rules
                     fix for the player to move (``Value.WIN``, ``Value.LOSE`` or ``Value.TIE``)
===================  ===========================================================================

The player to move alternates with every move. The rules, precisely:

* **Over positions have no moves.** Where ``outcome(p)`` returns a value, ``moves(p)`` must
  yield nothing (the plain enumerator never asks; the vectorized one raises
  ``GameDefinitionError`` when ``batch_moves`` lists moves from a code ``batch_outcome``
  says is over; :func:`~perfectplay.enumeration.check.check_game` reports a violation, and front
  ends rely on it to stop a game).
* **Stuck means lost (normal play).** A position where ``outcome(p)`` is ``None`` and
  ``moves(p)`` yields nothing is lost for the player to move. Return ``Value.WIN`` from
  ``outcome`` instead for misère rules.
* **Moves are deterministic**: the same position always yields the same moves, in the same
  order, with distinct labels.
* **Endless play is a DRAW**: a game that may repeat positions (declare
  ``GameInfo(cyclic=True)``) gets ``DRAW`` where neither player can force an end.

Optional extras, each with what happens without it:

=========================  ====================================================================
``terminal_score(p)``      scored games: the (own - opponent) points the player to move still
                           gets where the game is over at ``p``. Without it: 0.
``canonical(p)``           a representative of ``p``'s symmetry class with the same value; the
                           enumerator stores canonical forms only. Without it: no reduction.
``render(p)``              text drawing of ``p`` for people. Without it: ``str(p)``.
``notation(p)``            ``p`` on one line, to type on a command line or in a URL (board
                           games: rows joined by ``/``, as FEN does). Without it: the lines
                           of ``render(p)`` joined by ``/``.
``labelled(p)``            ``render(p)`` with the coordinates the move labels use (column
                           letters, row numbers, cell numbers), for terminals. Without it:
                           ``render(p)``.
``parse(text)``            the inverse of ``render`` and of ``notation``. Without it:
                           positions cannot be typed in.
``encode(p)``/``decode``   ``p`` <-> a non-negative integer code; the database of solved
                           positions stores codes, so a query needs no re-enumeration.
                           Without it: the solution is kept in memory only. Registered games
                           must provide both.
``batch_outcome``          the vectorized path (see below). Without it: the plain path, one
``batch_moves``            Python call per position (~10^5 to 10^6 positions per second).
``position_bound()``       an upper bound on the number of reachable positions (after
                           ``canonical``), so an oversized game is refused before any work.
                           Without it (or ``None``): refused only once the limit is reached.
``move_bound()``           an upper bound on the number of moves of all reachable positions
                           (after ``canonical``), so a game with few positions but too many
                           moves for memory is refused before any work. Without it (or
                           ``None``): refused once the moves collected exceed memory.
``search_kernel()``        a compiled alpha-beta for the single-position search
                           (:mod:`perfectplay.search`). Without it (or ``None``): the search
                           runs over ``moves``/``outcome`` in Python.
=========================  ====================================================================

**The vectorized path.** A game that has ``encode``/``decode`` may also generate the moves of a
whole array of integer codes at once with numpy: ``batch_outcome(codes)`` returns the value
fixed by the rules for each code (``UNDECIDED`` where the game goes on) and
``batch_moves(codes)`` returns ``(parent, child)`` arrays: ``child[i]`` is the canonical code
reached by a move from ``codes[parent[i]]``, moves of one parent in the order ``moves()``
yields them. The enumerator then works layer by layer on arrays (no Python call per position).
The vectorized path is for unscored games.

Examples
--------
A game of taking 1 or 2 tokens from a heap; who takes the last token wins (normal play):

>>> from perfectplay.values import Value
>>> class TakeAway(Game[int]):
...     info = GameInfo("take-away", impartial=True)
...     def initial(self) -> int:
...         return 4
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> Value | None:
...         return None  # stuck at 0 tokens: the player to move has lost
>>> game = TakeAway()
>>> game.moves(4)
[('take 1', 3), ('take 2', 2)]
>>> provides(game, "canonical"), game.canonical(4), game.render(4), game.notation(4)
(False, 4, '4', '4')
>>> replay(game, 4, ["take 1", "take 2"])
[4, 3, 1]
>>> replay(game, 4, ["take 1", "take 3"])
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: move 2 of 2, 'take 3', is not legal; legal moves: take 1, ...
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.values import Value

__all__ = [
    "OPTIONAL_METHODS",
    "Game",
    "GameInfo",
    "MoveTuple",
    "P",
    "over_value",
    "param_value_text",
    "provides",
    "replay",
]

P = TypeVar("P", bound=Hashable)
"""The type of a game's positions: any hashable value (str, int, tuple, frozen dataclass...)."""

MoveTuple = tuple[str, P] | tuple[str, P, int]
"""One move as ``moves()`` yields it: ``(label, position)``, or ``(label, position, gain)``."""

OPTIONAL_METHODS = (
    "terminal_score",
    "canonical",
    "render",
    "notation",
    "labelled",
    "parse",
    "encode",
    "decode",
    "batch_outcome",
    "batch_moves",
    "position_bound",
    "move_bound",
    "search_kernel",
)
"""The optional extras of :class:`Game`, in documentation order."""


def param_value_text(value: Any) -> str:
    """One parameter's value as text: a tuple's or list's items joined by commas, else ``str``.

    >>> param_value_text((1, 2, 3)), param_value_text([4]), param_value_text(5)
    ('1,2,3', '4', '5')
    """
    return ",".join(map(str, value)) if isinstance(value, tuple | list) else str(value)


@dataclass(frozen=True)
class GameInfo:
    """A game's declared properties; solvers and tools check them before running.

    Examples
    --------
    >>> info = GameInfo("connect-four", {"rows": 4, "cols": 5})
    >>> info.params["rows"], info.scored, info.cyclic
    (4, False, False)
    """

    name: str
    """The game's name (registered games: the name ``load_game`` accepts)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The parameters this instance was built with (read-only)."""
    scored: bool = False
    """Moves yield ``(label, position, gain)`` and the value is decided by points."""
    impartial: bool = False
    """Both players have the same moves from every position (Sprague–Grundy theory applies)."""
    cyclic: bool = False
    """Positions may repeat during a game, so best play may never end (DRAW)."""
    description: str = ""
    """One line for listings such as ``perfectplay games``."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise GameDefinitionError(
                f"GameInfo.name must be a non-empty string, got {self.name!r}"
            )
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __repr__(self) -> str:
        return (
            f"GameInfo(name={self.name!r}, params={dict(self.params)!r}, scored={self.scored}, "
            f"impartial={self.impartial}, cyclic={self.cyclic}, description={self.description!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the constructor's arguments (the read-only params view is not picklable),
        so games travel to worker processes and Dask workers."""
        return (
            GameInfo,
            (self.name, dict(self.params), self.scored, self.impartial, self.cyclic,
             self.description),
        )  # fmt: skip

    def param_text(self, separator: str = " ") -> str:
        """The parameters as ``key=value`` words, in order, a sequence's items joined by commas
        (:func:`param_value_text`): the text command lines take back (``--param heaps=1,2,3``)
        and titles show. Empty for a game without parameters.

        >>> GameInfo("connect-four", {"rows": 4, "cols": 5}).param_text()
        'rows=4 cols=5'
        >>> GameInfo("nim", {"heaps": (1, 2, 3)}).param_text(", "), GameInfo("g").param_text()
        ('heaps=1,2,3', '')
        """
        return separator.join(f"{k}={param_value_text(v)}" for k, v in self.params.items())

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.params.items())), self.scored, self.cyclic))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameInfo):
            return NotImplemented
        return (
            self.name == other.name
            and dict(self.params) == dict(other.params)
            and (self.scored, self.impartial, self.cyclic, self.description)
            == (other.scored, other.impartial, other.cyclic, other.description)
        )


class Game(Generic[P]):
    """Base class of every game: subclass it and define ``initial``, ``moves`` and ``outcome``.

    Set ``info`` (a :class:`GameInfo`) as a class attribute or in ``__init__``; by default it
    names the class and declares an unscored, acyclic game. See the module documentation for
    the exact rules and the optional extras.
    """

    info: GameInfo = GameInfo("game")
    """The game's declared properties."""

    # ------------------------------------------------------------------ required
    def initial(self) -> P:
        """The starting position."""
        raise GameDefinitionError(f"{type(self).__name__} must define initial()")

    def moves(self, position: P) -> Iterable[MoveTuple[P]]:
        """The moves from `position`: ``(label, position)`` pairs, or triples with a gain.

        Labels are short distinct strings a person can type (``"c3"``, ``"take 2"``). A gain is
        the integer the mover scores by the move (scored games only). Over positions yield
        nothing.
        """
        raise GameDefinitionError(f"{type(self).__name__} must define moves(position)")

    def outcome(self, position: P) -> Value | None:
        """``None`` while play goes on; else WIN, LOSE or TIE for the player to move."""
        raise GameDefinitionError(f"{type(self).__name__} must define outcome(position)")

    # ------------------------------------------------------------------ optional extras
    def terminal_score(self, position: P) -> int:
        """Scored games: points (own - opponent) for the player to move where play is over."""
        return 0

    def canonical(self, position: P) -> P:
        """A representative of `position`'s symmetry class; must have the same value."""
        return position

    def render(self, position: P) -> str:
        """A text drawing of `position` for people."""
        return str(position)

    def notation(self, position: P) -> str:
        """`position` on one line; :meth:`parse` reads it back.

        Default: the lines of :meth:`render` joined by ``/`` (a one-line drawing unchanged).
        Cost: that of :meth:`render`.
        """
        return "/".join(line.strip() for line in self.render(position).splitlines())

    def labelled(self, position: P) -> str:
        """:meth:`render` with the coordinates the move labels name, for a terminal.

        Default: :meth:`render` itself. Cost: that of :meth:`render`.
        """
        return self.render(position)

    def parse(self, text: str) -> P:
        """The position `text` draws: the inverse of :meth:`render` and :meth:`notation`."""
        raise GameDefinitionError(f"{self.info.name} cannot parse positions (no parse method)")

    def encode(self, position: P) -> int:
        """A non-negative integer code for `position` (inverse of :meth:`decode`).

        By default a position that is a non-negative ``int`` is its own code.
        """
        if isinstance(position, int) and not isinstance(position, bool) and position >= 0:
            return position
        raise GameDefinitionError(
            f"{self.info.name} has no integer codes (no encode method, and its position "
            f"{position!r} is not a non-negative integer)"
        )

    def decode(self, code: int) -> P:
        """The position with integer code `code` (inverse of :meth:`encode`).

        By default, for a game without its own ``encode``, the code itself.
        """
        if type(self).encode is Game.encode:
            return cast(P, code)
        raise GameDefinitionError(f"{self.info.name} has no integer codes (no decode method)")

    def batch_outcome(self, codes: NDArray[np.int64]) -> NDArray[np.uint8]:
        """Vectorized ``outcome``: a Value per code, ``UNDECIDED`` where play goes on."""
        raise GameDefinitionError(f"{self.info.name} has no vectorized path (no batch_outcome)")

    def batch_moves(self, codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Vectorized ``moves``: arrays ``(parent, child)``, one entry per move.

        ``child[i]`` is the canonical code reached by a move from ``codes[parent[i]]``; the
        moves of one parent come in ``moves()`` order; over positions (``batch_outcome`` not
        ``UNDECIDED``) have no moves: the enumerator raises ``GameDefinitionError`` otherwise.
        """
        raise GameDefinitionError(f"{self.info.name} has no vectorized path (no batch_moves)")

    def position_bound(self) -> int | None:
        """An upper bound on the number of reachable positions (canonical forms); None: unknown.

        :func:`~perfectplay.enumeration.enumerate.enumerate_game` refuses the game at once with
        TooLargeError when the bound exceeds ``max_positions`` or the memory available.
        """
        return None

    def move_bound(self) -> int | None:
        """An upper bound on the number of moves of all reachable positions; None: unknown.

        Moves are counted from the canonical forms, one per ``(label, position)`` that
        ``moves`` yields. :func:`~perfectplay.enumeration.enumerate.enumerate_game` refuses the game
        at once with TooLargeError when its positions and moves would exceed the memory
        available.
        """
        return None

    def search_kernel(self) -> Any:
        """A compiled alpha-beta for :func:`perfectplay.search.search` (a
        :class:`~perfectplay.search.kernel.SearchKernel`), or None: the search then runs over
        ``moves``/``outcome`` in Python (about 10^5 positions per second)."""
        return None

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.info.params.items())
        return f"<{type(self).__name__} {self.info.name}{' ' if params else ''}{params}>"


def replay(game: Game[P], start: P, labels: Iterable[str]) -> list[P]:
    """The positions from `start` through the moves `labels`, each checked against the rules.

    Returns ``[start, after the first move, ...]``. Cost: one ``moves`` call per label.

    Raises
    ------
    InputFormatError
        At the first move that is not legal, naming it, its place and the legal moves.
    """
    wanted = list(labels)
    path = [start]
    for k, label in enumerate(wanted, start=1):
        moves = {move[0]: move[1] for move in game.moves(path[-1])}
        if label not in moves:
            legal = ", ".join(moves) or "none, the game is over"
            raise InputFormatError(
                f"move {k} of {len(wanted)}, {label!r}, is not legal; legal moves: {legal}"
            )
        path.append(moves[label])
    return path


def provides(game: Game[Any], name: str) -> bool:
    """Whether `game` defines the optional extra `name` itself (rather than the default).

    >>> class Plain(Game[int]):
    ...     def render(self, p: int) -> str:
    ...         return f"<{p}>"
    >>> provides(Plain(), "render"), provides(Plain(), "encode")
    (True, False)
    """
    if name not in OPTIONAL_METHODS:
        raise GameDefinitionError(
            f"{name!r} is not an optional Game method; "
            f"expected one of {', '.join(OPTIONAL_METHODS)}"
        )
    return getattr(type(game), name, None) is not getattr(Game, name)


def over_value(game: Game[P], position: P) -> Value | None:
    """The value for the player to move where play is over at `position`, else None.

    Over: the rules fix the value (``outcome``), or the player to move has no move and has
    lost (normal play: stuck means lost). Cost: one ``outcome`` call, and one ``moves`` call
    where the rules do not decide.

    >>> class Countdown(Game[int]):
    ...     def initial(self) -> int:
    ...         return 2
    ...     def moves(self, p: int) -> list[tuple[str, int]]:
    ...         return [("take 1", p - 1)] if p else []
    ...     def outcome(self, p: int) -> None:
    ...         return None
    >>> over_value(Countdown(), 0), over_value(Countdown(), 2)
    (<Value.LOSE: 0>, None)
    """
    ruled = game.outcome(position)
    if ruled is not None:
        return Value(ruled)
    return None if any(True for _ in game.moves(position)) else Value.LOSE
