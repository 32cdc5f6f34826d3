"""Heaps of tokens drawn as rows (Nim, the subtraction game): one row of tokens per heap.

Taking ``k`` tokens from a heap of ``h`` removes its last ``k`` tokens, so the move is marked
on the token where the removal starts (the ``h - k + 1``-th from the left): that token is
coloured by the move's value and carries its value initial and remoteness. Tokens whose
removal is not a legal move are grey.

>>> rows = heap_rows([2], {}, lambda i, k: str(k))
>>> len(rows), rows[0].startswith("<text")
(3, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from perfectplay.svg.elements import el, move_mark, tag
from perfectplay.svg.palette import INK, value_colour

__all__ = ["LEFT", "MAX_TOKENS", "STEP", "heap_rows"]

MAX_TOKENS = 40
"""Largest heap drawn token by token; larger heaps fall back to the text picture."""
STEP = 44.0
"""Distance between the centres of two tokens, and between two rows."""
LEFT = 92.0
"""Width of the heap captions left of the tokens."""
_RADIUS = 18.0


def heap_rows(
    heaps: Sequence[int], moves: Mapping[str, Any], label: Callable[[int, int], str]
) -> list[str]:
    """The elements of one row per heap; `label(i, k)` is the label of taking ``k`` tokens
    from heap ``i`` (0-based), looked up in `moves` (label -> move with its value).

    Cost: O(sum of the heaps).
    """
    parts: list[str] = []
    for i, h in enumerate(heaps):
        cy = (i + 0.5) * STEP
        parts.append(el("text", f"heap {i + 1}: {h}", x=0, y=cy + 5, font_size=13, fill=INK))
        for j in range(h):
            cx = LEFT + (j + 0.5) * STEP
            move = moves.get(label(i, h - j))
            if move is None:
                parts.append(el("circle", cx=cx, cy=cy, r=_RADIUS, fill="#BBBBBB", stroke=INK))
                continue
            circle = el(
                "circle", cx=cx, cy=cy, r=_RADIUS, fill=value_colour(move.value), stroke=INK
            )
            parts.append(move_mark(move, [circle, tag(move, cx, cy, 12)]))
    return parts
