"""How much a picture may draw (perfectplay.svg.size): refused exactly beyond its limit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import PictureTooLargeError
from perfectplay.svg.size import MAX_ITEMS, check_picture_size


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
