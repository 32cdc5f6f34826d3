"""Helpers of the tier engine's tests: fast scratch directories, directory snapshots, and a
real solve killed with SIGKILL."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from perfectplay.tiers.storage import LOCK


def memory_dir(fallback: Path) -> Iterator[Path]:
    """A fresh directory in memory (/dev/shm) where there is one, else `fallback`; removed
    afterwards. Tier files are fsync'ed: milliseconds per file on a busy disk, nothing on
    tmpfs (crash safety here is about killed processes, not power loss)."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield fallback
        return
    path = Path(tempfile.mkdtemp(prefix="perfectplay-test-", dir=shm))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def tree(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` by relative path, with its bytes, but the solve lock
    (:data:`perfectplay.tiers.storage.LOCK`: empty, it only carries the running solve's flock).
    """
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != LOCK
    }


def solve_command(*args: str) -> list[str]:
    """``perfectplay solve ARGS`` as a command line for a fresh interpreter."""
    code = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", code, "solve", *args]


def files_in(directory: Path) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Complete tier files (name -> inode, mtime_ns) and complete chunk files."""
    if not directory.exists():
        return {}, []
    tiers = {}
    for p in directory.glob("tier-*.tier"):
        stat = p.stat()
        tiers[p.name] = (stat.st_ino, stat.st_mtime_ns)
    chunks = sorted(str(p.relative_to(directory)) for p in directory.glob("tier-*.chunks/*.tier"))
    return tiers, chunks


def kill_when(command: list[str], ready: Callable[[], bool], delay: float) -> bool:
    """Start `command`, wait until `ready()` (or the end), sleep `delay`, then ``kill -9``.

    Returns whether the process was killed (rather than finished first).
    """
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not ready() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(delay)
        if process.poll() is not None:
            assert process.returncode == 0, process.stderr.read() if process.stderr else ""
            return False
        process.send_signal(signal.SIGKILL)
        process.wait()
        return True
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()
