"""Connect Four tiered by column heights: ranks, slots, moves and values against the rules, the
in-memory solver and the tiers by stone count."""

from __future__ import annotations

import heapq
import itertools
import signal
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import numpy as np
import pytest
from connect_four_boards import four
from hypothesis import given, settings
from hypothesis import strategies as st
from tier_dirs import tree

from perfectplay.api import solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.connect_four.heights import HeightTieredConnectFour
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.connect_four.tiers import TieredConnectFour, tiered_form
from perfectplay.games.registry import entry_for_target, load_tiered_game
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.analyze import analyze_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import LOSE, TIE, UNDECIDED, Value


def colourings(heights: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Every board with these column heights, X holding ``(n + 1) // 2``, in rank order: the
    cells X holds, read as a binary number (cell 0 the lowest bit), increasing."""
    n = sum(heights)
    boards = []
    for cells in itertools.combinations(range(n), (n + 1) // 2):
        stones = ["O"] * n
        for cell in cells:
            stones[cell] = "X"
        out, at = [], 0
        for h in heights:
            out.append("".join(stones[at : at + h]))
            at += h
        boards.append((sum(1 << c for c in cells), tuple(out)))
    return [board for _, board in sorted(boards)]


def is_slot(rows: int, board: tuple[str, ...], symmetric: bool, rank: int, image: int) -> bool:
    """The slot rule of the module docstring, on strings."""
    k = sum(map(len, board))
    mover, last = ("X", "O") if k % 2 == 0 else ("O", "X")
    if symmetric and image < rank:
        return False
    if four(board, rows, mover):
        return False
    return k == 0 or any(
        column.endswith(last) and not four((*board[:c], column[:-1], *board[c + 1 :]), rows, last)
        for c, column in enumerate(board)
    )


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 3), (3, 2), (3, 4), (4, 3)])
def test_ranks_slots_and_positions_by_brute_force(rows: int, cols: int) -> None:
    game = HeightTieredConnectFour(rows, cols)
    vectors = [h for h in itertools.product(range(rows + 1), repeat=cols) if h <= h[::-1]]
    assert len(game.tiers()) == len(vectors)
    for tier in game.tiers():
        heights = tuple(int(h) for h in game.tier_label(tier).split("-"))
        boards = colourings(heights)
        assert game.tier_size(tier) == len(boards) == comb(sum(heights), (sum(heights) + 1) // 2)
        slots = game.slots(tier, 0, len(boards)).tolist()
        index = {board: r for r, board in enumerate(boards)}
        for rank, board in enumerate(boards):
            assert game.position(tier, rank) == board
            image = index.get(board[::-1], rank)
            assert slots[rank] == is_slot(rows, board, heights == heights[::-1], rank, image)
            assert game.locate(board) == (tier, min(rank, image))
            assert game.locate(board[::-1]) == (tier, min(rank, image))


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4), (5, 5), (6, 6)])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_children_are_the_rules_moves(rows: int, cols: int, data: st.DataObject) -> None:
    game = HeightTieredConnectFour(rows, cols)
    rules = ConnectFour(rows, cols)
    tier = data.draw(st.sampled_from(game.tiers()))
    size = game.tier_size(tier)
    start = data.draw(st.integers(0, size - 1))
    ranks = start + np.flatnonzero(game.slots(tier, start, min(size, start + 4096)))
    if not ranks.size:
        return
    picked = np.unique(data.draw(st.lists(st.sampled_from(ranks.tolist()), min_size=1)))
    moves = game.children(tier, picked)
    children = game.child_tiers(tier)
    for i, rank in enumerate(picked.tolist()):
        board = game.position(tier, rank)
        outcome = rules.outcome(board)
        expected = [] if outcome is not None else [game.locate(p) for _, p in rules.moves(board)]
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        got = [
            (children[w - 1], r) for w, r in zip(moves.which[lo:hi], moves.rank[lo:hi], strict=True)
        ]
        assert got == expected
        if outcome is not None:
            assert moves.primitive[i] == outcome
        sparse = game.children(tier, np.array([rank]))  # alone: unranked afresh
        assert sparse.rank.tolist() == moves.rank[lo:hi].tolist()


def height_ranks(game: HeightTieredConnectFour, codes: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(tiers, ranks)`` of ConnectFour's codes ``(mask << S) | current``, computed apart from
    the kernels: heights, mirror image, colex rank cell by cell."""
    rows, cols = game.rows, game.cols
    height, shift = rows + 1, (rows + 1) * cols
    mask, current = codes >> shift, codes & ((1 << shift) - 1)
    heights = np.stack(
        [
            np.log2(((mask >> (c * height)) & ((1 << height) - 1)) + 1).astype(np.int64)
            for c in range(cols)
        ],
        axis=1,
    )
    stones = heights.sum(axis=1)
    xs = np.where(stones % 2 == 0, current, mask ^ current)

    def rank_of(xs: np.ndarray, heights: np.ndarray) -> np.ndarray:
        rank = np.zeros(len(xs), dtype=np.int64)
        seen = np.zeros(len(xs), dtype=np.int64)
        cell = np.zeros(len(xs), dtype=np.int64)
        for c in range(cols):
            for r in range(rows):
                inside = heights[:, c] > r
                x = inside & ((xs >> (c * height + r)) & 1 == 1)
                seen += x
                binom = np.array(
                    [comb(int(a), int(b)) for a, b in zip(cell, seen, strict=True)], dtype=np.int64
                )
                rank += np.where(x, binom, 0)
                cell += inside
        return rank

    def mirrored(xs: np.ndarray) -> np.ndarray:
        column = (1 << height) - 1
        out = np.zeros_like(xs)
        for c in range(cols):
            out |= ((xs >> (c * height)) & column) << ((cols - 1 - c) * height)
        return out

    flip = np.zeros(len(codes), dtype=bool)
    decided = np.zeros(len(codes), dtype=bool)
    for c in range(cols):  # the heights above their mirror image, first difference decides
        a, b = heights[:, c], heights[:, cols - 1 - c]
        flip |= ~decided & (a > b)
        decided |= a != b
    symmetric = ~decided
    own = rank_of(xs, heights)
    image = rank_of(mirrored(xs), heights[:, ::-1])
    ranks = np.where(flip, image, np.where(symmetric, np.minimum(own, image), own))
    canonical = np.where(flip[:, None], heights[:, ::-1], heights)
    tiers = (canonical * (rows + 1) ** np.arange(cols)).sum(axis=1)
    return tiers, ranks


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4)])
def test_locate_bitboards_are_the_brute_force_ranks(rows: int, cols: int) -> None:
    game = HeightTieredConnectFour(rows, cols)
    memory = solve(ConnectFour(rows, cols))
    shift = (rows + 1) * cols
    mask, current = memory.codes >> shift, memory.codes & ((1 << shift) - 1)
    stones = np.bitwise_count(mask)
    xs = np.where(stones % 2 == 0, current, mask ^ current)  # `current`: the player to move
    tiers, ranks = game.locate_bitboards(xs, mask ^ xs)
    expected = height_ranks(game, memory.codes)
    assert tiers.tolist() == expected[0].tolist() and ranks.tolist() == expected[1].tolist()
    for i in np.random.default_rng(2).choice(tiers.size, 200).tolist():
        assert game.locate(memory.position_of(i)) == (tiers[i], ranks[i])


def test_locate_bitboards_refuses_what_is_no_board() -> None:
    game = HeightTieredConnectFour(4, 4)
    tiers, ranks = game.locate_bitboards(np.array([1]), np.array([1 << 5]))  # X a1, O b1
    assert game.position(int(tiers[0]), int(ranks[0])) == ("", "", "O", "X")  # its mirror
    for xs, os in (
        ([0b1], [0b1]),  # one cell twice
        ([0b10000], [0]),  # X on the guard row of column a
        ([0b10], [0]),  # X above an empty cell
        ([0b1, 0b11], [0b100000, 0]),  # board 1: X with both stones
        ([-1], [0]),  # off the board
    ):
        with pytest.raises(InputFormatError, match=f"board {len(xs) - 1} .* is no board"):
            game.locate_bitboards(np.array(xs), np.array(os))
    with pytest.raises(InputFormatError, match="one-dimensional integer arrays"):
        game.locate_bitboards(np.array([1, 2]), np.array([4]))
    with pytest.raises(InputFormatError, match="one-dimensional integer arrays"):
        game.locate_bitboards(np.array([1.0]), np.array([0.0]))


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4), (5, 4)])
def test_every_position_matches_the_in_memory_solver(rows: int, cols: int) -> None:
    game = HeightTieredConnectFour(rows, cols)
    check_tiered_game(game)
    db = solve_tiers(game, jobs=2, progress=False, chunk_size=2**16)
    memory = solve(ConnectFour(rows, cols))
    tiers, ranks = height_ranks(game, memory.codes)
    for i in np.random.default_rng(1).choice(tiers.size, 300).tolist():  # the same as locate()
        assert game.locate(memory.position_of(i)) == (tiers[i], ranks[i])
    seen = 0
    for tier in game.tiers():
        value, remoteness = db.arrays(tier)
        ids = np.flatnonzero(tiers == tier)
        assert (value[ranks[ids]] == memory.solution.value[ids]).all()
        assert (remoteness[ranks[ids]] == memory.solution.remoteness[ids]).all()
        seen += ids.size
    assert seen == tiers.size
    assert db.entry(*game.initial()).value is Value.TIE


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 5)])
def test_the_slots_stand_for_the_positions_of_the_tiers_by_stone_count(
    rows: int, cols: int
) -> None:
    heights, stones = HeightTieredConnectFour(rows, cols), TieredConnectFour(rows, cols)
    counts = [np.zeros(rows * cols + 1, dtype=np.int64) for _ in range(2)]
    for game, count, stones_of in (
        (heights, counts[0], heights.tier_stones),
        (stones, counts[1], int),
    ):
        for tier in game.tiers():
            ranks = np.flatnonzero(game.slots(tier, 0, game.tier_size(tier)))
            count[stones_of(tier)] += int(game.orbit_sizes(tier, ranks).sum())
    assert counts[0].tolist() == counts[1].tolist()  # stone by stone, each orbit counted whole


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 5)])
def test_every_slot_by_stone_count_has_the_value_and_remoteness_by_heights(
    rows: int, cols: int, tmp_path: Path
) -> None:
    """Issue 20: the tiers by heights against the tiers by stone count, slot by slot.

    Each slot by stone count (one board per mirror class) is located in the tiers by heights
    (the canonical form of its board there); both databases must give it the same value and
    remoteness, and the boards must meet every slot by heights exactly once: the slots of
    either form are the same mirror classes. 5x5: 35,239,151 slots."""
    heights, stones = HeightTieredConnectFour(rows, cols), TieredConnectFour(rows, cols)
    by_heights = solve_tiers(heights, tmp_path / "heights", jobs=2, progress=False)
    by_stones = solve_tiers(stones, tmp_path / "stones", jobs=2, progress=False)
    unmet = set(heights.tiers())
    compared = 0
    for k in stones.tiers():
        ranks = np.flatnonzero(stones.slots(k, 0, stones.tier_size(k)))
        tiers, at = heights.locate_bitboards(*stones.bitboards(k, ranks))
        value, remoteness = (array[ranks] for array in by_stones.arrays(k))
        assert not (value == UNDECIDED).any()
        order = np.argsort(tiers, kind="stable")  # the boards of each tier by heights together
        starts = np.flatnonzero(np.diff(tiers[order], prepend=-1))
        for lo, hi in itertools.pairwise([*starts.tolist(), order.size]):
            ids, tier = order[lo:hi], int(tiers[order[lo]])
            here = at[ids]
            value_there, remoteness_there = by_heights.arrays(tier)
            wrong = np.flatnonzero(
                (value_there[here] != value[ids]) | (remoteness_there[here] != remoteness[ids])
            )
            if wrong.size:
                i, j = ids[wrong[0]], here[wrong[0]]
                pytest.fail(
                    f"{stones.position(k, int(ranks[i]))}: value/remoteness by stones "
                    f"{value[i]}/{remoteness[i]}, by heights (tier {heights.tier_label(tier)}, "
                    f"rank {j}) {value_there[j]}/{remoteness_there[j]}"
                )
            slots = heights.slots(tier, 0, heights.tier_size(tier))
            met = np.zeros_like(slots)
            met[here] = True
            assert here.size == slots.sum() and (met == slots).all()  # each slot met once
            unmet.remove(tier)
        compared += ranks.size
    for tier in unmet:  # no board by stone count lands there: no slots either
        assert not heights.slots(tier, 0, heights.tier_size(tier)).any()
    assert compared == {4: 82_408, 5: 35_239_151}[rows]


def test_full_boards_fours_and_orbits() -> None:
    game = HeightTieredConnectFour(2, 2)  # no four fits: every full board is a tie
    full = game.tiers()[0]
    ranks = np.flatnonzero(game.slots(full, 0, game.tier_size(full)))
    moves = game.children(full, ranks)
    assert (moves.primitive == TIE).all() and moves.rank.size == 0
    game = HeightTieredConnectFour(4, 4)
    tier, rank = game.locate(("XXXX", "OOO", "", ""))
    assert game.children(tier, np.array([rank])).primitive.tolist() == [LOSE]
    assert game.orbit_sizes(tier, np.array([rank])).tolist() == [2]
    tier, rank = game.locate(("XO", "X", "O", "XO"))
    assert game.orbit_sizes(tier, np.array([rank])).tolist() == [2]
    tier, rank = game.locate(("X", "O", "O", "X"))
    assert game.tier_label(tier) == "1-1-1-1" and game.orbit_sizes(
        tier, np.array([rank])
    ).tolist() == [1]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 200))
def test_sizes_without_the_listing_agree_with_the_listing(rows: int, cols: int, k: int) -> None:
    game = HeightTieredConnectFour(rows, cols)
    tiers = game.tiers()
    assert game.total_size() == sum(game.tier_size(t) for t in tiers)
    assert game.largest_tiers(k) == heapq.nlargest(k, tiers, key=game.tier_size)
    for bad in (-1, (rows + 1) ** cols, *(t for t in range(min(3000, (rows + 1) ** cols)))):
        if bad not in set(tiers):
            with pytest.raises(InputFormatError, match="is not a tier"):
                game.tier_size(bad)


def test_the_registry_picks_the_layout_by_board_size() -> None:
    assert type(tiered_form(5, 6)) is TieredConnectFour
    game = load_tiered_game("connect-four", rows=6, cols=6)
    assert type(game) is HeightTieredConnectFour
    assert len(game.tiers()) == (7**6 + 7**3) // 2
    assert max(game.tier_size(t) for t in game.tiers()) == comb(36, 18)
    entry = entry_for_target("perfectplay.games.connect_four.heights:HeightTieredConnectFour")
    assert entry is not None and entry.name == "connect-four"


def test_bad_input() -> None:
    with pytest.raises(GameDefinitionError, match="rows=8, cols=8"):
        HeightTieredConnectFour(8, 8)
    game = HeightTieredConnectFour(6, 6)
    with pytest.raises(InputFormatError, match="column 2"):
        game.locate(("X", "Z", "", "", "", ""))
    with pytest.raises(InputFormatError, match="X moves first"):
        game.locate(("O", "", "", "", "", ""))
    with pytest.raises(InputFormatError, match="tuple of 6"):
        game.locate(("X",))
    with pytest.raises(InputFormatError, match="is not a tier"):
        game.tier_size(6)  # heights 6-0-0-0-0-0: above its mirror image
    one = game.locate(("", "", "", "", "", "X"))[0]
    with pytest.raises(InputFormatError, match="ranks must lie in"):
        game.children(one, np.array([7]))
    with pytest.raises(InputFormatError, match="rank range"):
        game.slots(one, 0, 8)


KILLED_SOLVE = """
import sys
from perfectplay.games.connect_four.heights import HeightTieredConnectFour
from perfectplay.tiers import solve_tiers
db = solve_tiers(HeightTieredConnectFour(4, 5), sys.argv[1], chunk_size=4096, progress=False)
print(db.stats.tiers_kept, db.stats.chunks_kept)
"""


def test_kill_9_mid_solve_then_resume_gives_the_uninterrupted_files(tmp_path: Path) -> None:
    reference, resumed = tmp_path / "reference", tmp_path / "resumed"
    solve_tiers(HeightTieredConnectFour(4, 5), reference, chunk_size=4096, progress=False).close()
    command = [sys.executable, "-c", KILLED_SOLVE, str(resumed)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(resumed.glob("tier-*.tier"))) < 200 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    complete = {p.name: p.stat().st_mtime_ns for p in resumed.glob("tier-*.tier")}
    assert 200 <= len(complete) < len(HeightTieredConnectFour(4, 5).tiers())
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert int(done.stdout.split()[0]) >= len(complete)  # every complete tier kept ...
    for name, stamp in complete.items():
        assert (resumed / name).stat().st_mtime_ns == stamp  # ... and not written again
    assert tree(resumed) == tree(reference)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 4), (3, 5)])
def test_analyze_counts_per_stone_count_equal_the_tiers_by_stone_count(
    rows: int, cols: int
) -> None:
    by_heights = analyze_tiers(
        solve_tiers(HeightTieredConnectFour(rows, cols), progress=False), progress=False
    )
    by_stones = analyze_tiers(
        solve_tiers(TieredConnectFour(rows, cols), progress=False), progress=False
    )
    assert [t.label for t in by_heights.tiers] == [
        f"{k} stone{'' if k == 1 else 's'}" for k in range(rows * cols, -1, -1)
    ]
    assert [t.positions for t in by_heights.tiers] == [t.positions for t in by_stones.tiers]
    assert [(v, r, p) for v, r, _, p in by_heights.remoteness] == [
        (v, r, p) for v, r, _, p in by_stones.remoteness
    ]
