"""The forward pass of ``analyze``: counts of the positions reachable from the start, against
the in-memory enumeration, with symmetry orbits counted; the analysis.json cache."""

from __future__ import annotations

import gc
import json
import shutil
import sys
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from tier_dirs import kill_when, memory_dir

import perfectplay.tiers.analyze as analyze_module
from perfectplay.api import solve
from perfectplay.games.registry import load_game, load_tiered_game
from perfectplay.solved import open_tiers
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.analyze import Analysis, analyze_tiers
from perfectplay.values import Value


def mirror_orbit(board: tuple[str, ...]) -> int:
    """Connect Four: 1 for a board equal to its mirror image, else 2."""
    return 1 if board == board[::-1] else 2


def square_orbit(position: tuple[str, str]) -> int:
    """Quixo: the number of distinct images of the board under the square's 8 symmetries."""
    board, _ = position
    n = round(len(board) ** 0.5)
    grid = [board[i * n : (i + 1) * n] for i in range(n)]
    images = set()
    for _ in range(4):
        grid = ["".join(grid[n - 1 - r][c] for r in range(n)) for c in range(n)]  # a quarter turn
        images.add("".join(grid))
        images.add("".join(row[::-1] for row in grid))
    return len(images)


def expected_counts(
    name: str, params: dict[str, Any], orbit: Callable[[Any], int], tier_of: Callable[[Any], int]
) -> tuple[dict[int, Counter[str]], dict[int, Counter[str]], Counter[tuple[Value, int]]]:
    """Per tier: classes and positions per value name; per (value, remoteness): classes,
    from the in-memory solver's enumeration (reachable classes only)."""
    memory = solve(load_game(name, **params))
    classes: dict[int, Counter[str]] = {}
    positions: dict[int, Counter[str]] = {}
    rows: Counter[tuple[Value, int]] = Counter()
    values = memory.solution.value.tolist()
    remoteness = memory.solution.remoteness.tolist()
    for i, position in enumerate(memory.enumeration.positions):  # position i has id i
        value = Value(values[i])
        tier = tier_of(position)
        classes.setdefault(tier, Counter())[value.name] += 1
        positions.setdefault(tier, Counter())[value.name] += orbit(position)
        rows[value, remoteness[i]] += 1
    return classes, positions, rows


def nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}


@pytest.mark.parametrize(
    ("name", "params", "orbit", "tier_of"),
    [
        ("connect-four", {"rows": 4, "cols": 4}, mirror_orbit, lambda b: sum(map(len, b))),
        ("quixo", {"size": 3}, square_orbit, None),  # loopy tiers, 8 symmetries
        ("dodgem", {"size": 3}, lambda p: 1, None),  # loopy tiers, no symmetry
    ],
)
@pytest.mark.parametrize("block", [1 << 22, 7])  # whole tiers, and reached ranks 7 at a time
def test_reachable_counts_equal_the_in_memory_enumeration(
    name: str,
    params: dict[str, Any],
    orbit: Callable[[Any], int],
    tier_of: Callable[[Any], int] | None,
    block: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analyze_module, "_BLOCK", block)
    game = load_tiered_game(name, **params)
    db = solve_tiers(game, progress=False)
    analysis = analyze_tiers(db, progress=False, jobs=2)
    tiered_tier = (lambda p: game.locate(p)[0]) if tier_of is None else tier_of
    classes, positions, rows = expected_counts(name, params, orbit, tiered_tier)
    assert [t.tier for t in analysis.tiers] == db.order
    for counts in analysis.tiers:
        assert nonzero(counts.classes) == dict(classes.get(counts.tier, {})), counts.tier
        assert nonzero(counts.positions) == dict(positions.get(counts.tier, {})), counts.tier
        assert counts.label == game.tier_label(counts.tier)
    assert sum(analysis.classes.values()) == sum(sum(c.values()) for c in classes.values())
    assert {(v, r): c for v, r, c, _ in analysis.remoteness} == dict(rows)
    assert sum(p for *_, p in analysis.remoteness) == sum(analysis.positions.values())


def test_connect_four_4x4_positions_by_value_and_start() -> None:
    db = solve_tiers(load_tiered_game("connect-four", rows=4, cols=4), progress=False)
    analysis = analyze_tiers(db, progress=False, jobs=1)
    assert analysis.tiers[-1].tier == 0
    assert analysis.tiers[-1].positions == {"WIN": 0, "LOSE": 0, "TIE": 1, "DRAW": 0}
    assert analysis.to_json()["tiers"][0]["positions"] == analysis.tiers[0].positions
    assert Analysis.from_json(json.loads(json.dumps(analysis.to_json()))) == analysis
    assert analysis.won is None and "won" not in analysis.to_json()  # it does not tell who moves


@pytest.fixture
def solved_dir(tmp_path: Path) -> Iterator[Path]:
    for directory in memory_dir(tmp_path):
        game = load_tiered_game("connect-four", rows=3, cols=4)
        solve_tiers(game, directory / "c4", progress=False).close()
        yield directory / "c4"


def test_the_cache_is_reused_and_a_damaged_one_recomputed(
    solved_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from perfectplay.solved import open_tiers

    cache = solved_dir / "analysis.json"
    with open_tiers(solved_dir) as db:
        first = analyze_tiers(db, progress=False)
    assert cache.exists()
    written = cache.read_bytes()

    class NoWalk:
        def __init__(self, *args: object) -> None:
            raise AssertionError("the forward pass ran again")

    with monkeypatch.context() as patch:
        patch.setattr(analyze_module, "_Walk", NoWalk)
        with open_tiers(solved_dir) as db:
            assert analyze_tiers(db, progress=False) == first
    for damaged in (b"", b"{not json", b'{"tiers": 5}', b'{"tiers": [], "remoteness": [{}]}'):
        cache.write_bytes(damaged)
        with open_tiers(solved_dir) as db:
            assert analyze_tiers(db, progress=False) == first
        assert cache.read_bytes() == written


def test_tiers_in_memory_write_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = solve_tiers(load_tiered_game("connect-four", rows=2, cols=2), progress=False)
    assert analyze_tiers(db, progress=False) == analyze_tiers(db, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_walk_holds_one_tier_of_records_at_a_time(
    solved_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_tiers(solved_dir)  # records read from the files: none held by the database
    read = db.records
    alive: list[weakref.ref[Any]] = []
    most = 0

    def records(tier: int) -> Any:
        nonlocal most
        gc.collect()
        most = max(most, sum(ref() is not None for ref in alive))
        array = read(tier)
        alive.append(weakref.ref(array))
        return array

    monkeypatch.setattr(db, "records", records)
    with db:
        analyze_tiers(db, progress=False, jobs=1)
    assert len(alive) == len(db.order)  # every tier read (each reaches something)
    assert most <= 1  # the tier before may still be in hand; never the walk's past ones


class Stop(Exception):
    """A walk stopped midway (as by a kill)."""


@pytest.mark.parametrize("game_name", ["connect-four", "quixo"])
@pytest.mark.parametrize("part", [0.0, 0.3, 0.6, 0.95])
def test_a_stopped_walk_goes_on_from_its_files_to_the_same_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_name: str, part: float
) -> None:
    """Stopped after a `part` of its expansions (in the middle of a tier, loopy ones
    included), with the last line of its log cut short, a walk started again counts what an
    unstopped one does and leaves no walk files."""
    params = {"rows": 3, "cols": 4} if game_name == "connect-four" else {"size": 3}
    game = load_tiered_game(game_name, **params)
    directory = tmp_path / "db"
    solve_tiers(game, directory, progress=False).close()
    real = analyze_module._Walk.expand
    calls = [0]

    def counted(self: Any, *args: Any) -> Any:
        calls[0] -= 1
        if calls[0] == -1:
            raise Stop
        return real(self, *args)

    with monkeypatch.context() as patch:
        patch.setattr(analyze_module._Walk, "expand", counted)
        calls[0] = 1 << 30
        expected = analyze_tiers(solve_tiers(game, progress=False), progress=False, jobs=2)
        calls[0] = int(part * ((1 << 30) - calls[0]))
        with pytest.raises(Stop), open_tiers(directory) as db:
            analyze_tiers(db, progress=False, jobs=2)
    log = directory / "analysis.walk" / "counts.jsonl"
    assert list(log.parent.glob("*.bits"))  # the flags of tiers reached, not yet counted
    with open(log, "ab") as handle:
        handle.write(b'{"tier": 1, "clas')
    with open_tiers(directory) as db:
        assert analyze_tiers(db, progress=False, jobs=2) == expected
    assert not (directory / "analysis.walk").exists() and (directory / "analysis.json").exists()


def test_analyze_killed_and_run_again_counts_the_same(tmp_path: Path) -> None:
    """``kill -9`` of a real ``perfectplay analyze`` midway: run again, it prints what an
    unkilled run prints."""
    for directory in memory_dir(tmp_path):
        params = ["--param", "speeds=1,3,2", "--param", "home=2"]
        solved = run_cli(["solve", "squadro", *params, "--tiers", str(directory / "a")])
        assert solved.code == 0, solved.err
        shutil.copytree(directory / "a", directory / "b")
        expected = run_cli(["analyze", str(directory / "a")])
        log = directory / "b" / "analysis.walk" / "counts.jsonl"
        command = [sys.executable, "-m", "perfectplay", "analyze", str(directory / "b")]
        assert kill_when(command, log.exists, 0.05)
        assert log.exists() and not (directory / "b" / "analysis.json").exists()
        again = run_cli(["analyze", str(directory / "b")])
        assert again.code == 0 and again.out == expected.out


def test_parts_and_groups_add_up_to_the_tiers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quixo 3x3 with every tier of 3 ranks or more cut in three parts, two of them under the
    same label: each tier's parts, in rank order, add up to its counts; grouped (by parity),
    the groups add up to the tiers of each parity, parts included."""
    game = load_tiered_game("quixo", size=3)
    db = solve_tiers(game, progress=False)
    whole = analyze_tiers(db, progress=False, jobs=1)

    def parts(self: Any, tier: int) -> list[tuple[str, int]] | None:
        size = self.tier_size(tier)
        return None if size < 3 else [("a", 0), ("a", size // 3), ("b", 2 * size // 3)]

    monkeypatch.setattr(type(game), "tier_parts", parts)
    split = analyze_tiers(db, progress=False, jobs=1)
    for counts in whole.tiers:
        mine = [t for t in split.tiers if t.tier == counts.tier]
        cut = game.tier_size(counts.tier) >= 3
        assert [t.label for t in mine] == (["a", "a", "b"] if cut else [counts.label])
        for key in ("classes", "positions"):
            added = Counter[str]()
            for t in mine:
                added.update(getattr(t, key))
            assert nonzero(added) == nonzero(getattr(counts, key)), counts.label
    assert split.remoteness == whole.remoteness
    monkeypatch.setattr(type(game), "tier_group", lambda self, tier: f"g{tier % 2}")
    grouped = analyze_tiers(db, progress=False, jobs=1)
    assert sorted(t.label for t in grouped.tiers) == ["g0", "g1"]
    for t in grouped.tiers:
        parity = [c for c in whole.tiers if f"g{c.tier % 2}" == t.label]
        assert t.positions == {k: sum(c.positions[k] for c in parity) for k in t.positions}


def test_a_walk_log_of_whole_tiers_goes_on_with_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A walk's log whose lines hold whole tiers (no ``parts``) for a game that names parts
    (Six Men's Morris with 4 stones: one tier of two subspaces): the walk goes on from it,
    each tier of the log reported as one, to the same totals."""
    game = load_tiered_game("nine-mens-morris", variant="six", stones=4)
    directory = tmp_path / "db"
    solve_tiers(game, directory, progress=False).close()
    with monkeypatch.context() as patch:  # the walk's directory kept, its log complete
        patch.setattr(analyze_module.shutil, "rmtree", lambda path: None)
        with open_tiers(directory) as db:
            expected = analyze_tiers(db, progress=False, jobs=1)
    (directory / "analysis.json").unlink()
    log = directory / "analysis.walk" / "counts.jsonl"
    lines = []
    for raw in log.read_text().splitlines():
        record = json.loads(raw)
        whole = {"tier": record["tier"], "rows": record["rows"]}
        for key in ("classes", "positions"):
            whole[key] = dict(sum((Counter(p[key]) for p in record["parts"]), Counter()))
        lines.append(json.dumps(whole) + "\n")
    log.write_text("".join(lines))
    with open_tiers(directory) as db:
        again = analyze_tiers(db, progress=False, jobs=1)
    assert len(expected.tiers) == len(again.tiers) + 1  # the two subspaces are one tier
    assert [t.label for t in again.tiers] == [game.tier_label(t) for t in db.order]
    assert again.classes == expected.classes and again.positions == expected.positions
    assert again.remoteness == expected.remoteness
