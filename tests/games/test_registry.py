"""The registry of classic games: names, parameters, loading, and conformance of each game."""

from __future__ import annotations

import pytest

from perfectplay.enumeration.check import check_game
from perfectplay.errors import GameDefinitionError, InputFormatError, UnknownNameError
from perfectplay.games.registry import game_entry, game_names, load_game, parse_params


def test_names_and_entries() -> None:
    assert game_names() == ["tic-tac-toe", "connect-four", "nim", "subtraction", "dodgem", "quixo"]
    assert game_entry("Connect_Four").name == "connect-four"
    assert [str(p) for p in game_entry("subtraction").params] == ["heap=20", "take=1,2,3"]


@pytest.mark.parametrize("name", game_names())
def test_each_registered_game_loads_with_its_defaults_and_passes_check_game(name: str) -> None:
    game = load_game(name)
    assert game.info.name == name
    defaults = {p.name: p.default for p in game_entry(name).params}
    assert dict(game.info.params) == defaults
    assert check_game(game, seed=1, strict=True) == []


def test_parameters_are_passed_and_recorded() -> None:
    game = load_game("connect-four", rows=5, cols=4)
    assert dict(game.info.params) == {"rows": 5, "cols": 4}
    assert load_game("nim", heaps=[2, 2]).info.params["heaps"] == (2, 2)


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownNameError, match="registered games: tic-tac-toe, connect-four"):
        load_game("chess")


def test_unknown_parameter_lists_the_game_parameters() -> None:
    with pytest.raises(UnknownNameError, match="parameters: rows, cols"):
        load_game("connect-four", width=4)
    with pytest.raises(UnknownNameError, match="parameters: none"):
        load_game("tic-tac-toe", size=4)


def test_wrong_parameter_types_and_ranges() -> None:
    with pytest.raises(GameDefinitionError, match="rows must be an integer"):
        load_game("connect-four", rows="4")
    with pytest.raises(GameDefinitionError, match="heaps must be a tuple of integers"):
        load_game("nim", heaps=3)
    with pytest.raises(GameDefinitionError, match="rows=9, cols=9"):
        load_game("connect-four", rows=9, cols=9)


def test_parse_params_from_the_command_line() -> None:
    assert parse_params("connect-four", ["rows=5", "cols = 4"]) == {"rows": 5, "cols": 4}
    assert parse_params("subtraction", ["take=1,3,4"]) == {"take": (1, 3, 4)}
    with pytest.raises(InputFormatError, match="KEY=VALUE"):
        parse_params("nim", ["heaps"])
    with pytest.raises(InputFormatError, match="parameter rows: expected an integer, got 'x'"):
        parse_params("connect-four", ["rows=x"])
    with pytest.raises(InputFormatError, match="integers separated by commas"):
        parse_params("nim", ["heaps=1,a"])


def test_cli_lists_every_game_with_its_parameters() -> None:
    from cli_helpers import run_cli

    result = run_cli(["games"])
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines if not line.startswith(" ")] == game_names()
    assert "    --param rows=4" in result.out and "--param heaps=3,4,5" in result.out
    one = run_cli(["games", "Connect_Four"])
    assert one.out.splitlines()[0].startswith("connect-four ")
    bad = run_cli(["games", "chess"])
    assert bad.code == 2 and bad.out == ""
    assert bad.err.strip() == (
        "perfectplay: error: unknown game 'chess'; registered games: "
        "tic-tac-toe, connect-four, nim, subtraction, dodgem, quixo"
    )
