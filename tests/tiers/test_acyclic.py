"""The one-pass worker (perfectplay.tiers.acyclic): a tier whose moves all leave it, any range."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier_workers import ListedGame, solve_by_workers, tier_ranges
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import GameDefinitionError, ScoreOverflowError
from perfectplay.tiers.acyclic import solve_range
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.records import unpack
from perfectplay.values import LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value


@given(random_tiered_games(scored=True), st.integers(1, 7))
def test_scored_games_solved_range_by_range_equal_solve_dag(
    game: RandomTieredGame, chunk: int
) -> None:
    # A scored random game has no inner moves: every tier goes through solve_range alone.
    expected = game.reference()
    assert expected.score is not None
    solved = solve_by_workers(game, chunk=chunk)
    for tier in game.tiers():
        value, rem = unpack(solved[tier].records)
        assert value.tolist() == game.by_rank(tier, expected.value, UNDECIDED).tolist()
        assert rem.tolist() == game.by_rank(tier, expected.remoteness, NO_REMOTENESS).tolist()
        slots = game.position_at[tier] >= 0
        scores = solved[tier].scores
        assert scores is not None
        assert scores[slots].tolist() == game.by_rank(tier, expected.score, 0)[slots].tolist()


@given(random_tiered_games(scored=True), st.data())
def test_a_range_reports_its_largest_remoteness_and_its_progress(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    solved = solve_by_workers(game)
    tier, lo, hi = data.draw(tier_ranges(game))
    done: list[int] = []
    children = [solved[c] for c in game.child_tiers(tier)]
    records, most, score = solve_range(
        game, tier, lo, hi, children, dtype=np.uint32, scored=True, advance=done.append
    )
    assert records.tolist() == solved[tier].records[lo:hi].tolist()
    assert score is not None and len(score) == hi - lo
    _, rem = unpack(records)
    assert most == int(rem.max(initial=-1))
    assert sum(done) == hi - lo


def test_an_unscored_range_has_no_scores_and_takes_the_record_dtype() -> None:
    game = ListedGame(
        {0: [Value.LOSE, Value.WIN, Value.TIE], 1: [[(1, 0, 0)], [(1, 1, 0), (1, 2, 0)]]},
        {0: [], 1: [0]},
    )
    zero, _, _ = solve_range(game, 0, 0, 3, [], dtype=np.uint8)
    records, most, score = solve_range(game, 1, 0, 2, [SolvedTier(0, zero, None)], dtype=np.uint16)
    assert score is None and records.dtype == np.uint16 and most == 1
    value, rem = unpack(records)
    # Rank 0 moves to a LOSE: a WIN in 1; rank 1 to a WIN or a TIE: a TIE in 1.
    assert value.tolist() == [WIN, TIE] and rem.tolist() == [1, 1]
    assert unpack(zero)[0].tolist() == [LOSE, WIN, TIE]


def test_a_move_inside_a_tier_declared_without_inner_moves_is_refused() -> None:
    game = ListedGame({0: [Value.LOSE, [(0, 0, 0)]]}, {0: []})
    with pytest.raises(GameDefinitionError, match=r"tier 0 rank 1 has a move inside its tier"):
        solve_range(game, 0, 0, 2, [])


def test_a_score_leaving_int64_is_refused_with_its_rank() -> None:
    big = 2**62
    game = ListedGame(
        {0: [Value.LOSE], 1: [[(1, 0, 1)], [(1, 0, big)]]}, {0: [], 1: [0]},
        scored=True, score={0: [-big]},
    )  # fmt: skip
    zero = SolvedTier(0, np.array([1], np.uint8), np.array([-big], np.int64))
    _, _, first = solve_range(game, 1, 0, 1, [zero], scored=True)
    assert first is not None and first.tolist() == [1 + big]  # the gain minus the child's score
    with pytest.raises(ScoreOverflowError, match=r"score of tier 1 rank 1 leaves int64"):
        solve_range(game, 1, 0, 2, [zero], scored=True)
