"""A game of one's own, everywhere: installed through an entry point, or named with --game.

The package is a directory on ``PYTHONPATH`` holding the module and a ``.dist-info`` with its
``entry_points.txt``: what ``pip install`` leaves, and what :mod:`importlib.metadata` reads.
Every command runs in a subprocess, as a user runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
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
            return None

        def encode(self, heap):
            return heap

        def decode(self, code):
            return code

        def parse(self, text):
            if not text.strip().isdigit():
                raise InputFormatError(f"expected a heap size, got {text!r}")
            return int(text)
    '''
)

TARGET = "usergames.rules:TakeThree"


def _package(root: Path, *, installed: bool) -> Path:
    """The package `usergames` under `root`, with its entry point when `installed`."""
    (root / "usergames").mkdir(parents=True)
    (root / "usergames" / "__init__.py").write_text("")
    (root / "usergames" / "rules.py").write_text(RULES)
    if installed:
        info = root / "usergames-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: usergames\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[perfectplay.games]\ntake-three = {TARGET}\n")
    return root


def _cli(root: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    source = Path(perfectplay.__file__).parents[1]  # this perfectplay, installed or not
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(root), str(source)))}
    code = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=300,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _package(tmp_path_factory.mktemp("installed"), installed=True)


def test_an_installed_game_works_with_every_command(installed: Path) -> None:
    listing = _cli(installed, "games")
    assert "take-three" in listing.stdout and "a user's game" in listing.stdout
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
