"""The plan of a tier solve, shared by the in-process engine and the cluster driver.

The order of the tiers (children first), the chunks of a tier, their sizes and memory per rank,
the counts a run reports, and its progress bar.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.tiered import TieredGame

__all__ = [
    "ACYCLIC_BYTES_PER_RANK",
    "BLOCK",
    "DASK_CHUNK",
    "DEFAULT_CHUNK",
    "SolveStats",
    "chunk_bounds",
    "progress_bar",
    "tier_order",
    "tiers_read",
]

DEFAULT_CHUNK = 1 << 22
"""Ranks per chunk in this process's threads: about 0.15 s of work for Connect Four 5x6 on one
core, 4 MiB of records, 75 MB in flight."""
DASK_CHUNK = 1 << 26
"""Ranks per chunk as a Dask task: about 1 s of work for Connect Four 5x6 on one core, so a
task's round trip through the scheduler and its file are small beside it; 1.2 GB in flight per
worker thread (the chunk sizes measured: docs/distributed.md)."""
BLOCK = 1 << 18
"""Ranks per compressed block of a tier file."""
ACYCLIC_BYTES_PER_RANK = 18
"""Memory per rank of a chunk in flight: value, remoteness, score, and its packed records."""


@dataclass
class SolveStats:
    """What one run of :func:`solve_tiers` did, and what it found done by an earlier run."""

    tiers_solved: int = 0
    """Tiers solved by this run."""
    tiers_kept: int = 0
    """Tiers whose complete file an earlier run left (not solved again)."""
    chunks_solved: int = 0
    """Chunks solved by this run."""
    chunks_kept: int = 0
    """Chunks whose complete file an earlier run left (not solved again)."""


def tier_order(game: TieredGame) -> list[int]:
    """The tiers of `game`, each after every tier its moves reach (children first).

    Raises
    ------
    GameDefinitionError
        If a child tier is not a tier of the game, or tiers reach each other in a cycle.
    """
    tiers = [int(t) for t in game.tiers()]
    known = set(tiers)
    if len(known) != len(tiers):
        raise GameDefinitionError(f"{game.info.name}: tiers() lists a tier twice")
    order: list[int] = []
    state: dict[int, int] = {}  # 1: on the path, 2: done
    for root in tiers:
        stack: list[tuple[int, list[int]]] = [(root, [int(c) for c in game.child_tiers(root)])]
        if root in state:
            continue
        state[root] = 1
        while stack:
            tier, todo = stack[-1]
            if not todo:
                stack.pop()
                state[tier] = 2
                order.append(tier)
                continue
            child = todo.pop()
            if child not in known:
                raise GameDefinitionError(
                    f"{game.info.name}: child_tiers({tier}) names {child}, not a tier of the game"
                )
            if child == tier:
                raise GameDefinitionError(
                    f"{game.info.name}: child_tiers({tier}) names the tier itself"
                )
            if state.get(child) == 1:
                raise GameDefinitionError(
                    f"{game.info.name}: tiers {tier} and {child} reach each other (a tier cycle)"
                )
            if child not in state:
                state[child] = 1
                stack.append((child, [int(c) for c in game.child_tiers(child)]))
    return order


_TAIL_PARTS = 4
"""Near a tier's end, a chunk takes this fraction of the ranks left, ..."""
_SMALLEST = 16
"""... down to 1/16 of a full chunk."""


def tiers_read(game: TieredGame, order: list[int], tiers: Collection[int]) -> list[int]:
    """`tiers` and every tier they read, directly or not, in `order`'s order.

    Cost: the child tiers of each of them once.

    Examples
    --------
    >>> from perfectplay.games.registry import load_tiered_game
    >>> game = load_tiered_game("connect-four", rows=3, cols=3)
    >>> order = tier_order(game)
    >>> tiers_read(game, order, [order[-2]]) == order[:-1]  # all but the start
    True
    """
    seen: set[int] = set()
    stack = list(tiers)
    while stack:
        tier = stack.pop()
        if tier not in seen:
            seen.add(tier)
            stack.extend(int(c) for c in game.child_tiers(tier))
    return [t for t in order if t in seen]


def chunk_bounds(size: int, chunk: int, block: int) -> list[tuple[int, int]]:
    """The ranks ``start..stop-1`` of each chunk of a tier of `size` ranks.

    Chunks of `chunk` ranks, then, over the tier's last 4 chunks' worth, chunks of a quarter of
    the ranks left, down to ``chunk / 16`` (guided scheduling): the threads or workers finish a
    tier together instead of waiting on one last full chunk, and a tier smaller than 4 chunks
    is still cut into several. Chunks hold whole blocks of `block` ranks (but the last); the
    layout depends on nothing else, so a resumed run finds the same chunks.

    Examples
    --------
    >>> chunk_bounds(100, 16, 2)  # doctest: +NORMALIZE_WHITESPACE
    [(0, 16), (16, 32), (32, 48), (48, 62), (62, 72), (72, 80), (80, 86), (86, 90), (90, 94),
     (94, 96), (96, 98), (98, 100)]
    >>> chunk_bounds(0, 16, 2)
    [(0, 0)]
    """
    least = max(block, chunk // _SMALLEST // block * block)
    bounds, start = [], 0
    while start < size:
        quarter = -(-(size - start) // (_TAIL_PARTS * block)) * block
        stop = min(start + min(chunk, max(least, quarter)), size)
        bounds.append((start, stop))
        start = stop
    return bounds or [(0, 0)]


def progress_bar(total: int, label: str, enabled: bool | None) -> Any:
    """A progress bar over a tier's `total` ranks (None: shown on a terminal only)."""
    from tqdm import tqdm

    return tqdm(
        total=total, desc=f"tier {label}", unit="pos", unit_scale=True, leave=False,
        disable=None if enabled is None else not enabled,
    )  # fmt: skip
