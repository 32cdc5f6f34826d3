"""Games: each builds a `GameGraph` (or is enumerated into one) and draws its positions.

- :mod:`~perfectplay.games.base` — the `Game` protocol for users' own games;
  :mod:`~perfectplay.games.enumerate` turns one into a graph; :mod:`~perfectplay.games.check`
  tests its conformance; :mod:`~perfectplay.games.registry` loads games by name.
- Classic games, registered by name: :mod:`~perfectplay.games.tictactoe`,
  :mod:`~perfectplay.games.connect_four`, :mod:`~perfectplay.games.nim`,
  :mod:`~perfectplay.games.subtraction`, :mod:`~perfectplay.games.dodgem`.
- Board games whose position graphs are built by array code: :mod:`~perfectplay.games.grid`,
  :mod:`~perfectplay.games.two_tokens`, :mod:`~perfectplay.games.knights`,
  :mod:`~perfectplay.games.undirected` (geography), :mod:`~perfectplay.games.pursuit`,
  :mod:`~perfectplay.games.staircase` (scored).

A game never knows which front end shows it.
"""
