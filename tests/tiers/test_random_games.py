"""The tier engine on random tiered games against solve_retrograde / solve_dag on their graph.

Every slot's value, remoteness (and score) from :func:`perfectplay.tiers.solve_tiers` must
equal the generic solvers' on the same explicit graph (:mod:`tiered_random`), in memory and
through a tier directory, with one and two threads and chunks of a few ranks, so that tiers
split into many chunks (and loopy tiers propagate across chunk boundaries).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray
from tiered_random import RandomTieredGame, explicit_graph, random_tiered_games

from perfectplay.errors import StoreError
from perfectplay.protocol.game import GameInfo
from perfectplay.solution import Solution
from perfectplay.solved import open_tiers
from perfectplay.tiers import TierDatabase, TieredGame, TierMoves, solve_tiers
from perfectplay.tiers.analyze import analyze_tiers
from perfectplay.tiers.check import check_tiered_game
from perfectplay.tiers.files import TierFile
from perfectplay.values import NO_REMOTENESS, UNDECIDED, Value

settings_jobs = st.sampled_from([1, 2])
chunk_sizes = st.integers(1, 5)


def assert_same(db: TierDatabase, game: RandomTieredGame, expected: Solution) -> None:
    """Every tier of `db` holds `expected` at the slots, "no position" at the other ranks."""
    for tier in game.tiers():
        value, remoteness = db.arrays(tier)
        want_value = game.by_rank(tier, expected.value, UNDECIDED)
        want_remoteness = game.by_rank(tier, expected.remoteness, NO_REMOTENESS)
        where = f"tier {tier} of {game.info.params}"
        assert value.tolist() == want_value.tolist(), where
        assert remoteness.tolist() == want_remoteness.tolist(), where
        if expected.score is not None:
            slots = game.position_at[tier] >= 0
            want_score = game.by_rank(tier, expected.score, 0)
            assert db.scores(tier)[slots].tolist() == want_score[slots].tolist(), where


@given(random_tiered_games())
def test_the_random_games_children_are_their_graph(game: RandomTieredGame) -> None:
    check_tiered_game(game, samples=50)
    explicit = explicit_graph(game)
    solved = explicit.solve()
    expected = game.reference()
    for tier in game.tiers():
        slots = game.position_at[tier] >= 0
        ids = explicit.ids(tier)[slots]
        at = game.position_at[tier][slots]
        assert (solved.value[ids] == expected.value[at]).all()
        assert (solved.remoteness[ids] == expected.remoteness[at]).all()
        if expected.score is not None:
            assert solved.score is not None
            assert (solved.score[ids] == expected.score[at]).all()


@given(random_tiered_games(), settings_jobs, chunk_sizes)
def test_in_memory_equals_the_generic_solvers(
    game: RandomTieredGame, jobs: int, chunk_size: int
) -> None:
    db = solve_tiers(game, jobs=jobs, progress=False, chunk_size=chunk_size)
    assert_same(db, game, game.reference())


@given(random_tiered_games(), settings_jobs, chunk_sizes)
def test_a_tier_directory_equals_the_generic_solvers(
    game: RandomTieredGame, jobs: int, chunk_size: int
) -> None:
    expected = game.reference()
    with tempfile.TemporaryDirectory() as tmp:
        directory = os.path.join(tmp, "tiers")
        with solve_tiers(game, directory, jobs=jobs, progress=False, chunk_size=chunk_size) as db:
            assert_same(db, game, expected)
        with open_tiers(directory, game=game) as db:
            assert_same(db, game, expected)
            for p in range(game.graph.n):  # look-ups by position, and the best moves
                entry = db.probe(p)
                assert entry.value == expected.value[p]
                assert entry.remoteness == expected.remoteness[p]
                if expected.score is not None:
                    assert entry.score == expected.score[p]
                best = sorted(move.position for move in db.best_moves(p))
                assert best == sorted(expected.best_moves(p)), p
        # Solving again finds every tier complete and changes nothing.
        before = {
            name: os.path.getmtime(os.path.join(directory, name)) for name in os.listdir(directory)
        }
        with solve_tiers(game, directory, jobs=jobs, progress=False) as db:
            assert_same(db, game, expected)
        after = {
            name: os.path.getmtime(os.path.join(directory, name)) for name in os.listdir(directory)
        }
        assert {k: v for k, v in after.items() if k.endswith(".tier")} == {
            k: v for k, v in before.items() if k.endswith(".tier")
        }


def reachable(game: RandomTieredGame) -> NDArray[np.bool_]:
    """The positions play reaches from the start (breadth first on the explicit graph)."""
    seen = np.zeros(game.graph.n, dtype=np.bool_)
    seen[game.start] = True
    frontier = [game.start]
    while frontier:
        nxt = []
        for p in frontier:
            for c in game.graph.indices[game.graph.indptr[p] : game.graph.indptr[p + 1]]:
                if not seen[c]:
                    seen[c] = True
                    nxt.append(int(c))
        frontier = nxt
    return seen


@given(random_tiered_games(), settings_jobs)
def test_analyze_counts_the_classes_and_positions_reachable_from_the_start(
    game: RandomTieredGame, jobs: int
) -> None:
    db = solve_tiers(game, jobs=jobs, progress=False, chunk_size=3)
    analysis = analyze_tiers(db, jobs=jobs, progress=False)
    expected = game.reference()
    seen = reachable(game)
    tier_index = np.array(game.order)[game.tier_of]
    rows: dict[tuple[Value, int], list[int]] = {}
    for counts in analysis.tiers:
        here = seen & (tier_index == counts.tier)
        for value in Value:
            if value is Value.UNDECIDED:
                continue
            mine = here & (expected.value == value)
            assert counts.classes[value.name] == mine.sum(), (counts, value)
            assert counts.positions[value.name] == game.orbit[mine].sum(), (counts, value)
    for p in np.flatnonzero(seen):
        row = rows.setdefault((Value(int(expected.value[p])), int(expected.remoteness[p])), [0, 0])
        row[0] += 1
        row[1] += int(game.orbit[p])
    assert analysis.remoteness == sorted((v, r, c, n) for (v, r), (c, n) in rows.items())


@pytest.mark.parametrize("seed", range(16))
def test_larger_random_games_split_into_many_chunks(seed: int) -> None:
    # Tiers of up to 50 ranks in chunks of 3: loopy tiers propagate across many chunks.
    game = RandomTieredGame(seed, tiers=4, positions=40, unused=10, moves=5, scored=seed % 4 == 0)
    expected = game.reference()
    for jobs in (1, 2):
        assert_same(solve_tiers(game, jobs=jobs, progress=False, chunk_size=3), game, expected)


@pytest.mark.parametrize("parallel", [False, True])
def test_parallel_moves_with_different_gains_count_the_best(parallel: bool) -> None:
    # Two moves of one position to the same child with different gains: the mover takes the
    # larger gain (solve_dag keeps both moves); the engine must not merge them blindly.
    for seed in range(40):
        game = RandomTieredGame(seed, tiers=3, positions=6, moves=4, scored=True, parallel=parallel)
        db = solve_tiers(game, jobs=1, progress=False, chunk_size=2)
        assert_same(db, game, game.reference())


def test_a_single_position_game() -> None:
    game = RandomTieredGame(7, tiers=1, positions=1, unused=0, moves=0)
    assert explicit_graph(game).graph.n == 1
    assert_same(solve_tiers(game, progress=False), game, game.reference())
    assert np.array_equal(game.reference().remoteness, [0])


def test_regression_tier_file_header_whose_length_changed_with_its_offsets(tmp_path: Path) -> None:
    # A scored tier of 44 ranks in chunks of 1: writing the header's array positions made the
    # header longer than the length they were computed from, so the file read back as corrupt.
    game = RandomTieredGame(210, tiers=1, positions=60, unused=0, moves=1, scored=True)
    with solve_tiers(game, tmp_path / "tiers", jobs=1, progress=False, chunk_size=1) as db:
        assert_same(db, game, game.reference())


def test_regression_a_corrupted_tier_file_raises_store_error_not_buffer_error(
    tmp_path: Path,
) -> None:
    # The checksum error's traceback held views of the mapped file, so closing the database
    # on the way out raised BufferError in its place.
    game = RandomTieredGame(3, tiers=2, positions=30, unused=2, moves=3, scored=True)
    directory = tmp_path / "tiers"
    solve_tiers(game, directory, jobs=1, progress=False, chunk_size=4).close()
    tier = max(game.tiers(), key=game.tier_size)
    path = directory / f"tier-{tier}.tier"
    with TierFile(str(path)) as f:
        where = f.meta["arrays"]["records"]["payload"]
    data = bytearray(path.read_bytes())
    data[where] ^= 0xFF
    path.write_bytes(bytes(data))
    with (
        pytest.raises(StoreError, match="checksum mismatch"),
        open_tiers(directory, game=game) as db,
    ):
        db.arrays(tier)


class LongPath(TieredGame):
    """Positions ``0..n-1`` on a path, each moving to the one before: remoteness ``p``.

    Tier 0 holds ``0..split-1``, tier 1 the rest; moves inside both tiers and from tier 1 to 0.
    """

    def __init__(self, n: int, split: int) -> None:
        self.n, self.split = n, split
        self.info = GameInfo("long-path", {"n": n, "split": split}, cyclic=True)

    def tiers(self) -> list[int]:
        return [1, 0]

    def child_tiers(self, tier: int) -> list[int]:
        return [0] if tier == 1 else []

    def tier_size(self, tier: int) -> int:
        return self.split if tier == 0 else self.n - self.split

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        first = 0 if tier == 0 else self.split
        moving = ranks + first > 0
        indptr = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum(moving, out=indptr[1:])
        child = ranks[moving] + first - 1
        leaves = child < first  # from tier 1's first rank to tier 0's last
        return TierMoves(
            np.full(len(ranks), UNDECIDED, dtype=np.uint8),
            indptr,
            leaves.astype(np.int8),
            np.where(leaves, child, child - first),
        )

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        moved = ranks + 1 < self.tier_size(tier)
        indptr = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum(moved, out=indptr[1:])
        return indptr, ranks[moved] + 1

    def initial(self) -> tuple[int, int]:
        return (1, self.n - self.split - 1)


@pytest.mark.parametrize(("n", "split"), [(300, 100), (70_000, 5), (70_000, 69_990)])
def test_remoteness_beyond_16_bits_on_a_long_path(n: int, split: int) -> None:
    db = solve_tiers(LongPath(n, split), jobs=2, progress=False, chunk_size=1000)
    value = np.concatenate([db.arrays(0)[0], db.arrays(1)[0]])
    remoteness = np.concatenate([db.arrays(0)[1], db.arrays(1)[1]])
    assert (remoteness == np.arange(n)).all()
    assert (value == np.where(np.arange(n) % 2, Value.WIN, Value.LOSE)).all()
