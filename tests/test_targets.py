"""Classes named module:Class (perfectplay._targets): one rule for files, workers and --game."""

from __future__ import annotations

import pytest

from perfectplay._targets import absolute_target, class_target, import_target, split_target
from perfectplay.errors import UnknownNameError
from perfectplay.games.nim.rules import Nim


def test_a_class_round_trips_through_its_target() -> None:
    assert import_target(class_target(Nim)) is Nim
    assert absolute_target("perfectplay.x:Y", "ignored") == "perfectplay.x:Y"
    assert absolute_target("..nim.rules:Nim", "perfectplay.games.dodgem") == class_target(Nim)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("nocolon", "expected package.module:Class"),
        (":Nim", "expected package.module:Class"),
        ("a:1b", "expected package.module:Class"),
        ("no_such_module_xyz:Game", "cannot import no_such_module_xyz"),
        ("perfectplay.games.nim.rules:Nimm", "module perfectplay.games.nim.rules has no Nimm"),
    ],
)
def test_bad_targets_are_refused_with_one_line(target: str, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        import_target(target)
    assert split_target("a.b:C.d") == ("a.b", "C.d")
