"""Checks of what a caller hands Connect Four's tier forms (by stones and by column heights):
a typed board and a tier's ranks, each refused with one line naming what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import InputFormatError

__all__ = ["checked_board", "checked_ranks"]


def checked_ranks(ranks: Sequence[int] | NDArray[Any], size: int, label: str) -> NDArray[np.int64]:
    """`ranks` as a contiguous int64 array, checked to lie in ``0..size-1`` (of tier `label`).

    Raises
    ------
    InputFormatError
        If `ranks` is not one-dimensional or a rank lies outside the tier.
    """
    array = np.ascontiguousarray(ranks, dtype=np.int64)
    if array.ndim != 1:
        raise InputFormatError(f"connect-four ranks must be one-dimensional, got {array.shape}")
    if array.size and not (int(array.min()) >= 0 and int(array.max()) < size):
        raise InputFormatError(
            f"connect-four tier {label}: ranks must lie in 0..{size - 1}, got "
            f"{int(array.min())}..{int(array.max())}"
        )
    return array


def checked_board(position: Any, rows: int, cols: int) -> tuple[str, ...]:
    """`position` as a tuple of `cols` column strings, checked: X and O stones, at most `rows`
    per column, X holding as many stones as O or one more.

    Raises
    ------
    InputFormatError
        Naming the column, or the stone counts, that are wrong.
    """
    if not isinstance(position, tuple | list) or len(position) != cols:
        raise InputFormatError(
            f"a connect-four {rows}x{cols} position is a tuple of {cols} column strings, "
            f"got {position!r}"
        )
    for c, column in enumerate(position):
        if not isinstance(column, str) or set(column) - set("XO") or len(column) > rows:
            raise InputFormatError(
                f"column {c + 1} must be a string of at most {rows} X and O stones, got {column!r}"
            )
    x = sum(column.count("X") for column in position)
    if x - (sum(map(len, position)) - x) not in (0, 1):
        raise InputFormatError(
            f"X moves first: X must have as many stones as O or one more, got {position!r}"
        )
    return tuple(position)
