"""Where solved tiers go (perfectplay.tiers.storage): manifests, fingerprints, the two stores."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import StoreError
from perfectplay.tiers.plan import tier_order
from perfectplay.tiers.storage import (
    FORMAT,
    MANIFEST,
    DirectoryStore,
    MemoryStore,
    check_fingerprint,
    fingerprint,
    game_manifest,
    json_params,
    read_manifest,
)
from perfectplay.values import Value
from tests.tier_workers import ListedGame
from tests.tiered_random import RandomTieredGame


def _game(last: Value = Value.TIE) -> ListedGame:
    return ListedGame({0: [Value.LOSE, last], 1: [[(1, 0, 0)], [(1, 1, 0)]]}, {0: [], 1: [0]})


def _manifest(
    game: ListedGame | RandomTieredGame, chunk: int = 4, block: int = 2
) -> dict[str, Any]:
    return game_manifest(game, tier_order(game), chunk, block)


def test_json_params_turns_tuples_into_lists_and_keeps_the_rest() -> None:
    assert json_params({"a": (1, 2), "b": 3, "c": "x", "d": [4]}) == {
        "a": [1, 2], "b": 3, "c": "x", "d": [4],
    }  # fmt: skip


@given(st.integers(0, 2**32 - 1))
def test_the_fingerprint_depends_on_the_moves_not_on_the_object(seed: int) -> None:
    one, two = RandomTieredGame(seed), RandomTieredGame(seed)
    assert fingerprint(one, tier_order(one)) == fingerprint(two, tier_order(two))
    assert len(fingerprint(one, tier_order(one))) == 32


def test_another_ranking_or_rule_changes_the_fingerprint() -> None:
    order = tier_order(_game())
    assert fingerprint(_game(Value.TIE), order) != fingerprint(_game(Value.WIN), order)
    assert fingerprint(_game(), order) != fingerprint(_game(), order[::-1])


def test_check_fingerprint_takes_a_match_or_none_and_refuses_another(tmp_path: Path) -> None:
    check_fingerprint(str(tmp_path), {"game": "g", "fingerprint": "ab"}, "ab")
    check_fingerprint(str(tmp_path), {"game": "g"}, "ab")  # written before fingerprints
    with pytest.raises(StoreError, match=r"another version of g .*fingerprints disagree") as error:
        check_fingerprint(str(tmp_path), {"game": "g", "fingerprint": "cd"}, "ab")
    assert str(tmp_path) in str(error.value) and "\n" not in str(error.value)


def test_a_manifest_describes_the_game_and_reads_back(tmp_path: Path) -> None:
    game = _game()
    manifest = _manifest(game)
    assert manifest["format"] == FORMAT and manifest["game"] == "listed"
    assert manifest["tiers"] == [0, 1] and manifest["sizes"] == [2, 2]
    assert manifest["labels"] == ["0", "1"] and (manifest["chunk"], manifest["block"]) == (4, 2)
    assert manifest["class"].endswith("tier_workers:ListedGame")
    DirectoryStore(str(tmp_path), manifest)
    assert read_manifest(str(tmp_path)) == manifest


def _damaged(manifest: dict[str, Any]) -> list[tuple[Any, str]]:
    def but(**kw: Any) -> dict[str, Any]:
        return {**manifest, **kw}

    short = dict(manifest)
    del short["block"]
    return [
        ("[1, 2]", "not a perfectplay tier manifest"),
        (but(format="other"), "not a perfectplay tier manifest"),
        (but(version=99), "tier format version 99, expected 1"),
        (short, "tier manifest lacks block"),
        (but(tiers=[0, True]), "damaged tier manifest"),
        (but(labels=["0"]), "damaged tier manifest"),
        (but(sizes="2,2"), "damaged tier manifest"),
        (but(chunk=0), "damaged tier manifest"),
        (but(block=True), "damaged tier manifest"),
        (but(scored=0), "damaged tier manifest"),
        (but(params=[]), "damaged tier manifest"),
        ("{not json", "unreadable tier manifest"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_a_damaged_manifest_is_refused_in_one_line(tmp_path: Path, case: int) -> None:
    content, why = _damaged(_manifest(_game()))[case]
    text = content if isinstance(content, str) else json.dumps(content)
    (tmp_path / MANIFEST).write_text(text)
    with pytest.raises(StoreError, match=why) as error:
        read_manifest(str(tmp_path))
    assert "\n" not in str(error.value)


def test_a_directory_without_a_manifest_is_not_a_tier_directory(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a tier directory"):
        read_manifest(str(tmp_path))


def test_the_memory_store_keeps_what_it_is_given() -> None:
    store = MemoryStore()
    records = np.array([1, 0, 7], np.uint8)
    assert not store.complete(3)
    store.put(3, records, None, 1)
    assert store.complete(3) and store.max_remoteness(3) == 1
    solved = store.load(3)
    assert solved.tier == 3 and solved.records is records and solved.scores is None


def test_chunks_merge_into_a_tier_file_equal_to_their_records(tmp_path: Path) -> None:
    store = DirectoryStore(str(tmp_path / "d"), {**_manifest(_game()), "sizes": [2, 5]})
    records = np.array([1, 0, 5, 9, 2], np.uint8)
    scores = np.array([-3, 0, 4, 8, -1], np.int64)
    assert not store.chunk_done(1, 0) and not store.complete(1)
    for lo, hi, most in [(0, 2, 0), (2, 5, 2)]:
        store.put_chunk(1, lo, hi, {"records": records[lo:hi], "scores": scores[lo:hi]}, most)
        assert store.chunk_done(1, lo)
    store.merge(1, [0, 2])
    assert store.complete(1) and store.max_remoteness(1) == 2
    assert not os.path.exists(os.path.dirname(store.chunk_path(1, 0)))  # chunks removed
    solved = store.load(1, threads=2)
    assert solved.records.tolist() == records.tolist()
    assert solved.scores is not None and solved.scores.tolist() == scores.tolist()


def test_a_tier_solved_whole_is_written_at_once(tmp_path: Path) -> None:
    store = DirectoryStore(str(tmp_path), _manifest(_game()))
    store.put(0, np.array([1, 6], np.uint8), None, 1)
    assert store.complete(0) and not store.complete(1)
    assert store.tier_path(0).endswith("tier-0.tier") and store.max_remoteness(0) == 1
    assert store.load(0).records.tolist() == [1, 6] and store.load(0).scores is None


def test_reopening_keeps_complete_files_and_drops_temporaries(tmp_path: Path) -> None:
    manifest = _manifest(_game())
    store = DirectoryStore(str(tmp_path), manifest)
    store.put(0, np.array([1, 6], np.uint8), None, 1)
    store.put_chunk(1, 0, 2, {"records": np.array([2, 2], np.uint8)}, 0)
    stale = Path(store.chunk_path(0, 0))  # chunks of a tier already merged: a crash's leftover
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    (tmp_path / "tier-1.tier.tmp-123").write_bytes(b"half")
    again = DirectoryStore(str(tmp_path), {**manifest, "chunk": 64, "block": 64})
    assert (again.chunk, again.block) == (4, 2)  # the directory's sizes win
    assert again.complete(0) and again.chunk_done(1, 0) and not again.complete(1)
    assert not stale.parent.exists() and not (tmp_path / "tier-1.tier.tmp-123").exists()


def test_a_directory_of_another_game_or_of_other_files_is_refused(tmp_path: Path) -> None:
    DirectoryStore(str(tmp_path / "a"), _manifest(_game()))
    other = {**_manifest(_game()), "sizes": [2, 3]}
    with pytest.raises(StoreError, match=r"holds the tiers of listed, not of listed"):
        DirectoryStore(str(tmp_path / "a"), other)
    changed = _manifest(_game(Value.WIN))
    with pytest.raises(StoreError, match="fingerprints disagree"):
        DirectoryStore(str(tmp_path / "a"), changed)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / ".hidden").write_text("")
    DirectoryStore(str(tmp_path / "b"), _manifest(_game()))  # hidden files do not count
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty and not a tier directory"):
        DirectoryStore(str(tmp_path / "c"), _manifest(_game()))
    assert os.listdir(tmp_path / "c") == ["notes.txt"]
