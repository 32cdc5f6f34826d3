"""The symmetry kernels (perfectplay.games._symmetry_kernels) against plain permutations."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from perfectplay.games._square_board import square_symmetries
from perfectplay.games._symmetry_kernels import (
    canonical_pair,
    image,
    image_table,
    is_canonical_pair,
    orbit_size,
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
