"""Classic games registered by name, loaded with parameters: ``load_game("nim", heaps=(1, 2))``.

Each entry names the module and class implementing the game and declares its parameters
(type, default, help), so the command line can parse ``--param rows=4`` and list them. Game
modules are imported only when a game is loaded.

Names are matched ignoring case and ``_`` vs ``-``, and each game may have aliases
(``ttt``, ``c4``). Installed packages add games through the ``perfectplay.games`` entry point
group: each entry point names a :class:`GameEntry` or a :class:`~perfectplay.protocol.game.Game`
subclass (then registered under the entry point's name, without declared parameters). They are
read from the installed packages' metadata the first time a name is not a built-in one, or when
every game is listed (their modules are imported then). A game class of one's own that is not
registered is named ``module:Class`` (:func:`load_target`, the command line's ``--game``).

Examples
--------
>>> game_names()
['tic-tac-toe', 'connect-four', 'nim', 'subtraction', 'dodgem', 'quixo', 'teeko']
>>> game = load_game("nim", heaps=(1, 2))
>>> game.info.name, dict(game.info.params)
('nim', {'heaps': (1, 2)})
>>> parse_params("nim", ["heaps=1,2,3"])
{'heaps': (1, 2, 3)}
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from perfectplay._names import normalise_name
from perfectplay.errors import GameDefinitionError, InputFormatError, UnknownNameError
from perfectplay.protocol.game import Game, param_value_text

if TYPE_CHECKING:
    from perfectplay.protocol.tiered import TieredGame

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameEntry",
    "Param",
    "class_target",
    "entry_for_target",
    "game_entry",
    "game_names",
    "load_game",
    "load_recorded_game",
    "load_recorded_tiered_game",
    "load_target",
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
        return f"{self.name}={param_value_text(self.default)}"


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
    """``"module:Class"`` (or ``"module:function"`` building one) of the game as a
    :class:`~perfectplay.protocol.tiered.TieredGame` (same parameters), for the tier engine
    (``perfectplay solve GAME --tiers DIR``); None if it has none."""
    picture: str | None = None
    """``"module:function"`` drawing a position of the game as SVG (``function(game, position,
    moves_by_label)`` returning a drawing, or None where the board is too large); None if the
    game has no picture of its own (the front ends then draw its text)."""
    aliases: tuple[str, ...] = ()
    """Other names accepted for the game (``ttt``, ``c4``), compared like the name."""
    notation: str = ""
    """A position of the game (default parameters) in its one-line notation, for listings
    (``perfectplay games``); the test suite parses it back."""
    tier_classes: tuple[str, ...] = ()
    """Further ``"module:Class"`` names the tier form may build (a layout chosen by the
    parameters), accepted where a tier directory records its class."""

    def targets(self) -> tuple[str, ...]:
        """Every ``"module:Class"`` a saved file of this game may record."""
        return tuple(t for t in (self.target, self.tiered, *self.tier_classes) if t is not None)


_REGISTRY: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry(
            "tic-tac-toe",
            "perfectplay.games.tictactoe.rules:TicTacToe",
            "noughts and crosses on 3x3; a tie from the start, 5,478 reachable positions in 765 "
            "symmetry classes",
            picture="perfectplay.games.tictactoe.picture:drawing",
            aliases=("tictactoe", "ttt", "noughts-and-crosses"),
            notation="X../.O./...",
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
            tiered="perfectplay.games.connect_four.tiers:tiered_form",
            picture="perfectplay.games.connect_four.picture:drawing",
            aliases=("connect4", "connectfour", "c4"),
            notation="...../...../O..../XX... or the columns played, 1-based: 112",
            tier_classes=(
                "perfectplay.games.connect_four.tiers:TieredConnectFour",
                "perfectplay.games.connect_four.heights:HeightTieredConnectFour",
            ),
        ),
        GameEntry(
            "nim",
            "perfectplay.games.nim.rules:Nim",
            "take any number of tokens from one heap; who takes the last token wins",
            (Param("heaps", "ints", (3, 4, 5), "starting heap sizes"),),
            picture="perfectplay.games.nim.picture:nim_drawing",
            notation="1 4 5",
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
            aliases=("subtraction-game", "take-away"),
            notation="17",
        ),
        GameEntry(
            "dodgem",
            "perfectplay.games.dodgem.rules:Dodgem",
            "Colin Vout's car race (Winning Ways); loopy, a first-player win on 3x3",
            (Param("size", "int", 3, "board side; each player has size - 1 cars"),),
            tiered="perfectplay.games.dodgem.tiers:DodgemTiers",
            picture="perfectplay.games.dodgem.picture:drawing",
            notation=".B./BR./..R B (the side to move after a blank)",
        ),
        GameEntry(
            "quixo",
            "perfectplay.games.quixo.rules:Quixo",
            "push edge cubes back into rows, n in a row wins (GamesmanOne's rules); loopy",
            (Param("size", "int", 4, "board side: 3, 4 or 5"),),
            tiered="perfectplay.games.quixo.tiers:TieredQuixo",
            picture="perfectplay.games.quixo.picture:drawing",
            notation="--XO/----/----/---- X (the side to move after a blank)",
        ),
        GameEntry(
            "teeko",
            "perfectplay.games.teeko.rules:Teeko",
            "drop 4 pieces, then slide them; 4 in a row or a 2x2 square wins (GamesmanOne's "
            "rules); loopy, a draw",
            (
                Param("size", "int", 5, "board side: 3 to 5"),
                Param("pieces", "int", 4, "pieces per player and line length: 3 to size"),
            ),
            tiered="perfectplay.games.teeko.tiers:TieredTeeko",
            picture="perfectplay.games.teeko.picture:drawing",
        ),
    )
}


ENTRY_POINT_GROUP = "perfectplay.games"
"""The entry point group through which installed packages register games."""


@functools.cache
def _installed() -> dict[str, GameEntry]:
    """The games installed packages register, by normalised name (read once per process).

    Cost: one scan of the installed packages' metadata and one import per entry point, the
    first time only. A :class:`~perfectplay.protocol.game.Game` class is registered under the
    entry point's name with the first line of its docstring as summary and no declared
    parameters (``--param KEY=VALUE`` is then passed to its constructor as given: integers,
    tuples of integers or strings); a :class:`GameEntry` as it is.

    Raises
    ------
    GameDefinitionError
        If an entry point names something else.
    """
    from importlib.metadata import entry_points

    found: dict[str, GameEntry] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        if isinstance(loaded, GameEntry):
            entry = loaded
        elif isinstance(loaded, type) and issubclass(loaded, Game):
            summary = (loaded.__doc__ or "").strip().split("\n")[0]
            entry = GameEntry(point.name, point.value.replace(" ", ""), summary)
        else:
            raise GameDefinitionError(
                f"entry point {point.name} = {point.value} (group {ENTRY_POINT_GROUP}) names "
                "neither a GameEntry nor a Game class"
            )
        key = normalise_name(entry.name)
        if key not in _REGISTRY:  # a built-in name wins: names stay stable
            found.setdefault(key, entry)
    return found


def _aliases() -> dict[str, str]:
    """Every accepted normalised name or alias -> the game's registered name."""
    names: dict[str, str] = {}
    for entry in (*_REGISTRY.values(), *_installed().values()):
        for alias in (entry.name, *entry.aliases):
            names.setdefault(normalise_name(alias), entry.name)
    return names


def game_names() -> list[str]:
    """Names of all registered games: the built-in ones in registration order, then the ones
    installed packages register (:data:`ENTRY_POINT_GROUP`)."""
    return [*_REGISTRY, *(entry.name for entry in _installed().values())]


def game_entry(name: str) -> GameEntry:
    """The registry entry of game `name` or of one of its aliases (case and ``_``/``-``
    insensitive).

    Cost: a dictionary look-up for a built-in name; otherwise one scan of the installed
    packages' entry points (first call only).

    Raises
    ------
    UnknownNameError
        If no game has that name; the message suggests close names and lists the registered
        ones.
    """
    key = normalise_name(name)
    entry = _REGISTRY.get(key)
    if entry is not None:
        return entry
    aliases = _aliases()
    if key in aliases:
        full = aliases[key]
        return _REGISTRY.get(full) or _installed()[normalise_name(full)]
    close = difflib.get_close_matches(key, aliases, n=3, cutoff=0.6)
    suggestion = list(dict.fromkeys(aliases[c] for c in close))
    hint = f" (did you mean {' or '.join(suggestion)}?)" if suggestion else ""
    raise UnknownNameError(
        f"unknown game {name!r}{hint}; registered games: {', '.join(game_names())}"
    )


def class_target(game_class: type) -> str:
    """The ``module:Class`` that names `game_class` (how a saved file records its game).

    >>> from perfectplay.games.nim.rules import Nim
    >>> class_target(Nim)
    'perfectplay.games.nim.rules:Nim'
    """
    return f"{game_class.__module__}:{game_class.__qualname__}"


def entry_for_target(target: str) -> GameEntry | None:
    """The registered game whose plain or tiered class is `target` (``module:Class``), or None.

    Compares names only: no module `target` names is imported, so a file naming a module cannot
    make this process run it (installed packages' entry points are loaded, as for any look-up).
    Cost: one pass over the registered games.

    >>> entry_for_target("perfectplay.games.quixo.tiers:TieredQuixo").name
    'quixo'
    >>> entry_for_target("os:system") is None
    True
    """
    for entry in (*_REGISTRY.values(), *_installed().values()):
        if target in entry.targets():
            return entry
    return None


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
    if _undeclared(entry):
        return _typed(items)
    result: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep:
            raise InputFormatError(f"expected a parameter as KEY=VALUE, got {item!r}")
        param = _param(entry, key.strip())
        result[param.name] = param.parse(text.strip())
    return result


def _undeclared(entry: GameEntry) -> bool:
    """Whether `entry` is an installed game class registered without declared parameters
    (its constructor's keywords are then taken as given, typed by :func:`_typed`)."""
    return not entry.params and normalise_name(entry.name) not in _REGISTRY


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


def load_recorded_game(
    name: str,
    params: Mapping[str, Any],
    target: str | None,
    *,
    where: str = "the file",
    tiered: bool = False,
) -> Any:
    """The game a saved file records: its registered `name`, or the registered class `target`.

    A file is data: `target` (``module:Class``, recorded by files of this version) is compared
    with the registered classes and never imported. A game whose name is registered with
    another class (a game of one's own that shares a built-in name) is not mistaken for it.

    Raises
    ------
    UnknownNameError
        If neither is registered: the message names the ``--game`` to pass.

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
    game = load_tiered_game(entry.name, **values) if tiered else load_game(entry.name, **values)
    if normalise_name(game.info.name) != normalise_name(name):
        raise UnknownNameError(
            f"{where} holds the game {name}, but {target} makes {game.info.name}"
        )
    if tiered and target in entry.tier_classes and class_target(type(game)) != target:
        raise UnknownNameError(
            f"{where} holds {name} in the tier form {target}, which the registry does not "
            f"choose for these parameters: pass --game {target}"
        )
    return game


def load_target(target: str, items: Sequence[str] = (), *, tiered: bool = False) -> Any:
    """The game class `target` (``module:Class``, e.g. the command line's ``--game``) built with
    the ``KEY=VALUE`` strings `items`.

    Imports `target`'s module: call it only for a name the user gave, never for one read from a
    file. A registered class (built in, or installed through an entry point) takes its declared
    parameters; another class takes each value as an integer, integers separated by commas (a
    tuple) or else a string.

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

    Examples
    --------
    >>> load_target("perfectplay.games.nim.rules:Nim", ["heaps=2,3"])
    <Nim nim heaps=(2, 3)>
    >>> load_target("perfectplay.games.nim.rules:Nimm")
    Traceback (most recent call last):
    ...
    perfectplay.errors.UnknownNameError: --game ...:Nimm: module ... has no class Nimm
    """
    from perfectplay.protocol.tiered import TieredGame

    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name.isidentifier():
        raise UnknownNameError(f"--game expects package.module:Class, got {target!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownNameError(f"--game {target}: cannot import {module_name}: {error}") from None
    game_class = getattr(module, class_name, None)
    kind = TieredGame if tiered else Game
    if game_class is None:
        raise UnknownNameError(f"--game {target}: module {module_name} has no class {class_name}")
    if not (isinstance(game_class, type) and issubclass(game_class, kind)):
        raise UnknownNameError(f"--game {target}: {class_name} is not a {kind.__name__} subclass")
    entry = entry_for_target(target)
    values = _typed(items) if entry is None else _values(entry, parse_params(entry.name, items))
    try:
        return game_class(**values)
    except TypeError as error:  # unknown or missing constructor arguments
        raise InputFormatError(f"--game {target}: {error}") from None


def _typed(items: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings of an undeclared game: integers, tuples of integers or strings."""
    result: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep:
            raise InputFormatError(f"expected a parameter as KEY=VALUE, got {item!r}")
        words = text.strip().split(",")
        try:
            numbers = tuple(int(word) for word in words if word.strip())
        except ValueError:
            result[key.strip()] = text.strip()
            continue
        result[key.strip()] = numbers if "," in text else numbers[0] if numbers else text
    return result


def _values(entry: GameEntry, params: dict[str, Any]) -> dict[str, Any]:
    if _undeclared(entry):
        return dict(params)
    values = {p.name: p.default for p in entry.params}
    for key, value in params.items():
        values[key] = _param(entry, key).check(value)
    return values


def _build(target: str, values: dict[str, Any]) -> Any:
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)(**values)
