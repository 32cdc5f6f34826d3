"""Parameters as the command line writes them, and --game (perfectplay.params)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from perfectplay.errors import InputFormatError, UnknownNameError
from perfectplay.games.registry import game_entry
from perfectplay.params import load_target, parse_params


def test_parse_params_from_the_command_line() -> None:
    c4, nim = game_entry("connect-four"), game_entry("nim")
    assert parse_params(c4, ["rows=5", "cols = 4"]) == {"rows": 5, "cols": 4}
    assert parse_params(game_entry("subtraction"), ["take=1,3,4"]) == {"take": (1, 3, 4)}
    with pytest.raises(InputFormatError, match="KEY=VALUE"):
        parse_params(nim, ["heaps"])
    with pytest.raises(InputFormatError, match="parameter rows: expected an integer, got 'x'"):
        parse_params(c4, ["rows=x"])
    with pytest.raises(InputFormatError, match="integers separated by commas"):
        parse_params(nim, ["heaps=1,a"])
    with pytest.raises(UnknownNameError, match="game nim has no parameter 'rows'"):
        parse_params(nim, ["rows=1"])


def test_load_target_builds_a_class_by_module_and_name() -> None:
    game = load_target("perfectplay.games.connect_four.rules:ConnectFour", ["rows=4", "cols=4"])
    assert dict(game.info.params) == {"rows": 4, "cols": 4}  # typed by the registered params
    tiered = load_target("perfectplay.games.quixo.tiers:TieredQuixo", ["size=3"], tiered=True)
    assert tiered.info.name == "quixo"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("nocolon", "expected package.module:Class"),
        ("no_such_module_xyz:Game", "cannot import no_such_module_xyz"),
        ("perfectplay.games.nim.rules:Heaps", "is not a Game subclass"),
        ("perfectplay.games.nim.rules:Nim", "game nim has no parameter 'rows'"),
        ("perfectplay.builders.staircase.rules:Staircase", "unexpected keyword argument 'rows'"),
    ],
)
def test_load_target_refuses_with_one_line(target: str, message: str) -> None:
    with pytest.raises((UnknownNameError, InputFormatError), match=message):
        load_target(target, ["rows=3"] if target.startswith("perfectplay.") else [])


def test_a_class_in_the_current_directory_is_found_and_typed_by_its_constructor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "hereheap.py").write_text(
        textwrap.dedent(
            """
            from perfectplay.protocol.game import Game, GameInfo

            class Here(Game[int]):
                def __init__(self, heap=5, take=(1, 2), name="here"):
                    self.info = GameInfo(name, {"heap": heap, "take": take})
                    self.heap, self.take = heap, take

                def initial(self):
                    return self.heap

                def moves(self, heap):
                    return [(str(k), heap - k) for k in self.take if k <= heap]

                def outcome(self, heap):
                    return None
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    game = load_target("hereheap:Here", ["heap=7", "take=1,3", "name=mine"])
    assert (game.heap, game.take, game.info.name) == (7, (1, 3), "mine")
    with pytest.raises(InputFormatError, match="parameter heap: expected an integer"):
        load_target("hereheap:Here", ["heap=x"])
    with pytest.raises(InputFormatError, match="unexpected keyword argument 'extra'"):
        load_target("hereheap:Here", ["extra=1"])
