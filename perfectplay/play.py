"""Play a game against perfect play, in a text session: commands in, board and replies out.

The session reads one command per line from a text stream and writes to another, so it runs
in a terminal (``perfectplay play GAME``) and in tests alike. A person enters a move by its
label (or by its number in the ``values`` list); the computer answers with a best move, the
first of them in the game's move order, so replays are deterministic.

Values come from any source of answers (:class:`~perfectplay.protocol.answers.Answers`): a
:class:`~perfectplay.api.GameSolution`, an open store file or tier directory, or, for a game
too large to solve, a :class:`~perfectplay.search.service.SearchedGame` (each position searched
when it is first asked about, in a worker process, so the terminal keeps running).

Examples
--------
>>> import io
>>> from perfectplay.api import solve
>>> from perfectplay.games.registry import load_game
>>> game = load_game("nim", heaps=(1, 2))
>>> out = io.StringIO()
>>> PlaySession(game, solve(game), stdin=io.StringIO("hint\\nh2-1\\n"), stdout=out).run()
0
>>> print(out.getvalue(), end="")
nim: you play first against perfect play. Type 'help' for commands.
h1 h2
 1  2
Your move.
> Hint: h2-1 (WIN in 3)
> h1 h2
 1  1
Computer to move.
Computer plays h1-1.
h1 h2
 0  1
Your move.
>
"""

from __future__ import annotations

from typing import Any, Literal, TextIO

from perfectplay.errors import InputFormatError
from perfectplay.moves import Move, outcome_words
from perfectplay.protocol.answers import Answers
from perfectplay.protocol.game import Game, over_value
from perfectplay.values import Value

__all__ = ["COMMANDS", "PlaySession", "ThinkingLine", "describe"]

COMMANDS = {
    "values": "list every legal move with its value and remoteness for you",
    "hint": "show a best move",
    "undo": "take back your last move (and the computer's reply)",
    "help": "show this help",
    "quit": "leave the game",
}
"""The session's commands, with one line of help each."""


def describe(value: Value, remoteness: int, score: int | None = None) -> str:
    """A value in words: ``"WIN in 3"``, ``"DRAW"``, ``"score +2, WIN in 5"``.

    >>> describe(Value.LOSE, 4), describe(Value.DRAW, -1), describe(Value.TIE, 0, 0)
    ('LOSE in 4', 'DRAW', 'score +0, TIE in 0')
    """
    words = outcome_words(value, remoteness)
    return words if score is None else f"score {score:+d}, {words}"


def _numbered(labels: list[str]) -> bool:
    """Whether moves may be entered by their number in ``values``: unless a label is a number
    itself (Squadro's pieces, the subtraction game's takes), which a number must name."""
    return not any(label.isdigit() for label in labels)


class PlaySession:
    """A game between a person (reading `stdin`) and perfect play (`solved`).

    Parameters
    ----------
    game : Game
        The game; ``labelled`` (``render`` where the game has no coordinates) draws the board
        after every move.
    solved : Answers
        The answers: a GameSolution, an open SolutionStore, or a
        :class:`~perfectplay.search.service.SearchedGame`
        (a game too large to solve, each position searched when the session needs it: the
        computer's turn, ``values`` and ``hint``).
    human : {"first", "second"}
        Whether the person moves first.
    stdin, stdout : text streams
        Where commands come from and where the session writes.

    Notes
    -----
    Input never raises: an unknown command or an illegal move gets a one-line message and
    the prompt again. End of input ends the session like ``quit``.
    """

    def __init__(
        self,
        game: Game[Any],
        solved: Answers,
        *,
        human: Literal["first", "second"] = "first",
        stdin: TextIO,
        stdout: TextIO,
    ) -> None:
        if human not in ("first", "second"):
            raise InputFormatError(f"side must be 'first' or 'second', got {human!r}")
        self.game = game
        self.solved = solved
        self.human = human
        self.stdin = stdin
        self.stdout = stdout
        self.history: list[Any] = [game.initial()]
        """Positions from the start to the current one."""

    # ------------------------------------------------------------------ state
    @property
    def position(self) -> Any:
        """The current position."""
        return self.history[-1]

    def human_to_move(self) -> bool:
        """Whether the person moves at the current position (the first player at even plies)."""
        return self._human_at(len(self.history) - 1)

    def final_value(self) -> Value | None:
        """The value for the player to move where the game is over here, else None.

        Over: the rules fix the value (``outcome``), or the player to move has no move and
        loses (normal play).
        """
        return over_value(self.game, self.position)

    # ------------------------------------------------------------------ output
    def say(self, text: str) -> None:
        """Write one line (or several) to the session's output."""
        self.stdout.write(text + "\n")

    def show(self) -> None:
        """Draw the board with the coordinates the move labels name (the game's ``labelled``,
        its ``render`` where it has none) and say whose turn it is, or how the game ended."""
        self.say(self.game.labelled(self.position))
        final = self.final_value()
        if final is None:
            self.say("Your move." if self.human_to_move() else "Computer to move.")
            return
        mine = final if self.human_to_move() else final.flipped()
        verdict = {Value.WIN: "You win.", Value.LOSE: "You lose.", Value.TIE: "It is a tie."}
        self.say(f"Game over: {verdict.get(mine, mine.name)} Type undo or quit.")

    # ------------------------------------------------------------------ commands
    def values(self) -> None:
        """List every legal move with its value for the person."""
        moves = self.solved.move_values(self.position)
        if not moves:
            self.say("No legal moves: the game is over.")
        width = max((len(m.label) for m in moves), default=0)
        numbered = _numbered([m.label for m in moves])
        for i, move in enumerate(moves, start=1):
            what = describe(move.value, move.remoteness, move.score)
            self.say(f"{f'{i:>3}.' if numbered else '   '} {move.label:<{width}}  {what}")

    def hint(self) -> None:
        """Say a best move."""
        best = self.best()
        if best is None:
            self.say("No legal moves: the game is over.")
        else:
            self.say(f"Hint: {best.label} ({describe(best.value, best.remoteness, best.score)})")

    def undo(self) -> None:
        """Go back to the person's previous turn (before their last move)."""
        turns = [ply for ply in range(len(self.history) - 1) if self._human_at(ply)]
        if not turns:
            self.say("Nothing to undo.")
            return
        del self.history[turns[-1] + 1 :]
        self.show()

    def _human_at(self, ply: int) -> bool:
        """Whether the person moves after `ply` moves (the first player moves at even plies)."""
        return (ply % 2 == 0) == (self.human == "first")

    def help(self) -> None:
        """List the commands."""
        self.say("Enter a move by its label or by its number in 'values'. Commands:")
        for name, text in COMMANDS.items():
            self.say(f"  {name:<7} {text}")

    def best(self) -> Move[Any] | None:
        """The move perfect play makes here (first best move), or None where play is over."""
        chosen = self.solved.best_moves(self.position)
        return chosen[0] if chosen else None

    def find_move(self, text: str) -> Any | None:
        """The position the legal move `text` names leads to: a label (exact, then any case),
        else a 1-based number in the game's move order (as ``values`` lists them) where no
        label is a number (Squadro's pieces: ``1`` names piece 1 only), or None.

        Read from the rules alone, so entering a move never waits for a search.
        """
        moves = [(str(m[0]), m[1]) for m in self.game.moves(self.position)]
        for key in (str, str.casefold):
            for label, child in moves:
                if key(label) == key(text):
                    return child
        numbered = _numbered([label for label, _ in moves])
        if numbered and text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1][1]
        return None

    # ------------------------------------------------------------------ the loop
    def computer_moves(self) -> None:
        """Play the computer's best move and show the board."""
        move = self.best()
        if move is None:
            return
        self.say(f"Computer plays {move.label}.")
        self.history.append(move.position)
        self.show()

    def run(self) -> int:
        """Play until ``quit`` or the end of input; returns 0 (the exit code)."""
        name = self.game.info.name
        self.say(f"{name}: you play {self.human} against perfect play. Type 'help' for commands.")
        self.show()
        while True:
            if self.final_value() is None and not self.human_to_move():
                self.computer_moves()
                continue
            self.stdout.write("> ")
            line = self.stdin.readline()
            if not line:
                self.say("")
                return 0
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command == "quit":
                return 0
            action = {
                "values": self.values,
                "hint": self.hint,
                "undo": self.undo,
                "help": self.help,
            }.get(command)
            if action is not None:
                action()
                continue
            if self.final_value() is not None:
                self.say(f"The game is over; {text!r} is not a command. Type undo or quit.")
                continue
            child = self.find_move(text)
            if child is None:
                self.say(
                    f"{text!r} is not a legal move here. Type 'values' to list the moves, "
                    "'help' for commands."
                )
                continue
            self.history.append(child)
            self.show()


class ThinkingLine:
    """Shows ``Thinking... 3.2 s`` on one updating line of a terminal while a search runs.

    An ``on_wait`` for :class:`~perfectplay.search.service.SearchedGame`: on a terminal, each
    call rewrites the line with the seconds elapsed, and the last (None) erases it; on
    anything else (a pipe, a
    file) it writes nothing, so scripted sessions read the same whatever the search time.

    >>> import io
    >>> line = ThinkingLine(io.StringIO())
    >>> line(1.5); line(None); line.stream.getvalue()
    ''
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, elapsed: float | None) -> None:
        if not self.stream.isatty():
            return
        if elapsed is None:
            if self.shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self.shown = False
            return
        self.stream.write(f"\rThinking... {elapsed:.1f} s")
        self.stream.flush()
        self.shown = True
