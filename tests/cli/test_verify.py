"""The verify command (perfectplay.cli.verify): graph and solution texts, tier directories."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from cli_helpers import Result, run_cli


def test_cli_verify_graph_and_solution(tmp_path) -> None:  # type: ignore[no-untyped-def]
    graph = tmp_path / "g.txt"
    graph.write_text("5 4\n0 1\n1 2\n3 3\n4 0\n4 TIE\n")
    solved = run_cli(["solve", str(graph)])
    good = tmp_path / "s.txt"
    good.write_text(solved.out)
    result = run_cli(["verify", str(graph), str(good)])
    assert (
        result.code == 0
        and result.out.startswith("verified: ")
        and len(result.out.splitlines()) == 1
    )
    bad = tmp_path / "bad.txt"
    bad.write_text(solved.out.replace("0 LOSE 2", "0 LOSE 3"))
    result = run_cli(["verify", str(graph), str(bad)])
    assert result.code == 1
    assert "position 0: LOSE 3 but move to 1 gives WIN 1 to the opponent" in result.out
    assert run_cli(["verify", str(graph)]).code == 2
    assert run_cli(["verify", str(graph), str(tmp_path / "missing")]).code == 2


def test_cli_verify_tier_directory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    directory = tmp_path / "dodgem"
    assert run_cli(["solve", "dodgem", "--tiers", str(directory)]).code == 0
    result = run_cli(["verify", str(directory)])
    assert result.code == 0 and result.out.startswith("verified: the tier directory")


def test_cli_verify_counts_with_thousands_separators(tmp_path: Path) -> None:
    store = tmp_path / "ttt.ppstore"
    assert run_cli(["solve", "tic-tac-toe", "-o", str(store)]).code == 0
    result = run_cli(["verify", str(store)])
    assert result.code == 0
    assert f"verified: {store} holds (765 positions, 2,270 moves, " in result.out


GRAPH = "3 2\n0 1\n1 2\n"
SOLVED = "0 WIN 1\n1 LOSE 2\n2 LOSE 0\n"  # wrong at 0 and 1 (0 -> 1 -> 2 stuck)


def _refused_in_one_line(result: Result, *words: str) -> None:
    assert result.code == 2 and result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfectplay: error: "), result.err
    assert all(w in lines[0] for w in words), result.err


def test_the_solution_can_come_from_standard_input(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text(GRAPH)
    good = run_cli(["verify", str(tmp_path / "g.txt"), "-"], "0 LOSE 2\n1 WIN 1\n2 LOSE 0\n")
    assert good.code == 0 and "- solves" in good.out and "3 positions, 2 moves" in good.out


def test_a_refuted_solution_lists_its_offenders_with_exit_1(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text(GRAPH)
    result = run_cli(["verify", str(tmp_path / "g.txt"), "-"], SOLVED)
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == "NOT VERIFIED: 2 of 3 positions break the rules"
    assert lines[1].startswith("position 0: WIN 1 but") and lines[2].startswith("position 1:")


def test_json_holds_the_report(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text(GRAPH)
    result = run_cli(["verify", str(tmp_path / "g.txt"), "-", "--json"], SOLVED)
    record = json.loads(result.out)
    assert result.code == 1 and record["verified"] is False and record["bad"] == 2
    assert (record["positions"], record["moves"]) == (3, 2) and len(record["problems"]) == 2


def test_bad_input_is_one_error_line_with_exit_2(tmp_path: Path) -> None:
    graph = tmp_path / "g.txt"
    graph.write_text(GRAPH)
    _refused_in_one_line(run_cli(["verify", str(graph)]), "give the solution to check too")
    _refused_in_one_line(run_cli(["verify", str(graph), "-"], "0 WIN\n"), "line 1")
    _refused_in_one_line(run_cli(["verify", str(tmp_path / "none.txt")]), "none.txt")
    store = tmp_path / "s.ppstore"
    assert run_cli(["solve", str(graph), "--save", str(store)]).code == 0
    _refused_in_one_line(
        run_cli(["verify", str(store), str(graph)]), "is a store file", "without SOLUTION"
    )
    _refused_in_one_line(run_cli(["verify", str(tmp_path)]), "not a tier directory")


def _flip_first_win(directory: Path) -> str:
    """Rewrite one tier file of `directory` with its first WIN stored as a LOSE; its label."""
    from perfectplay.tiers.files import TierFile, write_tier_file
    from perfectplay.tiers.records import pack, unpack
    from perfectplay.values import LOSE, WIN

    for path in sorted(directory.glob("tier-*.tier")):
        with TierFile(str(path)) as f:
            meta, start, stop, block = f.meta, f.start, f.stop, f.block
            arrays = {name: f.read(name) for name in f.arrays}
        value, remoteness = unpack(arrays["records"])
        wins = np.flatnonzero(value == WIN)
        if wins.size:
            value[wins[0]] = LOSE
            arrays["records"] = pack(value, remoteness, arrays["records"].dtype.type)
            write_tier_file(str(path), meta, start, stop, block, arrays)
            return path.name[len("tier-") : -len(".tier")]
    raise AssertionError("no WIN stored")


def test_probe_agrees_on_a_solved_directory_and_refutes_a_changed_one(tmp_path: Path) -> None:
    directory = tmp_path / "dodgem"
    assert run_cli(["solve", "dodgem", "--tiers", str(directory)]).code == 0
    probe = ["--probe", "10000", "--depth", "3"]  # more than it holds: every position
    result = run_cli(["verify", str(directory), *probe, "--seed", "4"])
    assert result.code == 0 and result.out.startswith(
        f"verified: the tier directory {directory} agrees with a search of its rules ("
    )
    assert "probed to depth 3" in result.out and "positions found to probe" in result.err
    record = json.loads(run_cli(["verify", str(directory), "--probe", "30", "--json"]).out)
    assert record["verified"] is True and (record["probed"], record["depth"]) == (30, 4)
    assert record["agreed"] == record["decided"] and record["bad"] == 0
    label = _flip_first_win(directory)
    result = run_cli(["verify", str(directory), *probe, "--tier", label])
    assert result.code == 1, result.out
    assert result.out.splitlines()[0].startswith("NOT VERIFIED: 1 of ")
    assert f"tier {label} rank " in result.out and "stored LOSE" in result.out


def test_probe_bad_input_is_one_error_line_with_exit_2(tmp_path: Path) -> None:
    directory = tmp_path / "dodgem"
    assert run_cli(["solve", "dodgem", "--tiers", str(directory)]).code == 0
    d = str(directory)
    _refused_in_one_line(run_cli(["verify", d, "--probe", "0"]), "--probe needs 1 position")
    _refused_in_one_line(run_cli(["verify", d, "--probe", "5", "--depth", "-1"]), "got -1")
    _refused_in_one_line(run_cli(["verify", d, "--probe", "x"]), "invalid int value: 'x'")
    _refused_in_one_line(run_cli(["verify", d, "--depth", "3"]), "--depth applies with --probe")
    _refused_in_one_line(run_cli(["verify", d, "--tier", "3"]), "--tier applies with --probe")
    _refused_in_one_line(
        run_cli(["verify", d, "--probe", "5", "--tier", "nowhere"]), "has no tier 'nowhere'"
    )
    graph = tmp_path / "g.txt"
    graph.write_text(GRAPH)
    store = tmp_path / "s.ppstore"
    assert run_cli(["solve", str(graph), "--save", str(store)]).code == 0
    for path, kind in ((graph, "graph"), (store, "store")):
        _refused_in_one_line(
            run_cli(["verify", str(path), "--probe", "5"]),
            f"--probe applies to a tier directory, and {path} is a {kind} file",
        )
    _refused_in_one_line(run_cli(["verify", str(tmp_path), "--probe", "5"]), "not a tier directory")
    _refused_in_one_line(
        run_cli(["verify", d, str(graph), "--probe", "5"]), "--probe takes one tier directory"
    )
