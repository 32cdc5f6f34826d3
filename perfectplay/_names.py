"""How registered names (games, problems) are matched: one rule for every registry."""

from __future__ import annotations

__all__ = ["normalise_name"]


def normalise_name(name: str) -> str:
    """`name` as registries compare it: ignoring case, surrounding blanks and ``_`` vs ``-``.

    >>> normalise_name(" Make_You_Happy ")
    'make-you-happy'
    """
    return name.strip().lower().replace("_", "-")
