"""Terminal play, driven by scripted input: perfect replies, every command, bad input."""

from __future__ import annotations

import io
import os
import random
import tempfile
from typing import Any

import pytest
from brute import brute_game_solution
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.errors import InputFormatError
from perfectplay.games.nim.rules import Nim
from perfectplay.games.registry import load_game
from perfectplay.play import PlaySession, ThinkingLine, describe
from perfectplay.protocol.game import Game
from perfectplay.store import SolutionStore, open_store, save
from perfectplay.values import Value


def brute_store(game: Game[Any]) -> SolutionStore:
    """`game` solved by brute force, saved to a temporary store, opened with the game."""
    solution, codes = brute_game_solution(game)
    path = os.path.join(tempfile.mkdtemp(), "game.ppstore")
    info = game.info
    save(path, solution, game=info.name, params=info.params, codes=codes, start=0, canonical=True)
    return open_store(path, game=game)


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
        brute_store(game),
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
    store = brute_store(game)
    session = PlaySession(game, store, human=human, stdin=player, stdout=out)  # type: ignore[arg-type]
    player.session = session
    start = store.probe(game.initial())
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
    store = brute_store(game)
    start = store.probe(game.initial())
    person_wins = (start.value is Value.WIN) == (human == "first")
    script = io.StringIO()
    out = io.StringIO()
    session = PlaySession(game, store, human=human, stdin=script, stdout=out)  # type: ignore[arg-type]

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
    store = brute_store(game)
    for line, (_, child) in zip(lines, moves, strict=True):
        entry = store.probe(child)
        assert line.split(maxsplit=2)[2] == describe(entry.value.flipped(), entry.remoteness + 1)


def test_moves_by_label_any_case_or_number_and_undo() -> None:
    game = Nim(heaps=(2, 2))
    session, out = _session(game, "H1-1\nundo\n1\nundo\nundo\nquit\n")
    session.run()
    text = out.getvalue()
    assert text.count("Computer plays") == 2
    assert text.count("Nothing to undo.") == 1
    assert session.position == (2, 2)


def test_where_labels_are_numbers_a_number_is_a_label_never_a_place_in_values() -> None:
    game = load_game("subtraction", heap=5, take=(1, 3))  # labels 1 and 3, the takes
    session, out = _session(game, "values\n2\n3\nquit\n")
    session.run()
    text = out.getvalue()
    assert "'2' is not a legal move here" in text  # not the second move listed, "take 3"
    assert "    1  WIN in 3\n    3  WIN in 3\n" in text and "1. " not in text  # no numbers
    assert session.history[1] == 2  # "3" took three


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


def test_a_game_solution_plays_like_the_brute_force_store() -> None:
    """The same scripted game against api.solve and against the brute-force store."""
    from perfectplay.api import solve

    game = Nim(heaps=(2, 3, 4))
    script = "h2-1\nhint\nvalues\n1\n2\nundo\n3\nh1-1\n" * 2
    outputs = []
    for solved in (solve(game), brute_store(game)):
        out = io.StringIO()
        PlaySession(game, solved, human="second", stdin=io.StringIO(script), stdout=out).run()
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    assert "Computer plays" in outputs[0]


@pytest.mark.parametrize("seed", range(4))
def test_every_board_shown_carries_the_move_coordinates(seed: int) -> None:
    """Each board the session draws is the game's labelled drawing of a position it reached,
    so the column letters and row numbers of the move labels (``b2``) are on screen."""
    from perfectplay.games.tictactoe.rules import TicTacToe

    game = TicTacToe()
    player = RandomPlayer(seed)
    out = io.StringIO()
    session = PlaySession(game, brute_store(game), stdin=player, stdout=out)
    player.session = session
    session.run()
    text = out.getvalue().replace("> ", "")
    for position in session.history:
        assert game.labelled(position) in text
        assert game.labelled(position).startswith("  a b c\n1 ")
    boards = [line for line in text.splitlines() if line.startswith("  a b c")]
    assert len(boards) == len(session.history)


def test_a_game_without_coordinates_is_drawn_by_render() -> None:
    class Countdown(Game[int]):
        """Take 1 from a counter; the player who cannot move loses."""

        def initial(self) -> int:
            return 2

        def moves(self, position: int) -> list[tuple[str, int]]:
            return [("take", position - 1)] if position else []

        def outcome(self, position: int) -> Value | None:
            return None

        def render(self, position: int) -> str:
            return f"counter at {position}"

    game = Countdown()
    out = io.StringIO()
    PlaySession(game, solve(game), stdin=io.StringIO("take\n"), stdout=out).run()
    assert "counter at 2\nYour move." in out.getvalue()
    assert "counter at 0\nGame over: You lose." in out.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_thinking_is_one_updating_line_on_a_terminal_and_nothing_on_a_pipe() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        line = ThinkingLine(stream)
        line(0.25)
        line(1.5)
        line(None)
    assert terminal.getvalue() == "\rThinking... 0.2 s\rThinking... 1.5 s\r\033[K"
    assert pipe.getvalue() == ""
