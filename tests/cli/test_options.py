"""Options shared by the commands (perfectplay.cli._options): parsers, labels, positions."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.cli._options import (
    add_game_options,
    add_json_option,
    add_position_arguments,
    add_target_argument,
    move_labels,
    read_position,
)
from perfectplay.errors import InputFormatError
from perfectplay.games.registry import load_game


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="x", exit_on_error=False)
    add_target_argument(parser)
    add_game_options(parser)
    add_json_option(parser)
    add_position_arguments(parser)
    return parser


def test_the_shared_options_parse_with_their_defaults() -> None:
    args = _parser().parse_args([])
    assert (args.target, args.param, args.game, args.json, args.position, args.moves) == (
        None, [], None, False, [], "",
    )  # fmt: skip
    args = _parser().parse_args(
        ["nim", "3", "4", "--param", "heaps=3,4", "--param", "x=1", "--game", "m:C", "--json",
         "--moves", "h1-1"]
    )  # fmt: skip
    assert args.target == "nim" and args.position == ["3", "4"]
    assert args.param == ["heaps=3,4", "x=1"] and args.game == "m:C"
    assert args.json and args.moves == "h1-1"


@given(st.lists(st.text("abc123-", min_size=1, max_size=4), max_size=6), st.data())
def test_move_labels_are_the_comma_separated_words_without_blanks(
    labels: list[str], data: st.DataObject
) -> None:
    pad = st.sampled_from(["", " ", "  ", "\t"])
    text = ",".join(data.draw(pad) + label + data.draw(pad) for label in labels)
    text += data.draw(st.sampled_from(["", ",", ", ,"]))
    assert move_labels(text) == labels


@given(st.lists(st.integers(0, 8), max_size=9))
def test_a_typed_position_then_its_moves_replay_the_game(choices: list[int]) -> None:
    game = load_game("tic-tac-toe")
    labels, path = [], [game.initial()]
    for k in choices:  # random play, its labels kept
        moves = list(game.moves(path[-1]))
        if game.outcome(path[-1]) is not None or not moves:
            break
        label, child = moves[k % len(moves)]
        labels.append(label)
        path.append(child)
    assert read_position(game, [], ",".join(labels)) == path
    middle = len(path) // 2  # typed as the drawing's lines, one word each, then the rest
    words = game.render(path[middle]).splitlines()
    assert read_position(game, words, ",".join(labels[middle:])) == path[middle:]


def test_an_unreadable_position_or_an_illegal_move_is_an_input_error() -> None:
    game = load_game("tic-tac-toe")
    with pytest.raises(InputFormatError):
        read_position(game, ["no board"], "")
    with pytest.raises(InputFormatError, match=r"move 2 of 2, 'a1', is not legal"):
        read_position(game, [], "a1,a1")
