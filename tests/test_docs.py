"""Every console example in README.md and docs/*.md runs, and prints what the page shows.

A fenced ``console`` block is a sequence of ``$ COMMAND`` lines, each followed by the output it
shows. The commands run in order, in one fresh directory per block, so a file an earlier line
writes (``--save``, ``> FILE``) is there for the later ones. A command is ``perfectplay ARGS``,
optionally fed by ``printf 'TEXT' |``, ``echo WORDS |`` or ``< FILE`` and written to ``> FILE``,
or ``printf 'TEXT' > FILE`` to create a file; it runs in process, its standard output and
error interleaved as a terminal shows them.
Lines beginning ``> `` after an interactive command (``perfectplay play``) are what the person
types: they are its standard input, and the prompt they answer ends its line in the output.

The output compared has each line's trailing blanks removed; ``...`` in the shown output
matches anything (doctest's ELLIPSIS), across lines too.
A command shown without output must succeed (exit 0); its output is not compared. A block that
cannot run here (a cluster address, a server that runs until Ctrl-C, a program that is not
perfectplay) is preceded by an HTML comment ``<!-- not run: REASON -->``.
"""

from __future__ import annotations

import doctest
import io
import os
import re
import shlex
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
SLOW = 10.0  # seconds: an example slower than this should use a smaller board


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run_merged(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``perfectplay ARGS`` in process, standard output and error into one stream, interleaved
    as a terminal shows them; the exit code and what was printed."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    both = io.StringIO()
    with redirect_stdout(both), redirect_stderr(both):
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse usage errors
            code = int(exit_.code or 0)
    return code, both.getvalue()


@dataclass
class Command:
    line: int
    text: str
    typed: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    page: str
    line: int
    skip: str | None
    commands: list[Command]


def blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of one page, with the reason each one is not run (if marked)."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        if lines[k].strip() != "```console":
            k += 1
            continue
        before = next((x for x in reversed(lines[:k]) if x.strip()), "")
        mark = NOT_RUN.search(before)
        start = k + 1
        k = start
        commands: list[Command] = []
        while lines[k].strip() != "```":
            text = lines[k]
            if text.startswith("$ "):
                commands.append(Command(k + 1, text[2:]))
            elif commands and text.startswith("> "):
                commands[-1].typed.append(text[2:])
                commands[-1].shown.append("> ")
            elif commands:
                commands[-1].shown.append(text)
            else:
                commands.append(Command(k + 1, "", shown=[text]))  # no prompt: a bad block
            k += 1
        found.append(Block(path.name, start, mark.group(1) if mark else None, commands))
        k += 1
    return found


def _expected(command: Command) -> str:
    """The shown output, with each typed line's prompt ``> `` joined to the output after it."""
    text = ""
    for line in command.shown:
        text += line if line == "> " else line + "\n"
    return text


def _run(command: Command, where: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run one command line in `where`; its standard output and error."""
    assert command.text, f"line {command.line}: output before any $ command"
    lexer = shlex.shlex(command.text, posix=True, punctuation_chars="|<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    words = list(lexer)
    stdin = "\n".join(command.typed) + ("\n" if command.typed else "")
    if "|" in words:
        bar = words.index("|")
        stdin, words = _producer(words[:bar], command), words[bar + 1 :]
    target = None
    if ">" in words:
        k = words.index(">")
        target, words = where / words[k + 1], words[:k] + words[k + 2 :]
    if "<" in words:
        k = words.index("<")
        stdin, words = (where / words[k + 1]).read_text(), words[:k] + words[k + 2 :]
    if words[0] == "printf" and target is not None:
        target.write_text(_producer(words, command))
        return ""
    assert words[0] == "perfectplay", (
        f"line {command.line}: {command.text!r} is not a perfectplay command; "
        "mark the block <!-- not run: REASON -->"
    )
    if target is not None:  # standard output to the file, standard error shown
        result = run_cli(words[1:], stdin)
        target.write_text(result.out)
        code, printed = result.code, result.err
    else:
        code, printed = run_merged(words[1:], stdin, monkeypatch)
    if not command.shown:
        assert code == 0, f"line {command.line}: {command.text}\n{printed}"
    return printed


def _producer(words: list[str], command: Command) -> str:
    """What ``printf FORMAT`` (backslash escapes, no % conversions) or ``echo WORDS`` prints."""
    if words[0] == "echo":
        return " ".join(words[1:]) + "\n"
    assert words[0] == "printf" and len(words) == 2 and "%" not in words[1], (
        f"line {command.line}: only printf 'TEXT' or echo WORDS can feed a command"
    )
    return words[1].encode().decode("unicode_escape")


def _tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


ALL = [block for page in PAGES for block in blocks(page)]


def test_the_pages_have_console_examples() -> None:
    assert len(ALL) >= 15
    assert sum(block.skip is None for block in ALL) >= 10


@pytest.mark.parametrize("block", ALL, ids=[f"{b.page}:{b.line}" for b in ALL])
def test_console_example(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if block.skip is not None:
        pytest.skip(block.skip)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    checker = doctest.OutputChecker()
    for command in block.commands:
        began, began_cpu = time.perf_counter(), _cpu()
        got = _tidy(_run(command, tmp_path, monkeypatch))
        # the example's own cost: wall time grows with other jobs' load, CPU time with its
        # threads; the smaller of the two is slow only where the example is
        took = min(time.perf_counter() - began, _cpu() - began_cpu)
        assert took < SLOW, f"{block.page} line {command.line} took {took:.1f} s"
        if not command.shown:
            continue
        want = _tidy(_expected(command))
        assert checker.check_output(want + "\n", got + "\n", doctest.ELLIPSIS), (
            f"{block.page} line {command.line}: $ {command.text}\n"
            f"--- shown\n{want}\n--- printed\n{got}"
        )
