"""The line helpers of Connect Four's one-word and two-word search kernels against a reference
that walks the board's coordinates (no shifts), on boards of every shape the kernels take,
tall narrow ones among them (shifts of a row or diagonal would reach 64 bits there); and the
search on tall narrow boards against the brute-force twin."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.games.connect_four import _search_kernels as one
from perfectplay.games.connect_four import _wide_search_kernels as two
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.search import ConnectFourSearch
from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch
from perfectplay.search import Searcher
from tests.games.connect_four.positions import near_full
from tests.search.search_brute import brute, brute_moves

ONE_WORD = [(62, 1), (63, 1), (30, 2), (31, 2), (20, 3), (15, 4), (6, 7), (7, 8), (2, 21)]
"""Boards of one word: 1 to 3 tall columns, and the tallest of 4 columns or more."""
TWO_WORDS = [(64, 1), (100, 1), (40, 2), (21, 3), (41, 3), (19, 4), (7, 9), (8, 8), (3, 26)]
"""Boards of two words: 1 to 3 tall columns, and the tallest of 4 columns or more."""
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _windows(rows: int, cols: int) -> list[list[int]]:
    """Every four cells in a line, as bit numbers of the layout (column c, row r: bit
    ``c * (rows + 1) + r``)."""
    found = []
    for c in range(cols):
        for r in range(rows):
            for dc, dr in DIRECTIONS:
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < cols and 0 <= y < rows for x, y in cells):
                    found.append([x * (rows + 1) + y for x, y in cells])
    return found


def _reference(rows: int, cols: int, stones: int, mask: int) -> tuple[int, int]:
    """``(fours, spots)``: the cells of `stones` on a four of them, and the empty cells (not in
    `mask`) whose stone would complete a four with three of `stones` (in a column, only the
    cell above the three: in play no empty cell lies below a stone)."""
    fours = spots = 0
    for window in _windows(rows, cols):
        held = [b for b in window if stones >> b & 1]
        if len(held) == 4:
            fours |= sum(1 << b for b in window)
        elif len(held) == 3:
            (empty,) = set(window) - set(held)
            column = window[1] - window[0] == 1
            if not mask >> empty & 1 and (not column or empty == window[3]):
                spots |= 1 << empty
    return fours, spots


def _draw(game: ConnectFour, seed: int) -> tuple[int, int]:
    """Random ``(stones, mask)`` on `game`'s cells, `mask` holding `stones`, at a random
    density (dense boards hold fours)."""
    rng = random.Random(seed)
    cells = [c * game.height + r for c in range(game.cols) for r in range(game.rows)]
    density = rng.random()
    stones = sum(1 << b for b in cells if rng.random() < density)
    others = sum(1 << b for b in cells if rng.random() < 0.3)
    return stones, stones | others


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ONE_WORD), st.integers(0, 2**32 - 1))
def test_one_word_lines_equal_the_reference(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    game = ConnectFour(rows, cols)
    stones, mask = _draw(game, seed)
    fours, spots = _reference(rows, cols, stones, mask)
    height, s, m, b = (np.uint64(x) for x in (game.height, stones, mask, game.board))
    assert int(one._fours(s, height)) == fours
    assert bool(one._has_four(s, height)) == (fours != 0)
    assert int(one._winning_spots(s, m, height, b)) == spots


def _words(bits: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(bits & (2**64 - 1)), np.uint64(bits >> 64)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TWO_WORDS), st.integers(0, 2**32 - 1))
def test_two_word_lines_equal_the_reference(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    game = ConnectFour(rows, cols)
    stones, mask = _draw(game, seed)
    fours, spots = _reference(rows, cols, stones, mask)
    height = np.uint64(game.height)
    geometry = (height, *_words(game.bottom), *_words(game.board))
    lo, hi = two._fours(*_words(stones), height)
    assert int(lo) | int(hi) << 64 == fours
    assert bool(two._has_four(*_words(stones), height)) == (fours != 0)
    lo, hi = two._winning_spots(*_words(stones), *_words(mask), geometry)
    assert int(lo) | int(hi) << 64 == spots


@pytest.mark.parametrize(
    ("rows", "cols", "kernel"),
    [
        (30, 2, ConnectFourSearch),
        (20, 3, ConnectFourSearch),
        (15, 4, ConnectFourSearch),
        (32, 2, ConnectFourWideSearch),
        (21, 3, ConnectFourWideSearch),
    ],
)
def test_tall_narrow_boards_equal_the_brute_force_twin(
    rows: int, cols: int, kernel: type[Any]
) -> None:
    """Near-full positions: every move's value and remoteness, and the position's, as memoised
    minimax over the rules finds them."""
    game = ConnectFour(rows, cols)
    assert type(game.search_kernel()) is kernel
    twin = brute(game)
    searcher = Searcher(game)
    rng = random.Random(rows * 10 + cols)
    for _ in range(6):
        position, _ = near_full(game, rng, 9)
        found = searcher.search(position, all_moves=True)
        expected = twin(position)
        assert (found.value, found.remoteness) == (expected.value, expected.remoteness)
        assert {m.label: (m.value, m.remoteness) for m in found.moves} == {
            m.label: (m.value, m.remoteness) for m in brute_moves(game, twin, position)
        }


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 41), st.data(), st.booleans())
def test_next_probe_narrows_to_the_score(n: int, data: Any, soft: bool) -> None:
    # Every probe lies inside what is known, and the probes end at the score: the null
    # window's answer (a bound beyond the window, exactly one step past it or as far as the
    # score when `soft`) narrows [low, high] at each step, near the start walking from zero.
    low, high = -((42 - n) // 2), (43 - n) // 2
    score = data.draw(st.integers(low, high))
    probes = 0
    for _ in range(high - low + 1):
        if low == high:
            break
        med, _, go = one.next_probe(low, high, False, probes, n)
        assert go and low <= med < high
        if n < one.WALK_MAX_STONES and low < 0 < high:
            assert med == 0  # the walk's first window is [0, 1]
        if score > med:
            low = score if soft else med + 1
        else:
            high = score if soft else med
    assert low == high == score
