"""The numpy level sweep of the staircase game (perfectplay.builders.staircase._levels): every
staircase by rank, level sizes and memory, scores against brute force and the numba sweep."""

from __future__ import annotations

import sys
from math import comb

import numpy as np
import pytest
from brute import staircase_scores
from hypothesis import given, settings
from hypothesis import strategies as st
from staircase_helpers import boards, level_table, numba_table, run_python, zeros

from perfectplay.builders.staircase import _levels as _staircase_levels
from perfectplay.builders.staircase import rules as staircase
from perfectplay.builders.staircase.rules import Staircase


@settings(max_examples=100)
@given(boards(low=-(10**6), high=10**6))
def test_level_sweep_is_the_brute_force_at_every_staircase(game: Staircase) -> None:
    brute = staircase_scores(game.a.tolist(), game.b.tolist())
    codes = game.encode_many(list(brute))
    for dtype in (np.int32, np.int64):
        np.testing.assert_array_equal(level_table(game, dtype)[codes], list(brute.values()))


@settings(max_examples=40)
@given(boards(max_side=7, low=-(2**40), high=2**40), st.booleans())
def test_level_sweep_is_the_numba_sweep_up_to_7x7(game: Staircase, narrow: bool) -> None:
    dtype = np.int64
    if narrow:  # int32 tables: gains small enough that every total fits
        game = Staircase(game.a % 100_001, game.b % 100_001)
        dtype = np.int32
    np.testing.assert_array_equal(level_table(game, dtype), numba_table(game, dtype))


@pytest.mark.parametrize(("n", "m"), [(2, 70), (70, 2), (9, 9), (3, 64), (2, 130), (1, 16_500)])
def test_level_sweep_is_the_numba_sweep_where_narrow_lengths_would_wrap(n: int, m: int) -> None:
    # The row lengths are int8 while m < 128 (int16 below 2**15), and the sweep's move index
    # 2 * l[i] + i * (2m + 2) passes 127 on the int8 boards here, 32767 on 1 x 16500 (2 x 130:
    # the int16 path). Under NumPy 1's value-based casting `int8_array * np.int64(2)` stayed
    # int8 and wrapped (IndexError on all the int8 boards, wrong scores on 1 x 16500, measured
    # with numpy 1.26.4); under NumPy 2, `int8_array * 2` would.
    rng = np.random.default_rng(n * 1000 + m)
    a, b = rng.integers(0, 100_001, (2, n, m))
    game = Staircase(a, b)
    assert _staircase_levels.staircase_rows(n, m).dtype == (np.int16 if m > 127 else np.int8)
    for dtype in (np.int32, np.int64):
        np.testing.assert_array_equal(level_table(game, dtype), numba_table(game, dtype))


@pytest.mark.parametrize(("n", "m"), [(1, 1), (1, 9), (9, 1), (3, 4), (5, 5), (4, 10), (2, 130)])
def test_level_sizes_count_the_staircases_by_stones(n: int, m: int) -> None:
    rows = _staircase_levels.staircase_rows(n, m)
    stones = rows[1:].astype(np.int64).sum(axis=0)
    sizes = _staircase_levels.level_sizes(n, m)
    np.testing.assert_array_equal(sizes, np.bincount(stones, minlength=n * m + 1))
    np.testing.assert_array_equal(sizes, sizes[::-1])  # a staircase's complement, turned over
    assert int(sizes.sum()) == comb(n + m, n)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_level_bytes_is_at_least_the_peak_memory_of_a_level_sweep() -> None:
    # In a fresh interpreter: reset the resident-memory high-water mark (clear_refs 5), solve,
    # read VmHWM. Boards with int8 lengths (12 x 12, the largest square one the level sweep
    # takes; 4 x 100) and int16 lengths (3 x 300); int32 scores, as for a judge's gains.
    script = (
        "import sys, numpy as np\n"
        "from perfectplay.builders.staircase.rules import staircase_score\n"
        "def status(key):\n"
        "    with open('/proc/self/status') as f:\n"
        "        return next(int(x.split()[1]) * 1024 for x in f if x.startswith(key))\n"
        "staircase_score([[1, 2], [3, 4]], [[4, 3], [2, 1]])\n"
        "for n, m in [(12, 12), (4, 100), (3, 300)]:\n"
        "    a, b = np.random.default_rng(n).integers(0, 100_001, (2, n, m))\n"
        "    with open('/proc/self/clear_refs', 'w') as f:\n"
        "        f.write('5')\n"
        "    before = status('VmRSS:')\n"
        "    staircase_score(a, b)\n"
        "    print(n, m, status('VmHWM:') - before)\n"
    )
    out = run_python(script).splitlines()
    assert len(out) == 3
    for line in out:
        n, m, peak = map(int, line.split())
        assert staircase._uses_levels(n, m)
        estimate = _staircase_levels.level_bytes(n, m, 4)
        assert peak <= estimate < 2 * peak, (n, m, peak, estimate)


@pytest.mark.parametrize(
    ("n", "m"), [(1, 1), (1, 6), (6, 1), (3, 4), (4, 3), (5, 5), (3, 64), (2, 130)]
)
def test_staircase_rows_are_every_staircase_by_rank(n: int, m: int) -> None:
    rows = _staircase_levels.staircase_rows(n, m)
    assert rows.shape == (n + 1, comb(n + m, n))
    assert bool(np.all(rows[0] == m))  # the sentinel row
    np.testing.assert_array_equal(rows[1:].T, zeros(n, m).decode_many(np.arange(comb(n + m, n))))
