"""Child tiers shared by the worker processes of one machine, decompressed once into memory.

A Dask worker process reads the whole child tiers of the tier it solves. With several worker
processes on one machine (``--dask local:N``, or ``dask worker --nworkers N``), each would
decompress its own copy: N times the work at the start of every tier, N times the memory, and
N copies competing for the processor caches during the random child look-ups. Instead, the
first process to need a child tier decompresses it into a file in shared memory
(``/dev/shm``); every process of the machine maps that file. The file's name holds the solve's
token, the tier and the inode and modification time of its tier file, so a tier solved again
is never answered from an old copy. A file appears under its final name only once complete
(written under a temporary name, then renamed); a lock file keeps two processes from
decompressing the same tier at once (if the lock is lost, both write the same bytes and the
last rename wins).

A tier being solved in chunks is also assembled there: each task writes its chunk's arrays
into this machine's copy of the tier (:func:`share_chunk`), and marks the blocks it wrote. When
the tier becomes a child, the first process needing it takes that copy over, decompressing
from the tier file only the blocks no task of this machine wrote (all of them on a single
machine whose tasks all ran there).

Without ``/dev/shm``, with too little room in it for the tier (Docker gives 64 MiB by
default), or where it refuses the files, a process reads the tier into its own memory, as the
in-process engine does.

Examples
--------
>>> import tempfile
>>> from perfectplay.games.registry import load_tiered_game
>>> from perfectplay.tiers.engine import solve_tiers
>>> from perfectplay.tiers.storage import DirectoryStore, read_manifest
>>> game = load_tiered_game("connect-four", rows=3, cols=3)
>>> directory = tempfile.mkdtemp()
>>> _ = solve_tiers(game, directory, progress=False)
>>> store = DirectoryStore(directory, read_manifest(directory))
>>> tier = store.load(4)
>>> shared = load_shared(store, 4, shared_name(store, 4, "doctest"))
>>> bool((shared.records == tier.records).all())
True
>>> remove_shared("doctest") >= 0  # what a worker runs at the end of a solve
True
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import mmap
import os
import shutil
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import StoreError
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.files import TierFile
from perfectplay.tiers.storage import DirectoryStore

__all__ = [
    "SHARED_MEMORY",
    "building_name",
    "has_room",
    "load_shared",
    "release_shared",
    "release_tier",
    "remove_shared",
    "share_chunk",
    "shared_name",
    "shared_prefix",
]

SHARED_MEMORY = "/dev/shm"
"""Where a machine's worker processes share decompressed child tiers (a tmpfs)."""
_MARGIN = 1 << 26
"""Bytes left free in shared memory beyond a tier's (other solves, other users)."""


def shared_prefix(token: str) -> str:
    """The start of the names of every shared file of the solve `token`."""
    return os.path.join(SHARED_MEMORY, f"perfectplay-{token}-")


def shared_name(store: DirectoryStore, tier: int, token: str) -> str:
    """Where this machine keeps the shared copy of complete `tier` (a path without suffix:
    one file per array, ``.records`` and ``.scores``, and a ``.lock``)."""
    stat = os.stat(store.tier_path(tier))
    return f"{shared_prefix(token)}{store.labels[tier]}-{stat.st_ino}-{stat.st_mtime_ns}"


def building_name(store: DirectoryStore, tier: int, token: str) -> str:
    """Where this machine assembles `tier` while its chunks are solved (a path without
    suffix: one file per array, named with its dtype)."""
    return f"{shared_prefix(token)}{store.labels[tier]}-building"


def _array_path(base: str, name: str, dtype: np.dtype[Any]) -> str:
    return f"{base}.{name}.{dtype.name}"


def _blocks(size: int, block: int) -> int:
    return -(-size // block)


def share_chunk(
    base: str, size: int, block: int, start: int, arrays: Mapping[str, NDArray[Any]]
) -> bool:
    """Write a solved chunk's arrays at rank `start` into this machine's copy of its tier
    (`size` ranks in blocks of `block`, named `base` by :func:`building_name`), then mark the
    chunk's blocks written.

    Each array's file holds the array, then a byte per block, set once the block is written:
    the marks live and die with the data they certify (the driver removing a killed run's
    copies while one of its tasks still writes cannot leave a mark without its data).

    Returns
    -------
    bool
        Whether the chunk is shared; False if shared memory has no room or refuses the files
        (the next tier then decompresses these ranks from the tier file).

    Notes
    -----
    Cost: one copy of the chunk's arrays. Memory: the copy grows in ``/dev/shm`` by the
    chunk's bytes.
    """
    try:
        for name, array in arrays.items():
            if not has_room(array.nbytes):
                return False
            itemsize = array.dtype.itemsize
            path = _array_path(base, name, array.dtype)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                total = size * itemsize + _blocks(size, block)
                if os.fstat(fd).st_size != total:  # new (other processes truncate it alike)
                    os.ftruncate(fd, total)
                _pwrite(fd, start * itemsize, np.ascontiguousarray(array).view(np.uint8))
                first, stop = start // block, _blocks(start + len(array), block)
                _pwrite(fd, size * itemsize + first, np.ones(stop - first, dtype=np.uint8))
            finally:
                os.close(fd)
    except OSError:  # full (raced with another writer) or refused: these blocks stay unmarked
        return False
    return True


def _pwrite(fd: int, offset: int, data: NDArray[np.uint8]) -> None:
    """Write the bytes `data` at `offset` of the open file `fd`."""
    view, done = data.data, 0
    while done < len(view):
        done += os.pwrite(fd, view[done:], offset + done)


def _take_over(path: str, f: TierFile, name: str, dtype: np.dtype[Any], threads: int) -> None:
    """Complete the copy at `path` of array `name` of tier file `f` (assembled by
    :func:`share_chunk`) from `f`, where no block was marked written, and drop its marks."""
    size = (f.stop - f.start) * dtype.itemsize
    fd = os.open(path, os.O_RDWR)
    try:
        marks = np.frombuffer(os.pread(fd, _blocks(f.stop - f.start, f.block), size), np.uint8)
        edges = np.diff(np.concatenate(([0], marks == 0, [0])).astype(np.int8))
        firsts, stops = np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()
        for first, stop in zip(firsts, stops, strict=True):  # blocks first..stop-1 unmarked
            ranks = (f.start + first * f.block, min(f.start + stop * f.block, f.stop))
            if not has_room((ranks[1] - ranks[0]) * dtype.itemsize):
                raise OSError(errno.ENOSPC, "no room in shared memory", path)
            part = f.read(name, threads=threads, ranks=ranks)
            _pwrite(fd, (ranks[0] - f.start) * dtype.itemsize, part.view(np.uint8))
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def _map(path: str, size: int, dtype: np.dtype[Any], *, create: bool) -> NDArray[Any]:
    """The file at `path` (created with `size` bytes if `create`) mapped shared, all pages in."""
    fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_TRUNC if create else 0), 0o600)
    try:
        if create:
            os.ftruncate(fd, size)
        flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
        return np.frombuffer(mmap.mmap(fd, size, flags=flags), dtype=dtype)
    finally:
        os.close(fd)


def has_room(size: int) -> bool:
    """Whether shared memory has `size` bytes free (and a margin)."""
    try:
        return shutil.disk_usage(SHARED_MEMORY).free >= size + _MARGIN
    except OSError:
        return False


def _shared_arrays(
    f: TierFile, dtypes: Mapping[str, np.dtype[Any]], base: str, building: str | None, threads: int
) -> dict[str, NDArray[Any]]:
    """Every array of tier file `f` (of `dtypes`), mapped from the shared files named `base`:
    where missing, made by this process under the lock, from the copy assembled as `building`
    if it has one of the same dtype (the ranks no task wrote there decompressed into it), else
    by decompressing the tier.

    Raises
    ------
    OSError
        If shared memory has no room for a copy, or refuses the files.
    """
    count = f.stop - f.start
    arrays = {}
    with open(f"{base}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for name, dtype in dtypes.items():
            path = f"{base}.{name}"
            size = count * dtype.itemsize
            assembled = "" if building is None else _array_path(building, name, dtype)
            if not os.path.exists(path) and assembled and os.path.exists(assembled):
                _take_over(assembled, f, name, dtype, threads)
                os.replace(assembled, path)
            if os.path.exists(path):
                arrays[name] = _map(path, size, dtype, create=False)
                continue
            if not has_room(size):
                raise OSError(errno.ENOSPC, "no room in shared memory", path)
            tmp = f"{path}.tmp-{os.getpid()}"
            try:
                out = _map(tmp, size, dtype, create=True)
                arrays[name] = f.read(name, threads=threads, out=out)
                os.replace(tmp, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
        if building is not None:
            release_shared(building)  # copies of another dtype
    return arrays


def load_shared(
    store: DirectoryStore, tier: int, base: str, threads: int = 1, building: str | None = None
) -> SolvedTier:
    """Solved `tier` of `store`, mapped from this machine's shared copy (made if missing).

    Parameters
    ----------
    store : DirectoryStore
        The tier directory.
    tier : int
        A complete tier.
    base : str
        The shared copy's name, :func:`shared_name`.
    threads : int
        Threads decompressing, when this process makes the copy.
    building : str, optional
        The name of the copy assembled while the tier was solved (:func:`building_name`),
        taken over where it exists.

    Returns
    -------
    SolvedTier
        Its arrays map the shared files; they are writeable, but nothing may write them.

    Notes
    -----
    Cost: one decompression of the tier per machine (the checksums verified), or of the
    ranks its assembled copy lacks, then a mapping per process. Memory: 1 to 4 bytes per rank
    of the tier once per machine, in ``/dev/shm`` until :func:`release_shared` or
    :func:`remove_shared`.
    """
    with TierFile(store.tier_path(tier)) as f:
        dtypes = {name: np.dtype(f.meta["arrays"][name]["dtype"]) for name in f.arrays}
        shared = all(
            os.path.exists(f"{base}.{name}")
            or (building is not None and os.path.exists(_array_path(building, name, dtype)))
            for name, dtype in dtypes.items()
        )
        size = sum((f.stop - f.start) * dtype.itemsize for dtype in dtypes.values())
        if not shared and not has_room(size):
            return store.load(tier, threads=threads)
        try:
            arrays = _shared_arrays(f, dtypes, base, building, threads)
        except StoreError:
            raise
        except OSError:  # shared memory is full or refuses its files (read-only, no permission)
            return store.load(tier, threads=threads)
    return SolvedTier(tier, arrays["records"], arrays.get("scores"))


def release_shared(base: str) -> None:
    """Remove this machine's shared copy named `base` (processes mapping it keep their map)."""
    _unlink_matching(glob.escape(base) + ".*")


def release_tier(store: DirectoryStore, tier: int, token: str) -> int:
    """Remove this machine's copies of `tier` in the solve `token`: its shared copy as a child
    tier and the copy assembled while it was solved (processes mapping them keep their map);
    how many files there were.

    The driver runs it on every worker (:func:`~perfectplay.tiers.tasks.drop_tiers`) once no
    tier running or left to solve reads `tier`. Cost: two file-name look-ups and a removal per
    file.
    """
    removed = _unlink_matching(glob.escape(building_name(store, tier, token)) + ".*")
    if os.path.exists(store.tier_path(tier)):
        removed += _unlink_matching(glob.escape(shared_name(store, tier, token)) + ".*")
    return removed


def remove_shared(token: str) -> int:
    """Remove every shared file of the solve `token` on this machine; how many there were.

    The driver runs it on every worker at the start of a solve (files left by killed workers)
    and at its end.
    """
    return _unlink_matching(glob.escape(shared_prefix(token)) + "*")


def _unlink_matching(pattern: str) -> int:
    """Remove the files matching glob `pattern` (others may be removing them too); how many."""
    removed = 0
    for path in glob.glob(pattern):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            removed += 1
    return removed
