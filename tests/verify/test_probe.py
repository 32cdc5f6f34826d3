"""Probing a solved tier database with the depth-limited search (perfectplay.verify.probe)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import InputFormatError, StoreError
from perfectplay.games.registry import load_tiered_game
from perfectplay.solved import open_tiers
from perfectplay.tiers import TierDatabase, solve_tiers
from perfectplay.tiers.records import pack, unpack
from perfectplay.values import LOSE, WIN
from perfectplay.verify.probe import probe_tiers, sample_ranks, tiers_named


def _flip(db: TierDatabase, tier: int, rank: int) -> None:
    """Make the stored WIN at `rank` of `tier` a LOSE, or anything else a WIN (in memory)."""
    records = db.records(tier)
    value, remoteness = unpack(records)
    value[rank] = LOSE if value[rank] == WIN else WIN
    remoteness[rank] = max(0, int(remoteness[rank]))
    records[:] = pack(value, remoteness, records.dtype.type)


def _flip_decided_sample(db: TierDatabase, count: int, depth: int, seed: int) -> str:
    """Flip a sampled position the search decides; return its ``tier LABEL rank R``."""
    sampled = sample_ranks(db, list(db.order), count, np.random.default_rng(seed))
    for tier, rank in sampled:
        stored = db.entry(tier, rank)
        if stored.value in (WIN, LOSE) and stored.remoteness <= depth:
            _flip(db, tier, rank)
            return f"tier {db.tiered.tier_label(tier)} rank {rank}"
    raise AssertionError("no sampled position within the depth")


@pytest.fixture(scope="module")
def morris3() -> TierDatabase:
    return solve_tiers(load_tiered_game("nine-mens-morris", stones=3), progress=False, jobs=1)


@pytest.mark.parametrize(("depth", "count"), [(0, 150), (2, 150), (3, 30)])
def test_nine_mens_morris_with_3_stones_agrees_with_the_search(
    morris3: TierDatabase, depth: int, count: int
) -> None:
    report = probe_tiers(morris3, count, depth, seed=depth)
    assert report.ok, report.problems
    assert report.probed == count and report.tiers == len(morris3.order)
    assert report.agreed == report.decided >= report.must_decided == report.must_decide > 0
    assert sum(n for n, _ in report.by_value.values()) == count


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2))
def test_any_sample_of_nine_mens_morris_with_3_stones_agrees(
    morris3: TierDatabase, seed: int, depth: int
) -> None:
    report = probe_tiers(morris3, 12, depth, seed=seed)
    assert report.ok and report.probed == 12, report.problems
    assert report.agreed == report.decided and report.must_decided == report.must_decide


def test_a_flipped_record_is_caught(morris3: TierDatabase) -> None:
    saved = {t: morris3.records(t).copy() for t in morris3.order}
    try:
        where = _flip_decided_sample(morris3, 40, 2, seed=5)
        report = probe_tiers(morris3, 40, 2, seed=5)
        assert not report.ok and report.bad == 1
        assert (
            report.problems[0].startswith(where) and "the search to depth 2" in report.problems[0]
        )
    finally:
        for t, records in saved.items():
            morris3.records(t)[:] = records


def test_nine_mens_morris_with_4_stones_agrees_in_a_directory(tmp_path: Path) -> None:
    directory = tmp_path / "morris4"
    game = load_tiered_game("nine-mens-morris", stones=4)
    solve_tiers(game, directory, progress=False, jobs=1).close()
    with open_tiers(directory) as db:
        report = probe_tiers(db, 60, 3, seed=2)
        assert report.ok and report.probed == 60 and report.must_decide > 0, report.problems
        move_tiers = tiers_named(db, ["4_4_0_0", "4_3_0_0"])
        report = probe_tiers(db, 40, 2, seed=3, tiers=move_tiers)
        assert report.ok and report.tiers == 2 and report.probed == 40, report.problems


@settings(max_examples=60, deadline=None)
@given(random_tiered_games(), st.integers(0, 4), st.integers(0, 1000))
def test_random_tiered_games_agree_and_a_flipped_record_is_caught(
    game: RandomTieredGame, depth: int, seed: int
) -> None:
    db = solve_tiers(game, progress=False, jobs=1)
    report = probe_tiers(db, 20, depth, seed=seed)
    assert report.ok, report.problems
    assert report.agreed == report.decided and report.must_decided == report.must_decide
    sampled = sample_ranks(db, list(db.order), 20, np.random.default_rng(seed))
    assert len(sampled) == report.probed == min(20, game.graph.n)
    within = [
        (t, r) for t, r in sampled if db.entry(t, r).remoteness in range(depth + 1)
        and db.entry(t, r).value in (WIN, LOSE)
    ]  # fmt: skip
    if within:
        _flip(db, *within[0])
        assert not probe_tiers(db, 20, depth, seed=seed).ok


def test_a_directory_whose_solve_is_not_finished_is_probed_in_its_solved_tiers(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "dodgem"
    solve_tiers(load_tiered_game("dodgem", size=3), directory, progress=False, jobs=1).close()
    with open_tiers(directory) as db:
        last = db.tiered.tier_label(db.order[-1])
    partial = tmp_path / "partial"
    shutil.copytree(directory, partial)
    (partial / f"tier-{last}.tier").unlink()
    with pytest.raises(StoreError, match="not completely solved"):
        open_tiers(partial)
    before = sorted(p.name for p in partial.iterdir())
    with open_tiers(partial, partial=True) as db:
        assert not db.complete(db.order[-1]) and db.complete(db.order[0])
        report = probe_tiers(db, 30, 3, seed=1)
        assert report.ok and report.tiers == len(db.order) - 1
        assert "tiers are solved so far" in report.notes[0]
        with pytest.raises(InputFormatError, match=f"tier {last} of dodgem .* not solved yet"):
            tiers_named(db, [last])
        with pytest.raises(InputFormatError, match="has no tier 'nowhere'"):
            tiers_named(db, ["nowhere"])
    assert sorted(p.name for p in partial.iterdir()) == before  # nothing written


@pytest.mark.parametrize(("count", "depth", "words"), [
    (0, 3, "1 position or more, got 0"), (True, 3, "1 position or more"),
    (5, -1, "depth must be an integer 0 or more, got -1"),
])  # fmt: skip
def test_bad_counts_and_depths_are_refused(
    morris3: TierDatabase, count: int, depth: int, words: str
) -> None:
    with pytest.raises(InputFormatError, match=words):
        probe_tiers(morris3, count, depth)
