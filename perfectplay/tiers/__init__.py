"""The tier engine: strong solutions of games far larger than memory, one tier at a time.

A :class:`~perfectplay.protocol.tiered.TieredGame` splits its positions into tiers whose moves stay
inside the tier or lead to tiers solved before. :func:`solve_tiers` solves the tiers in that
order, each in parallel chunks, into compressed, checksummed files in a directory (resumable
after a crash), reading the child tiers it needs; nothing of the whole game is held in memory
at once. :class:`TierDatabase` reads a solved directory back (:func:`perfectplay.open_tiers`
opens one); :func:`check_tiered_game` checks a game's tiers, ranking and moves against its own
rules.

Layout: ``base`` (the protocol), ``engine`` (the scheduler), ``acyclic`` and ``loopy`` (one
worker per method), ``expand`` (a batch's moves and child look-ups), ``_kernels`` (numba),
``records`` and ``files`` (what is on disk), ``storage`` (a directory or memory),
``database`` (queries), ``analyze`` (counts of reachable positions), ``check``.

Names load on first use: a game module importing the protocol does not load the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay._lazy import lazy_exports

_EXPORTS = {
    "TieredGame": "perfectplay.protocol.tiered",
    "TierMoves": "perfectplay.protocol.tiered",
    "TierDatabase": ".database",
    "solve_tiers": ".engine",
    "SolveStats": ".engine",
    "check_tiered_game": ".check",
    "analyze_tiers": ".analyze",
}

__all__ = [
    "SolveStats",
    "TierDatabase",
    "TierMoves",
    "TieredGame",
    "analyze_tiers",
    "check_tiered_game",
    "solve_tiers",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from perfectplay.protocol.tiered import TieredGame, TierMoves
    from perfectplay.tiers.analyze import analyze_tiers
    from perfectplay.tiers.check import check_tiered_game
    from perfectplay.tiers.database import TierDatabase
    from perfectplay.tiers.engine import SolveStats, solve_tiers
