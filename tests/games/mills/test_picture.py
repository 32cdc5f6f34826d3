"""Morris's picture (perfectplay.games.mills.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.mills.picture import drawing
from perfectplay.games.mills.rules import Mills

GAMES = {name: Mills(name, 3) for name in ("three", "six")}
SOLVED = {name: solve(game) for name, game in GAMES.items()}


@settings(max_examples=60)
@given(st.sampled_from(sorted(GAMES)), st.lists(st.integers(0, 60), max_size=30))
def test_every_move_is_marked_where_it_goes(name: str, choices: list[int]) -> None:
    game = GAMES[name]
    board, turn, _, _ = position = played(game, choices)
    picture = check_drawing(drawing, game, SOLVED[name], position)
    stones = sum(1 for c in board if c != "-")
    assert board_tags(picture)["circle"] == len(game.board.points)  # a dot or a stone each
    assert board_tags(picture)["line"] == len(game.board.lines)
    for label, mark in marked(picture).items():
        step, _, removed = label.partition("x")
        ends = step.split("-")
        assert board[game.board.index(ends[-1])] == "-"
        if len(ends) == 2:
            assert board[game.board.index(ends[0])] == turn
        if removed:
            assert board[game.board.index(removed)] not in ("-", turn)
            assert any(e.get("stroke-dasharray") for e in mark.iter("line"))
    assert stones <= 6


def test_the_caption_names_the_phase_or_the_loser() -> None:
    game = Mills()
    assert drawing(game, game.initial(), {}).caption == "White to place (9 in hand)"
    jumping = ("WW-W" + "-" * 12 + "B-B---BB", "W", 0, 0)
    assert drawing(game, jumping, {}).caption == "White to jump"
    lost = ("WW" + "-" * 20 + "BB", "B", 0, 0)
    assert drawing(game, lost, {}).caption == "Black has fewer than 3 stones and has lost"
    stuck = ("BWB" + "-" * 6 + "W----W" + "-" * 6 + "BWB", "B", 0, 0)
    assert drawing(game, stuck, {}).caption == "Black cannot move and has lost"
