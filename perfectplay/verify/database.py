"""Check a store file (``perfectplay solve ... --save``) against the rules, position by position.

The store holds the moves (CSR), the values and remoteness, and for scored games the scores
and gains. Every position is checked against its moves by :func:`~perfectplay.verify.rules.
check_solution`. A game store's moves are first regenerated from the game (``batch_moves`` on
the stored codes, else ``moves`` per position) and must be exactly the stored ones, so a store
is checked against the game itself, not only against the graph it carries. Where the game is
over the store records no reason; a game store asks the game's rules (``batch_outcome`` for
every position when the game has it, else ``outcome`` and ``terminal_score`` at every position
with remoteness 0); a graph store checks them against its ``primitive`` array (the values
its rules fix, written by ``perfectplay solve FILE --save``); a graph store without one takes
the positions with moves and remoteness 0 as fixed by its rules, and says so in the notes.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import StoreError
from perfectplay.protocol.game import Game, provides
from perfectplay.values import DRAW, LOSE, TIE, UNDECIDED, WIN, Value
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


def _game_moves(
    store: Any, game: Game[Any], codes: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64] | None]:
    """Every move of the stored positions, regenerated from the game: parent ids, child codes,
    gains (scored games)."""
    canonical = bool(store.manifest["canonical"])
    batch = provides(game, "batch_moves") and not store.scored
    if batch and (canonical or not provides(game, "canonical")):
        parent, child = game.batch_moves(codes)
        return np.asarray(parent, np.int64), np.asarray(child, np.int64), None
    parents: list[int] = []
    children: list[int] = []
    gains: list[int] = []
    for p, code in enumerate(codes.tolist()):
        position = game.decode(code)
        if game.outcome(position) is not None:
            continue
        for move in game.moves(position):
            target = game.canonical(move[1]) if canonical else move[1]
            parents.append(p)
            children.append(int(game.encode(target)))
            gains.append(int(move[2]) if len(move) > 2 else 0)
    gain = np.array(gains, np.int64) if store.scored else None
    return np.array(parents, np.int64), np.array(children, np.int64), gain


def _check_game_moves(store: Any, game: Game[Any], report: Report) -> None:
    """The stored moves are exactly the game's moves between the stored codes (as multisets),
    and the start is stored under the code of the game's initial position.

    Every stored position but the start is the target of a regenerated move, whose code is
    canonical: so a code changed to another encoding of the same position is caught there,
    or here for the start."""
    codes = _codes_by_id(store)
    start = store.start
    if start is not None:
        initial = game.initial()
        key = game.canonical(initial) if store.manifest["canonical"] else initial
        if not 0 <= start < store.n or int(codes[start]) != int(game.encode(key)):
            report.add(np.array([0]), "the start is not stored under the initial position's code")
    sorted_codes = np.asarray(store.array("codes"), dtype=np.int64)
    if (np.diff(sorted_codes) <= 0).any():
        report.add(np.array([0]), "the stored codes are not sorted and distinct")
        return
    parent, child, gain = _game_moves(store, game, codes)
    indptr = np.asarray(store.array("indptr"), dtype=np.int64)
    stored_index = np.asarray(store.array("indices"), dtype=np.int64)
    stored_gain = np.asarray(store.array("gain")) if gain is not None else None
    if _same_order(store.n, parent, child, gain, indptr, codes[stored_index], stored_gain):
        return
    _compare_sorted(store, report, sorted_codes, parent, child, gain, indptr, stored_gain)


def _same_order(
    n: int,
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
    gain: NDArray[np.int64] | None,
    indptr: NDArray[np.int64],
    stored_child: NDArray[np.int64],
    stored_gain: NDArray[Any] | None,
) -> bool:
    """Whether the game's moves are the stored ones in the stored order: the same parents row
    by row, the same child codes (and gains) move by move. Equal in order implies equal as
    multisets; the enumerator stores the game's own order, so this decides the usual case.

    Cost: O(n + m), no sort.
    """
    if parent.shape != stored_child.shape or (parent.size and (np.diff(parent) < 0).any()):
        return False
    if not np.array_equal(np.bincount(parent, minlength=n), np.diff(indptr)):
        return False
    if not np.array_equal(child, stored_child):
        return False
    return gain is None or stored_gain is None or np.array_equal(gain, stored_gain)


def _compare_sorted(
    store: Any,
    report: Report,
    sorted_codes: NDArray[np.int64],
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
    gain: NDArray[np.int64] | None,
    indptr: NDArray[np.int64],
    stored_gain: NDArray[Any] | None,
) -> None:
    """The game's moves and the stored ones compared as multisets of (parent, child id[, gain])
    after sorting both; reports the positions whose moves differ or lead outside the store.

    Cost: one binary search per move, and sorting both move lists, O(m log m).
    """
    k = np.minimum(np.searchsorted(sorted_codes, child), max(store.n - 1, 0))
    found = sorted_codes[k] == child if store.n else np.zeros(child.shape[0], np.bool_)
    report.add(
        np.unique(parent[~found]),
        "position {p}: a move of the game leads to a position missing from the store",
    )
    ids = np.asarray(store.array("code_ids"), dtype=np.int64)[k]
    stored_parent = np.repeat(np.arange(store.n, dtype=np.int64), np.diff(indptr))
    stored_child = np.asarray(store.array("indices"), dtype=np.int64)
    if parent.shape != stored_parent.shape:
        counts = np.bincount(parent, minlength=store.n) != np.diff(indptr)
        report.add(
            np.flatnonzero(counts), "position {p}: its stored moves differ from the game's moves"
        )
        return
    ours = (parent, ids) if gain is None else (parent, ids, gain)
    theirs = (
        (stored_parent, stored_child)
        if stored_gain is None
        else (stored_parent, stored_child, stored_gain)
    )
    ours_sorted = _sorted_rows(ours, store.n)
    theirs_sorted = _sorted_rows(theirs, store.n)
    differ = np.zeros(ours_sorted[0].shape[0], dtype=np.bool_)
    for a, b in zip(ours_sorted, theirs_sorted, strict=True):
        differ |= a != b
    report.add(
        np.unique(ours_sorted[0][differ]),
        "position {p}: its stored moves differ from the game's moves",
    )


def _sorted_rows(columns: tuple[NDArray[Any], ...], n: int) -> list[NDArray[Any]]:
    """`columns` (parent, child id[, gain]) sorted by parent, then child, then gain.

    Without gains, one sort of the key ``parent * n + child`` (while it fits in int64), much
    faster than a lexicographic sort of two arrays; else ``np.lexsort``. Cost: O(m log m).
    """
    if len(columns) == 2 and n < 2**31:
        key = np.sort(columns[0] * n + columns[1])
        return [key // n, key % n]
    order = np.lexsort(columns[::-1])
    return [a[order] for a in columns]


def verify_store(
    path: str | os.PathLike[str],
    *,
    progress: bool = False,
    workers: int | None = None,
    game: Game[Any] | None = None,
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
    game : Game, optional
        The game that made the file, whose rules the moves are checked against (a game of
        one's own, not in the registry); default: the game the file records, rebuilt
        through the registry.

    Returns
    -------
    Report
        ``ok`` when every position holds.

    Raises
    ------
    StoreError
        If the file is not a readable, intact store (every array's CRC-32 is checked first).
    UnknownNameError
        If the store names a game this version of perfectplay does not know (and no `game`
        is given).

    Notes
    -----
    Cost: reading the whole file once for the checksums, then the O(n + m) check; for a game
    store, regenerating its moves (one ``batch_moves`` call, or ``decode`` and ``moves`` per
    position) and sorting both move lists, O(m log m); without ``batch_outcome``, one
    ``decode`` and ``outcome`` call per position with remoteness 0.
    """
    from tqdm import tqdm

    from perfectplay.store import open_store

    with open_store(path, verify=True, game=game) as store:
        solution = store.solution()  # validates the CSR arrays
        graph = solution.graph
        value = np.asarray(solution.value)
        remoteness = np.asarray(solution.remoteness)
        terminal = None
        if "terminal_score" in store.manifest["arrays"]:
            terminal = np.asarray(store.array("terminal_score"))
            playing = (remoteness != 0) & (np.diff(graph.indptr) > 0)
            if (terminal[playing] != 0).any():
                raise StoreError(f"{store.path} is corrupted: a terminal score where play goes on")
        if store.game_name is not None:
            moves_report = Report()
            _check_game_moves(store, store.game, moves_report)
            primitive, terminal = _game_rules(store, store.game, value, remoteness)
        elif "primitive" in store.manifest["arrays"]:
            primitive = np.asarray(store.array("primitive"))
            if primitive.size and (~np.isin(primitive, (LOSE, TIE, WIN, UNDECIDED))).any():
                raise StoreError(f"{store.path} is corrupted: a primitive value is out of range")
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
        if store.game_name is not None:
            report.bad += moves_report.bad
            report.problems[:0] = moves_report.problems
        elif "primitive" not in store.manifest["arrays"]:
            fixed = int(np.count_nonzero(primitive != UNDECIDED))
            if fixed:
                report.notes.append(
                    f"{fixed} positions with moves are over by the rules (remoteness 0): "
                    "a graph store does not record why, so their values were taken as given"
                )
            if solution.score is not None and terminal is None:
                report.notes.append(
                    "scores where the game is over were taken as given (not recorded)"
                )
    return report
