"""The command line on tier directories: ``solve --tiers``, ``query DIR``, ``analyze DIR``,
``play --db DIR`` answer as they do on a store file of the same game; bad input is one line
and exit 2, with nothing written."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import Result, run_cli
from tier_dirs import memory_dir, tree

GAME = ["connect-four", "--param", "rows=3", "--param", "cols=4"]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Connect Four 3x4 solved by the tier engine into a directory, and into a store file."""
    for directory in memory_dir(tmp_path_factory.mktemp("cli-tiers")):
        tiers, store = directory / "tiers", directory / "store.pps"
        done = run_cli(["solve", *GAME, "--tiers", str(tiers), "--chunk-size", "4096", "--json"])
        assert done.code == 0, done.err
        assert run_cli(["solve", *GAME, "--save", str(store)]).code == 0
        yield tiers, store


@pytest.fixture
def copy(solved: tuple[Path, Path], tmp_path: Path) -> Path:
    """A copy of the tier directory to damage."""
    target = tmp_path / "tiers"
    shutil.copytree(solved[0], target)
    return target


def board(*rows: str) -> list[str]:
    """A Connect Four 3x4 position as ``query`` takes it: rows top down, cells X, O or '.'."""
    return ["\n".join(" ".join(row) for row in rows)]


def fails(result: Result, *words: str, output: bool = False) -> str:
    """Assert one error line with exit code 2 and no output (unless `output`: a game played
    before the error); returns the message."""
    assert result.code == 2, (result.out, result.err)
    assert output or result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfectplay: error: "), result.err
    assert "Traceback" not in result.err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def test_solve_into_a_directory_reports_the_start_and_the_files(tmp_path: Path) -> None:
    for scratch in memory_dir(tmp_path):
        solve_and_solve_again(scratch / "d")


def solve_and_solve_again(directory: Path) -> None:
    done = run_cli(["solve", *GAME, "--tiers", str(directory), "--jobs", "2", "--json"])
    assert done.code == 0, done.err
    record = json.loads(done.out)
    assert record["game"] == "connect-four" and record["params"] == {"rows": 3, "cols": 4}
    assert record["tiers"] == 13 and record["directory"] == str(directory)
    assert record["run"]["tiers_solved"] == 13 and record["run"]["tiers_kept"] == 0
    on_disk = sum(p.stat().st_size for p in directory.glob("tier-*.tier"))
    assert record["bytes"] == on_disk and record["stored_classes"] > 0
    again = run_cli(["solve", *GAME, "--tiers", str(directory)])
    assert again.code == 0, again.err
    assert f"13 tiers solved into {directory}" in again.out
    assert "resumed: 13 tiers and 0 chunks were complete already; solved 0 tiers" in again.out
    start = record["start"]
    assert f"start: {start['value']}" in again.out


def test_query_answers_as_on_a_store_file(solved: tuple[Path, Path]) -> None:
    tiers, store = solved
    positions = [
        [],
        board("....", "....", "X..."),
        board("....", "....", "XOX."),
        board("X...", "O...", "XO.."),
        board("....", "OO..", "XXX."),  # O to move can stop X only in column d
        board("XOXO", "OXOX", "XOXO"),  # the board is full
    ]
    for position in positions:
        for flags in ([], ["--json"]):
            from_tiers = run_cli(["query", str(tiers), *position, *flags])
            from_store = run_cli(["query", str(store), *position, *flags])
            assert from_tiers.code == from_store.code == 0, (from_tiers.err, from_store.err)
            assert from_tiers.out == from_store.out, position
    unreachable = board("....", "XXX.", "OOO.")  # X's first stone is not on the bottom row
    fails(run_cli(["query", str(tiers), *unreachable]), "no position")
    fails(run_cli(["query", str(store), *unreachable]), "not in")


def test_analyze_counts_reachable_positions_and_classes(solved: tuple[Path, Path]) -> None:
    tiers, store = solved
    done = run_cli(["analyze", str(tiers), "--json"])
    assert done.code == 0, done.err
    record = json.loads(done.out)
    names = {"WIN", "LOSE", "TIE", "DRAW"}
    assert len(record["tiers"]) == 13
    for key in ("positions", "classes"):
        assert set(record[key]) == names
        for name in names:
            assert record[key][name] == sum(t[key][name] for t in record["tiers"])
    stored = json.loads(run_cli(["analyze", str(store), "--json"]).out)
    assert sum(record["classes"].values()) == stored["positions"]  # the store: classes
    assert sum(record["positions"].values()) >= sum(record["classes"].values())
    text = run_cli(["analyze", str(tiers)]).out
    assert "positions by tier:" not in text
    assert f"{sum(record['positions'].values()):,} positions reachable" in text
    by_tier = run_cli(["analyze", str(tiers), "--by-tier"]).out
    rows = by_tier.split("positions by tier:\n", 1)[1].splitlines()
    assert len(rows) == 1 + 13
    assert rows[0].split() == ["tier", "WIN", "LOSE", "TIE", "DRAW", "classes"]
    assert len({len(row) for row in rows}) == 1  # counts right-aligned under their heading
    for row, tier in zip(rows[1:], record["tiers"], strict=True):
        label, *cells = row.split()
        assert label == tier["label"] and row.startswith(label + " ")  # labels to the left
        assert cells == [f"{tier['positions'][n]:,}" for n in ("WIN", "LOSE", "TIE", "DRAW")] + [
            f"{sum(tier['classes'].values()):,}"
        ]
    table = text.split("positions by value and remoteness:\n", 1)[1].splitlines()
    total = next(line for line in table if line.startswith("total "))
    assert total.split()[-1] == f"{sum(record['positions'].values()):,}"  # 12,031: a separator
    fails(run_cli(["analyze", str(store), "--by-tier"]), "--by-tier applies to a tier directory")


def test_play_from_a_directory_is_play_from_a_store_file(solved: tuple[Path, Path]) -> None:
    tiers, store = solved
    script = "values\nhint\nb\nvalues\nundo\nc\nhint\na\na\nd\nb\nquit\n"
    for side in ("first", "second"):
        with_db = run_cli(["play", "connect-four", "--db", str(tiers), "--side", side], script)
        with_store = run_cli(["play", "connect-four", "--db", str(store), "--side", side], script)
        directly = run_cli(["play", str(tiers), "--side", side], script)
        assert with_db.code == with_store.code == directly.code == 0, with_db.err
        assert with_db.out == with_store.out == directly.out
        assert with_db.out.count("Computer plays") >= 3


# ---------------------------------------------------------------------- one line, exit 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["connect-four", "--param", "foo=3"], ["no parameter 'foo'"]),
        (["connect-four", "--param", "rows=9", "--param", "cols=9"], ["rows=9", "cols=9"]),
        (["tic-tac-toe"], ["no tiered form", "connect-four"]),
        ([*GAME, "--jobs", "0"], ["--jobs", "0"]),
        ([*GAME, "--chunk-size", "0"], ["--chunk-size", "0"]),
        ([*GAME, "--chunk-size", "300000"], ["multiple of 262144", "300000"]),
        ([*GAME, "--save", "x.pps"], ["--save"]),
    ],
)
def test_bad_solve_arguments_fail_in_one_line_writing_nothing(
    tmp_path: Path, args: list[str], words: list[str]
) -> None:
    directory = tmp_path / "d"
    fails(run_cli(["solve", *args, "--tiers", str(directory)]), *words)
    assert not directory.exists() and list(tmp_path.iterdir()) == []


def test_options_of_the_tier_engine_need_tiers(tmp_path: Path) -> None:
    fails(run_cli(["solve", *GAME, "--jobs", "2"]), "--tiers")
    fails(run_cli(["solve", *GAME, "--chunk-size", "4096"]), "--tiers")


def test_a_directory_of_another_game_is_refused(copy: Path) -> None:
    before = tree(copy)
    other = ["connect-four", "--param", "rows=4", "--param", "cols=3"]
    fails(run_cli(["solve", *other, "--tiers", str(copy)]), str(copy), "rows=3", "rows=4")
    fails(run_cli(["solve", "dodgem", "--param", "size=3", "--tiers", str(copy)]), "dodgem")
    fails(run_cli(["play", "dodgem", "--db", str(copy)], "quit\n"), "connect-four", "dodgem")
    assert tree(copy) == before


def damaged(copy: Path, how: str) -> Path:
    path = copy / "tier-6.tier"
    data = bytearray(path.read_bytes())
    if how == "truncated":
        path.write_bytes(bytes(data[: len(data) // 2]))
    else:
        data[len(data) * 3 // 4] ^= 0x04
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("how", ["truncated", "corrupted"])
def test_a_damaged_tier_file_fails_every_command_in_one_line(copy: Path, how: str) -> None:
    assert run_cli(["analyze", str(copy)]).code == 0  # the counts kept in analysis.json
    path = damaged(copy, how)
    five_stones = board("....", "O...", "XOXX")  # its moves lead to tier 6
    repair = "; solving into the directory again solves it again"
    fails(run_cli(["query", str(copy), *five_stones]), str(path), repair)
    fails(run_cli(["verify", str(copy)]), str(path), repair)
    # The counts kept from before the damage are not answered from while a file is damaged.
    assert (copy / "analysis.json").exists()
    fails(run_cli(["analyze", str(copy)]), str(path), repair)
    (copy / "analysis.json").unlink()
    fails(run_cli(["analyze", str(copy), "--json", "--by-tier"]), str(path), repair)
    assert not (copy / "analysis.json").exists()
    script = "a\nb\nc\nd\na\nb\nc\nd\nquit\n"  # the reply to the third move reads tier 6
    played = run_cli(["play", "connect-four", "--db", str(copy)], script)
    fails(played, str(path), repair, output=True)


def test_solve_again_solves_the_missing_and_damaged_tiers_and_keeps_the_others(
    solved: tuple[Path, Path], copy: Path
) -> None:
    """The issue's case: a tier file removed (a middle tier: tiers it reads and tiers reading
    it are complete), one truncated, one with a flipped byte; analyze refuses the counts it
    kept, and solve again gives the files of a clean solve, keeping every good one."""
    (copy / "tier-6.tier").unlink()
    truncated = copy / "tier-4.tier"
    truncated.write_bytes(truncated.read_bytes()[:-7])
    flipped = copy / "tier-9.tier"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x10
    flipped.write_bytes(bytes(data))
    fails(run_cli(["analyze", str(copy)]), "not completely solved", "tiers 6")
    stamps = {p.name: p.stat().st_mtime_ns for p in copy.glob("tier-*.tier")}
    done = run_cli(["solve", *GAME, "--tiers", str(copy), "--json"])
    assert done.code == 0, done.err
    run = json.loads(done.out)["run"]
    assert run["tiers_solved"] == 3 and run["tiers_kept"] == 10
    assert tree(copy) == tree(solved[0])
    for name, stamp in stamps.items():
        if name not in ("tier-4.tier", "tier-9.tier"):
            assert (copy / name).stat().st_mtime_ns == stamp, f"{name} was solved again"
    assert run_cli(["analyze", str(copy)]).code == 0


def test_connect_four_7x6_is_refused_before_the_plan_with_its_memory_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's case: the refusal (501 GiB) came after planning its 412,972 tiers (1 min 47
    s), then after listing them twice (20 s); now from the largest tiers, asking only 64 of them
    for their child tiers and never listing the tiers, on one line (no engine line before it)."""
    import perfectplay._memory
    from perfectplay.games.connect_four.heights import HeightTieredConnectFour

    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 24 << 30)
    asked: set[int] = set()
    listed: list[object] = []
    real = HeightTieredConnectFour.child_tiers

    def child_tiers(self: HeightTieredConnectFour, tier: int) -> list[int]:
        asked.add(tier)
        return real(self, tier)

    monkeypatch.setattr(HeightTieredConnectFour, "child_tiers", child_tiers)
    monkeypatch.setattr(HeightTieredConnectFour, "tiers", lambda self: listed.append(self) or [])
    done = run_cli(["solve", "connect-four", "--param", "rows=6", "--param", "cols=7"])
    assert (done.code, done.out, listed) == (2, "", [])
    assert done.err.splitlines() == [
        "perfectplay: error: connect-four: tier 5-6-6-6-6-6-6 with the tiers it reads (1 byte "
        "per rank of a solved tier) needs about 501.4 GiB of memory but only 24.0 GiB is "
        "available"
    ]
    assert len(asked) <= 64


@pytest.mark.parametrize("kept", [False, True])
def test_sigterm_mid_solve_leaves_nothing_half_written(tmp_path: Path, kept: bool) -> None:
    """A real ``solve`` of Connect Four 5x5 killed with SIGTERM once its first tier files are
    written: without -o its temporary directory is removed (it was left, 153 MB after 15 s of
    5x6), as after SIGINT; into --tiers DIR no temporary file is left, and the same command
    then resumes, keeping every tier and chunk file the killed run left."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    directory = tmp_path / "kept"
    code = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "solve", "connect-four", "--param", "rows=5",
               "--param", "cols=5", "--engine", "tiers", "--jobs", "2", "--json"]  # fmt: skip
    if kept:
        command += ["-o", str(directory)]
    process = subprocess.Popen(
        command, env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    where = directory if kept else scratch
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if len(list(where.rglob("*.tier"))) >= 3:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the solve ended before it could be killed"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    assert list(scratch.iterdir()) == []
    if kept:
        assert [p for p in directory.rglob("*") if ".tmp-" in p.name] == []
        # What the killed run left: its tier files, and the chunk files of tiers not merged
        # (a merge writes the tier file before removing its chunks, so both may be there).
        tiers = {p.stem for p in directory.glob("*.tier")}
        chunks = [p for p in directory.glob("*.chunks/*.tier") if p.parent.stem not in tiers]
        again = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        run = json.loads(again.stdout)["run"]
        assert (run["tiers_kept"], run["chunks_kept"]) == (len(tiers), len(chunks))
        assert run["tiers_kept"] + run["chunks_kept"] >= 1


def test_incomplete_or_foreign_directories_fail_in_one_line(copy: Path, tmp_path: Path) -> None:
    (copy / "tier-4.tier").unlink()
    for command in (["query", str(copy)], ["analyze", str(copy)], ["play", str(copy)]):
        fails(run_cli(command, "quit\n"), "not completely solved", "tiers 4")
    empty = tmp_path / "empty"
    empty.mkdir()
    fails(run_cli(["query", str(empty)]), "not a tier directory")
    fails(run_cli(["analyze", str(empty)]), "not a tier directory")
