"""DepthSearch: against its definition written plainly, and against the solvers' values."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import solve
from perfectplay.errors import InputFormatError
from perfectplay.games.mills.rules import Mills
from perfectplay.games.registry import load_game
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game, GameInfo, over_value
from perfectplay.search.depth import DepthSearch
from perfectplay.values import Value


class GraphGame(Game[int]):
    """A game on ids ``0..n-1`` with any moves (cycles too): `moves[u]` the children of `u`,
    `over[u]` the value the rules fix there or None."""

    info = GameInfo("random-digraph", cyclic=True)

    def __init__(self, moves: list[list[int]], over: list[Value | None]) -> None:
        self._moves, self._over = moves, over

    def initial(self) -> int:
        return 0

    def moves(self, p: int) -> list[tuple[str, int]]:
        return [] if self._over[p] is not None else [(f"to{c}", c) for c in self._moves[p]]

    def outcome(self, p: int) -> Value | None:
        return self._over[p]


@st.composite
def graph_games(draw: st.DrawFn) -> GraphGame:
    n = draw(st.integers(1, 12))
    moves = [draw(st.lists(st.integers(0, n - 1), max_size=3)) for _ in range(n)]
    values = st.sampled_from([None, None, None, Value.WIN, Value.LOSE, Value.TIE])
    return GraphGame(moves, [draw(values) for _ in range(n)])


def definition(game: Game[Any], depth: int) -> Any:
    """The search's definition, plainly: every child searched to `depth - 1`, no short cut."""

    @cache
    def decide(p: Any, d: int) -> tuple[Value, int] | None:
        over = over_value(game, p)
        if over is not None:
            return over, 0
        if d == 0:
            return None
        found = [decide(move[1], d - 1) for move in game.moves(p)]
        losses = [r for v, r in (f for f in found if f is not None) if v == Value.LOSE]
        if losses:
            return Value.WIN, min(losses) + 1
        if all(f is not None and f[0] == Value.WIN for f in found):
            return Value.LOSE, max(f[1] for f in found if f is not None) + 1
        return None

    return lambda p: decide(p, depth)


def check_against_solution(game: Game[Any], search: DepthSearch[Any], depth: int) -> int:
    """Every position of `game` (as the in-memory solver enumerates it) searched to `depth`:
    a decision is the solver's value and remoteness, and every WIN or LOSE within `depth` moves
    (every position where play is over) is decided. Returns how many were decided."""
    solution = solve(game)
    decided = 0
    for pid in range(len(solution)):
        position = solution.position_of(pid)
        true = solution.probe(position)
        found = search.decide(position, depth)
        must = true.remoteness == 0 or (
            true.value in (Value.WIN, Value.LOSE) and true.remoteness <= depth
        )
        if found is not None:
            decided += 1
            assert (found.value, found.remoteness) == (true.value, true.remoteness), position
        else:
            assert not must, (position, true)
    return decided


@settings(max_examples=300)
@given(graph_games(), st.integers(0, 6), st.integers(1, 50))
def test_random_games_are_decided_as_the_definition_and_the_solver_say(
    game: GraphGame, depth: int, entries: int
) -> None:
    search = DepthSearch(game, table_entries=entries)  # a small table is emptied between asks
    plain = definition(game, depth)
    for p in range(len(game._over)):
        found = search.decide(p, depth)
        assert (None if found is None else (found.value, found.remoteness)) == plain(p)
    check_against_solution(game, DepthSearch(game), depth)


def test_asking_in_any_order_of_depths_gives_the_same_answers() -> None:
    game = load_game("tic-tac-toe")
    fresh = {d: DepthSearch(game) for d in range(10)}
    shared = DepthSearch(game)
    solution = solve(game)
    positions = [solution.position_of(pid) for pid in range(0, len(solution), 7)]
    for d in (9, 2, 5, 0, 7, 3):
        for p in positions:
            assert shared.decide(p, d) == fresh[d].decide(p, d)


@pytest.mark.parametrize("depth", [0, 1, 3, 6, 9])
def test_tic_tac_toe_agrees_with_the_solver(depth: int) -> None:
    game = load_game("tic-tac-toe")
    decided = check_against_solution(game, DepthSearch(game), depth)
    assert decided > 0
    assert DepthSearch(game).decide(game.initial(), 9) is None  # a TIE in 9: never claimed


@pytest.mark.parametrize("depth", [0, 2, 5])
def test_three_mens_morris_agrees_with_the_solver(depth: int) -> None:
    game = Mills("three")
    check_against_solution(game, DepthSearch(game), depth)


def test_a_short_morris_win_is_found() -> None:
    game = Mills("nine", stones=3)  # White to move closes a mill and takes a third stone
    position = game.parse("WW------BB-------------B W 1 0")
    assert DepthSearch(game).decide(position, 1) == PositionValue(Value.WIN, 1)


@pytest.mark.parametrize("depth", [-1, True, 1.5, "2"])
def test_a_bad_depth_is_refused(depth: Any) -> None:
    with pytest.raises(InputFormatError, match="depth must be an integer 0 or more"):
        DepthSearch(load_game("tic-tac-toe")).decide(0, depth)
