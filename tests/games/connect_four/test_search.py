"""Connect Four's compiled search against the strong solvers: every position of 4x4 and 4x5
(value and remoteness), every move of every 4x4 position, thousands of 5x5 positions against
the tier database, the window contract of move bounds, and the plain-Python search."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.games.connect_four._search_kernels import MIRROR_MAX_STONES, _key, geometry
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.search import ConnectFourSearch, score_to_value
from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch
from perfectplay.protocol.game import over_value
from perfectplay.search import search
from perfectplay.search._kernel_table import new_table
from perfectplay.solved import open_tiers
from perfectplay.tiers import solve_tiers
from perfectplay.values import LOSE, TIE, WIN, Value
from tests.games.connect_four.positions import random_position


def _scores_to_values(
    scores: np.ndarray[Any, Any], stones: np.ndarray[Any, Any], cells: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """score_to_value over arrays (the same arithmetic, written again with numpy)."""
    value = np.where(scores > 0, WIN, np.where(scores < 0, LOSE, TIE))
    last = cells + 2 - 2 * np.abs(scores)
    wrong = (last - stones) % 2 != (scores > 0)
    last = last - wrong
    remoteness = np.where(scores == 0, cells - stones, last - stones)
    return value, remoteness


def _open_positions(game: ConnectFour, solved: GameSolution[Any]) -> Iterator[Any]:
    codes = np.asarray(solved.codes, dtype=np.int64)
    masks = (codes >> game.shift).astype(np.uint64)
    currents = (codes & ((1 << game.shift) - 1)).astype(np.uint64)
    remoteness = solved.solution.remoteness
    playing = remoteness > 0
    yield currents[playing], masks[playing], np.flatnonzero(playing)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 5)])
@pytest.mark.parametrize("weak", [False, True])
def test_every_position_equals_the_strong_solver(rows: int, cols: int, weak: bool) -> None:
    assert _every_position_equals_the_strong_solver(rows, cols, weak) > 50_000


@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 5), (5, 3), (7, 3), (3, 6), (2, 8), (1, 15)]
)  # lines in one or two directions only; 15 columns (numbers past 9)
@pytest.mark.parametrize("weak", [False, True])
def test_every_position_of_unusual_boards_equals_the_strong_solver(
    rows: int, cols: int, weak: bool
) -> None:
    assert _every_position_equals_the_strong_solver(rows, cols, weak) > 10_000


def _every_position_equals_the_strong_solver(rows: int, cols: int, weak: bool) -> int:
    """Search every position of the board where play goes on, compare it with the in-memory
    solve (value and remoteness; the value alone when `weak`); the number compared."""
    game = ConnectFour(rows, cols)
    solved = solve(game)
    kernel = ConnectFourSearch(game)
    currents, masks, ids = next(_open_positions(game, solved))
    scores, nodes = kernel.solve_bitboards(currents, masks, weak, new_table(2**24))
    assert nodes >= len(ids)
    expected_value = solved.solution.value[ids]
    if weak:
        signs = np.where(expected_value == WIN, 1, np.where(expected_value == LOSE, -1, 0))
        np.testing.assert_array_equal(scores, signs)
        return len(ids)
    stones = np.array([m.bit_count() for m in masks.tolist()])
    value, remoteness = _scores_to_values(scores, stones, rows * cols)
    np.testing.assert_array_equal(value, expected_value)
    np.testing.assert_array_equal(remoteness, solved.solution.remoteness[ids])
    return len(ids)


def test_every_move_of_every_4x4_position() -> None:
    game = ConnectFour(4, 4)
    solved = solve(game)
    kernel = ConnectFourSearch(game)
    table = new_table(2**22)
    _, _, ids = next(_open_positions(game, solved))
    for pid in ids.tolist():
        position = solved.position_of(pid)
        scores, _ = kernel.move_scores(position, False, table)
        expected = {m.label: (m.value, m.remoteness) for m in solved.move_values(position)}
        got = {label: kernel.score_to_value_remoteness(position, s) for label, s in scores}
        assert got == expected, position


@pytest.fixture(scope="module")
def tiers_5x5(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("c4") / "5x5"
    solve_tiers(_tiered(5, 5), directory, progress=False).close()
    return directory


def _tiered(rows: int, cols: int) -> Any:
    from perfectplay.games.connect_four.tiers import TieredConnectFour

    return TieredConnectFour(rows, cols)


def _random_positions(game: ConnectFour, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    return [random_position(game, rng) for _ in range(count)]


def test_thousands_of_5x5_positions_equal_the_tier_database(tiers_5x5: Path) -> None:
    game = ConnectFour(5, 5)
    with open_tiers(tiers_5x5) as db:
        for position in _random_positions(game, 2000, seed=5):
            found = search(game, position, best=False)
            entry = db.probe(position)
            assert (found.value, found.remoteness) == (entry.value, entry.remoteness), position
        for position in _random_positions(game, 100, seed=6):
            found = search(game, position, all_moves=True)
            moves = {m.label: (m.value, m.remoteness) for m in db.move_values(position)}
            assert {m.label: (m.value, m.remoteness) for m in found.moves} == moves
            best = {m.label for m in db.best_moves(position)}
            assert set(found.best_moves) == best, position


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(-9, 9), st.integers(1, 6))
def test_move_bounds_keep_the_window_contract(seed: int, alpha: int, width: int) -> None:
    game = ConnectFour(4, 5)
    kernel = ConnectFourSearch(game)
    (position,) = _random_positions(game, 1, seed)
    exact = dict(kernel.move_scores(position, False, new_table(2**20))[0])
    beta = alpha + width
    bounds, _ = kernel.move_bounds(position, alpha, beta, new_table(2**20))
    assert [label for label, _ in bounds] == list(exact)
    for label, bound in bounds:
        true = exact[label]
        if alpha < bound < beta:
            assert bound == true
        elif bound <= alpha:
            assert true <= bound
        else:
            assert true >= bound


def test_the_kernel_and_the_plain_search_agree_on_random_4x4_positions() -> None:
    game = ConnectFour(4, 4)
    deep = [p for p in _random_positions(game, 200, seed=9) if sum(map(len, p)) >= 6]
    for position in deep[:40]:
        fast = search(game, position, all_moves=True)
        plain = search(game, position, all_moves=True, use_kernel=False)
        assert (fast.value, fast.remoteness, fast.best_moves, fast.moves) == (
            plain.value, plain.remoteness, plain.best_moves, plain.moves
        )  # fmt: skip


def test_scores_become_values_and_remoteness() -> None:
    # 6 x 7: a win with the next stone, a loss to the opponent's next stone, a tie.
    assert score_to_value(18, 6, 6, 7) == (Value.WIN, 1)
    assert score_to_value(-18, 5, 6, 7) == (Value.LOSE, 2)
    assert score_to_value(0, 4, 6, 7) == (Value.TIE, 38)
    assert score_to_value(1, 0, 6, 7) == (Value.WIN, 41)  # the empty board: the 41st stone


@nb.njit
def _key_of(rows: int, cols: int, current: np.uint64, mask: np.uint64, n: int) -> np.uint64:
    return _key(current, mask, n, cols, geometry(rows, cols, 0, current))  # type: ignore[no-any-return]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(4, 5), (6, 7), (5, 4)]))
def test_a_position_and_its_mirror_image_share_one_key_near_the_root(
    seed: int, board: tuple[int, int]
) -> None:
    # Fewer than MIRROR_MAX_STONES stones: the key is the smaller of the position's plain key
    # (current + mask, unique) and its mirror image's, so two positions share a key only if
    # they are equal or mirror images (of one score); more stones: the plain key.
    game = ConnectFour(*board)
    (position,) = _random_positions(game, 1, seed)
    image = tuple(reversed(position))
    keys = []
    for stones in (position, image):
        mask, current = game._bits(stones)
        n = mask.bit_count()
        keys.append(_key_of(game.rows, game.cols, np.uint64(current), np.uint64(mask), n))
        plain = current + mask
        assert keys[-1] == plain if n >= MIRROR_MAX_STONES else keys[-1] <= plain
    n = sum(map(len, position))
    assert (keys[0] == keys[1]) == (n < MIRROR_MAX_STONES or position == image)
    mask, current = game._bits(position)
    mask_image, current_image = game._bits(image)
    assert int(keys[0]) in {current + mask, current_image + mask_image}


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.randoms(use_true_random=False), st.booleans())
def test_over_is_the_rules_over_value(rows: int, cols: int, rng: random.Random, wide: bool) -> None:
    """The kernel's ``over`` (the engine's test before a search), on one word or two (the
    board moved across the words), answers what the generic :func:`over_value` answers from
    the rules' outcome and moves, on every position of a random game played to its end
    (fours, full boards and neither)."""
    game = ConnectFour(rows, cols)
    kernel = ConnectFourWideSearch(game, 66 - game.shift) if wide else ConnectFourSearch(game)
    position = game.initial()
    while True:
        assert kernel.over(position) == over_value(game, position)
        moves = game.moves(position)
        if not moves:
            break
        position = rng.choice(moves)[1]
