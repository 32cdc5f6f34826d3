"""``check_tiered_game``: the registered tiered games pass; deliberately broken ones are caught
with a message naming what disagrees."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.games.connect_four.tiers import TieredConnectFour
from perfectplay.games.dodgem.tiers import DodgemTiers
from perfectplay.games.registry import game_entry, game_names, load_tiered_game
from perfectplay.tiers import TierMoves
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import LOSE, UNDECIDED, WIN

Ids = NDArray[np.int64]

SMALL = {
    name: {**game_entry(name).small, **({"size": 4} if name == "teeko" else {})}
    for name in game_names()
    if game_entry(name).tiers is not None
}  # each registered tiered game's small instance; Teeko's on 4x4, whose tiers are richer


@pytest.mark.parametrize("name", sorted(SMALL))
def test_registered_tiered_games_pass(name: str) -> None:
    check_tiered_game(load_tiered_game(name, **SMALL[name]), samples=60, seed=1)


# ---------------------------------------------------------------------- broken acyclic games


class ShiftedLocate(TieredConnectFour):
    """locate() one rank off past the start: rank and unrank disagree."""

    def locate(self, position: Any) -> tuple[int, int]:
        tier, rank = super().locate(position)
        return tier, rank + (tier > 0)


class WrongChildTier(TieredConnectFour):
    """Declares a second child tier and sends the moves of odd ranks there."""

    def child_tiers(self, tier: int) -> list[int]:
        return [
            *super().child_tiers(tier),
            *([tier + 2] if tier + 2 <= self.rows * self.cols else []),
        ]

    def children(self, tier: int, ranks: Ids) -> TierMoves:
        moves = super().children(tier, ranks)
        if len(self.child_tiers(tier)) < 2:
            return moves
        odd = np.repeat(ranks % 2 == 1, np.diff(moves.indptr))
        return moves._replace(which=np.where(odd, 2, moves.which).astype(np.int8))


class FlippedPrimitive(TieredConnectFour):
    """Calls the positions the rules end in a LOSE for the player to move a WIN."""

    def children(self, tier: int, ranks: Ids) -> TierMoves:
        moves = super().children(tier, ranks)
        return moves._replace(primitive=np.where(moves.primitive == LOSE, WIN, moves.primitive))


class OverWithoutRule(TieredConnectFour):
    """Says play goes on (and no move is left) where the rules end the game."""

    def children(self, tier: int, ranks: Ids) -> TierMoves:
        moves = super().children(tier, ranks)
        return moves._replace(primitive=np.full(len(ranks), UNDECIDED, dtype=np.uint8))


class ZeroOrbits(TieredConnectFour):
    def orbit_sizes(self, tier: int, ranks: Ids) -> Ids:
        return np.zeros(len(ranks), dtype=np.int64)


class MovedStart(TieredConnectFour):
    def initial(self) -> tuple[int, int]:
        return (1, 0)


class TierCycle(TieredConnectFour):
    def child_tiers(self, tier: int) -> list[int]:
        return [*super().child_tiers(tier), *([tier - 1] if tier == 3 else [])]


# ---------------------------------------------------------------------- broken loopy games


class MissingParent(DodgemTiers):
    """Un-moves that forget the first parent of every rank."""

    def parents(self, tier: int, ranks: Ids) -> tuple[Ids, Ids]:
        indptr, parents = super().parents(tier, ranks)
        keep = np.ones(len(parents), dtype=np.bool_)
        keep[indptr[:-1][np.diff(indptr) > 0]] = False
        counts = np.diff(indptr) - (np.diff(indptr) > 0)
        out = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum(counts, out=out[1:])
        return out, parents[keep]


class ExtraParent(DodgemTiers):
    """Un-moves that add, to every rank, a slot that has no move to it (the rank itself)."""

    def parents(self, tier: int, ranks: Ids) -> tuple[Ids, Ids]:
        indptr, parents = super().parents(tier, ranks)
        ends = zip(indptr[:-1], indptr[1:], ranks, strict=True)
        lists = [[*parents[a:b].tolist(), int(r)] for a, b, r in ends]
        out = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=out[1:])
        return out, np.array([q for x in lists for q in x], dtype=np.int64)


class NoInnerMoves(DodgemTiers):
    """Declares tiers without inner moves although cars move inside them."""

    def inner_moves(self, tier: int) -> bool:
        return False


@pytest.mark.parametrize(
    ("broken", "why"),
    [
        (MissingParent, "whose parents do not list it"),
        (ExtraParent, "which has no move to it"),
        (NoInnerMoves, r"a move to tier \d+ is not allowed"),
    ],
)
def test_broken_dodgem_is_caught(broken: type[DodgemTiers], why: str) -> None:
    with pytest.raises(GameDefinitionError, match=why):
        check_tiered_game(broken(3), samples=60)


# ---------------------------------------------------------------------- broken parts


class PartsNotFromZero(TieredConnectFour):
    """Parts whose first starts past rank 0."""

    def tier_parts(self, tier: int) -> list[tuple[str, int]] | None:
        return [("a", 1)] if self.tier_size(tier) > 1 else None


class PartsDecreasing(TieredConnectFour):
    """Parts whose first ranks go down."""

    def tier_parts(self, tier: int) -> list[tuple[str, int]] | None:
        size = self.tier_size(tier)
        return [("a", 0), ("b", size - 1), ("c", 1)] if size > 2 else None


class PartsPastTheTier(TieredConnectFour):
    """A part starting at the tier's size."""

    def tier_parts(self, tier: int) -> list[tuple[str, int]] | None:
        return [("a", 0), ("b", self.tier_size(tier))]


class PartsSameLabel(TieredConnectFour):
    """Two parts under one label."""

    def tier_parts(self, tier: int) -> list[tuple[str, int]] | None:
        return [("a", 0), ("a", 1)] if self.tier_size(tier) > 1 else None


@pytest.mark.parametrize(
    ("broken", "why"),
    [
        (ShiftedLocate, r"locate\(position\(t, r\)\) gives"),
        (WrongChildTier, r"tier \d+ rank \d+: children .* but the rules' moves lead to"),
        (FlippedPrimitive, "primitive WIN, but the rules say LOSE"),
        (OverWithoutRule, "primitive UNDECIDED, but the rules say"),
        (ZeroOrbits, "orbit size below 1"),
        (MovedStart, r"the start \(1, 0\)|initial\(\) is \(1, 0\)"),
        (TierCycle, "tier cycle"),
        (PartsNotFromZero, r"parts must start at rank 0 .* not \[1\]"),
        (PartsDecreasing, "parts must start at rank 0 and increase"),
        (PartsPastTheTier, r"within its \d+ ranks"),
        (PartsSameLabel, "parts repeat a label"),
    ],
)
def test_broken_connect_four_is_caught(broken: type[TieredConnectFour], why: str) -> None:
    with pytest.raises(GameDefinitionError, match=why):
        check_tiered_game(broken(3, 4), samples=60)
