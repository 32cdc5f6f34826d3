"""verify_store on game stores: moves stored in the game's order are checked move by move
(no sort), moves stored in another order by sorting both lists; both ways accept exactly
the same stores and name the same positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.store import save
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
