"""The errors pictures add to :mod:`perfectplay.errors`: both are PerfectPlayErrors (exit 2).

>>> issubclass(PictureTooLargeError, ValueError), issubclass(MissingDependencyError, ImportError)
(True, True)
"""

from __future__ import annotations

from perfectplay.errors import PerfectPlayError

__all__ = ["MAX_ITEMS", "MissingDependencyError", "PictureTooLargeError", "check_picture_size"]

MAX_ITEMS = 2500
"""Most vertices (or cells) a picture draws one by one: beyond, nobody could read it."""


class MissingDependencyError(PerfectPlayError, ImportError):
    """An optional package a feature needs is not installed (the message names it)."""


class PictureTooLargeError(PerfectPlayError, ValueError):
    """The thing to draw has too many parts to read as a picture (the message says how many)."""


def check_picture_size(count: int, what: str, limit: int = MAX_ITEMS) -> None:
    """Raise PictureTooLargeError if `count` `what` exceed `limit`.

    >>> check_picture_size(3000, "cells")
    Traceback (most recent call last):
    ...
    perfectplay.svg.errors.PictureTooLargeError: 3000 cells are too many to draw (at most 2500)
    """
    if count > limit:
        raise PictureTooLargeError(f"{count} {what} are too many to draw (at most {limit})")
