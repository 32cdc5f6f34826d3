"""Lazy public names: a package lists what it exports once; modules load on first use.

Importing :mod:`perfectplay` then costs almost nothing; numba and the kernels load only when
a name that needs them is touched.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for `package`, resolving ``name -> module`` on first access.

    `exports` maps each public name to the module (relative to `package`, e.g. ``".graph"``)
    that defines it.

    >>> getattr_, dir_ = lazy_exports("perfectplay", {"GameGraph": ".graph"})
    >>> getattr_("GameGraph").__name__
    'GameGraph'
    >>> "GameGraph" in dir_() and "__version__" in dir_()
    True
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'perfectplay' has no attribute 'nothing'
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
