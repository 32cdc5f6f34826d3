"""Checks shared by the games' tier-form tests: the tier engine against the in-memory solver."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from perfectplay.enumeration.solving import GameSolution
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.database import TierDatabase
from perfectplay.values import UNDECIDED


def engine_values(
    game: TieredGame, solved: GameSolution[Any], db: TierDatabase | None = None
) -> Counter[int]:
    """Solve `game` with the tier engine (in memory, 2 threads), unless its database `db` is
    given, and assert that every position of `solved` (the same game solved in memory) has the
    same value and remoteness there; return the positions counted by value."""
    if db is None:
        db = solve_tiers(game, progress=False, jobs=2)
    assert db.entry(*game.initial()).value is solved.value(solved.initial)
    values: Counter[int] = Counter()
    for pid in range(len(solved)):
        position = solved.position_of(pid)
        entry = db.entry(*game.locate(position))
        assert int(entry.value) == solved.solution.value[pid], position
        assert entry.remoteness == solved.solution.remoteness[pid], position
        values[int(entry.value)] += 1
    return values


def check_children_and_parents(
    game: Any, tier: int, start: int, count: int, *, inner: bool = True
) -> None:
    """Check up to `count` slots of `tier` from rank `start` against the game's rules
    (``game.as_game()``): each one's primitive value and its children, as ``(tier, rank)``, are
    the rules'; where the tier has moves inside it (`inner`), each child inside the tier lists
    the slot among its parents, and each parent listed for the slot is a slot with a move to it."""
    rules = game.as_game()
    size = game.tier_size(tier)
    ranks = (np.flatnonzero(game.slots(tier, start, min(start + 400, size))) + start)[:count]
    moves = game.children(tier, ranks)
    targets = [tier, *game.child_tiers(tier)]
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(tier, rank)
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else int(outcome))
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        pairs = list(zip(moves.which[lo:hi].tolist(), moves.rank[lo:hi].tolist(), strict=True))
        got = Counter((targets[w], r) for w, r in pairs)
        assert got == Counter(game.locate(child) for _, child in rules.moves(position))
        if not inner:
            continue
        for child in {r for w, r in pairs if w == 0}:  # the slot is a parent of each child
            assert rank in game.parents(tier, np.array([child]))[1].tolist()
        _, listed = game.parents(tier, np.array([rank]))
        for parent in set(listed.tolist()):  # and each parent listed has a move to the slot
            assert game.slots(tier, parent, parent + 1)[0]
            assert rank in game.children(tier, np.array([parent])).rank.tolist()
