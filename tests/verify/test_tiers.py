"""Checking a solved tier database against the game's moves (perfectplay.verify.tiers)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tiered_random import RandomTieredGame, random_tiered_games

from perfectplay.errors import StoreError
from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.records import pack, unpack
from perfectplay.values import DRAW, LOSE, TIE, UNDECIDED, WIN
from perfectplay.verify.tiers import check_tier_database, verify_tiers


@pytest.mark.parametrize(
    ("name", "params"), [("dodgem", {"size": 3}), ("connect-four", {"rows": 3, "cols": 4})]
)
def test_tier_database_is_verified_and_every_sampled_mutation_refuted(
    name: str, params: dict[str, int]
) -> None:
    db = solve_tiers(load_tiered_game(name, **params), progress=False, jobs=1)
    report = check_tier_database(db)
    assert report.ok, report.problems
    assert report.positions > 0 and report.moves > 0
    rng = np.random.default_rng(1)
    for tier in rng.choice(db.order, size=min(4, len(db.order)), replace=False).tolist():
        records = db.records(tier)
        value, remoteness = unpack(records)
        present = np.flatnonzero(value != UNDECIDED)
        if not present.size:
            continue
        rank = int(rng.choice(present))
        saved = records.copy()
        for v, r in ((WIN, 0), (LOSE, 1), (TIE, 3), (DRAW, -1)):
            if (v, r) == (int(value[rank]), int(remoteness[rank])):
                continue
            changed_value, changed_remoteness = value.copy(), remoteness.copy()
            changed_value[rank], changed_remoteness[rank] = v, r
            records[:] = pack(changed_value, changed_remoteness, records.dtype.type)
            refused = check_tier_database(db)
            assert not refused.ok and f"rank {rank}" in " ".join(refused.problems)
        records[:] = saved


@given(random_tiered_games(), st.data())
def test_random_tiered_games_are_verified_and_a_changed_rank_refuted(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    db = solve_tiers(game, progress=False, jobs=1)
    report = check_tier_database(db)
    assert report.ok, report.problems
    assert report.positions == game.graph.n and report.moves == game.graph.m
    tier = data.draw(st.sampled_from(list(db.order)))
    records = db.records(tier)
    value, remoteness = unpack(records)
    present = np.flatnonzero(value != UNDECIDED)
    if not present.size:
        return
    rank = int(data.draw(st.sampled_from(present.tolist())))
    wrong = data.draw(
        st.sampled_from([(v, r) for v, r in ((WIN, 0), (LOSE, 2), (TIE, 1), (DRAW, -1))
                         if (v, r) != (int(value[rank]), int(remoteness[rank]))])
    )  # fmt: skip
    value[rank], remoteness[rank] = wrong
    records[:] = pack(value, remoteness, records.dtype.type)
    refused = check_tier_database(db)
    assert not refused.ok and any(f"rank {rank}" in p for p in refused.problems)


@pytest.fixture(scope="module")
def dodgem_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tiers") / "dodgem"
    solve_tiers(load_tiered_game("dodgem", size=3), directory, progress=False, jobs=1).close()
    return directory


def test_a_tier_directory_is_verified_with_its_progress_bar(
    dodgem_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = verify_tiers(dodgem_dir, progress=True)
    assert report.ok and report.positions > 0
    assert "rank" in capsys.readouterr().err


def test_a_damaged_tier_file_or_no_tier_directory_is_a_store_error(
    dodgem_dir: Path, tmp_path: Path
) -> None:
    with pytest.raises(StoreError, match="not a tier directory"):
        verify_tiers(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(dodgem_dir, copy)
    victim = max(copy.glob("tier-*.tier"), key=lambda p: p.stat().st_size)
    data = bytearray(victim.read_bytes())
    data[-5] ^= 0xFF
    victim.write_bytes(bytes(data))
    with pytest.raises(StoreError) as error:
        verify_tiers(copy)
    assert victim.name in str(error.value) and "\n" not in str(error.value)


def test_blocks_and_threads_give_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.verify.tiers as module

    db = solve_tiers(load_tiered_game("dodgem", size=3), progress=False, jobs=1)
    tier = max(db.order, key=lambda t: db.tiered.tier_size(t))
    records = db.records(tier)
    value, remoteness = unpack(records)
    present = np.flatnonzero(value != UNDECIDED)
    for rank in present[:: max(1, len(present) // 9)][:9]:  # nine ranks made wrong
        value[rank], remoteness[rank] = (WIN, 0) if value[rank] != WIN else (LOSE, 1)
    records[:] = pack(value, remoteness, records.dtype.type)
    whole = check_tier_database(db, jobs=1)
    monkeypatch.setattr(module, "BLOCK_RANKS", 7)
    monkeypatch.setattr(module, "CHUNK_RANKS", 3)
    for jobs in (1, 2, 3):
        report = check_tier_database(db, jobs=jobs)
        assert (report.positions, report.moves, report.bad) == (
            whole.positions,
            whole.moves,
            whole.bad,
        )
        assert report.problems == whole.problems and len(whole.problems) == module.SHOWN
