"""Teeko: GamesmanOne's rules against an independent twin (the tier form: test_tiers.py)."""

from __future__ import annotations

import pytest
from brute import retrograde
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.registry import load_game
from perfectplay.games.teeko.rules import Teeko, TeekoPosition
from perfectplay.values import LOSE, UNDECIDED, Value

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


def test_registered() -> None:
    assert load_game("teeko", size=4, pieces=3).info.params == {"size": 4, "pieces": 3}
