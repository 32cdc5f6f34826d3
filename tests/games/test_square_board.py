"""The text, integer and bitboard forms of boards of cells (perfectplay.games._square_board),
on any shape and alphabet, and the games that write their positions with them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.games._square_board import BoardText, bitboards, board_of, square_symmetries
from perfectplay.games.quixo.rules import Quixo
from perfectplay.games.teeko.rules import Teeko

SHAPES = [
    BoardText(3, 3),
    BoardText(3, 4, cells=".LGEChlgech", sides="ab"),  # lower-case symbols: case kept
    BoardText(1, 5, cells="-123456", sides="XO"),
]


@st.composite
def positions(draw: st.DrawFn) -> tuple[BoardText, tuple[str, str]]:
    text = draw(st.sampled_from(SHAPES))
    cells = draw(st.lists(st.sampled_from(text.cells), min_size=text.rows * text.cols,
                          max_size=text.rows * text.cols))  # fmt: skip
    return text, ("".join(cells), draw(st.sampled_from(text.sides)))


@given(positions())
def test_every_form_reads_back_the_position(case: tuple[BoardText, tuple[str, str]]) -> None:
    text, position = case
    assert text.parse(text.render(position)) == position
    assert text.parse(text.notation(position)) == position
    code = text.encode(position)
    assert 0 <= code < len(text.cells) ** (text.rows * text.cols) * len(text.sides)
    assert text.decode(code) == position


@given(positions(), positions())
def test_codes_order_like_the_cells_then_the_side(
    a: tuple[BoardText, tuple[str, str]], b: tuple[BoardText, tuple[str, str]]
) -> None:
    text = a[0]
    if b[0] is not text:
        return
    key = [([text.cells.index(c) for c in p[0]], text.sides.index(p[1])) for p in (a[1], b[1])]
    assert (text.encode(a[1]) < text.encode(b[1])) == (key[0] < key[1])


def test_letters_fold_only_when_no_symbol_is_lower_case() -> None:
    assert BoardText(1, 3).parse("x-o X") == ("X-O", "X")
    shogi = BoardText(1, 3, cells=".Ll", sides="ab")
    assert shogi.parse("L.l a") == ("L.l", "a")
    with pytest.raises(InputFormatError):
        shogi.parse("L.l A")


@pytest.mark.parametrize("bad", ["", "X-O/-- O", "XOZ/--- X", "X-O/--- Z", "X-O/---/--- X"])
def test_a_bad_board_names_the_shape_and_the_symbols(bad: str) -> None:
    with pytest.raises(InputFormatError) as error:
        BoardText(2, 3).parse(bad)
    assert str(error.value) == (
        f"expected 2 lines of 3 cells (X, O or -) and 'X to move' or 'O to move', got {bad!r}"
    )


@given(st.lists(st.sampled_from("-XO"), min_size=9, max_size=9))
def test_bitboards_and_board_of_are_inverse(cells: list[str]) -> None:
    board = "".join(cells)
    x, o = bitboards(board)
    assert x & o == 0 and board_of((x, o), 9) == board


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_the_square_symmetries_form_its_group(n: int) -> None:
    perms = [tuple(p) for p in square_symmetries(n)]
    assert perms[0] == tuple(range(n * n)) and all(sorted(p) == list(range(n * n)) for p in perms)
    composed = {tuple(q[p[d]] for d in range(n * n)) for p in perms for q in perms}
    assert composed == set(perms)


@pytest.mark.parametrize("game", [Quixo(3), Quixo(4), Teeko(4, 3), Teeko()])
def test_quixo_and_teeko_write_positions_as_the_shared_board_text(game: Quixo | Teeko) -> None:
    text = BoardText(game.size, game.size)
    position = game.moves(game.initial())[0][1]
    assert game.render(position) == text.render(position)
    assert game.notation(position) == text.notation(position)
    assert game.encode(position) == text.encode(position)
    assert game.parse(text.render(position)) == position
