"""The staircase game as a tiered game: ranks, moves and scores against Staircase itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tiered_random import explicit_graph

from perfectplay.builders.staircase.rules import Staircase, count_positions, staircase_score
from perfectplay.builders.staircase.tiers import StaircaseTiers
from perfectplay.errors import InvalidGraphError, PositionNotFoundError
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import TIE, UNDECIDED


@st.composite
def boards(draw: st.DrawFn, most: int = 4) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    n, m = draw(st.integers(1, most)), draw(st.integers(1, most))
    gains = st.lists(st.integers(-9, 9), min_size=n * m, max_size=n * m)
    return (np.array(draw(gains)).reshape(n, m), np.array(draw(gains)).reshape(n, m))


def all_rows(game: StaircaseTiers) -> list[np.ndarray]:  # type: ignore[type-arg]
    """Every tier's staircases by rank."""
    return [game.unrank(t, np.arange(game.tier_size(t))) for t in game.tiers()]


@pytest.mark.parametrize(("n", "m"), [(1, 1), (1, 5), (5, 1), (2, 3), (3, 3), (4, 3), (3, 5)])
def test_ranks_number_each_level_in_the_order_of_the_staircase_codes(n: int, m: int) -> None:
    game = StaircaseTiers(np.zeros((n, m), int), np.zeros((n, m), int))
    codes = []
    for tier, rows in zip(game.tiers(), all_rows(game), strict=True):
        assert (rows.sum(axis=1) == tier).all()
        level = game.game.encode_many(rows)
        assert (np.diff(level) > 0).all()  # rank order is the global code order
        tiers, ranks = game.rank(rows)
        assert (tiers == tier).all()
        assert ranks.tolist() == list(range(game.tier_size(tier)))
        codes.append(level)
    assert sorted(np.concatenate(codes).tolist()) == list(range(count_positions(n, m)))


@given(boards())
def test_children_are_the_rules_moves(board: tuple[np.ndarray, np.ndarray]) -> None:  # type: ignore[type-arg]
    game = StaircaseTiers(*board)
    rules = game.as_game()
    for tier, rows in zip(game.tiers(), all_rows(game), strict=True):
        moves = game.children(tier, np.arange(len(rows)))
        last = tier == rules.n * rules.m
        assert (moves.primitive == (TIE if last else UNDECIDED)).all()
        assert moves.score is not None and (moves.score == 0).all()
        assert (moves.which == 1).all()
        for i, row in enumerate(rows):
            expected = rules.moves(tuple(int(x) for x in row))
            lo, hi = moves.indptr[i], moves.indptr[i + 1]
            got = list(zip(moves.rank[lo:hi].tolist(), moves.gain[lo:hi].tolist(), strict=True))
            assert got == [(game.locate(child)[1], gain) for _, child, gain in expected]
            assert all(game.locate(child)[0] == tier + 1 for _, child, _ in expected)


@given(boards())
def test_scores_of_the_explicit_tier_graph_equal_the_staircase_sweep(
    board: tuple[np.ndarray, np.ndarray],  # type: ignore[type-arg]
) -> None:
    game = StaircaseTiers(*board)
    explicit = explicit_graph(game)
    solution = explicit.solve()
    expected = Staircase(*board).scores()
    cells = game.game.n * game.game.m
    for tier, rows in zip(game.tiers(), all_rows(game), strict=True):
        ids = explicit.ids(tier)
        assert solution.score is not None
        assert (solution.score[ids] == expected[game.game.encode_many(rows)]).all()
        assert (solution.value[ids] == TIE).all()
        assert (solution.remoteness[ids] == cells - tier).all()


@given(boards(most=5), st.sampled_from([1, 2]), st.integers(1, 8))
def test_the_tier_engine_scores_every_position_as_the_staircase_sweep(
    board: tuple[np.ndarray, np.ndarray],  # type: ignore[type-arg]
    jobs: int,
    chunk_size: int,
) -> None:
    game = StaircaseTiers(*board)
    db = solve_tiers(game, jobs=jobs, progress=False, chunk_size=chunk_size)
    expected = Staircase(*board).scores()
    cells = game.game.n * game.game.m
    for tier, rows in zip(game.tiers(), all_rows(game), strict=True):
        value, remoteness = db.arrays(tier)
        assert (db.scores(tier) == expected[game.game.encode_many(rows)]).all()
        assert (value == TIE).all() and (remoteness == cells - tier).all()
    assert db.entry(*game.initial()).score == staircase_score(*board)


def test_the_tiered_game_passes_its_check_and_solves_into_a_directory(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    board = rng.integers(-50, 50, size=(2, 6, 7))
    game = StaircaseTiers(*board)
    check_tiered_game(game)
    with solve_tiers(game, tmp_path / "tiers", jobs=2, progress=False, chunk_size=50) as db:
        assert db.entry(*game.initial()).score == staircase_score(*board)
        position = (5, 3, 3, 1, 0, 0)
        assert db.probe(position).score == Staircase(*board).scores()[game.game.encode(position)]


def test_positions_and_their_errors() -> None:
    game = StaircaseTiers([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
    assert game.initial() == (0, 0)
    assert game.position(*game.initial()) == game.as_game().initial()
    assert game.child_tiers(6) == [] and game.child_tiers(0) == [1]
    assert not any(game.inner_moves(t) for t in game.tiers())
    assert game.max_moves() == 2
    with pytest.raises(PositionNotFoundError, match=r"tiers 0\.\.6, not 7"):
        game.position(7, 0)
    with pytest.raises(PositionNotFoundError, match=r"ranks 0\.\.1, not 2"):
        game.position(3, 2)
    with pytest.raises(InvalidGraphError, match="not a staircase"):
        game.locate((1, 2))
    other = StaircaseTiers([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 2]])
    assert other.info.params["gains"] != game.info.params["gains"]
    assert {k: v for k, v in other.info.params.items() if k != "gains"} == {"n": 2, "m": 3}
