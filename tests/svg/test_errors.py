"""The errors pictures add (perfectplay.svg.errors): their builtins and the size check."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import PerfectPlayError
from perfectplay.svg.errors import (
    MAX_ITEMS,
    MissingDependencyError,
    PictureTooLargeError,
    check_picture_size,
)


def test_each_error_is_a_perfectplay_error_and_the_builtin_it_refines() -> None:
    assert issubclass(PictureTooLargeError, PerfectPlayError)
    assert issubclass(PictureTooLargeError, ValueError)
    assert issubclass(MissingDependencyError, PerfectPlayError)
    assert issubclass(MissingDependencyError, ImportError)
    with pytest.raises(ImportError):
        raise MissingDependencyError("cairosvg is not installed")


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_picture_is_refused_exactly_beyond_its_limit(count: int, limit: int) -> None:
    if count <= limit:
        check_picture_size(count, "vertices", limit)
        return
    with pytest.raises(PictureTooLargeError) as error:
        check_picture_size(count, "vertices", limit)
    assert str(error.value) == f"{count} vertices are too many to draw (at most {limit})"


def test_the_default_limit_is_max_items() -> None:
    check_picture_size(MAX_ITEMS, "cells")
    with pytest.raises(PictureTooLargeError, match=f"at most {MAX_ITEMS}"):
        check_picture_size(MAX_ITEMS + 1, "cells")
