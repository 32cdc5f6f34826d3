"""The line helpers of Connect Four's search kernels, on one word and on two, against a
reference that walks the board's coordinates (no shifts), on boards of every shape the kernels
take, tall narrow ones among them (shifts of a row or diagonal would pass the board's words
there), and the keys of a board moved across the two words against the one-word keys; and the
search on tall narrow boards against the brute-force twin."""

from __future__ import annotations

import random
from typing import Any

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.games.connect_four import _search_kernels as kernels
from perfectplay.games.connect_four._words import Wide
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.search import ConnectFourSearch
from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch
from perfectplay.search import Searcher
from tests.games.connect_four.positions import near_full
from tests.search.search_brute import brute, brute_moves

ONE_WORD = [(62, 1), (63, 1), (30, 2), (31, 2), (20, 3), (15, 4), (6, 7), (7, 8), (2, 21)]
"""Boards of one word: 1 to 3 tall columns, and the tallest of 4 columns or more."""
TWO_WORDS = [
    (64, 1), (100, 1), (127, 1), (40, 2), (21, 3), (41, 3), (19, 4), (20, 4), (31, 4), (24, 5),
    (20, 6), (7, 9), (8, 8), (3, 26),
]  # fmt: skip
"""Boards of two words: 1 to 3 tall columns, and the tallest of 4 columns or more (a row's or
diagonal's shifts past one word from 20 rows on)."""
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


@nb.njit
def _lines(rows: int, cols: int, stones: Any, mask: Any) -> tuple[Any, ...]:
    """The board's bottom and cells, the fours, whether there is one, the winning cells."""
    g = kernels.geometry(rows, cols, 0, stones)
    fours = kernels._fours(stones, g)
    has_four = kernels._has_four(stones, g)
    return g.bottom, g.board, fours, has_four, kernels._winning_spots(stones, mask, g)


@nb.njit
def _keyed(rows: int, cols: int, offset: int, current: Any, mask: Any, n: int) -> tuple[Any, ...]:
    """The board's masks and the key of a position on it, at `offset`."""
    g = kernels.geometry(rows, cols, offset, current)
    key = kernels._key(current, mask, n, cols, g)
    return g.bottom, g.board, g.column, g.full, g.evens, key


def _wide(bits: int) -> Wide:
    return Wide(np.uint64(bits & (2**64 - 1)), np.uint64(bits >> 64))


def _int(board: Any) -> int:
    return int(board.lo) | int(board.hi) << 64 if isinstance(board, Wide) else int(board)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([*ONE_WORD, *TWO_WORDS]), st.integers(0, 2**32 - 1))
def test_lines_equal_the_reference(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    game = ConnectFour(rows, cols)
    word = _wide if game.shift > 64 else np.uint64
    stones, mask = _draw(game, seed)
    fours, spots = _reference(rows, cols, stones, mask)
    found = _lines(rows, cols, word(stones), word(mask))
    assert [_int(x) for x in found] == [game.bottom, game.board, fours, fours != 0, spots]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([(4, 4), (6, 7), (3, 5), (1, 11)]), st.integers(0, 2**32 - 1))
def test_keys_across_the_words_are_the_one_word_keys_moved_up(
    size: tuple[int, int], seed: int
) -> None:
    """A board moved up by `offset` bits, so that it straddles the words: its masks and its
    keys (the mirror-canonical ones too) are the one-word ones moved up."""
    rows, cols = size
    game = ConnectFour(rows, cols)
    offset = 67 - game.shift
    rng = random.Random(seed)
    heights = [rng.randrange(rows + 1) for _ in range(cols)]
    mask = sum(((1 << h) - 1) << (c * game.height) for c, h in enumerate(heights))
    current = mask & rng.getrandbits(game.shift)
    n = mask.bit_count()
    one = _keyed(rows, cols, 0, np.uint64(current), np.uint64(mask), n)
    two = _keyed(rows, cols, offset, _wide(current << offset), _wide(mask << offset), n)
    assert [_int(x) for x in two] == [_int(x) << offset for x in one]


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
        med, _, go = kernels.next_probe(low, high, False, probes, n)
        assert go and low <= med < high
        if n < kernels.WALK_MAX_STONES and low < 0 < high:
            assert med == 0  # the walk's first window is [0, 1]
        if score > med:
            low = score if soft else med + 1
        else:
            high = score if soft else med
    assert low == high == score
