"""Teeko's tier form (perfectplay.games.teeko.tiers) against the rules and the in-memory solver
on reduced boards."""

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
from perfectplay.games._square_board import square_symmetries
from perfectplay.games.registry import load_tiered_game
from perfectplay.games.teeko import _tier_kernels as kernels
from perfectplay.games.teeko.rules import Teeko, TeekoPosition
from perfectplay.games.teeko.tiers import TieredTeeko
from perfectplay.values import DRAW, UNDECIDED


@pytest.mark.parametrize(("size", "pieces"), [(2, 3), (6, 4), (4, 5), (5, 2), ("5", 4)])
def test_bad_parameters_are_refused(size: object, pieces: object) -> None:
    with pytest.raises(GameDefinitionError, match="teeko needs"):
        TieredTeeko(size, pieces)  # type: ignore[arg-type]


def test_registered() -> None:
    tiered = load_tiered_game("teeko")
    assert isinstance(tiered, TieredTeeko) and (tiered.size, tiered.pieces) == (5, 4)


def test_tiers_sizes_and_labels() -> None:
    game = TieredTeeko()
    assert game.tiers() == list(range(9))
    labels = ["0 pieces", "1 piece", "7 pieces", "moving"]
    assert [game.tier_label(t) for t in (0, 1, 7, 8)] == labels
    assert [game.child_tiers(t) for t in (0, 7, 8)] == [[1], [8], []]
    assert game.inner_moves(8) and not game.inner_moves(7)
    # the drop tiers as GamesmanOne hashes them; the moving tier with X to move only
    assert game.tier_size(7) == 12650 * 1330 and game.tier_size(8) == 12650 * 5985
    assert sum(game.tier_size(t) for t in game.tiers()) == 96_691_476
    with pytest.raises(GameDefinitionError, match="no tier"):
        game.counts(9)
    with pytest.raises(InputFormatError, match="teeko position"):
        game.locate(("XO", "X"))
    with pytest.raises(InputFormatError, match="3 X and 1 O"):
        game.locate(("XXX-O" + "-" * 20, "O"))


@settings(max_examples=60)
@given(st.data())
def test_rank_round_trips(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([3, 4, 5]))
    k = data.draw(st.integers(3, n))
    game = TieredTeeko(n, k)
    tier = data.draw(st.sampled_from(game.tiers()))
    nx, no = game.counts(tier)
    size = game.tier_size(tier)
    ranks = np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=1)), dtype=np.int64)
    t = kernels.tables(n, k)
    xs, os = kernels.boards(ranks, nx, no, t)
    assert np.all(xs & os == 0) and np.all((xs | os) >> (n * n) == 0)
    assert [bin(int(x)).count("1") for x in xs] == [nx] * len(ranks)
    assert [bin(int(o)).count("1") for o in os] == [no] * len(ranks)
    assert np.array_equal(kernels.ranks(xs, os, nx, no, t, False), ranks)
    for rank in ranks.tolist()[:5]:
        position = game.position(tier, rank)
        assert game.as_game().canonical(position) == game.position(*game.locate(position))


def test_slots_and_orbits_cover_every_board_once() -> None:
    game = TieredTeeko(4, 3)
    rules = game.as_game()
    perms = square_symmetries(4)
    t = kernels.tables(4, 3)
    for tier in game.tiers():
        nx, no = game.counts(tier)
        size = game.tier_size(tier)
        slots = game.slots(tier, 0, size)
        pieces = [game.slots(tier, lo, min(lo + 97, size)) for lo in range(0, size, 97)]
        assert np.array_equal(np.concatenate(pieces), slots)
        xs, os = kernels.boards(np.arange(size, dtype=np.int64), nx, no, t)
        canonical = kernels.ranks(xs, os, nx, no, t, True)
        legal = 0
        for rank in range(0, size, 1 if size < 5000 else 37):
            board, _ = game.position(tier, rank)
            both = rules.winner(board) == "X" and rules.winner(board.replace("X", "-")) == "O"
            legal += not both
            assert slots[rank] == (not both and canonical[rank] == rank)
            images = {"".join(board[p.index(d)] for d in range(16)) for p in perms}
            if slots[rank]:
                orbit = len(images) * (2 if tier == game.moving else 1)
                assert game.orbit_sizes(tier, np.array([rank])).tolist() == [orbit]
        if size < 5000:
            swap = 2 if tier == game.moving else 1
            assert game.orbit_sizes(tier, np.flatnonzero(slots)).sum() == legal * swap


def test_no_position_is_without_a_move() -> None:
    """Teeko never blocks a player: in the moving tier every open slot has a move."""
    game = TieredTeeko()
    ranks = np.flatnonzero(game.slots(8, 0, 2_000_000))
    moves = game.children(8, ranks)
    open_ = moves.primitive == UNDECIDED
    assert open_.any() and (np.diff(moves.indptr)[open_] > 0).all()


@settings(max_examples=40)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([4, 5]))
    game = TieredTeeko(n, data.draw(st.integers(3, 4)))
    tier = data.draw(st.sampled_from(game.tiers()))
    start = data.draw(st.integers(0, game.tier_size(tier) - 1))
    check_children_and_parents(game, tier, start, 20, inner=tier == game.moving)


@pytest.mark.parametrize(("size", "pieces", "samples"), [(3, 3, 500), (4, 3, 200), (5, 4, 60)])
def test_the_engine_accepts_the_tiered_game(size: int, pieces: int, samples: int) -> None:
    assert check_game(TieredTeeko(size, pieces), samples=samples) == []


@pytest.fixture(scope="module", params=[(3, 3), (4, 3)])
def solved_small(request: pytest.FixtureRequest) -> tuple[TieredTeeko, GameSolution[TeekoPosition]]:
    """A reduced board solved in memory (enumeration of the rules, retrograde analysis)."""
    size, pieces = request.param
    return TieredTeeko(size, pieces), solve(Teeko(size, pieces))


def test_engine_equals_the_in_memory_solver(
    solved_small: tuple[TieredTeeko, GameSolution[TeekoPosition]],
) -> None:
    game, solved = solved_small
    values = engine_values(game, solved)
    assert values[DRAW] > 0  # the moving phase has draws to compare


def test_command_line_solves_queries_and_analyzes(tmp_path: Path) -> None:
    directory = tmp_path / "t43"
    solved = run_cli(
        ["solve", "teeko", "--param", "size=4", "--param", "pieces=3", "--tiers", str(directory)]
    )
    assert solved.code == 0, solved.err
    assert "start: " in solved.out
    query = run_cli(["query", str(directory), "XO--/-X--/----/---- O"])
    assert query.code == 0 and "value:" in query.out
    analyzed = run_cli(["analyze", str(directory), "--by-tier"])
    assert analyzed.code == 0 and "moving" in analyzed.out and "5 pieces" in analyzed.out


def test_ranks_outside_a_tier_and_parents_of_drop_tiers_are_refused() -> None:
    game = TieredTeeko(4, 3)
    size = game.tier_size(3)
    with pytest.raises(GameDefinitionError, match=rf"rank {size} is outside teeko tier 3 pieces"):
        game.position(3, size)
    with pytest.raises(GameDefinitionError, match="tier 2 has no moves inside it"):
        game.parents(2, np.zeros(1, np.int64))
    with pytest.raises(GameDefinitionError, match="no tier True"):
        game.counts(True)


def test_a_moving_board_with_o_to_move_is_its_colour_swap_with_x_to_move() -> None:
    game = TieredTeeko(4, 3)
    board = "XXO-" "XO--" "O---" "----"  # fmt: skip
    swapped = board.replace("X", "x").replace("O", "X").replace("x", "O")
    assert game.locate((board, "O")) == game.locate((swapped, "X"))
    tier, rank = game.locate((board, "O"))
    assert tier == game.moving and game.position(tier, rank)[1] == "X"


def test_no_position_has_more_moves_than_max_moves() -> None:
    game = TieredTeeko(4, 3)
    for tier in game.tiers():
        ranks = np.flatnonzero(game.slots(tier, 0, game.tier_size(tier))).astype(np.int64)
        moves = game.children(tier, ranks)
        assert int(np.diff(moves.indptr).max(initial=0)) <= game.max_moves()
