"""Teeko: GamesmanOne's rules against an independent twin; the tier form against the rules and
the in-memory solver on reduced boards."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from brute import retrograde
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import check_game, solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.registry import load_game, load_tiered_game
from perfectplay.games.teeko import _tier_kernels as kernels
from perfectplay.games.teeko.rules import Teeko, TeekoPosition, symmetries
from perfectplay.games.teeko.tiers import TieredTeeko
from perfectplay.tiers import solve_tiers
from perfectplay.values import DRAW, LOSE, UNDECIDED, Value

# ---------------------------------------------------------------- the twin
# Teeko once more on its own data layout: a dict from (row, col) to "X"/"O", patterns found by
# walking each direction from each piece, moves as (kind, cells) records.
Grid = dict[tuple[int, int], str]


def twin_won(grid: Grid, who: str, n: int, k: int) -> bool:
    mine = {cell for cell, s in grid.items() if s == who}
    if len(mine) != k:
        return False
    for r, c in mine:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all((r + i * dr, c + i * dc) in mine for i in range(k)):
                return True
    if k == 4:
        r, c = min(mine)
        return mine == {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}
    return False


def twin_moves(grid: Grid, who: str, n: int, k: int) -> dict[tuple[tuple[int, int], ...], Grid]:
    """Each move, keyed by (cell,) for a drop or (from, to) for a slide, and the grid after."""
    out: dict[tuple[tuple[int, int], ...], Grid] = {}
    if twin_won(grid, "X", n, k) or twin_won(grid, "O", n, k):
        return out
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in grid]
    if len(grid) < 2 * k:
        for cell in free:
            out[(cell,)] = {**grid, cell: who}
        return out
    for (r, c), s in grid.items():
        if s != who:
            continue
        for to in free:
            if max(abs(to[0] - r), abs(to[1] - c)) == 1:
                after = dict(grid)
                del after[(r, c)]
                after[to] = who
                out[((r, c), to)] = after
    return out


def to_grid(board: str, n: int) -> Grid:
    return {divmod(d, n): s for d, s in enumerate(board) if s != "-"}


def from_label(label: str, n: int) -> tuple[tuple[int, int], ...]:
    return tuple(divmod(int(part) - 1, n) for part in label.split("-"))


def twin_solve(n: int, k: int) -> dict[tuple[frozenset[tuple[tuple[int, int], str]], str], str]:
    """Every position reachable from the start, no symmetry, solved by brute.retrograde."""
    start: tuple[frozenset[tuple[tuple[int, int], str]], str] = (frozenset(), "X")
    ids = {start: 0}
    todo = [start]
    edges, primitive = [], [UNDECIDED]
    while todo:
        key = todo.pop()
        grid, who = dict(key[0]), key[1]
        if twin_won(grid, "X", n, k) or twin_won(grid, "O", n, k):
            primitive[ids[key]] = LOSE
        for after in twin_moves(grid, who, n, k).values():
            child = (frozenset(after.items()), "O" if who == "X" else "X")
            if child not in ids:
                ids[child] = len(ids)
                primitive.append(UNDECIDED)
                todo.append(child)
            edges.append((ids[key], ids[child]))
    values, _ = retrograde(len(ids), edges, primitive)
    return {key: Value(values[i]).name for key, i in ids.items()}


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, TeekoPosition]:
    n = draw(st.sampled_from([3, 4, 5]))
    k = draw(st.integers(3, n))
    placed = draw(st.integers(0, 2 * k))
    cells = draw(st.permutations(range(n * n)))
    nx, no = (placed + 1) // 2, placed // 2
    board = ["-"] * (n * n)
    for i, d in enumerate(cells[: nx + no]):
        board[d] = "X" if i < nx else "O"
    turn = "X" if nx == no and (placed < 2 * k or draw(st.booleans())) else "O"
    if placed == 2 * k:
        turn = draw(st.sampled_from("XO"))
    return n, k, ("".join(board), turn)


# ---------------------------------------------------------------- the rules
@settings(max_examples=400)
@given(positions())
def test_rules_match_the_independent_twin(case: tuple[int, int, TeekoPosition]) -> None:
    n, k, (board, turn) = case
    game = Teeko(n, k)
    grid = to_grid(board, n)
    over = twin_won(grid, "X", n, k) or twin_won(grid, "O", n, k)
    assert game.outcome((board, turn)) == (Value.LOSE if over else None)
    moves = game.moves((board, turn))
    assert len({label for label, _ in moves}) == len(moves)
    got = {}
    for label, (child, after) in moves:
        got[from_label(label, n)] = to_grid(child, n)
        assert after == ("O" if turn == "X" else "X")
    assert got == twin_moves(grid, turn, n, k)


def test_rules_by_example() -> None:
    game = Teeko()
    start = game.initial()
    assert [label for label, _ in game.moves(start)] == [str(d) for d in range(1, 26)]
    board = "XO---" "-----" "--X--" "-----" "----O"  # fmt: skip
    assert [label for label, _ in game.moves((board, "O"))][:3] == ["3", "4", "5"]
    full = "XO---" "XO---" "OX---" "OX---" "-----"  # fmt: skip
    labels = [label for label, _ in game.moves((full, "X"))]
    assert labels == ["12-8", "12-13", "12-18", "17-13", "17-18", "17-21", "17-22", "17-23"]
    after = "XO---" "XOX--" "O----" "OX---" "-----"  # fmt: skip
    assert game.moves((full, "X"))[0][1] == (after, "O")
    square = "XX---" "XX---" "OOO--" "-----" "----O"  # fmt: skip
    assert game.outcome((square, "O")) is Value.LOSE and game.moves((square, "O")) == []
    line = "X----" "-X---" "--X--" "---X-" "OOO-O"  # fmt: skip
    assert game.outcome((line, "X")) is Value.LOSE  # a diagonal; the X to move has it too
    wide = "X-X--" "-----" "X-X--" "OOO--" "O----"  # fmt: skip
    assert game.outcome((wide, "O")) is None  # a 3x3 square counts only in the advanced rules
    assert Teeko(4, 3).outcome(("XXX-" "OO--" "----" "----", "O")) is Value.LOSE  # fmt: skip
    assert Teeko(4, 3).outcome(("XX-X" "OO--" "----" "----", "O")) is None  # fmt: skip


def test_reduced_board_values_match_the_twin() -> None:
    """3x3 with 3 pieces, every position reachable (the twin's sweeps are too slow for 4x4)."""
    size, pieces = 3, 3
    expected = twin_solve(size, pieces)
    solved = solve(Teeko(size, pieces))
    for (cells, who), name in expected.items():
        board = ["-"] * (size * size)
        for (r, c), s in cells:
            board[r * size + c] = s
        assert solved.value(("".join(board), who)).name == name


def test_game_conforms_to_the_protocol() -> None:
    assert check_game(Teeko(4, 3), max_positions=2_000) == []


def test_render_parse_and_codes_round_trip() -> None:
    game = Teeko()
    position = ("X----" "-O---" "--X--" "-----" "-----", "O")  # fmt: skip
    assert game.render(position).splitlines()[0] == "X - - - -"
    assert game.parse(game.render(position)) == position
    assert game.parse(game.notation(position)) == position
    assert game.decode(game.encode(position)) == position
    with pytest.raises(InputFormatError, match="5 lines of 5 cells"):
        game.parse("X O -\nO to move")
    with pytest.raises(InputFormatError, match="2 X and 1 O pieces with X to move"):
        game.parse("X----/-O---/--X--/-----/----- X")


def test_canonical_swaps_colours_in_the_moving_phase_only() -> None:
    game = Teeko(4, 3)
    moving = ("XXO-" "XO--" "O---" "----", "O")  # fmt: skip
    assert game.canonical(moving)[1] == "X"
    assert game.canonical(moving) == game.canonical(("OOX-" "OX--" "X---" "----", "X"))  # fmt: skip
    drop = ("XX--" "O---" "----" "----", "O")  # fmt: skip
    assert game.canonical(drop)[1] == "O"


@pytest.mark.parametrize(("size", "pieces"), [(2, 3), (6, 4), (4, 5), (5, 2), ("5", 4)])
def test_bad_parameters_are_refused(size: object, pieces: object) -> None:
    with pytest.raises(GameDefinitionError, match="teeko needs"):
        Teeko(size, pieces)  # type: ignore[arg-type]
    with pytest.raises(GameDefinitionError, match="teeko needs"):
        TieredTeeko(size, pieces)  # type: ignore[arg-type]


def test_registered() -> None:
    assert load_game("teeko", size=4, pieces=3).info.params == {"size": 4, "pieces": 3}
    tiered = load_tiered_game("teeko")
    assert isinstance(tiered, TieredTeeko) and (tiered.size, tiered.pieces) == (5, 4)


# ---------------------------------------------------------------- the tier form
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
    perms = symmetries(4)
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
    rules = game.as_game()
    tier = data.draw(st.sampled_from(game.tiers()))
    size = game.tier_size(tier)
    start = data.draw(st.integers(0, size - 1))
    ranks = (np.flatnonzero(game.slots(tier, start, min(start + 400, size))) + start)[:20]
    moves = game.children(tier, ranks)
    targets = [tier, *game.child_tiers(tier)]
    for i, rank in enumerate(ranks.tolist()):
        position = game.position(tier, rank)
        outcome = rules.outcome(position)
        assert moves.primitive[i] == (UNDECIDED if outcome is None else int(outcome))
        lo, hi = moves.indptr[i], moves.indptr[i + 1]
        got = Counter(
            (targets[w], int(r))
            for w, r in zip(moves.which[lo:hi].tolist(), moves.rank[lo:hi].tolist(), strict=True)
        )
        assert got == Counter(game.locate(child) for _, child in rules.moves(position))
        if tier != game.moving:
            continue
        for child in set(moves.rank[lo:hi].tolist()):  # this rank is a parent of each child
            assert rank in game.parents(tier, np.array([child]))[1].tolist()
        _, listed = game.parents(tier, np.array([rank]))
        for parent in listed.tolist():  # and each parent listed has a move to this rank
            assert game.slots(tier, parent, parent + 1)[0]
            assert rank in game.children(tier, np.array([parent])).rank.tolist()


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
