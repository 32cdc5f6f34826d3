"""The plan of a tier solve (perfectplay.tiers.plan): chunks, counts and the progress bar.

The properties of ``tier_order`` and of ``chunk_bounds`` over random sizes are still tested in
tests/tiers/test_engine.py (see the module docstring there); these are the plan's other parts.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.plan import (
    ACYCLIC_BYTES_PER_RANK,
    BLOCK,
    DASK_CHUNK,
    DEFAULT_CHUNK,
    SolveStats,
    chunk_bounds,
    progress_bar,
    tier_order,
)


def test_the_chunk_sizes_are_whole_blocks() -> None:
    assert DEFAULT_CHUNK % BLOCK == 0 and DASK_CHUNK % BLOCK == 0
    assert DEFAULT_CHUNK < DASK_CHUNK and ACYCLIC_BYTES_PER_RANK > 0


@given(st.integers(0, 40), st.integers(1, 8))
def test_chunks_of_one_block_are_each_one_block(size: int, block: int) -> None:
    # The engine's smallest chunk (block = min(BLOCK, chunk)): no chunk can shrink further.
    bounds = chunk_bounds(size, block, block)
    assert bounds == [(s, min(s + block, size)) for s in range(0, size, block)] or (
        size == 0 and bounds == [(0, 0)]
    )


def test_an_empty_tier_is_one_empty_chunk() -> None:
    assert chunk_bounds(0, DEFAULT_CHUNK, BLOCK) == [(0, 0)]


def test_solve_stats_start_at_zero() -> None:
    stats = SolveStats()
    assert (stats.tiers_solved, stats.tiers_kept, stats.chunks_solved, stats.chunks_kept) == (
        0,
    ) * 4


@pytest.mark.parametrize(("enabled", "disabled"), [(True, False), (False, True)])
def test_the_progress_bar_counts_a_tiers_ranks(enabled: bool, disabled: bool) -> None:
    bar = progress_bar(1000, "3", enabled)
    try:
        assert bar.total == 1000 and bar.disable is disabled
        assert disabled or bar.desc == "tier 3"
    finally:
        bar.close()


class _Diamond(TieredGame):
    """Tier 3 reaches 1 and 2, both reach 0: the shared child is ordered once."""

    info = GameInfo("diamond")

    def tiers(self) -> list[int]:
        return [0, 3, 2, 1]

    def child_tiers(self, tier: int) -> list[int]:
        return {3: [1, 2], 2: [0], 1: [0], 0: []}[tier]


def test_a_tier_reached_twice_is_ordered_once_before_both_parents() -> None:
    order = tier_order(_Diamond())
    assert sorted(order) == [0, 1, 2, 3] and order[0] == 0 and order[-1] == 3


def test_tier_order_errors_name_the_game() -> None:
    game = _Diamond()
    game.child_tiers = lambda tier: [9] if tier == 3 else []  # type: ignore[method-assign]
    with pytest.raises(GameDefinitionError, match=r"^diamond: child_tiers\(3\) names 9"):
        tier_order(game)
