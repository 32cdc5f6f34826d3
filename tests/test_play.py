"""Terminal play, driven by scripted input: perfect replies, every command, bad input."""

from __future__ import annotations

import io
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.games.base import Game, GameInfo
from perfectplay.games.nim import Nim
from perfectplay.play import (
    LabelledMove,
    PlaySession,
    best_moves,
    describe,
    move_values,
)
from perfectplay.store import PositionValue
from perfectplay.values import Value


class BruteOracle:
    """Value and remoteness by plain recursion over the game's own moves (acyclic games)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.probe = cache(self._probe)

    def _probe(self, position: Any) -> PositionValue:
        ruled = self.game.outcome(position)
        if ruled is not None:
            return PositionValue(Value(ruled), 0)
        children = [self.probe(move[1]) for move in self.game.moves(position)]
        if not children:
            return PositionValue(Value.LOSE, 0)
        losing = [c.remoteness for c in children if c.value is Value.LOSE]
        if losing:
            return PositionValue(Value.WIN, min(losing) + 1)
        ties = [c.remoteness for c in children if c.value is Value.TIE]
        if ties:
            return PositionValue(Value.TIE, min(ties) + 1)
        return PositionValue(Value.LOSE, max(c.remoteness for c in children) + 1)


class RandomPlayer(io.StringIO):
    """A stdin whose every line is a random legal move label (or a random command)."""

    def __init__(self, seed: int, commands: bool = False) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.commands = commands
        self.session: PlaySession | None = None

    def readline(self, size: int | None = -1) -> str:
        assert self.session is not None
        if self.session.final_value() is not None:
            return "quit\n"
        if self.commands and self.rng.random() < 0.3:
            return self.rng.choice(["values", "hint", "help", "bogus", "undo", "99"]) + "\n"
        labels = [move[0] for move in self.session.game.moves(self.session.position)]
        return self.rng.choice(labels) + "\n"


def _session(game: Game[Any], script: str, human: str = "first") -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    session = PlaySession(
        game,
        BruteOracle(game),
        human=human,  # type: ignore[arg-type]
        stdin=io.StringIO(script),
        stdout=out,
    )
    return session, out


@settings(max_examples=40)
@given(
    st.lists(st.integers(0, 4), min_size=2, max_size=3),
    st.sampled_from(["first", "second"]),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_perfect_play_never_loses_a_won_game(
    heaps: list[int], human: str, seed: int, commands: bool
) -> None:
    """Whatever the person types, the computer wins whenever its side can force a win."""
    game = Nim(heaps=tuple(heaps))
    player = RandomPlayer(seed, commands)
    out = io.StringIO()
    oracle = BruteOracle(game)
    session = PlaySession(game, oracle, human=human, stdin=player, stdout=out)  # type: ignore[arg-type]
    player.session = session
    start = oracle.probe(game.initial())
    computer_first = human == "second"
    computer_wins = (start.value is Value.WIN) == computer_first
    assert session.run() == 0
    text = out.getvalue()
    assert "Traceback" not in text
    if computer_wins and not commands:
        assert text.split("Game over: ")[-1].startswith("You lose.")
        # the winner takes the fastest win: the loser cannot make the game last longer
        assert len(session.history) - 1 <= start.remoteness


@settings(max_examples=30)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.sampled_from(["first", "second"]))
def test_following_the_hints_wins_every_won_game(heaps: list[int], human: str) -> None:
    game = Nim(heaps=tuple(heaps))
    oracle = BruteOracle(game)
    start = oracle.probe(game.initial())
    person_wins = (start.value is Value.WIN) == (human == "first")
    script = io.StringIO()
    out = io.StringIO()
    session = PlaySession(game, oracle, human=human, stdin=script, stdout=out)  # type: ignore[arg-type]

    class Hinted(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            best = session.best()
            return "quit\n" if best is None else best.label + "\n"

    session.stdin = Hinted()
    session.run()
    verdict = "You win." if person_wins else "You lose."
    assert f"Game over: {verdict}" in out.getvalue()
    # both sides play perfectly: the game lasts exactly the start's remoteness
    assert len(session.history) - 1 == start.remoteness


def test_values_lists_every_move_with_its_value_for_the_mover() -> None:
    game = Nim(heaps=(1, 2))
    session, out = _session(game, "values\n")
    session.run()
    text = out.getvalue().replace("> ", "")  # prompts share a line with the next output
    lines = [line for line in text.splitlines() if ". h" in line]
    moves = game.moves((1, 2))
    assert [line.split()[1] for line in lines] == [label for label, _ in moves]
    oracle = BruteOracle(game)
    for line, (_, child) in zip(lines, moves, strict=True):
        entry = oracle.probe(child)
        assert line.split(maxsplit=2)[2] == describe(entry.value.flipped(), entry.remoteness + 1)


def test_moves_by_label_any_case_or_number_and_undo() -> None:
    game = Nim(heaps=(2, 2))
    session, out = _session(game, "H1-1\nundo\n1\nundo\nundo\nquit\n")
    session.run()
    text = out.getvalue()
    assert text.count("Computer plays") == 2
    assert text.count("Nothing to undo.") == 1
    assert session.position == (2, 2)


def test_second_player_sees_the_computer_move_first_and_undo_keeps_it() -> None:
    game = Nim(heaps=(1, 2))  # a win for the first player: the computer takes it
    session, out = _session(game, "undo\n", human="second")
    session.run()
    text = out.getvalue()
    assert "you play second" in text
    assert text.index("Computer plays") < text.index("> ")
    assert "Nothing to undo." in text
    assert len(session.history) == 2


def test_bad_input_gets_a_message_never_a_traceback() -> None:
    game = Nim(heaps=(1, 2))
    session, out = _session(game, "\nbogus\n0\n17\nh3-1\nhelp\nhint\n")
    assert session.run() == 0
    text = out.getvalue()
    assert text.count("is not a legal move here") == 4
    for command in ("values", "hint", "undo", "help", "quit"):
        assert f"  {command} " in text
    assert "Hint: " in text


def test_game_over_accepts_only_undo_and_quit() -> None:
    game = Nim(heaps=(0, 1))
    session, out = _session(game, "h2-1\nh1-1\nvalues\nhint\nundo\n")
    session.run()
    text = out.getvalue()
    assert "Game over: You win." in text
    assert "The game is over; 'h1-1' is not a command" in text
    assert text.count("No legal moves: the game is over.") == 2
    assert session.position == (0, 1)


def test_bad_side_is_refused() -> None:
    with pytest.raises(InputFormatError, match="side"):
        _session(Nim(heaps=(1,)), "", human="middle")


class _Scored(Game[int]):
    info = GameInfo("scored", scored=True)

    def initial(self) -> int:
        return 0

    def moves(self, position: int) -> list[tuple[str, int, int]]:
        return [("a", 1, 5), ("b", 2, -1)] if position == 0 else []

    def outcome(self, position: int) -> Value | None:
        return None if position == 0 else Value.TIE


def test_scored_moves_are_worth_gain_minus_the_reply() -> None:
    scores = {1: PositionValue(Value.WIN, 0, 7), 2: PositionValue(Value.LOSE, 0, -3)}

    class Fixed:
        def probe(self, position: int) -> PositionValue:
            return scores[position]

    moves = move_values(_Scored(), Fixed(), 0)
    assert [(m.label, m.score, m.value) for m in moves] == [
        ("a", -2, Value.LOSE),
        ("b", 2, Value.WIN),
    ]
    here = PositionValue(Value.WIN, 1, 2)
    assert [m.label for m in best_moves(moves, here)] == ["b"]
    assert describe(moves[0].value, moves[0].remoteness, moves[0].score) == "score -2, LOSE in 1"


def test_best_moves_prefers_fast_wins_and_slow_losses() -> None:
    def mv(label: str, value: Value, r: int) -> LabelledMove:
        return LabelledMove(label, None, value, r)

    moves = [mv("a", Value.WIN, 5), mv("b", Value.WIN, 3), mv("c", Value.LOSE, 8)]
    assert [m.label for m in best_moves(moves, PositionValue(Value.WIN, 3))] == ["b"]
    losing = [mv("a", Value.LOSE, 2), mv("b", Value.LOSE, 6), mv("c", Value.LOSE, 6)]
    assert [m.label for m in best_moves(losing, PositionValue(Value.LOSE, 6))] == ["b", "c"]
    draws = [mv("a", Value.DRAW, -1), mv("b", Value.LOSE, 1)]
    assert [m.label for m in best_moves(draws, PositionValue(Value.DRAW, -1))] == ["a"]
