"""Run ``perfectplay serve`` as a real process on a free loopback port (server, browser tests)."""

from __future__ import annotations

import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_MAIN = "import sys; from perfectplay.cli import main; sys.exit(main())"
_URL = re.compile(r"serving on (http://\S+/)")


@dataclass
class Server:
    url: str
    """The root URL the server printed (``http://127.0.0.1:PORT/``)."""
    process: subprocess.Popen[str]
    lines: list[str]
    """What the server printed up to and including its URL line."""


def _read_line(process: subprocess.Popen[str], deadline: float) -> str:
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(max(deadline - time.monotonic(), 0.0)):
            raise TimeoutError("perfectplay serve printed no URL in time")
    return process.stdout.readline()


@contextmanager
def running_server(*args: str, timeout: float = 120.0, stderr: str = "") -> Iterator[Server]:
    """``perfectplay serve --port 0 ARGS`` in a child process; stopped by Ctrl-C (SIGINT) at exit.

    Asserts the server exits with code 0 and writes on standard error exactly what the regular
    expression `stderr` matches (by default nothing).
    """
    process = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        found = None
        while found is None:
            line = _read_line(process, deadline)
            if not line:
                raise AssertionError(f"perfectplay serve ended: {process.communicate()[1]}")
            lines.append(line.rstrip("\n"))
            found = _URL.search(line)
        yield Server(found.group(1), process, lines)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            err = process.communicate(timeout=30)[1]
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
    assert process.returncode == 0, err
    assert re.fullmatch(stderr, err), err
