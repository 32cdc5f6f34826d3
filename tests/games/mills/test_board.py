"""The Morris boards (perfectplay.games.mills.board): lines, mills, neighbours, symmetries."""

from __future__ import annotations

import pytest

from perfectplay.errors import GameDefinitionError
from perfectplay.games.mills.board import LAYOUTS, layout


@pytest.mark.parametrize(
    ("name", "points", "mills", "symmetries", "edges"),
    [("nine", 24, 16, 16, 32), ("morabaraba", 24, 20, 16, 40), ("six", 16, 8, 16, 20),
     ("three", 9, 6, 8, 12)],
)  # fmt: skip
def test_counts(name: str, points: int, mills: int, symmetries: int, edges: int) -> None:
    board = layout(name)
    assert (len(board.points), len(board.mills), len(board.symmetries)) == (
        points, mills, symmetries
    )  # fmt: skip
    assert sum(len(n) for n in board.neighbours) == 2 * edges


@pytest.mark.parametrize("name", LAYOUTS)
def test_symmetries_keep_mills_and_neighbours(name: str) -> None:
    board = layout(name)
    mills = set(board.mills)
    edges = {(a, b) for a in range(len(board.points)) for b in board.neighbours[a]}
    assert board.symmetries[0] == tuple(range(len(board.points)))
    assert len(set(board.symmetries)) == len(board.symmetries)
    for perm in board.symmetries:
        assert sorted(perm) == list(range(len(board.points)))
        assert {tuple(sorted(perm[q] for q in m)) for m in mills} == mills
        assert {(perm[a], perm[b]) for a, b in edges} == edges


def test_point_order_is_by_rank_then_file() -> None:
    nine = layout("nine")
    assert " ".join(nine.points) == (
        "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7"
    )
    assert layout("six").points[:6] == ("a1", "c1", "e1", "b2", "c2", "d2")
    # the exchange of the inner and outer squares takes a1 to c3 on the 24-point board
    assert {nine.points[p[0]] for p in nine.symmetries} == {"a1", "g1", "a7", "g7", "c3", "e3",
                                                            "c5", "e5"}  # fmt: skip


def test_unknown_boards_and_points_are_refused() -> None:
    with pytest.raises(GameDefinitionError, match="no morris board 'ten'"):
        layout("ten")
    with pytest.raises(GameDefinitionError, match="has no point 'd4'"):
        layout("nine").index("d4")
