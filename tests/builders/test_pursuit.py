"""Pursuit on a digraph: position graph against the rules, values against a brute force."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from brute import pursuit_bob_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.builders.pursuit import EVADER, PURSUER, Pursuit
from perfectplay.errors import InvalidGraphError, TooLargeError, UnknownNameError
from perfectplay.graph import GameGraph
from perfectplay.values import DRAW, LOSE, UNDECIDED, WIN


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A small random digraph; self-loops and repeated edges allowed."""
    n = draw(st.integers(1, 6))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    return n, draw(st.lists(edge, max_size=3 * n))


def _game(n: int, edges: list[tuple[int, int]], endless: str = "evader") -> Pursuit:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return Pursuit(GameGraph.from_edges(src, dst, n=n), endless=endless)


@settings(max_examples=60)
@given(boards())
def test_moves_follow_the_rules(board: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = board
    game = _game(n, edges)
    graph = game.graph()
    assert graph.n == game.n_positions == 2 * n * n
    assert graph.m == game.n_moves
    out: dict[int, list[int]] = {v: [] for v in range(n)}
    for u, v in edges:
        out[u].append(v)
    for position in range(graph.n):
        e, p, mover = game.decode(position)
        assert game.encode(e, p, mover) == position
        if e == p:
            expected: list[int] = []
        elif mover == EVADER:
            expected = [game.encode(e2, p, PURSUER) for e2 in out[e]]
        else:
            expected = [game.encode(e, p2, EVADER) for p2 in out[p]]
        assert graph.moves(position).tolist() == expected


@settings(max_examples=30)
@given(boards())
def test_primitive_marks_contact_only(board: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = board
    game = _game(n, edges)
    primitive = game.primitive()
    for position in range(game.n_positions):
        e, p, mover = game.decode(position)
        expected = UNDECIDED if e != p else (WIN if mover == PURSUER else LOSE)
        assert primitive[position] == expected


@settings(max_examples=150)
@given(boards())
def test_winner_matches_brute_force(board: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = board
    game = _game(n, edges)
    solution = game.solve()
    brute = pursuit_bob_wins(n, edges)
    for (b, a, turn), bob_wins in brute.items():
        position = game.encode(b, a, EVADER if turn == 0 else PURSUER)
        assert game.winner(solution, position) == ("evader" if bob_wins else "pursuer")


@settings(max_examples=40)
@given(boards(), st.sampled_from(["evader", "pursuer", "draw"]))
def test_endless_rule_only_rewrites_draws(
    board: tuple[int, list[tuple[int, int]]], endless: str
) -> None:
    n, edges = board
    game = _game(n, edges, endless)
    solution = game.solve()
    outcome = game.outcome(solution)
    draws = solution.value == DRAW
    assert np.array_equal(outcome[~draws], solution.value[~draws])
    mover = np.arange(game.n_positions) // (n * n)
    if endless == "draw":
        assert np.array_equal(outcome, solution.value)
    else:
        favoured = EVADER if endless == "evader" else PURSUER
        assert np.array_equal(outcome[draws], np.where(mover[draws] == favoured, WIN, LOSE))
    for position in range(game.n_positions):
        winner = game.winner(solution, position)
        if outcome[position] == DRAW:
            assert winner is None
        else:
            _, _, to_move = game.decode(position)
            mover_wins = outcome[position] == WIN
            assert winner == ("evader", "pursuer")[to_move if mover_wins else 1 - to_move]


@settings(max_examples=60)
@given(boards(), st.data())
def test_restricted_board_keeps_every_value(
    board: tuple[int, list[tuple[int, int]]], data: st.DataObject
) -> None:
    n, edges = board
    evader = data.draw(st.integers(0, n - 1))
    pursuer = data.draw(st.integers(0, n - 1))
    game = _game(n, edges, "pursuer")
    small, kept = game.restricted(evader, pursuer)
    # kept = exactly the vertices reachable from either piece
    reach = {evader, pursuer}
    frontier = list(reach)
    while frontier:
        u = frontier.pop()
        for a, b in edges:
            if a == u and b not in reach:
                reach.add(b)
                frontier.append(b)
    assert kept.tolist() == sorted(reach)
    assert small.endless == "pursuer"
    assert small.board.labels == kept.tolist()
    full, part = game.solve(), small.solve()
    new = {int(v): i for i, v in enumerate(kept)}
    for e in kept.tolist():
        for p in kept.tolist():
            for mover in (EVADER, PURSUER):
                before = game.encode(e, p, mover)
                after = small.encode(new[e], new[p], mover)
                assert part.value[after] == full.value[before]
                assert part.remoteness[after] == full.remoteness[before]


def test_caught_positions_are_over() -> None:
    game = _game(3, [(0, 1), (1, 2), (2, 0)])
    solution = game.solve()
    for v in range(3):
        for mover in (EVADER, PURSUER):
            position = game.encode(v, v, mover)
            assert solution.remoteness[position] == 0
            assert game.winner(solution, position) == "pursuer"


def test_one_step_ahead_on_a_cycle() -> None:
    game = _game(3, [(0, 1), (1, 2), (2, 0)])
    solution = game.solve()
    assert solution[game.encode(1, 0, EVADER)].name == "DRAW"
    assert game.winner(solution, game.encode(1, 0, PURSUER)) == "pursuer"
    assert solution.best_moves(game.encode(1, 0, PURSUER)) == [game.encode(1, 1, EVADER)]


def test_render_uses_board_labels() -> None:
    game = Pursuit(nx.DiGraph([("a", "b"), ("b", "a")]))
    assert game.render(game.encode(0, 1, PURSUER)) == "evader at a, pursuer at b, pursuer to move"
    assert game.render(game.encode(1, 1, EVADER)).endswith("(caught)")


def test_bad_arguments_are_named() -> None:
    with pytest.raises(UnknownNameError, match="unknown endless-game rule 'bob'"):
        Pursuit([(0, 1)], endless="bob")
    game = Pursuit([(0, 1)])
    with pytest.raises(InvalidGraphError, match="pursuer vertex 2 is not on the board"):
        game.encode(0, 2, EVADER)
    with pytest.raises(InvalidGraphError, match="mover must be"):
        game.encode(0, 1, 2)
    with pytest.raises(InvalidGraphError, match=r"position 8 is not in 0\.\.7"):
        game.decode(8)


def test_oversized_board_is_refused_before_building() -> None:
    game = Pursuit(GameGraph.from_edges([0], [1], n=10**6))
    with pytest.raises(TooLargeError, match="2000000000000 positions"):
        game.graph()
