"""Records: value and remoteness packed in one unsigned integer, "no position" as 0."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import TooLargeError
from perfectplay.tiers.records import NO_POSITION, RECORD_DTYPES, pack, record_dtype, unpack
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

VALUES = [LOSE, DRAW, TIE, WIN, UNDECIDED]


@st.composite
def solved_ranks(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, type[np.unsignedinteger]]:
    """Values (some UNDECIDED: no position) and remoteness fitting a drawn record dtype."""
    dtype = draw(st.sampled_from(RECORD_DTYPES))
    top = (int(np.iinfo(dtype).max) - 4) // 4
    n = draw(st.integers(0, 40))
    value = np.array(draw(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n)), np.uint8)
    rem = np.array(draw(st.lists(st.integers(0, top), min_size=n, max_size=n)), np.int64)
    rem[(value == DRAW) | (value == UNDECIDED)] = NO_REMOTENESS
    return value, rem, dtype


@given(solved_ranks())
def test_unpack_inverts_pack(case: tuple[np.ndarray, np.ndarray, type[np.unsignedinteger]]) -> None:
    value, rem, dtype = case
    records = pack(value, rem, dtype)
    assert records.dtype == dtype
    assert ((records == NO_POSITION) == (value == UNDECIDED)).all()
    back_value, back_rem = unpack(records)
    assert back_value.tolist() == value.tolist()
    assert back_rem.tolist() == rem.tolist()


@given(solved_ranks())
def test_records_order_remoteness_within_a_value(
    case: tuple[np.ndarray, np.ndarray, type[np.unsignedinteger]],
) -> None:
    value, rem, dtype = case
    records = pack(value, rem, dtype).astype(np.int64)
    decided = (value != UNDECIDED) & (value != DRAW)
    for v in (LOSE, TIE, WIN):
        same = decided & (value == v)
        order = np.argsort(rem[same], kind="stable")
        assert (np.diff(records[same][order]) >= 0).all()


@pytest.mark.parametrize("dtype", RECORD_DTYPES)
def test_record_dtype_is_the_narrowest_that_holds_the_largest_record(
    dtype: type[np.unsignedinteger],
) -> None:
    top = (int(np.iinfo(dtype).max) - 4) // 4  # largest remoteness whose WIN record fits
    assert record_dtype(top) is dtype
    wider = RECORD_DTYPES.index(dtype) + 1
    if wider < len(RECORD_DTYPES):
        assert record_dtype(top + 1) is RECORD_DTYPES[wider]
    records = pack(np.array([WIN, LOSE], np.uint8), np.array([top, top]), dtype)
    assert unpack(records)[1].tolist() == [top, top]


def test_record_dtype_refuses_remoteness_past_32_bits() -> None:
    top = (int(np.iinfo(np.uint32).max) - 4) // 4
    with pytest.raises(TooLargeError, match=str(top + 1)):
        record_dtype(top + 1)


def test_a_draw_has_no_remoteness_and_no_position_reads_back_undecided() -> None:
    records = pack(np.array([DRAW, UNDECIDED], np.uint8), np.array([-1, -1]), np.uint8)
    assert records.tolist() == [1 + DRAW, NO_POSITION]
    value, rem = unpack(records)
    assert value.tolist() == [DRAW, UNDECIDED]
    assert rem.tolist() == [NO_REMOTENESS, NO_REMOTENESS]
