"""Tier files: one solved tier (or one chunk of it) on disk, compressed in blocks, checksummed.

A tier file holds named arrays (``records``, and ``scores`` for scored games) over the ranks
``start..stop-1`` of one tier. Each array is cut into blocks of ``block`` ranks, each block
compressed with Zstandard, so one rank is read by decompressing one block (a query) and a
whole tier by decompressing every block (a child tier while solving). Layout::

    b"PPTIER\\x00\\x02"          magic and format version (8 bytes)
    uint32 little-endian        length of the header
    uint32 little-endian        CRC-32 of the header
    header                      JSON, padded with spaces to a multiple of 8 bytes
    per array: uint64[n + 1]    block offsets (from the start of the array's payload)
    per array: payload          the compressed blocks, back to back

The header names the game's tier, the range, the block size and, per array, its dtype, the
position of its offsets and payload and the CRC-32 of offsets and payload together; its own
CRC-32 precedes it (files of version 1 have a uint64 length and no header CRC). Files are
written to a temporary name, flushed to disk and renamed, so a file with its final name is
complete; a file that fails its checks raises :class:`~perfectplay.errors.StoreError` naming
it. The same bytes come out of the same arrays: chunk files of an interrupted run merge into a
tier file identical to an uninterrupted run's.

Examples
--------
>>> import numpy as np, tempfile, os
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "t.tier")
>>> write_tier_file(path, {"tier": 3}, 0, 10, 4, {"records": np.arange(10, dtype=np.uint8)})
>>> f = TierFile(path)
>>> f.read("records").tolist(), int(f.get("records", 7)), f.meta["tier"]
([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 7, 3)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import struct
import threading
import zlib
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any

import numpy as np
import zstandard
from numpy.typing import NDArray

from perfectplay import _atomic
from perfectplay._mappings import populated_empty
from perfectplay.errors import StoreError

__all__ = [
    "MAGIC",
    "TierFile",
    "atomic_write_bytes",
    "damage",
    "merge_tier_files",
    "write_tier_file",
]

MAGIC = b"PPTIER\x00\x02"
_MAGIC_V1 = b"PPTIER\x00\x01"  # read only: no header CRC
_LEVEL = 3  # Zstandard level: measured 3 compresses records ~10% better than 1 at ~the same speed

_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _decompressing(threads: int) -> ThreadPoolExecutor:
    """The process's pool of `threads` threads that decompress blocks, made once (keyed by
    the process too: a forked child has the parent's pools but none of their threads)."""
    key = (os.getpid(), threads)
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(threads, thread_name_prefix="perfectplay-read")
        return _POOLS[key]


def atomic_write_bytes(path: str, parts: Iterable[bytes | memoryview]) -> None:
    """Write `parts` to `path` atomically and durably (:func:`perfectplay._atomic.atomic_file`).

    The temporary file is ``<path>.tmp-<pid>.<random>``: opening a tier directory removes
    every file whose name holds ``.tmp-``, what a killed run leaves. The file gets the
    permissions of any new file of the user (the umask applies).
    """
    prefix = f"{os.path.basename(path)}.tmp-{os.getpid()}."
    _atomic.atomic_write_bytes(path, parts, prefix=prefix, suffix="")


def _compress_blocks(array: NDArray[Any], block: int) -> tuple[NDArray[np.uint64], list[bytes]]:
    compressor = zstandard.ZstdCompressor(level=_LEVEL)
    raw = np.ascontiguousarray(array)
    blobs = [compressor.compress(raw[i : i + block].tobytes()) for i in range(0, len(raw), block)]
    offsets = np.zeros(len(blobs) + 1, dtype=np.uint64)
    np.cumsum([len(b) for b in blobs], out=offsets[1:])
    return offsets, blobs


def _layout(
    meta: Mapping[str, Any],
    start: int,
    stop: int,
    block: int,
    arrays: Mapping[str, tuple[str, NDArray[np.uint64], list[bytes] | list[memoryview], int]],
) -> tuple[bytes, list[Any]]:
    """The header and the parts after it, arrays given as (dtype, offsets, blobs, crc)."""
    entries: dict[str, dict[str, Any]] = {}
    header: dict[str, Any] = {
        **meta,
        "start": start,
        "stop": stop,
        "block": block,
        "arrays": entries,
    }
    # The header's length decides where the arrays start, and those positions are written into
    # the header: repeat until its length settles (it only grows, so this ends).
    text = b""
    while True:
        position = 16 + len(text)
        for name, (dtype, offsets, _, crc) in arrays.items():
            entries[name] = {
                "dtype": dtype,
                "blocks": len(offsets) - 1,
                "offsets": position,
                "payload": position + 8 * len(offsets),
                "length": int(offsets[-1]),
                "crc32": crc,
            }
            position += 8 * len(offsets) + int(offsets[-1])
        settled = len(text)
        text = json.dumps(header, sort_keys=True).encode()
        text += b" " * (-len(text) % 8)
        if len(text) == settled:
            break
    parts: list[Any] = [MAGIC, struct.pack("<II", len(text), zlib.crc32(text)), text]
    for _, offsets, blobs, _ in arrays.values():
        parts.append(offsets.tobytes())
        parts.extend(blobs)
    return text, parts


def _crc(offsets: NDArray[np.uint64], blobs: Iterable[bytes | memoryview]) -> int:
    crc = zlib.crc32(offsets.tobytes())
    for blob in blobs:
        crc = zlib.crc32(blob, crc)
    return crc


def write_tier_file(
    path: str,
    meta: Mapping[str, Any],
    start: int,
    stop: int,
    block: int,
    arrays: Mapping[str, NDArray[Any]],
) -> None:
    """Write arrays over ranks ``start..stop-1`` to a tier file at `path`, atomically.

    `meta` (JSON-able) goes into the header. Cost: one compression pass over the arrays.
    """
    packed = {}
    for name, array in arrays.items():
        if len(array) != stop - start:
            raise ValueError(f"array {name} has {len(array)} entries for ranks {start}..{stop}")
        offsets, blobs = _compress_blocks(array, block)
        packed[name] = (array.dtype.name, offsets, blobs, _crc(offsets, blobs))
    _, parts = _layout(meta, start, stop, block, packed)
    atomic_write_bytes(path, parts)


class TierFile:
    """A tier file opened for reading (memory-mapped); checks its header and sizes on open.

    Parameters
    ----------
    path : str
        The file.

    Raises
    ------
    StoreError
        Missing, truncated, not a tier file, or inconsistent header (the message names `path`).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            with open(path, "rb") as handle:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except FileNotFoundError:
            raise StoreError(f"{path}: no such tier file") from None
        except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
            raise StoreError(f"{path}: cannot read tier file ({error})") from None
        self.meta: dict[str, Any] = self._header()
        self.start: int = self.meta["start"]
        self.stop: int = self.meta["stop"]
        self.block: int = self.meta["block"]
        self._blocks: dict[str, tuple[Any, int]] = {}
        self._verified: set[str] = set()

    def _fail(self, why: str) -> StoreError:
        return StoreError(f"{self.path}: corrupted or truncated tier file ({why})")

    def _header(self) -> dict[str, Any]:
        size = len(self._map)
        if size < 16 or self._map[:8] not in (MAGIC, _MAGIC_V1):
            raise self._fail("not a perfectplay tier file: bad magic")
        if self._map[:8] == MAGIC:
            length, crc = struct.unpack("<II", self._map[8:16])
        else:
            (length,), crc = struct.unpack("<Q", self._map[8:16]), None
        if 16 + length > size:
            raise self._fail("header past the end")
        text = bytes(self._map[16 : 16 + length])
        if crc is not None and zlib.crc32(text) != crc:
            raise self._fail("checksum mismatch in the header")
        try:
            meta = json.loads(text)
            for entry in meta["arrays"].values():
                end = entry["payload"] + entry["length"]
                if end > size or entry["offsets"] + 8 * (entry["blocks"] + 1) != entry["payload"]:
                    raise self._fail("array past the end of the file")
                np.dtype(entry["dtype"])
            if not 0 <= meta["start"] <= meta["stop"] or meta["block"] < 1:
                raise self._fail("bad range")
        except (ValueError, KeyError, TypeError) as error:
            raise self._fail(f"bad header: {error}") from None
        return dict(meta)

    @property
    def arrays(self) -> list[str]:
        """The names of the arrays in the file."""
        return list(self.meta["arrays"])

    def _offsets(self, name: str) -> tuple[dict[str, Any], NDArray[np.uint64]]:
        try:
            entry = self.meta["arrays"][name]
        except KeyError:
            raise StoreError(f"{self.path}: tier file has no array {name!r}") from None
        # A copy, not a view: a view alive in an error's traceback would keep the file from
        # being unmapped (BufferError from close() in place of the error).
        offsets = np.frombuffer(
            self._map, dtype="<u8", count=entry["blocks"] + 1, offset=entry["offsets"]
        ).copy()
        return entry, offsets

    def verify(self, name: str) -> None:
        """Check array `name`'s CRC-32 (offsets and compressed payload). Cost: one read."""
        entry, offsets = self._offsets(name)
        payload = memoryview(self._map)[entry["payload"] : entry["payload"] + entry["length"]]
        crc = zlib.crc32(payload, zlib.crc32(offsets.tobytes()))
        payload.release()
        if crc != entry["crc32"]:
            raise self._fail(f"checksum mismatch in {name}")

    def blobs(self, name: str) -> tuple[dict[str, Any], NDArray[np.uint64], list[memoryview]]:
        """The array's header entry, block offsets and compressed blocks (views of the file)."""
        entry, offsets = self._offsets(name)
        base = entry["payload"]
        if int(offsets[-1]) != entry["length"] or bool(
            (np.diff(offsets.astype(np.int64)) < 0).any()
        ):
            raise self._fail(f"bad block offsets in {name}")
        view = memoryview(self._map)
        return (
            entry,
            offsets,
            [view[base + int(a) : base + int(b)] for a, b in itertools.pairwise(offsets)],
        )

    def read(
        self,
        name: str,
        *,
        threads: int = 1,
        out: NDArray[Any] | None = None,
        ranks: tuple[int, int] | None = None,
    ) -> NDArray[Any]:
        """The array `name`, checksum verified: whole, or its entries of the ranks
        ``ranks[0]..ranks[1]-1`` of the tier (``ranks[0]`` at a block's start). Cost: one
        decompression of the blocks read.

        Decompressed into `out` if given (its length and dtype must be those read), else into
        a new array whose pages are mapped at once (:func:`populated_empty`).

        >>> import tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "t.tier")
        >>> write_tier_file(path, {}, 0, 10, 4, {"records": np.arange(10, dtype=np.uint8)})
        >>> TierFile(path).read("records", ranks=(4, 9)).tolist()
        [4, 5, 6, 7, 8]
        """
        first, stop = (self.start, self.stop) if ranks is None else ranks
        aligned = (first - self.start) % self.block == 0
        if not (aligned and self.start <= first <= stop <= self.stop):
            raise ValueError(f"ranks {first}..{stop - 1} do not start a block of {self.path}")
        self.verify(name)
        entry, _, blobs = self.blobs(name)
        dtype = np.dtype(entry["dtype"])
        if out is None:
            out = populated_empty(stop - first, dtype)
        elif out.shape != (stop - first,) or out.dtype != dtype:
            for blob in blobs:
                blob.release()
            raise ValueError(f"out must hold {stop - first} of {dtype}")
        raw = out.view(np.uint8)
        step = self.block * dtype.itemsize
        whole = (self.stop - self.start) * dtype.itemsize  # bytes of the whole array
        skip = (first - self.start) // self.block  # blocks before the first one read

        def decompress(index: int) -> None:
            size = min(step, whole - index * step)
            try:
                data = zstandard.ZstdDecompressor().decompress(blobs[index], max_output_size=size)
            except zstandard.ZstdError as error:
                raise self._fail(f"block {index} of {name}: {error}") from None
            if len(data) != size:
                raise self._fail(f"block {index} of {name} holds {len(data)} bytes, not {size}")
            at = (index - skip) * step
            want = min(size, raw.size - at)
            raw[at : at + want] = np.frombuffer(data, dtype=np.uint8, count=want)

        try:
            if len(blobs) * step < whole:
                raise self._fail(f"{name} has too few blocks")
            indices = range(skip, skip + -(-raw.size // step))
            if threads > 1 and len(indices) > 1:
                pool = _decompressing(threads)
                futures = [pool.submit(decompress, index) for index in indices]
                wait(futures)  # all of them, before the views are released
                for future in futures:
                    future.result()
            else:
                for index in indices:
                    decompress(index)
        finally:  # views of the file: released, so that close() can unmap it after an error
            for blob in blobs:
                blob.release()
        return out

    def get(self, name: str, rank: int) -> Any:
        """Entry `rank` of array `name` (a rank of the whole tier).

        Cost: one block decompressed; the first call per array also checks its CRC-32 (one
        read of its compressed data), so a damaged block never answers.
        """
        if not self.start <= rank < self.stop:
            raise IndexError(f"rank {rank} is outside {self.start}..{self.stop - 1}")
        if name not in self._verified:
            self.verify(name)
            self._verified.add(name)
        index = (rank - self.start) // self.block
        cached = self._blocks.get(name)
        if cached is None or cached[1] != index:
            entry, offsets = self._offsets(name)
            dtype = np.dtype(entry["dtype"])
            base = entry["payload"]
            blob = self._map[base + int(offsets[index]) : base + int(offsets[index + 1])]
            try:
                data = zstandard.ZstdDecompressor().decompress(
                    blob, max_output_size=self.block * dtype.itemsize
                )
            except zstandard.ZstdError as error:
                raise self._fail(f"block {index} of {name}: {error}") from None
            self._blocks[name] = (np.frombuffer(data, dtype=dtype), index)
            cached = self._blocks[name]
        block_data = cached[0]
        offset = (rank - self.start) % self.block
        if offset >= len(block_data):
            raise self._fail(f"block {index} of {name} is short")
        return block_data[offset]

    def close(self) -> None:
        """Unmap the file."""
        self._blocks.clear()
        # Views held by the traceback of a failed read keep the map: it is unmapped when freed.
        with contextlib.suppress(BufferError):
            self._map.close()

    def __enter__(self) -> TierFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def damage(path: str) -> str | None:
    """Why the tier file at `path` fails its checks, or ``None`` when it is intact.

    The checks of :class:`TierFile` on open (magic, header CRC-32, every array inside the
    file) and every array's CRC-32 (block offsets and compressed payload): together they cover
    every byte of the file, so a truncated file or any changed byte is found. Cost: one read
    of the file, no decompression.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.tier")
    >>> write_tier_file(path, {}, 0, 10, 4, {"records": np.arange(10, dtype=np.uint8)})
    >>> damage(path) is None
    True
    >>> with open(path, "r+b") as f:
    ...     _ = f.truncate(os.path.getsize(path) - 1)
    >>> damage(path)
    '...t.tier: corrupted or truncated tier file (array past the end of the file)'
    """
    try:
        with TierFile(path) as f:
            for name in f.arrays:
                f.verify(name)
    except StoreError as error:
        return str(error)
    return None


def merge_tier_files(path: str, meta: Mapping[str, Any], parts: list[TierFile]) -> None:
    """Write the tier file of consecutive chunk files `parts` to `path`, without recompressing.

    Each chunk's checksum is verified first; every chunk but the last must cover whole blocks.
    The result is byte-identical to writing the concatenated arrays with
    :func:`write_tier_file`. Cost: one read and one write of the compressed data.
    """
    if not parts:
        raise ValueError("no chunk files to merge")
    block = parts[0].block
    arrays = {}
    for name in parts[0].arrays:
        offsets_list = [np.zeros(1, dtype=np.uint64)]
        blobs: list[memoryview] = []
        total = 0
        dtype = parts[0].meta["arrays"][name]["dtype"]
        starts = [parts[0].start] + [p.stop for p in parts[:-1]]  # where each chunk must start
        for expected, part in zip(starts, parts, strict=True):
            if part.block != block or part.meta["arrays"][name]["dtype"] != dtype:
                raise StoreError(f"{part.path}: chunk does not match the others ({name})")
            if part is not parts[-1] and (part.stop - part.start) % block:
                raise StoreError(f"{part.path}: chunk ends inside a block")
            if part.start != expected:
                raise StoreError(f"{part.path}: chunks are not consecutive")
            part.verify(name)
            _, offsets, chunk_blobs = part.blobs(name)
            offsets_list.append(offsets[1:] + np.uint64(total))
            blobs.extend(chunk_blobs)
            total += int(offsets[-1])
        offsets_all = np.concatenate(offsets_list)
        arrays[name] = (dtype, offsets_all, blobs, _crc(offsets_all, blobs))
    _, out = _layout(meta, parts[0].start, parts[-1].stop, block, arrays)
    atomic_write_bytes(path, out)
