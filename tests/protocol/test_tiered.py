"""The tiered-game protocol (perfectplay.protocol.tiered): defaults, missing methods, an example."""

from __future__ import annotations

import numpy as np
import pytest
from brute import brute_subtraction
from hypothesis import given
from hypothesis import strategies as st
from tier_workers import solve_by_workers

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.tiers.records import unpack
from perfectplay.values import LOSE, UNDECIDED, WIN


class Bare(TieredGame):
    """Nothing defined but its info."""

    info = GameInfo("bare", {"n": 2, "name": "x"}, cyclic=True)


class Heap(TieredGame):
    """Take 1 or 2 from a heap of `n`, one tier per heap size (the module's example)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.info = GameInfo("heap", {"n": n})

    def tiers(self) -> list[int]:
        return list(range(self.n + 1))

    def child_tiers(self, tier: int) -> list[int]:
        return [h for h in (tier - 1, tier - 2) if h >= 0]

    def tier_size(self, tier: int) -> int:
        return 1

    def children(self, tier: int, ranks: np.ndarray) -> TierMoves:
        k = len(self.child_tiers(tier))
        return TierMoves(
            primitive=np.full(len(ranks), UNDECIDED, dtype=np.uint8),
            indptr=np.arange(len(ranks) + 1, dtype=np.int64) * k,
            which=np.tile(np.arange(1, k + 1, dtype=np.int8), len(ranks)),
            rank=np.zeros(len(ranks) * k, dtype=np.int64),
        )


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda g: g.tiers(), r"tiers\(\)"),
        (lambda g: g.child_tiers(0), r"child_tiers\(tier\)"),
        (lambda g: g.tier_size(0), r"tier_size\(tier\)"),
        (lambda g: g.children(0, np.zeros(1, np.int64)), r"children\(tier, ranks\)"),
        (lambda g: g.initial(), r"initial\(\)"),
        (lambda g: g.position(0, 0), r"position\(tier, rank\)"),
        (lambda g: g.locate(None), r"locate\(position\)"),
        (lambda g: g.as_game(), r"as_game\(\)"),
    ],
)
def test_a_missing_required_method_names_the_class_and_the_method(call: object, name: str) -> None:
    with pytest.raises(GameDefinitionError, match=rf"^Bare must define {name}$"):
        call(Bare())  # type: ignore[operator]


def test_loopy_tiers_without_parents_are_refused_naming_the_tier() -> None:
    with pytest.raises(GameDefinitionError, match="moves inside tier 4 but no parents"):
        Bare().parents(4, np.zeros(1, np.int64))


def test_the_optional_extras_default_to_what_the_protocol_promises() -> None:
    game = Bare()
    assert game.inner_moves(3) is True  # info.cyclic
    assert Heap(2).inner_moves(3) is False
    assert game.slots(0, 5, 9) is None
    sizes = game.orbit_sizes(0, np.array([4, 7, 9], np.int64))
    assert sizes.tolist() == [1, 1, 1] and sizes.dtype == np.int64
    assert game.tier_label(-12) == "-12"
    assert game.max_moves() is None


def test_repr_names_the_class_the_game_and_its_parameters() -> None:
    assert repr(Bare()) == "<Bare bare n=2, name='x'>"
    assert repr(Heap(0)).startswith("<Heap heap n=0>")
    assert repr(TieredGame()) == "<TieredGame tiered-game>"


@given(st.integers(0, 40))
def test_the_example_heap_solves_as_the_brute_force_subtraction_game(n: int) -> None:
    solved = solve_by_workers(Heap(n))
    wins = brute_subtraction(n, (1, 2))
    for h in range(n + 1):
        value, rem = unpack(solved[h].records)
        assert int(value[0]) == (WIN if wins[h] else LOSE)
        # The winner restores a multiple of 3 each turn: two moves per 3 tokens, one more to win.
        assert int(rem[0]) == 2 * (h // 3) + (h % 3 != 0)
