"""Connect Four's picture (perfectplay.games.connect_four.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import check_drawing, marked, parsed, played

from perfectplay.api import solve
from perfectplay.games.connect_four.picture import drawing
from perfectplay.games.registry import load_game
from perfectplay.svg.palette import STONE_DARK, STONE_LIGHT

GAME = load_game("connect-four", rows=4, cols=4)
SOLVED = solve(GAME)


def _four(position: tuple[str, ...]) -> str | None:
    """Who has four in a line, by walking every cell in every direction."""
    at = {(c, r): s for c, column in enumerate(position) for r, s in enumerate(column)}
    for (c, r), s in at.items():
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(at.get((c + i * dc, r + i * dr)) == s for i in range(4)):
                return s
    return None


@given(st.lists(st.integers(0, 3), max_size=16))
def test_the_board_shows_its_stones_and_a_badge_per_open_column(choices: list[int]) -> None:
    position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    fills = [e.get("fill") for e in parsed(picture).iter("circle")]
    assert fills.count(STONE_DARK) == sum(col.count("X") for col in position)
    assert fills.count(STONE_LIGHT) == sum(col.count("O") for col in position)
    if GAME.outcome(position) is None:
        assert set(marked(picture)) == {"abcd"[c] for c in range(4) if len(position[c]) < 4}


@given(st.lists(st.integers(0, 3), max_size=16))
def test_the_caption_names_the_mover_or_the_outcome(choices: list[int]) -> None:
    position = played(GAME, choices)
    caption = drawing(GAME, position, {}).caption
    stones = sum(map(len, position))
    winner = _four(position)
    if winner is not None:
        assert caption == f"{winner} has four in a row"
    elif stones == 16:
        assert caption == "a tie: the board is full"
    else:
        assert caption == ("X to move" if stones % 2 == 0 else "O to move")
