"""The worker-side tasks, called directly (no Dask): tier after tier they build the same files
as the in-process engine, hold only the child tiers of the current tier, do nothing when their
file exists, and refuse a directory they cannot see."""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tier_dirs import memory_dir, tree

from perfectplay.errors import ClusterError
from perfectplay.games.registry import game_entry, load_tiered_game
from perfectplay.tiers import solve_tiers, tasks
from perfectplay.tiers.loopy import solve_loopy
from perfectplay.tiers.plan import chunk_bounds, tier_order
from perfectplay.tiers.records import record_dtype
from perfectplay.tiers.shared import shared_prefix
from perfectplay.tiers.storage import DirectoryStore, game_manifest
from perfectplay.tiers.tasks import (
    cached_tiers,
    chunk_task,
    clean_up,
    drop_tiers,
    loopy_task,
    solve_token,
)

CHUNK = 4096


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    yield from memory_dir(tmp_path)


@pytest.fixture(autouse=True)
def _no_shared_copy_left() -> Iterator[None]:
    """What the driver does at the end of a solve: the shared child tiers removed."""
    yield
    for directory in {d for d, _ in cached_tiers()}:
        clean_up(directory)
        assert not glob.glob(glob.escape(shared_prefix(solve_token(directory))) + "*")
    assert cached_tiers() == []


def _target(name: str) -> str:
    """The game class a task rebuilds the registered game `name` from."""
    entry = game_entry(name)
    assert entry.tiers is not None
    return entry.target(entry.tiers)


def _store(directory: Path, name: str, params: dict[str, int], chunk: int) -> DirectoryStore:
    game = load_tiered_game(name, **params)
    order = tier_order(game)
    return DirectoryStore(str(directory), game_manifest(game, order, chunk, min(chunk, 1 << 18)))


def _run_tiers(name: str, params: dict[str, int], store: DirectoryStore, tiers: list[int]) -> int:
    """What the driver does for `tiers` one at a time, with the tasks called here: the copies
    no tier from this one on reads dropped, the tier's tasks, its merge; the chunks solved."""
    game = load_tiered_game(name, **params)
    order = tier_order(game)
    solved = 0
    for tier in tiers:
        later = {c for u in order[order.index(tier) :] for c in game.child_tiers(u)}
        drop_tiers(store, [t for t in order[: order.index(tier)] if t not in later])
        if game.inner_moves(tier):
            solved += loopy_task(_target(name), params, store, tier).solved
        else:
            bound = 1 + max((store.max_remoteness(c) for c in game.child_tiers(tier)), default=-1)
            dtype = np.dtype(record_dtype(bound)).name
            bounds = chunk_bounds(game.tier_size(tier), store.chunk, store.block)
            for b in bounds:
                solved += chunk_task(_target(name), params, store, tier, *b, dtype).solved
            store.merge(tier, [start for start, _ in bounds])
        cached = {t for d, t in cached_tiers() if d == store.directory}
        assert set(game.child_tiers(tier)) <= cached <= later  # the tasks keep what they read
    return solved


@pytest.mark.parametrize(
    ("name", "params"),
    [("connect-four", {"rows": 4, "cols": 4}), ("dodgem", {"size": 3})],
)
def test_tasks_tier_after_tier_give_the_in_process_files(
    fast_dir: Path, name: str, params: dict[str, int]
) -> None:
    game = load_tiered_game(name, **params)
    reference = fast_dir / "reference"
    solve_tiers(game, reference, chunk_size=CHUNK, progress=False).close()
    store = _store(fast_dir / "tasks", name, params, CHUNK)
    _run_tiers(name, params, store, tier_order(game))
    assert tree(fast_dir / "tasks") == tree(reference)


def test_the_tasks_of_a_tier_map_one_shared_copy_of_each_child_tier(fast_dir: Path) -> None:
    name, params = "connect-four", {"rows": 4, "cols": 4}
    game = load_tiered_game(name, **params)
    store = _store(fast_dir, name, params, CHUNK)
    order = tier_order(game)
    _run_tiers(name, params, store, order[:-1])
    copies = glob.glob(glob.escape(shared_prefix(solve_token(store.directory))) + "*.records")
    labels = [game.tier_label(c) for c in game.child_tiers(order[-2])]
    assert [Path(c).name.split("-")[2] for c in copies] == labels  # older tiers' released


def test_a_task_whose_file_exists_does_nothing(fast_dir: Path) -> None:
    name, params = "connect-four", {"rows": 4, "cols": 4}
    game = load_tiered_game(name, **params)
    order = tier_order(game)
    store = _store(fast_dir, name, params, CHUNK)
    _run_tiers(name, params, store, order[:-1])
    last = order[-1]
    bound = 1 + max(store.max_remoteness(c) for c in game.child_tiers(last))
    dtype = np.dtype(record_dtype(bound)).name
    stop = chunk_bounds(game.tier_size(last), store.chunk, store.block)[0][1]
    first = chunk_task(_target(name), params, store, last, 0, stop, dtype)
    assert first.solved and first.seconds > 0 and first.ranks == stop
    path = Path(store.chunk_path(last, 0))
    stamp = path.stat().st_ino, path.stat().st_mtime_ns
    again = chunk_task(_target(name), params, store, last, 0, stop, dtype)
    assert not again.solved and again.seconds == 0
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == stamp


def test_loopy_task_whose_tier_exists_does_nothing(fast_dir: Path) -> None:
    name, params = "dodgem", {"size": 3}
    game = load_tiered_game(name, **params)
    store = _store(fast_dir, name, params, CHUNK)
    _run_tiers(name, params, store, tier_order(game))
    loopy = next(t for t in tier_order(game) if game.inner_moves(t))
    assert not loopy_task(_target(name), params, store, loopy).solved


def test_a_worker_that_does_not_see_the_directory_says_so() -> None:
    name, params = "connect-four", {"rows": 3, "cols": 3}
    directory = Path(tempfile.mkdtemp())
    store = _store(directory, name, params, CHUNK)
    shutil.rmtree(directory)
    tier = tier_order(load_tiered_game(name, **params))[0]
    with pytest.raises(ClusterError, match=r"does not see the tier directory .*shared"):
        chunk_task(_target(name), params, store, tier, 0, 1, "uint8")
    with pytest.raises(ClusterError, match="does not see the tier directory"):
        loopy_task(_target(name), params, store, tier)


def _copies(store: DirectoryStore) -> list[str]:
    """The names of this machine's shared files of the solve into `store`."""
    return sorted(glob.glob(glob.escape(shared_prefix(solve_token(store.directory))) + "*"))


def test_drop_tiers_removes_this_process_and_this_machines_copies_of_those_tiers_only(
    fast_dir: Path,
) -> None:
    name, params = "connect-four", {"rows": 4, "cols": 4}
    game = load_tiered_game(name, **params)
    store = _store(fast_dir, name, params, CHUNK)
    order = tier_order(game)
    _run_tiers(name, params, store, order[:-1])  # the tasks of the one before last ran last
    child, assembled = order[-3], order[-2]
    label = store.labels
    assert [t for _, t in cached_tiers()] == [child]
    assert any(f"-{label[child]}-" in c for c in _copies(store))
    assert any(f"-{label[assembled]}-building" in c for c in _copies(store))
    assert drop_tiers(store, [child]) > 0
    assert cached_tiers() == []
    assert not any(f"-{label[child]}-" in c for c in _copies(store))
    assert any(f"-{label[assembled]}-building" in c for c in _copies(store))  # not dropped
    assert drop_tiers(store, [assembled]) > 0
    assert _copies(store) == []
    assert drop_tiers(store, [child, assembled]) == 0  # nothing left to drop


def test_a_loopy_task_runs_on_the_threads_it_is_given_up_to_the_cores(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, params = "dodgem", {"size": 3}
    game = load_tiered_game(name, **params)
    order = tier_order(game)
    reference = fast_dir / "reference"
    solve_tiers(game, reference, chunk_size=CHUNK, progress=False).close()
    seen: list[int] = []
    real = solve_loopy

    def counted(*args: Any, jobs: int, **kwargs: Any) -> Any:
        seen.append(jobs)
        return real(*args, jobs=jobs, **kwargs)

    monkeypatch.setattr(tasks, "solve_loopy", counted)
    cores = os.cpu_count() or 1
    store = _store(fast_dir / "threads", name, params, CHUNK)
    threads = iter([0, 1, cores + 5, 1] * len(order))
    for tier in order:
        if game.inner_moves(tier):
            assert loopy_task(_target(name), params, store, tier, next(threads)).solved
        else:
            _run_tiers(name, params, store, [tier])
    assert seen[:4] == [cores, 1, cores, 1]
    assert tree(fast_dir / "threads") == tree(reference)
