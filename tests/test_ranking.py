"""perfectplay._ranking and its numba kernels: binomials, the colex ranking of subsets, pairs.

The reference order is itertools.combinations' sorted by their largest element first (colex);
the numba kernels are checked against the numpy functions."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay._ranking import (
    binomials,
    colex_rank,
    colex_unrank,
    pair_count,
    pair_rank,
    pair_unrank,
)
from perfectplay._ranking_kernels import (
    colex_rank_among,
    colex_rank_bits,
    colex_unrank_bits,
    gather_bits,
    next_set,
    scatter_bits,
    two_sets_rank,
    two_sets_unrank,
)
from perfectplay._ranking_kernels import colex_unrank as kernel_unrank


def colex_order(top: int, k: int) -> list[tuple[int, ...]]:
    """Every k-subset of 0..top-1 in colex order: by the reversed tuple."""
    return sorted(itertools.combinations(range(top), k), key=lambda c: c[::-1])


@given(st.integers(0, 40), st.integers(0, 12))
def test_binomials_are_the_binomial_coefficients(top: int, k: int) -> None:
    table = binomials(top, k)
    assert table.shape == (top + 1, k + 1) and table.dtype == np.int64
    assert table.tolist() == [[comb(t, j) for j in range(k + 1)] for t in range(top + 1)]


@pytest.mark.parametrize(("top", "k"), [(0, 0), (5, 0), (1, 1), (6, 2), (7, 3), (9, 9), (10, 4)])
def test_ranks_follow_colex_order_onto_the_whole_range(top: int, k: int) -> None:
    subsets = colex_order(top, k)
    rows = np.array(subsets, dtype=np.int64).reshape(len(subsets), k)
    assert colex_rank(rows).tolist() == list(range(comb(top, k)))
    assert colex_unrank(np.arange(comb(top, k)), k, top).tolist() == rows.tolist()


def test_colex_order_of_equal_sized_bitmasks_is_numeric_order() -> None:
    masks = [sum(1 << c for c in subset) for subset in colex_order(10, 4)]
    assert masks == sorted(masks)


@given(st.data())
def test_unrank_inverts_rank(data: st.DataObject) -> None:
    top = data.draw(st.integers(1, 60))
    k = data.draw(st.integers(0, min(top, 12)))
    subset = sorted(data.draw(st.sets(st.integers(0, top - 1), min_size=k, max_size=k)))
    rank = colex_rank([subset], binomials(top, k))
    assert 0 <= int(rank[0]) < comb(top, k)
    assert colex_unrank(rank, k, top).tolist() == [subset]


def test_a_rank_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"0\.\.9"):
        colex_unrank([10], 2, 5)
    with pytest.raises(ValueError, match="shape"):
        colex_rank([1, 2])


@given(st.data())
def test_the_kernels_agree_with_numpy(data: st.DataObject) -> None:
    top = data.draw(st.integers(1, 62))
    k = data.draw(st.integers(0, min(top, 10)))
    rank = data.draw(st.integers(0, comb(top, k) - 1))
    binom = binomials(top, k)
    expected = colex_unrank([rank], k, top)[0]
    out = np.full(k, -1, dtype=np.int64)
    kernel_unrank(np.int64(rank), k, top, binom, out)
    assert out.tolist() == expected.tolist()
    assert int(colex_unrank_bits(np.int64(rank), k, top, binom)) == sum(1 << int(c) for c in out)


@given(st.integers(0, 2**20), st.integers(0, 2**20))
def test_pair_rank_is_the_colex_rank_of_two(i: int, j: int) -> None:
    if i == j:
        return
    rank = pair_rank(i, j)
    assert rank == int(colex_rank([sorted((i, j))])[0])
    assert pair_unrank(rank) == (min(i, j), max(i, j))
    assert rank < pair_count(max(i, j) + 1)


def test_pair_ranks_cover_the_range_in_colex_order() -> None:
    pairs = colex_order(30, 2)
    i, j = pair_unrank(np.arange(pair_count(30)))
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == pairs


@given(st.integers(1, 12), st.data())
def test_two_sets_rank_numbers_the_boards_of_two_kinds_in_numeric_order(
    top: int, data: st.DataObject
) -> None:
    nx = data.draw(st.integers(0, top))
    ny = data.draw(st.integers(0, top - nx))
    binom = binomials(top, top)
    boards = sorted(
        (sum(1 << c for c in xs), sum(1 << c for c in ys))
        for xs in itertools.combinations(range(top), nx)
        for ys in itertools.combinations(sorted(set(range(top)) - set(xs)), ny)
    )
    assert len(boards) == comb(top, nx) * comb(top - nx, ny)
    for rank, (x, y) in enumerate(boards[:500]):
        assert two_sets_rank(x, y, nx, ny, top, binom) == rank
        assert two_sets_unrank(rank, nx, ny, top, binom) == (x, y)
        assert colex_rank_bits(x, binom) == rank // comb(top - nx, ny)
        assert scatter_bits(gather_bits(y, x), x, top) == y
        assert colex_rank_among(y, x, binom) == rank % comb(top - nx, ny)
    masks = sorted(sum(1 << c for c in xs) for xs in itertools.combinations(range(top), nx))
    assert all(next_set(a) == b for a, b in itertools.pairwise(masks[:500]))
