"""The kernel that plays a sequence of columns, against a replay in Python integers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.games.connect_four._sequence_kernels import played


def _replay(digits: str, rows: int, cols: int) -> tuple[int, int, int]:
    """``(status, mask, x)`` by the rules: a column per move, the game over once a player has
    four in a row (tested after every move, on the mover's stones, one direction at a time)."""
    height = rows + 1
    heights = [0] * cols
    stones = [0, 0]  # X's, O's
    for k, digit in enumerate(digits):
        c = ord(digit) - ord("1")
        if not 0 <= c < cols or heights[c] == rows:
            return -1, 0, 0
        if any(_four(s, height) for s in stones):
            return -1, 0, 0
        stones[k % 2] |= 1 << (c * height + heights[c])
        heights[c] += 1
    return 0, stones[0] | stones[1], stones[0]


def _four(stones: int, height: int) -> bool:
    return any(
        all(stones >> (i + j * d) & 1 for j in range(4))
        for d in (1, height, height + 1, height - 1)
        for i in range(stones.bit_length())
    )


@st.composite
def _sequences(draw: st.DrawFn) -> tuple[str, int, int]:
    """A board of at most 64 bits whose columns hold at most 16 bits (where the kernels' four
    tests every direction), and digits mostly played legally, sometimes past the end."""
    rows = draw(st.integers(1, 15))
    cols = draw(st.integers(1, min(9, 64 // (rows + 1))))
    columns = st.integers(1, cols) if draw(st.booleans()) else st.integers(0, 9)
    digits = "".join(map(str, draw(st.lists(columns, max_size=rows * cols + 2))))
    return digits, rows, cols


@settings(max_examples=600, deadline=None)
@given(_sequences())
def test_the_kernel_plays_what_the_rules_play(case: tuple[str, int, int]) -> None:
    digits, rows, cols = case
    status, mask, x = played(digits.encode(), rows, cols)
    expected = _replay(digits, rows, cols)
    assert status == expected[0]
    if status == 0:
        assert (mask, x) == expected[1:]


def test_a_full_last_column_of_a_64_bit_board_is_refused() -> None:
    """7 x 8 fills all 64 bits (the guard row of the last column is bit 63): an eighth stone
    in that column carries into the sign bit, and is still seen as a full column."""
    assert played(b"8" * 7, 7, 8)[0] == 0
    assert played(b"8" * 8, 7, 8)[0] == -1
    assert played(b"1234567" * 2, 7, 8)[1] == 0b11 * sum(1 << (8 * c) for c in range(7))
