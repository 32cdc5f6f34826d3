"""Where solved tiers go (perfectplay.tiers.storage): manifests, fingerprints, the two stores."""

from __future__ import annotations

import contextlib
import fcntl
import gc
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import StoreError
from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.plan import tier_order
from perfectplay.tiers.storage import (
    FORMAT,
    LOCK,
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
from tests.tier_dirs import tree
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


# ------------------------------------------------- one solve per directory; damaged chunks

HOLD = """
import sys, time
from perfectplay.tiers.storage import DirectoryStore, read_manifest
try:
    store = DirectoryStore(sys.argv[1], read_manifest(sys.argv[1]))
except Exception as error:
    print(error, flush=True)
    sys.exit(2)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _other_process(directory: Path, seconds: float = 0.0) -> subprocess.Popen[str]:
    """A process that opens `directory` as a store (holding it `seconds`), printing the result."""
    command = [sys.executable, "-c", HOLD, str(directory), str(seconds)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def test_a_store_held_by_one_process_is_refused_to_another_until_released(
    tmp_path: Path,
) -> None:
    store = DirectoryStore(str(tmp_path), _manifest(_game()))
    assert (tmp_path / LOCK).read_bytes() == b""  # hidden and empty: no "not empty" directory
    refused = _other_process(tmp_path).communicate()[0]
    assert refused == (
        f"{tmp_path} is being solved by another process (process {os.getpid()}): one solve per "
        "tier directory at a time; wait for it to end, or give another directory\n"
    )
    # A second store of this process shares the lock; a pickled copy (a Dask worker's) holds
    # none, so dropping it frees nothing.
    again = DirectoryStore(str(tmp_path), _manifest(_game()))
    pickle.loads(pickle.dumps(store)).release()
    store.release()
    assert "is being solved" in _other_process(tmp_path).communicate()[0]
    del again  # the last store of this process on it: the lock goes
    gc.collect()
    assert _other_process(tmp_path).communicate()[0] == "held\n"


def test_a_killed_holder_leaves_the_directory_free(tmp_path: Path) -> None:
    DirectoryStore(str(tmp_path), _manifest(_game())).release()
    holder = _other_process(tmp_path, seconds=60)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    with pytest.raises(
        StoreError, match=rf"being solved by another process \(process {holder.pid}\)"
    ):
        DirectoryStore(str(tmp_path), _manifest(_game()))
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    holder.stdout.close()
    DirectoryStore(str(tmp_path), _manifest(_game())).release()


def test_a_refused_directory_gets_no_lock_file(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty and not a tier directory"):
        DirectoryStore(str(tmp_path), _manifest(_game()))
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_damaged_or_foreign_chunk_files_are_removed_on_opening(tmp_path: Path) -> None:
    manifest = {**_manifest(_game()), "sizes": [2, 8]}
    store = DirectoryStore(str(tmp_path), manifest)
    for lo, hi in [(0, 2), (2, 4), (4, 6), (6, 8)]:
        store.put_chunk(1, lo, hi, {"records": np.arange(lo, hi, dtype=np.uint8)}, 0)
    paths = [Path(store.chunk_path(1, s)) for s in (0, 2, 4, 6)]
    paths[0].write_bytes(paths[0].read_bytes()[:-3])  # truncated
    data = bytearray(paths[1].read_bytes())
    data[-1] ^= 0x20  # a flipped bit in the compressed records: a bad CRC
    paths[1].write_bytes(bytes(data))
    paths[2].write_bytes(paths[3].read_bytes())  # the chunk of ranks 6..7 under the name of 4
    notes = paths[0].parent / "notes.txt"
    notes.write_text("not a chunk name: left alone")
    store.release()
    again = DirectoryStore(str(tmp_path), manifest)
    assert again.damaged == [str(p) for p in paths[:3]]
    assert [again.chunk_done(1, s) for s in (0, 2, 4, 6)] == [False, False, False, True]
    assert notes.exists()


RESUME_GAME = {"rows": 4, "cols": 4}
RESUME_CHUNK = 4096  # connect-four 4 x 4: 61 chunks in 17 tiers


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of an uninterrupted solve of connect-four 4 x 4."""
    directory = tmp_path_factory.mktemp("reference")
    game = load_tiered_game("connect-four", **RESUME_GAME)
    solve_tiers(game, directory, chunk_size=RESUME_CHUNK, progress=False).close()
    return tree(directory)


class Crash(BaseException):
    """Stands for the process dying."""


def test_damaged_chunk_files_are_recomputed_on_resume(
    tmp_path: Path, reference: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_tiered_game("connect-four", **RESUME_GAME)
    real = os.replace

    def crash_at_a_merge(src: Any, dst: Any) -> None:
        # The process dies as it would rename a merged tier file of at least three chunks.
        chunks = Path(str(dst).removesuffix(".tier") + ".chunks")
        if chunks.is_dir() and len(list(chunks.iterdir())) >= 3:
            raise Crash
        real(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", crash_at_a_merge)
        with pytest.raises(Crash):
            solve_tiers(game, tmp_path, chunk_size=RESUME_CHUNK, jobs=1, progress=False)
    chunks = sorted(tmp_path.glob("tier-*.chunks/*.tier"))
    assert len(chunks) >= 3
    chunks[0].write_bytes(chunks[0].read_bytes()[: len(chunks[0].read_bytes()) // 2])
    data = bytearray(chunks[1].read_bytes())
    data[len(data) // 2] ^= 0xFF
    chunks[1].write_bytes(bytes(data))
    with solve_tiers(game, tmp_path, chunk_size=RESUME_CHUNK, progress=False) as db:
        assert db.stats is not None and db.stats.chunks_kept == len(chunks) - 2
    assert tree(tmp_path) == reference


@pytest.mark.parametrize("which", ["quixo", "connect-four"])
def test_missing_and_damaged_tier_files_are_solved_again_and_the_others_kept(
    tmp_path: Path, which: str
) -> None:
    """Every third tier file, from the middle of the plan on, removed, truncated or with one
    byte changed: the store lists the damaged ones, and the resume solves exactly those
    three kinds again (tiers inside and around them are complete) into the clean files."""
    game = (
        load_tiered_game("quixo", size=3)
        if which == "quixo"
        else load_tiered_game(which, rows=3, cols=4)
    )
    reference = tmp_path / "reference"
    solve_tiers(game, reference, progress=False).close()
    directory = tmp_path / "resumed"
    solve_tiers(game, directory, progress=False).close()
    order = tier_order(game)
    store = DirectoryStore(str(directory), game_manifest(game, order, 1, 1))
    store.release()
    paths = [Path(store.tier_path(t)) for t in order]
    gone, truncated, flipped = paths[len(paths) // 3 :: 3][:3]
    gone.unlink()
    truncated.write_bytes(truncated.read_bytes()[:-1])
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x01
    flipped.write_bytes(bytes(data))
    stamps = {p: p.stat().st_mtime_ns for p in paths if p not in (gone, truncated, flipped)}
    with solve_tiers(game, directory, progress=False) as db:
        assert db.stats is not None
        assert db.stats.tiers_solved == 3 and db.stats.tiers_kept == len(order) - 3
    assert tree(directory) == tree(reference)
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    again = DirectoryStore(str(directory), game_manifest(game, order, 1, 1))
    assert again.damaged == []
    truncated.write_bytes(b"")
    again.release()
    assert DirectoryStore(str(directory), game_manifest(game, order, 1, 1)).damaged == [
        str(truncated)
    ]


def _cli(directory: Path) -> list[str]:
    """The real command line of a solve of connect-four 4 x 4 into `directory`."""
    code = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
    params = [f"--param={k}={v}" for k, v in RESUME_GAME.items()]
    return [
        sys.executable, "-c", code, "solve", "connect-four", *params, "--tiers", str(directory),
        "--chunk-size", str(RESUME_CHUNK), "--json",
    ]  # fmt: skip


def _wait_stopped(pid: int) -> None:
    """Wait until every thread of process `pid` is stopped (a signal is delivered later)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        states = []
        for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
            with contextlib.suppress(OSError):  # a thread that just ended
                states.append(stat.read_text().rsplit(")", 1)[1].split()[0])
        if states and all(state in "tT" for state in states):
            return
        time.sleep(0.002)
    raise AssertionError(f"process {pid} did not stop")


def _everything(directory: Path) -> dict[str, bytes]:
    """Every file under `directory`, temporaries and the lock included."""
    return {str(p): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_a_second_solve_is_refused_then_the_first_killed_then_resumed(
    tmp_path: Path, reference: dict[str, bytes]
) -> None:
    first = subprocess.Popen(_cli(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("tier-*")) and time.monotonic() < deadline:
            time.sleep(0.002)  # the first chunk or tier file: the lock is held
        first.send_signal(signal.SIGSTOP)  # stopped mid-solve, its lock and temporaries kept
        _wait_stopped(first.pid)
        assert first.poll() is None, first.stderr.read() if first.stderr else ""
        before = _everything(tmp_path)
        second = subprocess.run(_cli(tmp_path), capture_output=True, text=True, timeout=120)
        assert (second.returncode, second.stdout) == (2, "")
        assert second.stderr == (
            f"perfectplay: error: {tmp_path} is being solved by another process (process "
            f"{first.pid}): one solve per tier directory at a time; wait for it to end, or give "
            "another directory\n"
        )
        assert _everything(tmp_path) == before  # nothing of the first one's removed
        first.send_signal(signal.SIGKILL)
        first.wait()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        if first.stderr is not None:
            first.stderr.close()
    with open(tmp_path / LOCK, "rb") as lock:  # the OS dropped the killed process's lock
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(lock, fcntl.LOCK_UN)
    chunks = sorted(tmp_path.glob("tier-*.chunks/*.tier"))
    if chunks:  # one left by the kill is damaged too: recomputed like the missing ones
        chunks[0].write_bytes(chunks[0].read_bytes()[:-1])
    done = subprocess.run(_cli(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run"]["chunks_kept"] == max(0, len(chunks) - 1)
    assert tree(tmp_path) == reference
