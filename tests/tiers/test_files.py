"""Tier files: round trips, merged chunks byte-identical to one write, damage always refused."""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from perfectplay.errors import StoreError
from perfectplay.tiers.files import (
    MAGIC,
    TierFile,
    damage,
    merge_tier_files,
    write_tier_file,
)
from perfectplay.tiers.records import RECORD_DTYPES

META = {"tier": 7, "label": "7", "max_remoteness": 9, "stored": 3}


def arrays_of(
    draw: Callable[[st.SearchStrategy[Any]], Any], n: int, dtype: type[np.unsignedinteger]
) -> dict[str, NDArray[Any]]:
    """Records of `dtype` (runs of equal values, so that blocks compress) and scores."""
    top = int(np.iinfo(dtype).max)
    values = draw(st.lists(st.sampled_from([0, 1, 2, top]), min_size=n, max_size=n))
    scores = draw(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n))
    return {"records": np.array(values, dtype=dtype), "scores": np.array(scores, dtype=np.int64)}


def read_all(path: str) -> tuple[dict[str, Any], dict[str, list[int]], dict[str, list[int]]]:
    """The header, every array read whole, and every array read rank by rank with get()."""
    with TierFile(path) as f:
        whole = {name: f.read(name).tolist() for name in f.arrays}
        ranks = range(f.start, f.stop)
        one_by_one = {name: [int(f.get(name, r)) for r in ranks] for name in f.arrays}
        return f.meta, whole, one_by_one


@settings(max_examples=40)
@given(st.sampled_from(RECORD_DTYPES), st.integers(0, 60), st.integers(1, 9), st.data())
def test_a_tier_file_reads_back_what_was_written(
    tmp_path_factory: pytest.TempPathFactory,
    dtype: type[np.unsignedinteger],
    n: int,
    block: int,
    data: st.DataObject,
) -> None:
    arrays = arrays_of(data.draw, n, dtype)
    start = data.draw(st.integers(0, 1000), label="start")
    path = str(tmp_path_factory.mktemp("rt") / "t.tier")
    write_tier_file(path, META, start, start + n, block, arrays)
    meta, whole, one_by_one = read_all(path)
    expected = {name: a.tolist() for name, a in arrays.items()}
    assert whole == expected
    assert one_by_one == expected
    assert {k: meta[k] for k in META} == META
    assert (meta["start"], meta["stop"], meta["block"]) == (start, start + n, block)
    with TierFile(path) as f:
        assert f.read("records").dtype == dtype
        assert f.read("scores").dtype == np.int64


def test_the_same_arrays_give_the_same_bytes(tmp_path: Path) -> None:
    arrays = {"records": np.arange(100, dtype=np.uint16) % 7}
    first, second = str(tmp_path / "a.tier"), str(tmp_path / "b.tier")
    write_tier_file(first, META, 0, 100, 8, arrays)
    write_tier_file(second, META, 0, 100, 8, {"records": arrays["records"].copy()})
    assert Path(first).read_bytes() == Path(second).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.tier", "b.tier"]  # no temporaries


@settings(max_examples=30)
@given(
    st.sampled_from(RECORD_DTYPES),
    st.integers(1, 4),
    st.lists(st.integers(1, 4), min_size=1, max_size=5),
    st.integers(0, 3),
    st.booleans(),
    st.data(),
)
def test_merged_chunk_files_equal_one_write_of_the_whole_tier(
    tmp_path_factory: pytest.TempPathFactory,
    dtype: type[np.unsignedinteger],
    block: int,
    chunk_blocks: list[int],
    tail: int,
    scored: bool,
    data: st.DataObject,
) -> None:
    # Every chunk but the last covers whole blocks (as the engine cuts them).
    sizes = [k * block for k in chunk_blocks]
    sizes[-1] += tail
    n = sum(sizes)
    arrays = arrays_of(data.draw, n, dtype)
    if not scored:
        del arrays["scores"]
    folder = tmp_path_factory.mktemp("merge")
    parts, lo = [], 0
    for i, size in enumerate(sizes):
        path = str(folder / f"{i}.tier")
        chunk = {name: a[lo : lo + size] for name, a in arrays.items()}
        write_tier_file(path, {"chunk": i}, lo, lo + size, block, chunk)
        parts.append(TierFile(path))
        lo += size
    merged, whole = str(folder / "merged.tier"), str(folder / "whole.tier")
    try:
        merge_tier_files(merged, META, parts)
    finally:
        for part in parts:
            part.close()
    write_tier_file(whole, META, 0, n, block, arrays)
    assert Path(merged).read_bytes() == Path(whole).read_bytes()


def test_merging_refuses_chunks_that_do_not_fit_together(tmp_path: Path) -> None:
    def chunk(name: str, lo: int, hi: int, block: int = 4) -> TierFile:
        path = str(tmp_path / name)
        write_tier_file(path, {}, lo, hi, block, {"records": np.zeros(hi - lo, np.uint8)})
        return TierFile(path)

    cases = [
        ([chunk("a", 0, 6), chunk("b", 6, 8)], "ends inside a block"),
        ([chunk("c", 0, 4), chunk("d", 8, 12)], "not consecutive"),
        ([chunk("e", 0, 4), chunk("f", 4, 8, block=2)], "does not match"),
    ]
    for parts, why in cases:
        with pytest.raises(StoreError, match=why):
            merge_tier_files(str(tmp_path / "out.tier"), META, parts)
        for part in parts:
            part.close()
    assert not (tmp_path / "out.tier").exists()


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Any]:
    """A small scored tier file of 5 blocks per array, its bytes and what it reads back as."""
    rng = np.random.default_rng(1)
    arrays: dict[str, NDArray[Any]] = {
        "records": rng.integers(0, 40, 37).astype(np.uint8),
        "scores": rng.integers(-5, 5, 37).astype(np.int64),
    }
    path = str(tmp_path_factory.mktemp("small") / "t.tier")
    write_tier_file(path, META, 0, 37, 8, arrays)
    return Path(path).read_bytes(), read_all(path)


def damaged_versions(good: bytes) -> list[tuple[str, bytes]]:
    """Every single-byte change by three masks (one bit, a case bit, all bits), every
    truncation, and the empty file."""
    out = []
    for i in range(len(good)):
        for mask in (0x01, 0x20, 0xFF):
            data = bytearray(good)
            data[i] ^= mask
            out.append((f"byte {i} ^ {mask:#x}", bytes(data)))
    out += [(f"truncated to {n} bytes", good[:n]) for n in range(len(good))]
    return out


def test_no_damaged_tier_file_reads_back_as_other_data(
    tmp_path: Path, small_file: tuple[bytes, Any]
) -> None:
    good, expected = small_file
    path = str(tmp_path / "t.tier")
    accepted = []
    for what, data in damaged_versions(good):
        Path(path).unlink(missing_ok=True)  # a new file each time: ext4 flushes an overwritten one
        Path(path).write_bytes(data)
        try:
            got = read_all(path)
        except StoreError as error:
            assert path in str(error), what
            continue
        assert got == expected, f"{what}: read back as other data"
        accepted.append(what)
    # Accepted damage must be harmless (none at all so far: the header has its own CRC).
    assert accepted == []


def test_damage_finds_every_changed_byte_and_every_truncation(
    tmp_path: Path, small_file: tuple[bytes, Any]
) -> None:
    # What a resumed solve relies on to recompute a damaged chunk file instead of failing.
    good, _ = small_file
    path = tmp_path / "t.tier"
    path.write_bytes(good)
    assert damage(str(path)) is None
    missed = []
    for what, data in damaged_versions(good):
        path.unlink()
        path.write_bytes(data)
        why = damage(str(path))
        if why is None:
            missed.append(what)
        else:
            assert why.startswith(f"{path}: ") and "\n" not in why, what
    assert missed == []
    path.unlink()
    assert damage(str(path)) == f"{path}: no such tier file"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "cannot read"),
        (b"PPTIER", "bad magic"),
        (b"GARBAGE!" + bytes(64), "bad magic"),
        (MAGIC + struct.pack("<II", 10**6, 0), "header past the end"),
    ],
)
def test_files_that_are_no_tier_files_are_refused(tmp_path: Path, data: bytes, why: str) -> None:
    path = tmp_path / "x.tier"
    path.write_bytes(data)
    with pytest.raises(StoreError, match=why) as error:
        TierFile(str(path))
    assert str(path) in str(error.value)


def test_a_missing_file_or_array_is_named(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such tier file"):
        TierFile(str(tmp_path / "none.tier"))
    path = str(tmp_path / "t.tier")
    write_tier_file(path, META, 0, 3, 2, {"records": np.zeros(3, np.uint8)})
    with TierFile(path) as f, pytest.raises(StoreError, match="no array 'scores'"):
        f.read("scores")


def test_a_header_whose_json_is_damaged_but_checksummed_is_refused(tmp_path: Path) -> None:
    # A header with a valid CRC but missing fields (a writer's bug, not a flipped bit).
    text = b'{"arrays": {}}'
    text += b" " * (-len(text) % 8)
    path = tmp_path / "t.tier"
    path.write_bytes(MAGIC + struct.pack("<II", len(text), zlib.crc32(text)) + text)
    with pytest.raises(StoreError, match="bad header"):
        TierFile(str(path))


def test_arrays_of_the_wrong_length_are_refused_before_writing(tmp_path: Path) -> None:
    path = str(tmp_path / "t.tier")
    with pytest.raises(ValueError, match="records"):
        write_tier_file(path, META, 0, 4, 2, {"records": np.zeros(3, np.uint8)})
    assert os.listdir(tmp_path) == []


def test_get_outside_the_range_is_an_index_error(tmp_path: Path) -> None:
    path = str(tmp_path / "t.tier")
    write_tier_file(path, META, 10, 13, 2, {"records": np.arange(3, dtype=np.uint8)})
    with TierFile(path) as f:
        assert [int(f.get("records", r)) for r in (10, 11, 12)] == [0, 1, 2]
        for rank in (9, 13):
            with pytest.raises(IndexError, match=str(rank)):
                f.get("records", rank)


def test_regression_get_answered_from_a_damaged_block_without_its_checksum(
    tmp_path: Path,
) -> None:
    # Blocks Zstandard stores raw: a flipped payload byte decompressed to another record.
    records = np.arange(64, dtype=np.uint8)
    path = tmp_path / "t.tier"
    write_tier_file(str(path), META, 0, 64, 64, {"records": records})
    data = bytearray(path.read_bytes())
    at = data.rindex(records[40:48].tobytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))
    with TierFile(str(path)) as f, pytest.raises(StoreError, match="checksum"):
        f.get("records", 40)


def test_regression_a_damaged_header_field_was_read_silently(tmp_path: Path) -> None:
    path = tmp_path / "t.tier"
    write_tier_file(str(path), META, 0, 4, 2, {"records": np.zeros(4, np.uint8)})
    data = path.read_bytes().replace(b'"max_remoteness": 9', b'"max_remoteness": 1')
    path.write_bytes(data)
    with pytest.raises(StoreError, match="checksum mismatch in the header"):
        TierFile(str(path))


def test_regression_closing_after_a_failed_read_raised_buffer_error(tmp_path: Path) -> None:
    # A failed read inside `with` left views of the map alive in the traceback; closing the
    # map then raised BufferError in place of the StoreError.
    path = tmp_path / "t.tier"
    write_tier_file(str(path), META, 0, 64, 8, {"records": np.arange(64, dtype=np.uint8)})
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="checksum"), TierFile(str(path)) as f:
        f.read("records")


def test_files_of_format_version_1_are_still_read(tmp_path: Path) -> None:
    # Version 1 had a uint64 header length where version 2 has the length and the header's
    # CRC-32: the same 16 bytes before the header, so the rest of the file is unchanged.
    path = tmp_path / "t.tier"
    arrays: dict[str, NDArray[Any]] = {
        "records": np.arange(20, dtype=np.uint16),
        "scores": -np.arange(20, dtype=np.int64),
    }
    write_tier_file(str(path), META, 0, 20, 8, arrays)
    data = path.read_bytes()
    (length,) = struct.unpack("<I", data[8:12])
    path.write_bytes(b"PPTIER\x00\x01" + struct.pack("<Q", length) + data[16:])
    meta, whole, one_by_one = read_all(str(path))
    assert whole == one_by_one == {name: a.tolist() for name, a in arrays.items()}
    assert {k: meta[k] for k in META} == META
