"""The one rule by which every command reads GAME|FILE."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.cli._resolve import resolve, saved_path
from perfectplay.errors import InputFormatError, UnknownNameError
from perfectplay.games.registry import game_names


def test_a_registered_name_wins_over_a_file_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nim").write_text("1 0\n")
    assert resolve("nim").entry is not None and resolve("nim").path is None
    assert resolve("./nim").path == "./nim"  # a separator makes it a path
    (tmp_path / "graph.txt").write_text("1 0\n")
    assert resolve("graph.txt").path == "graph.txt"  # not a game: the existing file
    assert resolve("-").path == "-"


def test_aliases_resolve_to_the_game() -> None:
    entry = resolve("C4").entry
    assert entry is not None and entry.name == "connect-four"


def test_anything_else_is_refused_with_suggestions_and_the_list() -> None:
    with pytest.raises(UnknownNameError) as caught:
        resolve("quix")
    message = str(caught.value)
    assert message.startswith("unknown game 'quix' and no such file (did you mean quixo")
    assert message.endswith("registered games: " + ", ".join(game_names()))


def test_the_refusal_is_worded_from_the_error_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry's suggestions are read from its error's fields, whatever its text."""

    def unknown(name: str) -> None:
        raise UnknownNameError("reworded", name=name, suggestions=["nim", "quixo"])

    monkeypatch.setattr("perfectplay.games.registry.game_entry", unknown)
    with pytest.raises(UnknownNameError) as caught:
        resolve("quix")
    assert str(caught.value).startswith(
        "unknown game 'quix' and no such file (did you mean nim or quixo?); registered games: "
    )
    assert (caught.value.name, caught.value.suggestions) == ("quix", ("nim", "quixo"))


def test_a_saved_path_named_like_a_game_says_how_to_save_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputFormatError, match="perfectplay solve tic-tac-toe -o FILE"):
        saved_path("ttt", "query")
    (tmp_path / "ttt").write_text("")
    assert saved_path("ttt", "query") == "ttt"  # an existing file is a file
    assert saved_path("missing.ppstore", "query") == "missing.ppstore"  # opening names it


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "tictacto"],
        ["draw", "tictacto"],
        ["play", "tictacto"],
        ["serve", "tictacto"],
    ],
)
def test_every_command_refuses_an_unknown_game_alike(args: list[str]) -> None:
    result = run_cli(args)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(
        "perfectplay: error: unknown game 'tictacto' and no such file "
        "(did you mean tic-tac-toe?); registered games: tic-tac-toe"
    )
    assert len(result.err.splitlines()) == 1


@pytest.mark.parametrize(
    "args", [["solve", "chess"], ["book", "chess", "--depth", "1", "-o", "x"], ["search", "chess"]]
)
def test_a_game_only_command_words_an_unknown_game_as_the_others(args: list[str]) -> None:
    result = run_cli(args)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("perfectplay: error: unknown game 'chess'")
    assert "; registered games: tic-tac-toe, " in result.err


@pytest.mark.parametrize("command", ["query", "analyze"])
def test_commands_reading_saved_files_accept_no_game_name(command: str) -> None:
    result = run_cli([command, "c4"])
    assert result.code == 2 and "is the registered game connect-four" in result.err


def test_games_and_verify_give_their_data_as_json(tmp_path: Path) -> None:
    import json

    listing = json.loads(run_cli(["games", "--json"]).out)
    assert [record["name"] for record in listing] == game_names()
    c4 = next(record for record in listing if record["name"] == "connect-four")
    assert "c4" in c4["aliases"] and c4["tier_form"] and c4["notation"].startswith(".....")
    store = tmp_path / "n.ppstore"
    assert run_cli(["solve", "nim", "--param", "heaps=1,2", "-o", str(store)]).code == 0
    checked = run_cli(["verify", str(store), "--json"])
    record = json.loads(checked.out)
    assert checked.code == 0 and record["verified"] and record["bad"] == 0
    assert record["positions"] > 0
