"""Gobblet Gobblers: GamesmanOne's rules against an independent twin (the tier form:
test_tiers.py)."""

from __future__ import annotations

import pytest
from brute import retrograde
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.gobblet.rules import GobbletGobblers, GobbletPosition
from perfectplay.games.registry import load_game
from perfectplay.values import LOSE, UNDECIDED, WIN, Value

# ---------------------------------------------------------------- the twin
# The game once more on its own data layout: a frozenset of pieces (row, col, size, owner),
# size 0..2, owner 0 for X and 1 for O; lines found by walking rows, columns and diagonals.
Piece = tuple[int, int, int, int]
Board = frozenset[Piece]


def twin_top(board: Board, r: int, c: int) -> Piece | None:
    here = [p for p in board if p[:2] == (r, c)]
    return max(here, key=lambda p: p[2]) if here else None


def twin_liners(board: Board) -> set[int]:
    owners: set[int] = set()
    tops = {(r, c): twin_top(board, r, c) for r in range(3) for c in range(3)}
    walks = [[(r, c) for c in range(3)] for r in range(3)]
    walks += [[(r, c) for r in range(3)] for c in range(3)]
    walks += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    for walk in walks:
        seen = {tops[cell][3] if tops[cell] else None for cell in walk}
        if len(seen) == 1 and None not in seen:
            owners |= seen  # type: ignore[arg-type]
    return owners


def twin_value(board: Board, who: int) -> int:
    liners = twin_liners(board)
    return WIN if who in liners else LOSE if liners else UNDECIDED


def twin_moves(board: Board, who: int, sizes: int, pieces: int) -> dict[str, Board]:
    """Each move keyed by its label, and the board after it (no moves where the game is over)."""
    if twin_value(board, who) != UNDECIDED:
        return {}
    out: dict[str, Board] = {}

    def room(r: int, c: int, size: int) -> bool:
        top = twin_top(board, r, c)
        return top is None or top[2] < size

    for size in range(sizes):
        if sum(1 for p in board if p[2:] == (size, who)) < pieces:
            for r in range(3):
                for c in range(3):
                    if room(r, c, size):
                        out[f"{'SML'[size]}{'abc'[c]}{r + 1}"] = board | {(r, c, size, who)}
    for piece in sorted(board):
        r, c, size, owner = piece
        if owner != who or twin_top(board, r, c) != piece:
            continue
        for r2 in range(3):
            for c2 in range(3):
                if (r2, c2) != (r, c) and room(r2, c2, size):
                    label = f"{'abc'[c]}{r + 1}-{'abc'[c2]}{r2 + 1}"
                    out[label] = (board - {piece}) | {(r2, c2, size, who)}
    return out


def to_board(position: GobbletPosition) -> Board:
    cells, _ = position
    return frozenset(
        (d // 3, d % 3, "SML".index(p.upper()), 0 if p.isupper() else 1)
        for d, stack in enumerate(cells)
        for p in stack
    )


def twin_solve(sizes: int, pieces: int) -> dict[tuple[Board, int], tuple[int, int]]:
    """Every position reachable from the start, no symmetry, solved by brute.retrograde."""
    start: tuple[Board, int] = (frozenset(), 0)
    ids = {start: 0}
    todo = [start]
    edges, primitive = [], [UNDECIDED]
    while todo:
        key = todo.pop()
        board, who = key
        primitive[ids[key]] = twin_value(board, who)
        for after in twin_moves(board, who, sizes, pieces).values():
            child = (after, 1 - who)
            if child not in ids:
                ids[child] = len(ids)
                primitive.append(UNDECIDED)
                todo.append(child)
            edges.append((ids[key], ids[child]))
    value, remoteness = retrograde(len(ids), edges, primitive)
    return {key: (value[i], remoteness[i]) for key, i in ids.items()}


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize(("sizes", "pieces"), [(0, 2), (4, 2), (3, 0), (3, 4), ("3", 2)])
def test_bad_parameters_are_refused(sizes: object, pieces: object) -> None:
    with pytest.raises(GameDefinitionError, match="gobblet-gobblers needs"):
        GobbletGobblers(sizes, pieces)  # type: ignore[arg-type]


def test_registered_with_gamesmanone_s_bound() -> None:
    game = load_game("gobblet")
    assert isinstance(game, GobbletGobblers) and (game.sizes, game.pieces) == (3, 2)
    assert game.position_bound() == 5_762_947_934  # GamesmanOne's hash values, 729 tiers


@settings(max_examples=150)
@given(st.sampled_from([(3, 2), (2, 2), (1, 3), (3, 1)]), st.lists(st.integers(0, 80), max_size=40))
def test_moves_and_outcomes_match_the_twin(shape: tuple[int, int], choices: list[int]) -> None:
    game = GobbletGobblers(*shape)
    position = game.initial()
    for k in [*choices, 0]:
        turn = position[1]
        who = "XO".index(turn)
        board = to_board(position)
        outcome = game.outcome(position)
        assert (UNDECIDED if outcome is None else int(outcome)) == twin_value(board, who)
        moves = game.moves(position)
        expected = twin_moves(board, who, *shape)
        assert {label: to_board(after) for label, after in moves} == expected
        assert all(after[1] != turn for _, after in moves)
        assert game.parse(game.notation(position)) == position == game.parse(game.render(position))
        assert game.decode(game.encode(position)) == position
        canonical = game.canonical(position)
        assert game.canonical(canonical) == canonical and canonical[1] == "X"
        if not moves:
            break
        position = moves[k % len(moves)][1]


@pytest.mark.parametrize(("sizes", "pieces"), [(1, 3), (2, 1)])
def test_every_reachable_position_matches_the_twin(sizes: int, pieces: int) -> None:
    game = GobbletGobblers(sizes, pieces)
    twin = twin_solve(sizes, pieces)
    solved = solve(game)
    for (board, who), (value, remoteness) in twin.items():
        cells = [""] * 9
        for r, c, size, owner in sorted(board, key=lambda p: p[2]):
            cells[3 * r + c] += "SML"[size] if owner == 0 else "sml"[size]
        position = (tuple(cells), "XO"[who])
        assert (int(solved.value(position)), solved.remoteness(position)) == (value, remoteness)


def test_uncovering_the_opponent_s_line_loses_even_with_a_line_of_one_s_own() -> None:
    game = GobbletGobblers()
    # X's large on a1 covers O's small; O has b1 and c1 on the top row.
    position = game.parse("sL,m,s/M,-,-/-,-,- X")
    assert game.outcome(position) is None
    uncovered = dict(game.moves(position))["a1-b2"]  # lifting the large shows O's row
    assert game.outcome(uncovered) is Value.WIN  # O, to move, has the line
    both = game.parse("s,m,s/L,-,-/L,M,M O")  # X's bottom row and O's top row
    assert game.winner_lines(both[0]) == {"X", "O"}
    assert game.outcome(both) is Value.WIN  # the player to move's line counts first
    assert game.outcome((both[0], "X")) is Value.WIN


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-,-,-/-,-,-/-,-,- Z", "3 rows of 3 stacks"),
        ("-,-,-/-,-,-/-,- X", "3 rows of 3 stacks"),
        ("Ls,-,-/-,-,-/-,-,- X", "cell a1 holds 'Ls'"),
        ("SS,-,-/-,-,-/-,-,- X", "cell a1 holds 'SS'"),
        ("-,Q,-/-,-,-/-,-,- X", "cell b1 holds 'Q'"),
        ("S,S,S/-,-,-/-,-,- X", "X has more than 2 pieces of one size"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        GobbletGobblers().parse(text)


def test_the_smaller_variants_know_only_their_sizes() -> None:
    game = GobbletGobblers(sizes=2, pieces=1)
    with pytest.raises(InputFormatError, match="cell a1 holds 'L'"):
        game.parse("L,-,-/-,-,-/-,-,- X")
    assert [label for label, _ in game.moves(game.initial())][-1] == "Mc3"


@pytest.mark.parametrize(("sizes", "pieces", "limit"), [(1, 3, 10**6), (2, 1, 10**6), (3, 1, 1)])
def test_check_game_is_clean(sizes: int, pieces: int, limit: int) -> None:
    assert check_game(GobbletGobblers(sizes, pieces), max_positions=limit) == []
