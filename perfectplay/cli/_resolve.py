"""What a command's GAME|FILE argument names: one rule for every command.

The rule (``perfectplay solve --help`` and docs/cli.md state it):

1. ``--game package.module:Class`` names a game class of one's own; the argument, if any, is
   then a saved file of that game where such a file exists (or omitted: the game itself), and
   otherwise the first word of the position (commands that take one: :func:`with_game`).
2. An argument containing a path separator (``/``), or ``-`` (standard input), is a file.
3. Otherwise a registered game's name or alias (``tic-tac-toe``, ``ttt``) is that game, even
   when a file of that name exists (write ``./NAME`` for the file).
4. Otherwise an existing file or directory is that file.
5. Anything else is refused with one line: the close game names (``did you mean``) and the
   list of registered games.

Command modules import this one inside their handlers; it imports the registry lazily too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from perfectplay.games.registry import GameEntry
    from perfectplay.protocol.game import Game
    from perfectplay.protocol.tiered import TieredGame
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

__all__ = [
    "RULE",
    "Resolved",
    "build_game",
    "open_saved",
    "resolve",
    "saved_game",
    "saved_path",
    "with_game",
]

RULE = (
    "a name without '/' is a registered game or alias when there is one (write ./NAME for a "
    "file of that name), else an existing file or directory"
)
"""The rule in one phrase, for ``--help``."""


@dataclass(frozen=True)
class Resolved:
    """What an argument names: a registered game (`entry`) or a path (`path`), one of them."""

    entry: GameEntry | None = None
    """The registered game, when the argument names one."""
    path: str | None = None
    """The file or directory (``-``: standard input), when the argument names one."""


def resolve(text: str) -> Resolved:
    """What the command-line argument `text` names, by the module's rule.

    Cost: a dictionary look-up, or one ``os.path.exists``.

    Raises
    ------
    UnknownNameError
        If `text` names neither a registered game nor an existing path; the message suggests
        close names and lists the registered games.

    Examples
    --------
    >>> resolve("ttt").entry.name
    'tic-tac-toe'
    >>> resolve("./ttt").path
    './ttt'
    """
    from perfectplay.errors import UnknownNameError
    from perfectplay.games.registry import game_entry, unknown_game

    if text == "-" or os.sep in text or "/" in text:
        return Resolved(path=text)
    try:
        return Resolved(entry=game_entry(text))
    except UnknownNameError as error:
        if os.path.exists(text):
            return Resolved(path=text)
        raise unknown_game(text, error.suggestions, also=" and no such file") from None


def with_game(
    text: str | None, position: Sequence[str], target: str | None, *, files: bool = True
) -> tuple[str | None, list[str]]:
    """``(GAME|FILE, POSITION words)`` of a command that takes both, by the rule's first point.

    With ``--game`` (`target`), a game name is not expected: the argument `text` is a saved file
    if `files` and it exists, else the position's first word (``draw --game m:C 5``).

    >>> with_game("5", ["6"], "m:C")
    (None, ['5', '6'])
    >>> with_game("5", [], None)
    ('5', [])
    """
    if target is None or text is None or (files and os.path.exists(text)):
        return text, list(position)
    return None, [text, *position]


def build_game(
    text: str | None, params: Sequence[str], target: str | None, *, tiered: bool = False
) -> Game[Any] | TieredGame:
    """The game a registered name `text` or a class `target` (``--game``) names, with `params`.

    Raises
    ------
    UnknownNameError, InputFormatError, GameDefinitionError
        Unknown names, bad parameters (see :mod:`perfectplay.params`).
    """
    from perfectplay.errors import InputFormatError
    from perfectplay.games.registry import game_entry, load_game, load_tiered_game
    from perfectplay.params import load_target, parse_params

    if target is not None:
        if text is not None:
            raise InputFormatError(f"give either a game name ({text}) or --game {target}")
        game: Game[Any] | TieredGame = load_target(target, params, tiered=tiered)
        return game
    if text is None:
        raise InputFormatError("give a game name or --game package.module:Class")
    entry = game_entry(text)
    values = parse_params(entry, params)
    return load_tiered_game(entry.name, **values) if tiered else load_game(entry.name, **values)


def saved_path(text: str, command: str) -> str:
    """`text` as the path of a saved solution, or a one-line refusal saying what to do.

    Raises
    ------
    InputFormatError
        If `text` names a registered game and no file (save it first: the message says how).
    """
    if "/" in text or os.sep in text or os.path.exists(text):
        return text  # opening it names a missing or unreadable file
    from perfectplay.errors import InputFormatError, UnknownNameError
    from perfectplay.games.registry import game_entry

    try:
        entry = game_entry(text)
    except UnknownNameError:
        return text  # opening it names the missing file

    raise InputFormatError(
        f"{command} reads a saved solution, and {text} is the registered game {entry.name}: "
        f"save it first with perfectplay solve {entry.name} -o FILE (or write ./{text} for a "
        "file of that name)"
    )


def saved_game(path: str, target: str | None, params: Sequence[str]) -> Any:
    """The game to open the saved solution at `path` with: the class `target` (``--game``)
    built with `params` (its tier form for a tier directory), or None without `target` (the
    game the file records, rebuilt through the registry).

    Cost: importing `target`'s module and building the game; one ``os.path`` test.

    Raises
    ------
    InputFormatError
        `params` without `target` (a saved file's parameters are its own).
    UnknownNameError
        `target` is not an importable game class (see
        :func:`~perfectplay.params.load_target`).
    """
    if target is None:
        if params:
            from perfectplay.errors import InputFormatError

            raise InputFormatError(f"--param applies to a game name, not to the saved {path}")
        return None
    from perfectplay.params import load_target
    from perfectplay.solved import is_tier_directory

    return load_target(target, params, tiered=is_tier_directory(path))


def open_saved(
    path: str, target: str | None = None, params: Sequence[str] = ()
) -> SolutionStore | TierDatabase:
    """Open the saved solution at `path`; with `target` (``--game``), with that game.

    Without `target`, the game is the one the file records, rebuilt through the registry; a
    game the registry does not know is refused (the message names the ``--game`` to pass).
    No module named in the file is imported.

    Raises
    ------
    StoreError
        Missing, damaged, another game's, or of an unregistered game without `target`.
    """
    from perfectplay.solved import is_tier_directory, open_tiers
    from perfectplay.store import open_store

    game = saved_game(path, target, params)
    if is_tier_directory(path):
        return open_tiers(path, game=game)
    return open_store(path, game=game)
