"""Counting reachable positions with symmetric ones apart (perfectplay.enumeration.reachable)."""

from __future__ import annotations

from brute import brute_tictactoe
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.enumeration.reachable import COUNT_LIMIT, count_reachable
from perfectplay.games.nim.rules import Nim
from perfectplay.games.tictactoe.rules import TicTacToe


def test_tic_tac_toe_counts_every_board_the_brute_force_reaches() -> None:
    classes = enumerate_game(TicTacToe(), progress=False).n
    assert classes < len(brute_tictactoe())
    assert count_reachable(TicTacToe(), classes, canonical=True) == len(brute_tictactoe())


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_nim_counts_the_heap_vectors_below_the_start(heaps: list[int]) -> None:
    # Without merging reorderings, the positions are every vector of heaps at most the start's.
    game = Nim(tuple(heaps))
    classes = enumerate_game(game, progress=False).n
    expected = 1
    for h in heaps:
        expected *= h + 1
    assert count_reachable(game, classes, canonical=True) == expected


def test_without_symmetry_the_classes_are_the_positions() -> None:
    assert count_reachable(TicTacToe(), 7, canonical=False) == 7


def test_too_many_classes_or_positions_are_not_counted() -> None:
    assert count_reachable(TicTacToe(), COUNT_LIMIT + 1, canonical=True) is None
    # 48 positions per class at most: one class of tic-tac-toe cannot stand for 5478 boards.
    assert count_reachable(TicTacToe(), 1, canonical=True) is None
