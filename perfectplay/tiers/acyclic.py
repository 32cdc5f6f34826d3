"""The one-pass worker: a range of a tier whose moves all lead to earlier tiers.

Each position's value and remoteness (and score) follow from its children's, which are
already solved: no counters, no queue, one sweep in batches of ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, ScoreOverflowError
from perfectplay.tiers._kernels import combine, combine_scores
from perfectplay.tiers.base import TieredGame
from perfectplay.tiers.expand import BATCH, SolvedTier, expand, slot_ranks
from perfectplay.values import UNDECIDED

__all__ = ["solve_range"]


def solve_range(
    game: TieredGame,
    tier: int,
    lo: int,
    hi: int,
    children: Sequence[SolvedTier],
    *,
    scored: bool = False,
    advance: Callable[[int], None] | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.int32], NDArray[np.int64] | None]:
    """Value, remoteness (and score) of ranks ``lo..hi-1`` of a tier without inner moves.

    Parameters
    ----------
    game, tier : the tiered game and the tier.
    lo, hi : int
        The range of ranks.
    children : sequence of SolvedTier
        The solved tiers of ``game.child_tiers(tier)``, in that order.
    scored : bool
        Compute scores too.
    advance : callable, optional
        Called with the number of ranks done after each batch (a progress bar).

    Returns
    -------
    value, remoteness, score
        Per rank of the range: the value for the player to move (UNDECIDED where the rank is
        no position), the remoteness (-1 for DRAW and no position) and the score (None if not
        scored).

    Raises
    ------
    GameDefinitionError
        If a move stays inside the tier, or the game's arrays are inconsistent.
    ScoreOverflowError
        If a score leaves int64.

    Notes
    -----
    Cost: one ``children`` call per batch of 65,536 ranks and one random read of a child
    tier per move; memory: 13 bytes per rank of the range plus the batch's moves.
    """
    value = np.full(hi - lo, UNDECIDED, dtype=np.uint8)
    rem = np.full(hi - lo, -1, dtype=np.int32)
    score = np.zeros(hi - lo, dtype=np.int64) if scored else None
    for start in range(lo, hi, BATCH):
        stop = min(start + BATCH, hi)
        ranks = slot_ranks(game, tier, start, stop)
        batch = expand(game, tier, ranks, children, scored)
        moves = batch.moves
        if len(moves.which) and bool((moves.which == 0).any()):
            i = int(np.flatnonzero(moves.which == 0)[0])
            parent = int(ranks[np.searchsorted(moves.indptr, i, side="right") - 1])
            raise GameDefinitionError(
                f"{game.info.name}: tier {tier} rank {parent} has a move inside its tier, "
                "but inner_moves() says the tier has none"
            )
        v = np.empty(len(ranks), dtype=np.uint8)
        r = np.empty(len(ranks), dtype=np.int32)
        combine(moves.primitive, moves.indptr, batch.child_value, batch.child_rem, v, r)
        value[ranks - lo] = v
        rem[ranks - lo] = r
        if score is not None:
            assert (
                moves.gain is not None and moves.score is not None and batch.child_score is not None
            )
            s = np.empty(len(ranks), dtype=np.int64)
            bad = combine_scores(
                moves.primitive, moves.indptr, moves.gain, batch.child_score, moves.score, s
            )
            if bad >= 0:
                raise ScoreOverflowError(
                    f"{game.info.name}: the score of tier {tier} rank {int(ranks[bad])} "
                    "leaves int64"
                )
            score[ranks - lo] = s
        if advance is not None:
            advance(stop - start)
    return value, rem, score
