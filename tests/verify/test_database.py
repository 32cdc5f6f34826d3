"""verify_store (perfectplay.verify.database): stores of graphs and games against their rules.

On game stores, moves stored in the game's order are checked move by move
(no sort), moves stored in another order by sorting both lists; both ways accept exactly
the same stores and name the same positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from verify_helpers import brute_solved as _solved

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.store import save
from perfectplay.values import LOSE, UNDECIDED, WIN
from perfectplay.verify import database, verify_store

GAMES = {
    "connect-four": load_game("connect-four", rows=3, cols=4),  # batch_moves, canonical
    "tic-tac-toe": load_game("tic-tac-toe"),
    "nim": load_game("nim", heaps=(2, 3)),
}
SOLVED = {name: solve(game) for name, game in GAMES.items()}


def _save(path: Path, name: str, indices: Any) -> None:
    """Save `name`'s solution with its moves' targets replaced by `indices` (same rows)."""
    solved = SOLVED[name]
    graph = solved.solution.graph
    moved = GameGraph(graph.indptr, indices)
    solution = Solution(
        moved, solved.solution.value, solved.solution.remoteness, solver=solved.solution.solver
    )
    game = GAMES[name]
    save(
        path,
        solution,
        game=name,
        params=dict(game.info.params),
        codes=np.array(solved.codes, np.int64),
        start=solved.id_of(solved.initial),
        canonical=solved.enumeration.canonical,
    )


def _reports(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    fast = verify_store(path)
    with monkeypatch.context() as m:
        m.setattr(database, "_same_order", lambda *args: False)
        slow = verify_store(path)
    return fast, slow


@pytest.mark.parametrize("name", list(GAMES))
def test_a_store_verifies_in_the_games_order_and_in_any_other(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.ppstore"
    save(path, SOLVED[name])
    fast, slow = _reports(path, monkeypatch)
    assert fast.ok and slow.ok, (fast.problems, slow.problems)
    graph = SOLVED[name].solution.graph
    rng = np.random.default_rng(0)
    indices = graph.indices.copy()
    for p in range(graph.n):  # each row's moves shuffled: the same multiset, another order
        a, b = int(graph.indptr[p]), int(graph.indptr[p + 1])
        indices[a:b] = rng.permutation(indices[a:b])
    _save(path, name, indices)
    assert verify_store(path).ok


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(GAMES)), st.data())
def test_a_changed_move_is_refuted_the_same_way_by_both_comparisons(
    name: str, data: st.DataObject
) -> None:
    import tempfile

    graph = SOLVED[name].solution.graph
    k = data.draw(st.integers(0, graph.m - 1), label="move")
    target = data.draw(st.integers(0, graph.n - 1), label="new target")
    indices = graph.indices.copy()
    changed = int(indices[k]) != target
    indices[k] = target
    parent = int(np.searchsorted(graph.indptr, k, side="right")) - 1
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        path = Path(tmp) / "g.ppstore"
        _save(path, name, indices)
        fast, slow = _reports(path, monkeypatch)
    row = sorted(graph.indices[graph.indptr[parent] : graph.indptr[parent + 1]].tolist())
    new_row = sorted(indices[graph.indptr[parent] : graph.indptr[parent + 1]].tolist())
    if changed and row != new_row:
        message = f"position {parent}: its stored moves differ from the game's moves"
        assert message in fast.problems and message in slow.problems
    assert (fast.ok, fast.bad) == (slow.ok, slow.bad)
    assert set(fast.problems) == set(slow.problems)


def test_store_is_verified_and_a_mutation_refuted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ttt.ppstore"
    assert run_cli(["solve", "tic-tac-toe", "--save", str(path)]).code == 0
    report = verify_store(path)
    assert report.ok and report.positions == 765
    result = run_cli(["verify", str(path)])
    assert result.code == 0 and "765 positions" in result.out


def test_scored_graph_store_is_verified(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], n=4, gain=[1, 5, -2, 3])
    solution = solve_dag(graph)
    path = tmp_path / "scored.ppstore"
    save(path, solution)
    assert verify_store(path).ok
    assert solution.score is not None
    solution.score[0] += 1
    save(path, solution)
    report = verify_store(path)
    assert report.problems == [
        "position 0: score 4 but move to 1 gains 1 and leaves the opponent -2 "
        "(its moves imply score 3)"
    ]


def test_graph_store_mutation_is_refuted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 1, 3], [1, 2, 3], n=4)
    value, remoteness = _solved(graph, [UNDECIDED] * 4, False)
    path = tmp_path / "g.ppstore"
    save(path, Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    assert verify_store(path).ok
    remoteness[0] += 2
    save(path, Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    result = run_cli(["verify", str(path)])
    assert result.code == 1 and "position 0: LOSE 4" in result.out


def test_graph_store_primitives_are_checked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    graph = tmp_path / "g.txt"
    graph.write_text("3 2\n0 1\n1 2\n1 TIE\n")
    path = tmp_path / "g.ppstore"
    assert run_cli(["solve", str(graph), "--save", str(path)]).code == 0
    assert verify_store(path).ok
    from perfectplay.store import open_store, save

    with open_store(path) as store:
        solution = store.solution()
        value, remoteness = solution.value.copy(), solution.remoteness.copy()
        primitive = store.array("primitive").copy()
    value[1], value[0] = WIN, LOSE  # what the rules fixed at 1, changed consistently at 0
    remoteness[0] = 1
    save(path, Solution(solution.graph, value, remoteness, solver="edited"), primitive=primitive)
    assert verify_store(path).problems == ["position 1: WIN 0 but the rules fix TIE 0"]


def test_graph_store_records_its_rules_even_when_saved_from_python(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], n=4, gain=[1, 5, -2, 3])
    solution = solve_dag(graph, np.array([UNDECIDED, UNDECIDED, WIN, UNDECIDED], np.uint8))
    path = tmp_path / "scored.ppstore"
    save(path, solution)  # no primitive given: read off the solution, with terminal scores
    assert verify_store(path).ok and not verify_store(path).notes
    solution.remoteness[1] = 0  # a position with moves made to look over: not a rule
    save(path, solution, primitive=np.array([UNDECIDED, UNDECIDED, WIN, UNDECIDED], np.uint8))
    problems = " ".join(verify_store(path).problems)
    assert "position 1: WIN 0" in problems


def test_game_store_start_code_must_be_the_initial_positions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game
    from perfectplay.store import save

    game = load_game("nim", heaps=(1, 2))
    solved = solve(game)
    path = tmp_path / "nim.ppstore"
    save(path, solved)
    assert verify_store(path).ok
    codes = np.array(solved.codes, dtype=np.int64)
    start = solved.id_of(solved.initial)
    codes[start] = game.encode((2, 1))  # the same position, not its canonical code
    save(path, solved.solution, game="nim", params={"heaps": [1, 2]}, codes=codes, start=start)
    assert (
        "the start is not stored under the initial position's code" in verify_store(path).problems
    )
