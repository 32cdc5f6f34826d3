"""The serve command (perfectplay.cli.serve): one-line errors, and the app it would serve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli

import perfectplay
from perfectplay.games.registry import load_game
from perfectplay.web.server import bind


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["chess"], "unknown game 'chess' and no such file"),
        (["--param", "rows=4"], "--param applies to exactly one game"),
        (["nim", "--param", "rows=4"], "no parameter 'rows'"),
        (["--port", "70000"], "port must be between 0 and 65535"),
        (["--host", "no such host.invalid"], "cannot resolve host"),
        (["missing/file.ppstore"], "cannot open missing/file.ppstore"),
        (["--max-solves", "0"], "--max-solves must be at least 1, got 0"),
        (["--keep-positions", "-5"], "--keep-positions must be at least 1, got -5"),
    ],
)
def test_bad_command_lines_are_one_line_errors(args: list[str], words: str) -> None:
    result = run_cli(["serve", *args])
    assert result.code == 2
    assert result.err.count("\n") == 1 and words in result.err
    assert result.out == ""


def test_a_busy_port_and_a_graph_store_are_one_line_errors(tmp_path: Path) -> None:
    with bind("127.0.0.1", 0) as taken:
        result = run_cli(["serve", "--port", str(taken.getsockname()[1])])
    assert result.code == 2 and "cannot listen on 127.0.0.1" in result.err
    graph = tmp_path / "graph.ppstore"
    perfectplay.save(graph, perfectplay.solve([(0, 1)]))
    result = run_cli(["serve", str(graph)])
    assert result.code == 2 and "holds a game graph" in result.err


def test_without_the_web_extra_serve_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    result = run_cli(["serve"])
    assert result.code == 2
    assert result.err == (
        "perfectplay: error: perfectplay serve needs uvicorn: pip install 'perfectplay[web]'\n"
    )


def test_the_games_and_files_named_are_announced_and_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.testclient import TestClient

    import perfectplay.web.server as server

    store = tmp_path / "nim.ppstore"
    assert run_cli(["solve", "nim", "--param", "heaps=1,2", "-o", str(store)]).code == 0
    answers: dict[str, Any] = {}

    def fake_serve(app: Any, sock: Any, *, announce: Any = None) -> None:
        # What the server would answer while it runs (the files close when it stops).
        announce("http://127.0.0.1:1/")
        with TestClient(app) as client:
            answers["games"] = client.get("/api/games").json()["games"]
            answers["position"] = client.get("/api/databases/nim/position")

    monkeypatch.setattr(server, "serve", fake_serve)
    result = run_cli(["serve", "ttt", str(store), "--port", "0"])
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        "perfectplay: serving on http://127.0.0.1:1/ (Ctrl-C stops)",
        "  tic-tac-toe: http://127.0.0.1:1/games/tic-tac-toe",
        f"  {store}: http://127.0.0.1:1/databases/nim",
    ]
    assert "tic-tac-toe" in [g["name"] for g in answers["games"]]
    position = answers["position"]
    assert position.status_code == 200
    assert (
        position.json()["value"]
        == perfectplay.solve(load_game("nim", heaps=(1, 2))).value((1, 2)).name
    )


def test_the_solve_limits_reach_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.web.server as server
    import perfectplay.web.solutions as solutions

    seen: dict[str, int] = {}
    real = solutions.SolutionCache.__init__

    def spy(self: Any, **kwargs: Any) -> None:
        seen.update(max_solves=kwargs["max_solves"], keep_positions=kwargs["keep_positions"])
        real(self, **kwargs)

    monkeypatch.setattr(solutions.SolutionCache, "__init__", spy)
    monkeypatch.setattr(server, "serve", lambda app, sock, *, announce=None: None)
    result = run_cli(["serve", "--port", "0", "--max-solves", "3", "--keep-positions", "1000"])
    assert result.code == 0, result.err
    assert seen == {"max_solves": 3, "keep_positions": 1000}
    assert run_cli(["serve", "--port", "0"]).code == 0
    assert seen == {
        "max_solves": solutions.DEFAULT_MAX_SOLVES,
        "keep_positions": solutions.DEFAULT_KEEP_POSITIONS,
    }
