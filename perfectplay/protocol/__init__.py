"""The protocol: what a game is to every engine.

- :mod:`~perfectplay.protocol.game` — :class:`Game` (a game in plain Python: ``initial``,
  ``moves``, ``outcome`` and optional extras), :class:`GameInfo`, the move tuple ``moves``
  yields.
- :mod:`~perfectplay.protocol.tiered` — :class:`TieredGame` and :class:`TierMoves`: a game
  split into tiers of ranked positions for the tier engine.
- :mod:`~perfectplay.protocol.answers` — what every source of answers offers
  (:class:`Answers`: a position's :class:`PositionValue`, its moves as
  :class:`~perfectplay.moves.Move` records), shared by every engine and the store.

Engines and games import this package; it imports nothing of theirs.
"""
