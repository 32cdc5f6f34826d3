"""How many positions of a game are reachable, symmetric positions counted apart.

A game solved with symmetry reduction (``canonical``) holds one position per symmetry class;
:func:`count_reachable` counts the positions themselves by enumerating the game once more
without merging them, when that is small enough to be quick.

Examples
--------
>>> from perfectplay.games.tictactoe.rules import TicTacToe
>>> count_reachable(TicTacToe(), 765, canonical=True)
5478
"""

from __future__ import annotations

from typing import Any

from perfectplay.protocol.game import Game

__all__ = ["COUNT_LIMIT", "count_reachable"]

COUNT_LIMIT = 20_000
"""Up to this many symmetry classes the positions are counted (one more enumeration without
merging symmetric positions, on the plain path: under a second)."""


def count_reachable(game: Game[Any], classes: int, *, canonical: bool) -> int | None:
    """How many positions of `game` are reachable, symmetric ones counted apart; None if not
    counted.

    Parameters
    ----------
    game : Game
        The game.
    classes : int
        How many positions (symmetry classes when `canonical`) its solution holds.
    canonical : bool
        Whether those are symmetry classes.

    Returns
    -------
    int or None
        `classes` itself without symmetry reduction; else the count of a second enumeration
        without merging, when there are at most :data:`COUNT_LIMIT` classes and at most 48
        positions per class (the symmetries of a square board with colours swapped); else None.

    Notes
    -----
    Cost: none without symmetry reduction; else one plain enumeration of up to
    ``48 * classes`` positions.
    """
    from perfectplay.enumeration.enumerate import enumerate_game
    from perfectplay.errors import TooLargeError

    if not canonical:
        return classes
    if classes > COUNT_LIMIT:
        return None
    try:
        full = enumerate_game(
            game, canonical=False, vectorized=False, max_positions=48 * classes, progress=False
        )
    except TooLargeError:
        return None
    return full.graph.n
