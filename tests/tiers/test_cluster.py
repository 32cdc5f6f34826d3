"""The tier engine on a real Dask cluster: a ``dask scheduler`` and ``dask worker`` processes
started from the project's environment, talking TCP on 127.0.0.1, against in-process solves.

Every tier file and the analysis equal the in-process run's; independent tiers (Quixo's, random
tiered games') run side by side, within the memory budget, into the same files as one tier at
a time; a worker killed with SIGKILL in the middle of a tier changes nothing; a driver killed
with SIGKILL and run again keeps the chunks and tiers it had completed (counted in the run's
stats). Bad ``--dask`` input is one line and exit code 2, with nothing written.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask_helpers
import pytest
import tiered_random
from cli_helpers import run_cli
from dask_helpers import Cluster, start_process, stop_process, wait_until
from tier_dirs import memory_dir, tree
from tiered_random import RandomTieredGame

import perfectplay._dask
from perfectplay import _memory
from perfectplay.errors import ClusterError, InputFormatError, TooLargeError
from perfectplay.games.connect_four.tiers import TieredConnectFour
from perfectplay.games.registry import load_tiered_game
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers import cluster, scheduler, solve_tiers
from perfectplay.tiers.plan import DASK_CHUNK, SolveStats, chunk_bounds, tier_order
from perfectplay.tiers.shared import shared_prefix
from perfectplay.tiers.storage import DirectoryStore, game_manifest
from perfectplay.tiers.tasks import TaskResult, solve_token

pytest.importorskip("distributed")

CHUNK = 262144  # 5x5: 673 chunks in 26 tiers, 95 in the largest
DRIVER = "import sys; from perfectplay.cli import main; sys.exit(main(sys.argv[1:]))"
TESTS = str(Path(tiered_random.__file__).parent)


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    yield from memory_dir(Path(tempfile.mkdtemp(prefix="perfectplay-cluster-")))


@pytest.fixture(scope="module")
def dask_cluster(scratch: Path) -> Iterator[Cluster]:
    """Two workers of at most 1 GB each (the machine runs other work) that import the tests'
    helper modules (the random tiered games)."""
    root = scratch / "cluster"
    root.mkdir()

    def small(args: list[str], log: Path) -> subprocess.Popen[bytes]:
        worker = args[1:2] == ["worker"]
        return start_process([*args, "--memory-limit", "1GB"] if worker else args, log)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dask_helpers, "start_process", small)
        patch.setenv("PYTHONPATH", os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")]))
        running = Cluster(root)
        try:
            running.add_worker()
            running.add_worker()
            yield running
        finally:
            running.close()


def _reference(scratch: Path, rows: int, cols: int) -> Path:
    """The in-process solve of Connect Four rows x cols (made once per test run)."""
    directory = scratch / f"reference-{rows}x{cols}"
    if not directory.exists():
        game = load_tiered_game("connect-four", rows=rows, cols=cols)
        solve_tiers(game, directory, chunk_size=CHUNK, progress=False).close()
    return directory


def _command(directory: Path, address: str, rows: int, cols: int, chunk: int) -> list[str]:
    return [
        sys.executable, "-c", DRIVER, "solve", "connect-four", "--param", f"rows={rows}",
        "--param", f"cols={cols}", "--tiers", str(directory), "--chunk-size", str(chunk),
        "--dask", address, "--json",
    ]  # fmt: skip


def _analysis(directory: Path) -> object:
    result = run_cli(["analyze", str(directory), "--json"])
    assert result.code == 0, result.err
    return json.loads(result.out)


def _same_as_reference(directory: Path, reference: Path) -> None:
    assert tree(directory) == tree(reference)
    assert _analysis(directory) == _analysis(reference)
    _no_shared_copy_left(directory)


def _no_shared_copy_left(directory: Path) -> None:
    """The workers' shared child tiers (/dev/shm) are removed at the end of a solve."""
    token = solve_token(os.path.abspath(directory))
    assert not glob.glob(glob.escape(shared_prefix(token)) + "*")


def test_connect_four_4x5_on_the_cluster_equals_the_in_process_files(
    scratch: Path, dask_cluster: Cluster
) -> None:
    directory = scratch / "dask-4x5"
    done = subprocess.run(
        _command(directory, dask_cluster.address, 4, 5, CHUNK), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)["run"]
    game = load_tiered_game("connect-four", rows=4, cols=5)
    chunks = sum(len(_chunks(game.tier_size(t), CHUNK)) for t in game.tiers())
    assert run == {"tiers_solved": 21, "tiers_kept": 0, "chunks_solved": chunks, "chunks_kept": 0}
    assert f"scheduler {dask_cluster.address}, 2 workers" in done.stderr
    _same_as_reference(directory, _reference(scratch, 4, 5))


def _chunks(size: int, chunk: int) -> list[tuple[int, int]]:
    """The chunks of a tier of `size` ranks in a directory of chunks of `chunk` ranks."""
    return chunk_bounds(size, chunk, min(chunk, 1 << 18))


def _chunk_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("tier-*.chunks/*.tier"))


def _tier_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("tier-*.tier"))


def test_a_worker_killed_mid_tier_changes_nothing_on_5x5(
    scratch: Path, dask_cluster: Cluster
) -> None:
    directory = scratch / "dask-5x5"
    game = load_tiered_game("connect-four", rows=5, cols=5)
    largest = max(game.tiers(), key=game.tier_size)
    chunks = directory / f"tier-{game.tier_label(largest)}.chunks"
    driver = start_process(
        _command(directory, dask_cluster.address, 5, 5, CHUNK), scratch / "5x5.log"
    )
    try:
        # Mid-tier: some chunks of the largest tier written, most still to come.
        wait_until(lambda: len(list(chunks.glob("*.tier"))) >= 5 or driver.poll() is not None, "")
        assert driver.poll() is None, (scratch / "5x5.log").read_text()
        victim = dask_cluster.workers.pop(0)
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
        written = len(list(chunks.glob("*.tier")))
        assert written < len(_chunks(game.tier_size(largest), CHUNK))
        dask_cluster.add_worker()
        assert driver.wait(timeout=240) == 0, (scratch / "5x5.log").read_text()
    finally:
        stop_process(driver)
    _same_as_reference(directory, _reference(scratch, 5, 5))


def test_a_driver_killed_mid_tier_then_run_again_keeps_what_was_complete(
    scratch: Path, dask_cluster: Cluster
) -> None:
    chunk = 65536  # 4x5 in 99 chunks
    directory = scratch / "driver-4x5"
    command = _command(directory, dask_cluster.address, 4, 5, chunk)
    driver = start_process(command, scratch / "driver.log")
    try:
        wait_until(
            lambda: (
                (len(_tier_files(directory)) >= 2 and len(_chunk_files(directory)) >= 2)
                or driver.poll() is not None
            ),
            "two tiers and two chunks of a third",
        )
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    finally:
        stop_process(driver)
    tiers = _tier_files(directory)
    chunks = [c for c in _chunk_files(directory) if c.parent.stem + ".tier" not in tiers]
    assert len(tiers) >= 2 and chunks, "the driver finished before it could be killed"
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    run = json.loads(again.stdout)["run"]
    game = load_tiered_game("connect-four", rows=4, cols=5)
    assert run["tiers_kept"] == len(tiers)
    assert run["tiers_solved"] == 21 - len(tiers)
    # Chunks found complete are not solved again (tasks of the killed driver still running on
    # the workers may add a few more before the new driver looks).
    assert run["chunks_kept"] >= len(chunks)
    labels = {f"tier-{game.tier_label(t)}.tier": t for t in game.tiers()}
    pending = sum(
        len(_chunks(game.tier_size(t), chunk)) for n, t in labels.items() if n not in tiers
    )
    assert run["chunks_kept"] + run["chunks_solved"] == pending
    reference = scratch / "reference-4x5-small-chunks"
    solve_tiers(game, reference, chunk_size=chunk, progress=False).close()
    assert tree(directory) == tree(reference)
    _no_shared_copy_left(directory)


def test_a_local_cluster_prints_its_dashboard_and_gives_the_in_process_files(
    scratch: Path,
) -> None:
    game = load_tiered_game("connect-four", rows=4, cols=4)
    reference = scratch / "reference-4x4"
    solve_tiers(game, reference, chunk_size=4096, progress=False).close()
    directory = scratch / "local-4x4"
    done = subprocess.run(
        _command(directory, "local:2", 4, 4, 4096), capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"local cluster of 2 worker processes, 1 thread each, dashboard http://127\.0\.0\.1:\d+/",
        done.stderr,
    )
    ranks = sum(game.tier_size(t) for t in game.tiers())
    assert f"worker processes solved {ranks:,} ranks" in done.stderr
    assert tree(directory) == tree(reference)
    _no_shared_copy_left(directory)


def test_tiers_with_inner_moves_run_as_tasks_too(scratch: Path, dask_cluster: Cluster) -> None:
    game = load_tiered_game("dodgem", size=3)
    reference = scratch / "dodgem-reference"
    solve_tiers(game, reference, chunk_size=DASK_CHUNK, progress=False).close()  # Dask's default
    directory = scratch / "dodgem-dask"
    with solve_tiers(game, directory, dask=dask_cluster.address, progress=False) as db:
        assert db.stats.tiers_solved == len(game.tiers())
    assert tree(directory) == tree(reference)


@pytest.mark.parametrize(("variant", "stones"), [("six", 4), ("lasker", 3)])
def test_morris_loopy_tiers_joined_by_captures_give_the_in_process_files(
    scratch: Path, dask_cluster: Cluster, variant: str, stones: int
) -> None:
    """Morris with 4 stones on the six board: placement tiers, then loopy move tiers of two
    blocks joined by captures; Lasker Morris with 3: loopy placement tiers too."""
    game = load_tiered_game("nine-mens-morris", variant=variant, stones=stones)
    assert any(len(game.blocks(t)) == 2 and game.inner_moves(t) for t in game.tiers())
    reference = scratch / f"morris-{variant}-reference"
    solve_tiers(game, reference, jobs=2, chunk_size=4096, progress=False).close()
    directory = scratch / f"morris-{variant}-dask"
    run = _solve_here(game, directory, dask_cluster.address, 4096)
    assert {r.tier for r in run.results} == set(game.tiers())
    assert tree(directory) == tree(reference)
    assert _analysis(directory) == _analysis(reference)
    _no_shared_copy_left(directory)


def test_tiers_whose_files_are_removed_are_solved_again_on_the_cluster_and_no_other(
    scratch: Path, dask_cluster: Cluster
) -> None:
    """Morris with 4 stones on the six board: a loopy move tier and a placement tier that
    reads it removed with a tier neither reads; ``solve_some_tiers`` of the placement tier
    on the cluster writes the two again, byte for byte, and leaves the third out."""
    from perfectplay.tiers.engine import solve_some_tiers
    from perfectplay.tiers.storage import tier_file

    game = load_tiered_game("nine-mens-morris", variant="six", stones=4)
    labels = {game.tier_label(t): t for t in game.tiers()}
    directory = scratch / "morris-some"
    solve_tiers(game, directory, jobs=2, chunk_size=4096, progress=False).close()
    solved = tree(directory)
    removed = ["3_3_0_0", "2_3_1_0", "4_4_0_0"]
    assert labels["3_3_0_0"] in game.child_tiers(labels["2_3_1_0"])
    for label in removed:
        os.remove(tier_file(str(directory), label))
    stats = solve_some_tiers(
        game, directory, [labels["2_3_1_0"]], dask=dask_cluster.address, progress=False
    )
    assert stats.tiers_solved == 2
    assert tree(directory) == {k: v for k, v in solved.items() if k != "tier-4_4_0_0.tier"}
    _no_shared_copy_left(directory)


def test_a_solve_that_fails_midway_leaves_no_shared_copy(
    scratch: Path, dask_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_tiered_game("connect-four", rows=4, cols=4)
    directory = scratch / "fails-4x4"
    merge, merged = DirectoryStore.merge, []

    def failing(store: DirectoryStore, tier: int, starts: list[int]) -> None:
        if len(merged) == 3:  # the tasks of this tier mapped the shared copy of the last one
            raise OSError(28, "No space left on device")
        merged.append(tier)
        merge(store, tier, starts)

    monkeypatch.setattr(DirectoryStore, "merge", failing)
    with pytest.raises(OSError, match="No space left"):
        solve_tiers(game, directory, dask=dask_cluster.address, chunk_size=4096, progress=False)
    assert len(merged) == 3
    _no_shared_copy_left(directory)


def test_the_in_process_engine_never_imports_dask() -> None:
    code = (
        "import sys; from perfectplay.games.registry import load_tiered_game; "
        "from perfectplay.tiers import solve_tiers; "
        "solve_tiers(load_tiered_game('connect-four', rows=3, cols=3), progress=False); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--dask", "local:0"], "--dask takes local:N"),
        (["--dask", "local:2x0"], "--dask takes local:N"),
        (["--dask", "local:2x"], "--dask takes local:N"),
        (["--dask", "127.0.0.1:8786"], "--dask takes local:N"),
        (["--dask", "local:2", "--jobs", "2"], "with --dask the cluster's workers"),
    ],
)
def test_bad_dask_options_are_one_line_and_write_nothing(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    directory = tmp_path / "new"
    result = run_cli(
        ["solve", "connect-four", "--param", "rows=3", "--param", "cols=3", "--tiers",
         str(directory), *extra],
    )  # fmt: skip
    assert result.code == 2
    assert message in result.err and len(result.err.strip().splitlines()) == 1
    assert not directory.exists()


def test_dask_without_tiers_is_refused() -> None:
    result = run_cli(["solve", "connect-four", "--dask", "local:1"])
    assert result.code == 2 and "apply with --tiers DIR" in result.err


def test_an_unreachable_scheduler_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perfectplay._dask, "CONNECT_SECONDS", 1)
    result = run_cli(
        ["solve", "connect-four", "--param", "rows=3", "--param", "cols=3", "--tiers",
         str(tmp_path / "d"), "--dask", "tcp://127.0.0.1:1"],
    )  # fmt: skip
    assert result.code == 2
    assert "error: cannot reach the Dask scheduler at tcp://127.0.0.1:1" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_a_game_its_class_cannot_rebuild_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    class Mine(TieredConnectFour):  # defined in a function: no worker can import it
        pass

    with pytest.raises(InputFormatError, match="runs on a Dask cluster only if"):
        solve_tiers(Mine(rows=3, cols=3), tmp_path / "d", dask="local:1")
    assert not (tmp_path / "d").exists()


def test_local_workers_that_would_not_fit_together_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load_tiered_game("connect-four", rows=5, cols=5)
    order = tier_order(game)
    # Room for one worker's child tiers and chunk, not for four copies of them.
    reads = max(game.tier_size(t) + 18 * game.tier_size(t - 1) for t in order if t >= 1)
    monkeypatch.setattr(_memory, "available_bytes", lambda: 2 * reads)
    cluster.check_cluster("local:1", game, order, 1 << 30)
    cluster.check_cluster("local:1x2", game, order, 1 << 16)  # threads share the child tiers
    cluster.check_cluster("tcp://127.0.0.1:8786", game, order, 1 << 30)  # other machines
    with pytest.raises(TooLargeError, match="on 4 local Dask worker processes: tier"):
        cluster.check_cluster("local:4", game, order, 1 << 30)
    # Small chunks: four processes fit, mapping one copy of the child tiers in shared memory,
    children = max(sum(game.tier_size(c) for c in game.child_tiers(t)) for t in order)
    monkeypatch.setattr(_memory, "available_bytes", lambda: 3 * children)
    monkeypatch.setattr(cluster, "has_room", lambda size: True)
    cluster.check_cluster("local:4", game, order, 1 << 12)
    # but not four copies when shared memory has no room for them.
    monkeypatch.setattr(cluster, "has_room", lambda size: False)
    with pytest.raises(TooLargeError, match="on 4 local Dask worker processes: tier"):
        cluster.check_cluster("local:4", game, order, 1 << 12)


def test_without_dask_installed_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load_tiered_game("connect-four", rows=3, cols=3)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ClusterError, match=r"pip install 'perfectplay\[dask\]'"):
        cluster.check_cluster("local:1", game, tier_order(game), 4096)


def _solve_here(
    game: TieredGame, directory: Path, address: str, chunk: int, budget: int | None = None
) -> cluster.ClusterRun:
    """What ``solve_tiers(game, directory, dask=address)`` does, with the driver's record."""
    order = tier_order(game)
    store = DirectoryStore(str(directory), game_manifest(game, order, chunk, min(chunk, 1 << 18)))
    return cluster.solve_on_cluster(
        address, game, order, store, SolveStats(), progress=False, budget=budget
    )


def _ran_together(results: list[TaskResult]) -> bool:
    """Whether two tasks of different tiers ran at the same time (on different workers)."""
    spans = sorted((r.began, r.ended, r.tier) for r in results if r.solved)
    return any(b[0] < a[1] and a[2] != b[2] for i, a in enumerate(spans) for b in spans[i + 1 :])


QUIXO3 = {"size": 3}
# 8 tiers, 14 pairs of them where neither reaches the other
RANDOM: dict[str, Any] = {"seed": 22, "tiers": 8, "positions": 300, "unused": 20, "moves": 4}


@pytest.mark.parametrize("which", ["quixo", "random-loopy", "random-scored"])
def test_independent_tiers_run_side_by_side_into_the_one_at_a_time_files(
    scratch: Path, dask_cluster: Cluster, which: str
) -> None:
    game: TieredGame = (
        load_tiered_game("quixo", **QUIXO3)
        if which == "quixo"
        else RandomTieredGame(**RANDOM, scored=which == "random-scored")
    )
    assert any(not game.inner_moves(t) for t in game.tiers())  # chunked tiers too
    reference = scratch / f"side-{which}-reference"
    solve_tiers(game, reference, jobs=1, chunk_size=64, progress=False).close()
    directory = scratch / f"side-{which}"
    run = _solve_here(game, directory, dask_cluster.address, 64)
    assert run.side_by_side >= 2  # tasks of two tiers (or more) were in flight at once
    assert {r.tier for r in run.results} == set(game.tiers())
    if which == "quixo":  # tiers that ran at the same time on the two workers
        assert _ran_together(run.results)
    assert tree(directory) == tree(reference)
    _no_shared_copy_left(directory)


def test_tiers_side_by_side_stay_within_the_memory_budget(
    scratch: Path, dask_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quixo 3x3: the copies the workers hold and the running tiers' work never exceed the
    budget (by default what the worst tier needs alone); with no room to spare, one tier at a
    time; every copy dropped by the driver once no tier left reads it."""
    game = load_tiered_game("quixo", **QUIXO3)
    peaks: list[tuple[int, int]] = []  # (bytes held once a tier started beside others, budget)
    ended: list[set[int]] = []
    real_start, real_run = scheduler.Scheduler._start, scheduler.Scheduler.run

    def start(self: Any, ready: list[int]) -> Any:
        started = real_start(self, ready)
        busy = {**self.running, **dict(started)}
        if started and len(busy) > 1:
            peaks.append((self.machine.need(self.held, busy), self.budget))
        return started

    def whole(self: Any, complete: Any = None) -> None:
        real_run(self, complete)
        ended.append(set(self.held))

    monkeypatch.setattr(scheduler.Scheduler, "_start", start)
    monkeypatch.setattr(scheduler.Scheduler, "run", whole)
    reference = scratch / "budget-reference"
    solve_tiers(game, reference, chunk_size=4096, progress=False).close()
    sizes = {t: game.tier_size(t) for t in game.tiers()}
    machine = scheduler.Machine(game, sizes, 4096, threads=2, copies=1, assembles=True)
    alone = max(machine.alone(t) for t in game.tiers())
    for budget in (None, 1, 10 * alone):
        peaks.clear()
        directory = scratch / f"budget-{budget}"
        run = _solve_here(game, directory, dask_cluster.address, 4096, budget)
        assert all(held <= limit for held, limit in peaks)
        if budget == 1:
            assert run.side_by_side == 1 and peaks == []
        else:
            assert run.side_by_side >= 2 and peaks
        assert ended[-1] == set()
        assert tree(directory) == tree(reference)
        _no_shared_copy_left(directory)
    assert max(limit for _, limit in peaks) == 10 * alone


def test_a_failure_beside_running_tiers_waits_for_their_tasks_and_leaves_no_shared_copy(
    scratch: Path, dask_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = RandomTieredGame(**RANDOM, scored=True)
    real_finish = cluster._Dask._finish
    failed: list[int] = []

    def finish(self: Any, tier: int) -> None:
        if any(t != tier for t in self.owner.values()):  # other tiers' tasks in flight
            failed.append(len(self.owner))
            raise OSError(28, "No space left on device")
        real_finish(self, tier)

    monkeypatch.setattr(cluster._Dask, "_finish", finish)
    directory = scratch / "fails-side-by-side"
    with pytest.raises(OSError, match="No space left"):
        _solve_here(game, directory, dask_cluster.address, 64)
    assert failed and failed[0] > 0
    _no_shared_copy_left(directory)  # the tasks in flight ended before the copies were removed


def test_a_driver_killed_while_tiers_run_side_by_side_then_run_again_gives_the_same_files(
    scratch: Path, dask_cluster: Cluster
) -> None:
    game = load_tiered_game("quixo", **QUIXO3)
    reference = scratch / "quixo-killed-reference"
    solve_tiers(game, reference, jobs=1, chunk_size=DASK_CHUNK, progress=False).close()
    directory = scratch / "quixo-killed"
    command = [
        sys.executable, "-c", DRIVER, "solve", "quixo", "--param", "size=3", "--tiers",
        str(directory), "--dask", dask_cluster.address, "--json",
    ]  # fmt: skip
    driver = start_process(command, scratch / "quixo-driver.log")
    try:
        wait_until(lambda: len(_tier_files(directory)) >= 8 or driver.poll() is not None, "8 tiers")
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    finally:
        stop_process(driver)
    kept = _tier_files(directory)
    assert len(kept) < len(game.tiers()), "the driver finished before it could be killed"
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    run = json.loads(again.stdout)["run"]
    assert run["tiers_kept"] >= len(kept)
    assert run["tiers_kept"] + run["tiers_solved"] == len(game.tiers())
    assert tree(directory) == tree(reference)
    _no_shared_copy_left(directory)


def test_a_game_module_beside_the_user_is_sent_to_workers_started_elsewhere(
    tmp_path: Path, dask_cluster: Cluster
) -> None:
    (tmp_path / "mygame.py").write_text(
        "from perfectplay.games.dodgem.tiers import DodgemTiers\n\n\n"
        "class MyDodgem(DodgemTiers):\n"
        '    """Dodgem under a name only this folder knows."""\n'
    )
    runs = {}
    for where in ("dask", "here"):
        dask = ["--dask", dask_cluster.address] if where == "dask" else []
        command = [sys.executable, "-c", DRIVER, "solve", "--game", "mygame:MyDodgem"]
        done = subprocess.run(
            [*command, "--tiers", where, "--chunk-size", str(CHUNK), *dask],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        runs[where] = tree(tmp_path / where)
    assert runs["dask"] == runs["here"]
