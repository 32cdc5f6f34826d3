"""Pursuit as an implicit tiered game: the same game as the materialised position graph."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from brute import pursuit_bob_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.builders.pursuit import EVADER, Pursuit
from perfectplay.builders.pursuit_tiers import PursuitTiers
from perfectplay.errors import InvalidGraphError, StoreError
from perfectplay.graph import GameGraph
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import DRAW, UNDECIDED


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A digraph of 1 to 6 vertices, self-loops and repeated edges allowed."""
    n = draw(st.integers(1, 6))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    return n, draw(st.lists(edge, max_size=3 * n))


def _board(n: int, edges: list[tuple[int, int]]) -> GameGraph:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return GameGraph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), n=n)


def _explicit(game: PursuitTiers) -> tuple[GameGraph, np.ndarray]:
    """The position graph built from children() of every rank, and the primitive values."""
    moves = game.children(0, np.arange(game.tier_size(0), dtype=np.int64))
    assert (moves.which == 0).all()
    return GameGraph(moves.indptr, moves.rank), moves.primitive


def _move_sets(graph: GameGraph) -> list[set[int]]:
    return [set(graph.moves(p).tolist()) for p in range(graph.n)]


@settings(max_examples=150, deadline=None)
@given(boards())
def test_children_are_the_materialised_moves(board: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = board
    game = PursuitTiers(_board(n, edges))
    graph, primitive = _explicit(game)
    assert _move_sets(graph) == _move_sets(Pursuit(_board(n, edges)).graph())
    assert (primitive == Pursuit(_board(n, edges)).primitive()).all()
    assert (np.diff(graph.indptr) <= game.max_moves()).all()
    # Repeated board edges are kept once: no position lists a child twice.
    assert all(len(set(graph.moves(p).tolist())) == graph.moves(p).size for p in range(graph.n))


@settings(max_examples=150, deadline=None)
@given(boards())
def test_parents_invert_children(board: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = board
    game = PursuitTiers(_board(n, edges))
    graph, _ = _explicit(game)
    ranks = np.arange(game.tier_size(0), dtype=np.int64)
    indptr, parents = game.parents(0, ranks)
    rindptr, rindices = graph.reverse()
    for r in ranks.tolist():
        got = sorted(parents[indptr[r] : indptr[r + 1]].tolist())
        assert got == sorted(rindices[rindptr[r] : rindptr[r + 1]].tolist())


@settings(max_examples=150, deadline=None)
@given(boards())
def test_solution_matches_materialised_game_and_brute_force(
    board: tuple[int, list[tuple[int, int]]],
) -> None:
    n, edges = board
    graph, primitive = _explicit(PursuitTiers(_board(n, edges)))
    implicit = solve_retrograde(graph, primitive)
    pursuit = Pursuit(_board(n, edges))
    materialised = pursuit.solve()
    assert (implicit.value == materialised.value).all()
    assert (implicit.remoteness == materialised.remoteness).all()
    bob = pursuit_bob_wins(n, edges)
    for position in range(pursuit.n_positions):
        evader, chaser, mover = pursuit.decode(position)
        value = int(implicit.value[position])
        evader_wins = value == DRAW or (value == 3) == (mover == EVADER)
        assert evader_wins == bob[(evader, chaser, mover)]


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(1, 2))
def test_tier_engine_solves_the_materialised_game(
    board: tuple[int, list[tuple[int, int]]], jobs: int
) -> None:
    n, edges = board
    game = PursuitTiers(_board(n, edges))
    check_tiered_game(game, samples=50)
    value, remoteness = solve_tiers(game, jobs=jobs, progress=False).arrays(0)
    materialised = Pursuit(_board(n, edges)).solve()
    assert (value == materialised.value).all()
    assert (remoteness == materialised.remoteness).all()


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_as_game_states_the_same_rules(
    board: tuple[int, list[tuple[int, int]]], data: st.DataObject
) -> None:
    n, edges = board
    game = PursuitTiers(_board(n, edges))
    plain = game.as_game()
    position = data.draw(st.integers(0, game.tier_size(0) - 1))
    assert game.locate(game.position(0, position)) == (0, position)
    moves = game.children(0, np.array([position], dtype=np.int64))
    listed = [child for _, child in plain.moves(position)]
    assert [game.locate(c)[1] for c in listed] == moves.rank.tolist()
    labels = [label for label, _ in plain.moves(position)]
    assert len(set(labels)) == len(labels)
    outcome = plain.outcome(position)
    assert moves.primitive[0] == (UNDECIDED if outcome is None else int(outcome))


def test_initial_and_bad_positions() -> None:
    game = PursuitTiers([(0, 1), (1, 2), (2, 0)], start=(2, 0))
    assert game.initial() == (0, 2 * 3 + 0)
    assert game.as_game().initial() == 6
    with pytest.raises(InvalidGraphError, match=r"position 18 is not in 0\.\.17"):
        game.locate(18)
    with pytest.raises(InvalidGraphError, match="integer id"):
        game.locate("a")
    with pytest.raises(InvalidGraphError, match="evader vertex 3 is not on the board"):
        PursuitTiers([(0, 1)], start=(3, 0))
    with pytest.raises(InvalidGraphError, match="at least one vertex"):
        PursuitTiers(GameGraph.from_edges([], [], n=0))


def test_tier_engine_on_a_board_larger_than_one_batch() -> None:
    # 2 * 200^2 = 80000 ranks: more than one batch of children (2^16) and of parents (2^14).
    rng = np.random.default_rng(9)
    board = GameGraph.from_edges(rng.integers(0, 200, 500), rng.integers(0, 200, 500), n=200)
    value, remoteness = solve_tiers(PursuitTiers(board), jobs=2, progress=False).arrays(0)
    materialised = Pursuit(board).solve()
    assert (value == materialised.value).all()
    assert (remoteness == materialised.remoteness).all()
    assert (value == DRAW).any() and (remoteness > 10).any()


def test_boards_of_the_same_size_are_different_games() -> None:
    cycle = PursuitTiers([(0, 1), (1, 2), (2, 0)])
    reverse = PursuitTiers([(1, 0), (2, 1), (0, 2)])
    assert cycle.info.params["n"] == reverse.info.params["n"] == 3
    assert cycle.info != reverse.info
    assert PursuitTiers([(0, 1), (0, 1), (1, 2), (2, 0)]).info == cycle.info  # repeats merged
    assert cycle.as_game().info == cycle.info


def test_tier_directory_of_another_board_is_refused(tmp_path: Path) -> None:
    cycle = PursuitTiers([(0, 1), (1, 2), (2, 0)])
    solved = solve_tiers(cycle, tmp_path / "db", jobs=1, progress=False)
    value, remoteness = solved.arrays(0)
    materialised = Pursuit([(0, 1), (1, 2), (2, 0)]).solve()
    assert (value == materialised.value).all()
    assert (remoteness == materialised.remoteness).all()
    solved.close()
    with pytest.raises(StoreError):
        solve_tiers(PursuitTiers([(1, 0), (2, 1), (0, 2)]), tmp_path / "db", progress=False)
