"""Connect Four as a tiered game: ranks, slots, moves and values against the rules and solvers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from connect_four_boards import bitboards_of, four
from hypothesis import given, settings
from hypothesis import strategies as st
from tiered_random import explicit_graph

from perfectplay.api import solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.connect_four import _tier_kernels as kernels
from perfectplay.games.connect_four.rules import ConnectFour, superset_sizes
from perfectplay.games.connect_four.tiers import TieredConnectFour
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import LOSE, TIE, UNDECIDED, Value

SHAPES = [(1, 1), (1, 5), (4, 1), (2, 3), (3, 4), (4, 4), (5, 5), (5, 6), (6, 6), (6, 7), (7, 6)]


def boards_of(rows: int, cols: int, k: int) -> list[tuple[str, ...]]:
    """Every board of `k` stones, X holding ``(k + 1) // 2``, by brute force."""
    columns = ["".join(c) for h in range(rows + 1) for c in itertools.product("XO", repeat=h)]
    return [
        board
        for board in itertools.product(columns, repeat=cols)
        if sum(map(len, board)) == k and sum(c.count("X") for c in board) == (k + 1) // 2
    ]


def is_slot(game: TieredConnectFour, board: tuple[str, ...]) -> bool:
    """The slot rule of the module docstring, on strings."""
    k = sum(map(len, board))
    rows = game.rows
    mover, last = ("X", "O") if k % 2 == 0 else ("O", "X")
    if _rank(game, board[::-1]) < _rank(game, board):
        return False
    if four(board, rows, mover):
        return False
    return k == 0 or any(
        column.endswith(last) and not four((*board[:c], column[:-1], *board[c + 1 :]), rows, last)
        for c, column in enumerate(board)
    )


def _rank(game: TieredConnectFour, board: tuple[str, ...]) -> int:
    """The rank of `board` itself (not of its canonical form)."""
    states = np.array([game._states(board)], dtype=np.int64)
    table, _, h_of, x_of, _ = game._kernel_tables
    out = np.empty(1, dtype=np.int64)
    kernels.rank_boards(states, table, h_of, x_of, out)
    return int(out[0])


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 3), (3, 2), (3, 4), (4, 4), (4, 5), (5, 4)])
def test_ranks_number_every_board_of_a_tier_in_order(rows: int, cols: int) -> None:
    game = TieredConnectFour(rows, cols)
    assert game.tiers() == list(range(rows * cols + 1))
    assert [game.tier_size(t) for t in game.tiers()] == superset_sizes(rows, cols)
    table, _, h_of, x_of, _ = game._kernel_tables
    for tier in game.tiers():
        size = game.tier_size(tier)
        states = np.empty((size, cols), dtype=np.int64)
        kernels.unrank_boards(np.arange(size), tier, table, h_of, x_of, states)
        assert (_ranks(game, states) == np.arange(size)).all()  # a bijection onto 0..size-1
        assert (h_of[states].sum(axis=1) == tier).all()
        assert (x_of[states].sum(axis=1) == (tier + 1) // 2).all()
        places = [p // 2 if p % 2 == 0 else cols - 1 - p // 2 for p in range(cols)]
        order = np.lexsort(states[:, places].T[::-1])  # columns from the outside in
        assert (order == np.arange(size)).all()
        if rows * cols <= 12:
            positions = {game.position(tier, r) for r in range(size)}
            assert positions == set(boards_of(rows, cols, tier))
        for rank in range(0, size, max(1, size // 50)):
            position = game.position(tier, rank)
            assert game.locate(position) == (tier, min(rank, _rank(game, position[::-1])))


@pytest.mark.parametrize(("rows", "cols", "most"), [(2, 3, 10**6), (3, 4, 10**6), (4, 4, 400)])
def test_slots_are_the_canonical_reachable_looking_boards(rows: int, cols: int, most: int) -> None:
    game = TieredConnectFour(rows, cols)
    reachable = {game.locate(p) for p in solve(ConnectFour(rows, cols)).enumeration.positions}
    rng = np.random.default_rng(3)
    for tier in game.tiers():
        size = game.tier_size(tier)
        slots = game.slots(tier, 0, size)
        sample = np.arange(size) if size <= most else rng.choice(size, most, replace=False)
        expected = [is_slot(game, game.position(tier, r)) for r in sample.tolist()]
        assert slots[sample].tolist() == expected
        assert all(slots[r] for t, r in reachable if t == tier)
        for start, stop in ((0, 0), (size // 3, size), (size // 2, min(size, size // 2 + 7))):
            assert (game.slots(tier, start, stop) == slots[start:stop]).all()


@settings(max_examples=40)
@given(st.sampled_from(SHAPES), st.integers(0, 2**62), st.data())
def test_children_are_the_rules_moves(
    shape: tuple[int, int], seed: int, data: st.DataObject
) -> None:
    rows, cols = shape
    game = TieredConnectFour(rows, cols)
    rules = game.as_game()
    tier = data.draw(st.integers(0, rows * cols), label="tier")
    size = game.tier_size(tier)
    start = seed % size
    slots = start + np.flatnonzero(game.slots(tier, start, min(size, start + 400)))
    ranks = np.sort(np.random.default_rng(seed).choice(slots, min(30, slots.size), replace=False))
    moves = game.children(tier, ranks)
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(tier, rank)
        assert game.locate(position) == (tier, rank)  # slots are canonical
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else outcome)
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        assert (moves.which[lo:hi] == 1).all()
        expected = [game.locate(child)[1] for _, child in rules.moves(position)]
        assert moves.rank[lo:hi].tolist() == expected
        mirror = position[::-1] == position
        assert game.orbit_sizes(tier, np.array([rank])).tolist() == [1 if mirror else 2]


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (3, 5), (5, 6)])
def test_children_of_any_rank_order_agree(rows: int, cols: int) -> None:
    # Close ranks are reached by stepping through blocks, far or earlier ones by unranking.
    game = TieredConnectFour(rows, cols)
    rng = np.random.default_rng(7)
    for tier in (3, rows * cols // 2, rows * cols - 1, rows * cols):
        size = game.tier_size(tier)
        start = int(rng.integers(size))
        for width in (3000, size):  # near a random rank, else anywhere
            slots = start + np.flatnonzero(game.slots(tier, start, min(size, start + width)))
            if slots.size:
                break
            start = 0
        mixed = np.concatenate([slots, rng.permutation(slots)[:300], slots[::-1][:50]])
        together = game.children(tier, mixed)
        for i in rng.choice(mixed.size, 60).tolist():
            alone = game.children(tier, mixed[i : i + 1])
            lo, hi = together.indptr[i], together.indptr[i + 1]
            assert alone.primitive[0] == together.primitive[i]
            assert alone.rank.tolist() == together.rank[lo:hi].tolist()


def test_full_boards_and_fours_are_primitive() -> None:
    game = TieredConnectFour(2, 2)  # no four fits: every full board is a tie
    full = 4
    ranks = np.flatnonzero(game.slots(full, 0, game.tier_size(full)))
    moves = game.children(full, ranks)
    assert (moves.primitive == TIE).all() and moves.rank.size == 0
    game = TieredConnectFour(4, 4)
    tier, rank = game.locate(("XXXX", "OOO", "", ""))
    assert game.children(tier, np.array([rank])).primitive.tolist() == [LOSE]
    assert game.slots(tier, rank, rank + 1).tolist() == [True]
    # X to move with X's four on the board; X's four under O's last stone: no positions.
    for board in (("XXXX", "OOO", "O", ""), ("XOX", "XO", "XO", "XO")):
        t, r = game.locate(board)
        assert game.slots(t, r, r + 1).tolist() == [False]


def canonical_ranks(game: TieredConnectFour, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(tiers, ranks)`` of ConnectFour's codes ``(mask << S) | current``, vectorized."""
    height, shift = game.rows + 1, (game.rows + 1) * game.cols
    mask, current = codes >> shift, codes & ((1 << shift) - 1)
    columns = [(mask >> (c * height)) & ((1 << height) - 1) for c in range(game.cols)]
    stones = sum(np.log2(column + 1).astype(np.int64) for column in columns)
    x = np.where(stones % 2 == 0, current, mask ^ current)
    # the sentinel above the stones (column + 1), X's stones below it
    states = np.stack([(m + 1) | ((x >> (c * height)) & m) for c, m in enumerate(columns)], axis=1)
    return stones, np.minimum(_ranks(game, states), _ranks(game, states[:, ::-1]))


def _ranks(game: TieredConnectFour, states: np.ndarray) -> np.ndarray:
    table, _, h_of, x_of, _ = game._kernel_tables
    out = np.empty(states.shape[0], dtype=np.int64)
    kernels.rank_boards(np.ascontiguousarray(states), table, h_of, x_of, out)
    return out


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 5), (5, 4)])
def test_every_position_matches_the_in_memory_solver(rows: int, cols: int) -> None:
    game = TieredConnectFour(rows, cols)
    check_tiered_game(game)
    db = solve_tiers(game, jobs=2, progress=False, chunk_size=2**16)
    memory = solve(ConnectFour(rows, cols))
    tiers, ranks = canonical_ranks(game, memory.codes)
    for i in np.random.default_rng(1).choice(tiers.size, 300).tolist():  # the same as locate()
        assert game.locate(memory.position_of(i)) == (tiers[i], ranks[i])
    for tier in game.tiers():
        value, remoteness = db.arrays(tier)
        ids = np.flatnonzero(tiers == tier)
        assert (value[ranks[ids]] == memory.solution.value[ids]).all()
        assert (remoteness[ranks[ids]] == memory.solution.remoteness[ids]).all()
    assert db.entry(*game.initial()).value is Value.TIE


def test_an_explicit_graph_of_the_slots_agrees_with_the_engine() -> None:
    game = TieredConnectFour(3, 4)
    db = solve_tiers(game, jobs=1, progress=False)
    twin = explicit_graph(game)
    solution = twin.solve()
    for tier in game.tiers():
        ranks = np.flatnonzero(twin.slots[tier])
        value, remoteness = db.arrays(tier)
        ids = twin.start[tier] + ranks
        assert (value[ranks] == solution.value[ids]).all()
        assert (remoteness[ranks] == solution.remoteness[ids]).all()


@pytest.mark.parametrize(("rows", "cols"), [(1, 4), (3, 1), (5, 6), (6, 7), (7, 6)])
def test_check_tiered_game_passes_on_big_and_odd_boards(rows: int, cols: int) -> None:
    check_tiered_game(TieredConnectFour(rows, cols), samples=60)


def test_big_boards_and_bad_input() -> None:
    game = TieredConnectFour(6, 7)
    assert isinstance(game, TieredConnectFour) and game.tier_size(42) > 0
    assert game.max_moves() == 7 and not game.inner_moves(3)
    with pytest.raises(GameDefinitionError, match="rows=8, cols=8"):
        TieredConnectFour(8, 8)
    with pytest.raises(GameDefinitionError, match="12x4: columns of 12 cells need rank tables"):
        TieredConnectFour(12, 4)
    with pytest.raises(InputFormatError, match="column 2"):
        game.locate(("X", "Z", "", "", "", "", ""))
    with pytest.raises(InputFormatError, match="X moves first"):
        game.locate(("O", "", "", "", "", "", ""))
    with pytest.raises(InputFormatError, match="tuple of 7"):
        game.locate(("X",))
    with pytest.raises(InputFormatError, match=r"tiers 0\.\.42"):
        game.tier_size(43)
    with pytest.raises(InputFormatError, match="ranks must lie in"):
        game.children(1, np.array([7]))
    with pytest.raises(InputFormatError, match="rank range"):
        game.slots(1, 0, 8)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 3), (3, 2), (3, 4), (4, 3)])
def test_bitboards_by_stone_count_are_the_positions(rows: int, cols: int) -> None:
    game = TieredConnectFour(rows, cols)
    rng = np.random.default_rng(rows * cols)
    for tier in game.tiers():
        size = game.tier_size(tier)
        expected = [bitboards_of(game.position(tier, rank), rows) for rank in range(size)]
        every, shuffled, sparse = np.arange(size), rng.permutation(size), np.arange(0, size, 7)
        for ranks in (every, shuffled, sparse):  # a block at a time, scattered, blocks skipped
            xs, os = game.bitboards(tier, ranks)
            assert list(zip(xs.tolist(), os.tolist(), strict=True)) == [
                expected[r] for r in ranks.tolist()
            ]
    with pytest.raises(InputFormatError, match="ranks must lie in"):
        game.bitboards(1, [game.tier_size(1)])
