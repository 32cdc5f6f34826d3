"""The tier engine: strong solutions of games far larger than memory, one tier at a time.

A :class:`~perfectplay.tiers.base.TieredGame` splits its positions into tiers whose moves stay
inside the tier or lead to tiers solved before. The engine solves the tiers in that order,
each in parallel chunks, into compressed, checksummed files in a directory (resumable after a
crash), reading the child tiers it needs; nothing of the whole game is held in memory at once.
"""

from __future__ import annotations

from perfectplay.tiers.base import TieredGame, TierMoves

__all__ = ["TierMoves", "TieredGame"]
