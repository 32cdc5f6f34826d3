"""Child tiers shared through /dev/shm by the worker processes of one machine."""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tier_dirs import memory_dir

from perfectplay.errors import StoreError
from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers import shared
from perfectplay.tiers.engine import solve_tiers
from perfectplay.tiers.files import TierFile
from perfectplay.tiers.shared import (
    building_name,
    load_shared,
    release_shared,
    release_tier,
    remove_shared,
    share_chunk,
    shared_name,
    shared_prefix,
)
from perfectplay.tiers.storage import DirectoryStore, read_manifest
from perfectplay.tiers.tasks import clean_up, solve_token

TOKEN = "test-shared"


@pytest.fixture
def room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private folder standing in for /dev/shm."""
    folder = tmp_path / "shm"
    folder.mkdir()
    monkeypatch.setattr(shared, "SHARED_MEMORY", str(folder))
    return folder


@pytest.fixture(scope="module")
def solved() -> Iterator[DirectoryStore]:
    """Connect Four 4x4 solved in small chunks, kept for the module."""
    for directory in memory_dir(Path(os.environ.get("TMPDIR", "/tmp"))):
        game = load_tiered_game("connect-four", rows=4, cols=4)
        solve_tiers(game, directory / "c4", chunk_size=4096, progress=False).close()
        yield DirectoryStore(str(directory / "c4"), read_manifest(str(directory / "c4")))


def _largest(store: DirectoryStore) -> int:
    sizes = dict(zip(store.manifest["tiers"], store.manifest["sizes"], strict=True))
    return max(sizes, key=sizes.__getitem__)


def test_the_shared_copy_equals_the_tier_and_is_made_once(
    solved: DirectoryStore, room: Path
) -> None:
    tier = _largest(solved)
    base = shared_name(solved, tier, TOKEN)
    first = load_shared(solved, tier, base, threads=2)
    assert np.array_equal(first.records, solved.load(tier).records)
    assert first.scores is None and first.records.flags.writeable
    made = Path(base + ".records").stat()
    again = load_shared(solved, tier, base)
    assert np.array_equal(again.records, first.records)
    assert (Path(base + ".records").stat().st_ino, Path(base + ".records").stat().st_mtime_ns) == (
        made.st_ino,
        made.st_mtime_ns,
    )
    assert sorted(p.name for p in room.iterdir()) == sorted(
        Path(base + suffix).name for suffix in (".lock", ".records")
    )
    release_shared(base)
    assert list(room.iterdir()) == []
    assert np.array_equal(again.records, first.records)  # a mapping outlives its file


def _load_in_child(store: DirectoryStore, tier: int, base: str, folder: str, out: object) -> None:
    shared.SHARED_MEMORY = folder
    records = load_shared(store, tier, base).records
    out.put(int(records.astype(np.int64).sum()))  # type: ignore[attr-defined]


def test_processes_loading_at_once_get_the_same_tier_and_one_file(
    solved: DirectoryStore, room: Path
) -> None:
    tier = _largest(solved)
    base = shared_name(solved, tier, TOKEN)
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    children = [
        ctx.Process(target=_load_in_child, args=(solved, tier, base, str(room), out))
        for _ in range(3)
    ]
    for child in children:
        child.start()
    sums = [out.get(timeout=60) for _ in children]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    assert sums == [int(solved.load(tier).records.astype(np.int64).sum())] * 3
    assert sorted(p.name for p in room.iterdir()) == sorted(
        Path(base + suffix).name for suffix in (".lock", ".records")
    )


def test_without_room_each_process_reads_its_own_copy(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "has_room", lambda size: False)
    tier = _largest(solved)
    copy = load_shared(solved, tier, shared_name(solved, tier, TOKEN))
    assert np.array_equal(copy.records, solved.load(tier).records)
    assert list(room.iterdir()) == []


def test_no_shared_memory_at_all_reads_a_private_copy(
    solved: DirectoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "SHARED_MEMORY", str(tmp_path / "missing"))
    tier = _largest(solved)
    copy = load_shared(solved, tier, shared_name(solved, tier, TOKEN))
    assert np.array_equal(copy.records, solved.load(tier).records)


def test_shared_memory_refusing_its_files_reads_a_private_copy(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(shared, "_map", refuse)
    tier = _largest(solved)
    copy = load_shared(solved, tier, shared_name(solved, tier, TOKEN))
    assert np.array_equal(copy.records, solved.load(tier).records)


def test_a_damaged_tier_leaves_no_shared_file(
    solved: DirectoryStore, room: Path, tmp_path: Path
) -> None:
    tier = _largest(solved)
    damaged = DirectoryStore(str(tmp_path / "damaged"), dict(solved.manifest))
    data = bytearray(Path(solved.tier_path(tier)).read_bytes())
    data[-10] ^= 0xFF
    Path(damaged.tier_path(tier)).write_bytes(data)
    with pytest.raises(StoreError, match="checksum mismatch"):
        load_shared(damaged, tier, shared_name(damaged, tier, TOKEN))
    assert [p.suffix for p in room.iterdir()] == [".lock"]


def test_a_copy_left_half_written_is_never_read_and_is_removed(
    solved: DirectoryStore, room: Path
) -> None:
    tier = _largest(solved)
    base = shared_name(solved, tier, TOKEN)
    Path(base + ".records.tmp-99999").write_bytes(b"\x07" * 100)  # a worker killed while writing
    copy = load_shared(solved, tier, base)
    assert np.array_equal(copy.records, solved.load(tier).records)
    assert remove_shared(TOKEN) == 3  # the lock, the copy and the half-written file
    assert list(room.iterdir()) == []


def test_clean_up_drops_a_solves_copies_and_no_other(solved: DirectoryStore, room: Path) -> None:
    tier = _largest(solved)
    token = solve_token(solved.directory)
    load_shared(solved, tier, shared_name(solved, tier, token))
    other = load_shared(solved, tier, shared_name(solved, tier, "another-solve"))
    assert clean_up(solved.directory) == 2
    left = [p.name for p in room.iterdir()]
    assert len(left) == 2 and other.records.size > 0
    assert all(name.startswith(Path(shared_prefix("another-solve")).name) for name in left)


def _share_chunks(store: DirectoryStore, tier: int, which: slice, dtype: str = "uint8") -> str:
    """Share the chunks `which` of solved `tier` as the tasks solving them do; the copy's name."""
    records = store.load(tier).records.astype(dtype)
    building = building_name(store, tier, TOKEN)
    for start in range(0, len(records), store.chunk)[which]:
        chunk = records[start : start + store.chunk]
        assert share_chunk(building, len(records), store.block, start, {"records": chunk})
    return building


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int] | None]:
    """The rank ranges read from tier files from now on (None: a whole array)."""
    calls: list[tuple[int, int] | None] = []
    read = TierFile.read

    def counted(self: TierFile, name: str, **kwargs: object) -> object:
        calls.append(kwargs.get("ranks"))  # type: ignore[arg-type]
        return read(self, name, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(TierFile, "read", counted)
    return calls


def test_a_tier_assembled_from_all_its_chunks_is_taken_over_without_reading_its_file(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tier = _largest(solved)
    assert solved.manifest["sizes"][solved.manifest["tiers"].index(tier)] > 2 * solved.chunk
    building = _share_chunks(solved, tier, slice(None))
    reads = _reads(monkeypatch)
    base = shared_name(solved, tier, TOKEN)
    copy = load_shared(solved, tier, base, building=building)
    assert reads == []
    assert np.array_equal(copy.records, solved.load(tier).records)
    assert sorted(p.name for p in room.iterdir()) == sorted(
        Path(base + suffix).name for suffix in (".lock", ".records")
    )


def test_the_ranks_no_chunk_wrote_are_read_from_the_tier_file(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tier = _largest(solved)
    size = solved.manifest["sizes"][solved.manifest["tiers"].index(tier)]
    building = _share_chunks(solved, tier, slice(1, None, 2))  # what one of two machines solved
    reads = _reads(monkeypatch)
    copy = load_shared(solved, tier, shared_name(solved, tier, TOKEN), building=building)
    assert np.array_equal(copy.records, solved.load(tier).records)
    gaps = [(s, min(s + solved.chunk, size)) for s in range(0, size, 2 * solved.chunk)]
    assert reads[: len(gaps)] == gaps


def test_an_assembled_copy_of_another_dtype_is_not_used_and_is_removed(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tier = _largest(solved)
    building = _share_chunks(solved, tier, slice(None), dtype="uint16")
    reads = _reads(monkeypatch)
    base = shared_name(solved, tier, TOKEN)
    copy = load_shared(solved, tier, base, building=building)
    assert reads == [None]
    assert np.array_equal(copy.records, solved.load(tier).records)
    assert not any(p.name.startswith(Path(building).name) for p in room.iterdir())


def test_a_chunk_finding_no_room_is_not_shared_and_leaves_no_mark(
    solved: DirectoryStore, room: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "has_room", lambda size: False)
    tier = _largest(solved)
    chunk = solved.load(tier).records[: solved.chunk]
    building = building_name(solved, tier, TOKEN)
    assert not share_chunk(building, 10**6, solved.block, 0, {"records": chunk})
    assert list(room.iterdir()) == []


def test_a_copy_removed_while_tasks_write_takes_its_marks_along(
    solved: DirectoryStore, room: Path
) -> None:
    tier = _largest(solved)
    building = _share_chunks(solved, tier, slice(0, 1))
    (room / (Path(building).name + ".records.uint8")).unlink()  # the driver clearing a killed
    _share_chunks(solved, tier, slice(1, 2))  # run's copies; a late task makes the file anew
    copy = load_shared(solved, tier, shared_name(solved, tier, TOKEN), building=building)
    assert np.array_equal(copy.records, solved.load(tier).records)


def test_release_tier_removes_its_copies_and_no_other_tiers(
    solved: DirectoryStore, room: Path
) -> None:
    tiers = sorted(solved.manifest["tiers"], key=lambda t: -len(solved.load(t).records))[:2]
    for tier in tiers:  # each: a copy as a child tier, and one assembled while it was solved
        load_shared(solved, tier, shared_name(solved, tier, TOKEN))
        _share_chunks(solved, tier, slice(0, 1))
    before = {p.name for p in room.iterdir()}
    assert release_tier(solved, tiers[0], TOKEN) == 3  # the lock, the copy, the assembled one
    left = {p.name for p in room.iterdir()}
    assert left < before and len(left) == 3
    assert all(f"-{solved.labels[tiers[1]]}-" in name for name in left)
    assert release_tier(solved, tiers[0], TOKEN) == 0
    assert release_tier(solved, tiers[1], TOKEN) == 3
    assert list(room.iterdir()) == []
