"""Contest problems: judge-format adapters, one module per problem, registered by name.

Each module ``perfectplay.problems.<name with underscores>`` has a docstring whose first line
is the problem's one-line description, and a function ``solve(data: bytes, *, limits=True)
-> str`` that maps a judge input to the exact judge output. By default an input beyond the
judge's documented limits (a size above its bound, too many lines) is refused before any work,
with one line naming the limit, the value and the line; ``limits=False`` lifts the limits.
Modules are imported only when used.

>>> get_problem("gym100548h").name
'make-you-happy'
>>> get_problem("Make_You_Happy").name
'make-you-happy'
>>> get_problem("staircase").solve(b"11 1\\n" + b"1\\n" * 22)
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: line 1: n, the number of rows: 11 is above ... 10 ...
>>> get_problem("staircase").solve(b"11 1\\n" + b"1\\n" * 22, limits=False)
'1\\n'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol

from perfectplay._names import normalise_name
from perfectplay.errors import UnknownNameError

__all__ = ["Problem", "Solver", "get_problem", "problem_names"]


class Solver(Protocol):
    """A problem's ``solve``: judge input bytes -> exact judge output text.

    With ``limits`` (the default) an input beyond the judge's documented limits is refused
    with :class:`~perfectplay.errors.InputFormatError` before any work.
    """

    def __call__(self, data: bytes, *, limits: bool = True) -> str: ...


# name -> aliases. The module is perfectplay.problems.<name with "-" replaced by "_">.
_REGISTRY: dict[str, tuple[str, ...]] = {
    "board-game": ("poj2990",),
    "planinarenje": ("coci17c5p6",),
    "jsoi-game": ("p4055", "bzoj1443"),
    "knights": (),
    "make-you-happy": ("gym100548h",),
    "staircase": ("p4363",),
    "hamilg": (),
}
_ALIASES = {alias: name for name, aliases in _REGISTRY.items() for alias in (name, *aliases)}


@dataclass(frozen=True)
class Problem:
    """A registered contest problem."""

    name: str
    """Canonical name, as in ``perfectplay problem NAME``."""
    aliases: tuple[str, ...]
    """Other accepted names (judge ids)."""
    summary: str
    """One-line description."""
    solve: Solver
    """Judge input bytes -> exact judge output text (``limits=False`` lifts the limits)."""


def problem_names() -> list[str]:
    """Canonical names of all registered problems, in registration order."""
    return list(_REGISTRY)


def get_problem(name: str) -> Problem:
    """The problem registered under `name` or one of its aliases (case and ``_``/``-`` insensitive).

    Raises
    ------
    UnknownNameError
        If no problem has that name; the message lists the known names.
    """
    canonical = _ALIASES.get(normalise_name(name))
    if canonical is None:
        raise UnknownNameError(f"unknown problem {name!r}; known problems: {', '.join(_REGISTRY)}")
    module = importlib.import_module(f"{__name__}.{canonical.replace('-', '_')}")
    summary = (module.__doc__ or "").strip().splitlines()[0]
    return Problem(canonical, _REGISTRY[canonical], summary, module.solve)
