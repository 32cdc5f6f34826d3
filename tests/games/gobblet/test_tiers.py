"""Gobblet Gobblers' tier form (perfectplay.games.gobblet.tiers) against the rules and the
in-memory solver on reduced variants."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from tier_helpers import check_children_and_parents, engine_values

from perfectplay.api import check_game, solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.gobblet import _tier_kernels as kernels
from perfectplay.games.gobblet.rules import SYMMETRIES, GobbletGobblers, GobbletPosition, swap
from perfectplay.games.gobblet.tiers import TieredGobblet
from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers import analyze_tiers, solve_tiers
from perfectplay.values import DRAW, Value

SHAPES = [(3, 2), (2, 2), (1, 3), (3, 1), (2, 1)]


def images(position: GobbletPosition) -> set[tuple[str, ...]]:
    """The boards the 8 symmetries make of `position`'s board."""
    cells, _ = position
    return {tuple(cells[p] for p in perm) for perm in SYMMETRIES}


@pytest.mark.parametrize(("sizes", "pieces"), [(0, 2), (3, 4), ("3", 2)])
def test_bad_parameters_are_refused(sizes: object, pieces: object) -> None:
    with pytest.raises(GameDefinitionError, match="gobblet-gobblers needs"):
        TieredGobblet(sizes, pieces)  # type: ignore[arg-type]


def test_registered_tiers_sizes_and_labels() -> None:
    game = load_tiered_game("gobblet-gobblers")
    assert isinstance(game, TieredGobblet) and (game.sizes, game.pieces) == (3, 2)
    assert len(game.tiers()) == 378  # unordered pairs of the 27 reserves
    assert game.tier_label(game.tiers()[0]) == "000-000"
    start, _ = game.initial()
    assert game.tier_label(start) == "222-222" and not game.inner_moves(start)
    assert game.tier_size(start) == 1 and game.inner_moves(game.tiers()[0])
    # every piece on the board: 108 orbits of the large layer times 756 x 756 other layers
    assert game.tier_size(game.tiers()[0]) == 108 * 756 * 756
    assert sum(game.tier_size(t) for t in game.tiers()) == 414_105_595
    for tier in game.tiers()[::17]:  # placements lead to other tiers, never back
        for child in game.child_tiers(tier):
            assert child != tier and tier not in game.child_tiers(child)
    with pytest.raises(GameDefinitionError, match="no tier"):
        game.pair(27 * 27)
    with pytest.raises(GameDefinitionError, match="no tier"):
        game.pair(27 * 1 + 0)  # (1, 0): pairs are listed smaller first
    with pytest.raises(InputFormatError, match="gobblet-gobblers position"):
        game.locate(("XO", "X"))
    with pytest.raises(InputFormatError, match="cell a1"):
        game.locate((("Ls",) + ("",) * 8, "X"))


@settings(max_examples=60)
@given(st.data())
def test_rank_round_trips_and_positions_are_canonical(data: st.DataObject) -> None:
    game = TieredGobblet(*data.draw(st.sampled_from(SHAPES)))
    tier = data.draw(st.sampled_from(game.tiers()))
    geo, rows, *_ = game._plan(tier)
    size = game.tier_size(tier)
    ranks = np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=1)), dtype=np.int64)
    t = kernels.tables(game.pieces)
    codes = kernels.boards(ranks, geo, rows, t)
    orientation = (ranks >= geo[0, 6]).astype(np.int64)
    slots = np.array([game.slots(tier, int(r), int(r) + 1)[0] for r in ranks])
    again = kernels.ranks(codes, geo, orientation, t)
    assert np.array_equal(again[slots], ranks[slots])  # a slot is its board's canonical rank
    assert np.all(again <= ranks)  # the canonical image never ranks above
    rules = game.as_game()
    for rank in ranks.tolist()[:5]:
        position = game.position(tier, rank)
        assert game.locate(position) == (tier, int(again[ranks.tolist().index(rank)]))
        assert rules.canonical(position) == rules.canonical(game.position(tier, rank))
        swapped = (swap(position[0]), "O")  # the same position with the colours swapped
        assert game.locate(swapped) == game.locate(position)


@pytest.mark.parametrize(("sizes", "pieces"), [(1, 3), (2, 1), (3, 1)])
def test_slots_and_orbits_cover_every_position_once(sizes: int, pieces: int) -> None:
    """Summed over the slots, the orbit sizes count every board with either side to move:
    GamesmanOne's hash values, the rules' position bound."""
    game = TieredGobblet(sizes, pieces)
    total = 0
    for tier in game.tiers():
        size = game.tier_size(tier)
        slots = game.slots(tier, 0, size)
        pieces_ = [game.slots(tier, lo, min(lo + 97, size)) for lo in range(0, size, 97)]
        assert np.array_equal(np.concatenate(pieces_), slots)
        ranks = np.flatnonzero(slots)
        orbits = game.orbit_sizes(tier, ranks)
        total += int(orbits.sum())
        for rank, orbit in list(zip(ranks.tolist(), orbits.tolist(), strict=True))[::29]:
            assert orbit == 2 * len(images(game.position(tier, rank)))
    assert total == game.as_game().position_bound()


@settings(max_examples=40)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    game = TieredGobblet(*data.draw(st.sampled_from(SHAPES)))
    tier = data.draw(st.sampled_from(game.tiers()))
    start = data.draw(st.integers(0, game.tier_size(tier) - 1))
    check_children_and_parents(game, tier, start, 12)


@pytest.mark.parametrize(("sizes", "pieces", "samples"), [(1, 3, 300), (3, 1, 300), (3, 2, 8)])
def test_the_engine_accepts_the_tiered_game(sizes: int, pieces: int, samples: int) -> None:
    assert check_game(TieredGobblet(sizes, pieces), samples=samples) == []


@pytest.fixture(scope="module", params=[(1, 3), (3, 1)])
def solved_small(
    request: pytest.FixtureRequest,
) -> tuple[TieredGobblet, GameSolution[GobbletPosition]]:
    """A reduced variant solved in memory (enumeration of the rules, retrograde analysis)."""
    sizes, pieces = request.param
    return TieredGobblet(sizes, pieces), solve(GobbletGobblers(sizes, pieces))


def test_engine_equals_the_in_memory_solver(
    solved_small: tuple[TieredGobblet, GameSolution[GobbletPosition]],
) -> None:
    game, solved = solved_small
    db = solve_tiers(game, progress=False, jobs=2)
    values = engine_values(game, solved, db)
    assert values[DRAW] > 0 and len(values) == 3  # draws, wins and losses to compare
    # analyze counts the classes reachable up to board and player symmetry: the positions the
    # in-memory solver enumerates (canonical forms swap colours to X to move), by value
    analysis = analyze_tiers(db, progress=False)
    names = ("WIN", "LOSE", "TIE", "DRAW")
    assert analysis.classes == {name: values[int(Value[name])] for name in names}


def test_command_line_solves_queries_and_analyzes(tmp_path: Path) -> None:
    directory = tmp_path / "g31"
    solved = run_cli(
        ["solve", "gobblet", "--param", "sizes=3", "--param", "pieces=1", "--tiers", str(directory)]
    )
    assert solved.code == 0, solved.err
    assert "start: DRAW" in solved.out
    query = run_cli(["query", str(directory), "L,-,-/-,s,-/-,-,- O"])
    assert query.code == 0 and "value:" in query.out
    analyzed = run_cli(["analyze", str(directory), "--by-tier"])
    assert analyzed.code == 0 and "000-000" in analyzed.out and "111-111" in analyzed.out


def test_ranks_outside_a_tier_are_refused() -> None:
    game = TieredGobblet(3, 1)
    tier = game.tiers()[0]
    size = game.tier_size(tier)
    with pytest.raises(GameDefinitionError, match=rf"rank {size} is outside .* tier 000-000"):
        game.position(tier, size)
    with pytest.raises(GameDefinitionError, match="no tier True"):
        game.pair(True)


def test_no_position_has_more_moves_than_max_moves() -> None:
    game = TieredGobblet(2, 2)
    most = 0
    for tier in game.tiers():
        ranks = np.flatnonzero(game.slots(tier, 0, game.tier_size(tier))).astype(np.int64)
        most = max(most, int(np.diff(game.children(tier, ranks).indptr).max(initial=0)))
    assert 0 < most <= game.max_moves()
