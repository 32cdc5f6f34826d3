"""A game on a general graph: count the start vertices the placing player wins (CodeChef HAMILG).

A connected simple undirected graph; player A picks the start vertex, then B moves first; no
vertex may be revisited; whoever cannot move loses. A wins from v iff the mover (B) loses
there, i.e. iff some maximum matching misses v: the answer is |D(G)|, the size of the
Gallai-Edmonds set, computed with Edmonds' blossoms (the graph need not be bipartite).

Input: ``T``, then per case ``N M`` and M lines ``u v`` (1-based). Output: one integer per
case. An edge given twice counts once; an edge from a vertex to itself is an input error (the
graph is simple). Connectivity is not required: |D(G)| is defined for any graph.

Limits: ``N <= 2000`` per case and the sum of ``M`` over the cases ``<= 10^6`` (the judge's),
refused with the line by default; ``limits=False`` (``--no-limits``) lifts them: any graph that
fits in memory.

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

__all__ = ["JUDGE_EDGES", "JUDGE_N", "solve"]

JUDGE_N = 2000
"""The judge's bound on a case's number of vertices N."""
JUDGE_EDGES = 10**6
"""The judge's bound on the sum of M over the cases."""


def _case(reader: TokenReader, edges_before: int) -> tuple[int, int]:
    """Read one case and return |D(G)| and its number of edges M.

    `edges_before` counts the edges of the cases before it, for the judge's limit on their sum.
    """
    n = reader.integer("the number of vertices N", low=1, at_most=JUDGE_N)
    line = reader.line()
    m = reader.integer("the number of edges M", low=0)
    reader.within_limit(edges_before + m, JUDGE_EDGES, "the sum of M over the cases", line)
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
    return int(np.count_nonzero(solve_geography(game.graph()).in_d)), m


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input -> |D(G)| per case, one per line.

    Parameters
    ----------
    data : bytes
        The judge input.
    limits : bool, default True
        Refuse a case's N, or a sum of M, above the judge's limits before reading its edges.

    Raises
    ------
    InputFormatError
        Missing or non-integer numbers, a vertex outside 1..N, a self-loop, or N or the sum
        of M above the judge's limits (with the line).
    TooLargeError
        A graph that would not fit in memory.

    Notes
    -----
    Cost per case: O(M log M) to merge duplicate edges, then Edmonds' blossom algorithm (or
    Pothen-Fan when the graph is bipartite).
    """
    reader = TokenReader(data, limits=limits)
    cases = reader.integer("the number of test cases T", low=0)
    answers: list[int] = []
    edges = 0
    for _ in range(cases):
        answer, m = _case(reader, edges)
        answers.append(answer)
        edges += m
    reader.expect_end()
    return "".join(f"{a}\n" for a in answers)
