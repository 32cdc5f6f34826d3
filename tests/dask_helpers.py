"""A real Dask cluster for tests: a ``dask scheduler`` and ``dask worker`` processes of the
venv's own ``dask`` command on 127.0.0.1, killed whole at the end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

BIN = Path(sys.executable).parent


def start_process(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """Start a process in its own process group (killed whole at the end), output to `log`."""
    with open(log, "wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait_until(ready: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Cluster:
    """A scheduler and its workers, each a real process of the venv's ``dask`` command."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.processes: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        info = root / "scheduler.json"
        command = [
            str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
            "--no-dashboard", "--scheduler-file", str(info),
        ]  # fmt: skip
        self.processes.append(start_process(command, root / "scheduler.log"))
        wait_until(lambda: info.exists() and info.stat().st_size > 0, "the scheduler file")
        self.address: str = json.loads(info.read_text())["address"]

    def add_worker(self) -> subprocess.Popen[bytes]:
        """Start one more worker process (one thread, no nanny) and wait until it joined."""
        from distributed import Client

        name = f"w{len(self.processes)}"
        command = [
            str(BIN / "dask"), "worker", self.address, "--nworkers", "1", "--nthreads", "1",
            "--no-nanny", "--no-dashboard", "--name", name,
            "--local-directory", str(self.root / name),
        ]  # fmt: skip
        worker = start_process(command, self.root / f"{name}.log")
        self.processes.append(worker)
        self.workers.append(worker)
        with Client(self.address, timeout="30s") as client:  # type: ignore[no-untyped-call]
            wait_until(
                lambda: name in {w["name"] for w in client.scheduler_info()["workers"].values()},
                f"worker {name}",
            )
        return worker

    def close(self) -> None:
        for process in self.processes:
            stop_process(process)
