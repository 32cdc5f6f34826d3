"""The demo command (perfectplay.cli.demo): the random game's summary against brute force."""

from __future__ import annotations

import re

import numpy as np
import pytest
from brute import retrograde
from cli_helpers import run_cli

from perfectplay.values import Value


@pytest.mark.parametrize(("n", "degree", "seed"), [(40, 1.5, 3), (60, 2.0, 11), (25, 0.5, 0)])
def test_the_random_games_counts_and_examples_are_the_brute_forces(
    n: int, degree: float, seed: int
) -> None:
    result = run_cli(["demo", "--positions", str(n), "--degree", str(degree), "--seed", str(seed)])
    assert result.code == 0, result.err
    # The same graph drawn independently from the seed, solved by rounds of full sweeps.
    m = round(n * degree)
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, size=m), rng.integers(0, n, size=m)
    value, remoteness = retrograde(n, list(zip(src.tolist(), dst.tolist(), strict=True)))
    assert f"{n:,} positions, {m:,} moves (seed {seed})" in result.out
    counts = re.search(r"values for the player to move: (.*)", result.out)
    assert counts is not None
    shown = {
        k: int(c.replace(",", "")) for k, c in (p.split() for p in counts.group(1).split(", "))
    }
    assert shown == {v.name: value.count(v) for v in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)}
    assert f"longest forced game: {max(remoteness)} moves" in result.out
    for p, name, r, moves in re.findall(
        r"position (\d+): (\w+)(?: in (\d+))?; best: (.*)", result.out
    ):
        p = int(p)
        assert Value(value[p]).name == name and (r == "" or int(r) == remoteness[p])
        for child, child_value in re.findall(r"-> (\d+) \((\w+)", moves):
            assert int(child) in dst[src == p].tolist()  # a move of the graph
            assert Value(value[int(child)]).flipped().name == child_value == name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--degree", "-1"], "expected a non-negative number, got -1"),
        (["--degree", "inf"], "expected a non-negative number, got inf"),
        (["--degree", "nan"], "expected a non-negative number, got nan"),
        (["--seed", "-1"], "expected a non-negative integer, got -1"),
        (["--seed", "x"], "expected a non-negative integer, got x"),
        (["--positions", "1.5"], "expected a positive integer, got 1.5"),
    ],
)
def test_bad_arguments_are_refused_with_exit_2(args: list[str], message: str) -> None:
    result = run_cli(["demo", *args])
    assert result.code == 2 and result.out == "" and message in result.err


def test_a_graph_beyond_memory_is_refused_before_it_is_drawn() -> None:
    result = run_cli(["demo", "--positions", str(10**15)])
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and "needs about" in result.err
