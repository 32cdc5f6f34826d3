"""perfectplay: perfect play for two-player games.

For every position of a game: who wins with best play (for the player to move), how fast
(remoteness), by which moves, or, for scored games, the exact minimax score.

>>> import perfectplay
>>> g = perfectplay.GameGraph.from_edges([0, 1], [1, 2], n=3)
>>> g
<GameGraph n=3, m=2>
"""

from __future__ import annotations

from perfectplay.errors import (
    CyclicGraphError,
    GameDefinitionError,
    InputFormatError,
    InvalidGraphError,
    PerfectPlayError,
    StoreError,
    TooLargeError,
    UnknownNameError,
)
from perfectplay.graph import GameGraph, as_game_graph
from perfectplay.solution import MoveValue, Solution
from perfectplay.values import Position, Value

__version__ = "0.1.0"

__all__ = [
    "CyclicGraphError",
    "GameDefinitionError",
    "GameGraph",
    "InputFormatError",
    "InvalidGraphError",
    "MoveValue",
    "PerfectPlayError",
    "Position",
    "Solution",
    "StoreError",
    "TooLargeError",
    "UnknownNameError",
    "Value",
    "__version__",
    "as_game_graph",
]
