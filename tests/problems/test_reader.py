"""TokenReader: fast integer parsing, words, and errors that name the line, on both paths."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import _tokens
from perfectplay.errors import InputFormatError
from perfectplay.problems import _reader
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


# ---------------------------------------------------------------- the two integer parsers
# Inputs of at most SMALL_INPUT bytes are parsed by regular expressions (no numba import), larger
# ones by the numba kernel perfectplay._tokens.parse_ints: both must agree on everything.

# ASCII whitespace, then bytes that are not (though "\x1c", "\xa0", "\x85" are str whitespace),
# digits, signs, junk, and numbers around the 18-digit limit.
_PIECES = st.sampled_from(
    [" ", "\n", "\t", "\r\n", "\x0b", "\x0c", "\x1c", "\xa0", "\x85", "\x00",
     "0", "7", "42", "-", "--", "+", "-5", "007", "x", "#", "1.5", "é",
     "1" * 18, "9" * 19, "-" + "9" * 18, "-" + "1" * 19, "1" * 19 + "x", "1" * 18 + "x"]
)  # fmt: skip


def _inputs() -> st.SearchStrategy[bytes]:
    return st.lists(_PIECES, max_size=40).map(lambda pieces: "".join(pieces).encode("latin-1"))


@contextmanager
def _numba_reader() -> Iterator[None]:
    """TokenReader parses every input with the numba kernel (the path of large inputs)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_reader, "SMALL_INPUT", -1)
        yield


def test_both_parsers_use_the_same_status_codes() -> None:
    codes = (_reader._OK, _reader._BAD_TOKEN, _reader._EOF, _reader._TOO_BIG)
    assert codes == (_tokens.PARSE_OK, _tokens.PARSE_BAD, _tokens.PARSE_END, _tokens.PARSE_TOO_BIG)


@settings(max_examples=300)
@given(_inputs(), st.integers(0, 12), st.integers(0, 50))
def test_regex_parser_is_the_numba_kernel(data: bytes, count: int, start: int) -> None:
    pos = min(start, len(data))
    small = np.full(count, -1, dtype=np.int64)
    large = np.full(count, -1, dtype=np.int64)
    status, end = _reader._parse_ints_small(data, pos, small)
    expected = _tokens.parse_ints(np.frombuffer(data, dtype=np.uint8), pos, large)
    assert (status, end) == tuple(int(x) for x in expected)
    if status == _reader._OK:
        assert small.tolist() == large.tolist()


def _script(reader: TokenReader, steps: list[tuple[str, int, int | None, int | None]]) -> list[str]:
    """Run `steps` on `reader` until one fails: what each returned, then the error and line."""
    log: list[str] = []
    try:
        for kind, count, low, high in steps:
            if kind == "integers":
                log.append(str(reader.integers(count, "values", low=low, high=high).tolist()))
            elif kind == "integer":
                log.append(str(reader.integer("a value", low=low, high=high)))
            elif kind == "word":
                log.append(reader.word("a word"))
            else:
                reader.expect_end()
                log.append("end")
            log.append(f"at {reader.pos}, line {reader.line()}, at_end {reader.at_end()}")
    except InputFormatError as error:
        log.append(f"error line {error.line}: {error}")
    return log


_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["integers", "integer", "word", "end"]),
        st.integers(0, 8),
        st.none() | st.integers(-10, 10),
        st.none() | st.integers(-10, 50),
    ),
    max_size=6,
)


@settings(max_examples=300)
@given(_inputs(), _STEPS)
def test_small_and_large_input_paths_read_and_fail_alike(
    data: bytes, steps: list[tuple[str, int, int | None, int | None]]
) -> None:
    small = _script(TokenReader(data), steps)
    with _numba_reader():
        large = _script(TokenReader(data), steps)
    assert small == large


@given(st.lists(st.integers(-(10**18) + 1, 10**18 - 1), min_size=1, max_size=30), st.data())
def test_both_paths_on_valid_numbers_with_one_bad_token(
    values: list[int], data: st.DataObject
) -> None:
    tokens = [str(v) for v in values]
    bad = data.draw(st.integers(0, len(tokens)))  # len(tokens): no bad token
    if bad < len(tokens):
        tokens[bad] = data.draw(st.sampled_from(["x", "1" * 19, "-1" + "0" * 18, "5-", "0x10"]))
    gaps = [data.draw(separators) for _ in tokens]
    text = "".join(t + gap for t, gap in zip(tokens, gaps, strict=True))
    steps = [("integers", len(tokens), None, None), ("end", 0, None, None)]
    small = _script(TokenReader(text.encode()), steps)
    with _numba_reader():
        assert _script(TokenReader(text.encode()), steps) == small
    if bad == len(tokens):
        # After the last number (its gap is left), on the input's last line, at its end.
        where = f"at {len(text) - len(gaps[-1])}, line {text.count(chr(10)) + 1}, at_end True"
        assert small == [str(values), where, "end", where]
    else:
        line = "".join(t + gap for t, gap in zip(tokens[:bad], gaps[:bad], strict=True))
        assert len(small) == 1
        assert small[0].startswith(f"error line {line.count(chr(10)) + 1}: ")
        assert small[0].endswith(repr(tokens[bad]))


def test_the_small_input_path_ends_at_64_kib(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _reader.SMALL_INPUT == 64 * 1024
    calls: list[str] = []

    def counted(name: str, parse: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            calls.append(name)
            return parse(*args)

        return wrapper

    # TokenReader looks both parsers up at each call (the numba one is imported inside it).
    monkeypatch.setattr(_reader, "_parse_ints_small", counted("regex", _reader._parse_ints_small))
    monkeypatch.setattr(_tokens, "parse_ints", counted("numba", _tokens.parse_ints))
    for size, parser in ((_reader.SMALL_INPUT, "regex"), (_reader.SMALL_INPUT + 1, "numba")):
        # "7 " repeated, the last number padded to make `size` bytes; one bad token at the end.
        count = size // 2 - 1
        text = b"7 " * count + b"x" * (size - 2 * count)
        assert len(text) == size
        reader = TokenReader(text)
        calls.clear()
        assert reader.integers(count, "sevens").tolist() == [7] * count
        with pytest.raises(InputFormatError, match=r"line 1: expected an integer \(more\)"):
            reader.integer("more")
        assert calls == [parser, parser]
