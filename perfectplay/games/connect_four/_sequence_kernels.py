"""numba kernel of Connect Four's moves typed as digits (:meth:`.rules.ConnectFour.parse`).

A sequence is the 1-based columns played from the start, one ASCII digit per move, given as
bytes; it is played on bitboards of one word (``(rows + 1) * cols <= 64``, the layout of
:mod:`._bitboard`: the top bit of the word, if the board reaches it, is a guard bit, so every
stone fits an int64). The kernel only says whether the sequence can be played; the rules name
the first move that cannot, by replaying it in Python.

>>> status, mask, x = played(b"4453", 6, 7)  # X in d then e, O on X's first stone then in c
>>> status, mask == 1 << 14 | 1 << 21 | 1 << 22 | 1 << 28, x == 1 << 21 | 1 << 28
(0, True, True)
>>> played(b"1111", 3, 1)[0], played(b"18", 6, 7)[0]  # a full column, no column 8
(-1, -1)
"""

from __future__ import annotations

import numba as nb

from perfectplay.games.connect_four._bitboard import four

__all__ = ["played"]


@nb.njit(cache=True)
def played(digits: bytes, rows: int, cols: int) -> tuple[int, int, int]:
    """``(status, mask, x)`` after the columns `digits` (ASCII ``1`` to ``9``, 1-based) are
    played on a board of `rows` x `cols`: status 0 and every stone and X's stones if every move
    can be played, else status -1 (a character that is no column, a full column, or a move
    after a four).

    A four is looked for on the final stones only (stones stay, so a four stays): the last
    mover's stones without the last stone, and the other player's stones. Cost: a few bit
    operations per move, plus two tests of four in a row.
    """
    height = rows + 1
    mask = x = stone = 0  # int64 in numba: a full last column of 64 bits carries into the sign
    cells = (1 << rows) - 1
    for k in range(len(digits)):
        c = digits[k] - 49
        if c < 0 or c >= cols:
            return -1, mask, x
        base = c * height
        stone = (mask + (1 << base)) & (cells << base)  # 0 if the column is full
        if stone == 0:
            return -1, mask, x
        mask |= stone
        if k % 2 == 0:
            x |= stone
    if len(digits) > 7:  # four stones of one player need 7 moves
        last = x if len(digits) % 2 == 1 else mask ^ x
        if four(mask ^ last, height) or four(last ^ stone, height):
            return -1, mask, x
    return 0, mask, x
