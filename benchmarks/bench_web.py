"""Web app benchmark: the cost of one position answer, and a real server under load.

Three parts, each a table row per case:

* in process: ``position_report`` (moves replayed, board and value-history chart drawn) plus
  JSON encoding, i.e. the server's own work per answer, median of many calls;
* one client: a real ``perfectplay serve`` process on a free loopback port, one request at a
  time (HTTP and the client included), median latency, and the server's CPU time per request
  (from ``/proc``: what the answer costs the server whatever else the machine runs);
* concurrent clients: 50 clients (httpx, one event loop) asking random positions for 5 s;
  requests per second and latency percentiles. The clients share the machine's cores with
  the server.

Run: ``.venv/bin/python benchmarks/bench_web.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx

import perfectplay
from perfectplay.games.registry import load_game
from perfectplay.protocol.answers import Answers
from perfectplay.web.report import position_report

SEED = 20261124
CLIENTS = 50
SECONDS = 5.0
CASES = [
    ("tic-tac-toe", "", load_game("tic-tac-toe")),
    ("connect-four", "rows=4;cols=5", load_game("connect-four", rows=4, cols=5)),
]


def _lines(
    solved: perfectplay.GameSolution[Any], count: int, rng: random.Random
) -> list[list[str]]:
    """Move sequences of `count` random games, cut at random plies."""
    lines = []
    for _ in range(count):
        position, labels = solved.initial, []
        while moves := solved.move_values(position):
            move = rng.choice(moves)
            labels.append(move.label)
            position = move.position
        lines.append(labels[: rng.randint(0, len(labels))])
    return lines


def in_process(lines: dict[str, list[list[str]]], solutions: dict[str, Answers]) -> None:
    print(f"{'in process':<28} {'answers':>8} {'median ms':>10} {'bytes':>8}")
    for name, *_ in CASES:
        times, size = [], 0
        for moves in lines[name]:
            start = time.perf_counter()
            body = json.dumps(position_report(solutions[name], None, moves))
            times.append(time.perf_counter() - start)
            size += len(body)
        print(
            f"{name:<28} {len(times):>8} {statistics.median(times) * 1e3:>10.2f} "
            f"{size // len(times):>8}"
        )


def _start_server() -> tuple[subprocess.Popen[str], str]:
    code = "import sys; from perfectplay.cli import main; sys.exit(main())"
    args = ["serve", "--port", "0", *(name for name, *_ in CASES)]
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    found = re.search(r"http://\S+/", process.stdout.readline())
    assert found is not None, "perfectplay serve printed no URL"
    return process, found.group(0)


def _requests(lines: dict[str, list[list[str]]]) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"api/games/{name}/position", {"params": params, "moves": ",".join(moves)})
        for name, params, _ in CASES
        for moves in lines[name]
    ]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_client(base: str, lines: dict[str, list[list[str]]], pid: int) -> None:
    print(f"{'one client':<28} {'requests':>8} {'median ms':>10} {'server CPU ms':>14}")
    with httpx.Client(base_url=base, timeout=120) as client:
        for name, params, _ in CASES:
            while (
                client.get(f"api/games/{name}/position", params={"params": params}).status_code
                == 202
            ):
                time.sleep(0.1)  # still solving (started when the server started)
        rows = [("/api/games", [("api/games", {})] * 200)]
        rows += [(name, [r for r in _requests(lines) if f"/{name}/" in r[0]]) for name, *_ in CASES]
        for label, requests in rows:
            times = []
            cpu = _cpu_seconds(pid)
            for path, params in requests:
                start = time.perf_counter()
                answer = client.get(path, params=params)
                times.append(time.perf_counter() - start)
                assert answer.status_code == 200, answer.text
            per_request = (_cpu_seconds(pid) - cpu) / len(times)
            print(
                f"{label:<28} {len(times):>8} {statistics.median(times) * 1e3:>10.2f} "
                f"{per_request * 1e3:>14.2f}"
            )


async def _hammer(base: str, requests: list[tuple[str, dict[str, str]]]) -> list[float]:
    stop = time.monotonic() + SECONDS
    latencies: list[float] = []

    async def client(seed: int) -> None:
        rng = random.Random(seed)
        # Plain HTTP on loopback: verify=False spares each client loading the CA certificates.
        async with httpx.AsyncClient(base_url=base, timeout=120, verify=False) as http:
            while time.monotonic() < stop:
                path, params = rng.choice(requests)
                start = time.perf_counter()
                answer = await http.get(path, params=params)
                latencies.append(time.perf_counter() - start)
                assert answer.status_code == 200, answer.text

    await asyncio.gather(*(client(SEED + k) for k in range(CLIENTS)))
    return latencies


def concurrent(base: str, lines: dict[str, list[list[str]]]) -> None:
    latencies = sorted(asyncio.run(_hammer(base, _requests(lines))))
    print(
        f"{'concurrent clients':<28} {'requests':>8} {'per s':>8} {'median ms':>10} {'p99 ms':>8}"
    )
    print(
        f"{f'{CLIENTS} clients, {SECONDS:.0f} s':<28} {len(latencies):>8} "
        f"{len(latencies) / SECONDS:>8.0f} {statistics.median(latencies) * 1e3:>10.1f} "
        f"{latencies[int(0.99 * len(latencies))] * 1e3:>8.1f}"
    )


def main() -> None:
    rng = random.Random(SEED)
    solved = {name: perfectplay.solve(game) for name, _, game in CASES}
    solutions: dict[str, Answers] = {name: solved[name] for name, *_ in CASES}
    lines = {name: _lines(solved[name], 200, rng) for name, *_ in CASES}
    in_process(lines, solutions)
    process, base = _start_server()
    try:
        one_client(base, lines, process.pid)
        concurrent(base, lines)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


if __name__ == "__main__":
    main()
