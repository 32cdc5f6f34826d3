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
