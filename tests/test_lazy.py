"""Lazy public names (perfectplay._lazy): every name resolves to its module's object."""

from __future__ import annotations

import subprocess
import sys

import pytest

import perfectplay
from perfectplay._lazy import lazy_exports


def test_each_exported_name_is_its_modules_object() -> None:
    getattr_, dir_ = lazy_exports("perfectplay", {"GameGraph": ".graph", "solve": ".api"})
    from perfectplay.api import solve
    from perfectplay.graph import GameGraph

    assert getattr_("GameGraph") is GameGraph and getattr_("solve") is solve
    assert {"GameGraph", "solve"} <= set(dir_()) and dir_() == sorted(dir_())


def test_an_unknown_name_is_an_attribute_error_naming_the_package() -> None:
    getattr_, _ = lazy_exports("perfectplay", {})
    with pytest.raises(AttributeError, match=r"^module 'perfectplay' has no attribute 'nope'$"):
        getattr_("nope")
    with pytest.raises(AttributeError):
        perfectplay.nope  # type: ignore[attr-defined]  # noqa: B018


def test_every_public_name_of_the_package_loads() -> None:
    for name in perfectplay.__all__:
        assert getattr(perfectplay, name) is not None, name
        assert name in dir(perfectplay)


def test_a_name_loads_its_module_on_first_use_only() -> None:
    code = (
        "import sys, perfectplay\n"
        "before = 'perfectplay.solvers.grundy' in sys.modules\n"
        "perfectplay.solve_grundy\n"
        "print(before, 'perfectplay.solvers.grundy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
