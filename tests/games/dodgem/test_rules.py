"""Dodgem: a first-player win on 3x3 (Winning Ways), every value against an independent twin."""

from __future__ import annotations

import pytest
from brute import brute_dodgem
from cli_helpers import run_cli

from perfectplay.api import solve
from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.enumerate import enumerate_game
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.dodgem.rules import Dodgem
from perfectplay.values import Value


def to_cars(position: tuple[str, str], size: int) -> tuple[frozenset, frozenset, str]:  # type: ignore[type-arg]
    board, turn = position
    cars: dict[str, set[tuple[int, int]]] = {"B": set(), "R": set()}
    for i, cell in enumerate(board):
        if cell != ".":
            row, col = divmod(i, size)
            cars[cell].add((col, size - 1 - row))
    return frozenset(cars["B"]), frozenset(cars["R"]), turn


def test_first_player_wins_3x3() -> None:
    solved = solve(Dodgem(3))
    assert solved.value(solved.initial) is Value.WIN
    assert solved.game.info.cyclic


def test_every_position_matches_the_independent_rules() -> None:
    solved = solve(Dodgem(3))
    expected = brute_dodgem(3)
    positions = solved.enumeration.positions
    assert len(positions) == len(expected)
    for p in positions:
        assert solved[p].name == expected[to_cars(p, 3)], p


def test_2x2_matches_the_independent_rules() -> None:
    solved = solve(Dodgem(2))
    expected = brute_dodgem(2)
    for p in solved.enumeration.positions:
        assert solved[p].name == expected[to_cars(p, 2)]


def test_rules() -> None:
    game = Dodgem(3)
    start = game.initial()
    assert start == ("B..B...RR", "B")
    assert [label for label, _ in game.moves(start)] == ["a3r", "a2r", "a2d"]
    # a Blue car on the right edge may drive off; Red's top-row car too
    assert ("c3r", (".........", "R")) in game.moves(("..B......", "B"))
    assert ("a3u", ("........B", "B")) in game.moves(("R.......B", "R"))
    # the player who cannot move wins: all cars gone, or blocked
    assert game.outcome(("R........", "B")) is Value.WIN
    assert game.outcome(("BR.R.....", "B")) is Value.WIN  # Blue's a3 car is boxed in
    assert game.moves(("BR.R.....", "B")) == []
    assert game.outcome(("BR.......", "B")) is None  # it can drive down


def test_text_codes_and_errors() -> None:
    game = Dodgem(3)
    p = ("B..B...RR", "R")
    assert game.parse(game.render(p)) == p
    assert game.decode(game.encode(p)) == p
    with pytest.raises(InputFormatError, match="Blue to move"):
        game.parse("B . .\nB . .\n. R R")
    with pytest.raises(InputFormatError, match="at most 2 cars"):
        game.parse("B B B\n. . .\n. R R\nRed to move")
    for size in (1, 7, 50):
        with pytest.raises(GameDefinitionError, match="from 2 to 6"):
            Dodgem(size)
    assert check_game(game, strict=True) == []


def test_4x4_never_ends_with_best_play_and_both_paths_agree() -> None:
    # des Jardins (1996): on 4x4 and 5x5 best play goes on forever.
    solved = solve(Dodgem(4))
    assert solved.enumeration.path == "vectorized"
    assert solved.value(solved.initial) is Value.DRAW
    assert solved.remoteness(solved.initial) == -1


def test_vectorized_path_matches_the_plain_path_on_3x3() -> None:
    plain = solve(Dodgem(3), vectorized=False)
    fast = solve(Dodgem(3), vectorized=True)
    assert len(plain) == len(fast) == 2055
    for p in plain.enumeration.positions:
        assert plain[p] is fast[p] and plain.remoteness(p) == fast.remoteness(p)


def test_oversized_board_is_one_line_error() -> None:
    result = run_cli(["solve", "dodgem", "--param", "size=50"], "")
    assert result.code == 2
    assert "board side from 2 to 6" in result.err
    assert result.err.count("\n") == 1


def test_position_bound_covers_the_reachable_positions() -> None:
    for size in (2, 3):
        game = Dodgem(size)
        assert enumerate_game(game).n <= game.position_bound() < 2**63
    assert Dodgem(6).position_bound() < 2 * 3**36 < 2**63
