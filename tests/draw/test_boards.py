"""Board pictures (perfectplay.draw.boards): mazes and knights' boards with D(G) and a maximum
matching as brute force finds them, two-token arrows that are legal moves valued as brute force."""

from __future__ import annotations

import numpy as np
import pytest
from brute import (
    brute_two_tokens,
    gallai_edmonds_d,
)
from draw_helpers import brute_cells, check_matching, drawn, parsed
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.draw.boards import _cell_size, grid_svg, knights_svg, two_tokens_svg
from perfectplay.errors import PictureTooLargeError


@settings(deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_maze_cells_in_d_are_the_brute_force_d(rows: int, cols: int, data: st.DataObject) -> None:
    free = np.array(
        data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    ).reshape(rows, cols)
    in_d, matching, _ = drawn(grid_svg(free, title="maze"))
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(free), strict=True)]
    index = {cell: k for k, cell in enumerate(cells)}
    edges = [
        (index[(r, c)], index[(r + dr, c + dc)])
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in index
    ]
    assert [in_d[k] for k in range(len(cells))] == gallai_edmonds_d(len(cells), edges)
    check_matching(len(cells), edges, matching)


def test_one_knight_picture_matches_the_knight_graph() -> None:
    free = np.ones((4, 4), dtype=bool)
    free[0, 0] = False
    in_d, matching, _ = drawn(knights_svg(free, title="k"))
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(free), strict=True)]
    index = {cell: k for k, cell in enumerate(cells)}
    jumps = [(1, 2), (2, 1), (2, -1), (1, -2)]
    edges = [
        (index[(r, c)], index[(r + dr, c + dc)])
        for r, c in cells
        for dr, dc in jumps
        if (r + dr, c + dc) in index
    ]
    assert [in_d[k] for k in range(len(cells))] == gallai_edmonds_d(len(cells), edges)
    check_matching(len(cells), edges, matching)


BOARDS = [
    ["P..", ".#.", "..P"],
    ["P..", "..P"],
    ["P.P"],
    ["P..P"],
    ["PP.", "..."],
    ["P.#", "..P"],
]


@pytest.mark.parametrize("board", BOARDS)
def test_two_token_arrows_are_legal_moves_valued_as_brute_force(board: list[str]) -> None:
    free = np.array([[ch != "#" for ch in row] for row in board])
    tokens = [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "P"]
    svg = two_tokens_svg(free, tokens[0], tokens[1], title="t")
    wins = brute_two_tokens(board)[frozenset(tokens)]
    assert ("Alice (to move) wins" in svg) == wins
    root = parsed(svg)
    lines = [e for e in root.iter() if e.tag.endswith("line")]
    assert {e.get("stroke") for e in lines} == {"#009E73" if wins else "#D55E00"}
    # Each arrowhead's tip is the centre of the cell a token moves to.
    cell = _cell_size(*free.shape)
    tips = set()
    for head in (e for e in root.iter() if e.tag.endswith("polygon")):
        x, y = (float(t) for t in head.get("points", "").split()[0].split(","))
        tips.add((int(y // cell), int(x // cell)))
    brute = brute_two_tokens(board)
    steps = {
        (token, (token[0] + dr, token[1] + dc))
        for token in tokens
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
    }
    legal = {(t, to) for t, to in steps if to in brute_cells(board)}
    adjacent = any(to in tokens for _, to in legal)
    if wins and adjacent:
        assert len(tips) == 1 and tips <= set(tokens)  # one capture
    elif wins:
        (tip,) = tips
        moved = next(t for t, to in legal if to == tip)
        assert not brute[frozenset([tip, *(set(tokens) - {moved})])]  # Bob loses after it
    else:
        assert tips == {to for _, to in legal}  # every legal step drawn, each one losing


def test_a_grid_too_large_to_read_is_refused() -> None:
    big = np.zeros((60, 60), dtype=bool)
    with pytest.raises(PictureTooLargeError, match="3600 cells are too many"):
        grid_svg(big, title="big")
