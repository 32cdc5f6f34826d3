"""The Morris rules (perfectplay.games.mills.rules) against an independent twin."""

from __future__ import annotations

import itertools

import pytest
from brute import retrograde
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import played

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.mills.rules import Mills, MillsPosition
from perfectplay.games.registry import load_game
from perfectplay.values import LOSE, UNDECIDED, Value

# ---------------------------------------------------------------- the twin
# The boards written out by hand as their drawn lines (point names in order along each line);
# mills are the lines of three, neighbours the points next to each other on a line.
LINES = {
    "nine": "a1 d1 g1|b2 d2 f2|c3 d3 e3|a4 b4 c4|e4 f4 g4|c5 d5 e5|b6 d6 f6|a7 d7 g7|"
    "a1 a4 a7|b2 b4 b6|c3 c4 c5|d1 d2 d3|d5 d6 d7|e3 e4 e5|f2 f4 f6|g1 g4 g7",
    "six": "a1 c1 e1|b2 c2 d2|b4 c4 d4|a5 c5 e5|a1 a3 a5|b2 b3 b4|d2 d3 d4|e1 e3 e5|"
    "c1 c2|a3 b3|d3 e3|c4 c5",
    "three": "a1 b1 c1|a2 b2 c2|a3 b3 c3|a1 a2 a3|b1 b2 b3|c1 c2 c3",
}
LINES["morabaraba"] = LINES["nine"] + "|a1 b2 c3|g1 f2 e3|a7 b6 c5|g7 f6 e5"
RULES = {  # variant: (board, stones, jumps, lasker)
    "nine": ("nine", 9, True, False),
    "lasker": ("nine", 10, True, True),
    "morabaraba": ("morabaraba", 12, True, False),
    "six": ("six", 6, False, False),
    "three": ("three", 3, False, False),
}

Stones = dict[str, str]  # point name -> "W" or "B"
TwinPosition = tuple[frozenset[tuple[str, str]], str, int, int]


def twin_board(board: str) -> tuple[list[tuple[str, ...]], dict[str, set[str]], list[str]]:
    """Mills, neighbours and the point order (by rank, then file) of `board`."""
    lines = [tuple(line.split()) for line in LINES[board].split("|")]
    mills = [line for line in lines if len(line) == 3]
    near: dict[str, set[str]] = {}
    for line in lines:
        for a, b in itertools.pairwise(line):
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    order = sorted(near, key=lambda p: (int(p[1:]), p[0]))
    return mills, near, order


def twin_moves(variant: str, stones: Stones, turn: str, hands: dict[str, int]) -> dict[str, Stones]:
    """Each legal move named as the literature names it, and the stones after it."""
    board, _, jumps, lasker = RULES[variant]
    mills, near, order = twin_board(board)
    other = "B" if turn == "W" else "W"
    if sum(1 for s in stones.values() if s == turn) + hands[turn] < 3:
        return {}
    mine = [p for p in order if stones.get(p) == turn]
    empty = [p for p in order if p not in stones]
    steps: list[tuple[str, str, Stones]] = []
    if hands[turn] > 0:
        steps += [(p, p, {**stones, p: turn}) for p in empty]
    if hands[turn] == 0 or lasker:
        fly = jumps and hands[turn] == 0 and len(mine) == 3
        for p in mine:
            for q in empty if fly else [q for q in order if q in near[p] and q not in stones]:
                after = {k: v for k, v in stones.items() if k != p}
                after[q] = turn
                steps.append((f"{p}-{q}", q, after))
    out = {}
    for label, arrived, after in steps:

        def in_mill(point: str, grid: Stones) -> bool:
            return any(point in m and all(grid.get(q) == grid[point] for q in m) for m in mills)

        theirs = [p for p in order if after.get(p) == other]
        if not theirs or not in_mill(arrived, after):
            out[label] = after
            continue
        loose = [p for p in theirs if not in_mill(p, after)] or theirs
        for p in loose:
            out[f"{label}x{p}"] = {k: v for k, v in after.items() if k != p}
    return out


def to_stones(game: Mills, board: str) -> Stones:
    return {game.board.points[d]: c for d, c in enumerate(board) if c != "-"}


def twin_solve(variant: str) -> dict[TwinPosition, str]:
    """Every position reachable from the start, no symmetry, solved by brute.retrograde."""
    stones_each = RULES[variant][1]
    start: TwinPosition = (frozenset(), "W", stones_each, stones_each)
    ids = {start: 0}
    todo = [start]
    edges, primitive = [], [UNDECIDED]
    while todo:
        key = todo.pop()
        stones, turn, wf, bf = dict(key[0]), key[1], key[2], key[3]
        hands = {"W": wf, "B": bf}
        if sum(1 for s in stones.values() if s == turn) + hands[turn] < 3:
            primitive[ids[key]] = LOSE
        for label, after in twin_moves(variant, stones, turn, hands).items():
            placed = "-" not in label.split("x")[0]
            child = (
                frozenset(after.items()),
                "B" if turn == "W" else "W",
                wf - (placed and turn == "W"),
                bf - (placed and turn == "B"),
            )
            if child not in ids:
                ids[child] = len(ids)
                primitive.append(UNDECIDED)
                todo.append(child)
            edges.append((ids[key], ids[child]))
    values, _ = retrograde(len(ids), edges, primitive)
    return {key: Value(values[i]).name for key, i in ids.items()}


@st.composite
def positions(draw: st.DrawFn) -> tuple[Mills, MillsPosition]:
    """A position of some variant reached by random play (placements, moves, removals)."""
    name = draw(st.sampled_from(sorted(RULES)))
    stones = draw(st.sampled_from([0, 3, 4]))
    game = Mills(name, stones)
    choices = draw(st.lists(st.integers(0, 500), max_size=40))
    return game, played(game, choices)


# ---------------------------------------------------------------- the rules
@settings(max_examples=300)
@given(positions())
def test_rules_match_the_independent_twin(case: tuple[Mills, MillsPosition]) -> None:
    game, (board, turn, wf, bf) = case
    hands = {"W": wf, "B": bf}
    stones = to_stones(game, board)
    expected = twin_moves(game.variant.name, stones, turn, hands)
    moves = game.moves((board, turn, wf, bf))
    assert len({label for label, _ in moves}) == len(moves)
    got = {}
    for label, (child, after, cw, cb) in moves:
        got[label] = to_stones(game, child)
        assert after == ("B" if turn == "W" else "W")
        placed = "-" not in label.split("x")[0]
        assert (cw, cb) == (wf - (placed and turn == "W"), bf - (placed and turn == "B"))
    assert got == expected
    lost = sum(1 for s in stones.values() if s == turn) + hands[turn] < 3
    assert game.outcome((board, turn, wf, bf)) == (Value.LOSE if lost else None)


def place(game: Mills, stones: Stones) -> str:
    """The board string with `stones` (point name -> colour) on it."""
    return "".join(stones.get(p, "-") for p in game.board.points)


def labels(game: Mills, position: MillsPosition) -> list[str]:
    return [label for label, _ in game.moves(position)]


def test_a_mill_removes_a_stone_in_no_mill_unless_all_are() -> None:
    game = Mills()
    assert labels(game, game.parse("WW------B-B------------- W 1 1"))[:3] == [
        "g1xe3",
        "g1xb4",
        "b2",
    ]
    black = {p: "B" for p in ("c3", "d3", "e3", "a7", "d7", "g7")}
    all_in = (place(game, {"a1": "W", "d1": "W", **black}), "W", 1, 1)
    assert {m for m in labels(game, all_in) if m.startswith("g1")} == {f"g1x{p}" for p in black}
    one_out = (place(game, {"a1": "W", "d1": "W", "b6": "B", **black}), "W", 1, 1)
    assert [m for m in labels(game, one_out) if m.startswith("g1")] == ["g1xb6"]


def test_stones_slide_to_neighbours_and_three_jump() -> None:
    game = Mills()
    black = {"d2": "B", "c3": "B", "f6": "B"}
    white = {"a1": "W", "e4": "W", "b6": "W"}
    assert len(labels(game, (place(game, {**white, **black}), "W", 0, 0))) == 3 * 18
    slides = labels(game, (place(game, {**white, "g1": "W", **black}), "W", 0, 0))
    assert slides == ["a1-d1", "a1-a4", "g1-d1", "g1-g4", "e4-e3", "e4-f4", "e4-e5",
                      "b6-b4", "b6-d6"]  # fmt: skip
    assert labels(Mills("six", 3), ("W-W-B----B----BW", "W", 0, 0))[0] == "a1-c1"  # no jump


def test_a_player_without_a_move_has_lost() -> None:
    game = Mills()
    blocked = {"a1": "B", "g1": "B", "a7": "B", "g7": "B"}
    blocked |= {"d1": "W", "a4": "W", "g4": "W", "d7": "W"}
    position = (place(game, blocked), "B", 0, 0)
    assert game.outcome(position) is None and game.moves(position) == []


def test_two_mills_at_once_remove_one_stone() -> None:
    game = Mills()
    white = {"d1": "W", "g1": "W", "a4": "W", "a7": "W"}
    black = {"d2": "B", "c3": "B", "d5": "B", "f6": "B"}
    position = (place(game, {**white, **black}), "W", 1, 1)
    assert [m for m in labels(game, position) if m.startswith("a1")] == [
        "a1xd2", "a1xc3", "a1xd5", "a1xf6"
    ]  # fmt: skip


def test_a_mill_with_nothing_to_remove_is_a_plain_move() -> None:
    game = Mills("lasker")
    position = ("WW" + "-" * 22, "W", 5, 3)  # Black has no stone on the board
    assert "g1" in labels(game, position) and "a1-a4" in labels(game, position)
    assert labels(Mills(), position)[:3] == ["g1", "b2", "d2"]  # no moves while placing


def test_three_mens_morris_matches_the_twin() -> None:
    expected = twin_solve("three")
    game = Mills("three")
    solved = solve(game)
    assert solved.value(game.initial()) is Value.DRAW
    for (stones, turn, wf, bf), name in expected.items():
        board = "".join(dict(stones).get(p, "-") for p in game.board.points)
        assert solved.value((board, turn, wf, bf)).name == name


def test_games_conform_to_the_protocol() -> None:
    assert check_game(Mills("three")) == []
    assert check_game(Mills("six", 3), max_positions=20_000) == []


@given(positions())
def test_notation_render_and_codes_round_trip(case: tuple[Mills, MillsPosition]) -> None:
    game, position = case
    assert game.parse(game.notation(position)) == position
    assert game.parse(game.render(position)) == position
    assert game.decode(game.encode(position)) == position
    canonical = game.canonical(position)
    assert canonical[1] == "W" and game.canonical(canonical) == canonical


def test_render_draws_the_board_with_coordinates() -> None:
    game = Mills()
    picture = game.render(game.parse("W" + "-" * 22 + "B B 8 8")).splitlines()
    assert picture[0] == "7 .-----.-----B" and picture[6] == "1 W-----.-----."
    assert picture[7] == "  a b c d e f g" and picture[8] == "B to move, in hand: W 8, B 8"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("WW W 9 9", "expected 24 points"),
        ("- W 9", "expected a morris position"),
        ("------------------------ W 10 9", "more than 9 stones"),
        ("WWW" + "-" * 20 + "B B 0 0", "B has fewer than 2"),
        ("WWW--------------------B W 0 0", "B, not to move, has fewer than 3"),
    ],
)
def test_bad_positions_are_refused(text: str, match: str) -> None:
    with pytest.raises(InputFormatError, match=match):
        Mills().parse(text)


@pytest.mark.parametrize(
    ("variant", "stones", "match"),
    [("ten", 0, "no morris variant"), ("nine", 2, "between 3 and 12"),
     ("three", 5, "between 3 and 4"), ("nine", True, "between 3 and 12")],
)  # fmt: skip
def test_bad_parameters_are_refused(variant: str, stones: int, match: str) -> None:
    with pytest.raises(GameDefinitionError, match=match):
        Mills(variant, stones)


def test_position_bound_holds_on_reduced_games() -> None:
    for variant, stones in (("three", 0), ("six", 3)):
        game = Mills(variant, stones)
        assert len(solve(game)) <= game.position_bound()


def test_registered() -> None:
    game = load_game("nine-mens-morris", variant="six", stones=3)
    assert isinstance(game, Mills) and game.info.params == {"variant": "six", "stones": 3}
    assert isinstance(load_game("morris"), Mills)
