"""Brute-force twins of every solver: independent, obviously correct, exponential or slow.

Each function here computes what a fast solver computes, by the definition alone, so the
hypothesis tests can compare whole arrays on small random instances.
"""

from __future__ import annotations


# ---------------------------------------------------------------- grundy (Sprague–Grundy values)
def brute_grundy(n: int, edges: list[tuple[int, int]]) -> list[int] | None:
    """Grundy values by the definition: mex of the children's values, memoised recursion.

    Returns None if the graph has a cycle (some position is reached again while its own
    value is being computed).
    """
    children: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        children[u].append(v)
    memo: dict[int, int] = {}
    active: set[int] = set()

    def value(p: int) -> int | None:
        if p in memo:
            return memo[p]
        if p in active:
            return None
        active.add(p)
        taken = set()
        for c in children[p]:
            g = value(c)
            if g is None:
                return None
            taken.add(g)
        active.discard(p)
        mex = 0
        while mex in taken:
            mex += 1
        memo[p] = mex
        return mex

    result = []
    for p in range(n):
        g = value(p)
        if g is None:
            return None
        result.append(g)
    return result
