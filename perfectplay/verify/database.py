"""Check a store file (``perfectplay solve ... --save``) against the rules, position by position.

The store holds the moves (CSR), the values and remoteness, and for scored games the scores
and gains. Every position is checked against its moves by :func:`~perfectplay.verify.rules.
check_solution`. Where the game is over the store records no reason; a game store asks the
game's rules (``batch_outcome`` for every position when the game has it, else ``outcome`` and
``terminal_score`` at every position with remoteness 0); a graph store takes the positions
with moves and remoteness 0 as fixed by its rules, and says so in the report's notes.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import StoreError
from perfectplay.games.base import Game, provides
from perfectplay.values import DRAW, UNDECIDED, Value
from perfectplay.verify.rules import Report, check_solution

__all__ = ["verify_store"]


def _codes_by_id(store: Any) -> NDArray[np.int64]:
    codes = np.asarray(store.array("codes"), dtype=np.int64)
    ids = np.asarray(store.array("code_ids"))
    if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= store.n):
        raise StoreError(f"{store.path} is corrupted: a code id is out of range")
    by_id = np.full(store.n, -1, dtype=np.int64)
    by_id[ids] = codes
    if (by_id < 0).any():
        raise StoreError(f"{store.path} is corrupted: a position has no code")
    return by_id


def _game_rules(
    store: Any, game: Game[Any], value: NDArray[np.uint8], remoteness: NDArray[np.integer]
) -> tuple[NDArray[np.uint8], NDArray[np.int64] | None]:
    """The values the game's rules fix (and terminal scores), for the positions asked about."""
    n = store.n
    codes = _codes_by_id(store)
    primitive = np.full(n, UNDECIDED, dtype=np.uint8)
    terminal = np.zeros(n, dtype=np.int64) if store.scored else None
    if provides(game, "batch_outcome") and not store.scored:
        primitive[:] = game.batch_outcome(codes)
        return primitive, terminal
    indptr = np.asarray(store.array("indptr"))
    over = np.flatnonzero((remoteness == 0) | (np.diff(indptr) == 0))
    for p in over.tolist():
        position = game.decode(int(codes[p]))
        outcome = game.outcome(position)
        if outcome is not None:
            primitive[p] = int(Value(outcome))
        if terminal is not None:
            terminal[p] = int(game.terminal_score(position))
    return primitive, terminal


def verify_store(
    path: str | os.PathLike[str], *, progress: bool = False, workers: int | None = None
) -> Report:
    """Check a store file: checksums, then every position against its moves (and the rules).

    Parameters
    ----------
    path : str or PathLike
        A file written by :func:`perfectplay.store.save`.
    progress : bool
        Show a progress bar (tqdm, on standard error) over the moves.
    workers : int, optional
        Threads checking chunks of positions in parallel (default: one per CPU).

    Returns
    -------
    Report
        ``ok`` when every position holds.

    Raises
    ------
    StoreError
        If the file is not a readable, intact store (every array's CRC-32 is checked first).
    UnknownNameError
        If the store names a game this version of perfectplay does not know.

    Notes
    -----
    Cost: reading the whole file once for the checksums, then the O(n + m) check; for a game
    store without ``batch_outcome``, one ``decode`` and ``outcome`` call per position with
    remoteness 0.
    """
    from tqdm import tqdm

    from perfectplay.store import open_store

    with open_store(path, verify=True) as store:
        solution = store.solution()  # validates the CSR arrays
        graph = solution.graph
        value = np.asarray(solution.value)
        remoteness = np.asarray(solution.remoteness)
        terminal = None
        if store.game_name is not None:
            primitive, terminal = _game_rules(store, store.game, value, remoteness)
        else:
            primitive = np.where(
                (remoteness == 0) & (np.diff(graph.indptr) > 0) & (value != DRAW),
                value,
                UNDECIDED,
            ).astype(np.uint8)
        with tqdm(
            total=graph.m, unit="move", unit_scale=True, disable=not progress, leave=False
        ) as bar:
            report = check_solution(
                graph.indptr,
                graph.indices,
                value,
                remoteness,
                primitive,
                score=None if solution.score is None else np.asarray(solution.score),
                gain=graph.gain,
                terminal_score=terminal,
                on_chunk=bar.update,
                workers=workers,
            )
        if store.game_name is None:
            fixed = int(np.count_nonzero(primitive != UNDECIDED))
            if fixed:
                report.notes.append(
                    f"{fixed} positions with moves are over by the rules (remoteness 0): "
                    "a graph store does not record why, so their values were taken as given"
                )
            if solution.score is not None:
                report.notes.append(
                    "scores where the game is over were taken as given (not recorded)"
                )
    return report
