"""Files written before the package was restructured still open, answer and verify.

``tests/data/format-2026-11-25/`` holds what the command line wrote on 25 November 2026 (commit
c9a796f): store files of tic-tac-toe and Nim 1,2,3 (``solve GAME --save``) and the tier
directory of Connect Four 3x4 (``solve connect-four --tiers``). Their answers must equal a
fresh solve, and ``verify`` must accept them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.solved import open_solved

DATA = Path(__file__).parent / "data" / "format-2026-11-25"
CASES = [
    ("ttt.ppstore", "tic-tac-toe", {}),
    ("nim.ppstore", "nim", {"heaps": (1, 2, 3)}),
    ("c4-3x4", "connect-four", {"rows": 3, "cols": 4}),
]


@pytest.mark.parametrize(("name", "game_name", "params"), CASES)
def test_an_old_file_answers_as_a_fresh_solve(
    name: str, game_name: str, params: dict[str, object], tmp_path: Path
) -> None:
    copy = tmp_path / name  # opening a tier directory may tidy it: work on a copy
    if (DATA / name).is_dir():
        shutil.copytree(DATA / name, copy)
    else:
        shutil.copy(DATA / name, copy)
    game = load_game(game_name, **params)
    fresh = solve(game)
    with open_solved(copy) as saved:
        position, checked = game.initial(), 0
        frontier = [position]
        seen = {position}
        while frontier and checked < 400:
            position = frontier.pop()
            entry = saved.probe(position)
            assert (entry.value, entry.remoteness) == (
                fresh.value(position), fresh.remoteness(position)
            ), position  # fmt: skip
            checked += 1
            for _, child in game.moves(position):
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
    assert checked > 10


@pytest.mark.parametrize(("name", "game_name", "params"), CASES)
def test_an_old_file_verifies(
    name: str, game_name: str, params: dict[str, object], tmp_path: Path
) -> None:
    copy = tmp_path / name
    if (DATA / name).is_dir():
        shutil.copytree(DATA / name, copy)
    else:
        shutil.copy(DATA / name, copy)
    result = run_cli(["verify", str(copy)])
    assert result.code == 0, result.err + result.out
