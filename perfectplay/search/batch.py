"""Many positions searched on every core: :func:`search_positions`.

The positions are cut into one contiguous share per worker process
(:func:`~perfectplay.search.service.process_pool`); each worker searches its share in order with
one :class:`~perfectplay.search.engine.Searcher` (one table, kept across its positions), and
the answers come back in the order of the positions. A position that cannot be searched (the
game is over there) gives its error in its place instead of an answer.

Examples
--------
>>> from perfectplay.protocol.game import Game
>>> class TakeAway(Game[int]):  # take 1 or 2 tokens; who takes the last wins
...     def initial(self) -> int:
...         return 9
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> None:
...         return None
>>> answers = list(search_positions(TakeAway(), [4, 0, 6], jobs=1))
>>> answers[0].value.name, type(answers[1]).__name__, answers[2].value.name
('WIN', 'GameOverError', 'LOSE')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from perfectplay.errors import InputFormatError, PerfectPlayError
from perfectplay.protocol.game import Game
from perfectplay.search.engine import Searcher, SearchResult
from perfectplay.search.service import process_pool

__all__ = ["search_positions"]


def _share(
    game: Game[Any],
    positions: Sequence[Any],
    memory: int | None,
    weak: bool,
    all_moves: bool,
    best: bool,
) -> list[SearchResult | PerfectPlayError]:
    """One share, searched in order with one table of its own (so that its answers, node
    counts included, do not depend on which worker ran it or what ran there before)."""
    searcher = Searcher(game, memory=memory)
    answers: list[SearchResult | PerfectPlayError] = []
    for position in positions:
        try:
            answers.append(searcher.search(position, weak=weak, all_moves=all_moves, best=best))
        except PerfectPlayError as error:  # this position only: the others are still answered
            answers.append(error)
    return answers


def search_positions(
    game: Game[Any],
    positions: Sequence[Any],
    *,
    jobs: int = 1,
    memory: int | None = None,
    weak: bool = False,
    all_moves: bool = False,
    best: bool = True,
) -> Iterator[SearchResult | PerfectPlayError]:
    """The answer to each of `positions`, in order, searched by `jobs` worker processes.

    Parameters
    ----------
    game : Game
        An acyclic game (sent to the workers pickled).
    positions : sequence
        Positions of `game` where play goes on; one where it is over gives its
        :class:`~perfectplay.errors.GameOverError` in its place.
    jobs : int
        Worker processes; 1 searches in this process.
    memory, weak, all_moves, best
        As :func:`~perfectplay.search.engine.search`; `memory` is each worker's table.

    Raises
    ------
    InputFormatError
        If `jobs` is less than 1.

    Notes
    -----
    Cost: the positions' searches, divided among the workers (each share's table helps only
    its own positions, so a share of similar positions gains most); memory: one table per
    worker.
    """
    if jobs < 1:
        raise InputFormatError(f"jobs must be at least 1, got {jobs}")
    if jobs == 1 or len(positions) < 2:
        yield from _share(game, positions, memory, weak, all_moves, best)
        return
    size = -(-len(positions) // jobs)
    shares = [positions[i : i + size] for i in range(0, len(positions), size)]
    with process_pool(len(shares)) as pool:
        futures = [
            pool.submit(_share, game, share, memory, weak, all_moves, best) for share in shares
        ]
        for future in futures:
            yield from future.result()
