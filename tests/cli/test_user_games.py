"""A game of one's own, everywhere: installed through an entry point, or named with --game.

The package is a directory on ``PYTHONPATH`` holding the module and a ``.dist-info`` with its
``entry_points.txt``: what ``pip install`` leaves, and what :mod:`importlib.metadata` reads.
Every command runs in a subprocess, as a user runs it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import perfectplay

RULES = textwrap.dedent(
    '''
    """Take 1 to 3 tokens from one heap; who takes the last token wins."""

    from perfectplay.errors import InputFormatError
    from perfectplay.protocol.game import Game, GameInfo


    class TakeThree(Game[int]):
        """Take 1 to 3 tokens from one heap (a user's game)."""

        def __init__(self, heap=9):
            self.heap = heap
            self.info = GameInfo("take-three", {"heap": heap})

        def initial(self):
            return self.heap

        def moves(self, heap):
            return [(f"t{k}", heap - k) for k in (1, 2, 3) if k <= heap]

        def outcome(self, heap):
            return None  # no encode/decode: a heap, a non-negative int, is its own code

        def parse(self, text):
            if not text.strip().isdigit():
                raise InputFormatError(f"expected a heap size, got {text!r}")
            return int(text)
    '''
)

TIERS = textwrap.dedent(
    '''
    """Connect Four in tiers, as a class of one's own (not registered)."""

    from perfectplay.games.connect_four.tiers import TieredConnectFour


    class MyFour(TieredConnectFour):
        """A tiered game no installed package registers."""
    '''
)

TARGET = "usergames.rules:TakeThree"
TIERED = "usergames.tiers:MyFour"


def _package(root: Path, *, installed: bool) -> Path:
    """The package `usergames` under `root`, with its entry point when `installed`."""
    (root / "usergames").mkdir(parents=True)
    (root / "usergames" / "__init__.py").write_text("")
    (root / "usergames" / "rules.py").write_text(RULES)
    (root / "usergames" / "tiers.py").write_text(TIERS)
    if installed:
        info = root / "usergames-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: usergames\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[perfectplay.games]\ntake-three = {TARGET}\n")
    return root


_MAIN = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
"""The console script's work, run with ``python -P -c``: as for the script, the current
directory is not on the module path."""


def _env(root: Path | None) -> dict[str, str]:
    """The environment with the package under `root` (None: only as the current directory)
    and this perfectplay on the path."""
    source = Path(perfectplay.__file__).parents[1]  # this perfectplay, installed or not
    path = [str(source)] if root is None else [str(root), str(source)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def _cli(
    root: Path, *args: str, stdin: str = "", on_path: bool = True
) -> subprocess.CompletedProcess[str]:
    """The command run in `root` (on ``PYTHONPATH`` too unless not `on_path`), as a user runs
    it: the script's directory, not the current one, is on the module path."""
    return subprocess.run(
        [sys.executable, "-P", "-c", _MAIN, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=_env(root if on_path else None),
        cwd=root,
        timeout=300,
    )


@contextmanager
def _serving(root: Path, *args: str, on_path: bool = True) -> Iterator[str]:
    """``perfectplay serve --port 0 ARGS`` run in `root`; its root URL, stopped by Ctrl-C."""
    process = subprocess.Popen(
        [sys.executable, "-P", "-c", _MAIN, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(root if on_path else None),
        cwd=root,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the URL line, or nothing once it has failed
        found = re.search(r"serving on (http://\S+/)", line)
        assert found is not None, process.communicate(timeout=30)[1]
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 0


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _package(tmp_path_factory.mktemp("installed"), installed=True)


def test_an_installed_game_works_with_every_command(installed: Path) -> None:
    listing = _cli(installed, "games")
    assert "take-three" in listing.stdout and "a user's game" in listing.stdout
    assert "--param heap=9" in listing.stdout  # read from the constructor
    solved = _cli(installed, "solve", "take-three", "--param", "heap=10", "-o", "t.ppstore")
    assert solved.returncode == 0, solved.stderr
    assert "start: WIN in 5" in solved.stdout  # take 2, then answer each move to a multiple of 4
    query = _cli(installed, "query", "t.ppstore", "8", "--json")
    assert query.returncode == 0 and '"value": "LOSE"' in query.stdout
    moves = _cli(installed, "query", "t.ppstore", "--moves", "t2")
    assert moves.stdout.startswith("8\n") and "LOSE in 4" in moves.stdout
    assert _cli(installed, "analyze", "t.ppstore").returncode == 0
    verified = _cli(installed, "verify", "t.ppstore")
    assert verified.returncode == 0 and verified.stdout.startswith("verified")
    drawn = _cli(installed, "draw", "t.ppstore", "5")
    assert drawn.returncode == 0 and drawn.stdout.startswith("<svg")
    played = _cli(installed, "play", "t.ppstore", stdin="quit\n")
    assert played.returncode == 0 and "take-three" in played.stdout


def test_a_misspelt_installed_game_is_suggested(installed: Path) -> None:
    result = _cli(installed, "solve", "take-thre")
    assert result.returncode == 2
    assert "did you mean take-three?" in result.stderr and "take-three" in result.stderr


def test_an_unregistered_class_is_named_with_game(tmp_path: Path) -> None:
    root = _package(tmp_path, installed=False)
    solved = _cli(root, "solve", "--game", TARGET, "--param", "heap=6", "-o", "u.ppstore")
    assert solved.returncode == 0, solved.stderr
    refused = _cli(root, "query", "u.ppstore")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().endswith(f"pass --game {TARGET}")
    assert len(refused.stderr.splitlines()) == 1
    answered = _cli(root, "query", "u.ppstore", "4", "--game", TARGET, "--param", "heap=6")
    assert answered.returncode == 0 and "LOSE in 2" in answered.stdout


def _refused(result: subprocess.CompletedProcess[str], target: str) -> None:
    """One line on standard error naming the --game to pass, exit 2, nothing on stdout."""
    assert (result.returncode, result.stdout) == (2, "")
    assert f"which no installed package registers: pass --game {target}" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_store_of_an_unregistered_game_is_verified_and_served_with_game(
    tmp_path: Path,
) -> None:
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    import httpx

    root = _package(tmp_path, installed=False)
    game = ["--game", TARGET, "--param", "heap=6"]
    assert _cli(root, "solve", *game, "-o", "u.ppstore").returncode == 0
    _refused(_cli(root, "verify", "u.ppstore"), TARGET)
    verified = _cli(root, "verify", "u.ppstore", *game)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("verified: u.ppstore holds (7 positions, 15 moves")
    other = _cli(root, "verify", "u.ppstore", "--game", TARGET, "--param", "heap=7")
    assert other.returncode == 2 and "not {'heap': 7}" in other.stderr
    _refused(_cli(root, "serve", "u.ppstore", "--port", "0"), TARGET)
    with _serving(root, "u.ppstore", *game) as url:
        answer = httpx.get(f"{url}api/databases/u/position", params={"position": "4"}).json()
    # 4 tokens, take 1 to 3: whatever the mover takes, the other takes the rest
    assert (answer["game"], answer["value"], answer["remoteness"]) == ("take-three", "LOSE", 2)


def test_a_tier_directory_of_an_unregistered_class_is_verified_and_served_with_game(
    tmp_path: Path,
) -> None:
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    import httpx

    from perfectplay.api import solve
    from perfectplay.games.connect_four.rules import ConnectFour

    root = _package(tmp_path, installed=False)
    game = ["--game", TIERED, "--param", "rows=3", "--param", "cols=3"]
    solved = _cli(root, "solve", *game, "-o", "mine")  # a tier form: the tier engine, unasked
    assert solved.returncode == 0, solved.stderr
    assert f"tier engine: --game {TIERED} is a tier form" in solved.stderr
    _refused(_cli(root, "verify", "mine"), TIERED)
    verified = _cli(root, "verify", "mine", *game)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("verified: the tier directory mine holds")
    with _serving(root, "mine", *game) as url:
        answer = httpx.get(f"{url}api/databases/mine/position", params={"moves": "b"}).json()
    plain = ConnectFour(3, 3)
    child = dict((label, p) for label, p, *_ in plain.moves(plain.initial()))["b"]
    expected = solve(plain, progress=False)[child]  # the in-memory engine, independently
    assert (answer["game"], answer["value"]) == ("connect-four", expected.name)


def test_game_and_param_apply_to_saved_solutions_only(tmp_path: Path) -> None:
    from cli_helpers import run_cli

    (tmp_path / "g.txt").write_text("2 1\n0 1\n")
    result = run_cli(["verify", str(tmp_path / "g.txt"), "-", "--game", TARGET])
    assert result.code == 2 and result.out == ""
    assert "--game and --param apply to a store file or tier directory" in result.err
    assert len(result.err.splitlines()) == 1


def test_a_class_beside_the_user_is_solved_searched_drawn_played_and_served(
    tmp_path: Path,
) -> None:
    """``--game`` finds a module in the current directory without PYTHONPATH, and the word
    after it is the position, on every command that takes one."""
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    import httpx

    root = _package(tmp_path, installed=False)
    game = ["--game", TARGET, "--param", "heap=6"]
    solved = _cli(root, "solve", *game, on_path=False)
    assert solved.returncode == 0 and "start: WIN in 3" in solved.stdout, solved.stderr
    searched = _cli(root, "search", *game, "5", on_path=False)
    assert searched.returncode == 0 and "WIN" in searched.stdout, searched.stderr
    drawn = _cli(root, "draw", *game, "5", on_path=False)
    assert drawn.returncode == 0 and drawn.stdout.startswith("<svg"), drawn.stderr
    assert 'data-move="t1" data-value="WIN"' in drawn.stdout  # 5 - 1 = 4: the other loses
    played = _cli(root, "play", *game, "5", stdin="quit\n", on_path=False)
    assert played.returncode == 0 and "5" in played.stdout, played.stderr
    with _serving(root, *game, on_path=False) as url:
        listed = httpx.get(f"{url}api/games").json()["games"]
        page = httpx.get(f"{url}games/take-three", params={"params": "heap=6"})
        answer = httpx.get(f"{url}api/games/take-three/position", params={"position": "4"})
        for _ in range(100):  # solved on first use: 202 until then
            if answer.status_code == 200:
                break
            time.sleep(0.1)
            answer = httpx.get(f"{url}api/games/take-three/position", params={"position": "4"})
        other = httpx.get(f"{url}api/games/take-three/position", params={"params": "heap=7"})
    assert listed[0]["name"] == "take-three" and TARGET in listed[0]["description"]
    assert page.status_code == 200
    assert (answer.json()["value"], answer.json()["remoteness"]) == ("LOSE", 2)
    assert other.status_code == 400 and "fixed" in other.json()["error"]
