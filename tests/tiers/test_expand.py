"""One batch of a tier (perfectplay.tiers.expand): slots, moves checked, children looked up."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier_workers import ListedGame, solve_by_workers, tier_ranges
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.tiered import TierMoves
from perfectplay.tiers.expand import SolvedTier, expand, slot_ranks
from perfectplay.tiers.records import unpack
from perfectplay.values import DRAW, Value


@given(random_tiered_games(), st.data())
def test_a_batch_holds_the_slots_moves_and_the_childrens_records(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    solved = solve_by_workers(game)
    tier, lo, hi = data.draw(tier_ranges(game))
    ranks = slot_ranks(game, tier, lo, hi)
    assert ranks.tolist() == [r for r in range(lo, hi) if game.position_at[tier][r] >= 0]
    children = [solved[c] for c in game.child_tiers(tier)]
    batch = expand(game, tier, ranks, children, game.info.scored)
    assert batch.ranks is ranks
    which = batch.moves.which
    for j, child in enumerate(children, start=1):
        here = which == j
        value, rem = unpack(child.records[batch.moves.rank[here]])
        assert batch.child_value[here].tolist() == value.tolist()
        # A DRAW's record holds no remoteness: the batch may carry any there (the workers
        # never read it), unpack says -1.
        decided = value != DRAW
        assert batch.child_rem[here][decided].tolist() == rem[decided].tolist()
        if game.info.scored:
            assert batch.child_score is not None and child.scores is not None
            assert batch.child_score[here].tolist() == child.scores[batch.moves.rank[here]].tolist()
    assert (batch.child_score is None) == (not game.info.scored)


def _two_tiers(tamper: Callable[[TierMoves], TierMoves] | None = None, **kw: object) -> ListedGame:
    return ListedGame(
        {0: [Value.LOSE, Value.WIN], 1: [[(1, 0, 0)], [(1, 1, 0), (1, 0, 0)], Value.TIE]},
        {0: [], 1: [0]},
        tamper=tamper,
        **kw,  # type: ignore[arg-type]
    )


def _zero() -> list[SolvedTier]:
    return [SolvedTier(0, np.array([1, 4], np.uint8), None)]


def test_without_slots_every_rank_of_the_range_is_a_slot() -> None:
    assert slot_ranks(_two_tiers(), 1, 1, 3).tolist() == [1, 2]


@pytest.mark.parametrize("mask", [np.ones(3, np.bool_), np.ones(2, np.int8)])
def test_slots_of_the_wrong_shape_or_dtype_are_refused(mask: np.ndarray) -> None:
    game = _two_tiers()
    game.slots = lambda tier, lo, hi: mask  # type: ignore[method-assign]
    with pytest.raises(GameDefinitionError, match=r"slots\(1, 0, 2\) must give 2 booleans"):
        slot_ranks(game, 1, 0, 2)


@pytest.mark.parametrize(
    ("tamper", "why"),
    [
        (lambda m: m._replace(indptr=m.indptr[:-1]), "inconsistent lengths"),
        (lambda m: m._replace(which=m.which[:-1]), "inconsistent lengths"),
        (lambda m: m._replace(indptr=m.indptr + 1), "indptr that does not cover"),
        (lambda m: m._replace(indptr=np.array([0, 2, 1, 3])), "indptr that does not cover"),
        (lambda m: m._replace(primitive=np.array([255, 7, 2], np.uint8)), "primitive code 7"),
        (lambda m: m._replace(primitive=np.array([3, 255, 2], np.uint8)), "rank 0 is over"),
        (lambda m: m._replace(which=np.array([1, 2, 1], np.int8)), "index outside 0..1"),
        (lambda m: m._replace(which=np.array([1, -1, 1], np.int8)), "index outside 0..1"),
        (lambda m: m._replace(rank=np.array([0, 2, 0])), "rank 1 has a move to rank 2 of tier 0"),
    ],
)
def test_broken_moves_are_refused_naming_what(
    tamper: Callable[[TierMoves], TierMoves], why: str
) -> None:
    game = _two_tiers(tamper)
    with pytest.raises(GameDefinitionError, match=why):
        expand(game, 1, np.arange(3, dtype=np.int64), _zero(), False)


def test_an_empty_batch_with_an_indptr_past_its_moves_is_refused() -> None:
    game = _two_tiers(lambda m: m._replace(indptr=m.indptr + 1))
    with pytest.raises(GameDefinitionError, match="indptr that does not cover"):
        expand(game, 1, np.empty(0, dtype=np.int64), _zero(), False)


def test_a_move_to_a_child_rank_that_is_no_position_is_refused() -> None:
    children = [SolvedTier(0, np.array([1, 0], np.uint8), None)]  # rank 1: no position
    with pytest.raises(
        GameDefinitionError, match="rank 1 has a move to rank 1 of tier 0, which is no"
    ):
        expand(_two_tiers(), 1, np.arange(3, dtype=np.int64), children, False)


def test_a_scored_batch_needs_gains_and_scores() -> None:
    game = _two_tiers(lambda m: m._replace(gain=None), scored=True)
    with pytest.raises(GameDefinitionError, match="a scored game must give gain and score"):
        expand(game, 1, np.arange(3, dtype=np.int64), _zero(), True)
