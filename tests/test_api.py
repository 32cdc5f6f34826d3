"""perfectplay.solve: games to GameSolutions indexed by position, graphs to Solutions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from perfectplay.api import GameMove, GameSolution, solve
from perfectplay.errors import GameDefinitionError, PositionNotFoundError, TooLargeError
from perfectplay.games.dodgem.rules import Dodgem
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.solution import Solution
from perfectplay.values import Value


def test_game_solution_is_indexed_by_position() -> None:
    s = solve(Subtraction(10, (1, 2)))
    assert isinstance(s, GameSolution)
    assert len(s) == 11
    assert s[9] is Value.LOSE and s.value(10) is Value.WIN
    assert s.remoteness(10) == 1 + s.remoteness(9)
    assert s.remoteness(0) == 0 and s.is_over(0) and not s.is_over(1)
    assert s.score(10) is None
    assert 3 in s and 11 not in s and "x" not in s
    assert s.summary() == {"WIN": 7, "LOSE": 4, "TIE": 0, "DRAW": 0}
    assert s.position_of(s.id_of(7)) == 7
    assert s.codes.tolist() == [s.game.encode(s.position_of(i)) for i in range(11)]
    assert repr(s).startswith("<GameSolution of subtraction: start WIN, n=11")
    with pytest.raises(PositionNotFoundError):
        s.value(11)


def test_move_values_and_best_moves_carry_labels() -> None:
    s = solve(Subtraction(10, (1, 2)))
    assert s.move_values(10) == [
        GameMove("1", 9, Value.WIN, s.remoteness(9) + 1),
        GameMove("2", 8, Value.LOSE, s.remoteness(8) + 1),
    ]
    assert [m.label for m in s.best_moves(10)] == ["1"]
    assert s.move_values(0) == [] and s.best_moves(0) == []


def test_every_best_move_keeps_the_value() -> None:
    s = solve(TicTacToe())
    for p in s.enumeration.positions:
        best = s.best_moves(p)
        if s.is_over(p):
            assert best == []
            continue
        assert best and all(m.value is s[p] for m in best)
        assert all(m.remoteness == s.remoteness(p) for m in best)
        assert {m.label for m in best} <= {m.label for m in s.move_values(p)}


def test_loopy_game_has_draw_moves() -> None:
    class Shuffle(Game[int]):
        """0 <-> 1 forever, or 1 -> 2, where the player to move has won."""

        info = GameInfo("shuffle", cyclic=True)

        def initial(self) -> int:
            return 0

        def moves(self, n: int) -> list[tuple[str, int]]:
            return {0: [("on", 1)], 1: [("back", 0), ("out", 2)], 2: []}[n]

        def outcome(self, n: int) -> Value | None:
            return Value.WIN if n == 2 else None

    s = solve(Shuffle())
    assert s.solution.solver == "retrograde"
    assert [s[p] for p in (0, 1, 2)] == [Value.DRAW, Value.DRAW, Value.WIN]
    assert [s.remoteness(p) for p in (0, 1, 2)] == [-1, -1, 0]
    assert s.move_values(1) == [
        GameMove("back", 0, Value.DRAW, -1),
        GameMove("out", 2, Value.LOSE, 1),
    ]
    assert [m.label for m in s.best_moves(1)] == ["back"]
    assert solve(Dodgem(3)).solution.solver == "retrograde"


def test_scored_game_scores_and_best_moves() -> None:
    class Coins(Game[int]):
        """Take 1 or 2 coins from a row worth 1 each, or 5 for the last coin."""

        info = GameInfo("coins", scored=True)

        def initial(self) -> int:
            return 5

        def moves(self, n: int) -> list[tuple[str, int, int]]:
            return [(str(k), n - k, k + (4 if k == n else 0)) for k in (1, 2) if k <= n]

        def outcome(self, n: int) -> Value | None:
            return Value.TIE if n == 0 else None

    s = solve(Coins())

    def best(n: int) -> int:  # brute-force negamax of the score
        return (
            max(
                g - best(n - k) for k, g in ((1, 1 + 4 * (n == 1)), (2, 2 + 4 * (n == 2))) if k <= n
            )
            if n
            else 0
        )

    assert [s.score(n) for n in range(6)] == [best(n) for n in range(6)]
    assert all(m.score == s.score(5) for m in s.best_moves(5))


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


def test_declared_acyclic_game_with_a_cycle_is_one_clear_error() -> None:
    class Loop(Game[int]):
        info = GameInfo("loop")

        def initial(self) -> int:
            return 0

        def moves(self, n: int) -> Any:
            return [("next", (n + 1) % 3)]

        def outcome(self, n: int) -> Value | None:
            return None

    with pytest.raises(GameDefinitionError, match="declares GameInfo\\(cyclic=False\\)"):
        solve(Loop())
