"""PlainSearch: the window contract, ties, points and cycles, against the twin."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_brute import brute
from search_games import DagGame, dag_games

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import Game
from perfectplay.search.plain import PlainSearch, deeper_recursion
from perfectplay.search.score import BIG, INFINITY, from_value
from perfectplay.search.table import BoundTable
from perfectplay.values import Value

ends = st.one_of(
    st.integers(-3, 3),
    st.integers(0, 12).map(lambda r: BIG - r),
    st.integers(0, 12).map(lambda r: r - BIG),
    st.sampled_from([-INFINITY, INFINITY]),
)


def _holds(v: int, true: int, alpha: int, beta: int) -> bool:
    """The window contract."""
    if v <= alpha:
        return true <= v
    if v >= beta:
        return true >= v
    return v == true


@given(dag_games(scored=False), st.lists(st.tuples(ends, ends), min_size=1, max_size=8),
       st.integers(1, 6))  # fmt: skip
def test_value_bound_keeps_the_window_contract(
    game: DagGame, windows: list[tuple[int, int]], slots: int
) -> None:
    """Many windows in a row over one (small, shared) table: every answer is a true bound."""
    twin = brute(game)
    s = PlainSearch(game, BoundTable(slots))
    for x, y in windows:
        if x == y:
            continue
        alpha, beta = min(x, y), max(x, y)
        for p in range(game.n):
            t = twin(p)
            true = from_value(t.value, t.remoteness)
            assert _holds(s.value_bound(p, alpha, beta), true, alpha, beta)


@given(dag_games(scored=True), st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9)),
                                        min_size=1, max_size=8))  # fmt: skip
def test_points_bound_keeps_the_window_contract(
    game: DagGame, windows: list[tuple[int, int]]
) -> None:
    game.stuck_scores = True
    twin = brute(game)
    s = PlainSearch(game, BoundTable(4), BoundTable(3))
    for x, y in windows:
        if x == y:
            continue
        alpha, beta = min(x, y), max(x, y)
        for p in range(game.n):
            assert _holds(s.points_bound(p, alpha, beta), twin(p).points, alpha, beta)
    for p in range(game.n):
        assert s.points(p) == twin(p).points


@given(dag_games(scored=False))
def test_sign_and_tie_remoteness(game: DagGame) -> None:
    twin = brute(game)
    s = PlainSearch(game, BoundTable(64))
    for p in range(game.n):
        t = twin(p)
        assert s.sign(p) == t.value
        if t.value == Value.TIE:
            assert s.tie_remoteness(p) == t.remoteness


def test_tie_remoteness_refuses_a_non_tie() -> None:
    game = DagGame([[]], [Value.WIN], [0], scored=False)
    # A WIN position with no moves has no TIE end: the breadth-first search finds none.
    lone = DagGame([[(1, 0)], []], [None, None], [0, 0], scored=False)
    with pytest.raises(GameDefinitionError, match="no level end"):
        PlainSearch(lone, BoundTable(4)).tie_remoteness(0)
    assert PlainSearch(game, BoundTable(4)).tie_remoteness(0) == 0  # over: depth 0


class _Chain(Game[int]):
    """n -> n - 1 -> ... -> 0 (stuck): a line of play `n` plies long."""

    def moves(self, p: int) -> list[tuple[str, int]]:
        return [("down", p - 1)] if p else []

    def outcome(self, p: int) -> Value | None:
        return None


def test_deep_lines_within_the_raised_limit() -> None:
    with deeper_recursion():
        s = PlainSearch(_Chain(), BoundTable(1 << 12))
        assert s.value_score(3001) == BIG - 3001  # odd: the player to move takes the last


class _Cycle(Game[int]):
    def moves(self, p: int) -> list[tuple[str, int]]:
        return [("next", (p + 1) % 3)]

    def outcome(self, p: int) -> Value | None:
        return None


def test_cycle_on_the_line_is_reported() -> None:
    with pytest.raises(GameDefinitionError, match="repeats on a line of play"):
        PlainSearch(_Cycle(), BoundTable(8)).value_score(0)


def test_canonical_keys_share_entries() -> None:
    """Positions with the same canonical form share one table entry."""

    class Mirror(Game[int]):  # positions p and -p are symmetric
        def moves(self, p: int) -> list[tuple[str, int]]:
            return [("a", abs(p) - 1), ("b", 1 - abs(p))] if abs(p) > 0 else []

        def outcome(self, p: int) -> Value | None:
            return None

        def canonical(self, p: int) -> int:
            return abs(p)

    table = BoundTable(1 << 10)
    s = PlainSearch(Mirror(), table)
    s.value_score(6)
    assert table.get(-3) is None and table.get(3) is not None
