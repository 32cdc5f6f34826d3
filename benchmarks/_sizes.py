"""``bench_search.py --sizes``: the empty board of every Connect Four size, solved by our search
and by Christophe Steininger's solver, checked against the published table of outcomes.

For every board of ``width + height <= --sizes-max`` (both sides at least ``--sizes-min``),
smallest first, our search solves the empty board in a child process of its own (the kernels
loaded first, then :func:`perfectplay.search.Searcher.search` timed alone, ``--memory`` of
table) and Steininger's solver, built for that size by :func:`bench_search.build_steininger`
(one thread, the same table memory), solves it too. Each side is stopped after
``--size-cap`` seconds of CPU time (its row then says ``> cap``). A row gives the outcome for
the first player and the move the game ends on under perfect play (a win on move N: the N-th
stone of the game is the winning one; a draw: the board fills up), both CPU times and their
ratio, and whether our answer, his and the published one agree ("-" when neither solver
finished).

The published outcomes (:data:`PUBLISHED`) are the two tables of Steininger's README ("Results":
"Outcome" and "Last Move"), https://github.com/ChristopheSteininger/c4 (the boards of width +
height <= 15 were first solved by John Tromp, https://tromp.github.io/c4/c4.html).

Run as a script, this file is the child process: ``python _sizes.py ROWS COLS MEMORY`` prints
our answer for the empty board as one JSON object.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PUBLISHED", "SizeRun", "board_sizes", "run_sizes"]

_OUTCOME = """
    4     5     6     7     8     9     10    11    12
4   D     D     2     D     2     2     2     2     2
5   D     D     D     D     1     1     1     1
6   D     D     2     1     2     2     1
7   D     D     1     D     1     1
8   D     D     2     1     2
9   D     D     1     D     1
10  D     D     2     1
11  D     D     1
12  D     D     2
13  D     D
"""
_LAST_MOVE = """
    4     5     6     7     8     9     10    11    12
4   16    20    24    28    32    36    40    44    48
5   20    25    30    35    39    41    47    51
6   24    30    36    41    48    52    59
7   28    35    41    49    53    55
8   32    40    48    55    62
9   36    45    53    63
10  40    50    60    69
11  44    55    63
12  48    60    72
13  52    65
"""
# Steininger's README, "Results" (tables "Outcome" and "Last Move"): columns are widths, rows
# heights; 1 and 2 a win for the first or the second player, D a draw (the board fills up).


def _published() -> dict[tuple[int, int], tuple[str, int]]:
    outcome_rows = _OUTCOME.split("\n")[2:-1]
    last_rows = _LAST_MOVE.split("\n")[2:-1]
    widths = [int(w) for w in _OUTCOME.split("\n")[1].split()]
    table = {}
    for outcome_row, last_row in zip(outcome_rows, last_rows, strict=True):
        height, *outcomes = outcome_row.split()
        _, *lasts = last_row.split()
        for width, outcome, last in zip(widths, outcomes, lasts, strict=False):
            winner = {"1": "1st", "2": "2nd", "D": "draw"}[outcome]
            table[width, int(height)] = (winner, int(last))
    return table


PUBLISHED: dict[tuple[int, int], tuple[str, int]] = _published()
"""``(width, height) -> (winner, move the game ends on)`` under perfect play, as Steininger
publishes them: ``"1st"``, ``"2nd"`` or ``"draw"``."""


def board_sizes(most: int, least: int) -> list[tuple[int, int]]:
    """Every ``(width, height)`` with ``width + height <= most``, both at least `least`, whose
    bitboard fits the search (``(height + 1) * width <= 128``: one word up to 64 bits, two
    past them), fewest cells first.

    >>> board_sizes(9, 4)
    [(4, 4), (4, 5), (5, 4)]
    >>> [s for s in board_sizes(16, 4) if (s[1] + 1) * s[0] > 64]  # two words
    [(11, 5), (6, 10), (10, 6), (7, 9), (9, 7), (8, 8)]
    """
    sizes = [
        (w, h)
        for w in range(least, most - least + 1)
        for h in range(least, most - w + 1)
        if (h + 1) * w <= 128
    ]
    return sorted(sizes, key=lambda s: (s[0] * s[1], s[0] + s[1], s))


def table_bytes(width: int, height: int, memory: int) -> int:
    """The table our search of the board takes: `memory`, or more where the two-word search's
    keys need it (``2**(17 + extra)`` entries, ``extra = (height + 1) * width - 64``).

    >>> table_bytes(7, 6, 16 << 20) >> 20, table_bytes(9, 7, 16 << 20) >> 20
    (16, 256)
    """
    from perfectplay.games.connect_four.rules import ConnectFour

    kernel = ConnectFour(height, width).search_kernel()
    return max(memory, getattr(kernel, "least_table_bytes", 0))


def his_table_bytes(width: int, height: int, memory: int) -> int:
    """The table Steininger's solver is built with: `memory`, or more past 64 bits, where his
    entries' 46 bits of hash need more than ``2**(bits - 45)`` entries (his ``entry.h`` asserts
    ``log2(entries) + 45 > bits``, ``bits = (height + 1) * width``; the entries a prime below
    the memory's 8-byte slots): ``2**(bits - 43)`` slots, 16 times ours.

    >>> his_table_bytes(7, 6, 16 << 20) >> 20, his_table_bytes(9, 7, 16 << 20) >> 20
    (16, 4096)
    """
    bits = (height + 1) * width
    return max(memory, 8 << (bits - 43) if bits > 64 else 0)


@dataclass
class SizeRun:
    """One solver's answer for the empty board of one size (``winner`` None: stopped)."""

    winner: str | None
    last_move: int | None
    cpu: float

    def cell(self, cap: float) -> str:
        return f"{self.cpu:.2f}" if self.winner is not None else f"> {cap:.0f}"


def _winner(value_name: str) -> str:
    return {"WIN": "1st", "LOSE": "2nd", "TIE": "draw"}[value_name]


def _timed(command: list[str], stdin: str, cap: float) -> tuple[str | None, float]:
    """Run `command` with `stdin`; its stdout (None if stopped after `cap` CPU seconds, or
    four times as long on the clock) and its CPU seconds (user + system, from ``os.wait4``)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap) + 1, int(cap) + 6))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as empty:
        child = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=out, cwd=empty, text=True, preexec_fn=limit
        )
        timer = threading.Timer(4 * cap, child.kill)
        timer.start()
        assert child.stdin is not None
        child.stdin.write(stdin)
        child.stdin.close()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        timer.cancel()
        out.seek(0)
        text = out.read().decode()
    cpu = usage.ru_utime + usage.ru_stime
    if child.returncode != 0:
        if child.returncode < 0:
            return None, cpu
        raise SystemExit(f"{' '.join(command)} failed with exit code {child.returncode}")
    return text, cpu


def ours(rows: int, cols: int, memory: int, cap: float) -> SizeRun:
    """Our search of the empty `rows` x `cols` board in a child process (see :func:`_child`)."""
    out, cpu = _timed([sys.executable, __file__, str(rows), str(cols), str(memory)], "", cap)
    if out is None:
        return SizeRun(None, None, cpu)
    answer = json.loads(out)
    return SizeRun(_winner(answer["value"]), answer["remoteness"], answer["cpu"])


def steininger(binary: str, rows: int, cols: int, cap: float) -> SizeRun:
    """His solver's strong score of the empty board (one empty line in), as a :class:`SizeRun`."""
    from perfectplay.games.connect_four.search import score_to_value

    out, cpu = _timed([binary], "\n", cap)
    if out is None:
        return SizeRun(None, None, cpu)
    value, remoteness = score_to_value(int(out.split()[-1]), 0, rows, cols)
    return SizeRun(_winner(value.name), remoteness, cpu)


def run_sizes(
    source: str | None,
    build: Callable[[str, str, int, int, int], str],
    memory: int,
    most: int,
    least: int,
    cap: float,
    sizes: list[tuple[int, int]] | None = None,
    most_table: int = 4 << 30,
) -> None:
    """Print the table of outcomes (see the module docstring). `source` is Steininger's
    checkout or bare git directory (None: his columns skipped); `build` his builder; `sizes`
    the ``(width, height)`` to run instead of :func:`board_sizes`; a size whose table
    (:func:`table_bytes`) passes `most_table` bytes is named and skipped."""
    print(
        f"# empty boards of {'width + height <= ' + str(most) if sizes is None else sizes} "
        f"(sides >= {least}); tables of "
        f"{memory >> 20} MiB; each side stopped after {cap:.0f} s of CPU; CPU seconds"
    )
    header = (
        f"{'w x h':>7} {'published':>12} {'ours':>12} {'ours cpu':>10} {'Stein':>12} "
        f"{'Stein cpu':>10} {'ours/St':>8} {'agree':>6}"
    )
    print(header)
    print("-" * len(header))
    for width, height in board_sizes(most, least) if sizes is None else sizes:
        table = table_bytes(width, height, memory)
        if table > most_table:
            print(f"{f'{width}x{height}':>7} skipped: our table needs {table >> 20:,} MiB")
            continue
        if table > memory:
            print(f"# {width}x{height}: tables of {table >> 20} MiB (two-word keys)")
        mine = ours(height, width, table, cap)
        his = None
        published = PUBLISHED.get((width, height))
        if source is not None and width >= 4 and height >= 4:
            with tempfile.TemporaryDirectory() as scratch:
                his_table = his_table_bytes(width, height, table)
                binary = build(source, scratch, height, width, his_table)
                his = steininger(binary, height, width, cap)
        solved = {(r.winner, r.last_move) for r in (mine, his) if r is not None and r.winner}
        answers = solved | ({published} if published else set())
        ratio = (
            f"{mine.cpu / max(his.cpu, 1e-9):.2f}"
            if his is not None and mine.winner and his.winner
            else "-"
        )
        print(
            f"{f'{width}x{height}':>7} {_said(published):>12} {_said(mine):>12} "
            f"{mine.cell(cap):>10} {_said(his):>12} "
            f"{his.cell(cap) if his else '-':>10} {ratio:>8} "
            f"{'NO' if len(answers) > 1 else 'yes' if solved else '-':>6}",
            flush=True,
        )


def _said(answer: SizeRun | tuple[str, int] | None) -> str:
    """``1st@41``, ``draw@49``: the winner and the move the game ends on."""
    if isinstance(answer, SizeRun):
        answer = (answer.winner, answer.last_move) if answer.winner else None  # type: ignore[assignment]
    return "-" if answer is None else f"{answer[0]}@{answer[1]}"


def _child(rows: int, cols: int, memory: int) -> None:
    """Search the empty board; print value, remoteness, nodes and the search's CPU seconds."""
    from perfectplay.games.connect_four.rules import ConnectFour
    from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch
    from perfectplay.search import Searcher
    from perfectplay.search._kernel_table import new_table

    game = ConnectFour(rows, cols)
    small = ConnectFour(4, 4)
    Searcher(small, memory=1 << 20).search(small.parse("1122"))  # load the kernels first
    if isinstance(game.search_kernel(), ConnectFourWideSearch):  # 4x4 across the two words
        ConnectFourWideSearch(small, 45).solve(small.parse("1122"), False, new_table(8 << 20))
    began = time.process_time()
    found = Searcher(game, memory=memory).search(game.initial(), best=False)
    cpu = time.process_time() - began
    print(
        json.dumps(
            {
                "value": found.value.name,
                "remoteness": found.remoteness,
                "nodes": found.nodes,
                "cpu": cpu,
            }
        )
    )


if __name__ == "__main__":
    _child(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
