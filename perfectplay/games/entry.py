"""A game's entry in the registry: :class:`GameEntry`, exported by each game folder's ``entry.py``.

An entry says everything the front ends need to offer a game by name: its name and aliases, a
one-line summary, a help line per parameter, an example of its notation, and where its plain
form, tier form(s) and picture live. Those are *targets* (``module:Class``,
:mod:`perfectplay._targets`); a target starting with ``.`` is relative to the folder
(``.rules:Nim``), so an entry names nothing outside its folder and importing it imports
neither the rules nor numba: they are imported when the game is built or drawn.

A parameter's type and default are read from the constructor's signature (its defaults are
written once, in the rules); the entry gives each keyword a help line, and the two must name
the same keywords (:meth:`GameEntry.parameters` checks it).

Examples
--------
>>> entry = GameEntry(
...     "nim", ".rules:Nim", "take tokens", (Param("heaps", "starting heap sizes"),),
...     package="perfectplay.games.nim",
... )
>>> [str(p) for p in entry.parameters()]
['heaps=3,4,5']
>>> entry.build({"heaps": [1, 2]})
<Nim nim heaps=(1, 2)>
>>> entry.targets()
('perfectplay.games.nim.rules:Nim',)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from perfectplay._targets import absolute_target, import_target
from perfectplay.errors import GameDefinitionError, InputFormatError, UnknownNameError
from perfectplay.protocol.game import param_value_text

__all__ = ["GameEntry", "Param"]

Kind = Literal["int", "ints", "text"]
"""A parameter's type: one integer, a tuple of integers (``1,2,3``), or a string."""


@dataclass(frozen=True)
class Param:
    """One parameter of a game: a keyword of its constructor."""

    name: str
    """Keyword of the game's constructor and of ``--param NAME=VALUE``."""
    help: str = ""
    """One line for ``perfectplay games``."""
    kind: Kind | None = None
    """The type, read from the constructor's default (None where only declared)."""
    default: int | tuple[int, ...] | str | None = None
    """The constructor's default (None where only declared)."""

    def parse(self, text: str) -> int | tuple[int, ...] | str:
        """The value written as `text` (``"4"``, or ``"1,2,3"`` for a tuple).

        Raises
        ------
        InputFormatError
            If `text` is not an integer (or a comma-separated list of integers).
        """
        if self.kind == "text":
            return text
        words = text.split(",") if self.kind == "ints" else [text]
        try:
            values = tuple(int(word) for word in words if word.strip() or self.kind == "int")
        except ValueError:
            expected = "an integer" if self.kind == "int" else "integers separated by commas"
            raise InputFormatError(
                f"parameter {self.name}: expected {expected}, got {text!r}"
            ) from None
        return values if self.kind == "ints" else values[0]

    def check(self, value: Any) -> int | tuple[int, ...] | str:
        """`value` converted to this parameter's type, or GameDefinitionError naming it."""
        if self.kind == "text":
            if not isinstance(value, str):
                raise GameDefinitionError(f"parameter {self.name} must be a string, got {value!r}")
            return value
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


def _kind(default: Any) -> Kind | None:
    """The parameter type a constructor default stands for, or None."""
    if isinstance(default, bool):
        return None
    if isinstance(default, int):
        return "int"
    if isinstance(default, str):
        return "text"
    if isinstance(default, tuple) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in default
    ):
        return "ints"
    return None


@dataclass(frozen=True)
class GameEntry:
    """A game offered by name: what it is called, its parameters and where its forms live.

    Each target is ``module:Name``, relative to :attr:`package` when it starts with ``.``.
    """

    name: str
    """The name ``load_game`` accepts."""
    rules: str
    """The :class:`~perfectplay.protocol.game.Game` class (``.rules:Nim``)."""
    summary: str
    """One-line description, true of every size the game offers."""
    params: tuple[Param, ...] | None = ()
    """Each constructor keyword with its help line, in the order ``perfectplay games`` lists
    them (types and defaults come from the constructor). None (a class registered without an
    entry of its own): every keyword of the constructor that has an integer, integer tuple or
    string default, without help, and any other keyword passed as given."""
    tiers: str | None = None
    """The game as a :class:`~perfectplay.protocol.tiered.TieredGame` class (or a function
    building one from the same parameters), for the tier engine (``perfectplay solve GAME
    --tiers DIR``); None if it has none."""
    picture: str | None = None
    """A function drawing a position as SVG (``function(game, position, moves_by_label)``
    returning a drawing, or None where the board is too large); None if the game has no picture
    of its own (the front ends then draw its text)."""
    aliases: tuple[str, ...] = ()
    """Other names accepted for the game (``ttt``, ``c4``), compared like the name."""
    notation: str = ""
    """A position of the game (default parameters) in its one-line notation, for listings
    (``perfectplay games``); the test suite parses it back."""
    small: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """Parameters of a small instance (solved in memory in about a second), for tests and
    examples; empty: the defaults."""
    tier_classes: tuple[str, ...] = ()
    """Further classes the tier form may build (a layout chosen by the parameters), accepted
    where a tier directory records its class."""
    old_targets: tuple[str, ...] = ()
    """Absolute targets saved files of earlier versions record for this game's classes, kept
    so those files still open (a class that moved)."""
    package: str = ""
    """The package relative targets are resolved against: the game's folder (the registry
    fills it in from where it found the entry)."""

    def bound(self, package: str) -> GameEntry:
        """This entry with relative targets resolved against `package`, unless it has one."""
        return self if self.package else replace(self, package=package)

    def target(self, relative: str) -> str:
        """`relative` (one of this entry's targets) as an absolute ``module:Name``."""
        return absolute_target(relative, self.package)

    def targets(self) -> tuple[str, ...]:
        """Every ``module:Class`` a saved file of this game may record."""
        named = (self.rules, self.tiers, *self.tier_classes, *self.old_targets)
        return tuple(self.target(t) for t in named if t is not None)

    def game_class(self) -> type:
        """The game's class (its module imported)."""
        found: type = import_target(self.target(self.rules))
        return found

    def drawing(self) -> Callable[..., Any] | None:
        """The picture function, or None if the game has none (its module imported)."""
        return None if self.picture is None else import_target(self.target(self.picture))

    @functools.cached_property
    def _parameters(self) -> tuple[Param, ...]:
        signature = inspect.signature(self.game_class())
        found = {
            p.name: p
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and p.default is not p.empty
            and _kind(p.default) is not None
        }
        if self.params is None:
            return tuple(Param(n, "", _kind(p.default), p.default) for n, p in found.items())
        declared = [p.name for p in self.params]
        if sorted(declared) != sorted(found):
            raise GameDefinitionError(
                f"game {self.name}: its entry lists the parameters {', '.join(declared)}, but "
                f"{self.target(self.rules)} takes {', '.join(found) or 'none'}"
            )
        return tuple(
            replace(p, kind=_kind(found[p.name].default), default=found[p.name].default)
            for p in self.params
        )

    def parameters(self) -> tuple[Param, ...]:
        """The parameters with their type and default, read from the constructor.

        Cost: importing the rules, the first time.

        Raises
        ------
        GameDefinitionError
            If the declared parameters are not the constructor's keywords.
        """
        return self._parameters

    def param(self, key: str) -> Param | None:
        """The parameter `key`, or None for a key of a game that declares none.

        Raises
        ------
        UnknownNameError
            If the game declares its parameters and `key` is not one of them.
        """
        for param in self.parameters():
            if param.name == key:
                return param
        if self.params is None:
            return None  # an undeclared game takes its keywords as given
        known = ", ".join(p.name for p in self.parameters()) or "none"
        raise UnknownNameError(
            f"game {self.name} has no parameter {key!r}; its parameters: {known}"
        )

    def values(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter's value: the defaults, replaced by `params` (each type-checked).

        Raises
        ------
        UnknownNameError
            An unknown parameter name.
        GameDefinitionError
            A value of the wrong type.
        """
        values: dict[str, Any] = {p.name: p.default for p in self.parameters()}
        for key, value in params.items():
            param = self.param(key)
            values[key] = value if param is None else param.check(value)
        return values

    def build(self, params: Mapping[str, Any] | None = None, *, tiered: bool = False) -> Any:
        """The game with `params` (defaults for the others); its tier form if `tiered`.

        Raises
        ------
        UnknownNameError
            An unknown parameter name, or `tiered` for a game without a tier form.
        GameDefinitionError
            A parameter of the wrong type or out of the game's range.
        """
        values = self.values(params or {})
        if not tiered:
            return self.game_class()(**values)
        if self.tiers is None:
            raise UnknownNameError(f"game {self.name} has no tiered form for the tier engine")
        return import_target(self.target(self.tiers))(**values)
