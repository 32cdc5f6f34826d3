"""The symmetry kernels (perfectplay.games._symmetry_kernels) against plain permutations."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray

from perfectplay._ranking import binomials
from perfectplay.games._square_board import square_symmetries
from perfectplay.games._symmetry_kernels import (
    CLASS_SHIFT,
    SYMMETRIC,
    SYMMETRY,
    canonical_pair,
    canonical_syms,
    class_table,
    image,
    image_table,
    is_canonical_pair,
    orbit_size,
    set_classes,
    two_classes_rank,
    two_classes_unrank,
)
from perfectplay.games.mills.board import layout

BOARDS = {
    "5x5": (square_symmetries(5), 25),
    "morris": ([list(p) for p in layout("nine").symmetries], 24),
    "3x3": (square_symmetries(3), 9),
}


def permuted(p: int, perm: list[int]) -> int:
    return sum(1 << perm[d] for d in range(len(perm)) if p >> d & 1)


@given(st.sampled_from(sorted(BOARDS)), st.data())
def test_images_canonical_forms_and_orbits_follow_the_permutations(
    name: str, data: st.DataObject
) -> None:
    perms, cells = BOARDS[name]
    table = image_table(perms, cells)
    owner = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=cells, max_size=cells))
    x = sum(1 << d for d, o in enumerate(owner) if o == 1)
    y = sum(1 << d for d, o in enumerate(owner) if o == 2)
    images = [(permuted(x, p), permuted(y, p)) for p in perms]
    for s, perm in enumerate(perms):
        assert image(x, s, table) == permuted(x, perm)
    assert canonical_pair(x, y, table) == min(images)
    assert is_canonical_pair(x, y, table) == ((x, y) == min(images))
    assert orbit_size(x, y, table, cells) == len(set(images))


@pytest.mark.parametrize("name", ["3x3", "4x4"])
def test_set_classes_are_the_smallest_images_by_size(name: str) -> None:
    perms, cells = (square_symmetries(4), 16) if name == "4x4" else BOARDS[name]
    reps, starts = set_classes(image_table(perms, cells), cells)
    expected = sorted(
        {min(permuted(x, p) for p in perms) for x in range(1 << cells)},
        key=lambda x: (bin(x).count("1"), x),
    )
    assert reps.tolist() == expected
    sizes = [bin(x).count("1") for x in expected]
    assert starts.tolist() == np.cumsum([0] + [sizes.count(k) for k in range(cells + 1)]).tolist()


@pytest.mark.parametrize("name", ["3x3", "4x4"])
def test_the_class_table_gives_each_set_its_class_and_symmetries(name: str) -> None:
    """Every set's entry: its representative's index among those of its size, a symmetry
    taking it there, and the flag of a symmetric representative; canonical_syms gives every
    symmetry taking it there."""
    perms, cells = (square_symmetries(4), 16) if name == "4x4" else BOARDS[name]
    table = image_table(perms, cells)
    reps, starts = set_classes(table, cells)
    classes = class_table(table, cells, reps, starts)
    assert classes.shape == (1 << cells,) and classes.dtype == np.uint32
    out = np.empty(len(perms), dtype=np.int64)
    step = 1 if cells < 10 else 7
    for x in range(0, 1 << cells, step):
        e = int(classes[x])
        rep = min(permuted(x, p) for p in perms)
        k = bin(x).count("1")
        assert reps[starts[k] + (e >> CLASS_SHIFT)] == rep
        assert permuted(x, perms[e & SYMMETRY]) == rep
        fixing = sum(permuted(rep, p) == rep for p in perms)
        assert bool(e & SYMMETRIC) == (fixing > 1)
        count = canonical_syms(x, e, table, out)
        assert sorted(out[:count].tolist()) == [
            s for s, p in enumerate(perms) if permuted(x, p) == rep
        ]


def test_the_class_table_refuses_too_many_symmetries() -> None:
    table = image_table([list(range(3))] * 17, 3)
    with pytest.raises(ValueError, match="at most 16 symmetries"):
        class_table(table, 3, *set_classes(table, 3))


@given(st.sampled_from(sorted(BOARDS)), st.data())
def test_class_ranks_are_a_bijection_in_the_order_of_boards(name: str, data: st.DataObject) -> None:
    perms, cells = BOARDS[name]
    table = image_table(perms, cells)
    reps, starts = _classes(name)
    binom = binomials(cells, cells)
    nx = data.draw(st.integers(0, cells // 2))
    ny = data.draw(st.integers(0, cells - nx))
    size = (starts[nx + 1] - starts[nx]) * binom[cells - nx, ny]
    ranks = sorted(data.draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=8)))
    boards = [two_classes_unrank(r, nx, ny, cells, binom, reps, starts) for r in ranks]
    assert boards == sorted(boards)  # rank order is the order of (x, y)
    for rank, (x, y) in zip(ranks, boards, strict=True):
        assert x & y == 0 and bin(x).count("1") == nx and bin(y).count("1") == ny
        assert x == min(permuted(x, p) for p in perms)
        assert two_classes_rank(x, y, nx, ny, cells, binom, reps, starts) == rank
    x, y = canonical_pair(*boards[0], table)
    assert two_classes_rank(x, y, nx, ny, cells, binom, reps, starts) <= ranks[0]


@functools.cache
def _classes(name: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    perms, cells = BOARDS[name]
    return set_classes(image_table(perms, cells), cells)  # type: ignore[no-any-return]
