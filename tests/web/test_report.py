"""One position as the API describes it: replayed moves, draws without remoteness, games over,
typed start positions, and each bad input named."""

from __future__ import annotations

from typing import Any

import pytest

import perfectplay
from perfectplay.api import GameSolution
from perfectplay.errors import InputFormatError
from perfectplay.games.registry import load_game
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.search.service import SearchedGame, Thinking
from perfectplay.values import Value
from perfectplay.web.report import MAX_MOVES, position_report, searched_report, start_position


class Loop(Game[int]):
    """A loopy game: 0 -> 1 or 3; 1 -> 0 or 2 (2 has no moves: its mover lost); 3 <-> 4.

    From 1 the mover wins at once; from 0, moving to 1 loses, so 0 keeps the endless loop
    through 3 and 4: 0, 3 and 4 are DRAWs.
    """

    info = GameInfo("loop", cyclic=True)

    def initial(self) -> int:
        return 0

    def moves(self, position: int) -> list[tuple[str, int]]:
        return {
            0: [("to1", 1), ("to3", 3)],
            1: [("to0", 0), ("to2", 2)],
            3: [("to4", 4)],
            4: [("to3", 3)],
        }.get(position, [])

    def outcome(self, position: int) -> Value | None:
        return None


@pytest.fixture(scope="module")
def loop() -> GameSolution[Any]:
    game = Loop()
    return perfectplay.solve(game)


def test_draws_have_no_remoteness(loop: GameSolution[Any]) -> None:
    report = position_report(loop, None, ["to3"])
    assert (report["value"], report["remoteness"]) == ("DRAW", None)
    assert report["moves"] == [
        {"label": "to4", "value": "DRAW", "remoteness": None, "score": None, "best": True}
    ]
    assert report["history"] == [
        {"value": "DRAW", "remoteness": None},
        {"value": "DRAW", "remoteness": None},
    ]
    start = position_report(loop, None, [])
    assert [(m["label"], m["value"], m["remoteness"]) for m in start["moves"]] == [
        ("to1", "LOSE", 2),
        ("to3", "DRAW", None),
    ]
    assert start["value"] == "DRAW"


def test_a_game_over_has_no_moves(loop: GameSolution[Any]) -> None:
    report = position_report(loop, None, ["to1", "to2"])
    assert report["over"] is True and report["moves"] == []
    assert (report["value"], report["remoteness"]) == ("LOSE", 0)
    with pytest.raises(perfectplay.InputFormatError, match=r"move 3 \('to0'\).*the game is over"):
        position_report(loop, None, ["to1", "to2", "to0"])


def test_a_typed_start_is_read_by_the_game_and_must_be_reachable() -> None:
    game = load_game("nim", heaps=(1, 2))
    solved = perfectplay.solve(game)
    assert start_position(solved, None) == (1, 2)
    assert start_position(solved, " 0  2 ") == (0, 2)
    assert position_report(solved, "0 2", ["h2-2"])["over"] is True
    with pytest.raises(perfectplay.PositionNotFoundError):
        start_position(solved, "2 2")
    with pytest.raises(perfectplay.InputFormatError, match="heap sizes"):
        start_position(solved, "1 2 3")


def test_a_game_without_a_parser_refuses_typed_positions(loop: GameSolution[Any]) -> None:
    with pytest.raises(perfectplay.InputFormatError, match="loop cannot read positions"):
        start_position(loop, "0")


def test_too_many_moves_are_refused_before_any_work(loop: GameSolution[Any]) -> None:
    with pytest.raises(perfectplay.InputFormatError, match=f"at most {MAX_MOVES} moves"):
        position_report(loop, None, ["to3", "to4"] * (MAX_MOVES // 2 + 1))
    long = ["to3"] + ["to4", "to3"] * (MAX_MOVES // 2 - 1)
    assert len(position_report(loop, None, long)["history"]) == len(long) + 1


def test_a_searched_report_equals_the_solved_one_with_the_known_history() -> None:
    """By search: the position and its moves as the solver reports them; the history is
    the known part of the line, from an even ply when more than the last position is known
    (a first search knows the last position only, then its parent's search its moves)."""
    game = load_game("connect-four", rows=4, cols=5)
    solved = perfectplay.solve(game, progress=False)
    line = ["c", "c", "b"]
    with SearchedGame(game) as searched:

        def report(moves: list[str]) -> dict[str, Any]:
            found = searched_report(searched, None, moves, wait=60.0)
            assert not isinstance(found, Thinking)
            return found

        last = report(line)
        expected = position_report(solved, None, line)
        for key in ("position", "value", "remoteness", "over", "moves", "svg"):
            assert last[key] == expected[key], key
        assert (last["history_from"], last["history"]) == (3, expected["history"][3:])
        report(line[:1])  # ply 1 searched: its moves' children (ply 2) are known
        again = report(line)
        assert (again["history_from"], again["history"]) == (2, expected["history"][2:])
        with pytest.raises(InputFormatError, match="move 2 \\('z'\\) is not legal"):
            searched_report(searched, None, ["c", "z"], wait=60.0)


def test_the_value_history_names_the_side_to_move_at_the_start() -> None:
    """After a typed start with O to move, the chart's halves are O's (not "first player");
    from the initial position they are X's; a game without names says "the player to move
    at the start"."""
    ttt = perfectplay.solve(load_game("tic-tac-toe"))
    typed = position_report(ttt, "X.. ... ...", ["b2"])["history_svg"]
    assert ">O wins<" in typed and ">O loses<" in typed and "values for O;" in typed
    assert "first player" not in typed and ">X wins<" not in typed
    initial = position_report(ttt, None, ["b2"])["history_svg"]
    assert ">X wins<" in initial and ">X loses<" in initial
    nim = perfectplay.solve(load_game("nim", heaps=(1, 2)))
    unnamed = position_report(nim, "1 1", [])["history_svg"]
    assert ">the player to move at the start wins<" in unnamed
