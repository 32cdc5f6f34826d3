"""Run the command line in-process and capture its output, exit code and error line."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass

from perfectplay.cli import main


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(args: list[str], stdin: str | bytes = b"") -> Result:
    """Call ``perfectplay ARGS`` with `stdin`; return exit code, stdout and stderr."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    fake_in = io.TextIOWrapper(io.BytesIO(data))
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = fake_in, out, err
    try:
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse usage errors
            code = int(exit_.code or 0)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return Result(code, out.getvalue(), err.getvalue())
