"""``perfectplay solve openspiel:GAME``: OpenSpiel games solved from the command line, as the
bridge solves them; bad names, parameters and options refused in one line."""

from __future__ import annotations

import json
import sys

import pytest
from cli_helpers import run_cli

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

from perfectplay.bridges.openspiel import solve_openspiel  # noqa: E402
from perfectplay.cli._openspiel import spiel_name  # noqa: E402


def test_solve_an_openspiel_game_prints_the_bridge_s_start_and_counts() -> None:
    result = run_cli(["solve", "openspiel:tic_tac_toe"])
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("openspiel:tic_tac_toe: solved in ")
    assert lines[1].startswith("start: TIE in 9 for the player to move (player 0)")
    assert lines[2] == "positions: 5,478; 16,167 moves between them"


@pytest.mark.parametrize(
    "args",
    [
        ["openspiel:connect_four(rows=3,columns=4)"],
        ["openspiel:connect_four", "--param", "rows=3", "--param", "columns=4"],
    ],
)
def test_openspiel_connect_four_is_solved_by_perfectplay_s_connect_four(args: list[str]) -> None:
    result = run_cli(["solve", *args, "--json"])
    assert result.code == 0, result.err
    record = json.loads(result.out)
    bridge = solve_openspiel("connect_four(rows=3,columns=4)")
    assert record["solved_as"] == "perfectplay's Connect Four rows=3 cols=4"
    assert record["positions"] == len(bridge.solution) and record["symmetry_classes"] is True
    assert record["summary"] == bridge.solution.summary()
    assert record["start"] == {"value": "TIE", "remoteness": 12, "returns": [0.0, 0.0]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["openspiel:connect_four"], "connect_four 6x7 has up to 70,728,639,995,483 positions: "),
        (["openspiel:tic_tac_to"], "no game 'tic_tac_to' (did you mean tic_tac_toe"),
        (["openspiel:tic_tac_toe(foo=1)"], "tic_tac_toe has no parameter 'foo'"),
        (["openspiel:connect_four(rows=x)"], "parameter rows takes an integer, got 'x'"),
        (["openspiel:kuhn_poker"], "is not deterministic"),
        (["openspiel:tic_tac_toe", "-o", "x"], "-o does not apply to an OpenSpiel game"),
        (["openspiel:", "--json"], "give a game after openspiel:"),
        (["openspiel:connect_four(rows=4)", "--param", "columns=5"], "not both"),
    ],
)
def test_bad_openspiel_targets_are_one_line(args: list[str], message: str) -> None:
    result = run_cli(["solve", *args])
    assert (result.code, result.out) == (2, ""), result.err
    assert result.err.startswith("perfectplay: error: ") and message in result.err
    assert result.err.count("\n") == 1


def test_without_openspiel_the_command_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "perfectplay.bridges.openspiel")
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails
    result = run_cli(["solve", "openspiel:tic_tac_toe"])
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "perfectplay: error: the OpenSpiel bridge needs OpenSpiel: "
        "pip install 'perfectplay[openspiel]'\n"
    )


def test_spiel_name_joins_the_params() -> None:
    assert spiel_name("openspiel:nim", ["pile_sizes=1;2"]) == "nim(pile_sizes=1;2)"
