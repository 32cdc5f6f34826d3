"""perfectplay.solve: games to GameSolutions indexed by position, graphs to Solutions."""

from __future__ import annotations

import numpy as np
import pytest

from perfectplay.api import GameSolution, solve
from perfectplay.errors import GameDefinitionError, TooLargeError
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.solution import Solution
from perfectplay.values import Value


def test_games_go_to_the_enumeration_and_its_solution() -> None:
    s = solve(Subtraction(10, (1, 2)))
    assert isinstance(s, GameSolution) and len(s) == 11 and s.value(10) is Value.WIN


def test_graphs_go_to_the_graph_solver() -> None:
    result = solve([(0, 1), (1, 2)])
    assert isinstance(result, Solution)
    assert result.value.tolist() == [Value.LOSE, Value.WIN, Value.LOSE]
    assert solve([(0, 1)], misere=True).value.tolist() == [Value.LOSE, Value.WIN]
    prim = np.array([255, Value.TIE], dtype=np.uint8)
    assert solve([(0, 1)], prim).value.tolist() == [Value.TIE, Value.TIE]


def test_options_for_the_wrong_kind_of_input() -> None:
    with pytest.raises(GameDefinitionError, match="apply to graphs"):
        solve(TicTacToe(), primitive=[0])
    with pytest.raises(GameDefinitionError, match="apply to games"):
        solve([(0, 1)], max_positions=3)
    with pytest.raises(TooLargeError):
        solve(TicTacToe(), max_positions=10)


def test_misere_option_for_games() -> None:
    assert solve(Subtraction(4, (1,)), misere=True).value(4) is Value.WIN
    assert solve(Subtraction(4, (1,))).value(4) is Value.LOSE
