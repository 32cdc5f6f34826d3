"""Dodgem as a tiered game: ranks, moves, un-moves and values against the in-memory solver."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from tiered_random import explicit_graph

from perfectplay.api import solve
from perfectplay.errors import InputFormatError, PositionNotFoundError
from perfectplay.games.dodgem.tiers import DodgemTiers
from perfectplay.games.registry import load_game, load_tiered_game
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import UNDECIDED, WIN, Value


def sample(game: DodgemTiers, tier: int, most: int, seed: int = 0) -> np.ndarray:  # type: ignore[type-arg]
    """Every rank of `tier`, or `most` random ones."""
    size = game.tier_size(tier)
    if size <= most:
        return np.arange(size, dtype=np.int64)
    return np.random.default_rng(seed + tier).choice(size, most, replace=False).astype(np.int64)


@pytest.mark.parametrize("size", [2, 3, 4, 6])
def test_ranks_round_trip_through_boards_and_positions(size: int) -> None:
    game = DodgemTiers(size)
    assert sorted(game.tiers()) == list(range(size * size))
    for tier in game.tiers():
        ranks = sample(game, tier, 3000)
        boards, turns = game.unrank(tier, ranks)
        tiers, again = game.rank(boards, turns)
        assert (tiers == tier).all() and (again == ranks).all()
        b, r = divmod(tier, size)
        assert ((boards == 1).sum(axis=1) == b).all() and ((boards == 2).sum(axis=1) == r).all()
        for rank in ranks[:20].tolist():
            position = game.position(tier, rank)
            assert game.locate(position) == (tier, rank)
            code = game.as_game().encode(position)
            assert game.rank_codes([code]) == ([tier], [rank])
    assert game.position(*game.initial()) == game.as_game().initial()


@pytest.mark.parametrize("size", [3, 4])
def test_children_are_the_rules_moves_and_parents_undo_the_inner_ones(size: int) -> None:
    game = DodgemTiers(size)
    rules = game.as_game()
    for tier in game.tiers():
        ranks = sample(game, tier, 1500 if size == 3 else 300)
        moves = game.children(tier, ranks)
        targets = [tier, *game.child_tiers(tier)]
        inner: Counter[tuple[int, int]] = Counter()
        for i, rank in enumerate(ranks.tolist()):
            expected = [game.locate(child) for _, child in rules.moves(game.position(tier, rank))]
            lo, hi = moves.indptr[i], moves.indptr[i + 1]
            got = [
                (targets[w], c) for w, c in zip(moves.which[lo:hi], moves.rank[lo:hi], strict=True)
            ]
            assert got == expected
            assert moves.primitive[i] == (WIN if not expected else UNDECIDED)
            inner.update((rank, c) for t, c in got if t == tier)
        assert game.inner_moves(tier) == (tier != 0)
        assert all(moves.which <= len(game.child_tiers(tier)))
        # Every inner move is undone by parents(), and every parent listed has that move.
        children = sorted({c for _, c in inner})
        indptr, parents = game.parents(tier, np.array(children, dtype=np.int64))
        for i, child in enumerate(children):
            listed = parents[indptr[i] : indptr[i + 1]].tolist()
            assert {p for p, c in inner if c == child} <= set(listed)
            back = game.children(tier, np.array(listed, dtype=np.int64))
            for j in range(len(listed)):
                lo, hi = back.indptr[j], back.indptr[j + 1]
                assert child in back.rank[lo:hi][back.which[lo:hi] == 0].tolist()


@pytest.mark.parametrize(("size", "start"), [(3, Value.WIN), (4, Value.DRAW)])
def test_every_position_matches_the_in_memory_solver(size: int, start: Value) -> None:
    game = load_tiered_game("dodgem", size=size)
    assert isinstance(game, DodgemTiers)
    explicit = explicit_graph(game)
    tiered = explicit.solve()
    solved = solve(load_game("dodgem", size=size))
    tiers, ranks = game.rank_codes(solved.codes)
    ids = np.array([explicit.start[t] for t in range(size * size)])[tiers] + ranks
    assert (tiered.value[ids] == solved.solution.value).all()
    assert (tiered.remoteness[ids] == solved.solution.remoteness).all()
    first = explicit.start[game.initial()[0]] + game.initial()[1]
    assert tiered.value[first] == start == solved.value(solved.initial)
    for position in solved.enumeration.positions[:: max(1, len(solved) // 300)]:
        tier, rank = game.locate(position)
        assert tiered.value[explicit.start[tier] + rank] == solved.value(position)


@pytest.mark.parametrize(
    ("size", "jobs", "chunk_size", "on_disk"),
    [(2, 1, 1, False), (3, 1, 100, False), (3, 2, 7, True), (4, 2, None, False)],
)
def test_the_tier_engine_matches_the_in_memory_solver(
    size: int, jobs: int, chunk_size: int | None, on_disk: bool, tmp_path: Path
) -> None:
    game = load_tiered_game("dodgem", size=size)
    check_tiered_game(game)
    directory = tmp_path / "tiers" if on_disk else None
    db = solve_tiers(game, directory, jobs=jobs, progress=False, chunk_size=chunk_size)
    solved = solve(load_game("dodgem", size=size))
    tiers, ranks = game.rank_codes(solved.codes)
    for tier in game.tiers():
        value, remoteness = db.arrays(tier)
        here = tiers == tier
        assert (value[ranks[here]] == solved.solution.value[here]).all()
        assert (remoteness[ranks[here]] == solved.solution.remoteness[here]).all()
    for position in solved.enumeration.positions[:: max(1, len(solved) // 200)]:
        entry = db.entry(*game.locate(position))
        assert (entry.value, entry.remoteness) == (
            solved.value(position),
            solved.remoteness(position),
        )


def test_errors_name_the_bad_tier_rank_or_board() -> None:
    game = DodgemTiers(3)
    with pytest.raises(PositionNotFoundError, match=r"tiers 0\.\.8, not 9"):
        game.tier_size(9)
    with pytest.raises(PositionNotFoundError, match=r"tier b0r0 .* has ranks 0\.\.1, not 2"):
        game.position(0, 2)
    with pytest.raises(InputFormatError, match="9 cells"):
        game.locate(("B..", "B"))
    with pytest.raises(InputFormatError, match="'B' or 'R'"):
        game.locate(("B........", "X"))
    with pytest.raises(InputFormatError, match="at most 2 cars"):
        game.locate(("BBB......", "B"))
