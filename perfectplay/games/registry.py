"""The games offered by name: the folders listed here, and those installed packages register.

Each game folder exports its entry (``perfectplay/games/<folder>/entry.py``: ``ENTRY``, a
:class:`~perfectplay.games.entry.GameEntry`); adding a game is its folder and one line of
:data:`FOLDERS`. Installed packages add games through the ``perfectplay.games`` entry point
group: each entry point names a :class:`GameEntry` or a
:class:`~perfectplay.protocol.game.Game` subclass (then registered under the entry point's
name, its parameters read from its constructor). They are read from the installed packages'
metadata the first time a name is not a built-in one, or when every game is listed.

Names are matched ignoring case and ``_`` vs ``-``, and each game may have aliases
(``ttt``, ``c4``). Entries are cheap to read; a game's modules are imported when it is built.

Examples
--------
>>> game_names()[:4]
['tic-tac-toe', 'connect-four', 'nim', 'subtraction']
>>> game = load_game("nim", heaps=(1, 2))
>>> game.info.name, dict(game.info.params)
('nim', {'heaps': (1, 2)})
>>> game_entry("C4").name
'connect-four'
>>> try:
...     game_entry("tictacto")
... except UnknownNameError as error:
...     print(str(error)[:50])
unknown game 'tictacto' (did you mean tic-tac-toe?
"""

from __future__ import annotations

import difflib
import functools
import importlib
from typing import TYPE_CHECKING, Any

from perfectplay._names import normalise_name
from perfectplay._targets import class_target
from perfectplay.errors import GameDefinitionError, UnknownNameError
from perfectplay.games.entry import GameEntry, Param
from perfectplay.protocol.game import Game

if TYPE_CHECKING:
    from collections.abc import Sequence

    from perfectplay.protocol.tiered import TieredGame

__all__ = [
    "ENTRY_POINT_GROUP",
    "FOLDERS",
    "GameEntry",
    "Param",
    "entry_for_target",
    "game_entry",
    "game_names",
    "load_game",
    "load_tiered_game",
    "unknown_game",
]

FOLDERS = (
    "tictactoe",
    "connect_four",
    "nim",
    "subtraction",
    "dodgem",
    "quixo",
    "teeko",
    "squadro",
    "dobutsu",
    "gobblet",
    "mills",
)
"""The game folders under ``perfectplay/games/``, in the order ``perfectplay games`` lists them."""

ENTRY_POINT_GROUP = "perfectplay.games"
"""The entry point group through which installed packages register games."""


@functools.cache
def _builtin() -> dict[str, GameEntry]:
    """The entries of :data:`FOLDERS`, by normalised name. Cost: importing each ``entry.py``."""
    found: dict[str, GameEntry] = {}
    for folder in FOLDERS:
        package = f"{__package__}.{folder}"
        entry: GameEntry = importlib.import_module(f"{package}.entry").ENTRY
        found[normalise_name(entry.name)] = entry.bound(package)
    return found


@functools.cache
def _installed() -> dict[str, GameEntry]:
    """The games installed packages register, by normalised name (read once per process).

    Cost: one scan of the installed packages' metadata and one import per entry point, the
    first time only.

    Raises
    ------
    GameDefinitionError
        If an entry point names something else than a GameEntry or a Game class.
    """
    from importlib.metadata import entry_points

    found: dict[str, GameEntry] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        if isinstance(loaded, GameEntry):
            entry = loaded.bound(importlib.import_module(point.module).__package__ or "")
        elif isinstance(loaded, type) and issubclass(loaded, Game):
            summary = (loaded.__doc__ or "").strip().split("\n")[0]
            entry = GameEntry(point.name, class_target(loaded), summary, params=None)
        else:
            raise GameDefinitionError(
                f"entry point {point.name} = {point.value} (group {ENTRY_POINT_GROUP}) names "
                "neither a GameEntry nor a Game class"
            )
        key = normalise_name(entry.name)
        if key not in _builtin():  # a built-in name wins: names stay stable
            found.setdefault(key, entry)
    return found


def _entries() -> list[GameEntry]:
    return [*_builtin().values(), *_installed().values()]


def _aliases() -> dict[str, str]:
    """Every accepted normalised name or alias -> the game's registered name."""
    names: dict[str, str] = {}
    for entry in _entries():
        for alias in (entry.name, *entry.aliases):
            names.setdefault(normalise_name(alias), entry.name)
    return names


def game_names() -> list[str]:
    """Names of all registered games: the built-in ones in the order of :data:`FOLDERS`, then
    the ones installed packages register (:data:`ENTRY_POINT_GROUP`)."""
    return [entry.name for entry in _entries()]


def game_entry(name: str) -> GameEntry:
    """The entry of game `name` or of one of its aliases (case and ``_``/``-`` insensitive).

    Cost: a dictionary look-up for a built-in name; otherwise one scan of the installed
    packages' entry points (first call only).

    Raises
    ------
    UnknownNameError
        If no game has that name; the message suggests close names and lists the registered
        ones.
    """
    key = normalise_name(name)
    entry = _builtin().get(key)
    if entry is not None:
        return entry
    aliases = _aliases()
    if key in aliases:
        full = normalise_name(aliases[key])
        return _builtin().get(full) or _installed()[full]
    close = difflib.get_close_matches(key, aliases, n=3, cutoff=0.6)
    raise unknown_game(name, list(dict.fromkeys(aliases[c] for c in close)))


def unknown_game(name: str, suggestions: Sequence[str], *, also: str = "") -> UnknownNameError:
    """The error for the unknown game `name`: the close names `suggestions`, the registered
    games, and `also` said of `name` (``" and no such file"``).

    >>> print(unknown_game("tictacto", ["tic-tac-toe"]))  # doctest: +ELLIPSIS
    unknown game 'tictacto' (did you mean tic-tac-toe?); registered games: tic-tac-toe, ...
    """
    hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
    return UnknownNameError(
        f"unknown game {name!r}{also}{hint}; registered games: {', '.join(game_names())}",
        name=name,
        suggestions=suggestions,
    )


def entry_for_target(target: str) -> GameEntry | None:
    """The registered game one of whose classes is `target` (``module:Class``), or None.

    Compares names only: no module `target` names is imported, so a file naming a module cannot
    make this process run it (installed packages' entry points are loaded, as for any look-up).
    Cost: one pass over the registered games.

    >>> entry_for_target("perfectplay.games.quixo.tiers:TieredQuixo").name
    'quixo'
    >>> entry_for_target("os:system") is None
    True
    """
    for entry in _entries():
        if target in entry.targets():
            return entry
    return None


def load_game(name: str, **params: Any) -> Game[Any]:
    """The registered game `name` built with `params` (defaults for the others).

    Parameters
    ----------
    name : str
        A name from :func:`game_names` (case and ``_``/``-`` insensitive).
    **params
        The game's parameters, e.g. ``rows=4, cols=5`` for Connect Four.

    Raises
    ------
    UnknownNameError
        Unknown game or parameter name.
    GameDefinitionError
        A parameter of the wrong type or out of the game's range.

    Examples
    --------
    >>> load_game("nim", heaps=[1, 2]).info.params["heaps"]
    (1, 2)
    """
    game: Game[Any] = game_entry(name).build(params)
    return game


def load_tiered_game(name: str, **params: Any) -> TieredGame:
    """The registered game `name` as a tiered game, for the tier engine.

    Parameters and errors as :func:`load_game`; also raises :class:`UnknownNameError` if the
    game has no tiered form (the message lists the games that have one).
    """
    entry = game_entry(name)
    if entry.tiers is None:
        tiered = ", ".join(e.name for e in _builtin().values() if e.tiers is not None)
        raise UnknownNameError(
            f"game {entry.name} has no tiered form for the tier engine; games that have one: "
            f"{tiered}"
        )
    game: TieredGame = entry.build(params, tiered=True)
    return game
