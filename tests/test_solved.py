"""open_solved / open_tiers: saved solutions opened with the game their files record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfectplay.errors import StoreError
from perfectplay.games.connect_four.tiers import TieredConnectFour
from perfectplay.solved import open_solved, open_tiers
from perfectplay.tiers import solve_tiers


class MyConnectFour(TieredConnectFour):
    """A game of one's own that shares a built-in game's name: never mistaken for it."""


def test_a_tier_directory_records_its_class_and_opens_with_it(tmp_path: Path) -> None:
    solve_tiers(TieredConnectFour(3, 3), tmp_path / "c4", progress=False).close()
    manifest = json.loads((tmp_path / "c4" / "manifest.json").read_text())
    assert manifest["class"] == "perfectplay.games.connect_four.tiers:TieredConnectFour"
    with open_solved(tmp_path / "c4") as db:
        assert db.game_name == "connect-four" and db.params == {"rows": 3, "cols": 3}


def test_a_directory_of_an_unregistered_class_names_the_game_option(tmp_path: Path) -> None:
    solve_tiers(MyConnectFour(3, 3), tmp_path / "mine", progress=False).close()
    target = f"{MyConnectFour.__module__}:MyConnectFour"
    with pytest.raises(StoreError, match=f"pass --game {target}"):
        open_tiers(tmp_path / "mine")
    with open_tiers(tmp_path / "mine", game=MyConnectFour(3, 3)) as db:
        assert db.probe(db.initial).value.name == "TIE"


def test_a_directory_without_a_recorded_class_opens_by_name(tmp_path: Path) -> None:
    solve_tiers(TieredConnectFour(3, 3), tmp_path / "old", progress=False).close()
    path = tmp_path / "old" / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["class"]  # as written before the class was recorded
    path.write_text(json.dumps(manifest))
    with open_tiers(tmp_path / "old") as db:
        assert db.game_name == "connect-four"


def test_analyze_opens_a_directory_of_an_unregistered_class_with_game(tmp_path: Path) -> None:
    from cli_helpers import run_cli

    solve_tiers(MyConnectFour(3, 3), tmp_path / "mine", progress=False).close()
    target = f"{MyConnectFour.__module__}:MyConnectFour"
    refused = run_cli(["analyze", str(tmp_path / "mine")])
    assert refused.code == 2 and f"pass --game {target}" in refused.err
    args = ["analyze", str(tmp_path / "mine"), "--game", target, "--param", "rows=3"]
    answered = run_cli([*args, "--param", "cols=3", "--json"])
    assert answered.code == 0, answered.err
