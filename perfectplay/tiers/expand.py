"""One batch of a tier: its slots, their moves from the game, and the values of children in
earlier tiers, looked up in those tiers' records. Shared by the one-pass and the loopy worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.tiers._kernels import group_moves, lookup, lookup_scores, moves_fit
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN

__all__ = ["BATCH", "Batch", "SolvedTier", "expand", "slot_ranks"]

BATCH = 1 << 16
"""Ranks handed to the game's ``children`` at once: its arrays stay in the cache."""

_PRIMITIVE = np.zeros(256, dtype=np.bool_)
_PRIMITIVE[[LOSE, TIE, WIN, UNDECIDED]] = True  # the codes children() may give


class SolvedTier(NamedTuple):
    """A solved tier as the engine reads it while solving later tiers."""

    tier: int
    records: NDArray[np.unsignedinteger]
    """Packed value and remoteness per rank (:mod:`perfectplay.tiers.records`)."""
    scores: NDArray[np.int64] | None
    """Scored games: the score per rank."""


class Batch(NamedTuple):
    """The slots of one range of ranks with their moves and their children's values."""

    ranks: NDArray[np.int64]
    moves: TierMoves
    child_value: NDArray[np.uint8]
    """Per move: the child's value if it lies in an earlier tier (unset for inner moves)."""
    child_rem: NDArray[np.int32]
    child_score: NDArray[np.int64] | None


def slot_ranks(game: TieredGame, tier: int, lo: int, hi: int) -> NDArray[np.int64]:
    """The ranks in ``lo..hi-1`` that are positions to solve (``game.slots``)."""
    mask = game.slots(tier, lo, hi)
    if mask is None:
        return np.arange(lo, hi, dtype=np.int64)
    mask = np.asarray(mask)
    if mask.shape != (hi - lo,) or mask.dtype != np.bool_:
        raise GameDefinitionError(
            f"{game.info.name}: slots({tier}, {lo}, {hi}) must give {hi - lo} booleans, "
            f"got shape {mask.shape} and dtype {mask.dtype}"
        )
    return lo + np.flatnonzero(mask).astype(np.int64)


def _checked(game: TieredGame, tier: int, ranks: NDArray[np.int64], scored: bool) -> TierMoves:
    moves = game.children(tier, ranks)
    name = f"{game.info.name}: children({tier}, ...)"
    k = len(ranks)
    m = len(moves.rank)
    if moves.indptr.shape != (k + 1,) or len(moves.primitive) != k or len(moves.which) != m:
        raise GameDefinitionError(f"{name} gave arrays of inconsistent lengths for {k} ranks")
    if not moves_fit(moves.primitive, moves.indptr, m):
        _misfit(name, ranks, moves)
    if scored and (moves.gain is None or moves.score is None):
        raise GameDefinitionError(f"{name}: a scored game must give gain and score")
    return moves


def _misfit(name: str, ranks: NDArray[np.int64], moves: TierMoves) -> None:
    """Raise what :func:`~perfectplay.tiers._kernels.moves_fit` found wrong in `moves`."""
    m = len(moves.rank)
    counts = np.diff(moves.indptr)
    if moves.indptr[0] != 0 or moves.indptr[-1] != m or (counts < 0).any():
        raise GameDefinitionError(f"{name} gave an indptr that does not cover its moves")
    if not _PRIMITIVE[moves.primitive].all():
        bad = np.flatnonzero(~_PRIMITIVE[moves.primitive])
        raise GameDefinitionError(
            f"{name}: rank {int(ranks[bad[0]])} has primitive code {int(moves.primitive[bad[0]])}"
            " (expected WIN, LOSE, TIE or UNDECIDED)"
        )
    over_with_moves = (moves.primitive != UNDECIDED) & (counts != 0)
    if over_with_moves.any():
        p = int(ranks[np.flatnonzero(over_with_moves)[0]])
        raise GameDefinitionError(f"{name}: rank {p} is over (primitive) but has moves")


def expand(
    game: TieredGame,
    tier: int,
    ranks: NDArray[np.int64],
    children: Sequence[SolvedTier],
    scored: bool,
) -> Batch:
    """The moves of `ranks` and the values of their children in earlier tiers.

    Cost: one ``children`` call, a pass over its arrays to check them, and one pass over the
    moves grouping them by child tier, then a random read of each move's record in its tier.

    Raises
    ------
    GameDefinitionError
        If the game's arrays are inconsistent, or a child is outside its tier or no position
        there (the message names the rank and the child).
    """
    moves = _checked(game, tier, ranks, scored)
    m = len(moves.rank)
    child_value = np.empty(m, dtype=np.uint8)
    child_rem = np.empty(m, dtype=np.int32)
    child_score = np.empty(m, dtype=np.int64) if scored else None
    order, starts, outside = group_moves(np.asarray(moves.which), len(children))
    if outside >= 0:
        raise GameDefinitionError(
            f"{game.info.name}: children({tier}, ...) names a child tier index outside "
            f"0..{len(children)}: {int(moves.which[outside])}"
        )
    for j, child in enumerate(children, start=1):
        lo, hi = int(starts[j - 1]), int(starts[j])
        bad = lookup(order, lo, hi, moves.rank, child.records, child_value, child_rem)
        if bad >= 0:
            parent = int(ranks[np.searchsorted(moves.indptr, bad, side="right") - 1])
            raise GameDefinitionError(
                f"{game.info.name}: tier {tier} rank {parent} has a move to rank "
                f"{int(moves.rank[bad])} of tier {child.tier}, which is no position there"
            )
        if child_score is not None and child.scores is not None:
            lookup_scores(order, lo, hi, moves.rank, child.scores, child_score)
    return Batch(ranks, moves, child_value, child_rem, child_score)
