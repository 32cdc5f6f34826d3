"""The command line: ``solve`` (graph files), ``demo``, ``problem --list`` and error handling."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.cli import _COMMANDS, build_parser, main

# 0 -> 1 -> 2 (no moves: lost), 3 loops on itself (endless), 4 is a TIE by the rules.
GRAPH = b"""# a small game
5 4
0 1
1 2
3 3   # a self-loop
4 0
4 TIE
"""
GRAPH_OUT = "0 LOSE 2\n1 WIN 1\n2 LOSE 0\n3 DRAW -\n4 TIE 0\n"


def test_commands_are_registered_in_order() -> None:
    mine = [name for name in _COMMANDS if name in ("demo", "problem", "solve")]
    assert mine == ["demo", "problem", "solve"]
    usage = build_parser().format_help()
    assert "demo" in usage and "solve" in usage


def test_solve_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(GRAPH)
    result = run_cli(["solve", str(path)])
    assert (result.code, result.out, result.err) == (0, GRAPH_OUT, "")


def test_solve_stdin() -> None:
    result = run_cli(["solve", "-"], GRAPH)
    assert (result.code, result.out, result.err) == (0, GRAPH_OUT, "")


def test_solve_a_bare_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "game").write_bytes(GRAPH)
    monkeypatch.chdir(tmp_path)
    assert run_cli(["solve", "game"]).out == GRAPH_OUT


def test_solve_json() -> None:
    result = run_cli(["solve", "--json", "-"], GRAPH)
    assert result.code == 0 and result.out.endswith("}\n")
    document = json.loads(result.out)
    assert [p["id"] for p in document["positions"]] == [0, 1, 2, 3, 4]
    assert document["positions"][3] == {"id": 3, "value": "DRAW", "remoteness": None}
    assert document["positions"][0] == {"id": 0, "value": "LOSE", "remoteness": 2}
    assert document["summary"] == {
        "positions": 5,
        "moves": 4,
        "WIN": 1,
        "LOSE": 2,
        "TIE": 1,
        "DRAW": 1,
    }


@settings(max_examples=30)
@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.just(n), st.data())))
def test_text_and_json_agree(case: tuple[int, st.DataObject]) -> None:
    n, data = case
    pos = st.integers(0, n - 1)
    edges = data.draw(st.lists(st.tuples(pos, pos), max_size=3 * n))
    text = f"{n} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)
    lines = run_cli(["solve", "-"], text).out.splitlines()
    document = json.loads(run_cli(["solve", "-", "--json"], text).out)
    assert len(lines) == n == document["summary"]["positions"]
    for line, entry in zip(lines, document["positions"], strict=True):
        r = "-" if entry["remoteness"] is None else str(entry["remoteness"])
        assert line == f"{entry['id']} {entry['value']} {r}"
        assert (entry["value"] == "DRAW") == (entry["remoteness"] is None)


def test_solve_names_a_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(["solve", "nosuch"])
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("perfectplay: error: unknown game 'nosuch' and no such file; ")
    assert "registered games: tic-tac-toe, connect-four" in result.err
    result = run_cli(["solve", "dir/game.txt"])
    assert result.code == 2
    assert result.err == "perfectplay: error: cannot open dir/game.txt: No such file or directory\n"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "line 1: no header: expected `n m` (numbers of positions and moves)"),
        (b"# just a comment\n\n", "line 2: no header: expected `n m`"),
        (b"3\n", "line 1: the header ends early: expected m (the number of moves) after n"),
        (b"-2 0\n", "line 1: n (the number of positions) must be >= 0, got -2"),
        (b"2 -1\n", "line 1: m (the number of moves) must be >= 0, got -1"),
        (b"2 1 0\n", "line 1: unexpected '0' after the header `n m`"),
        (b"two 1\n", "line 1: expected an integer for n (the number of positions), got 'two'"),
        (b"1234567890123456789 1\n", "line 1: number too large for n"),
        (b"2 1\n0\n", "line 2: the line ends early: expected the target position v (move 1"),
        (b"2 1\n\n0 x\n", "line 3: expected an integer, got 'x' (move 1 of 1)"),
        (b"3 3\n0 1\n1 2\n", "line 3: the file ends after 2 of 3 moves"),
        (b"3 1\n0 3\n", "line 2: position 3 is out of range 0..2 (move 1 of 1)"),
        (b"3 1\n-1 0\n", "line 2: position -1 is out of range 0..2 (move 1 of 1)"),
        (b"3 1\n0 1 2\n", "line 2: unexpected '2' at the end of move 1 of 1"),
        (b"3 1\n0 1\n2 MAYBE\n", "line 3: unknown value 'MAYBE' for position 2"),
        (b"3 1\n0 1\n2 DRAW\n", "line 3: position 2: DRAW cannot be given as a primitive value"),
        (b"3 1\n0 1\n2 WIN\n# x\n2 WIN\n", "line 5: a second primitive value for position 2"),
        (b"3 1\n0 1\n7 WIN\n", "line 3: position 7 is out of range 0..2 (a primitive value"),
        (b"3 1\n0 1\n2\n", "line 3: the line ends early: expected a value WIN, LOSE or TIE"),
        (b"3 1\n0 1\n2 WIN LOSE\n", "line 3: unexpected 'LOSE' at the end of a primitive"),
        (b"3 1\n0 1\nWIN 2\n", "line 3: expected an integer, got 'WIN' (a primitive value"),
        (b"3 1\n0 1\n1 2\n", "line 3: unknown value '2' for position 1 (expected WIN, LOSE"),
        (b"\x7fELF\x02\x01\x00\xff", r"line 1: expected an integer for n (the number of positi"),
        (b"2 1\n0 \xc3\x28\n", r"line 2: expected an integer, got '\\xc3(' (move 1 of 1)"),
        (b"10000000000000 10000000000000\n", "needs about"),
    ],
)
def test_bad_graph_files_give_one_error_line(data: bytes, message: str) -> None:
    result = run_cli(["solve", "-"], data)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("perfectplay: error: ")
    assert result.err.count("\n") == 1
    assert message in result.err, result.err


def test_oversized_header_names_the_estimate() -> None:
    result = run_cli(["solve", "-"], b"10000000000000 10000000000000\n")
    assert re.fullmatch(
        r"perfectplay: error: a graph file with 10000000000000 positions and 10000000000000 "
        r"moves, solved and printed needs about (?:[\d.]+ [KMGTPi]+B|2\^\d+ bytes) of memory "
        r"but only .* is available\n",
        result.err,
    )


def test_demo_summarises_both_games() -> None:
    result = run_cli(["demo", "--positions", "3000", "--seed", "7"])
    assert result.code == 0, result.err
    assert "Case #1: Yes\n     Case #2: No\n     Case #3: Yes" in result.out
    assert "evader at 1, pursuer at 0, evader to move: DRAW, evader wins" in result.out
    assert "3,000 positions, 9,000 moves (seed 7)" in result.out
    counts = re.search(r"values for the player to move: (.*)", result.out)
    assert counts is not None
    total = sum(int(part.split()[1].replace(",", "")) for part in counts.group(1).split(", "))
    assert total == 3000
    assert re.search(r"position \d+: WIN in \d+; best: -> \d+ \(WIN in \d+\)", result.out)
    assert re.search(r"position \d+: LOSE in \d+; best: -> \d+ \(LOSE in \d+\)", result.out)


def test_demo_rejects_a_bad_size() -> None:
    result = run_cli(["demo", "--positions", "0"])
    assert result.code == 2
    assert "expected a positive integer, got 0" in result.err


def test_problem_list_names_make_you_happy() -> None:
    result = run_cli(["problem", "--list"])
    assert result.code == 0
    line = next(x for x in result.out.splitlines() if x.startswith("make-you-happy"))
    assert "gym100548h" in line and "Make You Happy" in line


def test_unknown_problem_is_one_error_line() -> None:
    result = run_cli(["problem", "nope"], "1\n")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("perfectplay: error: unknown problem 'nope'; known problems: ")
    assert result.err.count("\n") == 1


def test_problem_without_a_name() -> None:
    result = run_cli(["problem"])
    assert result.code == 2
    assert result.err == "perfectplay: error: problem: give a problem NAME, or --list to see them\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve"], "give a game name or --game package.module:Class"),
        (["bogus"], "argument COMMAND: invalid choice: 'bogus'"),
        (["play", "nim", "--side", "third"], "play: argument --side: invalid choice: 'third'"),
        (["demo", "--positions", "-5"], "demo: argument --positions: expected a positive integer"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    result = run_cli(args)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"perfectplay: error: {message}")
    assert result.err.count("\n") == 1


def test_a_position_after_the_options_may_begin_with_a_dash_but_options_stay_options() -> None:
    dobutsu = ["dobutsu", "--param", "giraffes=0", "--param", "elephants=0", "--param", "chicks=1"]
    before = run_cli(["draw", dobutsu[0], "-l-/---/---/-L- F c", *dobutsu[1:]])
    after = run_cli(["draw", *dobutsu, "-l-/---/---/-L- F c"])
    assert (after.code, after.err) == (0, "") and after.out == before.out
    words = run_cli(["draw", *dobutsu, "--moves", "11-8", "-l-/---/---/-L-", "F", "c"])
    assert words.code == 0, words.err
    for option in ("--bogus", "--bogus=1", "-x"):
        refused = run_cli(["draw", *dobutsu, "-l-/---/---/-L- F c", option])
        assert (refused.code, refused.err) == (2, f"perfectplay: error: unrecognized arguments: "
                                                  f"{option}\n")  # fmt: skip


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"], ["play", "-h"]])
def test_help_still_prints_usage(args: list[str]) -> None:
    result = run_cli(args)
    assert result.code == 0 and result.err == ""
    assert result.out.startswith("usage: perfectplay")


class _ClosedPipe(io.StringIO):
    """A stdout whose reader has gone away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_broken_pipe_ends_silently_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["problem", "--list"]) == 141
    assert err.getvalue() == ""


def test_broken_pipe_ends_silently_in_a_real_pipe() -> None:
    code = "import sys; from perfectplay.cli import main; sys.exit(main())"
    child = subprocess.Popen(
        [sys.executable, "-c", code, "problem", "--list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader leaves before the first line is written
    err = child.stderr.read()
    assert child.wait(timeout=60) == 141
    assert err == b""


def test_solve_game_counts_reachable_positions_and_symmetry_classes() -> None:
    result = run_cli(["solve", "tic-tac-toe"])
    assert result.code == 0
    assert result.out.splitlines()[2] == (
        "positions: 5,478 reachable, in 765 symmetry classes (symmetric positions, e.g. mirror "
        "images, solved once); 2,270 moves between them"
    )
    assert result.out.splitlines()[3].startswith("symmetry classes by value: WIN 390,")
    record = json.loads(run_cli(["solve", "tic-tac-toe", "--json"]).out)
    assert (record["reachable_positions"], record["symmetry_classes"]) == (5478, 765)
    plain = run_cli(["solve", "dodgem"]).out.splitlines()
    assert plain[2].startswith("positions: 2,055 reachable (no symmetries merged)")
    games = run_cli(["games", "tic-tac-toe"]).out
    assert "5,478 reachable positions in 765 symmetry classes" in games
    assert "solved once, as one symmetry class" in games


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_regression_a_graph_too_large_to_solve_and_print_is_refused_at_its_header(
    monkeypatch: pytest.MonkeyPatch, json_flag: list[str]
) -> None:
    # Regression (found by the fuzz campaign): each stage checked only its own memory, so a
    # header of 10^9 positions with 4 moves passed the parser's check and was killed at 16 GB.
    import perfectplay._memory

    budget = 2**30  # 1 GiB: room for parsing 2 * 10^7 positions, not for solving and printing them
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: budget)
    header = "20000000 1\n0 1\n"
    result = run_cli(["solve", "-", *json_flag], header)
    assert result.code == 2 and result.out == ""
    assert "solved and printed" in result.err and result.err.count("\n") == 1
    small = run_cli(["solve", "-", *json_flag], "3 1\n0 1\n")
    assert small.code == 0
