"""``perfectplay solve GAME --save``, ``query``, ``analyze`` and ``play`` at the command line."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from brute import brute_game_solution
from cli_helpers import run_cli

from perfectplay.games.registry import load_game
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.store import open_store, save


@pytest.fixture
def nim_file(tmp_path: Path) -> Path:
    """Nim 1,2,3 solved by brute force and saved."""
    game = load_game("nim", heaps=(1, 2, 3))
    solution, codes = brute_game_solution(game)
    path = tmp_path / "nim.ppstore"
    save(path, solution, game="nim", params=game.info.params, codes=codes, start=0, canonical=True)
    return path


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    """A three-position chain saved as a plain graph store."""
    graph = GameGraph.from_edges([0, 1], [1, 2], n=3)
    value = np.array([3, 0, 0], np.uint8)
    solution = Solution(graph, value, np.array([1, 0, 0], np.int32), solver="dag")
    path = tmp_path / "chain.ppstore"
    save(path, solution, start=0)
    return path


def test_query_prints_the_position_and_every_move(nim_file: Path) -> None:
    result = run_cli(["query", str(nim_file), "2 0 1"])
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[:2] == ["h1 h2 h3", " 2  0  1"]  # the heaps named as the move labels name them
    assert lines[2] == "value: WIN in 3 (for the player to move)"
    game = load_game("nim", heaps=(1, 2, 3))
    labels = [label for label, _ in game.moves((2, 0, 1))]
    assert [line.split()[0] for line in lines[4:]] == labels
    assert [line for line in lines[4:] if line.endswith("best")] == ["  h1-1  WIN in 3  best"]


def test_query_json_agrees_with_the_store(nim_file: Path) -> None:
    result = run_cli(["query", str(nim_file), "--json"])
    assert result.code == 0, result.err
    record = json.loads(result.out)
    game = load_game("nim", heaps=(1, 2, 3))
    with open_store(nim_file) as store:
        start = store.probe(game.initial())
        moves = store.move_values(game.initial())
    assert (record["game"], record["params"]) == ("nim", {"heaps": [1, 2, 3]})
    assert (record["value"], record["remoteness"]) == (start.value.name, start.remoteness)
    assert [(m["label"], m["value"], m["remoteness"]) for m in record["moves"]] == [
        (m.label, m.value.name, m.remoteness) for m in moves
    ]
    # the start is lost: every move loses, and the best ones lose slowest
    slowest = max(m.remoteness for m in moves)
    assert [m["best"] for m in record["moves"]] == [m.remoteness == slowest for m in moves]


def test_query_at_a_finished_position_lists_no_moves(nim_file: Path) -> None:
    result = run_cli(["query", str(nim_file), "0 0 0"])
    assert result.code == 0, result.err
    assert result.out.splitlines()[2:] == ["value: LOSE in 0 (the game is over)"]


def test_query_a_graph_store_by_id(graph_file: Path) -> None:
    result = run_cli(["query", str(graph_file), "--json"])
    record = json.loads(result.out)
    assert (record["game"], record["position"], record["value"]) == (None, "0", "WIN")
    assert [(m["label"], m["value"], m["best"]) for m in record["moves"]] == [("1", "WIN", True)]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("x", "expected 3 heap sizes"),
        ("3 3 3", "position '3 3 3' is not in"),
        ("1 2", "expected 3 heap sizes"),
    ],
)
def test_query_bad_positions_exit_2_with_one_line(
    nim_file: Path, position: str, message: str
) -> None:
    result = run_cli(["query", str(nim_file), position])
    assert result.code == 2 and result.out == ""
    assert result.err.count("\n") == 1 and message in result.err
    assert result.err.startswith("perfectplay: error: ")


@pytest.mark.parametrize("position", ["-1", "3", "a"])
def test_query_bad_graph_ids(graph_file: Path, position: str) -> None:
    result = run_cli(["query", str(graph_file), position])
    assert result.code == 2 and "0..2" in result.err


def test_analyze_counts_every_position(nim_file: Path) -> None:
    text = run_cli(["analyze", str(nim_file)])
    assert text.code == 0, text.err
    assert text.out.splitlines()[0] == (
        "nim heaps=1,2,3: 14 symmetry classes (symmetric positions, e.g. mirror images, "
        "solved once), 47 moves"
    )
    record = json.loads(run_cli(["analyze", str(nim_file), "--json"]).out)
    with open_store(nim_file) as store:
        expected = Counter(
            zip(store.array("value").tolist(), store.array("remoteness").tolist(), strict=True)
        )
    assert sum(c["count"] for c in record["counts"]) == record["positions"] == 14
    names = {"WIN": 3, "LOSE": 0, "TIE": 2, "DRAW": 1}
    assert {(names[c["value"]], c["remoteness"]): c["count"] for c in record["counts"]} == expected
    total = text.out.splitlines()[-1].split()
    assert total[0] == "total" and int(total[-1]) == 14


@pytest.mark.parametrize("command", ["query", "analyze"])
def test_damaged_or_missing_files_exit_2(tmp_path: Path, nim_file: Path, command: str) -> None:
    data = nim_file.read_bytes()
    broken = tmp_path / "broken.ppstore"
    broken.write_bytes(data[: len(data) // 2])
    for path, message in ((broken, "truncated"), (tmp_path / "none", "cannot open")):
        result = run_cli([command, str(path)])
        assert result.code == 2 and message in result.err and result.out == ""


def test_play_a_saved_game(nim_file: Path) -> None:
    result = run_cli(["play", str(nim_file)], "values\nh3-3\nbogus\nquit\n")
    assert result.code == 0, result.err
    assert result.out.count("Computer plays") == 1
    assert "'bogus' is not a legal move here" in result.out
    assert run_cli(["play", str(nim_file), "--param", "heaps=1"]).code == 2


def test_play_errors_exit_2(graph_file: Path) -> None:
    unknown = run_cli(["play", "no-such-game"])
    assert unknown.code == 2 and "registered games" in unknown.err
    graph = run_cli(["play", str(graph_file)])
    assert graph.code == 2 and "game graph" in graph.err
    side = run_cli(["play", "nim", "--side", "middle"])
    assert side.code == 2


def test_solve_a_game_saves_a_file_query_agrees_with(tmp_path: Path) -> None:
    from perfectplay.api import solve

    out = tmp_path / "nim.ppstore"
    result = run_cli(["solve", "nim", "--param", "heaps=1,2,3", "--save", str(out), "--json"])
    assert result.code == 0, result.err
    record = json.loads(result.out)
    solved = solve(load_game("nim", heaps=(1, 2, 3)))
    assert record["positions"] == len(solved) and record["summary"] == solved.summary()
    assert record["start"] == {"value": "LOSE", "remoteness": 6, "score": None}
    assert f"saved to {out}" in result.err
    with open_store(out, game="nim") as store:
        assert store.params == {"heaps": [1, 2, 3]}
        assert store.probe((1, 2, 3)).value.name == "LOSE"
    query = json.loads(run_cli(["query", str(out), "3 2 1", "--json"]).out)
    assert query["value"] == "LOSE" and query["remoteness"] == 6
    text = run_cli(["solve", "nim", "--param", "heaps=1,2,3"]).out.splitlines()
    assert text[0].startswith("nim heaps=1,2,3: ") and text[1].startswith("start: LOSE in 6")


def test_a_registered_name_wins_over_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("nim").write_text("2 1\n0 1\n")
    assert run_cli(["solve", "nim", "--json"]).out.startswith('{"game": "nim"')
    graph = run_cli(["solve", "./nim", "--save", "g.ppstore"])
    assert graph.out == "0 WIN 1\n1 LOSE 0\n"
    with open_store("g.ppstore") as store:
        assert store.game_name is None and store.array("value").tolist() == [3, 0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nim", "--param", "bogus=1"], "game nim has no parameter 'bogus'; its parameters: heaps"),
        (["nim", "--param", "heaps=x"], "parameter heaps: expected integers separated by commas"),
        (["nim", "--param", "heaps"], "expected a parameter as KEY=VALUE"),
        (["connect-four", "--param", "rows=four"], "parameter rows: expected an integer"),
        (["-", "--param", "heaps=1"], "--param applies to a registered game, not to -"),
        (["nim", "--save", "/no/such/dir/x.ppstore"], "No such file or directory"),
    ],
)
def test_solve_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = run_cli(["solve", *args], "1 0\n")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("perfectplay: error: ") and message in result.err
    assert result.err.count("\n") == 1


def test_play_a_registered_game_as_second_player() -> None:
    result = run_cli(["play", "nim", "--param", "heaps=1,2", "--side", "second"], "h2-1\nquit\n")
    assert result.code == 0, result.err
    out = result.out
    assert out.startswith("nim: you play second against perfect play.")
    # nim 1,2 is a first-player win: the computer moves first and wins whatever the reply
    assert out.index("Computer plays") < out.index("> ")
    assert "Game over: You lose." in out
    bad = run_cli(["play", "nim", "--param", "heaps=a"])
    assert bad.code == 2 and "parameter heaps" in bad.err


def test_save_into_a_directory_names_the_directory(tmp_path: Path) -> None:
    result = run_cli(["solve", "nim", "--param", "heaps=1,2", "--save", str(tmp_path)])
    assert (result.code, result.out) == (2, "")
    assert result.err == f"perfectplay: error: cannot write {tmp_path}: Is a directory\n"
    assert os.listdir(tmp_path) == []


def test_query_accepts_an_unquoted_position(nim_file: Path) -> None:
    quoted = run_cli(["query", str(nim_file), "3 2 1", "--json"])
    unquoted = run_cli(["query", str(nim_file), "3", "2", "1", "--json"])
    assert unquoted.code == 0, unquoted.err
    assert unquoted.out == quoted.out
    assert json.loads(unquoted.out)["position"] == json.loads(quoted.out)["position"]
