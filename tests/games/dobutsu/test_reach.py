"""The reach counts (perfectplay.games.dobutsu.reach) against walks of the pure-Python rules
and against ``analyze`` of the solved tiers."""

from __future__ import annotations

from collections import deque

import pytest

from perfectplay.games.dobutsu.reach import KINDS, Reach, reach_counts
from perfectplay.games.dobutsu.rules import COLS, ROWS, DobutsuPosition, DobutsuShogi, mirror
from perfectplay.games.dobutsu.tiers import TieredDobutsu
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.analyze import analyze_tiers

REDUCED = [(0, 0, 2), (1, 0, 1), (0, 1, 1), (1, 1, 0)]


def _kind(rules: DobutsuShogi, position: DobutsuPosition) -> str:
    board = position[0]
    if "L" not in board:
        return "caught"
    lion = board.index("l")  # Forest to move (canonical): the opposing lion is Sky's
    if rules.attacks(position, lion):
        return "catch"
    return "try" if lion // COLS == ROWS - 1 else "play"


def _walk(rules: DobutsuShogi, play_catches: bool) -> Reach:
    """Breadth first over the rules' canonical positions (Forest to move, mirror images once);
    positions after a lion is caught counted by their board alone (the tier form ranks no
    hands there: who holds what no longer matters)."""
    start = rules.canonical(rules.initial())
    seen, queue, out = {start}, deque([start]), Reach()
    boards_caught = set()
    while queue:
        position = queue.popleft()
        kind = _kind(rules, position)
        if kind == "caught":
            if position[0] in boards_caught:
                continue
            boards_caught.add(position[0])
        out.classes[kind] += 1
        out.positions[kind] += 1 if mirror(position[0]) == position[0] else 2
        if kind == "play" or (kind == "catch" and play_catches):
            for _, child in rules.moves(position):
                child = rules.canonical(child)
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
    return out


@pytest.mark.parametrize("pieces", REDUCED)
def test_counts_equal_walks_of_the_rules(pieces: tuple[int, int, int]) -> None:
    rules = DobutsuShogi(*pieces)
    tanaka, every = reach_counts(TieredDobutsu(*pieces), jobs=2)
    assert tanaka == _walk(rules, play_catches=False)
    assert every == _walk(rules, play_catches=True)
    assert tanaka.classes["caught"] == 0 and every.classes["caught"] > 0
    for k in KINDS:
        assert every.classes[k] >= tanaka.classes[k]


def test_every_move_played_is_what_analyze_counts() -> None:
    game = TieredDobutsu(0, 0, 2)
    analysis = analyze_tiers(solve_tiers(game, progress=False, jobs=1), progress=False, jobs=1)
    _, every = reach_counts(game, jobs=1)
    assert sum(every.classes.values()) == sum(analysis.classes.values())
    assert sum(every.positions.values()) == sum(analysis.positions.values())
