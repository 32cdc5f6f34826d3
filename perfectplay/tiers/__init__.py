"""The tier engine: strong solutions of games far larger than memory, one tier at a time.

A :class:`~perfectplay.tiers.base.TieredGame` splits its positions into tiers whose moves stay
inside the tier or lead to tiers solved before. :func:`solve_tiers` solves the tiers in that
order, each in parallel chunks, into compressed, checksummed files in a directory (resumable
after a crash), reading the child tiers it needs; nothing of the whole game is held in memory
at once. :func:`open_tiers` reads a solved directory back; :func:`check_tiered_game` checks a
game's tiers, ranking and moves against its own rules.

Layout: ``base`` (the protocol), ``engine`` (the scheduler), ``acyclic`` and ``loopy`` (one
worker per method), ``expand`` (a batch's moves and child look-ups), ``_kernels`` (numba),
``records`` and ``files`` (what is on disk), ``storage`` (a directory or memory),
``database`` (queries), ``analyze`` (counts of reachable positions), ``check``.
"""

from __future__ import annotations

from perfectplay.tiers.base import TieredGame, TierMoves
from perfectplay.tiers.database import TierDatabase, open_tiers
from perfectplay.tiers.engine import solve_tiers

__all__ = ["TierDatabase", "TierMoves", "TieredGame", "open_tiers", "solve_tiers"]
