"""Classic games registered by name, loaded with parameters: ``load_game("nim", heaps=(1, 2))``.

Each entry names the module and class implementing the game and declares its parameters
(type, default, help), so the command line can parse ``--param rows=4`` and list them. Game
modules are imported only when a game is loaded.

Examples
--------
>>> game_names()
['tic-tac-toe', 'connect-four', 'nim', 'subtraction', 'dodgem', 'quixo']
>>> game = load_game("nim", heaps=(1, 2))
>>> game.info.name, dict(game.info.params)
('nim', {'heaps': (1, 2)})
>>> parse_params("nim", ["heaps=1,2,3"])
{'heaps': (1, 2, 3)}
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from perfectplay._names import normalise_name
from perfectplay.errors import GameDefinitionError, InputFormatError, UnknownNameError
from perfectplay.protocol.game import Game

if TYPE_CHECKING:
    from perfectplay.protocol.tiered import TieredGame

__all__ = [
    "GameEntry",
    "Param",
    "game_entry",
    "game_names",
    "load_game",
    "load_recorded_tiered_game",
    "load_tiered_game",
    "parse_params",
]


@dataclass(frozen=True)
class Param:
    """One parameter of a registered game."""

    name: str
    """Keyword of the game's constructor and of ``--param NAME=VALUE``."""
    kind: Literal["int", "ints"]
    """``"int"``: one integer; ``"ints"``: a tuple of integers (``1,2,3`` on the command line)."""
    default: int | tuple[int, ...]
    """Value used when the parameter is not given."""
    help: str
    """One line for ``perfectplay games``."""

    def parse(self, text: str) -> int | tuple[int, ...]:
        """The value written as `text` (``"4"``, or ``"1,2,3"`` for a tuple).

        Raises
        ------
        InputFormatError
            If `text` is not an integer (or a comma-separated list of integers).
        """
        words = text.split(",") if self.kind == "ints" else [text]
        try:
            values = tuple(int(word) for word in words if word.strip() or self.kind == "int")
        except ValueError:
            expected = "an integer" if self.kind == "int" else "integers separated by commas"
            raise InputFormatError(
                f"parameter {self.name}: expected {expected}, got {text!r}"
            ) from None
        return values if self.kind == "ints" else values[0]

    def check(self, value: Any) -> int | tuple[int, ...]:
        """`value` converted to this parameter's type, or GameDefinitionError naming it."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameDefinitionError(
                    f"parameter {self.name} must be an integer, got {value!r}"
                )
            return int(value)
        items = tuple(value) if isinstance(value, list | tuple) else None
        if items is None or any(isinstance(v, bool) or not isinstance(v, int) for v in items):
            raise GameDefinitionError(
                f"parameter {self.name} must be a tuple of integers, got {value!r}"
            )
        return tuple(int(v) for v in items)

    def __str__(self) -> str:
        default = (
            ",".join(map(str, self.default)) if isinstance(self.default, tuple) else self.default
        )
        return f"{self.name}={default}"


@dataclass(frozen=True)
class GameEntry:
    """A registered game: where it lives and what parameters it takes."""

    name: str
    """The name ``load_game`` accepts."""
    target: str
    """``"module:Class"`` implementing the game."""
    summary: str
    """One-line description."""
    params: tuple[Param, ...] = ()
    """Parameters, in the order ``perfectplay games`` lists them."""
    tiered: str | None = None
    """``"module:Class"`` of the game as a :class:`~perfectplay.protocol.tiered.TieredGame` (same
    parameters), for the tier engine (``perfectplay solve GAME --tiers DIR``); None if it has
    none."""
    picture: str | None = None
    """``"module:function"`` drawing a position of the game as SVG (``function(game, position,
    moves_by_label)`` returning a drawing, or None where the board is too large); None if the
    game has no picture of its own (the front ends then draw its text)."""


_REGISTRY: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry(
            "tic-tac-toe",
            "perfectplay.games.tictactoe.rules:TicTacToe",
            "noughts and crosses on 3x3; a tie from the start, 5,478 reachable positions in 765 "
            "symmetry classes",
            picture="perfectplay.games.tictactoe.picture:drawing",
        ),
        GameEntry(
            "connect-four",
            "perfectplay.games.connect_four.rules:ConnectFour",
            "drop stones into columns, four in a row wins (in memory up to 5x5; 7x6 on the tier "
            "engine)",
            (
                Param("rows", "int", 4, "board height"),
                Param("cols", "int", 5, "board width"),
            ),
            tiered="perfectplay.games.connect_four.tiers:TieredConnectFour",
            picture="perfectplay.games.connect_four.picture:drawing",
        ),
        GameEntry(
            "nim",
            "perfectplay.games.nim.rules:Nim",
            "take any number of tokens from one heap; who takes the last token wins",
            (Param("heaps", "ints", (3, 4, 5), "starting heap sizes"),),
            picture="perfectplay.games.nim.picture:nim_drawing",
        ),
        GameEntry(
            "subtraction",
            "perfectplay.games.subtraction.rules:Subtraction",
            "one heap, take an allowed number of tokens; who takes the last token wins",
            (
                Param("heap", "int", 20, "starting heap size"),
                Param("take", "ints", (1, 2, 3), "the numbers of tokens a move may take"),
            ),
            picture="perfectplay.games.nim.picture:subtraction_drawing",
        ),
        GameEntry(
            "dodgem",
            "perfectplay.games.dodgem.rules:Dodgem",
            "Colin Vout's car race (Winning Ways); loopy, a first-player win on 3x3",
            (Param("size", "int", 3, "board side; each player has size - 1 cars"),),
            tiered="perfectplay.games.dodgem.tiers:DodgemTiers",
            picture="perfectplay.games.dodgem.picture:drawing",
        ),
        GameEntry(
            "quixo",
            "perfectplay.games.quixo.rules:Quixo",
            "push edge cubes back into rows, n in a row wins (GamesmanOne's rules); loopy",
            (Param("size", "int", 4, "board side: 3, 4 or 5"),),
            tiered="perfectplay.games.quixo.rules:TieredQuixo",
            picture="perfectplay.games.quixo.picture:drawing",
        ),
    )
}


def game_names() -> list[str]:
    """Names of all registered games, in registration order."""
    return list(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry entry of game `name` (case and ``_``/``-`` insensitive).

    Raises
    ------
    UnknownNameError
        If no game has that name; the message lists the registered names.
    """
    entry = _REGISTRY.get(normalise_name(name))
    if entry is None:
        raise UnknownNameError(f"unknown game {name!r}; registered games: {', '.join(_REGISTRY)}")
    return entry


def _param(entry: GameEntry, key: str) -> Param:
    for param in entry.params:
        if param.name == key:
            return param
    known = ", ".join(p.name for p in entry.params) or "none"
    raise UnknownNameError(f"game {entry.name} has no parameter {key!r}; its parameters: {known}")


def parse_params(name: str, items: Sequence[str]) -> dict[str, Any]:
    """Parse ``KEY=VALUE`` strings (the command line's ``--param``) for game `name`.

    Raises
    ------
    UnknownNameError
        Unknown game or parameter name.
    InputFormatError
        An item without ``=`` or a value of the wrong type.
    """
    entry = game_entry(name)
    result: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep:
            raise InputFormatError(f"expected a parameter as KEY=VALUE, got {item!r}")
        param = _param(entry, key.strip())
        result[param.name] = param.parse(text.strip())
    return result


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
    entry = game_entry(name)
    game: Game[Any] = _build(entry.target, _values(entry, params))
    return game


def load_tiered_game(name: str, **params: Any) -> TieredGame:
    """The registered game `name` as a tiered game, for the tier engine.

    Parameters and errors as :func:`load_game`; also raises :class:`UnknownNameError` if the
    game has no tiered form (the message lists the games that have one).
    """
    entry = game_entry(name)
    if entry.tiered is None:
        tiered = ", ".join(e.name for e in _REGISTRY.values() if e.tiered is not None)
        raise UnknownNameError(
            f"game {entry.name} has no tiered form for the tier engine; games that have one: "
            f"{tiered}"
        )
    game: TieredGame = _build(entry.tiered, _values(entry, params))
    return game


def load_recorded_tiered_game(name: str, params: Mapping[str, Any]) -> TieredGame:
    """The tiered game a tier directory records by `name` and `params` (a
    :data:`~perfectplay.protocol.tiered.GameLoader` for the tier engine)."""
    return load_tiered_game(name, **params)


def _values(entry: GameEntry, params: dict[str, Any]) -> dict[str, Any]:
    values = {p.name: p.default for p in entry.params}
    for key, value in params.items():
        values[key] = _param(entry, key).check(value)
    return values


def _build(target: str, values: dict[str, Any]) -> Any:
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)(**values)
