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


def test_one_public_move_record_for_graphs_and_games() -> None:
    """``perfectplay.Move`` is what a solved graph and a solved game both list moves as."""
    graph = perfectplay.solve(perfectplay.GameGraph.from_edges([0, 0], [1, 2], n=3))
    game = perfectplay.solve(perfectplay.load_game("nim", heaps=(1, 2)))
    moves = [*graph.move_values(0), *game.move_values(game.initial)]
    assert moves and all(type(m) is perfectplay.Move for m in moves)
    assert [m.label for m in graph.move_values(0)] == ["1", "2"]
