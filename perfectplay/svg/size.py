"""How much a picture may draw: beyond, nobody could read it.

>>> check_picture_size(MAX_ITEMS, "cells")
"""

from __future__ import annotations

from perfectplay.errors import PictureTooLargeError

__all__ = ["MAX_ITEMS", "check_picture_size"]

MAX_ITEMS = 2500
"""Most vertices (or cells) a picture draws one by one: beyond, nobody could read it."""


def check_picture_size(count: int, what: str, limit: int = MAX_ITEMS) -> None:
    """Raise PictureTooLargeError if `count` `what` exceed `limit`.

    >>> check_picture_size(3000, "cells")
    Traceback (most recent call last):
    ...
    perfectplay.errors.PictureTooLargeError: 3000 cells are too many to draw (at most 2500)
    """
    if count > limit:
        raise PictureTooLargeError(f"{count} {what} are too many to draw (at most {limit})")
