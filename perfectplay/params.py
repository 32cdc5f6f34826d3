"""A game's parameters written as text (``KEY=VALUE``), and ``--game MODULE:CLASS``.

The command line reads them from ``--param``, the web app from its ``params`` argument: both
import them from here, so that neither front end imports the other.

A registered game's parameters are typed by its entry (read from its constructor); a class of
one's own (``--game package.module:Class``) is typed the same way from its constructor's
defaults, and any other keyword is taken as an integer, integers separated by commas (a
tuple) or else a string.

Examples
--------
>>> from perfectplay.games.registry import game_entry
>>> parse_params(game_entry("nim"), ["heaps=1,2,3"])
{'heaps': (1, 2, 3)}
>>> load_target("perfectplay.games.nim.rules:Nim", ["heaps=2,3"])
<Nim nim heaps=(2, 3)>
>>> load_target("perfectplay.games.nim.rules:Nimm")
Traceback (most recent call last):
...
perfectplay.errors.UnknownNameError: --game ...:Nimm: module ... has no Nimm
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from perfectplay._targets import import_target, importable_here
from perfectplay.errors import InputFormatError, UnknownNameError

if TYPE_CHECKING:
    from perfectplay.games.entry import GameEntry

__all__ = ["load_target", "parse_params"]


def _items(items: Sequence[str]) -> list[tuple[str, str]]:
    """``(key, text)`` of each ``KEY=VALUE``; InputFormatError for an item without ``=``."""
    pairs = []
    for item in items:
        key, sep, text = item.partition("=")
        if not sep:
            raise InputFormatError(f"expected a parameter as KEY=VALUE, got {item!r}")
        pairs.append((key.strip(), text.strip()))
    return pairs


def _guess(text: str) -> int | tuple[int, ...] | str:
    """The value of a keyword no parameter types: integers (a tuple if a comma), or text."""
    try:
        numbers = tuple(int(word) for word in text.split(",") if word.strip())
    except ValueError:
        return text
    return numbers if "," in text else numbers[0] if numbers else text


def parse_params(entry: GameEntry, items: Sequence[str]) -> dict[str, Any]:
    """The ``KEY=VALUE`` strings `items` (``--param``) as game `entry`'s parameters.

    Cost: importing the game's rules (its constructor types the values), the first time.

    Raises
    ------
    UnknownNameError
        An unknown parameter name (for a game that declares its parameters).
    InputFormatError
        An item without ``=`` or a value of the wrong type.
    """
    result: dict[str, Any] = {}
    for key, text in _items(items):
        param = entry.param(key)
        result[key] = _guess(text) if param is None else param.parse(text)
    return result


def load_target(target: str, items: Sequence[str] = (), *, tiered: bool = False) -> Any:
    """The game class `target` (``module:Class``, the command line's ``--game``) built with
    the ``KEY=VALUE`` strings `items`.

    Imports `target`'s module, found in the current directory too (as ``python -m`` finds
    it): call it only for a name the user gave, never for one read from a file. A registered
    class (built in, or installed through an entry point) takes its declared parameters.

    Parameters
    ----------
    target : str
        ``package.module:Class``.
    items : sequence of str
        ``KEY=VALUE`` strings (``--param``).
    tiered : bool
        Whether a :class:`~perfectplay.protocol.tiered.TieredGame` is wanted (for the tier
        engine) rather than a :class:`~perfectplay.protocol.game.Game`.

    Raises
    ------
    UnknownNameError
        If `target` is not ``module:Class``, its module cannot be imported, it has no such
        class, or the class is not a game of the kind asked for.
    InputFormatError
        Parameters the class does not take.
    """
    from perfectplay.games.entry import GameEntry
    from perfectplay.games.registry import entry_for_target
    from perfectplay.protocol.game import Game
    from perfectplay.protocol.tiered import TieredGame

    importable_here()
    try:
        game_class = import_target(target)
    except UnknownNameError as error:
        raise UnknownNameError(f"--game {error}") from None
    kind = TieredGame if tiered else Game
    if not (isinstance(game_class, type) and issubclass(game_class, kind)):
        raise UnknownNameError(f"--game {target}: it is not a {kind.__name__} subclass")
    entry = entry_for_target(target) or GameEntry(target, target, "", params=None)
    params = entry.values(parse_params(entry, items))
    try:
        return game_class(**params)
    except TypeError as error:  # unknown or missing constructor arguments
        raise InputFormatError(f"--game {target}: {error}") from None
