"""The game a saved file records, rebuilt through the registry: :func:`load_recorded_game`.

A store file or a tier directory records its game's name, parameters and class
(``module:Class``). A file is data: the class it names is compared with the registered
games' classes and never imported, so opening a file cannot make this process run a module
the file names.

Examples
--------
>>> load_recorded_game("nim", {"heaps": [1, 2]}, "perfectplay.games.nim.rules:Nim")
<Nim nim heaps=(1, 2)>
>>> try:
...     load_recorded_game("mine", {}, "mine.rules:Mine", where="m.ppstore")
... except UnknownNameError as error:
...     print(str(error).split(": ")[-1])
pass --game mine.rules:Mine
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay._names import normalise_name
from perfectplay._targets import class_target
from perfectplay.errors import UnknownNameError
from perfectplay.games.entry import GameEntry
from perfectplay.games.registry import entry_for_target, game_entry

__all__ = ["load_recorded_game"]


def load_recorded_game(
    name: str,
    params: Mapping[str, Any],
    target: str | None,
    *,
    where: str = "the file",
    tiered: bool = False,
) -> Any:
    """The game a saved file records: its registered `name`, or the registered class `target`.

    `target` (``module:Class``, recorded by files of this version) is compared with the
    registered classes and never imported. A game whose name is registered with another class
    (a game of one's own that shares a built-in name) is not mistaken for it. Cost: one pass
    over the registered games, and building the game.

    Raises
    ------
    UnknownNameError
        If neither is registered: the message names the ``--game`` to pass.
    """
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
    try:
        entry: GameEntry | None = game_entry(name)
    except UnknownNameError:
        entry = None
    if entry is not None and target is not None and target not in entry.targets():
        entry = None  # the same name, another class
    if entry is None and target is not None:
        entry = entry_for_target(target)
    if entry is None:
        named = f" of class {target}" if target else ""
        advice = f"pass --game {target}" if target else "pass --game module:Class"
        raise UnknownNameError(
            f"{where} holds the game {name}{named}, which no installed package registers: {advice}"
        )
    game = entry.build(values, tiered=tiered)
    if normalise_name(game.info.name) != normalise_name(name):
        raise UnknownNameError(
            f"{where} holds the game {name}, but {target} makes {game.info.name}"
        )
    tier_classes = {entry.target(t) for t in entry.tier_classes}
    if tiered and target in tier_classes and class_target(type(game)) != target:
        raise UnknownNameError(
            f"{where} holds {name} in the tier form {target}, which the registry does not "
            f"choose for these parameters: pass --game {target}"
        )
    return game
