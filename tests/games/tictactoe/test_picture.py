"""Tic-tac-toe's picture (perfectplay.games.tictactoe.picture) on positions of random play."""

from __future__ import annotations

from brute import brute_tictactoe
from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import check_drawing, marked, parsed, played

from perfectplay.api import solve
from perfectplay.games.tictactoe.picture import drawing
from perfectplay.games.tictactoe.rules import TicTacToe

GAME = TicTacToe()
SOLVED = solve(GAME)
BOARDS = brute_tictactoe()
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@given(st.lists(st.integers(0, 8), max_size=9))
def test_the_board_shows_its_pieces_and_every_empty_cells_move(choices: list[int]) -> None:
    board = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, board)
    root = parsed(picture)
    lines = [e for e in root.iter("line")]
    assert len(lines) == 4 + 2 * board.count("X")  # the grid, two strokes per X
    assert len(list(root.iter("circle"))) == board.count("O")
    if GAME.outcome(board) is None:
        assert set(marked(picture)) == {
            f"{'abc'[i % 3]}{i // 3 + 1}" for i in range(9) if board[i] == "."
        }


@given(st.lists(st.integers(0, 8), max_size=9))
def test_the_caption_names_the_mover_or_the_outcome(choices: list[int]) -> None:
    board = played(GAME, choices)
    caption = drawing(GAME, board, {}).caption
    x, o = board.count("X"), board.count("O")
    won = [board[a] for a, b, c in LINES if board[a] != "." and board[a] == board[b] == board[c]]
    if won:
        assert caption == f"{won[0]} has three in a row"
    elif "." not in board:
        assert caption == "a tie: the board is full"
    else:
        assert caption == ("X to move" if x == o else "O to move")
    assert board in BOARDS  # random play reaches only legal boards
