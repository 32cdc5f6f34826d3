"""Dobutsu Shogi: GamesmanOne's rules against an independent twin (the tier form: test_tiers.py)."""

from __future__ import annotations

import pytest
from brute import retrograde
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import played

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.dobutsu.rules import DobutsuPosition, DobutsuShogi, mirror, turn_over
from perfectplay.games.registry import load_game
from perfectplay.values import LOSE, UNDECIDED, Value

# ---------------------------------------------------------------- the twin
# Dobutsu Shogi once more on its own data layout: a dict from (row, col) to (player, animal),
# player 0 Forest (moving towards row 0) and 1 Sky, hands as lists of animals per player,
# moves as (from, to) with from a cell or ("drop", animal).
Grid = dict[tuple[int, int], tuple[int, str]]
STEPS = {  # (forward, sideways) offsets, forward towards the opponent
    "lion": {(f, s) for f in (-1, 0, 1) for s in (-1, 0, 1)} - {(0, 0)},
    "giraffe": {(1, 0), (-1, 0), (0, 1), (0, -1)},
    "elephant": {(1, 1), (1, -1), (-1, 1), (-1, -1)},
    "chick": {(1, 0)},
    "hen": {(1, 0), (1, 1), (1, -1), (0, 1), (0, -1), (-1, 0)},
}
LETTER = {"lion": "L", "giraffe": "G", "elephant": "E", "chick": "C", "hen": "H"}
ANIMAL = {v: k for k, v in LETTER.items()}


def to_twin(position: DobutsuPosition) -> tuple[Grid, list[list[str]], int]:
    board, hands, turn = position
    grid = {
        divmod(d, 3): (0 if p.isupper() else 1, ANIMAL[p.upper()])
        for d, p in enumerate(board)
        if p != "-"
    }
    held: list[list[str]] = [[], []]
    for p in hands:
        held[0 if p.isupper() else 1].append(ANIMAL[p.upper()])
    return grid, held, 0 if turn == "F" else 1


def twin_key(grid: Grid, held: list[list[str]], who: int) -> tuple[object, ...]:
    return (frozenset(grid.items()), tuple(sorted(held[0])), tuple(sorted(held[1])), who)


def twin_outcome(grid: Grid, who: int) -> int:
    lions = {p: cell for cell, (p, a) in grid.items() if a == "lion"}
    if len(lions) < 2:
        return LOSE
    for player, cell in lions.items():
        if cell[0] == (0 if player == 0 else 3):  # a lion on its far row: a try was made
            assert player != who
            caught = any(
                cell in twin_targets(grid, c, who) for c, (p, _) in grid.items() if p == who
            )
            return Value.WIN if caught else LOSE
    return UNDECIDED


def twin_targets(grid: Grid, cell: tuple[int, int], who: int) -> set[tuple[int, int]]:
    player, animal = grid[cell]
    forward = -1 if player == 0 else 1
    out = set()
    for f, s in STEPS[animal]:
        to = (cell[0] + f * forward, cell[1] + s)
        if 0 <= to[0] < 4 and 0 <= to[1] < 3 and grid.get(to, (1 - player, ""))[0] != player:
            out.add(to)
    return out


def twin_moves(
    grid: Grid, held: list[list[str]], who: int
) -> dict[tuple[object, tuple[int, int]], tuple[Grid, list[list[str]]]]:
    out: dict[tuple[object, tuple[int, int]], tuple[Grid, list[list[str]]]] = {}
    if twin_outcome(grid, who) != UNDECIDED:
        return out
    for cell, (player, animal) in grid.items():
        if player != who:
            continue
        for to in twin_targets(grid, cell, who):
            after = dict(grid)
            hands = [list(held[0]), list(held[1])]
            if to in after and after[to][1] != "lion":
                taken = after[to][1]
                hands[who].append("chick" if taken == "hen" else taken)
            del after[cell]
            far = 0 if who == 0 else 3
            after[to] = (who, "hen" if animal == "chick" and to[0] == far else animal)
            out[(cell, to)] = (after, hands)
    for animal in set(held[who]):
        for r in range(4):
            for c in range(3):
                if (r, c) not in grid:
                    hands = [list(held[0]), list(held[1])]
                    hands[who].remove(animal)
                    out[(("drop", animal), (r, c))] = ({**grid, (r, c): (who, animal)}, hands)
    return out


def from_label(label: str) -> tuple[object, tuple[int, int]]:
    source, _, dest = label.partition("-")
    to = divmod(int(dest) - 1, 3)
    if source.isalpha():
        return ("drop", ANIMAL[source.upper()]), to
    return divmod(int(source) - 1, 3), to


def twin_solve(game: DobutsuShogi) -> dict[tuple[object, ...], str]:
    """Every position reachable from the start, no symmetry, solved by brute.retrograde."""
    grid, held, who = to_twin(game.initial())
    start = twin_key(grid, held, who)
    states = {start: (grid, held, who)}
    ids = {start: 0}
    todo = [start]
    edges, primitive = [], [twin_outcome(grid, who)]
    while todo:
        key = todo.pop()
        grid, held, who = states[key]
        for after, hands in twin_moves(grid, held, who).values():
            child = twin_key(after, hands, 1 - who)
            if child not in ids:
                ids[child] = len(ids)
                states[child] = (after, hands, 1 - who)
                primitive.append(twin_outcome(after, 1 - who))
                todo.append(child)
            edges.append((ids[key], ids[child]))
    values, _ = retrograde(len(ids), edges, primitive)
    return {key: Value(values[i]).name for key, i in ids.items()}


GAMES = [DobutsuShogi(), DobutsuShogi(1, 1, 1), DobutsuShogi(0, 0, 2)]


# ---------------------------------------------------------------- the rules
@settings(max_examples=300)
@given(st.sampled_from(range(len(GAMES))), st.lists(st.integers(0, 60), max_size=40))
def test_rules_match_the_independent_twin(which: int, choices: list[int]) -> None:
    game = GAMES[which]
    position = played(game, choices)
    grid, held, who = to_twin(position)
    outcome = game.outcome(position)
    assert (UNDECIDED if outcome is None else int(outcome)) == twin_outcome(grid, who)
    moves = game.moves(position)
    assert len({label for label, _ in moves}) == len(moves)
    got = {}
    for label, child in moves:
        after, hands, other = to_twin(child)
        assert other == 1 - who
        got[from_label(label)] = (after, [sorted(h) for h in hands])
    want = {k: (g, [sorted(h) for h in hs]) for k, (g, hs) in twin_moves(grid, held, who).items()}
    assert got == want


def test_rules_by_example() -> None:
    game = DobutsuShogi()
    start = game.initial()
    assert game.notation(start) == "gle/-c-/-C-/ELG F -"
    # GamesmanOne's order: by cell, each to its cells in increasing order
    assert [label for label, _ in game.moves(start)] == ["8-5", "11-7", "11-9", "12-9"]
    took = dict(game.moves(start))["8-5"]
    assert game.notation(took) == "gle/-C-/---/ELG S C"
    # Sky takes back with its lion and holds a chick; then drops are listed after the steps
    back = dict(game.moves(took))["2-5"]
    assert game.notation(back) == "g-e/-l-/---/ELG F Cc"
    labels = [label for label, _ in game.moves(back)]
    assert labels[-1] == "c-9" and labels.count("c-2") == 1
    # a chick reaching the far row promotes; a captured hen goes to hand as a chick
    promote = game.parse("g-e/Cl-/---/ELG F c")
    assert game.notation(dict(game.moves(promote))["4-1"]) == "H-e/-l-/---/ELG S Gc"
    small = DobutsuShogi(0, 1, 2)
    hen = small.parse("-l-/-h-/---/EL- F C")
    assert dict(small.moves(hen))["c-1"][0][0] == "C"  # dropped on the far row: still a chick
    assert game.notation(dict(game.moves(game.parse("g-e/-l-/-H-/ELG S c")))["5-8"]) == (
        "g-e/---/-l-/ELG F cc"  # a hen taken goes to the hand as a chick
    )


def test_tries_and_caught_lions() -> None:
    game = DobutsuShogi(0, 0, 0)
    safe = game.parse("L--/---/--l/--- S -")  # Forest's lion on the far row, out of reach
    assert game.outcome(safe) is Value.LOSE and game.moves(safe) == []
    caught = game.parse("Ll-/---/---/--- S -")  # Sky's lion steps onto it: a try into check
    assert game.outcome(caught) is Value.WIN and game.moves(caught) == []
    gone = game.parse("-L-/---/---/--- S -")
    assert game.outcome(gone) is Value.LOSE
    before = game.parse("---/Ll-/---/--- F -")
    moves = dict(game.moves(before))
    assert game.notation(moves["4-5"]) == "---/-L-/---/--- S -"  # the lion caught
    assert game.outcome(moves["4-1"]) is Value.WIN  # a try Sky's lion catches


def test_reduced_game_values_match_the_twin() -> None:
    """One chick only (Sky's) and two chicks: every position reachable, both solvers."""
    for game in (DobutsuShogi(0, 0, 1), DobutsuShogi(0, 0, 2)):
        expected = twin_solve(game)
        solved = solve(game)
        for (cells, forest, sky, who), name in expected.items():
            board = ["-"] * 12
            for (r, c), (player, animal) in cells:  # type: ignore[attr-defined]
                board[r * 3 + c] = LETTER[animal] if player == 0 else LETTER[animal].lower()
            hands = "".join(LETTER[a] for a in forest) + "".join(LETTER[a].lower() for a in sky)
            position = ("".join(board), "".join(sorted(hands, key="GECgec".index)), "FS"[who])
            assert solved.value(position).name == name, position


def test_game_conforms_to_the_protocol() -> None:
    assert check_game(DobutsuShogi(1, 0, 1), max_positions=100_000) == []


@given(st.lists(st.integers(0, 60), max_size=30))
def test_text_codes_and_symmetries_round_trip(choices: list[int]) -> None:
    game = DobutsuShogi()
    position = played(game, choices)
    assert game.parse(game.notation(position)) == position
    assert game.parse(game.render(position)) == position
    assert game.decode(game.encode(position)) == position
    assert turn_over(turn_over(position)) == position
    assert game.canonical(turn_over(position)) == game.canonical(position)
    board, hands, turn = position
    assert game.canonical((mirror(board), hands, turn)) == game.canonical(position)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("gle/-c-/-C- F -", "4 rows of 3 cells"),
        ("gle/-c-/-C-/ELG X -", "4 rows of 3 cells"),
        ("gle/-x-/-C-/ELG F -", "cells are - or one of"),
        ("gle/-c-/-C-/ELG F C", "3 pieces of kind C"),
        ("g-e/-c-/-C-/ELG F -", "one lion"),
        ("lLe/gc-/-C-/E-G F -", "far row"),
    ],
)
def test_bad_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        DobutsuShogi().parse(text)


@pytest.mark.parametrize("value", [-1, 3, "2", True])
def test_bad_parameters_are_refused(value: object) -> None:
    with pytest.raises(GameDefinitionError, match="dobutsu needs chicks"):
        DobutsuShogi(2, 2, value)  # type: ignore[arg-type]


def test_registered() -> None:
    game = load_game("dobutsu-shogi", chicks=1)
    assert game.info.params == {"giraffes": 2, "elephants": 2, "chicks": 1}
    assert game.notation(game.initial()) == "gle/-c-/---/ELG F -"  # one chick: Sky's
