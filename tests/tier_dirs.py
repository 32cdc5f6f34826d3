"""Helpers of the tier engine's tests: fast scratch directories and directory snapshots."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
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
