"""Geography pictures: the drawn matching is a maximum matching of the graph, the cells or
vertices marked D(G) are those of the brute-force definition, every winning arrow follows a
matching edge; pursuit starts, two-token arrows and staircase games agree with brute force."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from brute import (
    brute_two_tokens,
    gallai_edmonds_d,
    max_matching_size,
    pursuit_bob_wins,
    staircase_scores,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.builders.staircase.picture import perfect_game, staircase_svg
from perfectplay.builders.staircase.rules import Staircase
from perfectplay.builders.undirected import Geography
from perfectplay.draw.boards import _cell_size, board_svg, grid_svg, knights_svg, two_tokens_svg
from perfectplay.draw.geography import bipartite_svg, geography_svg
from perfectplay.draw.problems import problem_svg
from perfectplay.draw.pursuit import pursuit_svg
from perfectplay.errors import InputFormatError
from perfectplay.solvers.geography import solve_geography
from perfectplay.svg.errors import PictureTooLargeError

Edges = list[tuple[int, int]]


@st.composite
def graphs(draw: st.DrawFn, max_n: int = 9) -> tuple[int, Edges]:
    n = draw(st.integers(1, max_n))
    node = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(node, node), max_size=2 * n))
    return n, [(u, v) for u, v in edges if u != v]


def brute_cells(board: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "#"}


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def drawn(svg: str) -> tuple[dict[int, bool], list[tuple[int, int]], list[ET.Element]]:
    """``{vertex: in D}``, the matching edges, and the matching groups of a picture."""
    root = parsed(svg)
    in_d = {
        int(e.get("data-vertex", "")): e.get("data-in-d") == "true"
        for e in root.iter()
        if e.get("class") == "vertex"
    }
    groups = [e for e in root.iter() if e.get("class") == "matching"]
    edges = [(int(e.get("data-u", "")), int(e.get("data-v", ""))) for e in groups]
    return in_d, edges, groups


def check_matching(n: int, edges: Edges, matching: list[tuple[int, int]]) -> None:
    """`matching` is a set of graph edges, no vertex twice, of maximum size."""
    graph_edges = {frozenset(e) for e in edges}
    ends = [v for e in matching for v in e]
    assert len(ends) == len(set(ends))
    assert all(frozenset(e) in graph_edges for e in matching)
    assert len(matching) == max_matching_size(n, edges)


@settings(deadline=None)
@given(graphs())
def test_general_graph_picture_shows_a_maximum_matching_and_d(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    result = solve_geography(Geography(n, [e[0] for e in edges], [e[1] for e in edges]).graph())
    in_d, matching, groups = drawn(geography_svg(result))
    assert [in_d[v] for v in range(n)] == gallai_edmonds_d(n, edges)
    check_matching(n, edges, matching)
    # One winning arrowhead (a polygon) per matched end outside D(G): its mover's first move.
    for (u, v), group in zip(matching, groups, strict=True):
        heads = sum(1 for e in group.iter() if e.tag.endswith("polygon"))
        assert heads == (not in_d[u]) + (not in_d[v])


@settings(deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_maze_cells_in_d_are_the_brute_force_d(rows: int, cols: int, data: st.DataObject) -> None:
    free = np.array(
        data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    ).reshape(rows, cols)
    in_d, matching, _ = drawn(grid_svg(free, title="maze"))
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(free), strict=True)]
    index = {cell: k for k, cell in enumerate(cells)}
    edges = [
        (index[(r, c)], index[(r + dr, c + dc)])
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in index
    ]
    assert [in_d[k] for k in range(len(cells))] == gallai_edmonds_d(len(cells), edges)
    check_matching(len(cells), edges, matching)


def test_bipartite_picture_puts_left_vertices_in_a_column() -> None:
    result = solve_geography(Geography.bipartite(3, 2, [0, 1, 2], [0, 0, 1]).graph())
    svg = bipartite_svg(result, 3, labels=["a", "b", "c", "x", "y"], title="t", caption="c")
    in_d, matching, _ = drawn(svg)
    assert in_d == {v: bool(result.in_d[v]) for v in range(5)}
    check_matching(5, [(0, 3), (1, 3), (2, 4)], matching)
    circles = [e for e in parsed(svg).iter() if e.tag.endswith("circle")]
    assert len({e.get("cx") for e in circles}) == 2


def test_one_knight_picture_matches_the_knight_graph() -> None:
    free = np.ones((4, 4), dtype=bool)
    free[0, 0] = False
    in_d, matching, _ = drawn(knights_svg(free, title="k"))
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(free), strict=True)]
    index = {cell: k for k, cell in enumerate(cells)}
    jumps = [(1, 2), (2, 1), (2, -1), (1, -2)]
    edges = [
        (index[(r, c)], index[(r + dr, c + dc)])
        for r, c in cells
        for dr, dc in jumps
        if (r + dr, c + dc) in index
    ]
    assert [in_d[k] for k in range(len(cells))] == gallai_edmonds_d(len(cells), edges)
    check_matching(len(cells), edges, matching)


BOARDS = [
    ["P..", ".#.", "..P"],
    ["P..", "..P"],
    ["P.P"],
    ["P..P"],
    ["PP.", "..."],
    ["P.#", "..P"],
]


@pytest.mark.parametrize("board", BOARDS)
def test_two_token_arrows_are_legal_moves_valued_as_brute_force(board: list[str]) -> None:
    free = np.array([[ch != "#" for ch in row] for row in board])
    tokens = [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "P"]
    svg = two_tokens_svg(free, tokens[0], tokens[1], title="t")
    wins = brute_two_tokens(board)[frozenset(tokens)]
    assert ("Alice (to move) wins" in svg) == wins
    root = parsed(svg)
    lines = [e for e in root.iter() if e.tag.endswith("line")]
    assert {e.get("stroke") for e in lines} == {"#009E73" if wins else "#D55E00"}
    # Each arrowhead's tip is the centre of the cell a token moves to.
    cell = _cell_size(*free.shape)
    tips = set()
    for head in (e for e in root.iter() if e.tag.endswith("polygon")):
        x, y = (float(t) for t in head.get("points", "").split()[0].split(","))
        tips.add((int(y // cell), int(x // cell)))
    brute = brute_two_tokens(board)
    steps = {
        (token, (token[0] + dr, token[1] + dc))
        for token in tokens
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
    }
    legal = {(t, to) for t, to in steps if to in brute_cells(board)}
    adjacent = any(to in tokens for _, to in legal)
    if wins and adjacent:
        assert len(tips) == 1 and tips <= set(tokens)  # one capture
    elif wins:
        (tip,) = tips
        moved = next(t for t, to in legal if to == tip)
        assert not brute[frozenset([tip, *(set(tokens) - {moved})])]  # Bob loses after it
    else:
        assert tips == {to for _, to in legal}  # every legal step drawn, each one losing


@settings(deadline=None, max_examples=30)
@given(graphs(max_n=5))
def test_pursuit_starts_agree_with_the_brute_force(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    n = max(n, 2)
    bob_wins = pursuit_bob_wins(n, edges)
    root = parsed(pursuit_svg(n, edges, 0, 1, title="p"))
    starts = [e for e in root.iter() if e.get("class") == "start"]
    assert len(starts) == n * (n - 1)
    for e in starts:
        b, a = int(e.get("data-bob", "")), int(e.get("data-alice", ""))
        assert (e.get("data-value") == "WIN") == bob_wins[(b, a, 0)]


def test_staircase_perfect_game_scores_the_brute_force_value() -> None:
    rng = np.random.default_rng(7)
    for _ in range(10):
        n, m = (int(x) for x in rng.integers(1, 4, size=2))
        a = rng.integers(0, 10, size=(n, m)).tolist()
        b = rng.integers(0, 10, size=(n, m)).tolist()
        stones = perfect_game(Staircase(a, b))
        total = sum(g if k % 2 == 0 else -g for k, (_, _, g) in enumerate(stones))
        assert total == staircase_scores(a, b)[(0,) * n]
        assert sorted((r, c) for r, c, _ in stones) == [(r, c) for r in range(n) for c in range(m)]
        svg = staircase_svg(a, b, title="s")
        assert f"black - white = {total}" in svg
        assert sum(1 for e in parsed(svg).iter() if e.get("class") == "stone") == n * m


def test_board_only_picture_for_two_knights() -> None:
    from perfectplay.problems.knights import solve

    data = b"4 2 2\n1 1\n3 2\n"
    svg = problem_svg("knights", data)
    root = parsed(svg)
    assert not [e for e in root.iter() if e.get("class") == "vertex"]
    assert f"the mover wins from {int(solve(data))} of the 91 pairs" in svg  # C(14, 2) pairs
    assert board_svg(np.ones((2, 2), dtype=bool), title="b", caption="c").startswith("<svg")


SAMPLES = {
    "jsoi-game": b"3 3\n.##\n...\n#.#\n",
    "planinarenje": b"2 3\n1 2\n2 2\n2 1\n",
    "hamilg": b"2\n3 2\n1 2\n2 3\n2 1\n1 2\n",
    "knights": b"4 1 1\n1 1\n",
    "board-game": b"1 3\nP.P\n\n1 4\nP..P\n",
    "make-you-happy": b"1\n3 3\n1 2\n2 3\n3 1\n2 1\n",
    "staircase": b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_problem_draws_its_first_instance(name: str) -> None:
    root = parsed(problem_svg(name, SAMPLES[name]))
    assert root.find("{http://www.w3.org/2000/svg}title") is not None


def test_hamilg_draws_the_first_case_only() -> None:
    in_d, _, _ = drawn(problem_svg("hamilg", SAMPLES["hamilg"]))
    assert len(in_d) == 3  # case 1 has 3 vertices, case 2 has 2


def test_no_case_to_draw_is_an_input_error() -> None:
    with pytest.raises(InputFormatError, match="no case to draw"):
        problem_svg("hamilg", b"0\n")


def test_a_graph_too_large_to_read_is_refused() -> None:
    big = np.zeros((60, 60), dtype=bool)
    with pytest.raises(PictureTooLargeError, match="3600 cells are too many"):
        grid_svg(big, title="big")
    with pytest.raises(PictureTooLargeError, match="61 vertices"):
        pursuit_svg(61, [], 0, 1, title="p")


def test_circles_cover_the_matching_and_board_cells_lie_under_it() -> None:
    # Regression: vertex circles were drawn before the matching lines, which crossed them.
    result = solve_geography([(0, 1), (1, 2), (2, 3)])
    kinds = [e.get("class") for e in parsed(geography_svg(result)).iter() if e.get("class")]
    assert kinds.index("vertex") > max(i for i, k in enumerate(kinds) if k == "matching")
    cells = [e.get("class") for e in parsed(grid_svg(np.ones((1, 4), bool), title="t")).iter()]
    kinds = [k for k in cells if k]
    assert kinds.index("matching") > max(i for i, k in enumerate(kinds) if k == "vertex")
