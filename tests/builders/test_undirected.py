"""Geography on an explicit undirected graph: edge normalisation, ids, values against search."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from brute import geography_mover_wins
from hypothesis import given, settings
from hypothesis import strategies as st

import perfectplay.games
from perfectplay.builders.undirected import Geography
from perfectplay.errors import InvalidGraphError, TooLargeError
from perfectplay.solvers.geography import solve_geography


@st.composite
def graphs(draw: st.DrawFn, max_n: int = 9) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, max_n))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20))
    return n, edges


@given(graphs())
def test_graph_is_the_simple_graph_of_the_edges(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = case
    game = Geography(n, [u for u, _ in edges], [v for _, v in edges])
    g = game.graph()
    expected = {(u, v) for u, v in edges if u != v} | {(v, u) for u, v in edges if u != v}
    got = [(p, int(q)) for p in range(n) for q in g.moves(p)]
    assert g.undirected and len(got) == len(set(got)) and set(got) == expected


@settings(max_examples=80)
@given(graphs())
def test_values_match_exhaustive_search(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = case
    game = Geography(n, [u for u, _ in edges], [v for _, v in edges])
    assert solve_geography(game.graph()).mover_wins.tolist() == geography_mover_wins(n, edges)


def test_odd_cycles_lose_for_nobody_but_a_pendant_changes_that() -> None:
    triangle = Geography(3, [0, 1, 2], [1, 2, 0])
    assert solve_geography(triangle.graph()).mover_wins.tolist() == [False] * 3
    with_tail = Geography(4, [0, 1, 2, 2], [1, 2, 0, 3])
    assert solve_geography(with_tail.graph()).mover_wins.tolist() == [True] * 4


def test_bipartite_numbers_the_right_side_after_the_left() -> None:
    game = Geography.bipartite(2, 3, [0, 1, 1], [2, 2, 0])
    g = game.graph()
    assert game.n == 5
    assert sorted(g.moves(1).tolist()) == [2, 4] and g.moves(3).size == 0
    with pytest.raises(InvalidGraphError, match=r"right_end\[0\] = 3"):
        Geography.bipartite(2, 3, [0], [3])


def test_labels_encode_decode_and_draw() -> None:
    game = Geography(3, [0, 1], [1, 2], labels=["a", "b", "c"])
    assert game.encode("b") == 1 and game.decode(2) == "c"
    assert game.draw(1) == "vertex b -> a c"
    plain = Geography(2, [], [])
    assert plain.encode(1) == 1 and plain.draw(0) == "vertex 0 ->"
    with pytest.raises(InvalidGraphError, match="no vertex 'z'"):
        game.encode("z")
    with pytest.raises(InvalidGraphError, match="out of range"):
        game.decode(3)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, [], []), "non-negative"),
        ((2, [0, 1], [1]), "same length"),
        ((2, [0], [2]), r"v\[0\] = 2 is not a vertex"),
        ((2, [0.5], [1]), "integers"),
    ],
)
def test_bad_graphs_are_named(args: tuple[int, list[float], list[int]], message: str) -> None:
    with pytest.raises(InvalidGraphError, match=message):
        Geography(*args)


def test_oversized_graphs_are_refused() -> None:
    with pytest.raises(TooLargeError, match="2147483648 vertices"):
        Geography(2**31, [], [])


def test_numba_kernels_live_in_private_modules() -> None:
    # Public game and solver modules validate and call kernels from private _*.py modules.
    package = Path(perfectplay.games.__file__).parent.parent
    folders = ("games/**/*.py", "builders/*.py", "solvers/*.py", "search/*.py")
    for path in sorted(p for folder in folders for p in package.glob(folder)):
        if path.name.startswith("_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        imported |= {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        }
        assert "numba" not in imported, f"{path.name} defines numba code; move it to a _*.py module"
