"""play GAME|FILE [POSITION] [--moves ...]: a session from any position typed as query takes it."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import run_cli


def test_play_starts_from_a_typed_position_and_moves() -> None:
    result = run_cli(["play", "ttt", "X../.O./...", "--moves", "c3"], stdin="quit\n")
    assert result.code == 0, result.err
    assert "X . .\n. O .\n. . X" in result.out


def test_play_a_saved_file_from_connect_four_columns(tmp_path: Path) -> None:
    path = tmp_path / "c4.ppstore"
    assert (
        run_cli(["solve", "c4", "--param", "rows=4", "--param", "cols=4", "-o", str(path)]).code
        == 0
    )
    result = run_cli(["play", str(path), "2332"], stdin="quit\n")
    assert result.code == 0, result.err
    assert ". O X .\n. X O .\nYour move." in result.out


def test_an_illegal_move_is_refused_before_the_session() -> None:
    result = run_cli(["play", "ttt", "--moves", "b2,b2"], stdin="quit\n")
    assert (result.code, result.out) == (2, "")
    assert "move 2 of 2, 'b2', is not legal" in result.err
