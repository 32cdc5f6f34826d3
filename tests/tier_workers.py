"""The tier workers driven by hand, tier by tier, without the engine (for the workers' tests).

:func:`solve_by_workers` solves every tier of a tiered game in :func:`tier_order`: a tier with
inner moves by :func:`~perfectplay.tiers.loopy.solve_loopy`, any other by
:func:`~perfectplay.tiers.acyclic.solve_range` over the given chunks of ranks. No files, no
threads of the engine's, no resumption: what remains is the workers themselves.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.tiers.acyclic import solve_range
from perfectplay.tiers.expand import SolvedTier
from perfectplay.tiers.loopy import solve_loopy
from perfectplay.tiers.plan import tier_order
from perfectplay.values import UNDECIDED, Value


def solve_by_workers(
    game: TieredGame, chunk: int = 1 << 20, jobs: int = 1
) -> dict[int, SolvedTier]:
    """Every tier of `game` solved by the workers; acyclic tiers in chunks of `chunk` ranks."""
    scored = game.info.scored
    solved: dict[int, SolvedTier] = {}
    for tier in tier_order(game):
        children = [solved[int(c)] for c in game.child_tiers(tier)]
        size = game.tier_size(tier)
        if game.inner_moves(tier):
            records, _ = solve_loopy(game, tier, children, jobs=jobs)
            solved[tier] = SolvedTier(tier, records, None)
            continue
        parts = [
            solve_range(game, tier, lo, min(lo + chunk, size), children, dtype=np.uint32,
                        scored=scored)
            for lo in range(0, size, chunk)
        ]  # fmt: skip
        records = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.uint32)
        scores = None
        if scored:
            scores = np.concatenate(
                [p[2] for p in parts if p[2] is not None] or [np.zeros(0, np.int64)]
            )
        solved[tier] = SolvedTier(tier, records, scores)
    return solved


@st.composite
def tier_ranges(draw: st.DrawFn, game: TieredGame) -> tuple[int, int, int]:
    """A tier of `game` and a range ``lo..hi-1`` of its ranks (maybe empty, maybe all)."""
    tier = draw(st.sampled_from(list(game.tiers())))
    size = game.tier_size(tier)
    lo = draw(st.integers(0, size))
    return tier, lo, draw(st.integers(lo, size))


Entry = Value | list[tuple[int, int, int]]
"""One rank of a :class:`ListedGame`: over with this value, or its moves ``(which, rank, gain)``."""


class ListedGame(TieredGame):
    """A tiny tiered game written out rank by rank, to feed the workers exact (or broken) input.

    ``ranks[t][r]`` is rank ``r`` of tier ``t``; ``children_of[t]`` its child tiers; ``score``
    (scored games) the score of each rank where it is over; ``tamper`` rewrites every
    :class:`TierMoves` before the worker sees it (to test how a worker meets a broken game).
    """

    def __init__(
        self,
        ranks: dict[int, list[Entry]],
        children_of: dict[int, list[int]],
        *,
        scored: bool = False,
        score: dict[int, list[int]] | None = None,
        inner: bool = False,
        tamper: Callable[[TierMoves], TierMoves] | None = None,
    ) -> None:
        self.ranks = ranks
        self.children_of = children_of
        self.score = score or {}
        self.inner = inner
        self.tamper = tamper
        self.info = GameInfo("listed", scored=scored, cyclic=inner)

    def tiers(self) -> list[int]:
        return list(self.ranks)

    def child_tiers(self, tier: int) -> list[int]:
        return self.children_of[tier]

    def tier_size(self, tier: int) -> int:
        return len(self.ranks[tier])

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        entries = [self.ranks[tier][int(r)] for r in ranks]
        moves = [e if isinstance(e, list) else [] for e in entries]
        indptr = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum([len(m) for m in moves], out=indptr[1:])
        flat = [m for ms in moves for m in ms]
        scores = self.score.get(tier, [0] * self.tier_size(tier))
        result = TierMoves(
            primitive=np.array(
                [e if isinstance(e, Value) else UNDECIDED for e in entries], dtype=np.uint8
            ),
            indptr=indptr,
            which=np.array([m[0] for m in flat], dtype=np.int8),
            rank=np.array([m[1] for m in flat], dtype=np.int64),
            gain=np.array([m[2] for m in flat], dtype=np.int64) if self.info.scored else None,
            score=np.array([scores[int(r)] for r in ranks], dtype=np.int64)
            if self.info.scored
            else None,
        )
        return result if self.tamper is None else self.tamper(result)

    def inner_moves(self, tier: int) -> bool:
        return self.inner

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        lists = [
            [
                q
                for q, e in enumerate(self.ranks[tier])
                if isinstance(e, list) and any(m[0] == 0 and m[1] == r for m in e)
            ]
            for r in ranks.tolist()
        ]
        indptr = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=indptr[1:])
        return indptr, np.array([q for x in lists for q in x], dtype=np.int64)
