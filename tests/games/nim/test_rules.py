"""Nim: Bouton's theorem on every position, Grundy values = nim-sums, symmetry and codes."""

from __future__ import annotations

from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.errors import GameDefinitionError, InputFormatError, TooLargeError
from perfectplay.games.nim.rules import Nim
from perfectplay.solvers.grundy import grundy_sum, solve_grundy
from perfectplay.values import Value

heaps = st.lists(st.integers(0, 6), min_size=1, max_size=4).map(tuple)


@settings(max_examples=40)
@given(heaps)
def test_bouton_every_position_loses_iff_its_nim_sum_is_zero(start: tuple[int, ...]) -> None:
    solved = solve(Nim(start))
    for p in solved.enumeration.positions:
        assert solved[p] is (Value.LOSE if reduce(xor, p, 0) == 0 else Value.WIN), p


@settings(max_examples=40)
@given(heaps)
def test_grundy_value_of_each_position_is_its_nim_sum(start: tuple[int, ...]) -> None:
    e = enumerate_game(Nim(start))
    grundy = solve_grundy(e.graph).grundy
    assert [int(g) for g in grundy] == [reduce(xor, p, 0) for p in e.positions]


def test_nim_as_a_sum_of_one_heap_games() -> None:
    # Any heaps, via Sprague–Grundy: solve one heap (a chain) once, add the components.
    heap = enumerate_game(Nim((40,)))
    values = solve_grundy(heap.graph)
    start = (3, 17, 40, 25)
    total = grundy_sum(*[(values, heap.id_of((h,))) for h in start])
    assert total == reduce(xor, start)


def test_known_start_values() -> None:
    assert solve(Nim((3, 4, 5))).value((3, 4, 5)) is Value.WIN
    assert solve(Nim((1, 2, 3))).value((1, 2, 3)) is Value.LOSE
    assert solve(Nim((0,))).value((0,)) is Value.LOSE


def test_symmetry_reduces_positions() -> None:
    assert enumerate_game(Nim((3, 3, 3)), canonical=False).n == 4**3
    assert enumerate_game(Nim((3, 3, 3))).n == 20  # multisets of 3 sizes from 0..3


def test_codes_text_and_errors() -> None:
    game = Nim((2, 5))
    assert game.decode(game.encode((5, 2))) == (5, 2)
    assert game.parse(game.render((1, 4))) == (1, 4)
    with pytest.raises(InputFormatError, match="2 heap sizes"):
        game.parse("1 2 3")
    with pytest.raises(InputFormatError, match="at most 5"):
        game.parse("1 9")
    with pytest.raises(GameDefinitionError, match="one or more heap sizes"):
        Nim(())
    assert check_game(Nim((2, 2, 3)), strict=True) == []


def test_codes_must_fit_in_int64() -> None:
    with pytest.raises(GameDefinitionError, match="below 2\\*\\*63"):
        Nim((9_999_999_999, 9_999_999_999))
    assert Nim((2**31 - 2, 2**31 - 2)).base ** 2 < 2**63


@settings(max_examples=30)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4))
def test_position_bound_covers_the_reachable_positions(heaps: list[int]) -> None:
    game = Nim(tuple(heaps))
    assert enumerate_game(game).n <= game.position_bound()


def test_oversized_heaps_are_refused_before_any_work() -> None:
    with pytest.raises(TooLargeError, match="may have up to"):
        enumerate_game(Nim((10**4, 10**4, 10**4)), max_positions=10**6)


@settings(max_examples=30)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4))
def test_move_bound_covers_the_moves(heaps: list[int]) -> None:
    game = Nim(tuple(heaps))
    every_tuple = enumerate_game(game, canonical=False).graph.m  # the bound's first term
    assert enumerate_game(game).graph.m <= game.move_bound() <= every_tuple
