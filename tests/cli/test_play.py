"""play GAME|FILE [POSITION] [--moves ...]: a session from any position typed as query takes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.errors import TooLargeError


def test_play_starts_from_a_typed_position_and_moves() -> None:
    result = run_cli(["play", "ttt", "X../.O./...", "--moves", "c3"], stdin="quit\n")
    assert result.code == 0, result.err
    assert "  a b c\n1 X . .\n2 . O .\n3 . . X" in result.out


def test_play_a_saved_file_from_connect_four_columns(tmp_path: Path) -> None:
    path = tmp_path / "c4.ppstore"
    assert (
        run_cli(["solve", "c4", "--param", "rows=4", "--param", "cols=4", "-o", str(path)]).code
        == 0
    )
    result = run_cli(["play", str(path), "2332"], stdin="quit\n")
    assert result.code == 0, result.err
    assert ". O X .\n. X O .\na b c d\nYour move." in result.out


def test_an_illegal_move_is_refused_before_the_session() -> None:
    result = run_cli(["play", "ttt", "--moves", "b2,b2"], stdin="quit\n")
    assert (result.code, result.out) == (2, "")
    assert "move 2 of 2, 'b2', is not legal" in result.err


LATE = "2252576253462244111563365343671351441"  # Connect Four 6x7, 37 plies: 4 to the end


def test_connect_four_6x7_is_played_by_search_from_a_late_position() -> None:
    """The standard board is too large to solve in memory: the session searches each
    position instead, and its values are the search engine's."""
    from perfectplay.games.registry import load_game
    from perfectplay.search import search

    result = run_cli(
        ["play", "c4", "--param", "rows=6", "--param", "cols=7", LATE, "--side", "second"],
        stdin="values\nquit\n",
    )
    assert result.code == 0, result.err
    assert "too many to solve in memory: playing by search" in result.err
    game = load_game("connect-four", rows=6, cols=7)
    found = search(game, game.parse(LATE), all_moves=True)
    assert f"Computer plays {found.best_moves[0]}." in result.out
    assert "Thinking" not in result.out  # not a terminal: no clock
    after = {m[0]: m[1] for m in game.moves(game.parse(LATE))}[found.best_moves[0]]
    listed = search(game, after, all_moves=True).moves
    for i, move in enumerate(listed, 1):
        assert f"{i:>3}. {move.label}  {move.value.name} in {move.remoteness}" in result.out


def test_search_plays_a_small_board_as_the_solver_does() -> None:
    script = "values\nhint\nc\nvalues\nb\nhint\nquit\n"
    args = ["play", "c4", "--param", "rows=4", "--param", "cols=5", "--side", "second"]
    solved, searched = run_cli(args, stdin=script), run_cli([*args, "--search"], stdin=script)
    assert (solved.code, searched.code) == (0, 0), searched.err
    assert searched.out == solved.out
    assert "Solving" not in searched.err


def test_the_refusal_to_solve_is_quoted_from_its_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's finding (its `what`, a ';' in it included), not its advice."""

    def refuse(game: object) -> None:
        raise TooLargeError("9 boards; at least", limit="memory", advice="buy memory")

    monkeypatch.setattr("perfectplay.api.solve", refuse)
    result = run_cli(["play", "c4", "--param", "rows=6", "--param", "cols=7", LATE], stdin="quit\n")
    assert result.code == 0, result.err
    assert "9 boards; at least, too many to solve in memory: playing by search" in result.err
    assert "buy memory" not in result.err
