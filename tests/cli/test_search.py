"""``perfectplay search`` and ``perfectplay book``: answers equal the strong solver's, one line
out per line in, bad input one line with exit 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.search import Searcher
from tests.games.connect_four.positions import near_full
from tests.search.search_brute import brute


def test_search_prints_the_value_remoteness_and_best_moves_of_the_strong_solver() -> None:
    game = load_game("tic-tac-toe")
    solved = solve(game)
    position = game.parse("X../.O./...")
    result = run_cli(["search", "ttt", "X../.O./...", "--json", "--all"])
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["value"] == solved.value(position).name
    assert answer["remoteness"] == solved.remoteness(position)
    assert set(answer["best_moves"]) == {m.label for m in solved.best_moves(position)}
    by_label = {m.label: m for m in solved.move_values(position)}
    for move in answer["moves"]:
        expected = by_label[move["move"]]
        assert (move["value"], move["remoteness"]) == (expected.value.name, expected.remoteness)


def test_weak_search_prints_the_value_only() -> None:
    result = run_cli(["search", "connect-four", "--param", "rows=4", "--param", "cols=4",
                      "--weak", "--json"])  # fmt: skip
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["value"] == "TIE" and answer["remoteness"] is None


def test_weak_search_of_every_move_gives_no_remoteness() -> None:
    """A weak search knows no remoteness: JSON ``null`` for each move, the text the value."""
    args = ["search", "connect-four", "--param", "rows=4", "--param", "cols=4", "--weak"]
    result = run_cli([*args, "--all", "--json"])
    assert result.code == 0, result.err
    moves = json.loads(result.out)["moves"]
    assert [m["move"] for m in moves] == ["a", "b", "c", "d"]
    assert all(m["remoteness"] is None and "score" not in m for m in moves)
    text = run_cli([*args, "--all"])
    assert text.code == 0, text.err
    listed = [line.strip() for line in text.out.splitlines() if line.startswith("  ")]
    assert listed == [f"{m['move']}: {m['value']}" for m in moves]


def test_positions_file_answers_a_line_per_line_and_reports_bad_lines(tmp_path: Path) -> None:
    game = load_game("tic-tac-toe")
    solved = solve(game)
    lines = ["X../.O./...", "not a board", "XX./OO./...", "XXX/OO./...", ".../.../..."]
    source = tmp_path / "positions.txt"
    source.write_text("\n".join(lines) + "\n")
    result = run_cli(["search", "tic-tac-toe", "--positions", str(source), "--json"])
    assert result.code == 2
    out = [json.loads(line) for line in result.out.splitlines()]
    assert len(out) == len(lines)
    assert out[1]["line"] == 2 and out[3]["line"] == 4
    for i in (0, 2, 4):
        position = game.parse(lines[i])
        assert out[i]["value"] == solved.value(position).name
        assert out[i]["remoteness"] == solved.remoteness(position)
    errors = result.err.strip().splitlines()
    assert len(errors) == 2
    assert "line 2:" in errors[0] and "line 4:" in errors[1] and "game is over" in errors[1]


def test_positions_of_a_board_past_9_columns_are_typed_with_commas(tmp_path: Path) -> None:
    game = load_game("connect-four", rows=2, cols=10)
    lines = ["10,10,9,9,8,8", "10,10,9,9,8,8,8", "10, 1, 10", "1,11"]
    source = tmp_path / "wide.txt"
    source.write_text("\n".join(lines) + "\n")
    board = ["connect-four", "--param", "rows=2", "--param", "cols=10"]
    result = run_cli(["search", *board, "--positions", str(source), "--json"])
    assert result.code == 2
    out = [json.loads(line) for line in result.out.splitlines()]
    assert (out[0]["value"], out[0]["remoteness"], out[0]["best_moves"]) == ("WIN", 1, ["g"])
    found = Searcher(game).search(game.parse("10,1,10"))
    assert (out[2]["value"], out[2]["remoteness"]) == (found.value.name, found.remoteness)
    errors = result.err.strip().splitlines()
    assert len(errors) == 2
    assert errors[0].endswith("wide.txt: line 2: move 7 of '10,10,9,9,8,8,8': column 8 is full")
    assert errors[1].endswith("line 4: move 2 of '1,11': no column 11 (columns 1 to 10)")
    one = run_cli(["search", *board, "3,0"])
    assert one.code == 2 and one.err.strip() == (
        "perfectplay: error: move 2 of '3,0': no column 0 (columns 1 to 10)"
    )


@pytest.mark.parametrize(("rows", "cols"), [(7, 9), (8, 8), (6, 10)])
def test_boards_past_64_bits_are_searched_from_typed_columns(rows: int, cols: int) -> None:
    """9 x 7, 8 x 8 and 10 x 6 (two-word bitboards): a near-full position typed as the columns
    played answers as the brute-force twin does; a table below the keys' least is refused in
    one line."""
    game = load_game("connect-four", rows=rows, cols=cols)
    position, played = near_full(game, random.Random(rows * cols), 8)
    board = ["connect-four", "--param", f"rows={rows}", "--param", f"cols={cols}"]
    result = run_cli(["search", *board, game.sequence(played), "--json"])
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    expected = brute(game)(position)
    assert (answer["value"], answer["remoteness"]) == (expected.value.name, expected.remoteness)
    small = run_cli(["search", *board, "1", "--memory", "16M"])
    assert small.code == 2 and len(small.err.strip().splitlines()) == 1
    assert "below the smallest table" in small.err


def test_a_book_of_a_board_past_64_bits(tmp_path: Path) -> None:
    book = tmp_path / "tall.book"
    board = ["connect-four", "--param", "rows=64", "--param", "cols=1"]  # 65 bits
    made = run_cli(["book", *board, "--depth", "3", "-o", str(book), "--jobs", "1"])
    assert made.code == 0, made.err
    booked = json.loads(run_cli(["search", *board, "1,1", "--json", "--book", str(book)]).out)
    assert (booked["value"], booked["remoteness"], booked["nodes"]) == ("TIE", 62, 0)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_blank_line_of_positions_is_a_bad_line_not_the_start(
    tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[object] = []
    source = tmp_path / "positions.txt"
    source.write_text("X../.O./...\n\nXX./OO./...\n")
    if jobs == "1":  # in process: see what is searched
        original = Searcher.search
        monkeypatch.setattr(
            Searcher, "search", lambda self, p, **kw: searched.append(p) or original(self, p, **kw)
        )
    result = run_cli(["search", "ttt", "--positions", str(source), "--json", "--jobs", jobs])
    assert result.code == 2
    out = [json.loads(line) for line in result.out.splitlines()]
    assert out[1] == {"line": 2, "error": out[1]["error"]} and "blank line" in out[1]["error"]
    assert "value" in out[0] and "value" in out[2]
    assert result.err == (
        f"perfectplay: error: {source}: line 2: a blank line, not a position (write the start "
        "as the game draws it)\n"
    )
    initial = load_game("tic-tac-toe").initial()
    assert initial not in searched


def test_one_answer_names_the_game_and_its_board() -> None:
    text = run_cli(["search", "connect-four", "4453"])
    assert text.code == 0, text.err
    assert text.out.splitlines()[0] == "connect-four rows=4 cols=5"
    answer = json.loads(run_cli(["search", "connect-four", "4453", "--json"]).out)
    assert (answer["game"], answer["params"]) == ("connect-four", {"rows": 4, "cols": 5})


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_json_answer_of_a_positions_file_names_the_game_and_its_board(
    tmp_path: Path, jobs: str
) -> None:
    source = tmp_path / "positions.txt"
    source.write_text("4433\n44\n")
    result = run_cli(
        ["search", "connect-four", "--param", "cols=4", "--positions", str(source), "--json",
         "--jobs", jobs]
    )  # fmt: skip
    assert result.code == 0, result.err
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert len(answers) == 2
    for answer in answers:
        assert (answer["game"], answer["params"]) == ("connect-four", {"rows": 4, "cols": 4})


def test_messages_name_positions_and_files_as_elsewhere(tmp_path: Path) -> None:
    over = run_cli(["search", "connect-four", "--param", "rows=6", "--param", "cols=7", "4455667"])
    assert over.code == 2
    assert over.err.startswith(
        "perfectplay: error: the game is over at position ......./......./......./......./"
        "...OOO./...XXXX (LOSE"
    )
    missing = run_cli(["search", "ttt", "--positions", str(tmp_path / "nofile.txt")])
    assert missing.err == (
        f"perfectplay: error: cannot open {tmp_path / 'nofile.txt'}: No such file or directory\n"
    )


def test_bad_input_is_one_line_and_exit_2() -> None:
    cases = {
        ("search", "tic-tac-toe", "XXX/OO./..."): "the game is over",
        ("search", "connect-four", "--param", "size=3"): "no parameter 'size'",
        ("search", "dodgem"): "loopy",
        ("search", "tic-tac-toe", "--memory", "lots"): "--memory",
        ("search", "tic-tac-toe", "--memory", "100T"): "needs about",
        ("search", "tictac"): "did you mean",
    }
    for argv, message in cases.items():
        result = run_cli(list(argv))
        assert result.code == 2, argv
        assert message in result.err, (argv, result.err)
        assert len(result.err.strip().splitlines()) == 1, result.err


def test_book_then_search_with_it(tmp_path: Path) -> None:
    book = tmp_path / "ttt.book"
    made = run_cli(["book", "tic-tac-toe", "--depth", "2", "-o", str(book), "--jobs", "1"])
    assert made.code == 0, made.err
    assert "positions of depth <= 2" in made.err
    plain = json.loads(run_cli(["search", "ttt", "X../.../...", "--json"]).out)
    booked = json.loads(run_cli(["search", "ttt", "X../.../...", "--json", "--book",
                                 str(book)]).out)  # fmt: skip
    assert booked["nodes"] == 0
    assert (booked["value"], booked["remoteness"]) == (plain["value"], plain["remoteness"])
    damaged = tmp_path / "bad.book"
    damaged.write_bytes(book.read_bytes()[:-4])
    result = run_cli(["search", "ttt", "--book", str(damaged)])
    assert result.code == 2 and "damaged opening book" in result.err


def test_search_answers_from_a_solved_database(tmp_path: Path) -> None:
    store = tmp_path / "ttt.ppstore"
    saved = run_cli(["solve", "tic-tac-toe", "--save", str(store)])
    assert saved.code == 0, saved.err
    result = run_cli(["search", "ttt", "X../.O./...", "--db", str(store), "--json"])
    assert result.code == 0, result.err
    assert json.loads(result.out)["nodes"] == 0
    other = tmp_path / "nim.ppstore"
    assert run_cli(["solve", "nim", "--save", str(other)]).code == 0
    refused = run_cli(["search", "ttt", "--db", str(other)])
    assert refused.code == 2 and "not a database of tic-tac-toe: it holds nim" in refused.err


def test_a_game_with_parameters_is_searched_with_its_database(tmp_path: Path) -> None:
    c4 = ["connect-four", "--param", "rows=3", "--param", "cols=4"]
    store = tmp_path / "c4.ppstore"
    assert run_cli(["solve", *c4, "--save", str(store)]).code == 0
    found = run_cli(["search", *c4, "2", "--db", str(store), "--json"])
    assert found.code == 0, found.err
    assert json.loads(found.out)["nodes"] == 0
    other = run_cli(["search", "connect-four", "--db", str(store)])  # the default 4x5 board
    assert other.code == 2 and other.err == (
        f"perfectplay: error: --db {store} is not a database of connect-four rows=4 cols=5: it "
        "holds connect-four rows=3 cols=4\n"
    )


def test_positions_on_two_processes_answer_as_one(tmp_path: Path) -> None:
    lines = [
        "X../.O./...",
        "not a board",
        "XX./OO./...",
        "XXX/OO./...",
        ".../.../...",
        "O../.X./X..",
    ]
    source = tmp_path / "positions.txt"
    source.write_text("\n".join(lines) + "\n")
    one = run_cli(["search", "ttt", "--positions", str(source), "--json", "--all"])
    two = run_cli(["search", "ttt", "--positions", str(source), "--json", "--all", "--jobs", "2"])
    assert one.code == two.code == 2
    strip = [
        {k: v for k, v in json.loads(x).items() if k != "seconds"} for x in one.out.split("\n") if x
    ]
    again = [
        {k: v for k, v in json.loads(x).items() if k != "seconds"} for x in two.out.split("\n") if x
    ]
    assert strip == again and len(strip) == len(lines)
    assert one.err == two.err
    assert run_cli(["search", "ttt", "--positions", str(source), "--jobs", "0"]).code == 2
