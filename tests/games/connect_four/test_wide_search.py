"""Connect Four's two-word search: on small boards moved across the boundary of its two words,
every position against the strong solver (value and remoteness, strong and weak), every move of
a third of the 4x4 positions, random positions against the one-word search; on boards past 64
bits, near-full random positions (typed as move sequences on 6 x 10) against a brute-force twin;
the table it needs, and the engine's refusal of a smaller one."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.errors import (
    GameDefinitionError,
    GameOverError,
    InputFormatError,
    TooLargeError,
)
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.search import ConnectFourSearch
from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch
from perfectplay.search import Searcher, search
from perfectplay.search._kernel_table import new_table
from perfectplay.values import LOSE, WIN, Value
from tests.games.connect_four.positions import near_full, random_position
from tests.search.search_brute import brute, brute_best, brute_moves

EXTRA = 3
"""The bits of the high word of a key in the tests on small boards (a table of 2**20 entries)."""


def _offset(rows: int, cols: int, extra: int = EXTRA) -> int:
    """The offset that puts the last `extra` bits of a small board's keys in the high word."""
    return 64 + extra - (rows + 1) * cols


def _table(extra: int = EXTRA) -> np.ndarray[Any, Any]:
    """The smallest table for keys of 64 + `extra` bits."""
    return new_table(8 << (17 + extra))


@pytest.mark.parametrize(
    ("rows", "cols", "extra", "weak"),
    [(4, 4, 3, False), (4, 4, 3, True), (3, 5, 1, False), (2, 7, 5, True), (1, 11, 4, False)],
)
def test_every_position_across_the_words_equals_the_strong_solver(
    rows: int, cols: int, extra: int, weak: bool
) -> None:
    game = ConnectFour(rows, cols)
    solved = solve(game)
    kernel = ConnectFourWideSearch(game, _offset(rows, cols, extra))
    codes = [int(c) for c in np.asarray(solved.codes)]
    remoteness = solved.solution.remoteness
    ids = [i for i, r in enumerate(remoteness.tolist()) if r > 0]
    masks = [codes[i] >> game.shift for i in ids]
    currents = [codes[i] & ((1 << game.shift) - 1) for i in ids]
    scores, nodes = kernel.solve_bitboards(currents, masks, weak, _table(extra))
    assert nodes >= len(ids) > 20_000
    expected = solved.solution.value[ids]
    if weak:
        signs = np.where(expected == WIN, 1, np.where(expected == LOSE, -1, 0))
        np.testing.assert_array_equal(scores, signs)
        return
    cells = rows * cols
    for score, mask, value, far in zip(
        scores.tolist(), masks, expected.tolist(), remoteness[ids].tolist(), strict=True
    ):
        n = mask.bit_count()
        got = kernel.score_to_value_remoteness(("X" * n,) + ("",) * (cols - 1), score)
        assert got == (value, far), (score, n, cells)


def test_every_move_of_a_third_of_the_4x4_positions_across_the_words() -> None:
    game = ConnectFour(4, 4)
    solved = solve(game)
    kernel = ConnectFourWideSearch(game, _offset(4, 4))
    table = _table()
    for pid in np.flatnonzero(solved.solution.remoteness > 0)[::3].tolist():
        position = solved.position_of(pid)
        scores, _ = kernel.move_scores(position, False, table)
        expected = {m.label: (m.value, m.remoteness) for m in solved.move_values(position)}
        got = {label: kernel.score_to_value_remoteness(position, s) for label, s in scores}
        assert got == expected, position


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(4, 5), (5, 4), (5, 5), (3, 7), (4, 6), (6, 4)]),
    st.integers(0, 2**32 - 1),
    st.integers(1, 4),
)
def test_random_positions_equal_the_one_word_search(
    size: tuple[int, int], seed: int, extra: int
) -> None:
    """Every move's exact score and sign, and every bound of a window, as the one-word
    kernel finds them, with the board moved across the words by a random amount."""
    rows, cols = size
    game = ConnectFour(rows, cols)
    rng = random.Random(seed)
    position = random_position(game, rng)
    one, wide = ConnectFourSearch(game), ConnectFourWideSearch(game, _offset(rows, cols, extra))
    for weak in (False, True):
        expected = one.move_scores(position, weak, new_table(2**20))[0]
        assert wide.move_scores(position, weak, _table(extra))[0] == expected
        assert (
            wide.solve(position, weak, _table(extra))[0]
            == one.solve(position, weak, new_table(2**20))[0]
        )
    alpha = rng.randrange(-8, 8)
    beta = alpha + rng.randrange(1, 5)
    exact = dict(one.move_scores(position, False, new_table(2**20))[0])
    for label, bound in wide.move_bounds(position, alpha, beta, _table(extra))[0]:
        true = exact[label]
        assert (
            bound == true
            if alpha < bound < beta
            else (true <= bound <= alpha or beta <= bound <= true)
        )


@pytest.mark.parametrize(("rows", "cols"), [(7, 9), (8, 8), (6, 10), (5, 12)])
def test_near_full_wide_boards_equal_the_brute_force_twin(rows: int, cols: int) -> None:
    """Positions with a few empty cells on boards past 64 bits: the value, remoteness, best
    moves and every move's value and remoteness of the engine on the two-word kernel equal
    those of memoised minimax over the rules."""
    game = ConnectFour(rows, cols)
    assert isinstance(game.search_kernel(), ConnectFourWideSearch)
    twin = brute(game)
    rng = random.Random(rows * 100 + cols)
    searcher = Searcher(game)
    for _ in range(6):
        position, _ = near_full(game, rng, 9)
        found = searcher.search(position, all_moves=True)
        expected = twin(position)
        assert (found.value, found.remoteness) == (expected.value, expected.remoteness)
        moves = brute_moves(game, twin, position)
        assert {m.label: (m.value, m.remoteness) for m in found.moves} == {
            m.label: (m.value, m.remoteness) for m in moves
        }
        assert set(found.best_moves) == set(brute_best(moves, expected.value, None))
        weak = searcher.search(position, weak=True)
        assert weak.value == expected.value


def test_wide_boards_go_to_the_two_word_search_past_64_bits() -> None:
    assert type(ConnectFour(7, 8).search_kernel()) is ConnectFourSearch  # 64 bits: one word
    assert type(ConnectFour(7, 9).search_kernel()) is ConnectFourWideSearch
    assert type(ConnectFour(20, 4).search_kernel()) is ConnectFourWideSearch  # 84 bits
    assert ConnectFour(21, 4).search_kernel() is None  # 88 bits: no table holds the keys
    assert ConnectFour(100, 1).search_kernel() is None


def test_boards_past_87_bits_are_answered_by_the_plain_search() -> None:
    game = ConnectFour(100, 1)  # 101 bits: a table of 2**54 entries would hold the keys
    found = search(game, ("XO" * 48,))
    assert (found.value, found.remoteness) == (Value.TIE, 4)
    with pytest.raises(GameDefinitionError, match="offset=60"):
        ConnectFourWideSearch(ConnectFour(7, 9), 60)


def test_the_table_holds_whole_keys_or_the_search_is_refused() -> None:
    game = ConnectFour(7, 9)  # keys of 72 bits: at least 2**25 entries (256 MiB)
    assert game.search_kernel().least_table_bytes == 256 << 20
    assert Searcher(game).memory == 256 << 20  # the default grows to it
    with pytest.raises(InputFormatError, match=r"below the smallest table.*256\.0 MiB"):
        Searcher(game, memory=128 << 20)
    with pytest.raises(InputFormatError, match="keys of 72 bits"):
        game.search_kernel().solve(game.initial(), True, new_table(64 << 20))


def test_the_engine_asks_the_kernel_whether_the_game_is_over() -> None:
    game = ConnectFour(7, 9)
    searcher = Searcher(game)
    assert searcher._over == searcher.kernel.over  # the rules' outcome, no moves built
    position = game.parse("1,2,1,2,1,2,1")  # X has four in column 1
    with pytest.raises(GameOverError, match="LOSE"):
        searcher.search(position)


def test_positions_on_wide_boards_as_move_sequences() -> None:
    game = ConnectFour(6, 10)
    found = search(game, game.parse("10,1,10,1,10,1"))
    assert (found.value, found.remoteness, found.best_moves) == (Value.WIN, 1, ("j",))
    twin = brute(game)
    rng = random.Random(610)
    for _ in range(3):  # near-full positions typed as the columns played, moves past 9 among them
        position, played = near_full(game, rng, 8)
        text = game.sequence(played)
        assert "10" in text.split(",")
        assert game.parse(text) == position
        found = search(game, position, all_moves=True)
        expected = twin(position)
        assert (found.value, found.remoteness) == (expected.value, expected.remoteness)


def test_a_board_whose_table_exceeds_the_memory_is_refused_with_an_estimate() -> None:
    game = ConnectFour(4, 16)  # keys of 80 bits: a table of 2**33 entries, 64 GiB
    with pytest.raises(TooLargeError, match=r"64\.0 GiB"):
        Searcher(game)
