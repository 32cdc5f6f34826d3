"""query: positions typed as drawn, on one line or as moves from the start, from saved files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli


@pytest.fixture(scope="module")
def c4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("q") / "c4.ppstore"
    assert (
        run_cli(["solve", "c4", "--param", "rows=4", "--param", "cols=4", "-o", str(path)]).code
        == 0
    )
    return path


def _json(args: list[str]) -> dict[str, object]:
    result = run_cli(args)
    assert result.code == 0, result.err
    record: dict[str, object] = json.loads(result.out)
    return record


def test_every_way_of_typing_a_position_names_the_same_one(c4: Path) -> None:
    drawn = ["....", "....", "..X.", ".XO."]
    forms = [
        drawn,  # the drawing, one word per row (as the shell splits it)
        ["\n".join(drawn)],  # the drawing as one argument
        ["/".join(drawn)],  # the notation
        ["233"],  # the columns played, 1-based
        ["--moves", "b,c,c"],  # the moves from the start
        ["2", "--moves", "c,c"],  # a position, then moves
    ]
    records = [_json(["query", str(c4), *form, "--json"]) for form in forms]
    assert all(r["notation"] == "/".join(drawn) for r in records)
    assert len({json.dumps(r) for r in records}) == 1


def test_the_text_output_shows_the_notation(c4: Path) -> None:
    result = run_cli(["query", str(c4), "23"])
    assert result.code == 0 and "notation: ..../..../..../.XO." in result.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--moves", "a,z"], "move 2 of 2, 'z', is not legal; legal moves: a, b, c, d"),
        (["1115"], "move 4 of '1115': no column 5 (columns 1 to 4)"),
        (["11111"], "move 5 of '11111': column 1 is full"),
        (["..../..../..../.XQ."], "row 4 from the top, column 3: expected X, O or '.', got 'Q'"),
    ],
)
def test_a_bad_position_or_move_is_one_line_naming_it(
    c4: Path, args: list[str], message: str
) -> None:
    result = run_cli(["query", str(c4), *args])
    assert (result.code, result.out) == (2, "")
    assert message in result.err and len(result.err.splitlines()) == 1
