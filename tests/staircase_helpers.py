"""Staircase boards and score tables for the staircase tests: random boards, the numba sweep's
and the level sweep's tables, and a script run in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import strategies as st

from perfectplay._ranking import binomials
from perfectplay.builders.staircase import _kernels as _staircase_kernels
from perfectplay.builders.staircase import _levels as _staircase_levels
from perfectplay.builders.staircase.rules import Staircase


def zeros(n: int, m: int) -> Staircase:
    return Staircase(np.zeros((n, m), int), np.zeros((n, m), int))


@st.composite
def boards(draw: st.DrawFn, max_side: int = 4, low: int = -5, high: int = 9) -> Staircase:
    n = draw(st.integers(1, max_side))
    m = draw(st.integers(1, max_side))
    cells = st.lists(st.integers(low, high), min_size=n * m, max_size=n * m)
    a = np.array(draw(cells)).reshape(n, m)
    b = np.array(draw(cells)).reshape(n, m)
    return Staircase(a, b)


def numba_table(game: Staircase, dtype: type[np.int32] | type[np.int64]) -> np.ndarray:  # type: ignore[type-arg]
    score = np.empty(game.size, dtype=dtype)
    table = binomials(game.n + game.m, game.n)
    _staircase_kernels.sweep_scores(game.n, game.m, game.size, table, game.a, game.b, score)
    return score


def level_table(game: Staircase, dtype: type[np.int32] | type[np.int64]) -> np.ndarray:  # type: ignore[type-arg]
    score = np.empty(game.size, dtype=dtype)
    _staircase_levels.level_scores(game.n, game.m, game.a, game.b, score)
    return score


def run_python(script: str) -> str:
    """The standard output of `script` run by a fresh interpreter (its own imports, memory)."""
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
