"""Squadro's tier form (perfectplay.games.squadro.tiers) against the rules and the in-memory
solver on reduced games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from tier_helpers import engine_values

from perfectplay.api import check_game, solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.registry import load_tiered_game
from perfectplay.games.squadro.rules import Squadro, SquadroPosition
from perfectplay.games.squadro.tiers import TieredSquadro
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.analyze import Analysis, analyze_tiers
from perfectplay.values import DRAW, UNDECIDED

VARIANTS = [((1, 3), 1), ((1, 3), 2), ((2,), 1), ((3, 1, 2), 2), ((1, 3, 2, 3, 1), 4)]


def test_registered_tiers_sizes_and_labels() -> None:
    game = load_tiered_game("squadro")
    assert isinstance(game, TieredSquadro) and (game.speeds, game.home) == ((1, 3, 2, 3, 1), 4)
    tiers = game.tiers()
    sizes = [game.tier_size(t) for t in tiers]
    assert len(tiers) == 58_464 and sum(sizes) == 104_054_652_218 and max(sizes) == 2 * 6480**2
    assert game.initial() == (0, 0) and game.tier_label(0) == "00000-00000"
    assert game.child_tiers(0) == [3**k for k in range(10)]
    assert game.tier_group(3**9 + 2 * 3**4) == "top 2 left 1"
    assert game.inner_moves(0) and not game.inner_moves(2 * sum(3**k for k in range(4)))
    with pytest.raises(GameDefinitionError, match="no tier"):
        game.legs(2 * sum(3**k for k in range(5)))  # the top player's 5 pieces home
    with pytest.raises(GameDefinitionError, match="no tier True"):
        game.legs(True)
    with pytest.raises(GameDefinitionError, match="rank 2 is outside squadro tier 0-0"):
        TieredSquadro((2,), 1).position(0, 2)
    with pytest.raises(InputFormatError, match="expected a squadro position"):
        game.locate(((0, 0), (0, 0), "T"))
    with pytest.raises(InputFormatError, match="stand on one crossing"):
        game.locate(((2, 0, 0, 0, 0), (0, 1, 0, 0, 0), "T"))


def sample(data: st.DataObject) -> tuple[TieredSquadro, int, int]:
    """A game of `VARIANTS`, one of its tiers and a rank of it."""
    game = TieredSquadro(*data.draw(st.sampled_from(VARIANTS)))
    tier = data.draw(st.sampled_from(game.tiers()))
    return game, tier, data.draw(st.integers(0, game.tier_size(tier) - 1))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_ranks_round_trip_and_slots_are_the_positions(data: st.DataObject) -> None:
    game, tier, start = sample(data)
    rules, size = game.as_game(), game.tier_size(tier)
    stop = min(size, start + 50)
    slots = game.slots(tier, start, stop)
    for rank in range(start, stop):
        position = game.position(tier, rank)
        if slots[rank - start]:
            assert game.locate(position) == (tier, rank)
        try:
            rules.check(position)
            legal = True
        except InputFormatError:
            legal = False
        assert slots[rank - start] == legal, position


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    game, tier, start = sample(data)
    rules, size = game.as_game(), game.tier_size(tier)
    ranks = (np.flatnonzero(game.slots(tier, start, min(start + 400, size))) + start)[:20]
    moves = game.children(tier, ranks)
    targets = [tier, *game.child_tiers(tier)]
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(tier, rank)
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else int(outcome))
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        got = [
            (targets[w], int(r))
            for w, r in zip(moves.which[lo:hi].tolist(), moves.rank[lo:hi].tolist(), strict=True)
        ]
        assert got == [game.locate(child) for _, child in rules.moves(position)]
        inner = [r for w, r in zip(moves.which[lo:hi], moves.rank[lo:hi], strict=True) if w == 0]
        for child in inner:  # this rank is a parent of each child in its tier
            assert rank in game.parents(tier, np.array([child]))[1].tolist()
        _, listed = game.parents(tier, np.array([rank]))
        for parent in listed.tolist():  # and each parent listed is a slot with a move here
            assert game.slots(tier, parent, parent + 1)[0]
            assert rank in game.children(tier, np.array([parent])).rank.tolist()


def test_parents_are_every_inner_parent_on_a_whole_game() -> None:
    """On (3, 1, 2) with 2 home, the parents of every slot of every tier are exactly the
    slots whose children in the tier include it."""
    game = TieredSquadro((3, 1, 2), 2)
    for tier in game.tiers():
        size = game.tier_size(tier)
        ranks = np.flatnonzero(game.slots(tier, 0, size))
        moves = game.children(tier, ranks)
        expected: Counter[tuple[int, int]] = Counter()
        for i, rank in enumerate(ranks.tolist()):
            lo, hi = moves.indptr[i], moves.indptr[i + 1]
            for w, child in zip(moves.which[lo:hi], moves.rank[lo:hi], strict=True):
                if w == 0:
                    expected[(int(child), rank)] += 1
        indptr, parents = game.parents(tier, ranks)
        got: Counter[tuple[int, int]] = Counter()
        for i, rank in enumerate(ranks.tolist()):
            for parent in parents[indptr[i] : indptr[i + 1]].tolist():
                got[(rank, parent)] += 1
        assert got == expected, game.tier_label(tier)


@pytest.mark.parametrize(("speeds", "home"), [((1, 3), 2), ((2, 2), 1)])
def test_the_engine_accepts_the_tiered_game(speeds: tuple[int, ...], home: int) -> None:
    assert check_game(TieredSquadro(speeds, home), samples=200) == []


@pytest.fixture(scope="module", params=[((1, 3), 1), ((1, 3), 2), ((1, 2, 3), 2)])
def solved_small(
    request: pytest.FixtureRequest,
) -> tuple[TieredSquadro, GameSolution[SquadroPosition]]:
    """A reduced game solved in memory (enumeration of the rules, retrograde analysis)."""
    speeds, home = request.param
    return TieredSquadro(speeds, home), solve(Squadro(speeds, home))


def test_engine_equals_the_in_memory_solver(
    solved_small: tuple[TieredSquadro, GameSolution[SquadroPosition]],
) -> None:
    game, solved = solved_small
    values = engine_values(game, solved)
    if game.n == 3:
        assert values[DRAW] == 30  # endless play, as in the full game


class LeftFirst(Squadro):
    """The game from its other start: the left player moves first."""

    def initial(self) -> SquadroPosition:
        top, left, _ = super().initial()
        return top, left, "L"


def test_analyze_counts_what_either_start_reaches(
    solved_small: tuple[TieredSquadro, GameSolution[SquadroPosition]],
) -> None:
    game, from_top = solved_small
    from_left = solve(LeftFirst(game.speeds, game.home))
    values = {}
    for solved in (from_top, from_left):
        for pid in range(len(solved)):
            position = solved.position_of(pid)
            values[position] = solved.value(position).name
    assert len(values) > max(len(from_top), len(from_left))  # each reaches positions of its own
    assert [game.locate(s.initial) for s in (from_top, from_left)] == game.starts()
    analysis = analyze_tiers(solve_tiers(game, progress=False), progress=False)
    assert analysis.positions == analysis.classes == {**dict.fromkeys(
        ("WIN", "LOSE", "TIE", "DRAW"), 0), **Counter(values.values())}  # fmt: skip
    other = {"T": "L", "L": "T"}
    winners = Counter(
        {"WIN": turn, "LOSE": other[turn]}.get(value, "nobody")
        for (_, _, turn), value in values.items()
    )
    assert analysis.players == ("top", "left")
    assert analysis.won == {"top": winners["T"], "left": winners["L"]}
    assert winners["T"] and winners["L"] and winners["T"] != winners["L"]
    assert Analysis.from_json(analysis.to_json()) == analysis


def test_command_line_solves_queries_and_analyzes(tmp_path: Path) -> None:
    directory = tmp_path / "sq"
    params = ["--param", "speeds=1,3", "--param", "home=2"]
    solved = run_cli(["solve", "squadro", *params, "--tiers", str(directory)])
    assert solved.code == 0, solved.err
    assert "start: WIN" in solved.out
    query = run_cli(["query", str(directory), "1,0/0,0 L"])
    assert query.code == 0 and "value:" in query.out
    analyzed = run_cli(["analyze", str(directory), "--by-tier"])
    assert analyzed.code == 0 and "top 0 left 0" in analyzed.out
    assert "reachable from any of its 2 starts" in analyzed.out
    assert "positions won by each player: the top player " in analyzed.out
