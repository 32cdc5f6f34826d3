"""Graph builders of the contest problems: positions laid out by array code.

Grid and two-token boards, knights, undirected geography and pursuit on a digraph: each builds
a :class:`~perfectplay.graph.GameGraph` directly (no enumeration), for ``perfectplay problem``.
"""
