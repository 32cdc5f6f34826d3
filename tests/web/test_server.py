"""``perfectplay serve`` as a real process (perfectplay.web.server): loopback by default, other
addresses only when given with --host, and 50 concurrent API clients for 10 s without an error
and with the server's memory flat (the command's own errors: tests/cli/test_serve.py)."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

import httpx
from web_helpers import running_server

import perfectplay
from perfectplay.games.registry import load_game
from perfectplay.web.server import bind, is_loopback, url

CLIENTS = 50
SECONDS = float(os.environ.get("LOAD_SECONDS", "10"))
"""How long the clients run (``LOAD_SECONDS=60`` for a longer look at the server's memory)."""
RSS_GROWTH = 32 << 20
"""Memory flat: the server's resident memory at the end of the load exceeds that at its start
by less than this (bytes). Measured: see docs/web.md."""


def _rss(pid: int) -> int:
    """Resident memory of process `pid` in bytes (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) << 10
    raise AssertionError(f"no VmRSS for process {pid}")


def _outside_address() -> str | None:
    """An address of this machine other hosts could reach, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: picks a route, sends nothing
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def test_binds_loopback_by_default_and_prints_the_urls(tmp_path: Path) -> None:
    with running_server("nim", "--param", "heaps=1,2") as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.process.stdout is not None
        page = server.process.stdout.readline().split()
        assert page == ["nim:", f"{server.url}games/nim?params=heaps%3D1%2C2"]
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        assert _reachable("127.0.0.1", port)
        outside = _outside_address()
        if outside is not None:
            assert not _reachable(outside, port)
        address = f"{server.url}api/games/nim/position?params=heaps%3D1%2C2"
        deadline = time.monotonic() + 60
        while (answer := httpx.get(address)).status_code == 202:  # named: solved at start
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert answer.json()["position"] == "1 2"


def test_another_address_is_served_only_when_given_with_host() -> None:
    with pytest.raises(perfectplay.InputFormatError, match="not a loopback address"):
        bind("0.0.0.0", 0)
    warning = (
        r"perfectplay: warning: serving on 0\.0\.0\.0, which other machines can reach: "
        r"anyone who can connect uses this server \(no login, nothing encrypted\)\n"
    )
    with running_server("--host", "0.0.0.0", stderr=warning) as server:
        assert server.url.startswith("http://0.0.0.0:")
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        assert httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200
        outside = _outside_address()
        if outside is not None:
            assert httpx.get(f"http://{outside}:{port}/api/games").status_code == 200


def test_loopback_names() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.5.6.7") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("::")


def test_an_ipv6_address_is_bracketed_in_the_url() -> None:
    try:
        sock = bind("::1", 0)
    except OSError as error:  # a machine without IPv6
        pytest.skip(f"no IPv6 loopback here: {error}")
    with sock:
        assert url(sock).startswith("http://[::1]:")


def _lines(game: Any, count: int, seed: int) -> list[str]:
    """`count` move sequences (comma-joined labels) from random games of `game`, any length."""
    solved, rng, lines = perfectplay.solve(game), random.Random(seed), []
    for _ in range(count):
        position, labels = solved.initial, []
        while moves := solved.move_values(position):
            move = rng.choice(moves)
            labels.append(move.label)
            position = move.position
        lines.append(",".join(labels[: rng.randint(0, len(labels))]))
    return lines


async def _hammer(
    base: str, requests: list[tuple[str, dict[str, str], int]], pid: int
) -> dict[str, Any]:
    """`CLIENTS` clients asking random `requests` for `SECONDS`; statuses, latencies, and the
    resident memory of the server (process `pid`) every half second."""
    statuses: Counter[str] = Counter()
    latencies: list[float] = []
    rss: list[int] = [_rss(pid)]
    stop = time.monotonic() + SECONDS

    async def sample() -> None:
        while time.monotonic() < stop:
            await asyncio.sleep(0.5)
            rss.append(_rss(pid))

    async def client(seed: int) -> None:
        rng = random.Random(seed)
        # Plain HTTP on loopback: verify=False spares each client loading the CA certificates
        # (about 20 ms of CPU each, seconds for 50 clients on a busy machine).
        async with httpx.AsyncClient(base_url=base, timeout=60, verify=False) as http:
            while time.monotonic() < stop:
                path, params, expected = rng.choice(requests)
                began = time.perf_counter()
                try:
                    answer = await http.get(path, params=params)
                    ok = answer.status_code == expected and "json" in answer.headers["content-type"]
                    statuses["ok" if ok else f"{path} {params}: {answer.status_code}"] += 1
                except httpx.HTTPError as error:
                    statuses[f"{type(error).__name__}: {error}"] += 1
                latencies.append(time.perf_counter() - began)

    await asyncio.gather(sample(), *(client(seed) for seed in range(CLIENTS)))
    rss.append(_rss(pid))
    return {"statuses": statuses, "latencies": latencies, "rss": rss}


def test_fifty_concurrent_clients_for_ten_seconds_without_an_error_memory_flat(
    tmp_path: Path,
) -> None:
    ttt = load_game("tic-tac-toe")
    database = tmp_path / "ttt.ppstore"
    perfectplay.save(database, perfectplay.solve(ttt))
    c4 = load_game("connect-four", rows=4, cols=4)
    requests: list[tuple[str, dict[str, str], int]] = [("/api/games", {}, 200)]
    requests += [("/api/databases/ttt/position", {"moves": m}, 200) for m in _lines(ttt, 50, 1)]
    requests += [
        ("/api/games/connect-four/position", {"params": "rows=4;cols=4", "moves": m}, 200)
        for m in _lines(c4, 50, 2)
    ]
    requests += [
        ("/api/games/chess/position", {}, 404),
        ("/api/databases/ttt/position", {"moves": "b2,b2"}, 400),
        ("/api/games/connect-four/position", {"params": "rows=x"}, 400),
    ]
    with running_server(
        "connect-four", str(database), "--param", "rows=4", "--param", "cols=4"
    ) as server:
        deadline = time.monotonic() + 120
        path, params, _ = requests[-4]  # a Connect Four position: solved at start
        while (
            answer := httpx.get(server.url + path.lstrip("/"), params=params)
        ).status_code == 202:
            assert time.monotonic() < deadline, "connect-four 4x4 was not solved in 2 minutes"
            time.sleep(0.1)
        assert answer.status_code == 200
        result = asyncio.run(_hammer(server.url, requests, server.process.pid))
    statuses, latencies, rss = result["statuses"], result["latencies"], result["rss"]
    errors = {k: n for k, n in statuses.items() if k != "ok"}
    assert errors == {}
    latencies.sort()
    print(
        f"\n{len(latencies)} requests by {CLIENTS} clients in {SECONDS:.0f} s: "
        f"{len(latencies) / SECONDS:.0f} requests/s, latency median "
        f"{statistics.median(latencies) * 1000:.0f} ms, "
        f"99th percentile {latencies[int(0.99 * len(latencies))] * 1000:.0f} ms; server RSS "
        f"{rss[0] / 2**20:.1f} MiB at the start, {rss[-1] / 2**20:.1f} MiB at the end, "
        f"{max(rss) / 2**20:.1f} MiB at most"
    )
    assert len(latencies) > CLIENTS
    assert rss[-1] - rss[0] < RSS_GROWTH, [f"{r / 2**20:.1f} MiB" for r in rss]


def test_a_burst_of_requests_for_big_games_starts_at_most_two_solves() -> None:
    """40 clients at once ask for 10 games of about 10 s of solving each: two are taken (one
    solving, one next), every other request answers 503 at once, naming them."""
    heaps = [1_000_000 + k for k in range(10)]

    async def burst(base: str) -> list[tuple[int, int, dict[str, Any], str | None]]:
        async with httpx.AsyncClient(base_url=base, timeout=60, verify=False) as http:

            async def ask(heap: int) -> tuple[int, int, dict[str, Any], str | None]:
                answer = await http.get(
                    "/api/games/subtraction/position", params={"params": f"heap={heap}"}
                )
                return heap, answer.status_code, answer.json(), answer.headers.get("Retry-After")

            return await asyncio.gather(*(ask(h) for h in heaps * 4))

    with running_server() as server:
        before = _rss(server.process.pid)
        began = time.monotonic()
        answers = asyncio.run(burst(server.url))
        seconds = time.monotonic() - began
        after = _rss(server.process.pid)
    taken = {heap for heap, status, _, _ in answers if status == 202}
    assert 1 <= len(taken) <= 2, answers
    for heap, status, body, retry in answers:
        if status == 202:
            assert body["solving"] is True
            continue
        assert status == 503 and heap not in taken and retry == "5", (heap, status, body)
        assert body["busy"] is True and body["limit"] == 2
        named = {int(label.split()[1].removeprefix("heap=")) for label in body["solving"]}
        assert 1 <= len(body["solving"]) <= 2 and named <= taken
    print(
        f"\n{len(answers)} requests for {len(heaps)} games in {seconds:.2f} s: {len(taken)} "
        f"solves started, {sum(s == 503 for _, s, _, _ in answers)} answered 503; server RSS "
        f"{before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after"
    )
