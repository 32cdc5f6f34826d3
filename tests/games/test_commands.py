"""Every command on the loopy classic games (Dobutsu Shogi, Gobblet Gobblers, Squadro, Nine Men's
Morris), each on a small instance solved by the tier engine through the real command line:
``solve --tiers``, then ``query``, ``analyze``, ``verify``, ``draw``, ``play``, ``serve`` and
``search`` answer on its directory as they do on the game itself (``search`` refuses a loopy
game in one line); a solve killed with SIGKILL and run again writes the uninterrupted files."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Result, run_cli
from tier_dirs import files_in, kill_when, memory_dir, solve_command, tree

from perfectplay.games.registry import load_game, load_tiered_game


@dataclass(frozen=True)
class Case:
    """A game on a small instance, positions of it in its notation, and a larger instance (a
    solve of a few seconds) to kill."""

    name: str
    params: dict[str, Any]
    start: str
    """The start's value as ``solve`` prints it."""
    positions: tuple[str, ...]
    """Reachable positions, typed in the game's notation."""
    bad: tuple[str, str]
    """A position the game refuses, and a word of the refusal."""
    kill_params: dict[str, Any]
    tiers_before_kill: int
    """Complete tier files to wait for before the kill (1: the solve has started)."""

    def __str__(self) -> str:
        return self.name

    def param_args(self, params: dict[str, Any] | None = None) -> list[str]:
        """``--param k=v`` for each parameter, as the command line takes them."""
        given = self.params if params is None else params
        words = (",".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in given.values())
        return [a for k, w in zip(given, words, strict=True) for a in ("--param", f"{k}={w}")]


CASES = [
    Case(
        "dobutsu",
        {"giraffes": 0, "elephants": 0, "chicks": 1},
        "LOSE in 10",
        ("-l-/---/---/-L- F c", "-l-/---/-C-/-L- S -", "-l-/---/-c-/L-- F -"),
        ("-L-/---/-c-/l-- S -", "far row"),
        {"giraffes": 1, "elephants": 1, "chicks": 1},
        1,  # one loopy tier: killed inside it
    ),
    Case(
        "gobblet-gobblers",
        {"sizes": 1, "pieces": 3},
        "DRAW",
        ("S,-,-/-,s,-/-,-,- X", "S,S,-/-,s,-/s,-,s X", "-,S,S/-,s,-/s,-,s O"),
        ("L,-,-/-,-,-/-,-,- O", "cell a1"),
        {"sizes": 2, "pieces": 2},
        12,
    ),
    Case(
        "squadro",
        {"speeds": (1, 3), "home": 1},
        "WIN in 15",
        ("1,0/0,0 L", "0,3/3,0 T", "1,3/3,1 T"),
        ("7,0/0,0 T", "track position 7"),
        {"speeds": (3, 1, 2), "home": 2},
        150,
    ),
    Case(
        "nine-mens-morris",
        {"variant": "three"},
        "DRAW",
        ("W-B-W-B-- W 1 1", "WW--BB-W- B 0 1", "WWB-BB-W- W 0 0"),
        ("WWWWBB-W- B 0 1", "more than 3 stones for a side): 'WWWWBB-W- B 0 1'"),
        {"variant": "six", "stones": 4},
        10,
    ),
]


def fails(result: Result, *words: str) -> str:
    """Assert one error line, exit code 2, nothing on standard output; returns the line."""
    assert (result.code, result.out) == (2, ""), (result.out, result.err)
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfectplay: error: "), result.err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def ok(result: Result) -> str:
    """Assert exit code 0 and nothing on standard error; returns standard output."""
    assert (result.code, result.err) == (0, ""), result.err
    return result.out


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Each case's small instance solved into a tier directory by ``solve --tiers``."""
    for scratch in memory_dir(tmp_path_factory.mktemp("classic")):
        directories = {}
        for case in CASES:
            directory = directories[case.name] = scratch / case.name
            done = run_cli(["solve", case.name, *case.param_args(), "--tiers", str(directory)])
            assert done.code == 0, done.err
            assert f"start: {case.start} for the player to move" in done.out
        yield directories


@pytest.mark.parametrize("case", CASES, ids=str)
def test_query_answers_typed_positions_and_refuses_bad_ones(
    case: Case, solved: dict[str, Path]
) -> None:
    directory = str(solved[case.name])
    game = load_game(case.name, **case.params)
    start = json.loads(ok(run_cli(["query", directory, "--json"])))
    assert start["notation"] == game.notation(game.initial())
    assert f"{start['value']} in {start['remoteness']}".replace(" in -1", "") == case.start
    for text in case.positions:
        record = json.loads(ok(run_cli(["query", directory, text, "--json"])))
        assert record["notation"] == text
        labels = [label for label, *_ in game.moves(game.parse(text))]
        assert [m["label"] for m in record["moves"]] == labels
        for move in record["moves"]:  # each move's value is its child's, for the mover
            after = json.loads(ok(run_cli(["query", directory, text, "--moves", move["label"],
                                           "--json"])))  # fmt: skip
            flipped = {"WIN": "LOSE", "LOSE": "WIN"}.get(after["value"], after["value"])
            assert move["value"] == flipped
            assert move["remoteness"] == after["remoteness"] + (after["value"] != "DRAW")
        shown = ok(run_cli(["query", directory, text]))
        assert game.labelled(game.parse(text)) in shown and f"notation: {text}\n" in shown
    fails(run_cli(["query", directory, case.bad[0]]), case.bad[1])
    fails(run_cli(["query", directory, "--moves", "zz9"]), "'zz9', is not legal")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_analyze_and_verify_the_directory(case: Case, solved: dict[str, Path]) -> None:
    directory = str(solved[case.name])
    record = json.loads(ok(run_cli(["analyze", directory, "--json"])))
    positions = sum(record["positions"].values())
    for key in ("positions", "classes"):
        for name in ("WIN", "LOSE", "TIE", "DRAW"):
            assert record[key][name] == sum(t[key][name] for t in record["tiers"])
    by_tier = ok(run_cli(["analyze", directory, "--by-tier"]))
    params = ", ".join(f"{k}={a.split('=')[1]}" for k, a in
                       zip(case.params, case.param_args()[1::2], strict=True))  # fmt: skip
    assert by_tier.startswith(f"{case.name} ({params}")  # parameters as --param spells them
    starts = len(load_tiered_game(case.name, **case.params).starts())
    origin = "the start" if starts == 1 else f"any of its {starts} starts"
    assert f"{positions:,} positions reachable from {origin}" in by_tier
    table = by_tier.split("positions by tier:\n")[1].splitlines()
    assert len(table) == 1 + len(record["tiers"])
    assert [line.split()[0] for line in table[1:]] == [
        t["label"].split()[0] for t in record["tiers"]
    ]
    verified = json.loads(ok(run_cli(["verify", directory, "--json"])))
    assert verified["verified"] and verified["bad"] == 0 and verified["positions"] > 0


@pytest.mark.parametrize("case", CASES, ids=str)
def test_draw_from_the_directory_equals_draw_of_the_game(
    case: Case, solved: dict[str, Path], tmp_path: Path
) -> None:
    game = load_game(case.name, **case.params)
    for text in case.positions[:2]:
        picture = tmp_path / "p.svg"
        ok(run_cli(["draw", str(solved[case.name]), text, "-o", str(picture)]))
        svg = picture.read_text()
        root = ElementTree.fromstring(svg)
        marked = {e.get("data-move") for e in root.iter() if e.get("data-move")}
        assert marked == {label for label, *_ in game.moves(game.parse(text))}
        assert ok(run_cli(["draw", case.name, *case.param_args(), text])) == svg


@pytest.mark.parametrize("case", CASES, ids=str)
def test_play_a_scripted_session_on_the_directory(case: Case, solved: dict[str, Path]) -> None:
    game = load_game(case.name, **case.params)
    text = case.positions[0]
    first = next(iter(game.moves(game.parse(text))))[0]
    script = f"values\nhint\n{first}\nundo\nbogus\nquit\n"
    out = ok(run_cli(["play", str(solved[case.name]), text], stdin=script))
    assert game.labelled(game.parse(text)) in out
    assert "Hint: " in out and "'bogus' is not a legal move here" in out
    assert out.count(f"{game.labelled(game.parse(text))}\nYour move.") == 2  # again after undo


@pytest.mark.parametrize("case", CASES, ids=str)
def test_search_refuses_the_loopy_game_in_one_line(case: Case, solved: dict[str, Path]) -> None:
    params = case.param_args()
    every = case.param_args(dict(load_game(case.name, **case.params).info.params))
    command = f"perfectplay solve {case.name} {' '.join(every)} --tiers DIR, then perfectplay query"
    for words in ([], ["--db", str(solved[case.name])], ["--json"]):
        refused = run_cli(["search", case.name, case.positions[0], *params, *words])
        fails(refused, "is loopy", command)


def test_serve_answers_each_directory_and_game_as_query_does(solved: dict[str, Path]) -> None:
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    import httpx
    from web_helpers import running_server

    with running_server(*(str(solved[case.name]) for case in CASES)) as server:
        listed = httpx.get(f"{server.url}api/games").json()
        ids = {d["game"]: d["id"] for d in listed["databases"]}
        for case in CASES:
            page = httpx.get(f"{server.url}databases/{ids[case.name]}")
            assert page.status_code == 200 and "<html" in page.text.lower()
            game = load_game(case.name, **case.params)
            text = case.positions[1]
            first = next(iter(game.moves(game.parse(text))))[0]
            asked = {"position": text, "moves": first}
            queried = json.loads(ok(run_cli(["query", str(solved[case.name]), text, "--moves",
                                             first, "--json"])))  # fmt: skip
            address = f"{server.url}api/databases/{ids[case.name]}/position"
            answer = httpx.get(address, params=asked).json()
            expected = [(m["label"], m["value"], m["remoteness"]) for m in queried["moves"]]
            assert [(m["label"], m["value"], m["remoteness"]) for m in answer["moves"]] == [
                (label, value, None if value == "DRAW" else r) for label, value, r in expected
            ]
            assert answer["value"] == queried["value"]
            own = f"{server.url}api/games/{case.name}/position"  # solved by the server
            asked["params"] = ";".join(case.param_args()[1::2])
            deadline = time.monotonic() + 60
            while (solved_here := httpx.get(own, params=asked)).status_code == 202:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            assert solved_here.json()["moves"] == answer["moves"]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_kill_9_mid_solve_then_resume_gives_the_uninterrupted_files(
    case: Case, tmp_path: Path
) -> None:
    for scratch in memory_dir(tmp_path):
        kill_and_resume(case, scratch)


def kill_and_resume(case: Case, scratch: Path) -> None:
    """Solve `case`'s larger instance once uninterrupted and once killed with SIGKILL (in a
    fresh interpreter) and run again; the files must be the same."""
    reference, resumed = scratch / "reference", scratch / "resumed"
    params = case.param_args(case.kill_params)
    ok(run_cli(["solve", case.name, *params, "--tiers", str(reference)]))
    total = len(json.loads((reference / "manifest.json").read_text())["tiers"])
    assert total > case.tiers_before_kill or total == 1
    command = solve_command(case.name, *params, "--tiers", str(resumed), "--json")
    if total == 1:  # started (the manifest is written), then well inside its only tier
        killed = kill_when(command, (resumed / "manifest.json").exists, 0.5)
    else:
        killed = kill_when(command, lambda: len(files_in(resumed)[0]) >= case.tiers_before_kill, 0)
    assert killed
    complete = files_in(resumed)[0]
    assert len(complete) < total
    again = run_cli(["solve", case.name, *params, "--tiers", str(resumed), "--json"])
    assert json.loads(ok(again))["run"]["tiers_kept"] == len(complete)
    for name, stamp in complete.items():  # every complete tier kept, not written again
        path = resumed / name
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == stamp, name
    assert tree(resumed) == tree(reference)
