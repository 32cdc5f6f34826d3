"""A game position as SVG: :func:`position_svg`, choosing a board renderer by game name.

Registered games each have a renderer (tic-tac-toe, Connect Four, Nim, subtraction, Dodgem,
Quixo); any other game, or a board too large to draw cell by cell, gets the text picture
(:mod:`perfectplay.draw.text`). Every legal move passed in is marked in one element carrying
``data-move`` (its label), ``data-value`` (WIN, LOSE, TIE or DRAW **for the player making the
move**) and ``data-remoteness``.

Examples
--------
>>> from perfectplay import load_game, solve
>>> game = load_game("nim", heaps=(1, 2))
>>> svg = position_svg(game, (1, 2), solve(game).move_values((1, 2)))
>>> svg.startswith("<svg"), svg.count("data-move="), 'data-move="h2-1" data-value="WIN"' in svg
(True, 3, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from perfectplay.draw.text import text_drawing
from perfectplay.moves import Move, optimal_moves
from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, page, thumbnail
from perfectplay.values import Value

__all__ = ["graph_position_svg", "position_svg", "side_to_move", "thumbnail_svg"]

_NOTE = (
    "moves coloured by their value for the player making them; number: remoteness; "
    "ringed: a best move"
)


@dataclass(frozen=True)
class _Shown(Move[Any]):
    """A move as a picture draws it: the move, and whether it is a best move (ringed)."""

    best: bool = False


def _shown(moves: Sequence[Move[Any]]) -> list[_Shown]:
    """`moves` with the best ones flagged, by the one rule of
    :func:`~perfectplay.moves.optimal_moves` (the position's value for the player to move
    is the best of its moves', its score the best of their scores).

    Cost: O(len(moves)).
    """
    if not moves:
        return []
    scores = [m.score for m in moves if m.score is not None]
    value = max(int(m.value) for m in moves)
    best = {m.label for m in optimal_moves(moves, value, max(scores) if scores else None)}
    return [
        _Shown(m.label, m.position, Value(m.value), m.remoteness, m.score, m.label in best)
        for m in moves
    ]


def _board(game: Game[Any], position: Any, by_label: dict[str, Any]) -> Drawing | None:
    """The game's own board picture, or None if it has none (or the board is too large).

    The picture is the one the game's registry entry names, used only for an instance of that
    entry's class (a user's game that merely shares a name is drawn as text).
    """
    from perfectplay.errors import UnknownNameError
    from perfectplay.games.registry import game_entry

    try:
        entry = game_entry(game.info.name)
    except UnknownNameError:
        return None
    drawing = entry.drawing()
    if drawing is None or not isinstance(game, entry.game_class()):
        return None
    result: Drawing | None = drawing(game, position, by_label)
    return result


def side_to_move(game: Game[Any], position: Any) -> str | None:
    """The name of the player to move at `position` as the game's board picture writes it
    (``X``, ``Blue``), or None: a game without names (Nim), or play over there.

    >>> from perfectplay import load_game
    >>> side_to_move(load_game("tic-tac-toe"), "X........"), side_to_move(load_game("nim"), (1, 2))
    ('O', None)

    Cost: drawing the board without moves, O(board cells).
    """
    board = _board(game, position, {})
    found = re.match(r"(\w+) to (move|drop)\b", board.caption) if board is not None else None
    return found.group(1) if found else None


def position_svg(
    game: Game[Any],
    position: Any,
    moves: Sequence[Move[Any]] | None = None,
    *,
    size: float | None = None,
) -> str:
    """A standalone SVG picture of `position`, with every move of `moves` coloured by value.

    Parameters
    ----------
    game : Game
        The game (e.g. ``perfectplay.load_game("connect-four")``).
    position : position of `game`
        The position to draw, as the game's ``moves`` and ``parse`` produce it.
    moves : list of Move, optional
        The legal moves with their values, as ``GameSolution.move_values(position)`` (or an
        open store's) returns them: ``Move.value`` is already the value **for the player
        making the move** (the child's value for its own player to move, flipped). Each is
        drawn in the value's colour (:data:`~perfectplay.svg.palette.PALETTE`) with its value
        initial and remoteness, the best ones (by the rule of ``best_moves``) with their
        value tag ringed. None or empty: the board alone.
    size : float, optional
        Width in pixels of the rendered picture; default its natural size.

    Returns
    -------
    str
        An ``<svg>`` document with a title, the board and a legend.

    Notes
    -----
    Cost: O(board cells + moves); no solving happens here.
    """
    listed = _shown(list(moves or []))
    by_label = {m.label: m for m in listed}
    board = _board(game, position, by_label)
    if board is None:
        board = text_drawing(game.render(position), listed)
    params = game.info.param_text()
    title = f"{game.info.name}{' ' + params if params else ''}"
    return page(board, title=title, note=_NOTE, size=size)


def thumbnail_svg(game: Game[Any], position: Any, *, size: float = 180.0) -> str:
    """A small standalone SVG of `position`'s board alone, `size` pixels wide: the game's own
    picture (its text where it has none), no moves marked, no title or legend (the web app's
    list of games).

    >>> from perfectplay import load_game
    >>> game = load_game("tic-tac-toe")
    >>> svg = thumbnail_svg(game, game.initial(), size=120)
    >>> svg.startswith("<svg"), 'width="120"' in svg, "data-move" in svg
    (True, True, False)

    Cost: O(board cells), as :func:`position_svg`.
    """
    board = _board(game, position, {})
    if board is None:
        board = text_drawing(game.render(position), [])
    params = game.info.param_text()
    return thumbnail(board, title=f"{game.info.name}{' ' + params if params else ''}", size=size)


def graph_position_svg(
    position: int, moves: Sequence[Move[Any]], *, size: float | None = None
) -> str:
    """A position of a plain game graph (no board): its id and one button per move.

    `moves` as :func:`position_svg` takes them, labelled by the id they lead to.

    >>> graph_position_svg(0, []).count("data-move")
    0
    """
    drawing = text_drawing(f"position {position}", _shown(list(moves)))
    return page(drawing, title="game graph", note=_NOTE, size=size)
