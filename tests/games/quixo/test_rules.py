"""Quixo: GamesmanOne's rules against an independent twin."""

from __future__ import annotations

import pytest
from brute import QuixoGrid, brute_quixo, brute_quixo_moves, brute_quixo_outcome
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.quixo.rules import Quixo, QuixoPosition
from perfectplay.games.registry import load_game
from perfectplay.values import Value

_ENDS = {"R": "right", "L": "left", "D": "bottom", "U": "top"}


def to_grid(board: str, n: int) -> QuixoGrid:
    return tuple(tuple(board[r * n : (r + 1) * n]) for r in range(n))


def positions(n: int) -> st.SearchStrategy[QuixoPosition]:
    return st.tuples(st.text(alphabet="XO-", min_size=n * n, max_size=n * n), st.sampled_from("XO"))


@st.composite
def sized_positions(draw: st.DrawFn) -> tuple[int, QuixoPosition]:
    n = draw(st.sampled_from([3, 4, 5]))
    return n, draw(positions(n))


# ---------------------------------------------------------------- the rules
@settings(max_examples=300)
@given(sized_positions())
def test_rules_match_the_independent_twin(case: tuple[int, QuixoPosition]) -> None:
    n, (board, turn) = case
    game = Quixo(n)
    outcome = game.outcome((board, turn))
    assert (None if outcome is None else outcome.name) == brute_quixo_outcome(
        to_grid(board, n), turn
    )
    expected = brute_quixo_moves(to_grid(board, n), turn)
    moves = game.moves((board, turn))
    assert len({label for label, _ in moves}) == len(moves)
    got = {}
    for label, (child, after) in moves:
        cell = int(label[:-1]) - 1
        got[(cell // n, cell % n, _ENDS[label[-1]])] = to_grid(child, n)
        assert after == ("O" if turn == "X" else "X")
    assert got == expected


def test_rules_by_example() -> None:
    game = Quixo(4)
    start = game.initial()
    assert start == ("-" * 16, "X")
    labels = [label for label, _ in game.moves(start)]
    assert len(labels) == 32  # 4 corners x 2 ends + 8 edge cells x 3 ends
    assert labels[:8] == ["1R", "2L", "1D", "5U", "2R", "3L", "2D", "8U"]  # GamesmanOne's order
    moved = dict(game.moves(("XO--" + "-" * 12, "X")))
    assert moved["1R"][0][:4] == "O--X"  # the row slides left, X goes in on the right
    assert "2L" not in moved  # the opponent's cube cannot be taken
    # a push completing both players' lines loses for the pusher: the player to move wins
    assert game.outcome(("XXXX" + "OOOO" + "-" * 8, "O")) is Value.WIN
    assert game.outcome(("XXXX" + "OOO-" + "-" * 8, "O")) is Value.LOSE
    assert game.moves(("XXXX" + "OOO-" + "-" * 8, "O")) == []


def test_3x3_values_match_the_independent_twin(solved3: GameSolution[QuixoPosition]) -> None:
    solved = solved3
    expected = brute_quixo(3)
    assert solved.value(solved.initial) is Value.WIN
    for (grid, turn), name in expected.items():
        position = ("".join("".join(row) for row in grid), turn)
        assert solved.value(position).name == name, position


def test_game_conforms_to_the_protocol() -> None:
    assert check_game(Quixo(3), max_positions=1_000) == []  # sampled; the whole game below


def test_render_parse_and_codes_round_trip() -> None:
    game = Quixo(3)
    position = ("XO-" "-X-" "O--", "O")  # fmt: skip
    assert game.render(position) == "X O -\n- X -\nO - -\nO to move"
    assert game.parse(game.render(position)) == position
    assert game.decode(game.encode(position)) == position
    with pytest.raises(InputFormatError, match="3 lines of 3 cells"):
        game.parse("X O -\nO to move")


@pytest.mark.parametrize("size", [2, 6, "4", True])
def test_bad_sizes_are_refused(size: object) -> None:
    with pytest.raises(GameDefinitionError, match="3, 4 or 5"):
        Quixo(size)  # type: ignore[arg-type]


def test_registered() -> None:
    assert load_game("quixo", size=3).info.params["size"] == 3
