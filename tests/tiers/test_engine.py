"""The scheduler: tier order, resources refused up front, other games' directories, identical
files whatever the threads and chunks, and resume after ``kill -9`` of a real solve."""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray
from tier_dirs import files_in, kill_when, memory_dir, solve_command, tree
from tiered_random import RandomTieredGame, random_tiered_games

import perfectplay._memory
import perfectplay.tiers.engine as engine_module
from perfectplay.errors import GameDefinitionError, InputFormatError, StoreError, TooLargeError
from perfectplay.games.registry import load_tiered_game
from perfectplay.protocol.game import GameInfo
from perfectplay.tiers import TieredGame, TierMoves, solve_tiers
from perfectplay.tiers.plan import chunk_bounds, tier_order
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN

Ids = NDArray[np.int64]


class Tiers(TieredGame):
    """Only the tier structure: tiers and their child tiers (enough for ``tier_order``)."""

    def __init__(self, children: dict[int, list[int]], listed: Sequence[int] | None = None):
        self.info = GameInfo("tier-structure")
        self.children_of = children
        self.listed = list(children) if listed is None else list(listed)

    def tiers(self) -> list[int]:
        return self.listed

    def child_tiers(self, tier: int) -> list[int]:
        return self.children_of[tier]


@st.composite
def tier_dags(draw: st.DrawFn) -> dict[int, list[int]]:
    """Random tier ids, each reaching random tiers earlier in a random hidden order."""
    n = draw(st.integers(1, 12))
    ids = draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n, unique=True))
    return {
        t: draw(st.lists(st.sampled_from(ids[:i]), unique=True) if i else st.just([]))
        for i, t in enumerate(ids)
    }


@given(tier_dags(), st.randoms())
def test_tier_order_puts_every_tier_after_the_tiers_it_reaches(
    dag: dict[int, list[int]], rnd: random.Random
) -> None:
    listed = list(dag)
    rnd.shuffle(listed)
    order = tier_order(Tiers(dag, listed))
    assert sorted(order) == sorted(dag)
    where = {t: i for i, t in enumerate(order)}
    assert all(where[c] < where[t] for t, cs in dag.items() for c in cs)


@given(tier_dags(), st.data())
def test_tier_order_refuses_a_tier_cycle(dag: dict[int, list[int]], data: st.DataObject) -> None:
    reaching = [t for t, cs in dag.items() if cs]
    if not reaching:
        dag = {**dag, 1000: [], 1001: [1000]}
        reaching = [1001]
    top = data.draw(st.sampled_from(reaching))
    # Walk down to a tier `top` reaches, then close the cycle from it back to `top`.
    bottom = top
    while dag[bottom]:
        bottom = data.draw(st.sampled_from(dag[bottom]))
    dag[bottom] = [*dag[bottom], top]
    with pytest.raises(GameDefinitionError, match="tier cycle"):
        tier_order(Tiers(dag))


@pytest.mark.parametrize(
    ("children", "listed", "why"),
    [
        ({1: [7]}, None, "7, not a tier"),
        ({1: [1]}, None, "the tier itself"),
        ({1: [], 2: [1]}, [1, 2, 1], "lists a tier twice"),
    ],
)
def test_tier_order_refuses_broken_structures(
    children: dict[int, list[int]], listed: list[int] | None, why: str
) -> None:
    with pytest.raises(GameDefinitionError, match=why):
        tier_order(Tiers(children, listed))


class Ladder(TieredGame):
    """A cheap game with tiers larger than a block: tiers 0..3 of `size` ranks; a slot is a
    rank ``r`` with ``r % 7 != 3``; tier 0 is over (LOSE, WIN, TIE by ``r % 3``), a slot of
    tier ``t > 0`` moves to three slots of tier ``t - 1``; optionally scored."""

    def __init__(self, size: int, scored: bool = False) -> None:
        self.size = size
        self.info = GameInfo("ladder", params={"size": size}, scored=scored)

    def tiers(self) -> list[int]:
        return [0, 1, 2, 3]

    def child_tiers(self, tier: int) -> list[int]:
        return [tier - 1] if tier else []

    def tier_size(self, tier: int) -> int:
        return self.size

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        return np.arange(start, stop) % 7 != 3

    def children(self, tier: int, ranks: Ids) -> TierMoves:
        k = len(ranks)
        if tier == 0:
            codes = np.array([LOSE, WIN, TIE], dtype=np.uint8)
            return TierMoves(
                primitive=codes[ranks % 3],
                indptr=np.zeros(k + 1, dtype=np.int64),
                which=np.zeros(0, dtype=np.int8),
                rank=np.zeros(0, dtype=np.int64),
                gain=np.zeros(0, dtype=np.int64) if self.info.scored else None,
                score=ranks % 4 if self.info.scored else None,
            )
        child = np.stack([ranks, (ranks * 5 + 1) % self.size, ranks // 2], axis=1).ravel()
        child -= child % 7 == 3
        return TierMoves(
            primitive=np.full(k, UNDECIDED, dtype=np.uint8),
            indptr=np.arange(k + 1, dtype=np.int64) * 3,
            which=np.ones(3 * k, dtype=np.int8),
            rank=child,
            gain=child % 5 - 2 if self.info.scored else None,
            score=np.zeros(k, dtype=np.int64) if self.info.scored else None,
        )

    def initial(self) -> tuple[int, int]:
        return (3, 0)


BLOCK = 1 << 18


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    yield from memory_dir(tmp_path)


@pytest.mark.parametrize("scored", [False, True])
def test_threads_and_chunks_give_identical_tier_files(fast_dir: Path, scored: bool) -> None:
    tmp_path = fast_dir
    game = Ladder(BLOCK + BLOCK // 2 + 5, scored)
    runs = {}
    for jobs, chunk in ((1, BLOCK), (2, BLOCK), (2, 2 * BLOCK), (1, None)):
        directory = tmp_path / f"{jobs}-{chunk}"
        with solve_tiers(game, directory, jobs=jobs, chunk_size=chunk, progress=False) as db:
            assert db.stats is not None
            size = chunk or 1 << 22
            chunks = len(chunk_bounds(game.size, size, min(size, BLOCK)))
            assert (db.stats.tiers_solved, db.stats.chunks_solved) == (4, 4 * chunks)
        runs[jobs, chunk] = tree(directory)
    reference = runs[1, BLOCK]
    assert reference.keys() == {"manifest.json", *(f"tier-{t}.tier" for t in range(4))}
    for files in runs.values():
        assert files.keys() == reference.keys()
        assert all(files[k] == reference[k] for k in files if k != "manifest.json")
    assert runs[2, BLOCK] == reference  # the manifest too, for the same chunk size
    manifests = [json.loads(files["manifest.json"]) for files in runs.values()]
    assert all({**m, "chunk": 0} == {**manifests[0], "chunk": 0} for m in manifests)


def test_threads_give_identical_files_for_small_chunks_of_connect_four(fast_dir: Path) -> None:
    tmp_path = fast_dir
    game = load_tiered_game("connect-four", rows=3, cols=4)
    for jobs in (1, 2):
        solve_tiers(game, tmp_path / str(jobs), jobs=jobs, chunk_size=512, progress=False).close()
    one, two = tree(tmp_path / "1"), tree(tmp_path / "2")
    assert one == two
    memory = solve_tiers(game, jobs=2, chunk_size=512, progress=False)
    with solve_tiers(game, tmp_path / "1", progress=False) as again:
        assert again.stats is not None and again.stats.tiers_kept == len(again.order)
        for tier in again.order:
            assert again.records(tier).tolist() == memory.records(tier).tolist()
    assert tree(tmp_path / "1") == one  # a finished directory is left as it was


def test_memory_too_small_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 1000)
    directory = tmp_path / "new"
    with pytest.raises(TooLargeError, match=r"ladder: tier \d+ .* needs about .* of memory"):
        solve_tiers(Ladder(5000), directory, progress=False)
    assert not directory.exists()
    with pytest.raises(TooLargeError, match="of memory"):
        solve_tiers(Ladder(5000), progress=False)


class LongChain(TieredGame):
    """Only the plan of a game of 10,000 tiers in a chain, tier 5,000 of 2^40 ranks read by
    tier 5,001 of 2^39; counts the tiers whose child tiers are asked for (the plan asks for
    every tier's)."""

    def __init__(self) -> None:
        self.info = GameInfo("long-chain")
        self.asked: set[int] = set()

    def tiers(self) -> list[int]:
        return list(range(10_000))

    def child_tiers(self, tier: int) -> list[int]:
        self.asked.add(tier)
        return [tier - 1] if tier else []

    def tier_size(self, tier: int) -> int:
        return {5000: 1 << 40, 5001: 1 << 39}.get(tier, 10)


def test_a_tier_too_large_is_refused_before_the_plan(tmp_path: Path) -> None:
    """Tier 5,001 reads 2^40 bytes, found among the largest tiers without asking every tier for
    its child tiers (7x6 Connect Four's 412,972 tiers took minutes)."""
    game = LongChain()
    with pytest.raises(TooLargeError, match=r"long-chain: tier 5001 .* needs about 1\.0 TiB"):
        solve_tiers(game, tmp_path / "new", progress=False)
    assert len(game.asked) <= 64 and not (tmp_path / "new").exists()


class KnownChain(LongChain):
    """LongChain that names its largest tiers itself and is never listed."""

    def tiers(self) -> list[int]:
        raise AssertionError("the tiers were listed")

    def largest_tiers(self, count: int) -> list[int]:
        return [5000, 5001, 4999][:count]


def test_a_game_naming_its_largest_tiers_is_refused_without_listing_them(tmp_path: Path) -> None:
    game = KnownChain()
    with pytest.raises(TooLargeError, match=r"long-chain: tier 5001 .* needs about 1\.0 TiB"):
        solve_tiers(game, tmp_path / "new", progress=False)
    assert game.asked == {5000, 5001, 4999} and not (tmp_path / "new").exists()


def test_disk_too_small_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.disk_usage

    def tiny(path: Any) -> Any:
        return real(path)._replace(free=100)

    monkeypatch.setattr(shutil, "disk_usage", tiny)
    for directory in (tmp_path / "new" / "dir", tmp_path):
        before = sorted(tmp_path.rglob("*"))
        with pytest.raises(TooLargeError, match=r"ladder: .* of disk .* 100 B free"):
            solve_tiers(Ladder(5000), directory, progress=False)
        assert sorted(tmp_path.rglob("*")) == before


def test_a_resume_counts_only_the_disk_of_the_tiers_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solve_tiers(Ladder(5000), tmp_path, progress=False).close()
    files = sorted(tmp_path.glob("*.tier"))
    last = files[-1].read_bytes()
    files[-1].unlink()
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda path: real(path)._replace(free=100))
    with pytest.raises(TooLargeError, match=r"ladder: .* of disk .* 100 B free"):
        solve_tiers(Ladder(5000), tmp_path, progress=False)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: real(path)._replace(free=10 * len(last)))
    solve_tiers(Ladder(5000), tmp_path, progress=False).close()
    assert files[-1].read_bytes() == last


def test_a_directory_of_another_game_is_refused_and_left_alone(tmp_path: Path) -> None:
    solve_tiers(Ladder(40), tmp_path, progress=False).close()
    before = tree(tmp_path)
    for other in (Ladder(41), load_tiered_game("connect-four", rows=2, cols=2)):
        with pytest.raises(StoreError) as error:
            solve_tiers(other, tmp_path, progress=False)
        message = str(error.value)
        assert "\n" not in message and str(tmp_path) in message
        assert "ladder (size=40)" in message
    assert tree(tmp_path) == before


class _Reranked(Ladder):
    """The same name, parameters and tier sizes as Ladder, other moves (a changed ranking)."""

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        moves = super().children(tier, ranks)
        return moves._replace(primitive=np.where(moves.primitive == LOSE, TIE, moves.primitive))


def test_regression_a_directory_of_another_ranking_is_neither_resumed_nor_read(
    tmp_path: Path,
) -> None:
    # Regression: only name, parameters and tier sizes were compared, so a game whose ranking
    # or rules changed resumed an old directory and answered from it without an error.
    solve_tiers(Ladder(40), tmp_path, progress=False).close()
    before = tree(tmp_path)
    with pytest.raises(StoreError, match="another version of ladder"):
        solve_tiers(_Reranked(40), tmp_path, progress=False)
    from perfectplay.solved import open_tiers

    with pytest.raises(StoreError, match="fingerprints disagree"):
        open_tiers(tmp_path, game=_Reranked(40))
    assert tree(tmp_path) == before


def test_a_directory_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty and not a tier directory"):
        solve_tiers(Ladder(40), tmp_path, progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("jobs", "chunk", "why"),
    [(0, None, "jobs"), (-1, None, "jobs"), (1, 0, "chunk"), (1, BLOCK + 1, "multiple")],
)
def test_bad_jobs_and_chunk_sizes_are_refused(
    tmp_path: Path, jobs: int, chunk: int | None, why: str
) -> None:
    with pytest.raises(InputFormatError, match=why):
        solve_tiers(Ladder(40), tmp_path / "d", jobs=jobs, chunk_size=chunk, progress=False)
    assert not (tmp_path / "d").exists()


def test_memory_is_checked_with_an_existing_directory_s_own_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory solved in chunks of 16 ranks, resumed with the default chunk size (2^22, or
    2^26 on Dask) asked for: the memory checks and the scheduler's formula take its 16."""
    game = Ladder(40)
    solve_tiers(game, tmp_path, chunk_size=16, progress=False).close()
    (tmp_path / "tier-2.tier").unlink()
    seen: list[int] = []
    real = engine_module.refuse_early

    def recorded(game: Any, chunk: int, **kwargs: Any) -> None:
        seen.append(chunk)
        real(game, chunk, **kwargs)

    monkeypatch.setattr(engine_module, "refuse_early", recorded)
    with solve_tiers(game, tmp_path, progress=False) as db:
        assert db.stats is not None and db.stats.tiers_solved == 1
    assert seen == [16]
    assert engine_module._chunking(None, True, str(tmp_path)) == (16, 16)  # a front end's check


def test_regression_a_crash_between_merge_and_cleanup_left_the_chunks(tmp_path: Path) -> None:
    game = Ladder(40)
    solve_tiers(game, tmp_path, chunk_size=16, progress=False).close()
    before = tree(tmp_path)
    # What a kill after writing tier 2's file but before removing its chunk files leaves.
    (tmp_path / "tier-2.chunks").mkdir()
    (tmp_path / "tier-2.chunks" / "00000000000000.tier").write_bytes(b"complete chunk")
    (tmp_path / "tier-3.tier.tmp-1").write_bytes(b"half a file")
    with solve_tiers(game, tmp_path, chunk_size=16, progress=False) as db:
        assert db.stats is not None and db.stats.tiers_kept == 4
    assert tree(tmp_path) == before


# ---------------------------------------------------------------------- kill -9, then resume

RESUME_GAME = ["connect-four", "--param", "rows=4", "--param", "cols=4"]
RESUME_CHUNK = 4096  # 61 chunks in 17 tiers


def cli(directory: Path) -> list[str]:
    """The real command line of a solve into `directory` (a fresh interpreter)."""
    return solve_command(
        *RESUME_GAME, "--tiers", str(directory), "--chunk-size", str(RESUME_CHUNK), "--json"
    )


def test_kill_9_at_random_points_then_resume_gives_the_uninterrupted_files(
    fast_dir: Path,
) -> None:
    tmp_path = fast_dir
    rnd = random.Random(int(os.environ.get("RESUME_SEED", "9")))
    reference = tmp_path / "reference"
    game = load_tiered_game("connect-four", rows=4, cols=4)
    solve_tiers(game, reference, chunk_size=RESUME_CHUNK, progress=False).close()
    expected = tree(reference)
    total = len(json.loads(expected["manifest.json"])["tiers"])

    directory = tmp_path / "resumed"

    def new_chunk(before: tuple[dict[str, Any], list[str]]) -> bool:
        return bool(set(files_in(directory)[1]) - set(before[1]))

    def more_tiers(k: int) -> Callable[[tuple[dict[str, Any], list[str]]], bool]:
        return lambda before: len(files_in(directory)[0]) >= len(before[0]) + k

    # Kill points, each measured from what the run found: during start-up (imports, numba's
    # cache), at its first new chunk file, once a few more tiers are complete, and right
    # after another new chunk (mid-tier: most tiers have many chunks).
    points: list[tuple[str, Callable[[tuple[dict[str, Any], list[str]]], bool], float]] = [
        ("start-up", lambda before: True, rnd.uniform(0.05, 0.5)),
        ("first chunk", new_chunk, rnd.uniform(0.0, 0.02)),
        ("more tiers", more_tiers(rnd.randint(1, 3)), rnd.uniform(0.0, 0.01)),
        ("mid-tier", new_chunk, rnd.uniform(0.0, 0.01)),
    ]
    kept: dict[str, tuple[int, int]] = {}
    chunks: list[str] = []
    killed = 0
    for what, ready, delay in points:
        before = files_in(directory)
        killed += kill_when(cli(directory), lambda: ready(before), delay)  # noqa: B023
        tiers, chunks = files_in(directory)
        for name, stamp in kept.items():
            assert tiers.get(name) == stamp, f"{name} was rewritten by the run killed at {what}"
        kept = tiers
    assert killed >= 3
    pending = [c for c in chunks if c.replace(".chunks/", ".tier/").split("/")[0] not in kept]
    done = subprocess.run(cli(directory), capture_output=True, text=True, check=True)
    run = json.loads(done.stdout)["run"]
    assert run == {
        "tiers_kept": len(kept),
        "tiers_solved": total - len(kept),
        "chunks_kept": len(pending),
        "chunks_solved": run["chunks_solved"],
    }
    for name, stamp in kept.items():  # no complete tier was solved again
        path = directory / name
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == stamp, name
    assert tree(directory) == expected


def test_resuming_keeps_the_directorys_chunk_size(fast_dir: Path) -> None:
    game = Ladder(3000)
    solve_tiers(game, fast_dir, chunk_size=512, progress=False).close()
    expected = tree(fast_dir)
    for tier in (2, 3):
        (fast_dir / f"tier-{tier}.tier").unlink()
    with solve_tiers(game, fast_dir, chunk_size=BLOCK, progress=False) as db:
        assert db.stats is not None
        assert (db.stats.tiers_kept, db.stats.chunks_solved) == (2, 2 * 6)
    assert tree(fast_dir) == expected


class Crash(BaseException):
    """Stands for the process dying at a file's rename."""


def crashing_replace(crash_at: int) -> Callable[[Any, Any], None]:
    """``os.replace`` that raises :class:`Crash` instead of its call number `crash_at`."""
    real = os.replace
    calls = 0

    def replace(src: Any, dst: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == crash_at + 1:
            raise Crash
        real(src, dst)

    return replace


@pytest.mark.parametrize(("name", "params"), [("dodgem", {"size": 3}), ("quixo", {"size": 3})])
def test_a_crash_at_any_rename_resumes_to_the_same_files_loopy_tiers(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, params: dict[str, Any]
) -> None:
    game = load_tiered_game(name, **params)
    solve_tiers(game, fast_dir / "reference", chunk_size=64, progress=False).close()
    expected = tree(fast_dir / "reference")
    renames = len(expected)  # the manifest, each tier file; loopy tiers have no chunk files
    for crash_at in range(0, renames, max(1, renames // 10)):
        directory = fast_dir / f"crash-{crash_at}"
        with monkeypatch.context() as patch:
            patch.setattr(os, "replace", crashing_replace(crash_at))
            with pytest.raises(Crash):
                solve_tiers(game, directory, chunk_size=64, progress=False)
        kept = len(list(directory.glob("tier-*.tier")))
        with solve_tiers(game, directory, chunk_size=64, progress=False) as db:
            assert db.stats is not None
            assert db.stats.tiers_kept == kept and db.stats.tiers_solved == len(db.order) - kept
        assert tree(directory) == expected, crash_at


@given(
    whole=st.integers(0, 4096),
    rest=st.integers(0, (1 << 18) - 1),
    blocks=st.integers(1, 64),
    block=st.sampled_from([1, 4, 4096, 1 << 18]),
)
def test_chunks_cover_the_tier_in_whole_blocks_and_shrink_towards_its_end(
    whole: int, rest: int, blocks: int, block: int
) -> None:
    size, chunk = whole * block + rest % block, blocks * block
    bounds = chunk_bounds(size, chunk, block)
    assert bounds[0][0] == 0 and bounds[-1][1] == size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    lengths = [stop - start for start, stop in bounds]
    assert all(n % block == 0 and 0 < n <= chunk for n in lengths[:-1])
    assert all(a >= b for a, b in itertools.pairwise(lengths[:-1]))  # shrinking
    least = max(block, chunk // 16 // block * block)
    assert all(n >= least for n in lengths[:-1])
    # Each chunk takes at most about a quarter of what is left, so the last ones are small.
    for start, stop in bounds:
        assert stop - start <= max(least, -(-(size - start) // (4 * block)) * block)
    assert chunk_bounds(size, chunk, block) == bounds  # a resumed run finds the same chunks


# ---------------------------------------------------------------------- independent tiers at once
def concurrency(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record, each time a tier starts, how many tiers are being solved (itself included)."""
    from perfectplay.tiers import engine

    real = engine._Threads._solve
    seen: list[int] = []
    active = [0]
    lock = threading.Lock()

    def solve(self: Any, tier: int, threads: int) -> None:
        with lock:
            active[0] += 1
            seen.append(active[0])
        try:
            time.sleep(0.01)  # long enough for a tier started beside this one to overlap it
            real(self, tier, threads)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch.setattr(engine._Threads, "_solve", solve)
    return seen


@pytest.mark.parametrize("which", ["quixo", "random"])
def test_independent_tiers_run_at_once_into_the_same_files(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    game = (
        load_tiered_game("quixo", size=3)
        if which == "quixo"
        else RandomTieredGame(22, tiers=8, positions=300, unused=20, moves=4)  # 14 pairs of
    )  # tiers where neither reaches the other
    solve_tiers(game, fast_dir / "one", jobs=1, chunk_size=64, progress=False).close()
    seen = concurrency(monkeypatch)
    with solve_tiers(game, fast_dir / "three", jobs=3, chunk_size=64, progress=False) as db:
        assert db.stats is not None and db.stats.tiers_solved == len(db.order)
    assert max(seen) >= 2  # tiers whose children were solved ran side by side
    assert max(seen) <= 3  # never more tiers than threads
    assert tree(fast_dir / "three") == tree(fast_dir / "one")
    seen.clear()
    memory = solve_tiers(game, jobs=3, chunk_size=64, progress=False)  # in memory: one at a time
    assert max(seen) == 1
    with solve_tiers(game, fast_dir / "one", progress=False) as again:
        for tier in again.order:
            assert again.records(tier).tolist() == memory.records(tier).tolist()


def test_tiers_run_at_once_only_within_the_memory_accepted(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quixo 3x3 on 3 threads: the child tiers held and the running tiers' work never exceed
    the figure accepted up front (its worst tier alone); with room for more, tiers run side
    by side; with none to spare, one at a time."""
    from perfectplay.tiers import engine, scheduler

    game = load_tiered_game("quixo", size=3)
    sizes = {t: game.tier_size(t) for t in game.tiers()}
    machine = scheduler.Machine(game, sizes, 64, threads=3, copies=1, assembles=False)
    worst = engine._check_resources(game, tier_order(game), str(fast_dir / "x"), machine)
    peaks: list[int] = []
    real_start, real_solve = scheduler.Scheduler._start, engine._Threads._solve

    def start(self: Any, todo: list[int]) -> Any:
        started = real_start(self, todo)
        if self.running and started:  # a tier alone needs what the check up front accepted
            peaks.append(self.machine.need(self.held, {**self.running, **dict(started)}))
        return started

    monkeypatch.setattr(scheduler.Scheduler, "_start", start)
    for room in (10 * worst, worst, 1):
        monkeypatch.setattr(engine, "_check_resources", lambda *args, r=room: r)
        monkeypatch.setattr(engine._Threads, "_solve", real_solve)
        seen = concurrency(monkeypatch)
        peaks.clear()
        solve_tiers(game, fast_dir / str(room), jobs=3, progress=False).close()
        assert max(peaks, default=0) <= room
        if room == 1:
            assert max(seen) == 1 and peaks == []
        if room > worst:
            assert max(seen) >= 2
        assert tree(fast_dir / str(room)).keys() == tree(fast_dir / str(10 * worst)).keys()


def test_a_failing_tier_stops_the_others_starting_and_is_raised(fast_dir: Path) -> None:
    class Broken(RandomTieredGame):
        def children(self, tier: int, ranks: Ids) -> TierMoves:
            if tier == tier_order(self)[-1] and len(ranks) > 16:  # not the fingerprint's
                raise GameDefinitionError("broken on purpose")
            return super().children(tier, ranks)

    game = Broken(11, tiers=8, positions=300, unused=20, moves=4)
    with pytest.raises(GameDefinitionError, match="on purpose"):
        solve_tiers(game, fast_dir / "broken", jobs=3, progress=False)
    kept = len(list((fast_dir / "broken").glob("tier-*.tier")))
    assert 0 < kept < len(game.tiers())


QUIXO3 = ["quixo", "--param", "size=3"]


def test_kill_9_while_tiers_run_at_once_then_resume_gives_the_one_at_a_time_files(
    fast_dir: Path,
) -> None:
    rnd = random.Random(int(os.environ.get("RESUME_SEED", "9")))
    reference = fast_dir / "reference"
    solve_tiers(load_tiered_game("quixo", size=3), reference, jobs=1, progress=False).close()
    expected = tree(reference)
    directory = fast_dir / "resumed"
    command = solve_command(*QUIXO3, "--tiers", str(directory), "--jobs", "3", "--json")
    kept: dict[str, tuple[int, int]] = {}
    killed = 0
    for more in (0, rnd.randint(2, 6), rnd.randint(2, 6), rnd.randint(2, 6)):
        before = len(files_in(directory)[0])
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while (
            process.poll() is None
            and len(files_in(directory)[0]) < before + more
            and time.monotonic() < deadline
        ):
            time.sleep(0.002)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            killed += 1
        process.wait()
        tiers = files_in(directory)[0]
        for name, stamp in kept.items():
            assert tiers.get(name) == stamp, f"{name} was rewritten"
        kept = tiers
    assert killed >= 2
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    run = json.loads(done.stdout)["run"]
    assert run["tiers_kept"] == len(kept)
    for name, stamp in kept.items():
        path = directory / name
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == stamp, name
    assert tree(directory) == expected


class BrokenLadder(Ladder):
    """A ladder whose tier 2 breaks the protocol mid-solve (asked for more ranks than the
    fingerprint's windows of 16)."""

    def children(self, tier: int, ranks: Ids) -> TierMoves:
        if tier == 2 and len(ranks) > 16:
            raise GameDefinitionError("tier 2 is broken")
        return super().children(tier, ranks)


def test_a_failed_solve_lets_its_directory_lock_go_at_once(tmp_path: Path) -> None:
    with pytest.raises(GameDefinitionError, match="tier 2 is broken") as failure:
        solve_tiers(BrokenLadder(40), tmp_path, progress=False)
    assert failure.value is not None  # the traceback still alive: the store is not collected
    probe = (
        "import fcntl, sys; fd = open(sys.argv[1], 'a'); "
        "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)"
    )
    lock = tmp_path / ".solve.lock"
    assert lock.exists()
    subprocess.run([sys.executable, "-c", probe, str(lock)], check=True, timeout=60)


def _reached(game: TieredGame, tiers: set[int]) -> set[int]:
    """`tiers` and every tier they read, directly or not (the plain recursive definition)."""
    return tiers.union(*(_reached(game, set(game.child_tiers(t))) for t in tiers))


@given(random_tiered_games(most_tiers=7), st.data())
def test_tiers_whose_files_are_removed_are_solved_again_and_no_other(
    game: RandomTieredGame, data: st.DataObject
) -> None:
    """Files of tiers anywhere in the plan removed (middle ones too): ``solve_some_tiers`` of
    some tiers solves exactly the removed ones they read, a resume all the removed ones and
    nothing else, each into the same bytes."""
    from perfectplay.tiers.engine import solve_some_tiers
    from perfectplay.tiers.storage import tier_file

    tiers = [int(t) for t in game.tiers()]
    removed = set(data.draw(st.lists(st.sampled_from(tiers), min_size=1, unique=True)))
    named = set(data.draw(st.lists(st.sampled_from(tiers), min_size=1, unique=True)))
    chunk = data.draw(st.integers(1, 5))
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        solve_tiers(game, directory, jobs=2, chunk_size=chunk, progress=False).close()
        solved = tree(directory)
        for t in removed:
            os.remove(tier_file(str(directory), game.tier_label(t)))
        stats = solve_some_tiers(game, directory, named, jobs=2, progress=False)
        again = removed & _reached(game, named)
        assert stats.tiers_solved == len(again)
        assert stats.tiers_kept == len(_reached(game, named)) - len(again)
        left = {f"tier-{game.tier_label(t)}.tier" for t in removed - again}
        assert tree(directory) == {k: v for k, v in solved.items() if k not in left}
        with solve_tiers(game, directory, jobs=1, progress=False) as db:
            assert db.stats is not None
            assert (db.stats.tiers_solved, db.stats.tiers_kept) == (
                len(removed - again),
                len(tiers) - len(removed - again),
            )
        assert tree(directory) == solved


def test_solve_some_tiers_refuses_no_tier_and_a_tier_the_game_lacks(tmp_path: Path) -> None:
    from perfectplay.tiers.engine import solve_some_tiers

    game = RandomTieredGame(3, tiers=3, positions=5, unused=1, moves=2)
    with pytest.raises(InputFormatError, match="at least one tier"):
        solve_some_tiers(game, tmp_path / "d", [])
    strange = max(game.tiers()) + 1
    with pytest.raises(InputFormatError, match=f"has no tier {strange}$"):
        solve_some_tiers(game, tmp_path / "d", [strange])
    assert not (tmp_path / "d").exists()


def test_a_resume_counts_only_the_memory_of_the_tiers_left(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quixo 3x3's tier 8Blank_1X_0O needs 468 bytes alone, the tiers it reads up to 38,640:
    with its file alone removed, 10,000 bytes are enough to solve it again."""
    from perfectplay.tiers.engine import solve_some_tiers
    from perfectplay.tiers.storage import tier_file

    game = load_tiered_game("quixo", size=3)
    solve_tiers(game, fast_dir, jobs=1, progress=False).close()
    path = Path(tier_file(str(fast_dir), "8Blank_1X_0O"))
    solved = path.read_bytes()
    path.unlink()
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 10_000)
    top = next(t for t in game.tiers() if game.tier_label(t) == "8Blank_1X_0O")
    stats = solve_some_tiers(game, fast_dir, [top], jobs=1, progress=False)
    assert (stats.tiers_solved, stats.tiers_kept) == (1, 36)
    assert path.read_bytes() == solved
    path.unlink()  # a tier that needs more is still refused
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 400)
    with pytest.raises(TooLargeError, match="quixo: tier 8Blank_1X_0O"):
        solve_some_tiers(game, fast_dir, [top], jobs=1, progress=False)


def test_a_directory_with_nothing_left_to_solve_is_resumed(fast_dir: Path) -> None:
    """No tier left to solve: no memory figure, no tier named (the Morris games have no
    tier 0)."""
    game = load_tiered_game("nine-mens-morris", stones=3)
    assert 0 not in set(game.tiers())
    solve_tiers(game, fast_dir, progress=False).close()
    before = tree(fast_dir)
    with solve_tiers(game, fast_dir, progress=False) as db:
        assert db.stats is not None and db.stats.tiers_solved == 0
    assert tree(fast_dir) == before


def test_tiers_found_complete_are_not_refused_before_the_plan(
    fast_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quixo 3x3's largest tier, 3Blank_3X_3O, needs 38,640 bytes with the tiers it reads:
    with 10,000 bytes, neither a resume that finds its file nor naming it (its file there)
    is refused; a resume solves the small tier whose file is missing, naming the large one
    solves nothing. Without its file, it is refused before the plan."""
    from perfectplay.tiers.engine import solve_some_tiers
    from perfectplay.tiers.storage import tier_file

    game = load_tiered_game("quixo", size=3)
    solve_tiers(game, fast_dir, jobs=1, progress=False).close()
    solved = tree(fast_dir)
    os.remove(tier_file(str(fast_dir), "8Blank_1X_0O"))  # 468 bytes alone
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 10_000)
    with solve_tiers(game, fast_dir, jobs=1, progress=False) as db:
        assert db.stats is not None and db.stats.tiers_solved == 1
    assert tree(fast_dir) == solved
    large = next(t for t in game.tiers() if game.tier_label(t) == "3Blank_3X_3O")
    stats = solve_some_tiers(game, fast_dir, [large], jobs=1, progress=False)
    assert stats.tiers_solved == 0
    planned: list[TieredGame] = []

    def planning(g: TieredGame) -> list[int]:
        planned.append(g)
        return tier_order(g)

    monkeypatch.setattr("perfectplay.tiers.engine.tier_order", planning)
    os.remove(tier_file(str(fast_dir), "3Blank_3X_3O"))
    with pytest.raises(TooLargeError, match="quixo: tier 3Blank_3X_3O"):
        solve_some_tiers(game, fast_dir, [large], jobs=1, progress=False)
    assert planned == []
