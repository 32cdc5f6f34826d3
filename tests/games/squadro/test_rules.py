"""Squadro: ndeineko's rules against an independent twin and ndeineko's own test positions
(the tier form: test_tiers.py)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import played

from perfectplay.api import check_game, solve
from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.registry import load_game
from perfectplay.games.squadro.rules import Squadro, SquadroPosition
from perfectplay.values import Value

# ---------------------------------------------------------------- the twin
# ndeineko's squadro-solver (src/board_state.rs, MIT) once more from its own data: the steps a
# piece moves from each of the 13 track positions, per player and piece (a table, where the
# rules derive steps from speeds and stop at the far side), ndeineko's collision test (the
# crossing piece's side and number from the track position), and its compressed state IDs.
STEPS = (
    (
        (1, 1, 1, 1, 1, 1, 3, 0, 3, 3, 2, 1, 0),
        (3, 0, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 0),
        (2, 0, 2, 2, 2, 1, 2, 0, 2, 2, 2, 1, 0),
        (3, 0, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 0),
        (1, 1, 1, 1, 1, 1, 3, 0, 3, 3, 2, 1, 0),
    ),
    (
        (3, 0, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 0),
        (1, 1, 1, 1, 1, 1, 3, 0, 3, 3, 2, 1, 0),
        (2, 0, 2, 2, 2, 1, 2, 0, 2, 2, 2, 1, 0),
        (1, 1, 1, 1, 1, 1, 3, 0, 3, 3, 2, 1, 0),
        (3, 0, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 0),
    ),
)
FIRST = ((1, 3, 2, 3, 1), (3, 1, 2, 1, 3))
State = tuple[list[list[int]], int]  # positions[player][piece], player to move


def twin_collide(state: State, player: int, piece: int, position: int) -> bool:
    pieces, _ = state
    if position % 6 == 0:
        return False
    other = position - 1 if position < 6 else 11 - position
    there = pieces[1 - player][other]
    if there % 6 == 0:
        return False
    if there < 6 and piece == there - 1:
        pieces[1 - player][other] = 0
        return True
    if there > 6 and piece == 11 - there:
        pieces[1 - player][other] = 6
        return True
    return False


def twin_moves(state: State) -> dict[int, State]:
    pieces, player = state
    if sum(p < 12 for p in pieces[1 - player]) <= 1:
        return {}
    out = {}
    for piece in range(5):
        position = pieces[player][piece]
        if position > 11:
            continue
        after: State = ([list(pieces[0]), list(pieces[1])], 1 - player)
        target = position + STEPS[player][piece][position]
        while position != target:
            position += 1
            if twin_collide(after, player, piece, position):
                target = position + 1
        after[0][player][piece] = position
        out[piece] = after
    return out


def twin_id(state: State) -> int:
    pieces, player = state
    code = 0
    for piece in range(5):
        for side in (0, 1):
            p = pieces[side][piece]
            if p > 1 and FIRST[side][piece] != 1:
                p -= 1
            if p > 6 and FIRST[side][piece] != 3:
                p -= 1
            code = code * (11 if piece == 2 else 12) + p
    return code * 2 + player


def to_state(position: SquadroPosition) -> State:
    top, left, turn = position
    return [list(top), list(left)], "TL".index(turn)


GAME = Squadro()


@settings(max_examples=300)
@given(st.lists(st.integers(0, 4), max_size=120))
def test_moves_outcomes_and_codes_match_the_twin(choices: list[int]) -> None:
    position = played(GAME, choices)
    state = to_state(position)
    assert GAME.encode(position) == twin_id(state)
    assert GAME.decode(twin_id(state)) == position
    expected = {str(piece + 1): twin_id(s) for piece, s in twin_moves(state).items()}
    assert {label: GAME.encode(child) for label, child in GAME.moves(position)} == expected
    assert (GAME.outcome(position) is Value.LOSE) == (not expected)


def test_ndeineko_next_state() -> None:
    """ndeineko's test ``next_state``: the left player to move, then the top player."""
    position = ((1, 2, 2, 7, 11), (2, 12, 3, 3, 7), "L")
    children = dict(GAME.moves(position))
    assert sorted(children) == ["1", "3", "4", "5"]  # piece 2 is home
    assert children["1"][:2] == ((1, 2, 2, 7, 6), (6, 12, 3, 3, 7))  # jumps top's piece 5 back
    assert children["3"][1][2] == 5 and children["4"][1][3] == 4
    assert children["5"][:2] == ((1, 2, 2, 6, 11), (2, 12, 3, 3, 9))
    children = dict(GAME.moves((*position[:2], "T")))
    assert [c[0] for c in children.values()] == [
        (2, 2, 2, 7, 11),
        (1, 5, 2, 7, 11),
        (1, 2, 5, 7, 11),  # jumps left's pieces 3 and 4 back to their start
        (1, 2, 2, 8, 11),
        (1, 2, 2, 7, 12),
    ]
    assert children["3"][1] == (2, 12, 0, 0, 7)


class From(Squadro):
    """Squadro from another start (ndeineko's test positions), solved in memory."""

    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code

    def initial(self) -> SquadroPosition:
        return self.decode(self.code)

    def position_bound(self) -> None:
        return None


@pytest.mark.parametrize(
    ("code", "count", "value", "moves"),
    [
        # simple_endgame_exploration: 3 states, a win for the top player to move
        (100382226046, 3, Value.WIN, {"2": (100442443391, "WIN"), "4": (100382229503, "WIN")}),
        # tricky_endgame_exploration: the left player to move wins, only by piece 5
        (85065666045, 951, Value.WIN,
         {"1": (85788274172, "LOSE"), "2": (59071845884, "LOSE"), "5": (85065666046, "WIN")}),
        # endless_game_exploration: a draw, kept only by moving to 5057794943
        (5057791486, 30459, Value.DRAW,
         {"1": (13729089023, "LOSE"), "3": (5058247679, "LOSE"), "4": (5057794943, "DRAW")}),
    ],
)  # fmt: skip
def test_ndeineko_endgames(code: int, count: int, value: Value, moves: dict[str, Any]) -> None:
    game = From(code)
    solved = solve(game)
    assert len(solved) == count  # ndeineko's count of the states reachable from there
    assert solved.value(game.initial()) is value
    got = solved.move_values(game.initial())
    assert {m.label: (game.encode(m.position), m.value.name) for m in got} == moves


def test_the_starts_reach_neither_each_other_nor_themselves() -> None:
    """A moved piece never ends on its start: no move leads to a position whose last mover
    has every piece at the start; ndeineko counts the states reachable from either start."""
    game = Squadro((1, 2, 3), home=2)
    solved = solve(game)
    for pid in range(len(solved)):
        top, left, turn = solved.position_of(pid)
        assert pid == 0 or (left if turn == "T" else top) != (0, 0, 0)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 4), max_size=120))
def test_notation_and_picture_round_trip(choices: list[int]) -> None:
    position = played(GAME, choices)
    assert GAME.parse(GAME.notation(position)) == position
    assert GAME.parse(GAME.render(position)) == position


def test_render() -> None:
    position = GAME.parse("1,3,0,12,6/0,8,3,0,0 L")
    assert GAME.render(position) == "\n".join(
        [
            ". . . v ^ . .",
            "> v + + + + .",
            ". + + + < + .",
            ". + v > + + .",
            "> + + + + + .",
            "> + + + + + .",
            ". . . . . ^ .",
            "L to move",
        ]
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0,0,0,0,0/0,0,0,0,0", "expected a squadro position"),
        ("0,0,0,0/0,0,0,0,0 T", "top player needs 5 track positions"),
        ("0,0,0,0,0/0,0,0,0,x T", "left player needs 5"),
        ("0,1,0,0,0/0,0,0,0,0 T", "top player's piece 2 .speed 3 out. never stands on track "
         "position 1; its positions are 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"),
        ("0,13,0,0,0/0,0,0,0,0 T", "never stands on track position 13"),
        ("2,0,0,0,0/0,1,0,0,0 L", "top player's piece 1 and the left player's piece 2 stand on "
         "one crossing"),
        ("12,12,12,12,0/0,0,0,0,0 T", "4 pieces home for the player to move"),
        (". v\nT to move", "expected a squadro board of 7 rows"),
        ("", "got an empty text"),
        (" \n \n", "got an empty text"),
    ],
)  # fmt: skip
def test_bad_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        GAME.parse(text)


@pytest.mark.parametrize(
    ("speeds", "home", "message"),
    [((), 1, "speeds"), ((1, 4), 1, "speeds"), ([1, 2], 1, "speeds"), ((1, 2), 3, "home"),
     ((1, 3), True, "home"), ((1,) * 6, 1, "speeds")],
)  # fmt: skip
def test_bad_parameters_are_refused(speeds: Any, home: Any, message: str) -> None:
    with pytest.raises(GameDefinitionError, match=f"squadro needs {message}"):
        Squadro(speeds, home)


def test_registered_and_checked() -> None:
    game = load_game("squadro", speeds=(1, 3), home=2)
    assert isinstance(game, Squadro) and game.n == 2
    assert check_game(game) == []


def test_the_start_and_the_bound() -> None:
    assert GAME.position_bound() == 2 * (12**4 * 11) ** 2  # ndeineko's IDs
    assert GAME.outcome(GAME.initial()) is None
    assert GAME.outcome(GAME.parse("12,12,12,12,0/0,0,0,0,0 L")) is Value.LOSE
