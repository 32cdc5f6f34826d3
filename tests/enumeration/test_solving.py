"""Solving an enumerated game (perfectplay.enumeration.solving): GameSolution, PositionView.

Positions are looked up by value, their moves valued for the player making them; random games
are checked against the brute-force twins in tests/brute.py (recursion for acyclic games,
rounds of full sweeps for loopy ones).
"""

from __future__ import annotations

from typing import Any

import pytest
from brute import brute_game_solution, retrograde
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.enumeration.solving import GameSolution, PositionView, solve_enumeration
from perfectplay.errors import GameDefinitionError, PositionNotFoundError
from perfectplay.games.dodgem.rules import Dodgem
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.moves import Move
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value


def _solve(game: Game[Any], *, misere: bool = False) -> GameSolution[Any]:
    return solve_enumeration(enumerate_game(game, progress=False), misere=misere)


def test_game_solution_is_indexed_by_position() -> None:
    s = _solve(Subtraction(10, (1, 2)))
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
    s = _solve(Subtraction(10, (1, 2)))
    assert s.move_values(10) == [
        Move("1", 9, Value.WIN, s.remoteness(9) + 1),
        Move("2", 8, Value.LOSE, s.remoteness(8) + 1),
    ]
    assert [m.label for m in s.best_moves(10)] == ["1"]
    assert s.move_values(0) == [] and s.best_moves(0) == []


def test_every_best_move_keeps_the_value() -> None:
    s = _solve(TicTacToe())
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

    s = _solve(Shuffle())
    assert s.solution.solver == "retrograde"
    assert [s[p] for p in (0, 1, 2)] == [Value.DRAW, Value.DRAW, Value.WIN]
    assert [s.remoteness(p) for p in (0, 1, 2)] == [-1, -1, 0]
    assert s.move_values(1) == [
        Move("back", 0, Value.DRAW, -1),
        Move("out", 2, Value.LOSE, 1),
    ]
    assert [m.label for m in s.best_moves(1)] == ["back"]
    assert _solve(Dodgem(3)).solution.solver == "retrograde"


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

    s = _solve(Coins())

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
        _solve(Loop())


class Listed(Game[int]):
    """Positions 0..n-1 with explicit moves; `over` fixes some values by the rules."""

    def __init__(self, children: list[list[int]], over: dict[int, Value], cyclic: bool) -> None:
        self.children, self.over = children, over
        self.info = GameInfo("listed", cyclic=cyclic)

    def initial(self) -> int:
        return 0

    def moves(self, position: int) -> list[tuple[str, int]]:
        return [] if position in self.over else [(f"m{c}", c) for c in self.children[position]]

    def outcome(self, position: int) -> Value | None:
        return self.over.get(position)

    def encode(self, position: int) -> int:
        return position


@st.composite
def listed_games(draw: st.DrawFn, cyclic: bool) -> Listed:
    n = draw(st.integers(1, 10))
    children = [
        draw(st.lists(st.integers(0 if cyclic else p + 1, n - 1), max_size=3))
        if cyclic or p + 1 < n
        else []
        for p in range(n)
    ]
    over = draw(
        st.dictionaries(st.integers(0, n - 1), st.sampled_from([Value.WIN, Value.LOSE, Value.TIE]))
    )
    return Listed(children, over, cyclic)


@given(listed_games(cyclic=False))
def test_acyclic_games_equal_the_brute_force_recursion(game: Listed) -> None:
    s = _solve(game)
    brute, codes = brute_game_solution(game)
    assert len(s) == len(codes)
    for i, code in enumerate(codes):
        assert s.value(code) == brute.value[i] and s.remoteness(code) == brute.remoteness[i]


@given(listed_games(cyclic=True), st.booleans())
def test_loopy_games_equal_the_brute_force_sweeps(game: Listed, misere: bool) -> None:
    s = _solve(game, misere=misere)
    n = len(game.children)
    edges = [(p, c) for p in range(n) for _, c in game.moves(p)]
    primitive = [int(game.over.get(p, 255)) for p in range(n)]
    value, remoteness = retrograde(n, edges, primitive, misere=misere)
    for p in range(n):
        if p in s:
            assert (s.value(p), s.remoteness(p)) == (value[p], remoteness[p]), p


@given(listed_games(cyclic=True))
def test_best_moves_are_the_moves_that_keep_the_value_and_remoteness(game: Listed) -> None:
    s = _solve(game)
    for p in range(len(game.children)):
        if p not in s:
            continue
        moves = s.move_values(p)
        assert [m.label for m in moves] == [label for label, _ in game.moves(p)]
        for m in moves:
            assert m.value == s.value(m.position).flipped()
        best = s.best_moves(p)
        if s.is_over(p):
            assert moves == best == []
            continue
        assert best and all(m.value == s.value(p) for m in best)
        assert all(m.remoteness == s.remoteness(p) for m in best)


def test_a_view_holds_the_position_its_value_and_its_moves() -> None:
    s = _solve(Subtraction(5, (1, 2)))
    view = s.view()
    assert isinstance(view, PositionView)
    assert (view.position, view.value, view.remoteness) == (5, s.value(5), s.remoteness(5))
    assert view.moves == s.move_values(5) and view.game is s.game
    assert s.view(3).position == 3 and s.initial == 5 and s.graph is s.enumeration.graph
    svg = view._repr_svg_()
    assert svg.startswith("<svg") and svg == s._repr_svg_()
    with pytest.raises(PositionNotFoundError):
        s.view(6)


def test_misere_turns_the_positions_without_moves_into_wins() -> None:
    normal, misere = _solve(Subtraction(4, (1,))), _solve(Subtraction(4, (1,)), misere=True)
    assert [normal.value(h) for h in range(5)] == [Value.LOSE, Value.WIN] * 2 + [Value.LOSE]
    assert [misere.value(h) for h in range(5)] == [Value.WIN, Value.LOSE] * 2 + [Value.WIN]
