"""Connect Four on small boards: both paths, values against an independent brute force."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from brute import brute_connect_four
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.enumeration.check import check_game
from perfectplay.errors import GameDefinitionError, InputFormatError, TooLargeError
from perfectplay.games.connect_four._bitboard import MAX_BITS, four
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.values import UNDECIDED, Value

VALUE_OF = {-1: Value.LOSE, 0: Value.TIE, 1: Value.WIN}


@pytest.fixture(scope="module", params=[(4, 5), (5, 4)], ids=["4x5", "5x4"])
def solved(request: pytest.FixtureRequest) -> object:
    rows, cols = request.param
    began = time.perf_counter()
    result = solve(ConnectFour(rows, cols))
    assert time.perf_counter() - began < 60
    return result


def test_small_boards_are_draws_to_the_last_cell(solved: object) -> None:
    # Published: Tromp's results for width + height <= 15, as tabulated by C. Steininger
    # (github.com/ChristopheSteininger/c4): 4x5 and 5x4 are draws, ending on move 20. Both also
    # agree with tests/brute.py's independent negamax (about a minute each in Python, so the
    # suite checks the start of 4x4 and sampled mid-game positions below).
    game = solved.game  # type: ignore[attr-defined]
    assert solved.value(solved.initial) is Value.TIE  # type: ignore[attr-defined]
    assert solved.remoteness(solved.initial) == game.rows * game.cols  # type: ignore[attr-defined]


def test_sampled_positions_match_brute_force(solved: object) -> None:
    game = solved.game  # type: ignore[attr-defined]
    rng = random.Random(2024)
    checked = 0
    while checked < 25:
        position = game.initial()
        for _ in range(rng.randrange(9, game.rows * game.cols)):
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves)[1]
        if game.outcome(position) is not None:
            continue
        expected = brute_connect_four(game.rows, game.cols, position)
        assert solved[position] is VALUE_OF[expected], position  # type: ignore[index]
        checked += 1


def test_4x4_start_matches_brute_force_and_the_published_draw() -> None:
    solved = solve(ConnectFour(4, 4))
    assert solved[("",) * 4] is VALUE_OF[brute_connect_four(4, 4)] is Value.TIE
    assert solved.remoteness(("",) * 4) == 16


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (2, 5)])
def test_check_game_passes_including_both_paths(rows: int, cols: int) -> None:
    assert check_game(ConnectFour(rows, cols), seed=rows * cols, strict=True) == []


def test_rules_and_text() -> None:
    game = ConnectFour(4, 5)
    assert game.outcome(("XXXX", "OOO", "", "", "")) is Value.LOSE
    assert game.outcome(("X", "OX", "OOX", "OOOX", "XXX")) is Value.LOSE  # diagonal
    assert game.outcome(("XO", "XO", "XO", "X", "")) is Value.LOSE  # row
    assert game.outcome(("XO", "XO", "XO", "", "")) is None
    assert game.moves(("XXXX", "OOO", "", "", "")) == []
    full = ConnectFour(1, 2)
    assert full.outcome(("X", "O")) is Value.TIE
    p = ("XO", "X", "", "", "")
    assert game.parse(game.render(p)) == p
    assert game.decode(game.encode(p)) == p
    assert game.canonical(p) == game.canonical(p[::-1])
    with pytest.raises(InputFormatError, match="stones must rest on stones"):
        game.parse("X . . . .\n. . . . .\n. . . . .\n. . . . .")
    with pytest.raises(GameDefinitionError, match="rows=15, cols=9"):
        ConnectFour(15, 9)  # 144 bits, past the 128 of two words


def test_big_boards_play_on_the_plain_path_and_refuse_the_vectorized_one() -> None:
    game = ConnectFour(6, 7)  # the classic board: 49 bits, beyond the int64 codes
    p = ("XOXOXO", "X", "", "", "", "", "O")
    assert [label for label, _ in game.moves(p)] == list("bcdefg")
    assert game.parse(game.render(p)) == p
    assert game.outcome(("", "XXXX", "OOO", "", "", "", "")) is Value.LOSE
    assert game.canonical(p[::-1]) == game.canonical(p)
    with pytest.raises(TooLargeError, match=r"6x7 has up to 7\.07e\+13 positions.*--tiers DIR"):
        solve(game)


def test_best_move_takes_the_immediate_win() -> None:
    solved = solve(ConnectFour(4, 4))
    best = solved.best_moves(("XXX", "OO", "O", ""))
    assert [m.label for m in best] == ["a"]
    assert best[0].value is Value.WIN and best[0].remoteness == 1


@settings(max_examples=60)
@given(
    st.sampled_from(
        [(1, 1), (1, 4), (2, 5), (4, 1), (3, 3), (4, 4), (4, 5), (5, 4), (5, 5), (4, 6)]
    ),
    st.lists(st.integers(0, 1000), max_size=40),
)
def test_batch_methods_follow_the_rules(shape: tuple[int, int], picks: list[int]) -> None:
    # Random games (each pick chooses one of the moves), stopped anywhere: the batch
    # methods on all their positions at once must agree with outcome(), moves() and
    # canonical() one position at a time.
    game = ConnectFour(*shape)
    position = game.initial()
    positions = [position]
    for pick in picks:
        moves = game.moves(position)
        if not moves:
            break
        position = moves[pick % len(moves)][1]
        positions.append(position)
    codes = np.array([game.encode(p) for p in positions], dtype=np.int64)
    outcomes = game.batch_outcome(codes)
    assert outcomes.dtype == np.uint8
    assert outcomes.tolist() == [
        UNDECIDED if game.outcome(p) is None else game.outcome(p) for p in positions
    ]
    parent, child = game.batch_moves(codes)
    expected = [
        (i, game.encode(game.canonical(q)))
        for i, p in enumerate(positions)
        for _, q in game.moves(p)
    ]
    assert list(zip(parent.tolist(), child.tolist(), strict=True)) == expected
    assert parent.dtype == child.dtype == np.int64


@settings(max_examples=30)
@given(st.lists(st.integers(0, 2**62), min_size=1, max_size=50))
def test_batch_moves_stay_in_bounds_on_any_code(codes: list[int]) -> None:
    # Codes that are no position (stones floating above holes, bits beyond the board) must
    # not make the kernel write past its arrays: at most one move per column from each code.
    game = ConnectFour(4, 5)
    parent, child = game.batch_moves(np.array(codes, dtype=np.int64))
    assert parent.size == child.size
    assert np.all(np.bincount(parent, minlength=len(codes)) <= game.cols)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_the_kernels_four_matches_the_rules(rows: int, cols: int, data: st.DataObject) -> None:
    # The one numba test of four in a row (every kernel's) against the pure-Python reference.
    if (rows + 1) * cols > MAX_BITS:
        return
    game = ConnectFour(rows, cols)
    cells = [c * game.height + r for c in range(cols) for r in range(rows)]
    chosen = data.draw(st.lists(st.sampled_from(cells), unique=True))
    stones = sum(1 << cell for cell in chosen)
    assert bool(four(np.int64(stones), game.height)) == game._four(stones)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([(62, 1), (40, 1), (30, 2), (25, 2), (20, 3), (15, 3), (1, 26), (2, 21)]),
    st.data(),
)
def test_the_kernels_four_matches_the_rules_on_tall_and_flat_boards(
    size: tuple[int, int], data: st.DataObject
) -> None:
    """Columns of up to 63 bits, whose diagonal shifts would pass 64 bits, and one row."""
    rows, cols = size
    game = ConnectFour(rows, cols)
    cells = [c * game.height + r for c in range(cols) for r in range(rows)]
    chosen = data.draw(st.lists(st.sampled_from(cells), unique=True))
    stones = sum(1 << cell for cell in chosen)
    assert bool(four(np.int64(stones), game.height)) == game._four(stones)


def test_two_stones_of_a_tall_board_are_no_four() -> None:
    assert not four(np.int64(0b101), 63)  # 62 x 1: rows 0 and 2
    assert not four(np.int64(1 | 1 << 32), 31)  # 30 x 2: a1 and b2


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.data())
def test_a_digit_after_a_four_is_refused_as_the_game_being_over(
    rows: int, data: st.DataObject
) -> None:
    """Random play until a four (if one comes before the board fills); one digit more is
    refused naming that move, and every shorter prefix parses to the position played."""
    cols = data.draw(st.integers(1, min(9, MAX_BITS // (rows + 1))))
    game = ConnectFour(rows, cols)
    position, digits = game.initial(), ""
    while game.outcome(position) is None:
        columns = [c for c in range(cols) if len(position[c]) < rows]
        c = data.draw(st.sampled_from(columns))
        digits += str(c + 1)
        position = dict(game.moves(position))["abcdefghi"[c]]
        assert game.parse(digits) == position
    if game.outcome(position) is Value.TIE:
        return  # the board filled with no four: no column is left to play
    extra = data.draw(st.integers(1, cols))
    message = f"move {len(digits) + 1} of '{digits}{extra}': column {extra} .*game is over"
    with pytest.raises(InputFormatError, match=message):
        game.parse(f"{digits}{extra}")


def test_the_earliest_four_stops_the_digits() -> None:
    assert ConnectFour(4, 4).parse("1212121") == ("XXXX", "OOO", "", "")
    with pytest.raises(InputFormatError, match="move 8 of '12121212': column 2 cannot be played"):
        ConnectFour(4, 4).parse("12121212")


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 8), st.integers(1, 26), st.data())
def test_typed_columns_round_trip_on_every_board(rows: int, cols: int, data: st.DataObject) -> None:
    """A game played by move labels, written by ``sequence`` (digits up to 9 columns, numbers
    joined by commas past them) or always with commas, parses back to the position reached."""
    assume((rows + 1) * cols <= MAX_BITS)
    game = ConnectFour(rows, cols)
    position, played = game.initial(), []
    for _ in range(data.draw(st.integers(1, rows * cols))):
        moves = game.moves(position)
        if not moves:
            break
        label, position = data.draw(st.sampled_from(moves))
        played.append("abcdefghijklmnopqrstuvwxyz".index(label))
    commas = ", ".join(str(c + 1) for c in played) + ","
    assert game.parse(game.sequence(played)) == game.parse(commas) == position
    assert game.parse(game.notation(position)) == position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,12", "move 2 of '1,12': no column 12 (columns 1 to 11)"),
        ("1,,2", "move 2 of '1,,2': no column (empty) (columns 1 to 11)"),
        ("1,x", "move 2 of '1,x': no column x (columns 1 to 11)"),
        ("0,1", "move 1 of '0,1': no column 0 (columns 1 to 11)"),
        ("10,10,10,10,10", "move 5 of '10,10,10,10,10': column 10 is full"),
        ("1,1,2,2,3,3,4,4", "move 8 of '1,1,2,2,3,3,4,4': column 4 cannot be played"),
    ],
)
def test_bad_typed_columns_are_refused_naming_the_move(text: str, message: str) -> None:
    with pytest.raises(InputFormatError) as refused:
        ConnectFour(4, 11).parse(text)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


@pytest.mark.parametrize("text", ["1\u00b2", "1,\u00b2", "\u0663", "1,\u0663"])
def test_columns_are_ascii_digits_only(text: str) -> None:
    """Other characters Python counts as digits (superscripts, other scripts) are input errors,
    not a ValueError from int() nor a column."""
    with pytest.raises(InputFormatError):
        ConnectFour(4, 11).parse(text)


def test_boards_past_26_columns_are_refused_for_want_of_labels() -> None:
    with pytest.raises(GameDefinitionError, match="1 <= cols <= 26"):
        ConnectFour(1, 27)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7), st.data())
def test_digits_parse_to_the_position_play_reaches_or_name_the_first_bad_move(
    rows: int, data: st.DataObject
) -> None:
    """Random play to the end (or part of it), then up to three digits more (after the end,
    into full columns or no column), against a replay by ``moves``: the position reached, or
    the first move that cannot be played named in the error."""
    cols = data.draw(st.integers(1, min(9, MAX_BITS // (rows + 1))))
    game = ConnectFour(rows, cols)
    position, digits = game.initial(), ""
    while game.outcome(position) is None:
        c = data.draw(st.sampled_from([c for c in range(cols) if len(position[c]) < rows]))
        digits += str(c + 1)
        position = dict(game.moves(position))["abcdefghi"[c]]
    digits = digits[: data.draw(st.one_of(st.just(len(digits)), st.integers(0, len(digits))))]
    more = data.draw(st.lists(st.integers(0, cols), max_size=3))  # 0: no column
    digits += "".join(map(str, more))
    if not digits:
        return
    position = game.initial()
    for k, digit in enumerate(digits):
        moves = dict(game.moves(position))  # none once the game is over
        label = "abcdefghi"[int(digit) - 1] if 1 <= int(digit) <= cols else None
        if label not in moves:
            with pytest.raises(InputFormatError, match=f"move {k + 1} of '{digits}': "):
                game.parse(digits)
            return
        position = moves[label]
    assert game.parse(digits) == position


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.data())
def test_digits_keep_the_bitboards_of_the_position_they_read(
    rows: int, data: st.DataObject
) -> None:
    """The bitboards :meth:`parse` keeps for the position it returns (the search reads them
    next) are those computed afresh from its columns, for the player to move."""
    cols = data.draw(st.integers(1, min(9, MAX_BITS // (rows + 1))))
    game = ConnectFour(rows, cols)
    position, digits = game.initial(), ""
    for _ in range(data.draw(st.integers(1, rows * cols))):  # "" is no position
        moves = game.moves(position)
        if not moves:
            break
        label, position = data.draw(st.sampled_from(moves))
        digits += str("abcdefghi".index(label) + 1)
    read = game.parse(digits)
    assert read == position
    assert game._bits(read) == ConnectFour(rows, cols)._bits(tuple(read))
