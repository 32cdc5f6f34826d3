"""The tier database against the in-memory solver, position by position, and its refusals of
damaged or incomplete directories."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tier_dirs import memory_dir

from perfectplay.api import solve
from perfectplay.builders.staircase.tiers import StaircaseTiers
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import InputFormatError, PositionNotFoundError, StoreError
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.registry import load_tiered_game
from perfectplay.solved import open_solved, open_tiers
from perfectplay.store import PositionValue
from perfectplay.tiers import TierDatabase, solve_tiers
from perfectplay.tiers import database as database_module
from perfectplay.values import Value

ROWS, COLS = 4, 4


@pytest.fixture(scope="module")
def solved_dir() -> Iterator[Path]:
    """Connect Four 4x4 solved into a directory (chunks of 8192 ranks: several per tier)."""
    for directory in memory_dir(Path("/tmp")):
        target = directory / "c4"
        game = load_tiered_game("connect-four", rows=ROWS, cols=COLS)
        solve_tiers(game, target, chunk_size=8192, progress=False).close()
        yield target


@pytest.fixture(scope="module")
def memory() -> GameSolution[Any]:
    return solve(ConnectFour(ROWS, COLS))


@pytest.fixture
def copy(solved_dir: Path, tmp_path: Path) -> Path:
    """A copy of the solved directory to damage."""
    target = tmp_path / "c4"
    shutil.copytree(solved_dir, target)
    return target


def test_every_position_has_the_in_memory_solvers_value(
    solved_dir: Path, memory: GameSolution[Any]
) -> None:
    with open_tiers(solved_dir) as db:
        assert db.game_name == "connect-four" and db.params == {"rows": ROWS, "cols": COLS}
        positions = memory.enumeration.positions
        values = memory.solution.value.tolist()
        remoteness = memory.solution.remoteness.tolist()
        for i, position in enumerate(positions):  # position i has id i
            here = db.probe(position)
            assert (here.value, here.remoteness) == (values[i], remoteness[i]), position
            assert here.score is None
        for position in positions[::97]:
            assert db.get(position) == db.probe(position)
        assert db.initial == memory.initial
        assert db.probe(db.initial).value == Value.TIE


def test_moves_and_best_moves_are_the_in_memory_solvers(
    solved_dir: Path, memory: GameSolution[Any]
) -> None:
    def key(moves: list[Any]) -> list[tuple[str, Any, Value, int]]:
        return [(m.label, m.position, m.value, m.remoteness) for m in moves]

    with open_tiers(solved_dir) as db:
        positions = memory.enumeration.positions
        for position in positions[:: max(1, len(positions) // 2500)]:
            assert key(db.move_values(position)) == key(memory.move_values(position)), position
            assert key(db.best_moves(position)) == key(memory.best_moves(position)), position


def test_a_directory_and_memory_hold_the_same_records(solved_dir: Path) -> None:
    game = load_tiered_game("connect-four", rows=ROWS, cols=COLS)
    in_memory = solve_tiers(game, progress=False, chunk_size=1000, jobs=2)
    assert isinstance(in_memory, TierDatabase) and in_memory.directory is None
    with open_tiers(solved_dir) as db:
        assert db.order == in_memory.order
        for tier in db.order:
            value, remoteness = db.arrays(tier)
            same_value, same_remoteness = in_memory.arrays(tier)
            assert value.tolist() == same_value.tolist()
            assert remoteness.tolist() == same_remoteness.tolist()
        stored, size = db.footprint()
        assert stored == in_memory.footprint()[0] > 0 and size > 0


def test_boards_no_game_reaches_are_not_found(solved_dir: Path) -> None:
    unreachable = [
        ("XXXX", "OOOO", "", ""),  # O moved after X had four in a column
        ("XXXX", "OOO", "O", ""),  # the same with O's last stone elsewhere
    ]
    with open_tiers(solved_dir) as db:
        for board in unreachable:
            with pytest.raises(PositionNotFoundError):
                db.probe(board)
            assert db.get(board) is None
            sentinel = PositionValue(Value.DRAW, -1, None)
            assert db.get(board, sentinel) is sentinel
        with pytest.raises(PositionNotFoundError, match="not a tier"):
            db.entry(99, 0)
        size = db.tiered.tier_size(4)
        with pytest.raises(PositionNotFoundError, match="outside tier"):
            db.entry(4, size)
        slots = db.tiered.slots(4, 0, size)
        assert slots is not None
        with pytest.raises(PositionNotFoundError, match="no position"):
            db.entry(4, int(np.flatnonzero(~slots)[0]))


def test_malformed_boards_are_input_errors(solved_dir: Path) -> None:
    with open_tiers(solved_dir) as db:
        for board in (("XX", "", "", ""), ("XXXXX", "", "", ""), "junk", ("X", "O", "Q", "")):
            with pytest.raises(InputFormatError):
                db.probe(board)


def damage(path: Path, where: float, *, truncate: bool = False) -> None:
    """Flip one byte at fraction `where` of the file, or cut the file there."""
    data = bytearray(path.read_bytes())
    at = min(len(data) - 1, int(len(data) * where))
    if truncate:
        path.write_bytes(bytes(data[:at]))
    else:
        data[at] ^= 0x01
        path.write_bytes(bytes(data))


@pytest.mark.parametrize("truncate", [False, True])
@pytest.mark.parametrize("where", [0.05, 0.5, 0.97])
def test_a_damaged_tier_file_is_refused_naming_it(copy: Path, where: float, truncate: bool) -> None:
    tier = 7  # a tier of several blocks
    path = copy / f"tier-{tier}.tier"
    damage(path, where, truncate=truncate)
    with open_tiers(copy) as db:
        slots = db.tiered.slots(tier, 0, db.tiered.tier_size(tier))
        assert slots is not None
        ranks_there = np.flatnonzero(slots)
        with pytest.raises(StoreError, match=str(path)):
            for rank in ranks_there:
                db.entry(tier, int(rank))
        with pytest.raises(StoreError, match=str(path)):
            db.verify()
        with pytest.raises(StoreError, match=str(path)):
            db.arrays(tier)


def test_an_incompletely_solved_directory_names_its_missing_tiers(copy: Path) -> None:
    for tier in (3, 11):
        (copy / f"tier-{tier}.tier").unlink()
    with pytest.raises(StoreError, match=r"not completely solved: tiers (11, 3|3, 11)") as error:
        open_tiers(copy)
    assert str(copy) in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(StoreError, match="not completely solved"):
        open_solved(copy)


def test_a_directory_without_a_manifest_or_of_another_game_is_refused(copy: Path) -> None:
    shutil.copy(copy / "tier-5.tier", copy / "tier-6.tier")  # a tier file under another name
    with open_tiers(copy) as db, pytest.raises(StoreError, match="holds tier 5, not tier 6"):
        db.entry(6, 0)
    other = load_tiered_game("connect-four", rows=ROWS, cols=COLS + 1)
    with pytest.raises(StoreError, match="does not hold the tiers of"):
        open_tiers(copy, game=other)
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps({**manifest, "game": "no-such-game"}))
    with pytest.raises(StoreError, match="cannot rebuild its game"):
        open_tiers(copy)
    (copy / "manifest.json").write_text("{not json")
    with pytest.raises(StoreError, match="unreadable tier manifest"):
        open_tiers(copy)
    (copy / "manifest.json").unlink()
    with pytest.raises(StoreError, match="not a tier directory"):
        open_tiers(copy)


def test_a_scored_game_answers_scores_as_the_in_memory_solver(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 10, (3, 4)), rng.integers(0, 10, (3, 4))
    game = StaircaseTiers(a, b)
    memory = solve(game.as_game())

    def key(moves: list[Any]) -> list[tuple[str, Any, Value, int, int | None]]:
        return [(m.label, m.position, m.value, m.remoteness, m.score) for m in moves]

    for directory in memory_dir(tmp_path):
        solve_tiers(game, directory / "s", chunk_size=4, progress=False).close()
        with open_tiers(directory / "s", game=game) as db:
            for position in memory.enumeration.positions:
                here = db.probe(position)
                assert here.score == memory.score(position), position
                assert (here.value, here.remoteness) == (
                    memory.value(position),
                    memory.remoteness(position),
                )
                assert key(db.move_values(position)) == key(memory.move_values(position))
                assert key(db.best_moves(position)) == key(memory.best_moves(position))
            assert db.scores(0).tolist() == [memory.score(game.position(0, 0))]


def test_a_database_keeps_a_bounded_number_of_tier_files_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database_module, "OPEN_FILES", 3)
    game = load_tiered_game("connect-four", rows=3, cols=4)
    solve_tiers(game, tmp_path, progress=False).close()
    with open_tiers(tmp_path) as db:
        expected = {t: db.records(t).tolist() for t in db.order}
        for _ in range(2):  # every tier read twice, most of them reopened
            for tier in db.order:
                assert db.records(tier).tolist() == expected[tier]
                assert len(db._files) <= 3
        fds = len(os.listdir("/proc/self/fd"))
        for tier in db.order:
            db.records(tier)
        assert len(os.listdir("/proc/self/fd")) <= fds + 1
