"""Connect Four boards by brute force, for the tests of the game's tier forms."""

from __future__ import annotations


def four(board: tuple[str, ...], rows: int, stone: str) -> bool:
    """Whether `stone` has four in a row on `board` (columns bottom up, cell by cell)."""
    cols = len(board)

    def at(c: int, r: int) -> bool:
        return 0 <= c < cols and 0 <= r < len(board[c]) and board[c][r] == stone

    return any(
        all(at(c + i * dc, r + i * dr) for i in range(4))
        for c in range(cols)
        for r in range(rows)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    )


def bitboards_of(board: tuple[str, ...], rows: int) -> tuple[int, int]:
    """The X and O bitboards of `board`, cell by cell (bit ``c * (rows + 1) + r``)."""
    xs = os = 0
    for c, column in enumerate(board):
        for r, stone in enumerate(column):
            if stone == "X":
                xs |= 1 << (c * (rows + 1) + r)
            else:
                os |= 1 << (c * (rows + 1) + r)
    return xs, os
