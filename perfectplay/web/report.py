"""One position as the web app's JSON API answers it: text, picture, values, moves, history.

A position is named by a start (the game's initial position, or one typed in the game's text
format) and the labels of the moves played from there. :func:`position_report` replays the
moves, checking each is legal, and describes where they lead: the position's text and SVG
drawing, its value and remoteness for the player to move, whether the game is over, every
legal move with its value and remoteness for the player making it (and whether it is
optimal), and the value history of the game so far.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> from perfectplay.web.solutions import SolutionCache
>>> cache = SolutionCache()
>>> solved = cache.wait(load_game("subtraction", heap=4))
>>> report = position_report(solved, None, ["1"])
>>> report["position"], report["value"], report["remoteness"], report["over"]
('3', 'WIN', 1, False)
>>> [(m["label"], m["value"], m["remoteness"], m["best"]) for m in report["moves"]]
[('1', 'LOSE', 2, False), ('2', 'LOSE', 2, False), ('3', 'WIN', 1, True)]
>>> report["history"]
[{'value': 'LOSE', 'remoteness': 2}, {'value': 'WIN', 'remoteness': 1}]
>>> position_report(solved, None, ["1", "5"])
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: move 2 ('5') is not legal in position '3'; legal moves: 1, 2, 3
>>> cache.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.errors import InputFormatError
from perfectplay.moves import Move
from perfectplay.protocol.answers import Answers
from perfectplay.protocol.game import Game, provides
from perfectplay.search.service import SearchedGame, Thinking
from perfectplay.values import Value

__all__ = [
    "MAX_MOVES",
    "MAX_POSITION_CHARS",
    "board_report",
    "position_report",
    "searched_report",
    "start_position",
]

MAX_MOVES = 10_000
"""Longest move sequence a request may replay."""
MAX_POSITION_CHARS = 10_000
"""Longest position text a request may give."""


def _remoteness(remoteness: int) -> int | None:
    """JSON remoteness: None (``null``) for a sentinel: a draw, which never ends, or a
    remoteness not known (a weak book)."""
    return None if remoteness < 0 else remoteness


def _parse_start(game: Game[Any], text: str | None) -> Any:
    """The initial position, or the one `text` writes in the game's text format."""
    if text is None:
        return game.initial()
    if len(text) > MAX_POSITION_CHARS:
        raise InputFormatError(f"a position is at most {MAX_POSITION_CHARS} characters")
    if not provides(game, "parse"):
        raise InputFormatError(f"{game.info.name} cannot read positions from text")
    return game.parse(text)


def start_position(solved: Answers, text: str | None) -> Any:
    """The game's initial position, or the one `text` writes in the game's text format.

    Raises
    ------
    InputFormatError
        If the game cannot read `text`, the text is too long, or the game reads no text.
    PositionNotFoundError
        If the position is not reachable from the game's start (not among the solved ones).
    """
    position = _parse_start(solved.game, text)
    if text is not None:
        solved.probe(position)  # PositionNotFoundError names it if unreachable
    return position


def _replay(game: Game[Any], position: Any, moves: Sequence[str]) -> list[Any]:
    """The positions from `position` through each move of `moves` (checked legal by the rules).

    Raises
    ------
    InputFormatError
        Naming the first move that is not legal where it is played, and the legal ones.
    """
    if len(moves) > MAX_MOVES:
        raise InputFormatError(f"at most {MAX_MOVES} moves per request, got {len(moves)}")
    path = [position]
    for ply, label in enumerate(moves, 1):
        over = game.outcome(position) is not None
        options = [] if over else [(str(m[0]), m[1]) for m in game.moves(position)]
        chosen = next((child for name, child in options if name == label), None)
        if chosen is None:
            legal = ", ".join(name for name, _ in options) or "none, the game is over"
            raise InputFormatError(
                f"move {ply} ({label!r}) is not legal in position {game.render(position)!r}; "
                f"legal moves: {legal}"
            )
        position = chosen
        path.append(position)
    return path


def _describe(
    game: Game[Any],
    position: Any,
    options: Sequence[Move[Any]],
    best: set[str],
    history: Sequence[tuple[Value, int]],
    first: Any,
) -> dict[str, Any]:
    """The report of `position` (the last of `history`, whose first is `first`) with its
    valued moves."""
    from perfectplay.draw import position_svg, value_history_svg
    from perfectplay.draw.position import side_to_move

    value, remoteness = history[-1]
    return {
        "position": game.render(position),
        "svg": position_svg(game, position, list(options)),
        "value": value.name,
        "remoteness": _remoteness(remoteness),
        "over": not options,
        "moves": [
            {
                "label": m.label,
                "value": Value(m.value).name,
                "remoteness": _remoteness(m.remoteness),
                "score": m.score,
                "best": m.label in best,
            }
            for m in options
        ],
        "history": [{"value": v.name, "remoteness": _remoteness(r)} for v, r in history],
        "history_svg": value_history_svg(history, side=side_to_move(game, first)),
    }


def position_report(solved: Answers, start: str | None, moves: Sequence[str]) -> dict[str, Any]:
    """The JSON description of the position reached by `moves` from `start`.

    Parameters
    ----------
    solved : Answers
        The solved game.
    start : str or None
        A position in the game's text format; None for the initial position.
    moves : sequence of str
        Move labels, played in turn from `start`.

    Returns
    -------
    dict
        ``position`` (text), ``svg``, ``value`` and ``remoteness`` (for the player to move;
        remoteness None for a draw), ``over``, ``moves`` (label, value and remoteness for the
        player making it, ``best``), ``history`` (value and remoteness for the player to move
        at each ply from the start), ``history_from`` (0: the ply of the first) and
        ``history_svg``; see ``docs/web.md``.

    Raises
    ------
    InputFormatError
        If a move is not legal where it is played, there are too many moves, or `start`
        cannot be read.
    PositionNotFoundError
        If `start` is not reachable from the game's initial position.

    Notes
    -----
    Cost: O(moves from each position on the way) look-ups, plus drawing the board and chart.
    """
    game = solved.game
    path = _replay(game, start_position(solved, start), moves)
    position = path[-1]
    history = [(e.value, e.remoteness) for e in map(solved.probe, path)]
    best = {m.label for m in solved.best_moves(position)}
    report = _describe(game, position, solved.move_values(position), best, history, path[0])
    report["history_from"] = 0
    return report


def board_report(game: Game[Any], start: str | None, moves: Sequence[str]) -> dict[str, Any]:
    """The position reached, its text and its board with no move valued: what a page shows
    while the position is searched (``position`` and ``svg`` of :func:`position_report`).

    >>> from perfectplay.games.registry import load_game
    >>> shown = board_report(load_game("tic-tac-toe"), None, ["b2"])
    >>> shown["position"], shown["svg"].count("data-move=")
    ('. . .\\n. X .\\n. . .', 0)

    Raises
    ------
    InputFormatError
        As :func:`position_report`.

    Notes
    -----
    Cost: the replay (O(moves)) and drawing the board.
    """
    from perfectplay.draw import position_svg

    position = _replay(game, _parse_start(game, start), moves)[-1]
    return {"position": game.render(position), "svg": position_svg(game, position)}


def searched_report(
    searched: SearchedGame, start: str | None, moves: Sequence[str], wait: float
) -> dict[str, Any] | Thinking:
    """The report of :func:`position_report` for a game served by search, or its status.

    The position reached is searched (all its moves valued) if it is not known yet: if the
    search takes longer than `wait` seconds, the answer is a
    :class:`~perfectplay.search.service.Thinking` status (ask again). `start` is read, not checked
    reachable (a search answers any legal position). The history holds the positions whose
    values are known (searched, or a searched position's move), from the earliest ply such
    that every later one is known, moved to an even ply where it holds more than the last
    position (``history_from`` names that ply; the chart is drawn from the side of the player
    to move there, and names it).

    Raises
    ------
    InputFormatError
        As :func:`position_report`.
    PerfectPlayError
        What the search raised.

    Notes
    -----
    Cost: the replay (O(moves)), the search of the last position if new (up to `wait`
    seconds here; it goes on in the background), cache look-ups for the history.
    """
    game = searched.game
    path = _replay(game, _parse_start(game, start), moves)
    position = path[-1]
    found = searched.answer(position, all_moves=True, wait=wait)
    if isinstance(found, Thinking):
        return found
    history: list[tuple[Value, int]] = [(found.value, found.remoteness)]
    for earlier in reversed(path[:-1]):
        known = searched.known(earlier)
        if known is None:
            break
        history.append((known.value, known.remoteness))
    history.reverse()
    first = len(path) - len(history)
    if first % 2 and len(history) > 1:
        first += 1
        history = history[1:]
    report = _describe(game, position, found.moves, set(found.best), history, path[first])
    report["history_from"] = first
    return report
