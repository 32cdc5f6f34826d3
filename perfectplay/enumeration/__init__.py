"""The enumeration engine: a :class:`~perfectplay.protocol.game.Game` into a graph and a solution.

- :mod:`~perfectplay.enumeration.enumerate` — every reachable position into a
  :class:`~perfectplay.graph.GameGraph` (plain and vectorized paths);
- :mod:`~perfectplay.enumeration.solving` — the graph solved and indexed by position
  (:class:`GameSolution`);
- :mod:`~perfectplay.enumeration.check` — :func:`check_game`, a game's conformance test.
"""
