"""Quixo's tiered form (perfectplay.games.quixo.tiers) against the rules and the in-memory
solver."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games._square_board import square_symmetries
from perfectplay.games.quixo import _kernels as kernels
from perfectplay.games.quixo.rules import QuixoPosition
from perfectplay.games.quixo.tiers import TieredQuixo
from perfectplay.games.registry import load_tiered_game
from perfectplay.graph import GameGraph
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.tiers import solve_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.values import UNDECIDED, Value


@pytest.mark.parametrize("size", [2, 6, "4", True])
def test_bad_sizes_are_refused(size: object) -> None:
    with pytest.raises(GameDefinitionError, match="3, 4 or 5"):
        TieredQuixo(size)  # type: ignore[arg-type]


def test_registered() -> None:
    tiered = load_tiered_game("quixo")
    assert isinstance(tiered, TieredQuixo) and tiered.size == 4


def test_tiers_and_sizes() -> None:
    game = TieredQuixo(4)
    tiers = game.tiers()
    assert len(set(tiers)) == len(tiers) == 2 + 15 * 16 // 2
    for tier in tiers:
        nx, no = game.counts(tier)
        for child in game.child_tiers(tier):
            cx, co = game.counts(child)
            assert (cx - nx, co - no) in ((1, 0), (0, 1))
    # every board of 1 <= nx, 1 <= no with either player to move, plus the two first tiers
    every = 2 * 3**16 - 2 * (2**16 - 1) - 2 * (2**16 - 1 - 16)
    assert sum(game.tier_size(t) for t in tiers) == every
    assert game.tier_label(game.initial()[0]) == "16Blank_0X_0O"
    with pytest.raises(GameDefinitionError, match="no tier"):
        game.counts(2)  # (0 X, 2 O)
    with pytest.raises(InputFormatError, match="0 X and 1 O"):
        game.locate(("O" + "-" * 15, "X"))
    with pytest.raises(InputFormatError, match="quixo position"):
        game.locate(("XO", "X"))


@settings(max_examples=50)
@given(st.data())
def test_rank_round_trips(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([3, 4, 5]))
    game = TieredQuixo(n)
    tier = data.draw(st.sampled_from(game.tiers()))
    nx, no = game.counts(tier)
    size = game.tier_size(tier)
    ranks = np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=1)), dtype=np.int64)
    t = kernels.tables(n)
    xs, os, turns = kernels.boards(ranks, nx, no, t)
    assert np.all(xs & os == 0)
    assert [bin(int(x)).count("1") for x in xs] == [nx] * len(ranks)
    assert [bin(int(o)).count("1") for o in os] == [no] * len(ranks)
    assert np.array_equal(kernels.ranks(xs, os, turns, nx, no, t, False), ranks)
    for rank in ranks.tolist()[:5]:
        position = game.position(tier, rank)
        assert game.as_game().canonical(position) == game.position(*game.locate(position))


def test_every_rank_of_small_tiers_is_a_distinct_board() -> None:
    game = TieredQuixo(3)
    t = kernels.tables(3)
    for tier in game.tiers():
        nx, no = game.counts(tier)
        ranks = np.arange(game.tier_size(tier), dtype=np.int64)
        xs, os, turns = kernels.boards(ranks, nx, no, t)
        assert len(set(zip(xs.tolist(), os.tolist(), turns.tolist(), strict=True))) == len(ranks)
        assert np.array_equal(kernels.ranks(xs, os, turns, nx, no, t, False), ranks)


def test_symmetries_slots_and_orbits() -> None:
    """On 3x3: slots are the legal canonical ranks, orbits cover every legal board once."""
    game = TieredQuixo(3)
    rules = game.as_game()
    perms = square_symmetries(3)
    assert len(set(map(tuple, perms))) == 8
    t = kernels.tables(3)
    edge = [d for d in range(9) if d != 4]
    for tier in game.tiers():
        nx, no = game.counts(tier)
        size = game.tier_size(tier)
        slots = game.slots(tier, 0, size)
        chunks = [game.slots(tier, lo, min(lo + 7, size)) for lo in range(0, size, 7)]
        assert np.array_equal(np.concatenate(chunks), slots)
        xs, os, turns = kernels.boards(np.arange(size, dtype=np.int64), nx, no, t)
        canonical = kernels.ranks(xs, os, turns, nx, no, t, True)
        legal = 0
        for rank, (x, o, turn) in enumerate(
            zip(xs.tolist(), os.tolist(), turns.tolist(), strict=True)
        ):
            mover = "XO"[turn]
            board = "".join("X" if x >> d & 1 else "O" if o >> d & 1 else "-" for d in range(9))
            ok = "XO"[1 - turn] in [board[d] for d in edge] or (board == "-" * 9 and turn == 0)
            legal += ok
            assert slots[rank] == (ok and canonical[rank] == rank)
            images = {"".join(board[p.index(d)] for d in range(9)) for p in perms}
            if rank % 17 == 0:  # the rules' canonical form is the kernels' one, for every image
                forms = {rules.canonical((image, mover)) for image in images}
                assert forms == {game.position(tier, int(canonical[rank]))}
            if slots[rank]:
                assert game.orbit_sizes(tier, np.array([rank])).tolist() == [len(images)]
        assert game.orbit_sizes(tier, np.flatnonzero(slots)).sum() == legal


@settings(max_examples=40)
@given(st.data())
def test_children_follow_the_rules_and_parents_invert_them(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([3, 4, 5]))
    game = TieredQuixo(n)
    rules = game.as_game()
    tier = data.draw(st.sampled_from(game.tiers()))
    size = game.tier_size(tier)
    start = data.draw(st.integers(0, size - 1))
    ranks = np.flatnonzero(game.slots(tier, start, min(start + 200, size))) + start
    if len(ranks) == 0:
        return
    ranks = ranks[:20]
    moves = game.children(tier, ranks)
    parents_indptr, parent_ranks = game.parents(tier, ranks)
    children_tiers = game.child_tiers(tier)
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(tier, rank)
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else int(outcome))
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        got = Counter(
            (tier if w == 0 else children_tiers[w - 1], int(r))
            for w, r in zip(moves.which[lo:hi].tolist(), moves.rank[lo:hi].tolist(), strict=True)
        )
        assert got == Counter(game.locate(child) for _, child in rules.moves(position))
        inner = moves.rank[lo:hi][moves.which[lo:hi] == 0]
        for child in set(inner.tolist()):  # this rank is a parent of each inner child
            assert rank in game.parents(tier, np.array([child]))[1].tolist()
        listed = parent_ranks[parents_indptr[i] : parents_indptr[i + 1]].tolist()
        for parent in listed:  # and each parent listed has a move to this rank
            assert game.slots(tier, parent, parent + 1)[0]
            back = game.children(tier, np.array([parent]))
            assert rank in back.rank[back.which == 0].tolist()


def test_3x3_tiers_solved_as_a_graph_equal_the_in_memory_solver(
    solved3: GameSolution[QuixoPosition],
) -> None:
    game = TieredQuixo(3)
    ids: dict[tuple[int, int], int] = {}
    for tier in game.tiers():
        for rank in np.flatnonzero(game.slots(tier, 0, game.tier_size(tier))).tolist():
            ids[(tier, rank)] = len(ids)
    primitive = np.full(len(ids), UNDECIDED, dtype=np.uint8)
    edges = []
    for tier in game.tiers():
        ranks = np.array([r for (t, r) in ids if t == tier], dtype=np.int64)
        moves = game.children(tier, ranks)
        targets = [tier, *game.child_tiers(tier)]
        for i, rank in enumerate(ranks.tolist()):
            primitive[ids[(tier, rank)]] = moves.primitive[i]
            for k in range(moves.indptr[i], moves.indptr[i + 1]):
                child = (targets[moves.which[k]], int(moves.rank[k]))
                edges.append((ids[(tier, rank)], ids[child]))
    src, dst = np.array(edges, dtype=np.int64).T
    tiered = solve_retrograde(GameGraph.from_edges(src, dst, len(ids)), primitive)
    solved = solved3
    assert len(solved) < len(ids)  # slots include legal boards no game reaches
    for pid in range(len(solved)):
        position = solved.position_of(pid)
        i = ids[game.locate(position)]
        assert tiered.value[i] == solved.solution.value[pid], position
        assert tiered.remoteness[i] == solved.solution.remoteness[pid], position


@pytest.mark.parametrize(("size", "samples"), [(3, 200), (4, 20)])
def test_the_engine_accepts_the_tiered_game(size: int, samples: int) -> None:
    check_tiered_game(TieredQuixo(size), samples=samples)


def test_3x3_engine_equals_the_in_memory_solver(solved3: GameSolution[QuixoPosition]) -> None:
    game = TieredQuixo(3)
    db = solve_tiers(game, progress=False)
    solved = solved3
    assert db.entry(*game.initial()).value is Value.WIN
    for pid in range(len(solved)):
        position = solved.position_of(pid)
        entry = db.entry(*game.locate(position))
        assert int(entry.value) == solved.solution.value[pid], position
        assert entry.remoteness == solved.solution.remoteness[pid], position


def test_command_line_solves_queries_and_refuses(tmp_path: Path) -> None:
    directory = tmp_path / "q3"
    solved = run_cli(["solve", "quixo", "--param", "size=3", "--tiers", str(directory)])
    assert solved.code == 0, solved.err
    assert "start: WIN in 7" in solved.out
    board = "X O -\n- X -\nO - -\nO to move"
    query = run_cli(["query", str(directory), board])
    assert query.code == 0 and "value: WIN in 5" in query.out
    too_big = run_cli(["solve", "quixo", "--param", "size=5", "--tiers", str(tmp_path / "q5")])
    assert too_big.code == 2 and "GiB of memory" in too_big.err
    assert len(too_big.err.strip().splitlines()) == 1 and not (tmp_path / "q5").exists()
    bad = run_cli(["solve", "quixo", "--param", "size=6"])
    assert bad.code == 2 and bad.err.strip().endswith("got 6")
