"""perfectplay draw, problem --draw and analyze --plot: real files, one-line errors, exit 2,
nothing half-written."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest
from cli_helpers import run_cli
from png_helpers import needs_cairo

PNG = b"\x89PNG\r\n\x1a\n"


def moves_of(svg: str) -> dict[str, str]:
    return {
        e.get("data-move", ""): e.get("data-value", "")
        for e in ET.fromstring(svg).iter()
        if e.get("data-move") is not None
    }


def test_draw_writes_the_start_to_stdout() -> None:
    result = run_cli(["draw", "nim", "--param", "heaps=1,2"])
    assert result.code == 0, result.err
    assert moves_of(result.out) == {"h1-1": "LOSE", "h2-1": "WIN", "h2-2": "LOSE"}


def test_draw_a_typed_position_and_moves_from_it() -> None:
    result = run_cli(["draw", "tic-tac-toe", "XX.", "OO.", "...", "--moves", "c1"])
    assert result.code == 0, result.err
    assert moves_of(result.out) == {}  # X completed the top row
    assert "X has three in a row" in result.out


@needs_cairo
def test_draw_png_and_history(tmp_path: os.PathLike[str]) -> None:
    board, history = os.path.join(tmp_path, "b.png"), os.path.join(tmp_path, "h.svg")
    result = run_cli(
        [
            "draw",
            "connect-four",
            "--param",
            "rows=4",
            "--param",
            "cols=4",
            "--moves",
            "a,b",
            "-o",
            board,
            "--history",
            history,
        ]
    )
    assert result.code == 0, result.err
    assert result.out == ""
    with open(board, "rb") as f:
        assert f.read(8) == PNG
    with open(history, encoding="utf-8") as f:
        plies = [e for e in ET.fromstring(f.read()).iter() if e.get("class") == "ply"]
    assert len(plies) == 3


def test_draw_a_saved_file_without_resolving(tmp_path: os.PathLike[str]) -> None:
    store = os.path.join(tmp_path, "nim.ppstore")
    assert run_cli(["solve", "nim", "--param", "heaps=1,2", "--save", store]).code == 0
    result = run_cli(["draw", store, "1 1"])
    assert result.code == 0, result.err
    assert moves_of(result.out) == {"h1-1": "LOSE", "h2-1": "LOSE"}  # nim-sum 0: lost


def test_draw_a_saved_game_graph(tmp_path: os.PathLike[str]) -> None:
    graph, store = os.path.join(tmp_path, "g.txt"), os.path.join(tmp_path, "g.ppstore")
    with open(graph, "w", encoding="utf-8") as f:
        f.write("3 2\n0 1\n1 2\n")
    assert run_cli(["solve", graph, "--save", store]).code == 0
    result = run_cli(["draw", store, "0"])
    assert result.code == 0, result.err
    assert moves_of(result.out) == {"1": "LOSE"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["draw", "chess"], "unknown game 'chess' and no such file; registered games"),
        (["draw", "tic-tac-toe", "XXXX"], "expected 9 cells"),
        (["draw", "nim", "--param", "size=3"], "has no parameter 'size'"),
        (
            ["draw", "nim", "--moves", "h9-9"],
            "move 1 of 1, 'h9-9', is not legal; legal moves: h1-1",
        ),
        (["draw", "nim", "-o", "out.gif"], "expected a file name ending in .svg or .png"),
        (["draw", "nim", "--history", "h.jpeg"], "expected a file name ending in .svg or .png"),
        (["draw", "nim", "-o", "/nonexistent/dir/x.svg"], "/nonexistent/dir/x.svg"),
        (["draw", "nim", "--width", "0"], "--width must be a number of pixels in (0, 100000]"),
        (["draw", "nim", "--width", "inf"], "--width must be a number of pixels"),
        (["draw", "nim", "--width", "wide"], "invalid float value: 'wide'"),
    ],
)
def test_draw_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run_cli(args)
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith("perfectplay: error: ")
    assert message in result.err


def test_param_with_a_saved_file_is_refused(tmp_path: os.PathLike[str]) -> None:
    store = os.path.join(tmp_path, "s.ppstore")
    assert run_cli(["solve", "nim", "--param", "heaps=1", "--save", store]).code == 0
    result = run_cli(["draw", store, "--param", "heaps=2"])
    assert result.code == 2 and "--param applies to a game name" in result.err


def test_problem_draw_writes_the_picture_and_the_answer(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "maze.svg")
    result = run_cli(["problem", "jsoi-game", "--draw", path], b"3 3\n.##\n...\n#.#\n")
    assert result.code == 0, result.err
    assert result.out == "WIN\n2 3\n3 2\n"
    with open(path, encoding="utf-8") as f:
        in_d = [e for e in ET.fromstring(f.read()).iter() if e.get("data-in-d") == "true"]
    assert len(in_d) == 2  # the two winning cells of the answer


def test_problem_draw_bad_input_writes_nothing(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "maze.png")
    result = run_cli(["problem", "jsoi-game", "--draw", path], b"3 3\n.##\n..x\n")
    assert result.code == 2 and result.out == ""
    assert os.listdir(tmp_path) == []
    bad = run_cli(["problem", "jsoi-game", "--draw", os.path.join(tmp_path, "m.bmp")], b"")
    assert bad.code == 2 and "ending in .svg or .png" in bad.err


def test_problem_draw_too_large_is_refused_after_the_answer(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "big.svg")
    maze = b"60 60\n" + b"".join(b"." * 60 + b"\n" for _ in range(60))
    result = run_cli(["problem", "jsoi-game", "--draw", path], maze)
    assert result.code == 2
    assert result.out == "LOSE\n"  # a perfect matching: B wins from every cell
    assert "3600 cells are too many to draw" in result.err
    assert not os.path.exists(path)


@needs_cairo
def test_analyze_plot(tmp_path: os.PathLike[str]) -> None:
    store, plot = os.path.join(tmp_path, "t.ppstore"), os.path.join(tmp_path, "t.png")
    assert run_cli(["solve", "tic-tac-toe", "--save", store]).code == 0
    result = run_cli(["analyze", store, "--plot", plot])
    assert result.code == 0, result.err
    assert "total" in result.out
    with open(plot, "rb") as f:
        assert f.read(8) == PNG
    bad = run_cli(["analyze", store, "--plot", os.path.join(tmp_path, "t.pdf")])
    assert bad.code == 2 and bad.out == ""


def test_analyze_plot_names_what_it_counts(tmp_path: os.PathLike[str]) -> None:
    """A store keeps one position per symmetry class: its chart counts classes; a tier
    directory's analysis counts the positions reachable from the start."""
    store, tiers = os.path.join(tmp_path, "t.ppstore"), os.path.join(tmp_path, "c4")
    assert run_cli(["solve", "tic-tac-toe", "-o", store]).code == 0
    c4 = ["connect-four", "--param", "rows=3", "--param", "cols=3"]
    assert run_cli(["solve", *c4, "--tiers", tiers]).code == 0
    for saved, unit, other in (
        (store, "symmetry classes", "positions"),
        (tiers, "positions", "symmetry classes"),
    ):
        plot = os.path.join(tmp_path, "counts.svg")
        result = run_cli(["analyze", saved, "--plot", plot])
        assert result.code == 0, result.err
        with open(plot, encoding="utf-8") as f:
            svg = f.read()
        assert f">{unit}<" in svg and f">{other}<" not in svg


def test_draw_a_tier_directory(tmp_path: os.PathLike[str]) -> None:
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game, load_tiered_game
    from perfectplay.tiers import solve_tiers

    directory = os.path.join(tmp_path, "tiers")
    solve_tiers(load_tiered_game("connect-four", rows=3, cols=3), directory)
    result = run_cli(["draw", directory, "--moves", "b"])
    assert result.code == 0, result.err
    game = load_game("connect-four", rows=3, cols=3)
    position = game.moves(game.initial())[1][1]
    expected = {m.label: m.value.name for m in solve(game).move_values(position)}
    assert moves_of(result.out) == expected
