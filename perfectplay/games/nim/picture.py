"""Heaps of tokens (Nim, subtraction games): one row of tokens per heap.

Taking ``k`` tokens from a heap of ``h`` removes its last ``k`` tokens, so the move is marked
on the token where the removal starts (the ``h - k + 1``-th from the left): that token is
coloured by the move's value and carries its value initial and remoteness. Tokens whose
removal is not a legal move are grey.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> d = nim_drawing(load_game("nim", heaps=(1, 2)), (1, 2), {})
>>> d.caption
'heaps 1 2: nim-sum 3'
>>> subtraction_drawing(load_game("subtraction", heap=500), 500, {}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, el, move_mark, tag
from perfectplay.svg.palette import INK, value_colour

__all__ = ["MAX_TOKENS", "nim_drawing", "subtraction_drawing"]

MAX_TOKENS = 40
"""Largest heap drawn token by token; larger heaps fall back to the text picture."""
_STEP = 44.0
_RADIUS = 18.0
_LEFT = 92.0


def _heaps(
    heaps: Sequence[int], moves: Mapping[str, Any], label: Callable[[int, int], str]
) -> list[str]:
    parts: list[str] = []
    for i, h in enumerate(heaps):
        cy = (i + 0.5) * _STEP
        parts.append(el("text", f"heap {i + 1}: {h}", x=0, y=cy + 5, font_size=13, fill=INK))
        for j in range(h):
            cx = _LEFT + (j + 0.5) * _STEP
            move = moves.get(label(i, h - j))
            if move is None:
                parts.append(el("circle", cx=cx, cy=cy, r=_RADIUS, fill="#BBBBBB", stroke=INK))
                continue
            parts.append(
                move_mark(
                    move,
                    [
                        el(
                            "circle",
                            cx=cx,
                            cy=cy,
                            r=_RADIUS,
                            fill=value_colour(move.value),
                            stroke=INK,
                        ),
                        tag(move, cx, cy, 12),
                    ],
                )
            )
    return parts


def nim_drawing(
    game: Game[Any], position: tuple[int, ...], moves: Mapping[str, Any]
) -> Drawing | None:
    """Nim's heaps; a move ``h<i>-<k>`` is marked on heap i's token where taking k starts.

    Returns None (use the text picture) when a heap exceeds :data:`MAX_TOKENS`. Cost: O(sum
    of the heaps).
    """
    if max(position, default=0) > MAX_TOKENS:
        return None
    parts = _heaps(position, moves, lambda i, k: f"h{i + 1}-{k}")
    nim_sum = 0
    for h in position:
        nim_sum ^= h
    caption = f"heaps {' '.join(map(str, position))}: nim-sum {nim_sum}"
    width = _LEFT + max(max(position, default=0), 1) * _STEP
    return Drawing(width, max(len(position), 1) * _STEP, parts, caption)


def subtraction_drawing(game: Game[Any], position: int, moves: Mapping[str, Any]) -> Drawing | None:
    """The one heap of a subtraction game; move ``k`` (take k) marked where the removal starts.

    Returns None when the heap exceeds :data:`MAX_TOKENS`. Cost: O(heap).
    """
    if position > MAX_TOKENS:
        return None
    take = ", ".join(map(str, game.info.params["take"]))
    parts = _heaps([position], moves, lambda i, k: str(k))
    caption = f"{position} tokens; a move takes one of {{{take}}}"
    return Drawing(_LEFT + max(position, 1) * _STEP, _STEP, parts, caption)
