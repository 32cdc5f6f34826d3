"""Dobutsu Shogi's positions reachable from the start, counted two ways.

Tanaka's count (246,803,167 for Dobutsu Shogi, the figure every later solver reproduces)
walks forward from the start with the player to move at the bottom and a position and its
mirror image as one, and stops at a position where the player to move can catch the opposing
lion (it is won: the capture is not played out) or where the opponent's try stands (lost).
The tier form's walk (``perfectplay analyze``) plays every move: it also counts the positions
after a lion is caught, and those reached only through a position where a catch was on but
another move was played. :func:`reach_counts` walks both at once: Tanaka's walk first, then on
from the catch positions it left unplayed.

Examples
--------
>>> from perfectplay.games.dobutsu.tiers import TieredDobutsu
>>> tanaka, every = reach_counts(TieredDobutsu(giraffes=0, elephants=0, chicks=2), jobs=1)
>>> tanaka.classes
{'play': 11711, 'catch': 11318, 'try': 1760, 'caught': 0}
>>> sum(every.classes.values()) > sum(tanaka.classes.values()), every.classes["caught"] > 0
(True, True)
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from perfectplay.games.dobutsu import _reach_kernels as kernels
from perfectplay.games.dobutsu._tier_kernels import children, tables
from perfectplay.games.dobutsu.tiers import TieredDobutsu
from perfectplay.tiers._kernels import claim_bits

__all__ = ["KINDS", "Reach", "reach_counts"]

KINDS = ("play", "catch", "try", "caught")
"""The kinds of position counted: play goes on and the player to move cannot catch the
opposing lion; the player to move can catch it (WIN in 1, or WIN at once after a try into
check); the opponent's try stands (LOSE); the player to move's lion was caught (LOSE)."""
_BATCH = 1 << 16


def _zero() -> dict[str, int]:
    return dict.fromkeys(KINDS, 0)


@dataclass
class Reach:
    """Reachable classes (a position and its mirror image once) and positions, per kind."""

    classes: dict[str, int] = field(default_factory=_zero)
    positions: dict[str, int] = field(default_factory=_zero)


class _Walk:
    def __init__(self, game: TieredDobutsu, pool: ThreadPoolExecutor | None) -> None:
        self.game, self.pool = game, pool
        self.tab = tables(*game.totals)
        self.flags = np.zeros(-(-game.tier_size(0) // 8), dtype=np.uint8)

    def tally(self, ranks: NDArray[np.int64], into: Reach) -> NDArray[np.uint8]:
        """Count `ranks` into `into` by kind; return their kinds."""
        kind = kernels.kinds(ranks, self.tab)
        orbit = self.game.orbit_sizes(0, ranks)
        classes = np.bincount(kind, minlength=len(KINDS))
        positions = np.bincount(kind, weights=orbit, minlength=len(KINDS))
        for k, name in enumerate(KINDS):
            into.classes[name] += int(classes[k])
            into.positions[name] += int(positions[k])
        return kind

    def expand(self, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """The children of `ranks` not reached before, now marked reached."""

        def one(start: int) -> NDArray[np.int64]:
            return children(ranks[start : start + _BATCH], self.tab)[3]

        starts = range(0, len(ranks), _BATCH)
        parts = map(one, starts) if self.pool is None else self.pool.map(one, starts)
        new = [claim_bits(self.flags, part) for part in parts]
        return np.concatenate(new) if new else np.empty(0, dtype=np.int64)


def reach_counts(game: TieredDobutsu, *, jobs: int | None = None) -> tuple[Reach, Reach]:
    """Positions reachable from the start: Tanaka's count, and with every move played.

    Parameters
    ----------
    game : TieredDobutsu
        Dobutsu Shogi or a reduced game.
    jobs : int, optional
        Threads generating moves (default: every core).

    Returns
    -------
    tanaka, every : Reach
        Per kind (:data:`KINDS`), the classes and positions reached by a walk that does not
        play on from a position where the player to move can catch the opposing lion (nor
        from a try), and by one that plays every move (the positions ``perfectplay analyze``
        counts, by kind instead of by value).

    Notes
    -----
    Cost: one ``children`` call per reached class that is played on, a kind and an orbit size
    per reached class. Memory: a bit per rank of the tier (96 MB for Dobutsu Shogi), the
    frontier (8 bytes per class of one step of the walk) and the catch positions left unplayed
    by the first walk (8 bytes each).
    """
    workers = jobs or os.cpu_count() or 1
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        walk = _Walk(game, pool)
        tanaka = Reach()
        frontier = walk.expand(np.array([game.initial()[1]], dtype=np.int64))
        unplayed = []
        while len(frontier):
            kind = walk.tally(frontier, tanaka)
            unplayed.append(frontier[kind == kernels.CATCH])
            frontier = walk.expand(frontier[kind == kernels.PLAY])
        rest = Reach()
        frontier = walk.expand(np.concatenate(unplayed))
        while len(frontier):
            kind = walk.tally(frontier, rest)
            frontier = walk.expand(frontier[kind <= kernels.CATCH])
    finally:
        if pool is not None:
            pool.shutdown()
    every = Reach(
        {k: tanaka.classes[k] + rest.classes[k] for k in KINDS},
        {k: tanaka.positions[k] + rest.positions[k] for k in KINDS},
    )
    return tanaka, every
