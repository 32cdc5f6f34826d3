"""Nim's picture: one row of tokens per heap (:mod:`perfectplay.svg.heaps`).

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> d = nim_drawing(load_game("nim", heaps=(1, 2)), (1, 2), {})
>>> d.caption
'heaps 1 2: nim-sum 3'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing
from perfectplay.svg.heaps import LEFT, MAX_TOKENS, STEP, heap_rows

__all__ = ["nim_drawing"]


def nim_drawing(
    game: Game[Any], position: tuple[int, ...], moves: Mapping[str, Any]
) -> Drawing | None:
    """Nim's heaps; a move ``h<i>-<k>`` is marked on heap i's token where taking k starts.

    Returns None (use the text picture) when a heap exceeds
    :data:`~perfectplay.svg.heaps.MAX_TOKENS`. Cost: O(sum of the heaps).
    """
    if max(position, default=0) > MAX_TOKENS:
        return None
    parts = heap_rows(position, moves, lambda i, k: f"h{i + 1}-{k}")
    nim_sum = 0
    for h in position:
        nim_sum ^= h
    caption = f"heaps {' '.join(map(str, position))}: nim-sum {nim_sum}"
    width = LEFT + max(max(position, default=0), 1) * STEP
    return Drawing(width, max(len(position), 1) * STEP, parts, caption)
