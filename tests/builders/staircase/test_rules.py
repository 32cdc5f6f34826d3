"""The staircase game: ranking bijection, move generation, every solving path vs brute force.

Scores come from the numpy level sweep on small boards and the numba sweep on large ones (and
from solve_dag on the position graph): each is checked against tests/brute.py and the others.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from math import comb

import numpy as np
import pytest
from brute import staircase_scores
from hypothesis import given, settings
from hypothesis import strategies as st
from staircase_helpers import boards, numba_table, run_python, zeros

from perfectplay.builders.staircase import rules as staircase
from perfectplay.builders.staircase.rules import Staircase, count_positions, staircase_score
from perfectplay.errors import (
    GameDefinitionError,
    InputFormatError,
    InvalidGraphError,
    ScoreOverflowError,
    TooLargeError,
)
from perfectplay.solvers.dag import solve_dag
from perfectplay.values import TIE


def all_staircases(n: int, m: int) -> list[tuple[int, ...]]:
    return [r for r in itertools.product(range(m + 1), repeat=n) if list(r) == sorted(r)[::-1]]


@pytest.mark.parametrize(("n", "m"), [(1, 1), (1, 5), (5, 1), (2, 3), (3, 2), (4, 4), (3, 6)])
def test_ranking_is_a_bijection_onto_0_to_binomial(n: int, m: int) -> None:
    game = zeros(n, m)
    assert game.size == comb(n + m, n) == len(all_staircases(n, m))
    rows = game.decode_many(np.arange(game.size))
    assert sorted(map(tuple, rows.tolist())) == sorted(all_staircases(n, m))
    np.testing.assert_array_equal(game.encode_many(rows), np.arange(game.size))
    assert game.encode(game.initial()) == 0
    assert game.decode(game.size - 1) == (m,) * n
    for code in (0, game.size // 2, game.size - 1):
        assert game.encode(game.decode(code)) == code


@settings(max_examples=40)
@given(boards())
def test_graph_is_the_rules(game: Staircase) -> None:
    graph = game.graph()
    assert graph.n == game.size
    assert graph.gain is not None
    src = np.repeat(np.arange(graph.n), graph.out_degree())
    assert bool(np.all(graph.indices > src))  # moves go to larger codes
    for code in range(game.size):
        position = game.decode(code)
        expected = game.moves(position)
        assert graph.moves(code).tolist() == [game.encode(child) for _, child, _ in expected]
        gains = graph.gain[graph.indptr[code] : graph.indptr[code + 1]].tolist()
        assert gains == [g for _, _, g in expected]
        assert (game.outcome(position) is None) == bool(expected)


@contextmanager
def sweep(levels: bool) -> Iterator[None]:
    """Force the numpy level sweep (True) or the numba sweep (False), whatever the board."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(staircase, "_uses_levels", lambda n, m: levels)
        yield


@settings(max_examples=60)
@given(boards(), st.booleans())
def test_all_solving_paths_match_brute_force_everywhere(game: Staircase, levels: bool) -> None:
    brute = staircase_scores(game.a.tolist(), game.b.tolist())
    with sweep(levels):
        fast = game.scores()
    solution = solve_dag(game.graph(), game.primitive())
    assert solution.score is not None
    np.testing.assert_array_equal(solution.score, fast)
    codes = game.encode_many(list(brute))
    np.testing.assert_array_equal(fast[codes], list(brute.values()))
    # Every game lasts n*m moves and the rules end it level: TIE, remoteness = moves left.
    stones = game.decode_many(np.arange(game.size)).sum(axis=1)
    assert bool(np.all(solution.value == TIE))
    np.testing.assert_array_equal(solution.remoteness, game.n * game.m - stones)
    with sweep(levels):
        assert staircase_score(game.a, game.b) == fast[0] == game.best_score()


def test_the_level_sweep_takes_boards_up_to_about_12x12() -> None:
    uses = staircase._uses_levels
    assert uses(10, 10) and uses(12, 12) and uses(10, 14) and uses(1, 4000)
    assert not uses(13, 13) and not uses(11, 14) and not uses(1, 4001) and not uses(2, 2001)


def test_small_boards_are_solved_without_numba() -> None:
    script = (
        "import sys, numpy as np\n"
        "from perfectplay.builders.staircase.rules import Staircase, staircase_score\n"
        "rng = np.random.default_rng(1)\n"
        "a, b = rng.integers(0, 100_001, (2, 10, 10))\n"
        "game = Staircase(a, b)\n"
        "print(staircase_score(a, b), game.scores()[0], game.encode((3, 2, 1) + (0,) * 7))\n"
        "print('numba' in sys.modules)\n"
    )
    out = run_python(script).split()
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 100_001, (2, 10, 10))
    expected = int(numba_table(Staircase(a, b), np.int64)[0])
    assert out == [
        str(expected),
        str(expected),
        str(zeros(10, 10).encode((3, 2, 1) + (0,) * 7)),
        "False",
    ]


@settings(max_examples=40)
@given(boards(max_side=5, low=0, high=50), st.booleans())
def test_transposed_board_gives_the_same_result(game: Staircase, levels: bool) -> None:
    with sweep(levels):
        assert staircase_score(game.a.T, game.b.T) == staircase_score(game.a, game.b)


def test_wide_scores_use_int64() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**40, (3, 4))
    b = rng.integers(0, 2**40, (3, 4))
    game = Staircase(a, b)
    assert game.bound > 2**31
    brute = staircase_scores(a.tolist(), b.tolist())
    for levels in (True, False):
        with sweep(levels):
            assert staircase_score(a, b) == game.scores()[0] == brute[(0, 0, 0)]


def test_best_moves_follow_the_score() -> None:
    game = Staircase([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
    solution = solve_dag(game.graph(), game.primitive())
    assert solution.score is not None
    for code in range(game.size - 1):
        for child in solution.best_moves(code):
            gain = next(g for _, c, g in game.moves(game.decode(code)) if game.encode(c) == child)
            assert gain - solution.score[child] == solution.score[code]


def test_render_parse_round_trip() -> None:
    game = zeros(3, 4)
    for code in range(game.size):
        position = game.decode(code)
        assert game.parse(game.render(position)) == position
    assert game.render((4, 4, 4)).endswith("board full")
    assert game.render((1, 0, 0)).endswith("white to move")
    with pytest.raises(InputFormatError, match="line 2"):
        game.parse("##..\n.#..\n....")
    with pytest.raises(InputFormatError, match="staircase"):
        game.parse("#...\n##..\n....")
    with pytest.raises(InputFormatError, match="3 board lines"):
        game.parse("#...")


def test_bad_boards_and_codes() -> None:
    with pytest.raises(GameDefinitionError, match="same shape"):
        Staircase(np.zeros((2, 2), int), np.zeros((2, 3), int))
    with pytest.raises(GameDefinitionError, match="2-D"):
        Staircase([1, 2], [1, 2])
    with pytest.raises(GameDefinitionError, match="integers"):
        Staircase([[0.5]], [[1.0]])
    with pytest.raises(ScoreOverflowError):
        Staircase(np.full((3, 3), 2**62), np.zeros((3, 3), int))
    game = zeros(2, 2)
    with pytest.raises(InvalidGraphError, match="not a position code"):
        game.decode(6)
    with pytest.raises(InvalidGraphError, match="not a staircase"):
        game.encode((0, 1))
    with pytest.raises(InvalidGraphError, match="not a staircase"):
        game.encode((3, 0))


def test_oversized_boards_are_refused_before_allocating() -> None:
    with pytest.raises(TooLargeError, match="60 x 60"):
        staircase_score(np.zeros((60, 60), int), np.zeros((60, 60), int))
    with pytest.raises(TooLargeError, match="20 x 20 staircase board"):
        staircase_score(np.zeros((20, 20), int), np.zeros((20, 20), int))


def test_count_positions_is_the_binomial_up_to_2_to_the_62() -> None:
    for n, m in [(1, 1), (3, 5), (10, 10), (1, 2**61), (32, 32), (32, 33)]:
        assert count_positions(n, m) == comb(n + m, n) < 2**63
    assert comb(66, 33) > 2**62
    with pytest.raises(TooLargeError, match=r"33 x 33 staircase board has about 2\^63 positions"):
        count_positions(33, 33)
