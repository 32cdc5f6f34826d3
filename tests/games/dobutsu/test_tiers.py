"""Dobutsu Shogi's tier form (perfectplay.games.dobutsu.tiers) against the rules and the
in-memory solver on reduced games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import played
from tier_helpers import engine_values

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.dobutsu import _tier_kernels as kernels
from perfectplay.games.dobutsu.rules import DobutsuShogi, mirror, turn_over
from perfectplay.games.dobutsu.tiers import TieredDobutsu
from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import DRAW, UNDECIDED

FULL = TieredDobutsu()
PIECES = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))


def test_registered_and_sized() -> None:
    game = load_tiered_game("dobutsu")
    assert isinstance(game, TieredDobutsu) and game.totals == (2, 2, 2)
    assert game.tiers() == [0] and game.child_tiers(0) == [] and game.inner_moves(0)
    assert game.tier_label(0) == "all"
    # per lion class 11,878,227 placements of the other pieces and hands (7,816,401 on 11
    # cells without hands after a catch): 41 classes in play, 13 after a try, 8 after a catch
    assert FULL.sizes() == {
        "play": 41 * 11_878_227,
        "try": 13 * 11_878_227,
        "caught": 8 * 15_946_569,
    }
    assert FULL.tier_size(0) == 768_996_810
    with pytest.raises(GameDefinitionError, match="one tier"):
        FULL.tier_size(1)
    with pytest.raises(GameDefinitionError, match="outside dobutsu's tier"):
        FULL.position(0, FULL.tier_size(0))
    with pytest.raises(InputFormatError, match="dobutsu position"):
        FULL.locate(("gle", "", "F"))


def test_slots_and_orbits_count_every_position_once() -> None:
    """Every board with both lions (the mover's off row 0) and hands, Forest to move, is one
    slot's orbit: 99 lion pairs times the placements of the rest; Tanaka's 1,567,925,964 is
    132 pairs times the same (his count keeps the mover's lion on row 0 too)."""
    for pieces in [(0, 0, 1), (1, 0, 2), (0, 1, 1)]:
        game = TieredDobutsu(*pieces)
        t = kernels.tables(*pieces)
        size = game.tier_size(0)
        slots = game.slots(0, 0, size)
        parts = [game.slots(0, lo, min(lo + 997, size)) for lo in range(0, size, 997)]
        assert np.array_equal(np.concatenate(parts), slots)
        ranks = np.flatnonzero(slots)
        boards, owns, _, classes = kernels.decode(ranks, t)
        assert np.array_equal(kernels.encode(boards, owns, t), ranks)  # canonical ranks
        regions = np.array([t[kernels.REGION + c] for c in range(kernels.CLASSES)])[classes]
        orbits = game.orbit_sizes(0, ranks)
        per_pair = game.sizes()["play"] // 41
        assert orbits[regions != kernels.REGION_X].sum() == 99 * per_pair
        assert orbits[regions == kernels.REGION_X].sum() == 12 * (game.sizes()["caught"] // 8)
    assert FULL.sizes()["play"] // 41 * 132 == 1_567_925_964


@settings(max_examples=60, deadline=None)
@given(PIECES, st.data())
def test_kernels_follow_the_rules(pieces: tuple[int, int, int], data: st.DataObject) -> None:
    """Random slots of each region: primitive values and children as the rules give them,
    un-moves inverse to moves, rank round trips."""
    game = TieredDobutsu(*pieces)
    rules = game.as_game()
    size = game.tier_size(0)
    start = data.draw(st.integers(0, size - 1))
    ranks = (np.flatnonzero(game.slots(0, start, min(start + 300, size))) + start)[:8]
    moves = game.children(0, ranks)
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(0, rank)
        assert game.locate(position) == (0, rank)
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else int(outcome))
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        assert not moves.which[lo:hi].any()
        got = Counter(moves.rank[lo:hi].tolist())
        assert got == Counter(game.locate(child)[1] for _, child in rules.moves(position))
        for child in set(got):  # this rank is a parent of each child
            assert rank in game.parents(0, np.array([child]))[1].tolist()
        _, listed = game.parents(0, np.array([rank]))
        for parent in set(listed.tolist()):  # and each parent listed has a move to this rank
            assert game.slots(0, parent, parent + 1)[0]
            assert rank in game.children(0, np.array([parent])).rank.tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=50))
def test_symmetric_positions_share_a_rank(choices: list[int]) -> None:
    rules = FULL.as_game()
    position = played(rules, choices)
    board, hands, turn = position
    tier, rank = FULL.locate(position)
    assert FULL.locate((mirror(board), hands, turn)) == (tier, rank)
    assert FULL.locate(turn_over(position)) == (tier, rank)
    back = FULL.position(tier, rank)
    if "L" in board and "l" in board:  # a caught lion's rank forgets who holds what
        assert rules.canonical(back) == rules.canonical(position)
    assert FULL.slots(tier, rank, rank + 1)[0]


def test_no_position_has_more_moves_than_max_moves() -> None:
    ranks = np.arange(0, FULL.sizes()["play"], 9_973, dtype=np.int64)
    moves = FULL.children(0, ranks)
    assert int(np.diff(moves.indptr).max()) <= FULL.max_moves()


@pytest.mark.parametrize("pieces", [(0, 0, 1), (1, 1, 1), (2, 2, 2)])
def test_the_engine_accepts_the_tiered_game(pieces: tuple[int, int, int]) -> None:
    check_tiered_game(TieredDobutsu(*pieces), samples=150)
    assert check_game(TieredDobutsu(*pieces), samples=60) == []


@pytest.fixture(scope="module", params=[(0, 0, 2), (1, 0, 1), (0, 1, 1)])
def solved_small(request: pytest.FixtureRequest) -> tuple[TieredDobutsu, object]:
    """A reduced game solved in memory (enumeration of the rules, retrograde analysis)."""
    return TieredDobutsu(*request.param), solve(DobutsuShogi(*request.param))


def test_engine_equals_the_in_memory_solver(solved_small: tuple[TieredDobutsu, object]) -> None:
    game, solved = solved_small
    values = engine_values(game, solved)  # type: ignore[arg-type]
    assert values[DRAW] > 0  # endless play to compare


def test_command_line_solves_queries_and_analyzes(tmp_path: Path) -> None:
    directory = tmp_path / "d"
    params = ["--param", "giraffes=0", "--param", "elephants=0", "--param", "chicks=2"]
    solved = run_cli(["solve", "dobutsu", *params, "--tiers", str(directory)])
    assert solved.code == 0, solved.err
    assert "start: WIN in 15" in solved.out
    query = run_cli(["query", str(directory), "-l-/-c-/-C-/-L- F -"])
    assert query.code == 0 and "value:" in query.out
    analyzed = run_cli(["analyze", str(directory), "--by-tier"])
    assert analyzed.code == 0 and "all" in analyzed.out
