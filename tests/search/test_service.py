"""The search service: games answered position by position in a worker process, the pool."""

from __future__ import annotations

import io
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from perfectplay.api import GameSolution, solve
from perfectplay.errors import CyclicGraphError, PerfectPlayError
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.play import PlaySession
from perfectplay.protocol.game import Game
from perfectplay.search.service import (
    ABANDON_AFTER,
    SearchAnswer,
    SearchedGame,
    Thinking,
    end_pool,
    process_pool,
    searcher_of,
)
from perfectplay.values import Value

C4_SMALL = ConnectFour(rows=4, cols=5)


@pytest.fixture(scope="module")
def searched_small() -> Iterator[SearchedGame]:
    """Connect Four 4x5 played by search (one search process for the module's tests)."""
    with SearchedGame(C4_SMALL) as searched:
        yield searched


@pytest.fixture(scope="module")
def solved_small() -> GameSolution[Any]:
    return solve(C4_SMALL, progress=False)


def _random_positions(game: Game[Any], count: int, seed: int) -> list[Any]:
    """Positions along random games, play going on at each."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        position = game.initial()
        for _ in range(rng.randrange(4, 16)):
            moves = list(game.moves(position))
            if not moves or game.outcome(position) is not None:
                break
            found.append(position)
            position = rng.choice(moves)[1]
    return found[:count]


def test_searched_answers_are_the_strong_solvers(
    searched_small: SearchedGame, solved_small: GameSolution[Any]
) -> None:
    """Each move's value and remoteness for the mover, the best moves and the position's own
    value and remoteness, by search, equal the solved game's (4x5: every position solved)."""
    for position in _random_positions(C4_SMALL, 30, seed=4):
        got = searched_small.move_values(position)
        assert got == solved_small.move_values(position), C4_SMALL.render(position)
        assert [m.label for m in searched_small.best_moves(position)] == [
            m.label for m in solved_small.best_moves(position)
        ]
        entry = searched_small.probe(position)
        assert (entry.value, entry.remoteness) == (
            solved_small.value(position),
            solved_small.remoteness(position),
        )
        for move in searched_small.move_values(position):  # children valued on the way
            child = searched_small.known(move.position)
            assert child is not None
            assert (child.value, child.remoteness) == (
                solved_small.value(move.position),
                solved_small.remoteness(move.position),
            )


def test_the_answer_cache_is_bounded_and_answers_again_by_searching() -> None:
    positions = _random_positions(C4_SMALL, 3, seed=9)
    with SearchedGame(C4_SMALL, cache_size=2) as searched:
        first = [searched.probe(p) for p in positions]
        assert searched.known(positions[0]) is None  # dropped: least recently used
        assert searched.known(positions[2]) == first[2]
        assert searched.probe(positions[0]) == first[0]  # searched again, same answer


def test_a_slow_answer_says_thinking_then_gives_the_answer() -> None:
    """``wait`` bounds the time answer() takes: a search not done answers Thinking (running),
    a later call the answer; the process start alone outlasts a zero wait."""
    position = C4_SMALL.parse("33")
    with SearchedGame(C4_SMALL) as searched:
        status = searched.answer(position, wait=0.0)
        assert isinstance(status, Thinking)
        assert status.running and status.game == "connect-four" and status.elapsed >= 0
        deadline = time.monotonic() + 120
        while isinstance(found := searched.answer(position, wait=0.1), Thinking):
            assert time.monotonic() < deadline
        assert isinstance(found, SearchAnswer) and found.all_moves and len(found.moves) == 5


def test_the_rules_answer_where_play_is_over_and_close_stops_the_search() -> None:
    won = C4_SMALL.parse("1212121")  # four in column 1
    searched = SearchedGame(C4_SMALL)
    found = searched.answer(won)
    assert isinstance(found, SearchAnswer)
    assert (found.value, found.remoteness, found.moves) == (Value.LOSE, 0, ())
    searched.close()
    with pytest.raises(PerfectPlayError, match="closed"):
        searched.probe(C4_SMALL.initial())


def test_a_loopy_game_is_refused() -> None:
    from perfectplay.games.registry import load_game

    with pytest.raises(CyclicGraphError, match="acyclic"):
        SearchedGame(load_game("quixo", size=3))


def test_many_askers_at_once_each_get_their_answer(solved_small: GameSolution[Any]) -> None:
    """Threads asking different positions at once: one search at a time, a waiting position
    dropped for a newer one is asked again, and every asker gets its own position's answer."""
    positions = _random_positions(C4_SMALL, 12, seed=21)
    answers: dict[int, list[tuple[str, Value, int]]] = {}
    with SearchedGame(C4_SMALL) as searched:

        def ask(k: int) -> None:
            moves = searched.move_values(positions[k])
            answers[k] = [(m.label, m.value, m.remoteness) for m in moves]

        threads = [threading.Thread(target=ask, args=(k,)) for k in range(len(positions))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    for k, position in enumerate(positions):
        expected = [(m.label, m.value, m.remoteness) for m in solved_small.move_values(position)]
        assert answers[k] == expected


def test_a_search_nobody_asks_about_any_more_gives_way_to_a_waiting_position() -> None:
    """6x7 four plies in (minutes of search) is asked once; a late position asked again and
    again is answered within seconds: the abandoned search's process is ended."""

    game = ConnectFour(rows=6, cols=7)
    late = game.parse("2252576253462244111563365343671351441")
    with SearchedGame(game) as searched:
        assert isinstance(searched.answer(game.parse("4444"), wait=0.0), Thinking)
        start = time.monotonic()
        while isinstance(found := searched.answer(late, wait=0.1), Thinking):
            assert not found.running or time.monotonic() - start > ABANDON_AFTER
            assert time.monotonic() - start < 30, "the late position is still waiting"
        assert isinstance(found, SearchAnswer) and found.value == Value.LOSE
        assert time.monotonic() - start > ABANDON_AFTER  # it waited its turn first
        again = searched.answer(game.parse("4444"), wait=0.0)  # searched anew, no error
        assert isinstance(again, Thinking)


def test_games_sharing_one_search_slot_search_in_turn() -> None:
    """Two games with one slot between them: while the first searches, the second's position
    is thinking but not running; once the first's search ends (here: closed), it runs."""
    slot = threading.Semaphore(1)
    big = ConnectFour(rows=6, cols=7)
    with SearchedGame(big, slots=slot) as first, SearchedGame(C4_SMALL, slots=slot) as second:
        assert isinstance(first.answer(big.parse("4444"), wait=0.0), Thinking)
        time.sleep(0.5)
        waiting = second.answer(C4_SMALL.initial(), wait=0.5)
        assert isinstance(waiting, Thinking) and not waiting.running
        first.close()
        found = second.answer(C4_SMALL.initial(), wait=60.0)
        assert isinstance(found, SearchAnswer)


def _search_in_worker(position: int) -> tuple[int, int]:
    """A pool task: the worker's searcher (kept across tasks) and its answer's value."""
    searcher = searcher_of(C4_SMALL, None)
    found = searcher.search(C4_SMALL.parse("12") if position else C4_SMALL.initial())
    return id(searcher), int(found.value)


def test_a_pool_worker_keeps_one_searcher_across_its_tasks() -> None:
    """One worker: both tasks search with the same Searcher (one table), the strong answers."""
    solved = solve(C4_SMALL, progress=False)
    with process_pool(1) as pool:
        (first, start), (second, later) = pool.map(_search_in_worker, [0, 1])
    assert first == second
    assert start == solved.value(C4_SMALL.initial())
    assert later == solved.value(C4_SMALL.parse("12"))


def test_searcher_of_keeps_the_searcher_of_the_same_game_and_budget() -> None:
    kept = searcher_of(C4_SMALL, None)
    assert searcher_of(ConnectFour(rows=4, cols=5), None) is kept
    assert searcher_of(C4_SMALL, 1 << 20) is not kept
    assert searcher_of(ConnectFour(rows=4, cols=4), 1 << 20).game.info.params["cols"] == 4


def test_end_pool_stops_a_task_under_way() -> None:
    pool = process_pool(1)
    task = pool.submit(time.sleep, 60)
    while not task.running():
        time.sleep(0.05)
    start = time.monotonic()
    end_pool(pool)
    assert time.monotonic() - start < 30
    with pytest.raises(Exception, match=r"terminated abruptly|shutdown"):
        task.result()


def test_get_answers_a_default_where_probe_raises(searched_small: SearchedGame) -> None:
    stuck = C4_SMALL.parse("1212121")  # first player has four in column a: over
    over = searched_small.get(stuck)
    assert over is not None and over.remoteness == 0
    assert searched_small.get(stuck) == searched_small.probe(stuck)


def test_a_session_by_search_plays_as_one_on_the_solved_game(
    searched_small: SearchedGame, solved_small: GameSolution[Any]
) -> None:
    """The same scripted game (values, hints, moves, undo) against the search and the solver
    prints the same thing: same replies, same values."""
    script = "values\nhint\nc\nvalues\nd\nhint\nundo\nb\nvalues\n1\n" * 2
    outputs = []
    for solved in (searched_small, solved_small):
        out = io.StringIO()
        session = PlaySession(
            C4_SMALL, solved, human="second", stdin=io.StringIO(script), stdout=out
        )
        session.run()
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    assert "Computer plays" in outputs[0] and "Hint: " in outputs[0]
