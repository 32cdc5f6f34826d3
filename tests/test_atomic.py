"""perfectplay._atomic: a file appears whole or not at all; its mode follows the umask, which
is never changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfectplay._atomic import atomic_file, atomic_write_bytes, current_umask


def test_the_file_appears_whole(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    atomic_write_bytes(target, [b"one", memoryview(b"two")])
    assert target.read_bytes() == b"onetwo"
    atomic_write_bytes(target, [b"three"])  # replaces the old file
    assert target.read_bytes() == b"three"
    assert os.listdir(tmp_path) == ["f.bin"]


@pytest.mark.parametrize("durable", [True, False])
def test_a_failure_mid_write_leaves_nothing(tmp_path: Path, durable: bool) -> None:
    target = tmp_path / "f.bin"
    with (
        pytest.raises(RuntimeError, match="disk on fire"),
        atomic_file(target, durable=durable) as out,
    ):
        out.write(b"x" * 100_000)
        out.flush()
        assert len(os.listdir(tmp_path)) == 1  # the temporary file, not the target
        raise RuntimeError("disk on fire")
    assert os.listdir(tmp_path) == []


def test_a_failure_mid_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")

    def parts() -> object:
        yield b"new"
        raise KeyboardInterrupt  # not an Exception: cleaned up all the same

    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(target, parts())  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.bin"]


def test_a_failed_rename_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "a directory"
    target.mkdir()
    (target / "inside").write_bytes(b"")  # os.replace cannot put a file over a full directory
    with pytest.raises(OSError):
        atomic_write_bytes(target, [b"data"])
    assert sorted(os.listdir(tmp_path)) == ["a directory"]


def test_a_missing_directory_is_named_in_the_error(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "f.bin"
    with pytest.raises(FileNotFoundError) as error:
        atomic_write_bytes(target, [b"data"])
    assert error.value.filename == str(target)


def test_the_temporary_name_follows_the_policy(tmp_path: Path) -> None:
    target = tmp_path / "t.tier"
    with atomic_file(target, prefix="t.tier.tmp-7.", suffix="") as out:
        (name,) = os.listdir(tmp_path)
        assert name.startswith("t.tier.tmp-7.")
        out.write(b"x")
    with atomic_file(target) as out:
        (name,) = [n for n in os.listdir(tmp_path) if n != "t.tier"]
        assert name.startswith(".t.tier.") and name.endswith(".tmp")


def test_an_exact_mode(tmp_path: Path) -> None:
    target = tmp_path / "p.svg"
    atomic_write_bytes(target, [b"<svg/>"], mode=0o640)
    assert target.stat().st_mode & 0o777 == 0o640


_MODES = """
import os, sys
from perfectplay._atomic import atomic_write_bytes, current_umask
os.umask(int(sys.argv[2], 8))
before = os.umask(0o077); os.umask(before)
atomic_write_bytes(sys.argv[1], [b"x"])
after = os.umask(0o077); os.umask(after)
print(oct(os.stat(sys.argv[1]).st_mode & 0o777), oct(current_umask()), before == after)
"""


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_the_mode_follows_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    # In a child process: the umask is the whole process's, which other tests' threads share.
    target = tmp_path / "f.bin"
    out = subprocess.run(
        [sys.executable, "-c", _MODES, str(target), oct(umask)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == [oct(mode), oct(umask), "True"]


_READ = """
import builtins, os, sys
from perfectplay._atomic import current_umask
if sys.argv[2] == "probe":  # as where /proc is missing
    real_open = builtins.open
    def no_proc(file, *args, **kwargs):
        if str(file).startswith("/proc/"):
            raise FileNotFoundError(file)
        return real_open(file, *args, **kwargs)
    builtins.open = no_proc
os.umask(int(sys.argv[1], 8))
first, second = current_umask(), current_umask()
print(oct(first), oct(second), oct(os.umask(0)))
"""


@pytest.mark.parametrize("how", ["proc", "probe"])
@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002])
def test_the_umask_is_read_without_being_changed(umask: int, how: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _READ, oct(umask), how], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [oct(umask)] * 3


def test_reading_the_umask_in_this_process_leaves_it() -> None:
    assert current_umask() == current_umask()
