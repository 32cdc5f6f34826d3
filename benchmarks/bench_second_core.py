"""What one position's search gains from a second core: root splitting and a shared table.

Usage::

    python benchmarks/bench_second_core.py --set DIR/Test_L1_R3 [--limit 10] [--memory 16M]

For each of the first ``--limit`` positions of one of Pons's test sets (lines ``moves score``,
Connect Four 6 x 7), the position is searched strong, each scheme on a fresh table:

- ``one core``: the compiled search in this process (what ``perfectplay search`` does);
- ``root split``: its moves shared between two worker processes, each searching the exact
  score of its children on a table of its own; the position's score is the best of them;
- ``shared, same``: this process and a worker both search the position over one table in
  shared memory (entries are single 64-bit words, so neither can read a torn entry);
- ``shared, weak helper``: the worker searches the position's sign over the shared table
  while this process searches its score;
- ``shared, children``: the worker searches the position's children, last move first, over
  the shared table.

A scheme's time is the wall time until this process has the score (a helper still searching is
told to stop and finishes its current search, untimed, before the next scheme). The schemes
take turns at going first. Every score is checked against the file's. The table printed gives
each scheme's total, its ratio to one core and how many scores were right."""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from perfectplay._memory import parse_bytes
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.search._kernel_table import entries_for_bytes

ROWS, COLS = 6, 7
SCHEMES = ["one core", "root split", "shared, same", "shared, weak helper", "shared, children"]
WARM_UP = "2252576253462244111563365343671351441"  # an end-game position: searched at once


def _worker(conn: Connection, name: str, entries: int) -> None:
    """Answer jobs from `conn`: ``("split", children)`` exact scores on a table of its own;
    ``("help", [(position, weak), ...])`` searches over the shared table until told to stop."""
    game = ConnectFour(ROWS, COLS)
    kernel = game.search_kernel()
    own = np.zeros(entries, dtype=np.uint64)
    shm = shared_memory.SharedMemory(name=name)
    shared = np.ndarray((entries,), dtype=np.uint64, buffer=shm.buf)
    kernel.solve(game.parse(WARM_UP), False, own)  # loads the compiled kernels
    conn.send("ready")
    while (job := conn.recv()) is not None:
        kind, payload = job
        if kind == "split":
            own[:] = 0
            conn.send([kernel.solve(child, False, own)[0] for child in payload])
        elif kind == "help":
            for position, weak in payload:
                kernel.solve(position, weak, shared)
                if conn.poll():
                    break
            conn.send("helped")
        # "stop" arriving after a helper finished on its own needs no answer
    del shared
    shm.close()


def _scheme_times(
    game: ConnectFour, kernel: Any, lines: list[str], memory: int
) -> dict[str, tuple[float, int]]:
    entries = entries_for_bytes(memory)
    shm = shared_memory.SharedMemory(create=True, size=entries * 8)
    shared = np.ndarray((entries,), dtype=np.uint64, buffer=shm.buf)
    own = np.zeros(entries, dtype=np.uint64)
    pipes, workers = [], []
    for _ in range(2):
        here, there = mp.Pipe()
        worker = mp.Process(target=_worker, args=(there, shm.name, entries))
        worker.start()
        pipes.append(here)
        workers.append(worker)
    for pipe in pipes:
        pipe.recv()
    kernel.solve(game.parse(WARM_UP), False, own)
    totals = {name: [0.0, 0] for name in [*SCHEMES, "searched"]}
    print("# position, score: " + ", ".join(SCHEMES) + " (wall s)")
    try:
        for i, line in enumerate(lines):
            digits, expected = line.split()
            position = game.parse(digits)
            children = [child for _, child in game.moves(position)]
            if any(game.outcome(child) is not None for child in children):
                continue  # a win in one: every scheme answers at once
            row = {}
            turn = i % len(SCHEMES)  # each scheme goes first in turn
            for name in SCHEMES[turn:] + SCHEMES[:turn]:
                start = time.perf_counter()
                if name == "one core":
                    own[:] = 0
                    score = kernel.solve(position, False, own)[0]
                elif name == "root split":
                    pipes[0].send(("split", children[0::2]))
                    pipes[1].send(("split", children[1::2]))
                    score = max(-s for pipe in pipes for s in pipe.recv())
                else:
                    shared[:] = 0
                    help_with = {
                        "shared, same": [(position, False)],
                        "shared, weak helper": [(position, True)],
                        "shared, children": [(c, False) for c in reversed(children)],
                    }[name]
                    pipes[0].send(("help", help_with))
                    score = kernel.solve(position, False, shared)[0]
                elapsed = time.perf_counter() - start
                if name.startswith("shared"):
                    pipes[0].send(("stop", None))
                    pipes[0].recv()
                totals[name][0] += elapsed
                totals[name][1] += score == int(expected)
                row[name] = f"{elapsed:.2f}"
            totals["searched"][0] += 1
            times = " ".join(row[name] for name in SCHEMES)
            print(f"# {digits:>12} {expected:>3}: {times}", flush=True)
    finally:
        for pipe in pipes:
            pipe.send(None)
        for worker in workers:
            worker.join()
        del shared
        shm.close()
        shm.unlink()
    return {name: (t, int(right)) for name, (t, right) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", help="one of Pons's test sets (without: nothing is measured)")
    parser.add_argument("--limit", type=int, default=10, help="its first N positions")
    parser.add_argument("--memory", default="16M", help="each table's size (16M)")
    args = parser.parse_args()
    if args.set is None:
        print("# no --set FILE (one of Pons's Test_L*_R* files): nothing measured")
        return
    with open(args.set) as handle:
        lines = [line for line in handle.read().splitlines() if line.strip()][: args.limit]
    game = ConnectFour(ROWS, COLS)
    totals = _scheme_times(game, game.search_kernel(), lines, parse_bytes(args.memory))
    one = totals["one core"][0]
    searched = int(totals.pop("searched")[0])
    print(f"\n{searched} positions of {args.set} (no win in one), strong, tables of {args.memory}")
    print("| scheme | wall s | / one core | right |\n|---|---|---|---|")
    for name, (seconds, right) in totals.items():
        print(f"| {name} | {seconds:.2f} | {seconds / one:.2f} | {right} |")


if __name__ == "__main__":
    main()
