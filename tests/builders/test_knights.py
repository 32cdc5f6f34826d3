"""One or two knights: the position graph follows the rules, values match exhaustive search."""

from __future__ import annotations

import numpy as np
import pytest
from brute import brute_knights
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay._ranking import pair_count
from perfectplay.builders.knights import Knights
from perfectplay.errors import GameDefinitionError, InputFormatError, InvalidGraphError
from perfectplay.solvers.geography import solve_geography

JUMPS = {(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)}


@st.composite
def boards(draw: st.DrawFn, max_free: int) -> list[str]:
    size = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 5))
    cells = [(r, c) for r in range(size) for c in range(cols)]
    free = draw(st.sets(st.sampled_from(cells), max_size=max_free))
    return ["".join("." if (r, c) in free else "#" for c in range(cols)) for r in range(size)]


def as_array(board: list[str]) -> np.ndarray:
    return np.array([[ch == "." for ch in row] for row in board], dtype=bool)


@given(boards(max_free=25), st.sampled_from([1, 2]))
def test_graph_has_exactly_the_legal_moves(board: list[str], count: int) -> None:
    game = Knights(as_array(board), count)
    g = game.graph()
    assert g.undirected and g.n == game.n
    for p in range(g.n):
        cells = set(game.decode(p))
        targets = set()
        for r, c in cells:
            for dr, dc in JUMPS:
                rr, cc = r + dr, c + dc
                on_board = 0 <= rr < len(board) and 0 <= cc < len(board[0])
                if on_board and board[rr][cc] == "." and (rr, cc) not in cells:
                    targets.add(frozenset(cells - {(r, c)} | {(rr, cc)}))
        got = [frozenset(game.decode(int(q))) for q in g.moves(p)]
        assert len(got) == len(set(got)) and set(got) == targets


@pytest.mark.parametrize(("knights", "max_free"), [(1, 12), (2, 8)])
@settings(max_examples=60)
@given(data=st.data())
def test_knights_match_exhaustive_search(knights: int, max_free: int, data: st.DataObject) -> None:
    board = data.draw(boards(max_free=max_free))
    game = Knights(as_array(board), knights)
    wins = solve_geography(game.graph()).mover_wins
    expected = brute_knights(board, knights)
    assert {frozenset(game.decode(p)): bool(wins[p]) for p in range(game.n)} == expected


@given(boards(max_free=25), st.sampled_from([1, 2]))
def test_moves_flip_the_colour_parity(board: list[str], count: int) -> None:
    game = Knights(as_array(board), count)
    g = game.graph()
    parity = np.array([sum(r + c for r, c in game.decode(p)) % 2 for p in range(g.n)])
    src = np.repeat(np.arange(g.n), g.out_degree())
    assert np.all(parity[src] != parity[g.indices])


@pytest.mark.parametrize(("size", "wins"), [(3, 8), (4, 16), (6, 36)])
def test_one_knight_theory(size: int, wins: int) -> None:
    # 4x4 and 6x6 knight graphs have perfect matchings; on 3x3 the centre is isolated.
    result = solve_geography(Knights.square(size).graph())
    assert int(result.mover_wins.sum()) == wins


def test_square_board_and_round_trips() -> None:
    game = Knights.square(4, blocked=[(0, 0), (0, 0), (3, 3)], count=2)
    assert game.board.cells == 14 and game.n == pair_count(14)
    for p in range(game.n):
        assert game.encode(*game.decode(p)) == p
    assert game.draw(game.encode((0, 1), (3, 2))) == "#N..\n....\n....\n..N#"


def test_errors_name_the_problem() -> None:
    with pytest.raises(GameDefinitionError, match="1 or 2"):
        Knights(np.ones((2, 2), dtype=bool), 3)
    with pytest.raises(InputFormatError, match=r"\(4, 0\) is off the 4 x 4 board"):
        Knights.square(4, blocked=[(4, 0)])
    game = Knights.square(3, count=2)
    with pytest.raises(InputFormatError, match="share the cell"):
        game.encode((0, 0), (0, 0))
    with pytest.raises(InputFormatError, match="expected 2 knight cells"):
        game.encode((0, 0))
    with pytest.raises(InvalidGraphError, match="out of range"):
        game.decode(game.n)
