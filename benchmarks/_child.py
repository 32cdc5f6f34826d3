"""Running ``perfectplay`` as a child process for the benchmarks: its command, time and memory.

A benchmark that measures a whole command (interpreter start-up, imports, reading the input,
printing the answer) runs it in a child process with the input file on stdin, and reads the
child's CPU time and peak memory from ``os.wait4`` (its own figures, not the parent's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

__all__ = ["perfectplay_command", "run_child"]


def perfectplay_command() -> list[str]:
    """The ``perfectplay`` command of this interpreter's environment, as an argument list.

    The installed entry point if there is one; otherwise the same entry point through
    ``python -c`` (a checkout that is not installed).
    """
    script = os.path.join(os.path.dirname(sys.executable), "perfectplay")
    if os.path.exists(script):
        return [script]
    return [sys.executable, "-c", "import sys; from perfectplay.cli import main; sys.exit(main())"]


def run_child(
    args: list[str], stdin_path: str, env: dict[str, str] | None = None, cwd: str | None = None
) -> tuple[float, float, int, str]:
    """Run a command with a file on stdin: wall s, CPU s (user + sys), max RSS bytes, stdout.

    `env` is the child's environment and `cwd` its directory (default: this process's).

    Raises SystemExit, naming the command, if it exits with a nonzero code.
    """
    with open(stdin_path, "rb") as source, tempfile.TemporaryFile() as out:
        wall = time.perf_counter()
        child = subprocess.Popen(args, stdin=source, stdout=out, env=env, cwd=cwd)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - wall
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if code != 0:
        raise SystemExit(f"{' '.join(args)} failed with exit code {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, text
