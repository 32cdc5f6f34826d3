"""Tic-tac-toe: 5,478 reachable positions, a TIE from the start, every value by brute force."""

from __future__ import annotations

import pytest
from brute import brute_tictactoe

from perfectplay.api import solve
from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.errors import InputFormatError
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.values import Value

VALUE_OF = {-1: Value.LOSE, 0: Value.TIE, 1: Value.WIN}


def test_published_counts_and_value() -> None:
    game = TicTacToe()
    assert enumerate_game(game, canonical=False).n == 5478
    assert enumerate_game(game).n == 765
    solved = solve(game)
    assert solved.value(game.initial()) is Value.TIE
    assert solved.remoteness(game.initial()) == 9


@pytest.mark.parametrize("vectorized", [False, True])
def test_every_position_matches_brute_force(vectorized: bool) -> None:
    expected = brute_tictactoe()
    solved = solve(TicTacToe(), vectorized=vectorized)
    assert len(expected) == 5478
    for board, value in expected.items():
        assert solved[board] is VALUE_OF[value], board


def test_best_moves_win_fastest_and_block() -> None:
    solved = solve(TicTacToe())
    assert [m.label for m in solved.best_moves("XX.OO....")] == ["c1"]
    # O must block X's diagonal threat at c3
    assert [m.label for m in solved.best_moves("X...X.O..")] == ["c3"]
    assert solved.best_moves("XXXOO....") == []


def test_rules_at_the_end() -> None:
    game = TicTacToe()
    assert game.outcome("XXXOO....") is Value.LOSE
    assert game.moves("XXXOO....") == []
    assert game.outcome("XOXXOOOXX") is Value.TIE
    assert game.outcome("X........") is None


def test_symmetry_codes_and_text() -> None:
    game = TicTacToe()
    assert game.canonical("X........") == game.canonical("........X")
    assert game.encode(game.initial()) == 0
    assert game.decode(game.encode("XO.X.....")) == "XO.X....."
    assert game.parse(game.render("XO.X.....")) == "XO.X....."
    assert game.parse("x o . / x . . / . . .".replace("/", "\n")) == "XO.X....."
    with pytest.raises(InputFormatError, match="9 cells"):
        game.parse("XO")
    with pytest.raises(InputFormatError, match="X moves first"):
        game.parse("OO.......")


def test_check_game_passes() -> None:
    assert check_game(TicTacToe(), seed=7, strict=True) == []
