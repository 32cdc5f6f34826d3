"""The analyze command (perfectplay.cli.analyze): counts of a saved solution, checked against
the in-memory solver and an enumeration without symmetry."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.api import solve
from perfectplay.enumeration.reachable import count_reachable
from perfectplay.games.registry import load_game
from perfectplay.values import Value


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("analyze")
    files = {"store": root / "nim.ppstore", "tiers": root / "c4"}
    assert run_cli(["solve", "nim", "--param", "heaps=2,3,4", "-o", str(files["store"])]).code == 0
    made = run_cli(
        ["solve", "connect-four", "--param", "rows=3", "--param", "cols=4", "--tiers",
         str(files["tiers"])]
    )  # fmt: skip
    assert made.code == 0, made.err
    return files


def test_a_stores_counts_are_the_in_memory_solutions(saved: dict[str, Path]) -> None:
    record = json.loads(run_cli(["analyze", str(saved["store"]), "--json"]).out)
    solved = solve(load_game("nim", heaps=(2, 3, 4)))
    expected = Counter(
        (Value(int(v)).name, int(r))
        for v, r in zip(solved.solution.value, solved.solution.remoteness, strict=True)
    )
    got = {(c["value"], c["remoteness"]): c["count"] for c in record["counts"]}
    assert got == dict(expected)
    assert record["positions"] == len(solved) == sum(got.values())
    assert record["moves"] == solved.graph.m and record["params"] == {"heaps": [2, 3, 4]}


def test_the_table_reads_back_to_the_json_counts(saved: dict[str, Path]) -> None:
    text = run_cli(["analyze", str(saved["store"])]).out.splitlines()
    record = json.loads(run_cli(["analyze", str(saved["store"]), "--json"]).out)
    header, columns, *rows, total = text
    assert header.startswith("nim heaps=2,3,4: ") and f"{record['moves']:,} moves" in header
    names = columns.split()[1:-1]
    assert names == ["WIN", "LOSE", "TIE", "DRAW"]
    got = {}
    for row in rows:
        r, *counts, row_total = (int(x.replace(",", "")) for x in row.split())
        assert sum(counts) == row_total
        got.update({(name, r): c for name, c in zip(names, counts, strict=True) if c})
    assert got == {(c["value"], c["remoteness"]): c["count"] for c in record["counts"]}
    assert int(total.split()[-1].replace(",", "")) == record["positions"]


def test_a_tier_directory_counts_every_position_reachable_from_the_start(
    saved: dict[str, Path],
) -> None:
    record = json.loads(run_cli(["analyze", str(saved["tiers"]), "--json"]).out)
    positions = sum(sum(t["positions"].values()) for t in record["tiers"])
    classes = sum(sum(t["classes"].values()) for t in record["tiers"])
    game = load_game("connect-four", rows=3, cols=4)
    # Independently: the plain enumeration without merging mirror images.
    assert positions == count_reachable(game, len(solve(game)), canonical=True)
    assert classes == len(solve(game))
    text = run_cli(["analyze", str(saved["tiers"])]).out
    assert text.splitlines()[0].startswith(
        f"connect-four (rows=3, cols=4): {positions:,} positions reachable from the start, "
        f"stored as {classes:,} classes"
    )


@pytest.mark.parametrize("args", [["nowhere.ppstore"], ["nim"], []])
def test_no_saved_solution_is_one_error_line_with_exit_2(args: list[str]) -> None:
    result = run_cli(["analyze", *args])
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) >= 1 and "Traceback" not in result.err
    if args:
        assert len(result.err.strip().splitlines()) == 1
