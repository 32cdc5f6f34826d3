"""search() against an independent twin and the strong solver, on random DAGs and real games."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_brute import brute, brute_best, brute_moves
from search_games import DagGame, dag_games

from perfectplay.api import solve
from perfectplay.errors import (
    CyclicGraphError,
    GameDefinitionError,
    InputFormatError,
    PerfectPlayError,
    TooLargeError,
)
from perfectplay.games.registry import load_game
from perfectplay.moves import Move
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.search import GameOverError, SearchResult, search
from perfectplay.values import UNKNOWN_REMOTENESS, Value


def _playable(game: Any, p: Any) -> bool:
    return game.outcome(p) is None and bool(list(game.moves(p)))


def _check_against_solution(game: Any, solved: Any, p: Any, found: SearchResult) -> None:
    """`found` (strong, all moves) equals the strong solver's answer at `p`."""
    assert found.value == solved.value(p)
    assert found.remoteness == solved.remoteness(p)
    assert found.score == solved.score(p)
    assert list(found.moves) == solved.move_values(p)  # the same records
    assert list(found.best_moves) == [m.label for m in solved.best_moves(p)]


# ------------------------------------------------------------------ random DAGs
@given(dag_games(), st.booleans())
def test_random_dags_match_twin_and_solver(game: DagGame, weak: bool) -> None:
    twin = brute(game)
    for p in range(game.n):
        if not _playable(game, p):
            continue
        found = search(game, p, all_moves=True, weak=weak, memory=10_000)
        want = twin(p)
        moves = brute_moves(game, twin, p)
        assert found.value == want.value
        assert found.nodes > 0 and found.seconds >= 0
        assert all(type(m) is Move for m in found.moves)
        assert [(m.label, m.position) for m in found.moves] == [m[:2] for m in game.moves(p)]
        if weak:  # values only: no remoteness (not a draw's), no score
            assert found.remoteness is None and found.score is None
            assert [(m.label, m.value) for m in found.moves] == [(m.label, m.value) for m in moves]
            assert all(m.remoteness == UNKNOWN_REMOTENESS for m in found.moves)
            assert all(m.score is None for m in found.moves)
            assert list(found.best_moves) == [m.label for m in moves if m.value == want.value]
            continue
        assert found.remoteness == want.remoteness
        points = want.points if game.info.scored else None
        assert found.score == points
        assert [(m.label, m.value, m.remoteness) for m in found.moves] == [
            (m.label, m.value, m.remoteness) for m in moves
        ]
        if game.info.scored:
            assert [m.score for m in found.moves] == [m.points for m in moves]
        assert list(found.best_moves) == brute_best(moves, want.value, points)
        # The strong solver, enumerating the game from p.
        _check_against_solution(game, solve(game.at(p)), p, found)


@given(dag_games(max_n=10))
def test_best_moves_without_all_moves(game: DagGame) -> None:
    """Best moves found by null windows equal those read off every move's exact value."""
    for p in range(game.n):
        if _playable(game, p):
            lean = search(game, p, memory=2_000)
            full = search(game, p, all_moves=True, memory=2_000)
            assert lean.moves == ()
            assert (lean.value, lean.remoteness, lean.score, lean.best_moves) == (
                full.value, full.remoteness, full.score, full.best_moves
            )  # fmt: skip


@settings(max_examples=30)
@given(dag_games(max_n=12, scored=False))
def test_tiny_table_still_exact(game: DagGame) -> None:
    """One table slot (constant replacement) costs work, never correctness."""
    twin = brute(game)
    for p in range(game.n):
        if _playable(game, p):
            found = search(game, p, memory=240)
            assert (found.value, found.remoteness) == twin(p)[:2]


# ------------------------------------------------------------------ real games
def test_every_tictactoe_position() -> None:
    game = load_game("tic-tac-toe")
    solved = solve(game)
    checked = 0
    for pid in range(len(solved)):
        p = solved.position_of(pid)
        if solved.is_over(p):
            with pytest.raises(GameOverError):
                search(game, p)
            continue
        found = search(game, p, all_moves=True, memory=1 << 20)
        _check_against_solution(game, solved, p, found)
        assert search(game, p, weak=True, memory=1 << 20).value == found.value
        checked += 1
    assert checked > 500
    start = search(game)
    assert (start.value, start.remoteness) == (Value.TIE, 9)
    assert "TIE in 9" in repr(start)


def test_connect_four_4x4_sample() -> None:
    game = load_game("connect-four", rows=4, cols=4)
    solved = solve(game)
    rng = random.Random(20261126)
    playable = [pid for pid in range(len(solved)) if not solved.is_over(solved.position_of(pid))]
    sample = rng.sample(playable, 200)
    for pid in sample:
        p = solved.position_of(pid)
        found = search(game, p, all_moves=True, memory=4 << 20)
        _check_against_solution(game, solved, p, found)


def _staircase(a: Any, b: Any) -> Any:
    for name in ("perfectplay.builders.staircase.rules", "perfectplay.builders.staircase"):
        try:
            return importlib.import_module(name).Staircase(a, b)
        except (ImportError, AttributeError):
            continue
    pytest.skip("no Staircase game found")


@settings(max_examples=25)
@given(st.integers(1, 3), st.integers(1, 3), st.randoms(use_true_random=False))
def test_staircase_vs_solver(n: int, m: int, rng: random.Random) -> None:
    a = [[rng.randint(-5, 9) for _ in range(m)] for _ in range(n)]
    b = [[rng.randint(-5, 9) for _ in range(m)] for _ in range(n)]
    game = _staircase(a, b)
    solved = solve(game)
    for pid in range(len(solved)):
        p = solved.position_of(pid)
        if solved.is_over(p):
            continue
        found = search(game, p, all_moves=True, memory=1 << 16)
        _check_against_solution(game, solved, p, found)
        assert found.value == Value.TIE and found.score == solved.score(p)


def test_staircase_start_matches_best_score() -> None:
    game = _staircase([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
    found = search(game)
    assert found.score == game.best_score() == 2
    assert (found.value, found.remoteness) == (Value.TIE, 6)


# ------------------------------------------------------------------ errors
class _Loopy(Game[int]):
    info = GameInfo("loopy", cyclic=True)

    def initial(self) -> int:
        return 0

    def moves(self, p: int) -> list[tuple[str, int]]:
        return [("flip", 1 - p)]

    def outcome(self, p: int) -> Value | None:
        return None


class _SecretlyLoopy(_Loopy):
    info = GameInfo("secretly-loopy")


def test_cyclic_game_refused() -> None:
    with pytest.raises(CyclicGraphError, match=r"perfectplay solve loopy --tiers DIR"):
        search(_Loopy())


def test_undeclared_cycle_detected() -> None:
    with pytest.raises(GameDefinitionError, match="cyclic=True"):
        search(_SecretlyLoopy())


def test_game_over_refused() -> None:
    game = DagGame([[(1, 0)], []], [None, Value.TIE], [0, 0], scored=False)
    with pytest.raises(GameOverError, match=r"game is over at position 1 \(TIE") as info:
        search(game, 1)
    assert isinstance(info.value, InputFormatError) and isinstance(info.value, ValueError)
    stuck = DagGame([[(1, 0)], []], [None, None], [0, 0], scored=False)
    with pytest.raises(GameOverError, match=r"LOSE for the player to move"):
        search(stuck, 1)
    assert search(stuck, 0).value == Value.WIN


def test_memory_over_budget_refused_with_estimate() -> None:
    game = load_game("tic-tac-toe")
    with pytest.raises(TooLargeError, match=r"needs about 2\^62 bytes") as info:
        search(game, memory=2**62)
    assert "transposition table" in str(info.value)


@pytest.mark.parametrize("memory", [0, -5, 239, 1.5, True])
def test_memory_too_small_or_not_bytes(memory: Any) -> None:
    with pytest.raises(InputFormatError, match="memory"):
        search(load_game("tic-tac-toe"), memory=memory)


def test_scored_game_needs_two_entries() -> None:
    game = DagGame([[(1, 2)], []], [None, None], [0, 0], scored=True)
    with pytest.raises(InputFormatError, match="480 bytes"):
        search(game, memory=300)
    assert search(game, memory=480).score == 2
    assert search(game, memory=300, weak=True).value == Value.WIN  # one table when weak


def test_errors_are_perfectplay_errors() -> None:
    for error in (GameOverError,):
        assert issubclass(error, PerfectPlayError)


def test_result_is_frozen_and_readable() -> None:
    game = DagGame([[(1, 4), (2, 1)], [], []], [None, None, Value.TIE], [0, 0, 0], scored=True)
    found = search(game, all_moves=True)
    with pytest.raises(AttributeError):
        found.value = Value.LOSE  # type: ignore[misc]
    assert found.moves == (
        Move("to1", 1, Value.WIN, 1, 4),
        Move("to2", 2, Value.TIE, 1, 1),
    )
    assert found.best_moves == ("to1",) and found.score == 4
    assert repr(found).startswith("<SearchResult: WIN in 1 for the player to move, score +4")
    assert str(found.moves[1]) == "to2: TIE in 1, score +1"


@given(dag_games(scored=True))
def test_stuck_positions_keep_their_terminal_score(game: DagGame) -> None:
    """Where play ends without moves, the terminal score counts (as solve_dag defines it)."""
    game.stuck_scores = True
    twin = brute(game)
    for p in range(game.n):
        if _playable(game, p):
            found = search(game, p, all_moves=True, memory=10_000)
            assert found.score == twin(p).points
            assert [m.score for m in found.moves] == [m.points for m in brute_moves(game, twin, p)]
