"""Solvers: pure functions from a `GameGraph` to values for the player to move.

One public module per technique, each validating its input and calling private numba kernels:

- :mod:`~perfectplay.solvers.retrograde` — ``solve_retrograde``: WIN/LOSE/TIE/DRAW and
  remoteness on any directed graph, cycles allowed.
- :mod:`~perfectplay.solvers.dag` — ``solve_dag``: one sweep over an acyclic graph, with
  minimax scores for scored games.
- :mod:`~perfectplay.solvers.auto` — ``solve_graph``: the DAG sweep when the graph is acyclic,
  retrograde analysis otherwise.
- :mod:`~perfectplay.solvers.geography` — ``solve_geography``: undirected vertex geography by
  maximum matching (bipartite and general graphs), with strategies.
- :mod:`~perfectplay.solvers.grundy` — ``solve_grundy``: Sprague–Grundy values, sums of games.

A solver never knows which game it solves.
"""
