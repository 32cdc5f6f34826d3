"""Where solved tiers go: a tier directory on disk, or memory for games that fit.

A tier directory holds ``manifest.json`` (the game, its parameters and tiers, the chunk and
block sizes), one ``tier-LABEL.tier`` file per solved tier (:mod:`perfectplay.tiers.files`)
and, while a tier is being solved in chunks, ``tier-LABEL.chunks/START.tier`` files. Every
file appears under its final name only once complete (written to a temporary name and
renamed), so after a crash the same command resumes: complete tiers and intact chunks are
kept, temporary files and damaged chunk files (a failed checksum, a truncated file: a disk
fault or a copy cut short) are removed, the rest is solved again.

One solve at a time writes a directory: :class:`DirectoryStore` holds an exclusive
``fcntl.flock`` on the file :data:`LOCK` inside it while it lives, and a second process is
refused at once with one line (before it could remove the first one's temporary files). The
operating system drops the lock when the holding process ends, however it ends (``kill -9``
included), so a crashed solve never leaves the directory locked. The lock belongs to the
process: stores of one process on the same directory share it (a resume after an exception
in the same interpreter works), and a program running solves in threads keeps them on separate
directories itself.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._targets import class_target
from perfectplay.errors import StoreError
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.expand import SolvedTier, slot_ranks
from perfectplay.tiers.files import (
    TierFile,
    atomic_write_bytes,
    damage,
    merge_tier_files,
    write_tier_file,
)

__all__ = [
    "FORMAT",
    "LOCK",
    "MANIFEST",
    "DirectoryStore",
    "MemoryStore",
    "check_fingerprint",
    "fingerprint",
    "game_manifest",
    "json_params",
    "read_manifest",
]

FORMAT = "perfectplay-tiers"
MANIFEST = "manifest.json"
LOCK = ".solve.lock"
"""The lock file of a tier directory (hidden: it never makes a directory "not empty"). It stays
in place, empty: only the ``flock`` on it matters, and the OS drops that when its holder ends."""
_VERSION = 1
_CHUNK_NAME = re.compile(r"([0-9]{14})\.tier")


def json_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """A game's parameters as JSON values (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def fingerprint(game: TieredGame, order: list[int]) -> str:
    """A digest of `game`'s ranking and moves: its slots and children at a few ranks per tier.

    Two versions of a game with the same name, parameters and tier sizes but another ranking
    or other rules get different fingerprints, so a directory one of them solved is not read or
    resumed by the other. Cost: ``children`` of at most 8 windows of 16 ranks per tier.
    """
    digest = hashlib.sha256()
    for tier in order:
        size = game.tier_size(tier)
        for lo in sorted({size * k // 8 for k in range(8)}):
            ranks = slot_ranks(game, tier, lo, min(lo + 16, size))
            moves = game.children(tier, ranks)
            for array in (ranks, moves.primitive, moves.indptr, moves.which, moves.rank):
                digest.update(np.ascontiguousarray(array).astype(np.int64).tobytes())
    return digest.hexdigest()[:32]


def check_fingerprint(directory: str, manifest: Mapping[str, Any], expected: str) -> None:
    """Refuse a directory whose manifest's fingerprint is not `expected` (another ranking).

    Manifests written before fingerprints existed carry none and are taken as they are.

    Raises
    ------
    StoreError
        Naming the directory.
    """
    found = manifest.get("fingerprint")
    if found is not None and found != expected:
        raise StoreError(
            f"{directory} was solved by another version of {manifest['game']} (its ranking or "
            "moves differ: the fingerprints disagree); solve again into a new directory"
        )


def game_manifest(game: TieredGame, order: list[int], chunk: int, block: int) -> dict[str, Any]:
    """The manifest of `game`'s tier directory."""
    return {
        "format": FORMAT,
        "version": _VERSION,
        "game": game.info.name,
        "params": json_params(game.info.params),
        "class": class_target(type(game)),
        "scored": game.info.scored,
        "tiers": order,
        "labels": [game.tier_label(t) for t in order],
        "sizes": [game.tier_size(t) for t in order],
        "chunk": chunk,
        "block": block,
        "fingerprint": fingerprint(game, order),
    }


def read_manifest(directory: str) -> dict[str, Any]:
    """The manifest of a tier directory.

    Raises
    ------
    StoreError
        If `directory` has no readable perfectplay manifest.
    """
    path = os.path.join(directory, MANIFEST)
    try:
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except FileNotFoundError:
        raise StoreError(f"{directory}: not a tier directory (no {MANIFEST})") from None
    except (OSError, ValueError) as error:
        raise StoreError(f"{path}: unreadable tier manifest ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StoreError(f"{path}: not a perfectplay tier manifest")
    if manifest.get("version") != _VERSION:
        raise StoreError(
            f"{path}: tier format version {manifest.get('version')}, expected {_VERSION}"
        )
    keys = ("game", "params", "tiers", "labels", "sizes", "chunk", "block", "scored")
    missing = [k for k in keys if k not in manifest]
    if missing:
        raise StoreError(f"{path}: tier manifest lacks {', '.join(missing)}")
    if not _well_typed(manifest):
        raise StoreError(f"{path}: damaged tier manifest (a field of the wrong type or length)")
    return manifest


def _well_typed(manifest: Mapping[str, Any]) -> bool:
    """Every field of a tier manifest has its type, and the per-tier lists one entry per tier."""

    def ints(value: Any) -> bool:
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )

    tiers, labels, sizes = manifest["tiers"], manifest["labels"], manifest["sizes"]
    return (
        isinstance(manifest["game"], str)
        and isinstance(manifest["params"], dict)
        and isinstance(manifest["scored"], bool)
        and ints(tiers)
        and ints(sizes)
        and isinstance(labels, list)
        and all(isinstance(label, str) for label in labels)
        and len(tiers) == len(labels) == len(sizes)
        and all(
            isinstance(manifest[k], int) and not isinstance(manifest[k], bool) and manifest[k] > 0
            for k in ("chunk", "block")
        )
    )


# Locks this process holds: lock file's real path -> [descriptor, number of stores using it].
_held: dict[str, list[int]] = {}
_held_guard = threading.Lock()


def _lock(directory: str) -> Callable[[], None]:
    """Take `directory`'s solve lock for this process; return the function that lets it go.

    Cost: one ``open`` and one ``flock`` the first time a process takes a directory's lock.

    Raises
    ------
    StoreError
        If another process holds it, naming the directory (and the process where Linux tells).
    """
    path = os.path.join(directory, LOCK)
    key = os.path.realpath(path)
    with _held_guard:
        entry = _held.get(key)
        if entry is None:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise StoreError(
                    f"{directory} is being solved by another process{holder}: one solve per "
                    "tier directory at a time; wait for it to end, or give another directory"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            entry = _held[key] = [fd, 0]
        entry[1] += 1

    def release() -> None:
        with _held_guard:
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                os.close(entry[0])  # closing the last descriptor drops the flock

    return release


def _holder(fd: int) -> str:
    """`` (process PID)`` of the holder of the flock on `fd`'s file, from Linux's /proc/locks
    (empty where that table is missing or names no holder)."""
    inode = os.fstat(fd).st_ino
    try:
        with open("/proc/locks", encoding="ascii") as table:
            for line in table:
                fields = line.split()  # "1: FLOCK ADVISORY WRITE 1234 fd:01:567 0 EOF"
                if (
                    len(fields) > 5
                    and fields[1] == "FLOCK"
                    and fields[4].isdigit()
                    and fields[5].rsplit(":", 1)[-1] == str(inode)
                ):
                    return f" (process {fields[4]})"
    except OSError:
        pass
    return ""


def _describe(manifest: Mapping[str, Any]) -> str:
    params = GameInfo(manifest["game"], manifest["params"]).param_text(", ")
    return f"{manifest['game']}" + (f" ({params})" if params else "")


class MemoryStore:
    """Solved tiers kept in memory (``solve_tiers`` without a directory)."""

    def __init__(self) -> None:
        self.tiers: dict[int, SolvedTier] = {}
        self._most: dict[int, int] = {}

    def complete(self, tier: int) -> bool:
        """Whether `tier` is solved."""
        return tier in self.tiers

    def put(
        self, tier: int, records: NDArray[Any], scores: NDArray[np.int64] | None, most: int
    ) -> None:
        """Keep the records (and scores) of solved `tier`, whose largest remoteness is `most`."""
        self.tiers[tier] = SolvedTier(tier, records, scores)
        self._most[tier] = most

    def max_remoteness(self, tier: int) -> int:
        """The largest remoteness of solved `tier`."""
        return self._most[tier]

    def load(self, tier: int, threads: int = 1) -> SolvedTier:
        """The solved `tier`."""
        return self.tiers[tier]


def tier_file(directory: str, label: str) -> str:
    """The path of the tier file of the tier labelled `label` in `directory` (it exists once
    the tier is complete)."""
    return os.path.join(directory, f"tier-{label}.tier")


class DirectoryStore:
    """A tier directory being written: manifest checks, chunk files, tier files, resume.

    Parameters
    ----------
    directory : str
        Created if missing.
    manifest : dict
        The manifest of the game to solve; an existing directory must hold the same game and
        parameters (its chunk and block sizes then win).

    Attributes
    ----------
    damaged : list of str
        The chunk files found damaged on opening and removed, to be solved again.

    Raises
    ------
    StoreError
        If `directory` holds another game's tiers, is not a tier directory but not empty, or
        is being solved by another process (its lock is held).

    Notes
    -----
    The store holds the directory's lock (:data:`LOCK`) from its creation until
    :meth:`release` or its garbage collection, and in any case until the process ends. A
    pickled copy (sent to a Dask worker) holds none. Opening costs one read of every chunk
    file left by an interrupted solve (their checksums).
    """

    def __init__(self, directory: str, manifest: dict[str, Any]) -> None:
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self._checked(manifest)  # before the lock: a refused directory gets no lock file
        self._unlock: weakref.finalize[Any, Any] | None = weakref.finalize(self, _lock(directory))
        try:
            manifest = self._checked(manifest)  # again: another solve may have begun it
            path = os.path.join(directory, MANIFEST)
            if not os.path.exists(path):
                text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
                atomic_write_bytes(path, [text.encode()])
            self.manifest = manifest
            self.chunk: int = manifest["chunk"]
            self.block: int = manifest["block"]
            self.labels = dict(zip(manifest["tiers"], manifest["labels"], strict=True))
            self.sizes = dict(zip(manifest["tiers"], manifest["sizes"], strict=True))
            self.damaged: list[str] = []
            self._tidy()
        except BaseException:
            self.release()
            raise

    def _checked(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """The manifest to solve by: the directory's own (same game, parameters, ranking), or
        `manifest` for a new or empty directory. Reads only."""
        directory = self.directory
        if os.path.exists(os.path.join(directory, MANIFEST)):
            old = read_manifest(directory)
            same = ("game", "params", "tiers", "sizes", "scored")
            if any(old[k] != manifest[k] for k in same):
                raise StoreError(
                    f"{directory} holds the tiers of {_describe(old)}, not of {_describe(manifest)}"
                )
            check_fingerprint(directory, old, manifest["fingerprint"])
            return old
        if any(not name.startswith(".") for name in os.listdir(directory)):
            raise StoreError(
                f"{directory} is not empty and not a tier directory; give a new or empty one"
            )
        return manifest

    def release(self) -> None:
        """Let the directory's lock go (the process's last store on it releases the flock)."""
        if self._unlock is not None:
            self._unlock()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_unlock"] = None  # a copy in another process holds no lock
        return state

    def _tidy(self) -> None:
        """Remove what an interrupted solve leaves but cannot use: temporary files, the chunks
        of tiers already merged, and damaged tier and chunk files (listed in :attr:`damaged`:
        a disk fault, a copy cut short; they are solved again). Cost: one read of every tier
        and chunk file (their checksums, no decompression)."""
        for root, _, files in os.walk(self.directory):
            for name in files:
                if ".tmp-" in name:
                    os.unlink(os.path.join(root, name))
        for tier in self.labels:
            path = self.tier_path(tier)
            if os.path.exists(path) and self._damage(tier, path, None) is not None:
                os.unlink(path)
                self.damaged.append(path)
            chunks = os.path.dirname(self.chunk_path(tier, 0))
            if not os.path.isdir(chunks):
                continue
            if self.complete(tier):  # a crash after merging the chunks, before removing them
                shutil.rmtree(chunks)
                continue
            for name in sorted(os.listdir(chunks)):
                path = os.path.join(chunks, name)
                if (
                    _CHUNK_NAME.fullmatch(name)
                    and self._damage(tier, path, int(name[:14])) is not None
                ):
                    os.unlink(path)
                    self.damaged.append(path)

    def _damage(self, tier: int, path: str, start: int | None) -> str | None:
        """Why the file at `path` is not `tier`'s tier file (`start` None) or its chunk from
        rank `start`, or ``None``."""
        why = damage(path)
        if why is not None:
            return why
        with TierFile(path) as f:
            expected = ["records", "scores"] if self.manifest["scored"] else ["records"]
            size = self.sizes[tier]
            ends = f.stop == size if start is None else start < f.stop <= size
            if (
                f.meta.get("label") != self.labels[tier]
                or (f.start, f.block) != (start or 0, self.block)
                or not ends
                or sorted(f.arrays) != expected
            ):
                what = "its tier file" if start is None else f"a chunk of it at rank {start}"
                return f"{path}: not tier {self.labels[tier]}'s {what}"
        return None

    def tier_path(self, tier: int) -> str:
        """The tier file of `tier`."""
        return tier_file(self.directory, self.labels[tier])

    def chunk_path(self, tier: int, start: int) -> str:
        """The chunk file of the chunk of `tier` starting at rank `start`."""
        return os.path.join(
            self.directory, f"tier-{self.labels[tier]}.chunks", f"{start:014d}.tier"
        )

    def complete(self, tier: int) -> bool:
        """Whether `tier`'s tier file exists (it is then complete)."""
        return os.path.exists(self.tier_path(tier))

    def chunk_done(self, tier: int, start: int) -> bool:
        """Whether the chunk of `tier` at `start` has its file."""
        return os.path.exists(self.chunk_path(tier, start))

    def put_chunk(
        self, tier: int, start: int, stop: int, arrays: Mapping[str, NDArray[Any]], most: int
    ) -> None:
        """Write one chunk's arrays (records, scores) atomically."""
        path = self.chunk_path(tier, start)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        meta = self._meta(tier, arrays["records"], most)
        write_tier_file(path, meta, start, stop, self.block, arrays)

    def merge(self, tier: int, starts: list[int]) -> None:
        """Merge the chunk files of `tier` into its tier file, then remove them."""
        parts = [TierFile(self.chunk_path(tier, s)) for s in starts]
        try:
            meta = {
                "tier": tier,
                "label": self.labels[tier],
                "max_remoteness": max(int(p.meta["max_remoteness"]) for p in parts),
                "stored": sum(int(p.meta["stored"]) for p in parts),
            }
            merge_tier_files(self.tier_path(tier), meta, parts)
        finally:
            for part in parts:
                part.close()
        shutil.rmtree(os.path.dirname(self.chunk_path(tier, 0)))

    def put(
        self, tier: int, records: NDArray[Any], scores: NDArray[np.int64] | None, most: int
    ) -> None:
        """Write the tier file of a tier solved whole (a loopy tier)."""
        arrays: dict[str, NDArray[Any]] = {"records": records}
        if scores is not None:
            arrays["scores"] = scores
        meta = self._meta(tier, records, most)
        write_tier_file(self.tier_path(tier), meta, 0, len(records), self.block, arrays)

    def _meta(self, tier: int, records: NDArray[Any], most: int) -> dict[str, Any]:
        """The header fields of a tier or chunk file: its tier, largest remoteness, positions."""
        stored = int(np.count_nonzero(records))
        return {"tier": tier, "label": self.labels[tier], "max_remoteness": most, "stored": stored}

    def max_remoteness(self, tier: int) -> int:
        """The largest remoteness of solved `tier` (from its header)."""
        with TierFile(self.tier_path(tier)) as f:
            return int(f.meta["max_remoteness"])

    def load(self, tier: int, threads: int = 1) -> SolvedTier:
        """Read solved `tier` whole (checksums verified)."""
        with TierFile(self.tier_path(tier)) as f:
            records = f.read("records", threads=threads)
            scores = f.read("scores", threads=threads) if "scores" in f.arrays else None
        return SolvedTier(tier, records, scores)
