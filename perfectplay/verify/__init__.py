"""Checking solutions independently of the solvers that produced them.

A solution is checked position by position against its moves, in plain numpy, without any
of the solvers' kernels: :func:`check_solution` on arrays, :func:`verify_graph_text` on a
graph file and ``perfectplay solve``'s text output, :func:`verify_store` on a store file.
Geography results carry a certificate (a maximum matching with a proof of maximality and
of the set D(G)): :func:`check_geography_certificate`. A tier directory is checked against
its regenerated moves (:mod:`perfectplay.verify.tiers`), or sampled and compared with a search
of the game's rules a few plies deep (:mod:`perfectplay.verify.probe`).

Examples
--------
>>> from perfectplay.verify import verify_graph_text
>>> verify_graph_text(b"3 2\\n0 1\\n1 2\\n", b"0 LOSE 2\\n1 WIN 1\\n2 LOSE 0\\n").ok
True
>>> verify_graph_text(b"3 2\\n0 1\\n1 2\\n", b"0 WIN 2\\n1 WIN 1\\n2 LOSE 0\\n").problems
['position 0: WIN 2 but move to 1 gives WIN 1 to the opponent (its moves imply LOSE 2)']
"""

from __future__ import annotations

from perfectplay.verify.certificate import check_geography_certificate
from perfectplay.verify.database import verify_store
from perfectplay.verify.rules import Report, check_solution
from perfectplay.verify.text import parse_solution

__all__ = [
    "Report",
    "check_geography_certificate",
    "check_solution",
    "parse_solution",
    "verify_graph_text",
    "verify_store",
]


def verify_graph_text(graph: bytes, solution: bytes, *, workers: int | None = None) -> Report:
    """Check a solution text (``id VALUE remoteness`` lines) against a graph file's contents.

    Raises
    ------
    InputFormatError, TooLargeError
        If either text is malformed (the graph file as :func:`perfectplay.graphfile.parse_graph`,
        the solution as :func:`parse_solution`).

    Notes
    -----
    Cost: parsing both texts, then O(n + m) (see :func:`check_solution`).
    """
    from perfectplay.graphfile import parse_graph

    parsed = parse_graph(graph)
    value, remoteness = parse_solution(solution, parsed.graph.n)
    g = parsed.graph
    return check_solution(g.indptr, g.indices, value, remoteness, parsed.primitive, workers=workers)
