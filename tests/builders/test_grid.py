"""One token on a grid: the position graph follows the rules, values match exhaustive search."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from brute import geography_mover_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.builders.grid import Grid
from perfectplay.errors import InputFormatError, InvalidGraphError
from perfectplay.solvers.geography import solve_geography


@st.composite
def boards(draw: st.DrawFn, max_rows: int = 4, max_cols: int = 4) -> np.ndarray:
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    cells = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    return np.array(cells, dtype=bool).reshape(rows, cols)


def rule_edges(free: np.ndarray) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """Moves by the definition: a step up/down/left/right between free cells."""
    rows, cols = free.shape
    moves = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and free[r, c] and free[rr, cc]:
                    moves.add(((r, c), (rr, cc)))
    return moves


@given(boards())
def test_graph_has_exactly_the_legal_moves(free: np.ndarray) -> None:
    game = Grid(free)
    g = game.graph()
    assert g.undirected and g.n == int(free.sum())
    moves = {(game.decode(p), game.decode(int(q))) for p in range(g.n) for q in g.moves(p)}
    assert moves == rule_edges(free)
    assert g.m == len(moves)


@given(boards())
def test_encode_decode_round_trip_and_row_major_ids(free: np.ndarray) -> None:
    game = Grid(free)
    cells = [game.decode(p) for p in range(game.n)]
    assert cells == sorted(cells)
    assert all(game.encode(*cell) == p for p, cell in enumerate(cells))
    assert all(free[cell] for cell in cells)


@settings(max_examples=60)
@given(boards(3, 4))
def test_values_match_exhaustive_search(free: np.ndarray) -> None:
    game = Grid(free)
    g = game.graph()
    edges = [(p, int(q)) for p in range(g.n) for q in g.moves(p)]
    expected = geography_mover_wins(g.n, edges)
    assert solve_geography(g).mover_wins.tolist() == expected


@given(boards())
def test_moves_flip_the_colour_of_the_cell(free: np.ndarray) -> None:
    game = Grid(free)
    g = game.graph()
    parity = (game.board.row + game.board.col) % 2
    src = np.repeat(np.arange(g.n), g.out_degree())
    assert np.all(parity[src] != parity[g.indices])


@given(boards(), st.data())
def test_reachable_is_the_connected_component(free: np.ndarray, data: st.DataObject) -> None:
    game = Grid(free)
    if game.n == 0:
        return
    start = game.decode(data.draw(st.integers(0, game.n - 1)))
    reach = game.reachable(start)
    component = nx.node_connected_component(nx.Graph([*rule_edges(free), (start, start)]), start)
    assert {(int(r), int(c)) for r, c in np.argwhere(reach)} == component


def test_from_text_reads_the_start_and_draws_it() -> None:
    game = Grid.from_text("..#\n.P.\n")
    assert game.start == game.encode(1, 1)
    assert game.draw(game.start) == "..#\n.P."
    assert game.draw() == "..#\n..."
    assert Grid.from_text("..").start is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..\n...", "row 2 has 3 characters, expected 2"),
        (".x", "row 1 column 2: bad character 'x'"),
        ("P.\n.P", "more than 1 'P'"),
        (".é", "row 1 column 2: bad character"),
    ],
)
def test_from_text_rejects_bad_boards(text: str, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        Grid.from_text(text)


def test_bad_cells_and_positions_are_named() -> None:
    game = Grid.from_text(".#")
    with pytest.raises(InputFormatError, match=r"cell \(0, 1\) is blocked"):
        game.encode(0, 1)
    with pytest.raises(InputFormatError, match="off the 1 x 2 board"):
        game.encode(3, 0)
    with pytest.raises(InvalidGraphError, match="out of range"):
        game.decode(1)
    with pytest.raises(InvalidGraphError, match="two-dimensional"):
        Grid([True, False])
    with pytest.raises(InvalidGraphError, match="array of bool"):
        Grid([[1, 0]])


def test_empty_and_single_cell_boards() -> None:
    for shape in ((2, 2), (0, 3), (3, 0)):
        assert Grid(np.zeros(shape, dtype=bool)).graph().n == 0
    single = Grid(np.ones((1, 1), dtype=bool))
    assert solve_geography(single.graph()).mover_wins.tolist() == [False]
