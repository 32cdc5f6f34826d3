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
from tier_helpers import check_children_and_parents, engine_values

from perfectplay.api import check_game, solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.mills import _tier_kernels as kernels
from perfectplay.games.mills.board import layout
from perfectplay.games.mills.rules import Mills, MillsPosition
from perfectplay.games.mills.tiers import TieredMills
from perfectplay.games.registry import load_tiered_game
from perfectplay.graph import GameGraph
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.analyze import analyze_tiers
from perfectplay.tiers.records import unpack
from perfectplay.values import DRAW, WIN, Value

VARIANTS = [("three", 0), ("six", 3), ("nine", 3), ("nine", 4), ("lasker", 4),
            ("morabaraba", 4), ("six", 0), ("nine", 0)]  # fmt: skip


def classes(board: str, k: int) -> int:
    """The classes of sets of `k` points of `board` under its symmetries, by Burnside's
    lemma: the mean over the symmetries of the sets each one fixes (unions of its cycles)."""
    perms = layout(board).symmetries
    fixed = 0
    for perm in perms:
        seen, lengths = set(), []
        for d in range(len(perm)):
            length = 0
            while d not in seen:
                seen.add(d)
                d = perm[d]
                length += 1
            if length:
                lengths.append(length)
        ways = [1] + [0] * len(perm)  # ways[j]: unions of the cycles so far of j points
        for length in lengths:
            ways = [ways[j] + (ways[j - length] if j >= length else 0) for j in range(len(ways))]
        fixed += ways[k]
    assert fixed % len(perms) == 0
    return fixed // len(perms)


def permuted(p: int, perm: tuple[int, ...]) -> int:
    return sum(1 << perm[d] for d in range(len(perm)) if p >> d & 1)


def as_position(x: int, y: int, points: int, mf: int, of: int) -> MillsPosition:
    board = "".join("W" if x >> d & 1 else "B" if y >> d & 1 else "-" for d in range(points))
    return board, "W", mf, of


def test_registered_and_bad_parameters_refused() -> None:
    tiered = load_tiered_game("nine-mens-morris")
    assert isinstance(tiered, TieredMills) and tiered.stones == 9
    with pytest.raises(GameDefinitionError, match="no morris variant"):
        TieredMills("ten")


def test_tiers_are_malom_s_subspaces() -> None:
    game = TieredMills()
    assert len(game.tiers()) == 560
    total = sum(
        classes("nine", m) * math.comb(24 - m, o)
        for tier in game.tiers()
        for m, o, _, _ in game.blocks(tier)
    )
    assert sum(game.tier_size(t) for t in game.tiers()) == total == 27_905_760_258
    start, _ = game.initial()
    assert game.tier_label(start) == "0_0_9_9" and not game.inner_moves(start)
    moving = game.locate(("WWW" + "-" * 18 + "BBB", "B", 0, 0))[0]
    assert game.blocks(moving) == [(3, 3, 0, 0)] and game.inner_moves(moving)
    pair = game.locate(("WWWW" + "-" * 17 + "BBB", "W", 0, 0))[0]
    assert game.blocks(pair) == [(4, 3, 0, 0), (3, 4, 0, 0)]
    assert game.locate(("WWWW" + "-" * 17 + "BBB", "B", 0, 0))[0] == pair
    blocks = classes("nine", 4) * math.comb(20, 3) + classes("nine", 3) * math.comb(21, 4)
    assert game.tier_size(pair) == blocks
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
    t = kernels.tables(game.as_game().board.name, game.as_game().variant.jumps, False)
    first = ranks[ranks < (t.starts[m + 1] - t.starts[m]) * math.comb(game.points - m, o)]
    xs, ys = kernels.boards(first, m, o, t)
    assert np.all(xs & ys == 0)
    assert [bin(int(x)).count("1") for x in xs] == [m] * len(first)
    assert [bin(int(y)).count("1") for y in ys] == [o] * len(first)
    assert np.array_equal(kernels.ranks(xs, ys, m, o, t, False), first)


@pytest.mark.parametrize("board", ["nine", "morabaraba", "six", "three"])
def test_the_mover_s_stones_are_ranked_by_symmetry_class(board: str) -> None:
    """Each size of set has as many representatives as Burnside counts classes, each the
    smallest of its images, in increasing order."""
    lay = layout(board)
    t = kernels.tables(board, True, False)
    for k in range(len(lay.points) // 2 + 1):
        reps = t.reps[t.starts[k] : t.starts[k + 1]].tolist()
        assert len(reps) == classes(board, k), k
        assert reps == sorted(reps) and all(bin(x).count("1") == k for x in reps)
        for x in reps[:: max(len(reps) // 200, 1)]:
            assert x == min(permuted(x, perm) for perm in lay.symmetries)


@settings(max_examples=60)
@given(st.data())
def test_symmetric_images_share_one_slot(data: st.DataObject) -> None:
    """Every image of a position under the board's symmetries is located at the same rank,
    a slot, whose position is the canonical form."""
    game = TieredMills(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    m, o, mf, of = data.draw(st.sampled_from(game.blocks(tier)))
    points = data.draw(st.permutations(range(game.points)))
    x = sum(1 << d for d in points[:m])
    y = sum(1 << d for d in points[m : m + o])
    position = as_position(x, y, game.points, mf, of)
    where = game.locate(position)
    assert where[0] == tier and game.slots(tier, where[1], where[1] + 1)[0]
    assert game.position(*where) == game.as_game().canonical(position)
    for perm in game.as_game().board.symmetries:
        image = as_position(permuted(x, perm), permuted(y, perm), game.points, mf, of)
        assert game.locate(image) == where


@settings(max_examples=60)
@given(st.data())
def test_ranks_are_boards_of_representatives_and_slots_are_classes(data: st.DataObject) -> None:
    """Every rank is a board whose mover's stones are a class representative; a slot is its
    own canonical form (one rank per class); any other rank is a symmetric image, fixing the
    mover's stones, of a smaller slot."""
    game = TieredMills(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    rank = data.draw(st.integers(0, game.tier_size(tier) - 1))
    position = game.position(tier, rank)
    board = position[0]
    x = sum(1 << d for d, c in enumerate(board) if c == "W")
    perms = game.as_game().board.symmetries
    assert x == min(permuted(x, perm) for perm in perms)
    found = game.locate(position)
    if game.slots(tier, rank, rank + 1)[0]:
        assert found == (tier, rank)
    else:
        assert found[0] == tier and found[1] < rank
        assert game.position(*found)[0].replace("B", "-") == board.replace("B", "-")


@settings(max_examples=40)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    game = TieredMills(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    start = data.draw(st.integers(0, game.tier_size(tier) - 1))
    check_children_and_parents(game, tier, start, 10, inner=game.inner_moves(tier))


def test_slots_and_orbits_count_every_board_once() -> None:
    """Three Men's Morris: every rank is a slot exactly where it is its position's canonical
    form, and the orbits of a subspace's slots add up to its boards (every board is in the
    class of one slot)."""
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
        boards = sum(math.comb(9, m) * math.comb(9 - m, o) for m, o, _, _ in game.blocks(tier))
        assert orbits.sum() == boards * doubled


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
    values = engine_values(game, solved)
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
    for variant in ("nine", "lasker", "morabaraba", "six", "three"):
        for stones in range(3, min(12, Mills(variant).points // 2) + 1):
            # the children kernel's room for one position's children
            assert TieredMills(variant, stones).max_moves() <= kernels._ROOM
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


def test_analyze_counts_by_subspace_equal_the_in_memory_enumeration(
    solved_small: tuple[TieredMills, GameSolution[MillsPosition]],
) -> None:
    """``analyze --by-tier`` reports Malom's subspaces: each tier's reachable classes by
    value are those the in-memory solver enumerates there (its classes located in the
    tiers)."""
    game, solved = solved_small
    expected: dict[str, Counter[str]] = {}
    values = solved.solution.value.tolist()
    for i, position in enumerate(solved.enumeration.positions):
        tier, rank = game.locate(position)
        parts = game.tier_parts(tier) or [(game.tier_label(tier), 0)]
        label = [name for name, first in parts if first <= rank][-1]
        expected.setdefault(label, Counter())[Value(values[i]).name] += 1
    analysis = analyze_tiers(solve_tiers(game, progress=False), progress=False)
    counted = {t.label: {k: v for k, v in t.classes.items() if v} for t in analysis.tiers}
    assert {k: v for k, v in counted.items() if v} == expected


def test_analyze_splits_a_two_subspace_tier_at_its_second_subspace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the six board with 4 stones (a moving tier of two subspaces), each part counts the
    reachable ranks of its subspace: a breadth-first walk of the kernels' moves kept in sets,
    counted by the records, equals the parts; without parts, each tier's counts are their
    sum."""
    game = TieredMills("six", 4)
    db = solve_tiers(game, progress=False)
    reached: dict[int, set[int]] = {t: set() for t in game.tiers()}
    for tier, rank in game.starts():
        reached[tier].add(rank)
    for tier in reversed(db.order):
        targets = [tier, *game.child_tiers(tier)]
        frontier = sorted(reached[tier])
        while frontier:
            moves = game.children(tier, np.array(frontier, dtype=np.int64))
            new = set()
            for j, child in zip(moves.which.tolist(), moves.rank.tolist(), strict=True):
                if j == 0 and child not in reached[tier]:
                    new.add(child)
                reached[targets[j]].add(child)
            frontier = sorted(new)
    expected: dict[str, Counter[str]] = {}
    for tier, ranks in reached.items():
        parts = game.tier_parts(tier) or [(game.tier_label(tier), 0)]
        values, _ = unpack(db.records(tier)[sorted(ranks)])
        for rank, value in zip(sorted(ranks), values.tolist(), strict=True):
            label = [name for name, first in parts if first <= rank][-1]
            expected.setdefault(label, Counter())[Value(value).name] += 1
    split = analyze_tiers(db, progress=False)
    assert sum(1 for t in game.tiers() if game.tier_parts(t)) == 1
    counted = {t.label: {k: v for k, v in t.classes.items() if v} for t in split.tiers}
    assert {k: v for k, v in counted.items() if v} == expected
    monkeypatch.setattr(TieredMills, "tier_parts", lambda self, tier: None)
    whole = analyze_tiers(db, progress=False)
    assert whole.classes == split.classes and whole.positions == split.positions
    assert whole.remoteness == split.remoteness
    sums: dict[int, Counter[str]] = {}
    for t in split.tiers:
        sums.setdefault(t.tier, Counter()).update(t.positions)
    for t in whole.tiers:
        assert {k: v for k, v in t.positions.items() if v} == {
            k: v for k, v in sums[t.tier].items() if v
        }
