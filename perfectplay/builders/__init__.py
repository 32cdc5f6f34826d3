"""The contest problems' games: graphs built by array code for ``perfectplay problem``.

Grid and two-token boards, knights, undirected geography and pursuit on a digraph each build
a :class:`~perfectplay.graph.GameGraph` directly (no enumeration); the staircase game
(:mod:`.staircase`: rules, tier form, kernels, picture) is scored and swept level by level.
None of them is in the registry of named games (:mod:`perfectplay.games`).
"""
