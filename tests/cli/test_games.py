"""The games command (perfectplay.cli.games): the registry listed, in text and JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cli_helpers import run_cli

from perfectplay.games.registry import game_entry, game_names, load_game

SMALL: dict[str, dict[str, Any]] = {name: dict(game_entry(name).small) for name in game_names()}


def test_json_lists_every_registered_game_with_its_parameters() -> None:
    records = json.loads(run_cli(["games", "--json"]).out)
    assert [r["name"] for r in records] == game_names()
    for record in records:
        entry = game_entry(record["name"])
        assert record["aliases"] == list(entry.aliases)
        assert [p["name"] for p in record["params"]] == [p.name for p in entry.parameters()]
        assert record["tier_form"] == (entry.tiers is not None)
        defaults = {p["name"]: p["default"] for p in record["params"]}
        game = load_game(record["name"])  # the defaults build the game
        assert {k: game.info.params[k] for k in defaults} == {
            k: tuple(v) if isinstance(v, list) else v for k, v in defaults.items()
        }


@pytest.mark.parametrize("name", sorted(SMALL))
def test_symmetries_are_claimed_exactly_where_they_merge_positions(name: str) -> None:
    (record,) = json.loads(run_cli(["games", name, "--json"]).out)
    game = load_game(name, **SMALL[name])
    # Positions of random play: some differ from their canonical form iff symmetries merge.
    rng = random.Random(0)
    moved = False
    for _ in range(60):
        position = game.initial()
        for _ in range(12):
            moved |= game.canonical(position) != position
            moves = list(game.moves(position))
            if game.outcome(position) is not None or not moves:
                break
            position = rng.choice(moves)[1]
    assert record["symmetries"] == moved
    text = run_cli(["games", name]).out
    assert ("solved once, as one symmetry class" in text) == record["symmetries"]


def test_the_text_shows_each_games_summary_aliases_and_parameters() -> None:
    text = run_cli(["games"]).out
    for record in json.loads(run_cli(["games", "--json"]).out):
        assert f"{record['name']:<14} {record['summary']}\n" in text
        if record["aliases"]:
            assert f"    also: {', '.join(record['aliases'])}\n" in text
        for param in record["params"]:
            assert f"--param {param['name']}=" in text and param["help"] in text


def test_an_alias_shows_its_game_and_an_unknown_name_is_refused() -> None:
    (record,) = json.loads(run_cli(["games", "ttt", "--json"]).out)
    assert record["name"] == "tic-tac-toe"
    result = run_cli(["games", "tictac"])
    assert result.code == 2 and result.out == "" and "did you mean" in result.err
    assert len(result.err.strip().splitlines()) == 1
