"""The retrograde worker (perfectplay.tiers.loopy): a tier with moves inside it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray
from tier_workers import ListedGame, solve_by_workers
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import GameDefinitionError
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import solve_loopy
from perfectplay.tiers.records import record_dtype, unpack
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value


@given(random_tiered_games(scored=False))
def test_every_tier_equals_solve_retrograde_on_the_whole_graph(game: RandomTieredGame) -> None:
    expected = game.reference()
    solved = solve_by_workers(game, chunk=3)
    for tier in game.tiers():
        value, rem = unpack(solved[tier].records)
        where = f"tier {tier} ({'loopy' if game.inner_moves(tier) else 'one pass'})"
        assert value.tolist() == game.by_rank(tier, expected.value, UNDECIDED).tolist(), where
        assert rem.tolist() == game.by_rank(tier, expected.remoteness, NO_REMOTENESS).tolist()


@given(random_tiered_games(scored=False), st.data())
def test_two_threads_give_the_same_records_in_the_narrowest_dtype(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    solved = solve_by_workers(game)
    tier = data.draw(st.sampled_from(game.tiers()))
    children = [solved[c] for c in game.child_tiers(tier)]
    done: list[int] = []
    records, most = solve_loopy(game, tier, children, jobs=2, advance=done.append)
    one, most_one = solve_loopy(game, tier, children)
    assert records.tolist() == one.tolist() and most == most_one
    assert records.dtype == record_dtype(most)
    assert most == max(int(unpack(records)[1].max(initial=0)), 0)
    assert sum(done) == game.tier_size(tier)


def _cycle(tamper_parents: bool = False) -> ListedGame:
    # Tier 5: ranks 0 <-> 1 loop, rank 2 moves into the loop or to tier 0's LOSE, rank 3 only
    # to tier 0's TIE, rank 4 is over (WIN).
    return ListedGame(
        {
            0: [Value.LOSE, Value.TIE],
            5: [[(0, 1, 0)], [(0, 0, 0)], [(0, 0, 0), (1, 0, 0)], [(1, 1, 0)], Value.WIN],
        },
        {0: [], 5: [0]},
        inner=True,
    )


def _children_of_five(game: ListedGame) -> list[SolvedTier]:
    return [solve_by_workers(ListedGame({0: game.ranks[0]}, {0: []}))[0]]


def test_a_loop_is_a_draw_and_exits_to_earlier_tiers_count() -> None:
    game = _cycle()
    records, most = solve_loopy(game, 5, _children_of_five(game))
    value, rem = unpack(records)
    assert value.tolist() == [DRAW, DRAW, WIN, TIE, WIN]
    assert rem.tolist() == [NO_REMOTENESS, NO_REMOTENESS, 1, 1, 0]
    assert most == 1


def test_parents_that_are_not_inverse_to_children_are_refused() -> None:
    game = _cycle()

    def parents(tier: int, ranks: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        # Rank 3 named as a parent of every rank: it has no move inside the tier.
        return np.arange(len(ranks) + 1, dtype=np.int64), np.full(len(ranks), 3, np.int64)

    game.parents = parents  # type: ignore[method-assign]
    with pytest.raises(GameDefinitionError, match="lists rank 3, which has no such move"):
        solve_loopy(game, 5, _children_of_five(game))


def test_parents_with_a_short_indptr_are_refused() -> None:
    game = _cycle()
    game.parents = lambda tier, ranks: (np.zeros(1, np.int64), np.zeros(0, np.int64))  # type: ignore[method-assign]
    with pytest.raises(GameDefinitionError, match=r"parents\(5, \.\.\.\) gave an indptr"):
        solve_loopy(game, 5, _children_of_five(game))


def test_a_move_to_a_rank_outside_the_tier_is_refused() -> None:
    game = ListedGame({0: [[(0, 1, 0)], [(0, 7, 0)]]}, {0: []}, inner=True)
    with pytest.raises(GameDefinitionError, match=r"rank 1 has a move to rank 7 of its own tier"):
        solve_loopy(game, 0, [])


def test_win_and_lose_propagate_level_by_level_through_the_tier() -> None:
    # A chain 0 -> 1 -> 2 -> 3 (over, LOSE) inside one tier; 4 moves only to 0, and 0 to 4 too.
    game = ListedGame(
        {0: [[(0, 1, 0), (0, 4, 0)], [(0, 2, 0)], [(0, 3, 0)], Value.LOSE, [(0, 0, 0)]]},
        {0: []},
        inner=True,
    )
    records, most = solve_loopy(game, 0, [])
    value, rem = unpack(records)
    assert value.tolist() == [WIN, LOSE, WIN, LOSE, LOSE]
    assert rem.tolist() == [3, 2, 1, 0, 4] and most == 4
