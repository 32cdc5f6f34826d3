"""Dask opened for any engine (perfectplay._dask): the --dask spellings, each checked."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay._dask import parse_dask
from perfectplay.errors import InputFormatError


def _twin(spec: str) -> tuple[int, int] | str | None:
    """The spellings by hand: local:N or local:NxT with N, T >= 1, or tcp:// / tls:// + more."""
    if spec.startswith("local:"):
        workers, _, threads = spec[len("local:") :].partition("x")
        if not workers.isascii() or not workers.isdigit() or int(workers) < 1:
            return None
        if "x" not in spec[len("local:") :]:
            return int(workers), 1
        if not threads.isascii() or not threads.isdigit() or int(threads) < 1:
            return None
        return int(workers), int(threads)
    if spec.startswith(("tcp://", "tls://")) and len(spec) > len("tcp://"):
        return spec
    return None


specs = st.one_of(
    st.from_regex(r"local:[0-9x]{0,5}", fullmatch=True),
    st.from_regex(r"(tcp|tls|udp)://[a-z0-9.:]{0,12}", fullmatch=True),
    st.text("local:0123x", max_size=10),
)


@given(specs)
def test_parse_dask_accepts_exactly_the_documented_spellings(spec: str) -> None:
    expected = _twin(spec)
    if expected is None:
        with pytest.raises(InputFormatError, match="--dask takes local:N or local:NxT") as error:
            parse_dask(spec)
        assert repr(spec) in str(error.value) and "\n" not in str(error.value)
    else:
        assert parse_dask(spec) == expected


def test_examples() -> None:
    assert parse_dask("local:3") == (3, 1) and parse_dask("local:2x4") == (2, 4)
    assert parse_dask("tls://scheduler:8786") == "tls://scheduler:8786"
    for bad in ("local:0", "local:1x0", "tcp://", "8786", "local:", "local:1x"):
        with pytest.raises(InputFormatError):
            parse_dask(bad)
