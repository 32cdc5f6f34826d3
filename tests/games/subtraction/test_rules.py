"""The subtraction game: published periodicity, brute force on random sets, both paths."""

from __future__ import annotations

import pytest
from brute import brute_subtraction
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.errors import GameDefinitionError, InputFormatError, TooLargeError
from perfectplay.games.subtraction.rules import Subtraction
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


def test_heap_codes_must_fit_in_int64() -> None:
    for heap in (2**63, 99_999_999_999_999_999_999):
        with pytest.raises(GameDefinitionError, match="heap < 2\\*\\*63"):
            Subtraction(heap, (1,))
    result = run_cli(["solve", "subtraction", "--param", "heap=99999999999999999999"], "")
    assert result.code == 2
    assert "0 <= heap < 2**63" in result.err
    assert result.err.count("\n") == 1


def test_oversized_heap_is_refused_before_any_work() -> None:
    assert Subtraction(25, (1, 3)).position_bound() == enumerate_game(Subtraction(25, (1, 3))).n
    for vectorized in (False, True):
        with pytest.raises(TooLargeError, match="up to 10,000,000,000,001 reachable positions"):
            enumerate_game(Subtraction(10**13, (1,)), vectorized=vectorized)
    result = run_cli(
        ["solve", "subtraction", "--param", "heap=9999999999999", "--param", "take=1"], ""
    )
    assert result.code == 2
    assert "max_positions" in result.err
