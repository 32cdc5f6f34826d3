"""TokenReader: fast integer parsing, words, and errors that name the line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.problems._reader import TokenReader

separators = st.sampled_from([" ", "\n", "\t", "  ", "\r\n", " \n "])


@given(
    st.lists(st.integers(-(10**18) + 1, 10**18 - 1), max_size=50),
    st.data(),
)
def test_integers_round_trip_with_any_whitespace(values: list[int], data: st.DataObject) -> None:
    text = "".join(str(v) + data.draw(separators) for v in values)
    reader = TokenReader(text.encode())
    assert reader.integers(len(values), "values").tolist() == values
    assert reader.at_end()


@given(st.lists(st.integers(0, 99), min_size=1, max_size=30), st.data())
def test_bad_token_error_names_its_line(values: list[int], data: st.DataObject) -> None:
    bad = data.draw(st.integers(0, len(values) - 1))
    tokens = [str(v) for v in values]
    tokens[bad] = data.draw(st.sampled_from(["x", "1x", "--1", "1.5", "-"]))
    text = "\n".join(tokens)
    with pytest.raises(InputFormatError) as info:
        TokenReader(text.encode()).integers(len(values), "a number")
    assert info.value.line == bad + 1
    assert repr(tokens[bad]) in str(info.value)


def test_end_of_input_names_what_was_expected() -> None:
    with pytest.raises(InputFormatError, match=r"line 1: input ends early: expected 3 edges"):
        TokenReader(b"1 2\n").integers(3, "3 edges")
    with pytest.raises(InputFormatError, match="input ends early: expected a grid row"):
        TokenReader(b"  \n").word("a grid row")


@pytest.mark.parametrize(
    ("text", "line"),
    [(b"", 1), (b"\n\n", 1), (b"1\n2\n3\n", 3), (b"1\n2\n3\n\n  \n", 3), (b"7", 1)],
)
def test_end_of_input_names_the_last_line_with_content(text: bytes, line: int) -> None:
    with pytest.raises(InputFormatError, match="input ends early") as info:
        TokenReader(text).integers(4, "four numbers")
    assert info.value.line == line
    reader = TokenReader(text)
    while not reader.at_end():
        reader.integer("a number")
    with pytest.raises(InputFormatError, match="input ends early") as info:
        reader.word("a word")
    assert info.value.line == line


@pytest.mark.parametrize("count", [4, 10**6, 10**12, 2**62])
def test_huge_count_in_a_short_input_is_refused_before_allocating(count: int) -> None:
    with pytest.raises(InputFormatError, match=r"line 2: input ends early: expected the edges"):
        TokenReader(b"1 2\n3\n").integers(count, "the edges")
    with pytest.raises(
        InputFormatError, match=r"line 1: expected an integer \(the edges\), got 'x'"
    ):
        TokenReader(b"1 x\n3\n").integers(count, "the edges")


def test_range_check_reports_value_and_line() -> None:
    reader = TokenReader(b"1 2\n3 9\n4 5\n")
    with pytest.raises(InputFormatError, match=r"line 2: vertex: 9 is out of range 1\.\.5"):
        reader.integers(6, "vertex", low=1, high=5)
    assert reader.pos == 0, "a failed read must not consume input"


def test_numbers_with_more_than_18_digits_are_refused() -> None:
    with pytest.raises(InputFormatError, match="number too large"):
        TokenReader(b"1234567890123456789").integer("n")


def test_expect_end_rejects_trailing_tokens() -> None:
    reader = TokenReader(b"1\n2\n\njunk\n")
    reader.integers(2, "values")
    with pytest.raises(InputFormatError, match=r"line 4: unexpected extra input 'junk'"):
        reader.expect_end()


def test_words_and_integers_interleave() -> None:
    reader = TokenReader(b"2 3\n.#.\n#..\n")
    assert (reader.integer("rows"), reader.integer("cols")) == (2, 3)
    assert [reader.word("row"), reader.word("row")] == [".#.", "#.."]
    assert reader.line() == 4


def test_large_input_is_parsed_in_one_call() -> None:
    values = np.arange(200_000, dtype=np.int64) * 7 - 5
    reader = TokenReader(" ".join(map(str, values.tolist())).encode())
    assert np.array_equal(reader.integers(values.size, "values"), values)
