"""The public API: every listed name resolves, and importing the package stays cheap."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import perfectplay


@pytest.mark.parametrize("name", sorted(perfectplay._EXPORTS))
def test_every_public_name_is_the_object_its_module_defines(name: str) -> None:
    module = importlib.import_module(perfectplay._EXPORTS[name], "perfectplay")
    assert getattr(perfectplay, name) is getattr(module, name)
    assert name in dir(perfectplay)


@pytest.mark.parametrize("name", sorted(perfectplay._EXPORTS))
def test_every_public_name_is_documented(name: str) -> None:
    obj = getattr(perfectplay, name)
    if isinstance(obj, type) or callable(obj):
        doc = (obj.__doc__ or "").strip()
        assert doc, f"perfectplay.{name} has no docstring"
        assert doc.splitlines()[0].strip(), f"perfectplay.{name}: the docstring has no summary"


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = perfectplay.nothing  # type: ignore[attr-defined]


def test_importing_the_package_and_cli_does_not_load_numba() -> None:
    code = "import sys, perfectplay, perfectplay.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
