"""The subtraction game: published periodicity, brute force on random sets, both paths."""

from __future__ import annotations

import pytest
from brute import brute_subtraction
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.check import check_game
from perfectplay.games.subtraction import Subtraction
from perfectplay.values import Value


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_bachet_loses_exactly_at_multiples_of_k_plus_1(k: int) -> None:
    solved = solve(Subtraction(60, tuple(range(1, k + 1))))
    assert [solved[n] is Value.LOSE for n in range(61)] == [n % (k + 1) == 0 for n in range(61)]


def test_s134_has_period_7() -> None:
    solved = solve(Subtraction(70, (1, 3, 4)))
    assert [n for n in range(71) if solved[n] is Value.LOSE] == [
        n for n in range(71) if n % 7 in (0, 2)
    ]


@settings(max_examples=60)
@given(
    st.integers(0, 80),
    st.sets(st.integers(1, 9), min_size=1, max_size=4).map(lambda s: tuple(sorted(s))),
    st.booleans(),
)
def test_values_match_brute_force(heap: int, take: tuple[int, ...], vectorized: bool) -> None:
    solved = solve(Subtraction(heap, take), vectorized=vectorized)
    wins = brute_subtraction(heap, take)
    for n in solved.enumeration.positions:
        assert (solved[n] is Value.WIN) == wins[n]


def test_moves_text_and_errors() -> None:
    game = Subtraction(10, (2, 5))
    assert game.moves(4) == [("2", 2)]
    assert game.parse(" 7 ") == 7
    with pytest.raises(InputFormatError, match="from 0 to 10"):
        game.parse("11")
    with pytest.raises(GameDefinitionError, match="distinct amounts"):
        Subtraction(5, (1, 1))
    assert check_game(Subtraction(25, (1, 3, 4)), strict=True) == []
