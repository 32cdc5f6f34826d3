"""The game a saved file records, rebuilt through the registry (perfectplay.recorded)."""

from __future__ import annotations

import sys

import pytest

from perfectplay.errors import UnknownNameError
from perfectplay.recorded import load_recorded_game


def test_a_recorded_game_is_rebuilt_by_name_and_class_or_refused() -> None:
    target = "perfectplay.games.nim.rules:Nim"
    assert load_recorded_game("nim", {"heaps": [1, 2]}, target).info.params["heaps"] == (1, 2)
    assert load_recorded_game("nim", {"heaps": [1, 2]}, None).info.name == "nim"  # older files
    with pytest.raises(UnknownNameError, match=r"pass --game mine\.rules:Nim$"):
        load_recorded_game("nim", {}, "mine.rules:Nim", where="f")  # a built-in name, not class
    with pytest.raises(UnknownNameError, match=r"but perfectplay\.games\.nim\.rules:Nim makes nim"):
        load_recorded_game("other", {}, target, where="f")
    assert "mine" not in sys.modules and "mine.rules" not in sys.modules


def test_a_tier_directory_is_rebuilt_in_the_class_it_records() -> None:
    heights = "perfectplay.games.connect_four.heights:HeightTieredConnectFour"
    game = load_recorded_game("connect-four", {"rows": 6, "cols": 6}, heights, tiered=True)
    assert type(game).__name__ == "HeightTieredConnectFour"
    with pytest.raises(UnknownNameError, match="which the registry does not choose"):
        load_recorded_game("connect-four", {"rows": 4, "cols": 4}, heights, tiered=True)


def test_a_class_that_moved_opens_by_its_former_target(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from perfectplay.games import registry

    builtin = registry._builtin()
    moved = dataclasses.replace(builtin["nim"], old_targets=("perfectplay.games.old.nim:Nim",))
    monkeypatch.setattr(registry, "_builtin", lambda: {**builtin, "nim": moved})
    game = load_recorded_game("nim", {"heaps": [3]}, "perfectplay.games.old.nim:Nim")
    assert game.info.params["heaps"] == (3,)
    assert "perfectplay.games.old" not in sys.modules
