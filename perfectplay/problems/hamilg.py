"""A game on a general graph: count the start vertices the placing player wins (CodeChef HAMILG).

A connected simple undirected graph; player A picks the start vertex, then B moves first; no
vertex may be revisited; whoever cannot move loses. A wins from v iff the mover (B) loses
there, i.e. iff some maximum matching misses v: the answer is |D(G)|, the size of the
Gallai-Edmonds set, computed with Edmonds' blossoms (the graph need not be bipartite).

Input: ``T``, then per case ``N M`` and M lines ``u v`` (1-based). Output: one integer per
case. An edge given twice counts once; an edge from a vertex to itself is an input error (the
graph is simple). Connectivity is not required: |D(G)| is defined for any graph.

>>> print(solve(b"1\\n3 2\\n1 2\\n2 3\\n"), end="")
2
"""

from __future__ import annotations

import numpy as np

from perfectplay._memory import check_memory
from perfectplay.builders.undirected import Geography
from perfectplay.errors import InputFormatError
from perfectplay.problems._reader import TokenReader
from perfectplay.solvers.geography import solve_geography

__all__ = ["solve"]


def _case(reader: TokenReader) -> int:
    """Read one case and return |D(G)|."""
    n = reader.integer("the number of vertices N", low=1)
    m = reader.integer("the number of edges M", low=0)
    start = reader.pos
    edges = reader.integers(2 * m, "an edge 'u v'", low=1, high=n)
    loops = np.flatnonzero(edges[0::2] == edges[1::2])
    if loops.size:
        k = int(loops[0])
        reader.pos = start
        reader.integers(2 * k, "an edge 'u v'")
        raise InputFormatError(
            f"edge {k + 1} joins vertex {int(edges[2 * k])} to itself", reader.line()
        )
    # Refused before the graph is built (its own check, then the solver's, come later).
    check_memory(Geography.bytes_to_solve(n, m), f"a graph of {n} vertices and {m} edges")
    game = Geography(n, edges[0::2] - 1, edges[1::2] - 1)
    return int(np.count_nonzero(solve_geography(game.graph()).in_d))


def solve(data: bytes) -> str:
    """Judge input -> |D(G)| per case, one per line.

    Raises
    ------
    InputFormatError
        Missing or non-integer numbers, a vertex outside 1..N, or a self-loop (with the line).
    TooLargeError
        A graph that would not fit in memory.

    Notes
    -----
    Cost per case: O(M log M) to merge duplicate edges, then Edmonds' blossom algorithm (or
    Pothen-Fan when the graph is bipartite).
    """
    reader = TokenReader(data)
    cases = reader.integer("the number of test cases T", low=0)
    answers = [_case(reader) for _ in range(cases)]
    reader.expect_end()
    return "".join(f"{a}\n" for a in answers)
