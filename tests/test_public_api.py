"""The public API: every listed name resolves, and importing the package stays cheap."""

from __future__ import annotations

import subprocess
import sys

import pytest

import perfectplay


@pytest.mark.parametrize("name", perfectplay.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(perfectplay, name) is not None
    assert name in dir(perfectplay)


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = perfectplay.nothing  # type: ignore[attr-defined]


def test_importing_the_package_and_cli_does_not_load_numba() -> None:
    code = "import sys, perfectplay, perfectplay.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
