"""Classes named ``module:Class``: how saved files, Dask workers and ``--game`` name a class.

One rule, written here only: a target is the dotted module, a colon and the attribute's
qualified name (``perfectplay.games.nim.rules:Nim``). A target that starts with ``.`` is
relative to a package (a game folder's entry names its rules ``.rules:Nim``).

Examples
--------
>>> from perfectplay.errors import UnknownNameError
>>> class_target(UnknownNameError)
'perfectplay.errors:UnknownNameError'
>>> absolute_target(".rules:Nim", "perfectplay.games.nim")
'perfectplay.games.nim.rules:Nim'
>>> import_target("perfectplay.errors:UnknownNameError") is UnknownNameError
True
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any

from perfectplay.errors import UnknownNameError

__all__ = ["absolute_target", "class_target", "import_target", "importable_here", "split_target"]


def class_target(cls: Any) -> str:
    """The ``module:Class`` naming `cls` (a class, or a function), as saved files record it."""
    return f"{cls.__module__}:{cls.__qualname__}"


def split_target(target: str) -> tuple[str, str]:
    """``(module, attribute)`` of `target`.

    Raises
    ------
    UnknownNameError
        If `target` is not ``module:Name``.

    >>> split_target("a.b:C")
    ('a.b', 'C')
    """
    module, sep, name = target.partition(":")
    if not sep or not module.strip(".") or not all(p.isidentifier() for p in name.split(".")):
        raise UnknownNameError(f"expected package.module:Class, got {target!r}")
    return module, name


def absolute_target(target: str, package: str) -> str:
    """`target` with a relative module (``.rules:Nim``) resolved against `package`.

    Raises
    ------
    UnknownNameError
        If `target` is relative and `package` empty.
    """
    if not target.startswith("."):
        return target
    module, name = split_target(target)
    if not package:
        raise UnknownNameError(f"{target} is relative, but to no package")
    return f"{importlib.util.resolve_name(module, package)}:{name}"


def import_target(target: str) -> Any:
    """The attribute `target` names, its module imported (absolute targets only).

    Import it only for a target written in code or given by the user, never for one read
    from a file. Cost: the module's import (once per process).

    Raises
    ------
    UnknownNameError
        If `target` is malformed, its module cannot be imported or has no such attribute.
    """
    module_name, name = split_target(target)
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownNameError(f"{target}: cannot import {module_name}: {error}") from None
    for part in name.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise UnknownNameError(f"{target}: module {module_name} has no {name}")
    return found


def importable_here() -> None:
    """Put the current directory first on the module path, as ``python -m`` does, so that a
    class the user names (``--game mygame:MyGame``) may live in a module beside them."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
