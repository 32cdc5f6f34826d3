"""The one-pass worker: a range of a tier whose moves all lead to earlier tiers.

Each position's value and remoteness (and score) follow from its children's, which are
already solved: no counters, no queue, one sweep in batches of ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, ScoreOverflowError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers._kernels import combine, combine_scores, scatter_records
from perfectplay.tiers.expand import BATCH, SolvedTier, expand, slot_ranks

__all__ = ["solve_range"]


def solve_range(
    game: TieredGame,
    tier: int,
    lo: int,
    hi: int,
    children: Sequence[SolvedTier],
    *,
    dtype: type[np.unsignedinteger] = np.uint8,
    scored: bool = False,
    advance: Callable[[int], None] | None = None,
) -> tuple[NDArray[np.unsignedinteger], int, NDArray[np.int64] | None]:
    """Records (and scores) of ranks ``lo..hi-1`` of a tier without inner moves.

    Parameters
    ----------
    game, tier : the tiered game and the tier.
    lo, hi : int
        The range of ranks.
    children : sequence of SolvedTier
        The solved tiers of ``game.child_tiers(tier)``, in that order.
    dtype : numpy unsigned integer type
        The record dtype: wide enough for 1 + the largest remoteness of the child tiers.
    scored : bool
        Compute scores too.
    advance : callable, optional
        Called with the number of ranks done after each batch (a progress bar).

    Returns
    -------
    records, most, score
        Per rank of the range, the packed value (for the player to move) and remoteness
        (:mod:`perfectplay.tiers.records`; 0 where the rank is no position); the largest
        remoteness (-1 if the range holds no position); the scores (None if not scored).

    Raises
    ------
    GameDefinitionError
        If a move stays inside the tier, or the game's arrays are inconsistent.
    ScoreOverflowError
        If a score leaves int64.

    Notes
    -----
    Cost: one ``children`` call per batch of 65,536 ranks and one random read of a child
    tier per move; memory: the records (and 8 bytes of score) per rank of the range plus one
    batch's moves.
    """
    records = np.zeros(hi - lo, dtype=dtype)
    most = -1
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
        most = max(most, scatter_records(ranks - lo, v, r, records))
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
    return records, most, score
