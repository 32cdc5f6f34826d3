"""search_positions: answers in the order of the positions, whatever the number of workers,
equal to one search each; a position where the game is over gives its error in its place."""

from __future__ import annotations

import pytest

from perfectplay.errors import InputFormatError
from perfectplay.games.registry import load_game
from perfectplay.search import GameOverError, search
from perfectplay.search.batch import search_positions


def test_workers_answer_in_order_as_single_searches() -> None:
    game = load_game("connect-four", rows=4, cols=4)
    positions = [game.parse(text) for text in ("1", "12", "1234", "11223", "4433", "22")]
    positions.insert(3, game.parse("1112223334"))  # over: four in a row... or not
    expected = []
    for p in positions:
        try:
            r = search(game, p, all_moves=True)
            expected.append((r.value, r.remoteness, r.best_moves, r.moves))
        except GameOverError:
            expected.append("over")
    for jobs in (1, 2, 3):
        got = [
            "over"
            if isinstance(a, GameOverError)
            else (a.value, a.remoteness, a.best_moves, a.moves)
            for a in search_positions(game, positions, jobs=jobs, all_moves=True)
        ]
        assert got == expected


def test_jobs_below_one_are_refused() -> None:
    with pytest.raises(InputFormatError, match="jobs must be at least 1"):
        list(search_positions(load_game("tic-tac-toe"), [], jobs=0))
