"""``python -m perfectplay`` is the ``perfectplay`` command: same output, same exit codes."""

from __future__ import annotations

import subprocess
import sys

from cli_helpers import run_cli


def _module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "perfectplay", *args], capture_output=True, text=True
    )


def test_python_m_perfectplay_answers_as_the_command() -> None:
    args = ["solve", "tictactoe", "--json"]
    done, expected = _module(*args), run_cli(args)
    assert (done.returncode, done.stdout) == (expected.code, expected.out) == (0, expected.out)


def test_python_m_perfectplay_refuses_bad_input_in_one_line_with_exit_code_2() -> None:
    done = _module("solve", "chess")
    assert done.returncode == 2
    assert done.stderr.startswith("perfectplay: error: ")
    assert len(done.stderr.strip().splitlines()) == 1
