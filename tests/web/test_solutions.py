"""The web app's solved games: solved once in the background, statuses while solving, errors
remembered, databases and fresh solutions read alike."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import perfectplay
from perfectplay.api import GameSolution
from perfectplay.errors import PerfectPlayError
from perfectplay.games.registry import load_game
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.search.service import SearchedGame
from perfectplay.values import Value
from perfectplay.web.solutions import (
    MAX_SEARCHED_GAMES,
    Busy,
    SolutionCache,
    Solving,
    game_key,
)


class Gate(Game[int]):
    """A countdown whose enumeration waits at `gate` (a solve we can hold open)."""

    def __init__(self, name: str, gate: threading.Event) -> None:
        self.info = GameInfo(name)
        self.gate = gate
        self.calls = 0

    def initial(self) -> int:
        self.calls += 1
        if not self.gate.wait(30):
            raise TimeoutError("the test never opened the gate")
        return 3

    def moves(self, position: int) -> list[tuple[str, int]]:
        return [("down", position - 1)] if position else []

    def outcome(self, position: int) -> Value | None:
        return None


def test_a_game_is_solved_once_in_the_background_with_a_status_meanwhile() -> None:
    gate = threading.Event()
    first, second = Gate("first", gate), Gate("second", gate)
    cache = SolutionCache()
    try:
        status = cache.lookup(first)
        queued = cache.lookup(second)
        assert isinstance(status, Solving) and isinstance(queued, Solving)
        assert status.game == "first" and status.elapsed >= 0
        assert status.running is True  # nothing is solved before it
        assert queued.running is False  # one solve at a time: waits for the first
        deadline = time.monotonic() + 30
        while not ((now := cache.lookup(first)) and isinstance(now, Solving) and now.running):
            assert time.monotonic() < deadline, "the solver thread never started"
            time.sleep(0.01)  # the thread marks its job running before it solves
        gate.set()
        solved = cache.wait(first, timeout=30)
        assert cache.lookup(first) is solved
        assert solved.probe(3) == PositionValue(Value.WIN, 3)
        assert cache.wait(second, timeout=30).probe(2) == PositionValue(Value.LOSE, 2)
        assert first.calls == 1  # asked again and again, solved once
    finally:
        gate.set()
        cache.close()


def test_peek_and_pending_start_nothing_and_say_what_is_under_way() -> None:
    gate = threading.Event()
    game = Gate("held", gate)
    cache = SolutionCache()
    try:
        assert cache.peek(game) is None and cache.pending() == 0
        assert game.calls == 0  # peeking started nothing
        cache.lookup(game)
        assert isinstance(cache.peek(game), Solving) and cache.pending() == 1
        gate.set()
        solved = cache.wait(game, timeout=30)
        assert cache.peek(game) is solved and cache.pending() == 0
        assert game.calls == 1
    finally:
        gate.set()
        cache.close()


def test_an_error_is_remembered_without_solving_again() -> None:
    gate = threading.Event()
    gate.set()
    game = Gate("counted", gate)
    cache = SolutionCache(max_positions=2)  # the countdown has 4 positions
    try:
        for _ in range(3):
            with pytest.raises(perfectplay.TooLargeError):
                cache.wait(game, timeout=30)
            with pytest.raises(perfectplay.TooLargeError):
                cache.lookup(game)
        assert game.calls == 1
    finally:
        cache.close()


def test_parameters_make_the_key_in_any_order() -> None:
    assert game_key(load_game("connect-four", rows=4, cols=4)) == game_key(
        load_game("connect-four", cols=4, rows=4)
    )
    assert game_key(load_game("nim", heaps=[1, 2])) == ("nim", (("heaps", (1, 2)),))
    assert game_key(load_game("nim", heaps=[1, 2])) != game_key(load_game("nim", heaps=[2, 1]))


def test_a_database_reads_as_the_solution_it_stores(tmp_path: Path) -> None:
    game = load_game("connect-four", rows=3, cols=3)
    solution = perfectplay.solve(game)
    perfectplay.save(tmp_path / "c4.ppstore", solution)
    fresh = solution
    with perfectplay.open_store(tmp_path / "c4.ppstore") as store:
        stored = store
        frontier, seen = [game.initial()], set()
        while frontier:
            position = frontier.pop()
            if position in seen:
                continue
            seen.add(position)
            assert stored.probe(position) == fresh.probe(position)
            assert stored.move_values(position) == fresh.move_values(position)
            assert stored.best_moves(position) == fresh.best_moves(position)
            frontier.extend(m.position for m in fresh.move_values(position))
    assert len(seen) > 500


def test_solves_run_in_a_daemon_thread_that_close_stops() -> None:
    gate = threading.Event()
    running, queued = Gate("running", gate), Gate("queued", gate)
    cache = SolutionCache()
    cache.lookup(running)
    cache.lookup(queued)
    workers = [t for t in threading.enumerate() if t.name == "perfectplay-solve"]
    assert workers and all(t.daemon for t in workers)  # Ctrl-C never waits for a solve
    deadline = time.monotonic() + 30
    while running.calls == 0:  # the solver thread has started solving it
        assert time.monotonic() < deadline, "the solver thread never started"
        time.sleep(0.01)
    cache.close()
    gate.set()
    assert cache.wait(running, timeout=30).probe(3) == PositionValue(
        Value.WIN, 3
    )  # a running one ends
    assert queued.calls == 0  # a queued one is dropped
    with pytest.raises(RuntimeError, match="closed"):
        cache.lookup(load_game("nim"))


def test_a_game_too_large_with_a_compiled_search_is_served_by_search() -> None:
    """Refused solves of games with a kernel give their SearchedGame (one per game, kept);
    beyond MAX_SEARCHED_GAMES the least recently asked is closed; a game without a kernel
    is still refused."""
    cache = SolutionCache(max_positions=100)
    boards = [load_game("connect-four", rows=4, cols=c) for c in (4, 5, 6, 7, 8)]
    assert MAX_SEARCHED_GAMES == 4
    found = [cache.lookup(game, wait=30) for game in boards]
    assert all(isinstance(f, SearchedGame) for f in found)
    assert cache.lookup(boards[4], wait=30) is found[4]
    first = found[0]
    assert isinstance(first, SearchedGame)
    with pytest.raises(PerfectPlayError, match="closed"):  # dropped for the fifth board
        first.probe(boards[0].initial())
    with pytest.raises(perfectplay.TooLargeError):
        cache.lookup(load_game("tic-tac-toe"), wait=30)
    cache.close()


def test_a_burst_for_many_games_starts_at_most_max_solves_each_once() -> None:
    gate = threading.Event()
    games = [Gate(f"g{k}", gate) for k in range(6)]
    cache = SolutionCache(max_solves=2)
    try:
        for _ in range(3):  # every game asked three times in a burst
            answers = [cache.lookup(game) for game in games]
            assert [type(a) for a in answers] == [Solving] * 2 + [Busy] * 4
            for game, busy in zip(games[2:], answers[2:], strict=True):
                assert busy == Busy(game.info.name, ("g0", "g1"), 2)
        assert busy.message() == (
            "the server is already solving 2 games, its limit (g0; g1): g5 is not solved now; "
            "ask again in 5 s"
        )
        with pytest.raises(RuntimeError, match=r"already solving 2 games, its limit \(g0; g1\)"):
            cache.wait(games[2])
        gate.set()
        for game in games[:2]:
            assert cache.wait(game, timeout=30).probe(3) == PositionValue(Value.WIN, 3)
        # Both ended: the next two are taken (solved at once), then the last two.
        assert [type(cache.lookup(game, wait=30)) for game in games[2:4]] == [GameSolution] * 2
        assert [type(cache.lookup(game, wait=30)) for game in games[4:]] == [GameSolution] * 2
        assert all(game.calls <= 1 for game in games)  # never two solves of one game
    finally:
        gate.set()
        cache.close()


def test_solved_games_beyond_keep_positions_are_dropped_least_recently_asked_first() -> None:
    gate = threading.Event()
    gate.set()
    a, b, c = Gate("a", gate), Gate("b", gate), Gate("c", gate)  # 4 positions each
    cache = SolutionCache(keep_positions=8)
    try:
        cache.wait(a, timeout=30)
        cache.wait(b, timeout=30)
        assert isinstance(cache.lookup(a), GameSolution)  # a asked after b: b is the older
        cache.wait(c, timeout=30)  # 12 positions: b goes
        assert isinstance(cache.lookup(a), GameSolution)
        assert isinstance(cache.lookup(c), GameSolution)
        assert (a.calls, b.calls, c.calls) == (1, 1, 1)
        assert isinstance(cache.lookup(b, wait=30), GameSolution)  # solved again: a goes now
        assert (a.calls, b.calls, c.calls) == (1, 2, 1)
        assert isinstance(cache.lookup(c), GameSolution)
        cache.lookup(a, wait=30)
        assert a.calls == 2
    finally:
        cache.close()


def test_the_last_game_solved_is_kept_even_beyond_the_budget() -> None:
    gate = threading.Event()
    gate.set()
    big = Gate("big", gate)
    cache = SolutionCache(keep_positions=1)
    try:
        solved = cache.wait(big, timeout=30)
        assert cache.lookup(big) is solved and big.calls == 1
    finally:
        cache.close()
