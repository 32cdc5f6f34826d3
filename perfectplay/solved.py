"""``open_solved``: any saved solution opened for queries — a store file or a tier directory.

Front ends (``query``, ``analyze``, ``play``, pictures, the web app) take either alike: both
answer ``probe``/``get``, ``move_values`` and ``best_moves`` for positions of their ``game``,
values **for the player to move**.

Examples
--------
>>> import tempfile, os
>>> open_solved(tempfile.mkdtemp())
Traceback (most recent call last):
...
perfectplay.errors.StoreError: ...: not a tier directory (no manifest.json)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from perfectplay.protocol.tiered import TieredGame
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

__all__ = ["is_tier_directory", "open_solved", "open_tiers"]


def is_tier_directory(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is a directory (tier directories are; store files are not)."""
    return os.path.isdir(path)


def open_solved(path: str | os.PathLike[str]) -> SolutionStore | TierDatabase:
    """Open a saved solution: a tier directory (``solve GAME --tiers DIR``) or a store file.

    Raises
    ------
    StoreError
        Missing, damaged, or of an unknown format (the message names `path`).
    """
    if is_tier_directory(path):
        return open_tiers(path)
    from perfectplay.store import open_store

    return open_store(os.fspath(path))


def open_tiers(
    directory: str | os.PathLike[str], *, game: TieredGame | None = None, partial: bool = False
) -> TierDatabase:
    """Open a solved tier directory for queries; its game rebuilt through the registry.

    Parameters
    ----------
    directory : path
        A directory written by :func:`~perfectplay.tiers.engine.solve_tiers`.
    game : TieredGame, optional
        The game; default: the registered game, parameters and class its manifest records
        (a class no installed package registers is refused, never imported).
    partial : bool
        Also open a directory whose solve is not finished (tiers still missing: nothing is
        written, ``complete(tier)`` says which tiers are there; reading a missing one fails).

    Raises
    ------
    StoreError
        Not a tier directory, another game's, incompletely solved (unless `partial`), or
        damaged.
    """
    import functools

    from perfectplay.tiers.database import TierDatabase
    from perfectplay.tiers.storage import read_manifest

    if game is not None:
        return TierDatabase.open(os.fspath(directory), game=game, partial=partial)
    recorded = read_manifest(os.fspath(directory)).get("class")  # absent in older directories
    target = recorded if isinstance(recorded, str) else None
    loader = functools.partial(_load_recorded, target=target, where=os.fspath(directory))
    return TierDatabase.open(os.fspath(directory), loader=loader, partial=partial)


def _load_recorded(name: str, params: Any, *, target: str | None, where: str) -> TieredGame:
    """The tiered game a tier directory records (its name, parameters and class)."""
    from perfectplay.recorded import load_recorded_game

    game: TieredGame = load_recorded_game(name, params, target, where=where, tiered=True)
    return game
