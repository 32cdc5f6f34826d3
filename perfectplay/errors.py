"""The error hierarchy: every error perfectplay raises derives from :class:`PerfectPlayError`.

Each error also subclasses the builtin exception it refines, so ``except ValueError`` keeps
working for callers who do not know this package. The command-line front end turns any
``PerfectPlayError`` into one line on standard error and exit code 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "ClusterError",
    "CyclicGraphError",
    "GameDefinitionError",
    "GameOverError",
    "InputFormatError",
    "InvalidGraphError",
    "LosingPositionError",
    "MissingDependencyError",
    "PerfectPlayError",
    "PictureTooLargeError",
    "PositionNotFoundError",
    "ScoreOverflowError",
    "SolveStoppedError",
    "StoreError",
    "TooLargeError",
    "UnknownNameError",
]


class PerfectPlayError(Exception):
    """Root of every error raised by perfectplay."""


class InvalidGraphError(PerfectPlayError, ValueError):
    """A game graph's arrays are malformed (shape, dtype, an id out of range, ...).

    The message names the offending array, index and value.
    """


class InputFormatError(PerfectPlayError, ValueError):
    """A text input (a judge input or a graph file) does not follow its format.

    Parameters
    ----------
    message : str
        What is wrong.
    line : int, optional
        The 1-based line number where the problem was found; prefixed to the message.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class GameOverError(InputFormatError):
    """A search was asked at a position where the game is already over (nothing to search).

    An :class:`InputFormatError` (a ``ValueError``): the command line reports it on one line
    with exit code 2.
    """


class CyclicGraphError(PerfectPlayError, ValueError):
    """An acyclic-only solver met a cycle; the message names one position on it.

    Parameters
    ----------
    message : str
        What went wrong, naming the cycle.
    cycle : tuple of int, optional
        The positions of one cycle in move order (each moves to the next, the last to the
        first), when the raiser found one; ``None`` otherwise.
    """

    def __init__(self, message: str, cycle: tuple[int, ...] | None = None) -> None:
        super().__init__(message)
        self.cycle = cycle

    def __reduce__(self) -> tuple[type[CyclicGraphError], tuple[str, tuple[int, ...] | None]]:
        return type(self), (str(self), self.cycle)  # keep `cycle` through pickling


class LosingPositionError(PerfectPlayError, ValueError):
    """A winning move was asked for at a position the player to move loses; names the position."""


class ScoreOverflowError(PerfectPlayError, OverflowError):
    """A game's scores leave the int64 range; the message names the position where."""


class TooLargeError(PerfectPlayError, MemoryError):
    """The requested work would need more than a limit allows (the memory available, or a
    bound such as ``max_positions``).

    Raised *before* anything large is allocated. The fields say what was found, so that a
    caller can word its own advice without reading the message.

    Parameters
    ----------
    what : str
        What is too large and by how much, one clause (the message starts with it).
    limit : str, optional
        The limit exceeded: ``"memory"``, the name of the parameter that bounds the work
        (``"max_positions"``) or another bound the raiser names (``"code bits"``); None when
        the raiser does not say.
    estimate : int or float, optional
        The estimated need, in the limit's unit (bytes for ``"memory"``, positions for
        ``"max_positions"``; a float may be ``inf``); None when unknown.
    advice : str, optional
        What would work instead, appended to the message after ``"; "``.

    Examples
    --------
    >>> error = TooLargeError("nim may have 10 positions", limit="max_positions",
    ...                       estimate=10, advice="raise max_positions")
    >>> str(error), error.what, error.limit, error.estimate
    ('nim may have 10 positions; raise max_positions', 'nim may have 10 positions', \
'max_positions', 10)
    """

    def __init__(
        self,
        what: str,
        *,
        limit: str | None = None,
        estimate: float | None = None,
        advice: str | None = None,
    ) -> None:
        super().__init__(f"{what}; {advice}" if advice else what)
        self.what = what
        self.limit = limit
        self.estimate = estimate
        self.advice = advice

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {"limit": self.limit, "estimate": self.estimate, "advice": self.advice}
        return _rebuild, (type(self), self.what, fields)


class UnknownNameError(PerfectPlayError, KeyError):
    """A game, problem or option name is not registered; the message lists the known ones.

    Parameters
    ----------
    message : str
        What is unknown, with the close names and the known ones.
    name : str, optional
        The name that is not registered, where the raiser says (a caller words its own
        message from the fields, never from the text).
    suggestions : sequence of str
        Registered names close to `name`, closest first (empty: none is close).

    Examples
    --------
    >>> error = UnknownNameError("unknown game 'tt'", name="tt", suggestions=["ttt"])
    >>> str(error), error.name, error.suggestions
    ("unknown game 'tt'", 'tt', ('ttt',))
    """

    def __init__(
        self, message: str, *, name: str | None = None, suggestions: Sequence[str] = ()
    ) -> None:
        super().__init__(message)
        self.name = name
        self.suggestions = tuple(suggestions)

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {"name": self.name, "suggestions": self.suggestions}
        return _rebuild, (type(self), str(self), fields)


class PositionNotFoundError(PerfectPlayError, KeyError):
    """A position is not in a solved game (not reachable from its start, or not a position).

    Raised by the store's ``probe``; ``get`` returns a default instead.
    """

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GameDefinitionError(PerfectPlayError, TypeError):
    """A user-defined game breaks the Game protocol (e.g. a move to an unhashable position)."""


class StoreError(PerfectPlayError, OSError):
    """A saved solution file is missing, truncated, corrupted, of another version or game."""


class ClusterError(PerfectPlayError, ConnectionError):
    """A Dask cluster cannot be reached, has no workers, cannot see the tier directory, or
    lost a task to failing workers; the message names the scheduler or the task."""


class MissingDependencyError(PerfectPlayError, ImportError):
    """An optional package a feature needs is not installed (the message names it)."""


class PictureTooLargeError(PerfectPlayError, ValueError):
    """The thing to draw has too many parts to read as a picture (the message says how many)."""


class SolveStoppedError(PerfectPlayError, RuntimeError):
    """A tier's chunks were left unsolved because the solve is stopping (another tier failed,
    or an interrupt); the tier engine raises it in its worker threads and reports the cause."""


def _rebuild(kind: Any, first: str, fields: dict[str, Any]) -> Any:
    """An error of class `kind` from its first argument and its keyword fields (pickling
    keeps them: keyword arguments need this)."""
    return kind(first, **fields)
