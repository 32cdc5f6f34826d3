"""Checks shared by the games' tier-form tests: the tier engine against the in-memory solver."""

from __future__ import annotations

from collections import Counter
from typing import Any

from perfectplay.enumeration.solving import GameSolution
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers import solve_tiers


def engine_values(game: TieredGame, solved: GameSolution[Any]) -> Counter[int]:
    """Solve `game` with the tier engine (in memory, 2 threads) and assert that every position
    of `solved` (the same game solved in memory) has the same value and remoteness there;
    return the positions counted by value."""
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
