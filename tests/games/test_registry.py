"""The registry of classic games: names, parameters, loading, and conformance of each game."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perfectplay.games
from perfectplay._targets import import_target
from perfectplay.enumeration.check import check_game
from perfectplay.errors import GameDefinitionError, InputFormatError, UnknownNameError
from perfectplay.games.registry import (
    FOLDERS,
    GameEntry,
    Param,
    entry_for_target,
    game_entry,
    game_names,
    load_game,
)


def test_names_and_entries() -> None:
    assert game_names()[:4] == ["tic-tac-toe", "connect-four", "nim", "subtraction"]
    folders = [importlib.import_module(f"perfectplay.games.{f}.entry").ENTRY for f in FOLDERS]
    assert game_names() == [entry.name for entry in folders]  # in the order FOLDERS lists
    assert game_entry("Connect_Four").name == "connect-four"
    assert [str(p) for p in game_entry("subtraction").parameters()] == ["heap=20", "take=1,2,3"]


@pytest.mark.parametrize("name", game_names())
def test_each_registered_game_loads_with_its_defaults_and_passes_check_game(name: str) -> None:
    game = load_game(name)
    assert game.info.name == name
    defaults = {p.name: p.default for p in game_entry(name).parameters()}
    assert dict(game.info.params) == defaults
    assert check_game(game, seed=1, strict=True) == []


def test_parameters_are_passed_and_recorded() -> None:
    game = load_game("connect-four", rows=5, cols=4)
    assert dict(game.info.params) == {"rows": 5, "cols": 4}
    assert load_game("nim", heaps=[2, 2]).info.params["heaps"] == (2, 2)


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownNameError, match="registered games: tic-tac-toe, connect-four"):
        load_game("chess")


def test_unknown_parameter_lists_the_game_parameters() -> None:
    with pytest.raises(UnknownNameError, match="parameters: rows, cols"):
        load_game("connect-four", width=4)
    with pytest.raises(UnknownNameError, match="parameters: none"):
        load_game("tic-tac-toe", size=4)


def test_wrong_parameter_types_and_ranges() -> None:
    with pytest.raises(GameDefinitionError, match="rows must be an integer"):
        load_game("connect-four", rows="4")
    with pytest.raises(GameDefinitionError, match="heaps must be a tuple of integers"):
        load_game("nim", heaps=3)
    with pytest.raises(GameDefinitionError, match="rows=15, cols=9"):  # 144 bits: past two words
        load_game("connect-four", rows=15, cols=9)


def test_cli_lists_every_game_with_its_parameters() -> None:
    from cli_helpers import run_cli

    result = run_cli(["games"])
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines if not line.startswith(" ")] == game_names()
    assert "    --param rows=4" in result.out and "--param heaps=3,4,5" in result.out
    one = run_cli(["games", "Connect_Four"])
    assert one.out.splitlines()[0].startswith("connect-four ")
    bad = run_cli(["games", "chess"])
    assert bad.code == 2 and bad.out == ""
    assert bad.err.strip() == (
        f"perfectplay: error: unknown game 'chess'; registered games: {', '.join(game_names())}"
    )


@pytest.mark.parametrize(
    ("alias", "name"),
    [("ttt", "tic-tac-toe"), ("TicTacToe", "tic-tac-toe"), ("c4", "connect-four"),
     ("Connect4", "connect-four"), ("take_away", "subtraction")],
)  # fmt: skip
def test_aliases_name_the_game(alias: str, name: str) -> None:
    assert game_entry(alias).name == name
    assert load_game(alias).info.name == name


def test_every_alias_is_unique_and_no_alias_is_another_games_name() -> None:
    seen: dict[str, str] = {}
    for name in game_names():
        for alias in (name, *game_entry(name).aliases):
            assert seen.setdefault(alias, name) == name, alias


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("tictacto", "tic-tac-toe"), ("conect-four", "connect-four"), ("quixx", "quixo")],
)
def test_a_misspelt_name_gets_did_you_mean_and_the_list(typed: str, suggested: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        game_entry(typed)
    message = str(caught.value)
    assert f"(did you mean {suggested}" in message
    assert message.endswith("registered games: " + ", ".join(game_names()))


def test_a_name_far_from_every_game_gets_no_suggestion() -> None:
    with pytest.raises(UnknownNameError) as caught:
        game_entry("chess")
    assert "did you mean" not in str(caught.value)


def test_entry_for_target_compares_names_and_imports_nothing() -> None:
    assert entry_for_target("perfectplay.games.tictactoe.rules:TicTacToe") == game_entry("ttt")
    assert entry_for_target("no_such_module_xyz:Game") is None
    assert "no_such_module_xyz" not in sys.modules


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_notation_and_drawing_round_trip_on_random_reachable_positions(
    name: str, data: st.DataObject
) -> None:
    game = load_game(name)
    position = game.initial()
    for _ in range(data.draw(st.integers(0, 30), label="plies")):
        moves = list(game.moves(position))
        if not moves:
            break
        position = moves[data.draw(st.integers(0, len(moves) - 1), label="move")][1]
        line = game.notation(position)
        assert "\n" not in line
        assert game.parse(line) == position
        assert game.parse(game.render(position)) == position


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_connect_four_reads_the_columns_played(data: st.DataObject) -> None:
    game = load_game("connect-four", rows=4, cols=5)
    position, digits = game.initial(), ""
    for _ in range(data.draw(st.integers(0, 20))):
        moves = list(game.moves(position))
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        label, position = move[0], move[1]
        digits += str("abcde".index(label) + 1)
    assert game.parse(digits or "/".join(["....."] * 4)) == position


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("tic-tac-toe", "X../.Q./...", "cell 5: expected X, O or '.', got 'Q'"),
        ("connect-four", "11111", "move 5 of '11111': column 1 is full"),
        ("connect-four", "1296", "move 3 of '1296': no column 9"),
        ("connect-four", "...../.....", "expected 4 rows of 5 cells"),
        ("dodgem", "B../B../.RR X", "'Blue to move'"),
        ("quixo", "X---/----/----/---- Z", "'X to move'"),
    ],
)
def test_bad_notation_names_what_and_where(name: str, text: str, message: str) -> None:
    with pytest.raises(InputFormatError, match=re.escape(message)):
        load_game(name).parse(text)


@pytest.mark.parametrize(
    ("name", "params", "text", "message"),
    [
        ("squadro", {"speeds": (1, 3), "home": 1}, "1,0/0,0 X", "like '0,0/0,0 T' (track"),
        ("squadro", {"speeds": (1, 3), "home": 1}, " ", "like '0,0/0,0 T', got an empty text"),
        ("nine-mens-morris", {"variant": "three"}, "WWWWBB-W- B 0 1",
         "not a morris position (more than 3 stones for a side): 'WWWWBB-W- B 0 1'"),
    ],
)  # fmt: skip
def test_bad_notation_of_smaller_games_names_them_in_their_notation(
    name: str, params: dict[str, Any], text: str, message: str
) -> None:
    with pytest.raises(InputFormatError, match=re.escape(message)):
        load_game(name, **params).parse(text)


@pytest.mark.parametrize("name", game_names())
def test_the_listed_notation_is_a_position_of_the_game(name: str) -> None:
    game, example = load_game(name), game_entry(name).notation
    forms = [form.split(" (")[0] for form in example.split(" or the columns played, 1-based: ")]
    for form in forms if example else []:
        position = game.parse(form)
        assert game.notation(position) == forms[0]  # every form names the same position


def _cell(board: str, column: str, row: str) -> str:
    """The character of a labelled board under column label `column`, on the row labelled
    `row` (the row's first word)."""
    lines = board.splitlines()
    header = next(line for line in lines if line.split() and line.split()[0] == "a")
    line = next(line for line in lines if line.split() and line.split()[0] == row)
    return line[header.index(column)]


def _random_moves(game: Any, data: st.DataObject, most: int) -> Iterator[tuple[Any, str, Any]]:
    """Up to `most` random legal moves from the start, as ``(position, label, child)``."""
    position = game.initial()
    for _ in range(data.draw(st.integers(0, most))):
        moves = list(game.moves(position))
        if not moves:
            return
        label, child = moves[data.draw(st.integers(0, len(moves) - 1))][:2]
        yield position, label, child
        position = child


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_labelled_boards_carry_the_coordinates_the_move_labels_name(data: st.DataObject) -> None:
    ttt, dodgem = load_game("tic-tac-toe"), load_game("dodgem")
    for position, label, child in _random_moves(ttt, data, 8):
        mark = "X" if position.count("X") == position.count("O") else "O"
        assert _cell(ttt.labelled(child), label[0], label[1]) == mark  # the cell just filled
    state = dodgem.initial()
    for _ in range(data.draw(st.integers(0, 10))):
        moves = list(dodgem.moves(state))
        if not moves:
            break
        label = moves[data.draw(st.integers(0, len(moves) - 1))][0]
        assert _cell(dodgem.labelled(state), label[0], label[1]) == state[1]  # the car moved
        state = dict(dodgem.moves(state))[label]


def test_connect_four_and_quixo_label_their_columns_and_cells() -> None:
    c4 = load_game("connect-four")
    for label, child in c4.moves(c4.initial()):
        bottom, letters = c4.labelled(child).splitlines()[-2:]
        assert bottom[letters.index(label)] == "X"
    quixo = load_game("quixo", size=3)
    start = quixo.initial()
    shown = quixo.labelled(start).splitlines()[:3]
    keys = [line.split("    ")[1].split() for line in shown]  # the cell numbers beside the board
    for label, (after, _) in quixo.moves(start):
        cell, end = label[:-1], label[-1]
        r, c = next((r, row.index(cell)) for r, row in enumerate(keys) if cell in row)
        new = after.index("X")  # the cube taken, pushed back in its row or column
        assert (new // 3 == r) if end in "RL" else (new % 3 == c)


def _mover_at(game_name: str, board: str, label: str, turn: str) -> str:
    """What the labelled `board` shows where the move `label` starts (Dobutsu: the cell numbered
    beside the board; Squadro: the piece's column or row) or lands (Gobblet: the top piece)."""
    lines = board.splitlines()
    if game_name == "dobutsu":
        cell = label.split("-")[0]
        line = next(line for line in lines[1:5] if cell in line.split()[3:])
        keys = line.split()[3:]
        return line.split()[keys.index(cell)]
    if game_name == "squadro":
        if turn == "T":
            column = lines[0].index(label)
            return "".join(line[column] for line in lines[1:-1] if len(line) > column)
        return next(line for line in lines[1:-1] if line.split()[0] == label)
    target = label[-2:]
    line = next(line for line in lines if line.split()[0] == target[1])
    start = lines[0].index(target[0])
    return line[start : start + 3].strip()[-1]


@settings(max_examples=30, deadline=None)
@given(data=st.data(), name=st.sampled_from(["dobutsu", "gobblet-gobblers", "squadro"]))
def test_dobutsu_gobblet_and_squadro_label_the_cells_and_pieces_their_moves_name(
    data: st.DataObject, name: str
) -> None:
    game = load_game(name)
    for position, label, child in _random_moves(game, data, 12):
        shown = game.labelled(position if name != "gobblet-gobblers" else child)
        turn = game.notation(position).split()[1 if name == "dobutsu" else -1]
        mine = {"dobutsu": "LGECH" if turn == "F" else "lgech", "squadro": "v^" if turn == "T"
                else "<>", "gobblet-gobblers": "SML" if turn == "X" else "sml"}[name]  # fmt: skip
        if name != "dobutsu" or label[0].isdigit():  # a drop starts from the hand
            assert set(_mover_at(name, shown, label, turn)) & set(mine), (label, shown)


def test_every_game_folder_is_listed_once_and_exports_its_entry() -> None:
    root = Path(perfectplay.games.__file__).parent
    folders = sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())
    assert sorted(FOLDERS) == folders and len(set(FOLDERS)) == len(FOLDERS)
    for folder in FOLDERS:
        entry = importlib.import_module(f"perfectplay.games.{folder}.entry").ENTRY
        assert isinstance(entry, GameEntry) and not entry.package  # bound by the registry
        listed = game_entry(entry.name)
        assert listed.package == f"perfectplay.games.{folder}"
        assert all(t.startswith(listed.package + ".") for t in listed.targets())


def test_reading_the_entries_imports_no_rules_and_no_numba() -> None:
    code = (
        "import sys; from perfectplay.games.registry import game_entry, game_names; "
        "[game_entry(n) for n in game_names()]; "
        "print(sorted(m for m in sys.modules if m == 'numba' or m.endswith('.rules')))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"


@pytest.mark.parametrize("name", game_names())
def test_each_entry_names_its_constructors_keywords_and_importable_forms(name: str) -> None:
    entry = game_entry(name)
    game_class = entry.game_class()
    keywords = [k for k in inspect.signature(game_class).parameters]
    assert [p.name for p in entry.parameters()] == keywords
    for target in entry.targets():
        assert import_target(target) is not None
    assert entry.drawing() is not None


def test_an_entry_whose_parameters_are_not_the_constructors_is_refused() -> None:
    wrong = GameEntry(
        "nim", ".rules:Nim", "", (Param("piles", ""),), package="perfectplay.games.nim"
    )
    with pytest.raises(GameDefinitionError, match=r"parameters piles, but \S+ takes heaps"):
        wrong.parameters()
