"""The search engine: perfect play at one position of an acyclic game, without enumerating it.

- :mod:`~perfectplay.search.engine` — :func:`search` and its :class:`SearchResult`: the
  public entry (validation, the table budget, weak/strong, all moves, the kernel hook).
- :mod:`~perfectplay.search.plain` — alpha-beta over the plain-Python Game protocol.
- :mod:`~perfectplay.search.score` — the one integer score ordering outcomes for the player
  to move, and the null-window driver (MTD(f)).
- :mod:`~perfectplay.search.table` — the fixed-size transposition table of score bounds.
- :mod:`~perfectplay.search.kernel` — :class:`SearchKernel`, what a game's compiled search
  offers the engine.
- :mod:`~perfectplay.search.book` — the opening book: every position up to a depth searched
  once (in worker processes or on Dask), resumable, one checksummed file.
- :mod:`~perfectplay.search.batch` — many positions searched in worker processes.
- :mod:`~perfectplay.search.depth` — :class:`~perfectplay.search.depth.DepthSearch`: the exact
  value of a position of any game, loopy ones too, wherever the next plies decide it (the
  twin a solved database is probed against: ``perfectplay verify DIR --probe N``).
- :mod:`~perfectplay.search.service` — the one way search work runs in other processes, and
  :class:`~perfectplay.search.service.SearchedGame`, a game answered position by position.

The engine imports the protocol layer and the core only, never a concrete game, the store,
the API or the command line (docs/search.md).

Examples
--------
>>> from perfectplay.protocol.game import Game
>>> from perfectplay.values import Value
>>> class Countdown(Game[int]):  # take 1 from 3; stuck at 0 loses
...     def initial(self) -> int:
...         return 3
...     def moves(self, p: int) -> list[tuple[str, int]]:
...         return [("take 1", p - 1)] if p else []
...     def outcome(self, p: int) -> Value | None:
...         return None
>>> search(Countdown())
<SearchResult: WIN in 3 for the player to move; best: take 1; ... nodes in ... s>
"""

from __future__ import annotations

from perfectplay.errors import GameOverError
from perfectplay.search.book import BookStats, OpeningBook, build_book
from perfectplay.search.engine import Searcher, SearchResult, search
from perfectplay.search.kernel import SearchKernel

__all__ = [
    "BookStats",
    "GameOverError",
    "OpeningBook",
    "SearchKernel",
    "SearchResult",
    "Searcher",
    "build_book",
    "search",
]
