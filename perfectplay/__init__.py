"""perfectplay: perfect play for two-player games.

For every position of a game: who wins with best play (for the player to move), how fast
(remoteness), by which moves, or, for scored games, the exact minimax score.

Every public name is listed here once and loaded on first use, so ``import perfectplay`` is
cheap and numba loads only with the first solver.

>>> import perfectplay
>>> g = perfectplay.GameGraph.from_edges([0, 1], [1, 2], n=3)
>>> perfectplay.solve(g).summary()
{'WIN': 1, 'LOSE': 2, 'TIE': 0, 'DRAW': 0}
>>> ttt = perfectplay.solve(perfectplay.load_game("tic-tac-toe"))
>>> ttt.value(ttt.initial)
<Value.TIE: 2>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    # core
    "CyclicGraphError": ".errors",
    "GameDefinitionError": ".errors",
    "GameOverError": ".errors",
    "InputFormatError": ".errors",
    "InvalidGraphError": ".errors",
    "LosingPositionError": ".errors",
    "MissingDependencyError": ".errors",
    "PerfectPlayError": ".errors",
    "PictureTooLargeError": ".errors",
    "PositionNotFoundError": ".errors",
    "ScoreOverflowError": ".errors",
    "StoreError": ".errors",
    "TooLargeError": ".errors",
    "UnknownNameError": ".errors",
    "Position": ".values",
    "Value": ".values",
    "GameGraph": ".graph",
    "as_game_graph": ".graph",
    "Move": ".moves",
    "Solution": ".solution",
    # solvers
    "solve_graph": ".solvers.auto",
    "solve_retrograde": ".solvers.retrograde",
    "solve_dag": ".solvers.dag",
    "GeographyResult": ".solvers.geography",
    "solve_geography": ".solvers.geography",
    "solve_geography_bipartite": ".solvers.geography",
    "solve_geography_general": ".solvers.geography",
    "GrundySolution": ".solvers.grundy",
    "grundy_sum": ".solvers.grundy",
    "grundy_values": ".solvers.grundy",
    "solve_grundy": ".solvers.grundy",
    # games and the user API
    "Game": ".protocol.game",
    "GameInfo": ".protocol.game",
    "check_game": ".api",
    "enumerate_game": ".enumeration.enumerate",
    "game_names": ".games.registry",
    "load_game": ".games.registry",
    "GameSolution": ".api",
    "solve": ".api",
    # database of solved positions, terminal play
    "SolutionStore": ".store",
    "open_store": ".store",
    "save": ".store",
    "PlaySession": ".play",
    "open_solved": ".solved",
    # the tier engine: games larger than memory
    "TieredGame": ".protocol.tiered",
    "TierMoves": ".protocol.tiered",
    "TierDatabase": ".tiers.database",
    "open_tiers": ".solved",
    "solve_tiers": ".tiers.engine",
    "check_tiered_game": ".tiers.check",
    "load_tiered_game": ".games.registry",
}

__all__ = ["__version__", *_EXPORTS]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from perfectplay.api import GameSolution, check_game, solve
    from perfectplay.enumeration.enumerate import enumerate_game
    from perfectplay.errors import (
        CyclicGraphError,
        GameDefinitionError,
        GameOverError,
        InputFormatError,
        InvalidGraphError,
        LosingPositionError,
        MissingDependencyError,
        PerfectPlayError,
        PictureTooLargeError,
        PositionNotFoundError,
        ScoreOverflowError,
        StoreError,
        TooLargeError,
        UnknownNameError,
    )
    from perfectplay.games.registry import game_names, load_game, load_tiered_game
    from perfectplay.graph import GameGraph, as_game_graph
    from perfectplay.moves import Move
    from perfectplay.play import PlaySession
    from perfectplay.protocol.game import Game, GameInfo
    from perfectplay.protocol.tiered import TieredGame, TierMoves
    from perfectplay.solution import Solution
    from perfectplay.solved import open_solved, open_tiers
    from perfectplay.solvers.auto import solve_graph
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.solvers.geography import (
        GeographyResult,
        solve_geography,
        solve_geography_bipartite,
        solve_geography_general,
    )
    from perfectplay.solvers.grundy import GrundySolution, grundy_sum, grundy_values, solve_grundy
    from perfectplay.solvers.retrograde import solve_retrograde
    from perfectplay.store import SolutionStore, open_store, save
    from perfectplay.tiers.check import check_tiered_game
    from perfectplay.tiers.database import TierDatabase
    from perfectplay.tiers.engine import solve_tiers
    from perfectplay.values import Position, Value
