"""Two tokens capturing on contact: pair ranking, the pair graph, values against the rules."""

from __future__ import annotations

import numpy as np
import pytest
from brute import brute_two_tokens
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay._ranking import pair_count, pair_rank, pair_unrank
from perfectplay.builders.two_tokens import TwoTokens
from perfectplay.errors import InputFormatError, InvalidGraphError, TooLargeError
from perfectplay.solvers.geography import solve_geography


@st.composite
def boards(draw: st.DrawFn, max_rows: int = 3, max_cols: int = 4, max_free: int = 12) -> list[str]:
    """Boards as rows of '.' and '#', with at most `max_free` free cells."""
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    free = draw(st.sets(st.sampled_from(cells), max_size=max_free))
    return ["".join("." if (r, c) in free else "#" for c in range(cols)) for r in range(rows)]


def as_array(board: list[str]) -> np.ndarray:
    return np.array([[ch == "." for ch in row] for row in board], dtype=bool)


@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_pair_rank_is_a_bijection_with_its_unrank(i: int, j: int) -> None:
    if i == j:
        return
    rank = pair_rank(i, j)
    assert pair_unrank(rank) == (min(i, j), max(i, j))
    assert rank < pair_count(max(i, j) + 1)


def test_pair_ranks_cover_the_range_in_order() -> None:
    ranks = np.arange(pair_count(300))
    i, j = pair_unrank(ranks)
    assert np.all(i < j) and np.array_equal(pair_rank(i, j), ranks)
    assert np.all(np.diff(j) >= 0)


@given(boards())
def test_graph_has_exactly_the_useful_moves(board: list[str]) -> None:
    game = TwoTokens(as_array(board))
    g = game.graph()
    assert g.undirected and g.n == pair_count(game.board.cells)

    def dist(p: tuple[tuple[int, int], ...]) -> int:
        (a, b), (c, d) = p
        return abs(a - c) + abs(b - d)

    expected = set()
    for p in range(game.n):
        cells = game.decode(p)
        if dist(cells) < 2:
            continue
        for k in range(2):
            (r, c), other = cells[k], cells[1 - k]
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                on_board = 0 <= rr < len(board) and 0 <= cc < len(board[0])
                if on_board and board[rr][cc] == "." and dist(((rr, cc), other)) >= 2:
                    expected.add((p, game.encode((rr, cc), other)))
    got = {(p, int(q)) for p in range(g.n) for q in g.moves(p)}
    assert got == expected and g.m == len(expected)


@given(boards())
def test_captures_are_the_adjacent_pairs_and_moves_flip_parity(board: list[str]) -> None:
    game = TwoTokens(as_array(board))
    captures = game.captures()
    g = game.graph()
    for p in range(game.n):
        (a, b), (c, d) = game.decode(p)
        assert captures[p] == (abs(a - c) + abs(b - d) == 1)
        if captures[p]:
            assert g.moves(p).size == 0
    i, j = pair_unrank(np.arange(game.n))
    b = game.board
    parity = (b.row[i] + b.col[i] + b.row[j] + b.col[j]) % 2
    src = np.repeat(np.arange(g.n), g.out_degree())
    assert np.all(parity[src] != parity[g.indices])


@settings(max_examples=80)
@given(boards(max_free=7))
def test_values_match_exhaustive_search_of_the_rules(board: list[str]) -> None:
    game = TwoTokens(as_array(board))
    wins = solve_geography(game.graph()).mover_wins | game.captures()
    assert (wins == game.mover_wins() | game.captures()).all()
    expected = brute_two_tokens(board)
    assert len(expected) == game.n
    for p in range(game.n):
        assert wins[p] == expected[frozenset(game.decode(p))], game.draw(p)


@settings(max_examples=150, deadline=None)
@given(boards(max_rows=5, max_cols=6, max_free=30))
def test_implicit_solve_matches_the_stored_graph(board: list[str]) -> None:
    game = TwoTokens(as_array(board))
    expected = solve_geography(game.graph()).mover_wins
    assert (game.mover_wins() == expected).all()


@pytest.mark.parametrize("walls", [0.0, 0.1, 0.3])
def test_implicit_solve_on_larger_boards(walls: float) -> None:
    # 16 x 16 boards: hundreds of augmenting searches, long alternating paths.
    free = np.random.default_rng(int(walls * 10)).random((16, 16)) >= walls
    game = TwoTokens(free)
    wins = game.mover_wins()
    expected = solve_geography(game.graph()).mover_wins
    assert (wins == expected).all()
    assert wins.any() and not wins.all()


def test_from_text_reads_the_start() -> None:
    game = TwoTokens.from_text("P.#\n..P\n")
    assert game.decode(game.start) == ((0, 0), (1, 2))
    assert game.draw(game.start) == "P.#\n..P"
    assert game.draw() == "..#\n..."
    assert game.encode((1, 2), (0, 0)) == game.start


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("P..", InputFormatError, "exactly two 'P', got 1"),
        ("PPP", InputFormatError, "more than 2 'P'"),
        ("P.\n.", InputFormatError, "row 2 has 1 characters"),
    ],
)
def test_from_text_rejects_bad_boards(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        TwoTokens.from_text(text)


def test_bad_cells_and_positions_are_named() -> None:
    game = TwoTokens(np.array([[True, True, False]]))
    with pytest.raises(InputFormatError, match="blocked"):
        game.encode((0, 0), (0, 2))
    with pytest.raises(InvalidGraphError, match="two distinct cell ids"):
        game.encode((0, 0), (0, 0))
    with pytest.raises(InvalidGraphError, match=r"out of range 0\.\.0"):
        game.decode(1)


def test_oversized_pair_graph_is_refused_before_building() -> None:
    game = TwoTokens(np.ones((1000, 1000), dtype=bool))
    with pytest.raises(TooLargeError, match="pairs of cells"):
        game.graph()


def test_tiny_boards() -> None:
    for free in (np.zeros((3, 3), dtype=bool), np.ones((1, 1), dtype=bool)):
        game = TwoTokens(free)
        assert game.n == 0 and game.graph().n == 0 and game.captures().size == 0
    strip = TwoTokens(np.ones((1, 2), dtype=bool))
    assert strip.n == 1 and strip.captures().tolist() == [True]
