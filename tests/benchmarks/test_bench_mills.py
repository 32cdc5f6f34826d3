"""bench_mills.py --redo: tiers of a solved directory (Nine Men's Morris with 4 stones each)
solved again in scratch copies on threads and on Dask, compared byte for byte with the
directory's files, which are left as they were."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tier_dirs import memory_dir

from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.storage import tier_file

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import _redo  # the benchmark's helpers live in benchmarks/

BENCHMARKS = Path(_redo.__file__).parent

LOOPY, PLACEMENT = "3_3_0_0", "2_3_1_0"
"""A move tier (inner moves) reading 2_3_0_0, and a placement tier reading it."""


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    for root in memory_dir(tmp_path_factory.mktemp("nine4")):
        directory = root / "tiers"
        game = load_tiered_game("nine-mens-morris", stones=4)
        solve_tiers(game, directory, jobs=2, progress=False).close()
        yield directory


def _sums(directory: Path) -> dict[str, tuple[str, int]]:
    """Every file under `directory`: its SHA-256 and inode."""
    return {
        str(p.relative_to(directory)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_ino)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_redo_prints_the_tier_solved_again_both_ways_and_leaves_the_directory(
    solved: Path,
) -> None:
    """The copies hard-linked (the scratch folder on the directory's file system): the
    directory's files keep their bytes and inodes."""
    before = _sums(solved)
    scratch = solved.parent / "scratch"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BENCHMARKS.parent), *sys.path])}
    command = [sys.executable, str(BENCHMARKS / "bench_mills.py"), "--redo", str(solved)]
    command += ["--labels", LOOPY, "--scratch", str(scratch)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.split(" | ") for line in result.stdout.splitlines() if line.startswith("| ")]
    assert [r[0] for r in rows[1:]] == ["| none (start-up: nothing to solve)", f"| {LOOPY}"]
    assert [r[1] for r in rows[1:]] == ["0", "210,140"]
    assert all(r[4] == "yes" for r in rows[1:])
    assert f"{solved}'s files read: unchanged" in result.stdout
    assert _sums(solved) == before
    assert os.listdir(scratch) == []  # the copies are removed
    scratch.rmdir()


def test_a_corrupted_original_is_reported_as_different(
    solved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The directory's file of the tier one byte off: the tier solved again differs (on
    threads only, to keep the test short); its other tiers are still the same."""
    directory = tmp_path / "bad"
    shutil.copytree(solved, directory)
    path = tier_file(str(directory), PLACEMENT)
    data = bytearray(Path(path).read_bytes())
    data[-1] ^= 1
    Path(path).write_bytes(bytes(data))
    before = _sums(directory)
    monkeypatch.setattr(_redo, "EXECUTORS", {"threads": ["--jobs", "1"]})
    rows, untouched = _redo.redo(str(directory), [LOOPY, PLACEMENT], str(tmp_path))
    assert [(row.label, row.same) for row in rows] == [
        (None, True),
        (LOOPY, True),
        (PLACEMENT, False),
    ]
    # A damaged file among those a solve reads is found too: it is solved again as well.
    rows, _ = _redo.redo(str(directory), [PLACEMENT], str(tmp_path))
    assert [(row.label, row.same) for row in rows] == [(None, False), (PLACEMENT, False)]
    assert untouched and _sums(directory) == before


def test_the_copies_hold_the_tiers_read_as_links_and_nothing_else(solved: Path) -> None:
    manifest = _redo.read_manifest(str(solved))
    assert _redo.reached(manifest, PLACEMENT) == ["2_3_0_0", LOOPY, PLACEMENT]
    assert _redo.reached(manifest, "2_3_0_0") == ["2_3_0_0"]
    copy = solved.parent / "copy"  # on the directory's file system
    assert _redo._copy(str(solved), ["2_3_0_0", LOOPY], str(copy)) == 0  # none copied
    assert sorted(os.listdir(copy)) == ["manifest.json", "tier-2_3_0_0.tier", f"tier-{LOOPY}.tier"]
    for name in os.listdir(copy):
        linked = (copy / name).stat().st_ino == (solved / name).stat().st_ino
        assert linked == (name != "manifest.json")  # the manifest is a copy of its own
    shutil.rmtree(copy)
    finished = _redo.finished_tiers(str(solved))
    assert len(finished) == 40 and finished[LOOPY] == 210_140
    largest = ["2_4_0_0", "2_4_1_0", LOOPY]  # 219,450, 219,450 and 210,140 ranks
    assert _redo.choose_tiers(finished, 3 * 220_000) == largest


def test_scratch_inside_the_directory_and_unfinished_tiers_are_refused(
    solved: Path, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit, match="lies inside"):
        _redo.scratch_root(str(solved), str(solved / "sub"))
    assert not (solved / "sub").exists()
    directory = tmp_path / "partial"
    shutil.copytree(solved, directory)
    os.remove(tier_file(str(directory), LOOPY))
    with pytest.raises(SystemExit, match=f"{LOOPY} is no finished tier"):
        _redo.redo(str(directory), [LOOPY], str(tmp_path))
    with pytest.raises(SystemExit, match=f"{PLACEMENT} reads {LOOPY}, which is not finished"):
        _redo.redo(str(directory), [PLACEMENT], str(tmp_path))
    with pytest.raises(SystemExit, match="no tier to solve again"):
        _redo.redo(str(directory), [], str(tmp_path))


def test_copies_on_another_file_system_are_copies_and_other_link_errors_raise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``os.link`` failing across file systems (EXDEV): each tier file is copied, same bytes,
    and counted; any other failure of a link is raised."""
    source = tmp_path / "dir"
    source.mkdir()
    (source / "manifest.json").write_text("{}")
    for label in ("a", "b"):
        Path(tier_file(str(source), label)).write_bytes(label.encode() * 100)

    def cross(src: str, dst: str) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(_redo.os, "link", cross)
    copy = tmp_path / "copy"
    assert _redo._copy(str(source), ["a", "b"], str(copy)) == 2
    for name in ("manifest.json", "tier-a.tier", "tier-b.tier"):
        assert (copy / name).read_bytes() == (source / name).read_bytes()
        assert (copy / name).stat().st_ino != (source / name).stat().st_ino

    def denied(src: str, dst: str) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(_redo.os, "link", denied)
    with pytest.raises(PermissionError):
        _redo._copy(str(source), ["a"], str(tmp_path / "other"))
