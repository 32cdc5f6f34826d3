"""The retrograde worker (perfectplay.tiers.loopy): a tier with moves inside it."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from tier_workers import ListedGame, solve_by_workers
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.tiers import loopy
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import loopy_bytes, solve_loopy
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


def _drawn_tier(game: RandomTieredGame, data: st.DataObject) -> tuple[int, list[SolvedTier]]:
    """A tier drawn from `game` and its child tiers, solved."""
    solved = solve_by_workers(game)
    tier = data.draw(st.sampled_from(game.tiers()))
    return tier, [solved[c] for c in game.child_tiers(tier)]


@given(random_tiered_games(scored=False), st.data())
def test_two_threads_give_the_same_records_in_the_narrowest_dtype(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    tier, children = _drawn_tier(game, data)
    done: list[int] = []
    records, most = solve_loopy(game, tier, children, jobs=2, advance=done.append)
    one, most_one = solve_loopy(game, tier, children)
    assert records.tolist() == one.tolist() and most == most_one
    assert records.dtype == record_dtype(most)
    assert most == max(int(unpack(records)[1].max(initial=0)), 0)
    assert sum(done) == game.tier_size(tier)


@given(random_tiered_games(scored=False), st.data())
def test_levels_filed_at_the_end_of_the_queue_give_what_a_scan_per_level_gives(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    tier, children = _drawn_tier(game, data)
    records, most = solve_loopy(game, tier, children)
    mp = pytest.MonkeyPatch()
    counted = loopy.file_levels
    # As if the sections had no room: every level scans the tier.
    mp.setattr(loopy, "file_levels", lambda *args: counted(*args) and False)
    try:
        scanned, most_scanned = solve_loopy(game, tier, children)
    finally:
        mp.undo()
    assert records.tolist() == scanned.tolist() and most == most_scanned


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


def test_more_moves_than_max_moves_says_are_refused() -> None:
    # The counter of open children is as narrow as max_moves allows: 300 moves overflow it.
    game = ListedGame({0: [[(0, 1, 0)] * 300, Value.LOSE]}, {0: []}, inner=True)
    game.max_moves = lambda: 2  # type: ignore[method-assign]
    with pytest.raises(GameDefinitionError, match="has 300 moves, more than max_moves"):
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


@pytest.mark.parametrize("copies", [1, 3, 20])
def test_a_child_reached_by_many_moves_counts_once(copies: int) -> None:
    # Rank 0 moves to rank 1 and rank 2 (both over, WIN for their mover) `copies` times each,
    # rank 3 to rank 0; parents lists name each parent `copies` times, short lists and long
    # ones alike.
    moves = [(0, 1, 0)] * copies + [(0, 2, 0)] * copies
    game = ListedGame({0: [moves, Value.WIN, Value.WIN, [(0, 0, 0)] * copies]}, {0: []}, inner=True)
    listed = game.parents

    def parents(tier: int, ranks: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        indptr, found = listed(tier, ranks)
        return indptr * copies, np.repeat(found, copies)

    game.parents = parents  # type: ignore[method-assign]
    value, rem = unpack(solve_loopy(game, 0, [])[0])
    assert value.tolist() == [LOSE, WIN, WIN, WIN]
    assert rem.tolist() == [1, 0, 0, 2]


class _WideGame(TieredGame):
    """Tier 1 of `size` ranks with moves inside it and to tier 0, drawn as numpy arrays (large
    tiers cheaply); tier 0's records are given, with remoteness up to `far`."""

    def __init__(self, seed: int, size: int, inner: int, outer: int, far: int, bound: bool):
        rng = np.random.default_rng(seed)
        self.info = GameInfo("wide", cyclic=True)
        self.size, self.bound = size, bound
        self.primitive = rng.choice(
            np.array([UNDECIDED, WIN, LOSE, TIE], np.uint8), size, p=[0.94, 0.02, 0.02, 0.02]
        )
        counts = rng.integers(0, inner + 1, size) + rng.integers(0, outer + 1, size)
        counts[self.primitive != UNDECIDED] = 0
        self.indptr = np.zeros(size + 1, np.int64)
        np.cumsum(counts, out=self.indptr[1:])
        m = int(self.indptr[-1])
        self.which = (rng.random(m) < outer / max(inner + outer, 1)).astype(np.int8)
        below = max(size // 4, 1)
        self.rank = np.where(
            self.which == 0, rng.integers(0, size, m), rng.integers(0, below, m)
        ).astype(np.int64)
        value = rng.choice(np.array([LOSE, DRAW, TIE, WIN]), below)
        rem = np.where(value == DRAW, 0, rng.integers(0, far + 1, below))
        records = (1 + 4 * rem + value).astype(record_dtype(far))
        self.below = SolvedTier(0, records, None)
        inside = np.flatnonzero(self.which == 0)
        owner = np.searchsorted(self.indptr, inside, side="right") - 1
        order = np.argsort(self.rank[inside], kind="stable")
        self.parent_of = owner[order]
        self.pindptr = np.searchsorted(self.rank[inside][order], np.arange(size + 1))

    def tiers(self) -> list[int]:
        return [0, 1]

    def child_tiers(self, tier: int) -> list[int]:
        return [0] if tier == 1 else []

    def tier_size(self, tier: int) -> int:
        return self.size if tier == 1 else len(self.below.records)

    def inner_moves(self, tier: int) -> bool:
        return tier == 1

    def max_moves(self) -> int | None:
        return int(np.diff(self.indptr).max(initial=0)) if self.bound else None

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        lo, hi = self.indptr[ranks], self.indptr[ranks + 1]
        indptr = np.zeros(len(ranks) + 1, np.int64)
        np.cumsum(hi - lo, out=indptr[1:])
        moves = np.repeat(lo - indptr[:-1], hi - lo) + np.arange(indptr[-1])
        return TierMoves(self.primitive[ranks], indptr, self.which[moves], self.rank[moves])

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        lo, hi = self.pindptr[ranks], self.pindptr[ranks + 1]
        indptr = np.zeros(len(ranks) + 1, np.int64)
        np.cumsum(hi - lo, out=indptr[1:])
        return indptr, self.parent_of[np.repeat(lo - indptr[:-1], hi - lo) + np.arange(indptr[-1])]


_BATCHES = 1 << 8
_ROOM = 1 << 18
"""Bytes beyond :func:`loopy_bytes` allowed while a tier is solved in batches of `_BATCHES`
ranks: the game's arrays for one batch of moves or parents and Python's own objects."""


@settings(max_examples=8)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1 << 15, 1 << 17),
    st.integers(0, 6),
    st.integers(0, 4),
    st.sampled_from([40, 4000, 40000]),
    st.booleans(),
    st.booleans(),
)
def test_the_work_arrays_stay_within_loopy_bytes(
    seed: int, size: int, inner: int, outer: int, far: int, bound: bool, below: bool
) -> None:
    # Measured by tracemalloc (numpy reports its arrays to it) with the game's batches made
    # small: what remains is the arrays the worker holds per rank.
    game = _WideGame(seed, size, inner, outer if below else 0, far, bound)
    children = [game.below] if below else []
    if not below:
        game.child_tiers = lambda tier: []  # type: ignore[method-assign]
    mp = pytest.MonkeyPatch()
    for name in ("BATCH", "_PARENT_BATCH", "_PARENT_GROUP"):
        mp.setattr(loopy, name, _BATCHES)
    try:
        records, _ = solve_loopy(game, 1, children)  # compiles the kernels for these dtypes
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        again, most = solve_loopy(game, 1, children)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
        mp.undo()
    levels = max(far + 1 if below else 0, most) + 1
    assert peak <= loopy_bytes(size, below, game.max_moves(), levels) + _ROOM, peak / size
    assert again.tolist() == records.tolist()
    # The summary of earlier tiers is as wide as their records: the same values held in
    # 4 bytes give the same records.
    if below:
        wide = SolvedTier(0, game.below.records.astype(np.uint32), None)
        assert solve_loopy(game, 1, [wide])[0].tolist() == records.tolist()
