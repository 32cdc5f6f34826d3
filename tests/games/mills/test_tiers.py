"""The Morris tier form (perfectplay.games.mills.tiers) against the rules and the in-memory
solver on reduced games."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from tier_helpers import check_children_and_parents

from perfectplay.api import check_game, solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.mills import _tier_kernels as kernels
from perfectplay.games.mills.rules import Mills, MillsPosition
from perfectplay.games.mills.tiers import TieredMills
from perfectplay.games.registry import load_tiered_game
from perfectplay.graph import GameGraph
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.tiers import solve_tiers
from perfectplay.values import DRAW, WIN

VARIANTS = [("three", 0), ("six", 3), ("nine", 3), ("nine", 4), ("lasker", 4),
            ("morabaraba", 4), ("six", 0), ("nine", 0)]  # fmt: skip


def test_registered_and_bad_parameters_refused() -> None:
    tiered = load_tiered_game("nine-mens-morris")
    assert isinstance(tiered, TieredMills) and tiered.stones == 9
    with pytest.raises(GameDefinitionError, match="no morris variant"):
        TieredMills("ten")


def test_tiers_are_malom_s_subspaces() -> None:
    game = TieredMills()
    assert len(game.tiers()) == 560
    assert sum(game.tier_size(t) for t in game.tiers()) == 428_392_800_980
    start, _ = game.initial()
    assert game.tier_label(start) == "0_0_9_9" and not game.inner_moves(start)
    moving = game.locate(("WWW" + "-" * 18 + "BBB", "B", 0, 0))[0]
    assert game.blocks(moving) == [(3, 3, 0, 0)] and game.inner_moves(moving)
    pair = game.locate(("WWWW" + "-" * 17 + "BBB", "W", 0, 0))[0]
    assert game.blocks(pair) == [(4, 3, 0, 0), (3, 4, 0, 0)]
    assert game.locate(("WWWW" + "-" * 17 + "BBB", "B", 0, 0))[0] == pair
    assert game.tier_size(pair) == 2 * math.comb(24, 4) * math.comb(20, 3)
    last = game.locate(("WW" + "-" * 19 + "BBB", "W", 0, 0))[0]
    assert game.blocks(last) == [(2, 3, 0, 0)] and not game.inner_moves(last)
    assert game.child_tiers(pair) == sorted(
        {game.locate(p)[0] for p in (("WWW" + "-" * 18 + "BBB", "W", 0, 0),
                                    ("WW" + "-" * 18 + "BBBB", "W", 0, 0))}
    )  # fmt: skip
    with pytest.raises(GameDefinitionError, match="has no tier"):
        game.blocks(1)
    with pytest.raises(InputFormatError, match="expected a morris position"):
        game.locate(("WB", "W"))


@settings(max_examples=60)
@given(st.data())
def test_rank_round_trips(data: st.DataObject) -> None:
    game = TieredMills(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    size = game.tier_size(tier)
    ranks = np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=1)), dtype=np.int64)
    for rank in ranks.tolist()[:5]:
        position = game.position(tier, rank)
        assert game.as_game().canonical(position) == game.position(*game.locate(position))
    m, o, _, _ = game.blocks(tier)[0]
    first = ranks[ranks < math.comb(game.points, m) * math.comb(game.points - m, o)]
    t = kernels.tables(game.as_game().board.name, game.as_game().variant.jumps, False)
    xs, ys = kernels.boards(first, m, o, t)
    assert np.all(xs & ys == 0)
    assert [bin(int(x)).count("1") for x in xs] == [m] * len(first)
    assert [bin(int(y)).count("1") for y in ys] == [o] * len(first)
    assert np.array_equal(kernels.ranks(xs, ys, m, o, t, False), first)


@settings(max_examples=40)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    game = TieredMills(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    start = data.draw(st.integers(0, game.tier_size(tier) - 1))
    check_children_and_parents(game, tier, start, 10, inner=game.inner_moves(tier))


def test_slots_and_orbits_count_every_board_once() -> None:
    """Three Men's Morris: the orbits of a subspace's slots add up to its boards."""
    game = TieredMills("three")
    for tier in game.tiers():
        size = game.tier_size(tier)
        slots = game.slots(tier, 0, size)
        pieces = [game.slots(tier, lo, min(lo + 37, size)) for lo in range(0, size, 37)]
        assert np.array_equal(np.concatenate(pieces), slots)
        ranks = np.arange(size, dtype=np.int64)
        for rank in ranks.tolist():
            canonical = game.locate(game.position(tier, rank))
            assert slots[rank] == (canonical == (tier, rank))
        orbits = game.orbit_sizes(tier, np.flatnonzero(slots))
        doubled = sum(2 if k[2] == k[3] == 0 else 1 for k in game.blocks(tier)) / len(
            game.blocks(tier)
        )
        assert orbits.sum() == size * doubled


@pytest.mark.parametrize(
    ("variant", "stones", "samples"), [(v, s, 15 if s == 0 else 60) for v, s in VARIANTS]
)
def test_the_engine_accepts_the_tiered_game(variant: str, stones: int, samples: int) -> None:
    assert check_game(TieredMills(variant, stones), samples=samples) == []


@pytest.fixture(scope="module", params=[("three", 0), ("six", 3)])
def solved_small(request: pytest.FixtureRequest) -> tuple[TieredMills, GameSolution[MillsPosition]]:
    """A reduced game solved in memory (enumeration of the rules, retrograde analysis)."""
    return TieredMills(*request.param), solve(Mills(*request.param))


def test_engine_equals_the_in_memory_solver(
    solved_small: tuple[TieredMills, GameSolution[MillsPosition]],
) -> None:
    game, solved = solved_small
    db = solve_tiers(game, progress=False, jobs=2)
    assert db.entry(*game.initial()).value is solved.value(solved.initial)
    values: Counter[int] = Counter()
    for pid in range(len(solved)):
        position = solved.position_of(pid)
        entry = db.entry(*game.locate(position))
        assert int(entry.value) == solved.solution.value[pid], position
        assert entry.remoteness == solved.solution.remoteness[pid], position
        values[int(entry.value)] += 1
    assert values[DRAW] > 0  # the moving phase has draws to compare


def test_command_line_solves_queries_and_analyzes(tmp_path: Path) -> None:
    directory = tmp_path / "three"
    solved = run_cli(["solve", "morris", "--param", "variant=three", "--tiers", str(directory)])
    assert solved.code == 0, solved.err
    assert "start: DRAW" in solved.out
    query = run_cli(["query", str(directory), "W-B-W-B-- W 1 1"])
    assert query.code == 0 and "value:" in query.out
    analyzed = run_cli(["analyze", str(directory), "--by-tier"])
    assert analyzed.code == 0 and "2_2_1_1" in analyzed.out


def test_no_position_has_more_moves_than_max_moves() -> None:
    for variant, stones in (("three", 0), ("six", 3), ("lasker", 4)):
        game = TieredMills(variant, stones)
        for tier in game.tiers():
            size = min(game.tier_size(tier), 20_000)
            ranks = np.flatnonzero(game.slots(tier, 0, size)).astype(np.int64)
            moves = game.children(tier, ranks)
            assert int(np.diff(moves.indptr).max(initial=0)) <= game.max_moves()


def test_nine_board_with_three_stones_equals_retrograde_analysis_of_its_moves() -> None:
    """Every slot of Nine Men's Morris with 3 stones each: the tier engine against one
    in-memory retrograde analysis of the whole graph the kernels' moves make (the kernels are
    checked against the rules above; the rules' own enumeration is too slow for a test)."""
    game = TieredMills("nine", 3)
    tiers = game.tiers()
    slots = {t: np.flatnonzero(game.slots(t, 0, game.tier_size(t))) for t in tiers}
    base = dict(zip(tiers, np.cumsum([0] + [len(slots[t]) for t in tiers]).tolist(), strict=False))
    src, dst, primitive = [], [], []
    for t in tiers:
        moves = game.children(t, slots[t])
        targets = np.array([t, *game.child_tiers(t)])[moves.which]
        ids = np.empty(len(moves.rank), dtype=np.int64)
        for target in set(targets.tolist()):
            at = targets == target
            found = np.searchsorted(slots[target], moves.rank[at])
            assert np.array_equal(slots[target][found], moves.rank[at])  # children are slots
            ids[at] = base[target] + found
        src.append(base[t] + np.repeat(np.arange(len(slots[t])), np.diff(moves.indptr)))
        dst.append(ids)
        primitive.append(moves.primitive)
    n = base[tiers[-1]] + len(slots[tiers[-1]])
    graph = GameGraph.from_edges(np.concatenate(src), np.concatenate(dst), n)
    expected = solve_retrograde(graph, np.concatenate(primitive))
    db = solve_tiers(game, progress=False, jobs=2)
    for t in tiers:
        values, remoteness = db.arrays(t)
        ids = slice(base[t], base[t] + len(slots[t]))
        assert np.array_equal(values[slots[t]], expected.value[ids]), game.tier_label(t)
        assert np.array_equal(remoteness[slots[t]], expected.remoteness[ids]), game.tier_label(t)
    start = base[game.initial()[0]] + int(
        np.searchsorted(slots[game.initial()[0]], game.initial()[1])
    )
    # White wins: with 3 stones each both sides jump, and White moves first after placing
    assert expected.value[start] == WIN and (expected.value == DRAW).sum() > 0
