"""The subtraction game's picture: its one heap as a row of tokens (:mod:`perfectplay.svg.heaps`).

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> drawing(load_game("subtraction", heap=5), 5, {}).caption
'5 tokens; a move takes one of {1, 2, 3}'
>>> drawing(load_game("subtraction", heap=500), 500, {}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing
from perfectplay.svg.heaps import LEFT, MAX_TOKENS, STEP, heap_rows

__all__ = ["drawing"]


def drawing(game: Game[Any], position: int, moves: Mapping[str, Any]) -> Drawing | None:
    """The heap; move ``k`` (take k) marked on the token where the removal starts.

    Returns None when the heap exceeds :data:`~perfectplay.svg.heaps.MAX_TOKENS`.
    Cost: O(heap).
    """
    if position > MAX_TOKENS:
        return None
    take = ", ".join(map(str, game.info.params["take"]))
    parts = heap_rows([position], moves, lambda i, k: str(k))
    caption = f"{position} tokens; a move takes one of {{{take}}}"
    return Drawing(LEFT + max(position, 1) * STEP, STEP, parts, caption)
