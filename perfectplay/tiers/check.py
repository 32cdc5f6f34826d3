"""``check_tiered_game``: a tiered game's ranking and moves checked against its own rules.

The engine trusts the game's arrays; this check does not. On random slots of every tier it
compares the tiered game with ``as_game()``, the same game written as an ordinary
:class:`~perfectplay.protocol.game.Game`, one position at a time in plain Python.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from perfectplay.errors import GameDefinitionError, PerfectPlayError
from perfectplay.protocol.tiered import TieredGame
from perfectplay.tiers.expand import slot_ranks
from perfectplay.tiers.plan import tier_order
from perfectplay.values import UNDECIDED, Value

__all__ = ["check_tiered_game"]

_WINDOW = 1 << 12


def _sample(game: TieredGame, tier: int, samples: int, rng: np.random.Generator) -> list[int]:
    """Up to `samples` slot ranks of `tier`: all of a small tier, else random windows."""
    size = game.tier_size(tier)
    if size <= 4 * _WINDOW:
        ranks = slot_ranks(game, tier, 0, size)
    else:
        found = []
        for _ in range(8):
            lo = int(rng.integers(0, size - _WINDOW + 1))
            found.append(slot_ranks(game, tier, lo, lo + _WINDOW))
        ranks = np.concatenate(found)
    if len(ranks) > samples:
        ranks = rng.choice(ranks, samples, replace=False)
    return sorted(int(r) for r in ranks)


def _is_slot(game: TieredGame, tier: int, rank: int) -> bool:
    mask = game.slots(tier, rank, rank + 1)
    return mask is None or bool(mask[0])


def _children(game: TieredGame, tier: int, rank: int) -> tuple[int, list[tuple[int, int]]]:
    moves = game.children(tier, np.array([rank], dtype=np.int64))
    targets = [tier, *game.child_tiers(tier)]
    out = []
    for e in range(int(moves.indptr[0]), int(moves.indptr[1])):
        w = int(moves.which[e])
        if not 0 <= w < len(targets):
            raise GameDefinitionError(
                f"tier {tier} rank {rank}: a move names child tier index {w}, "
                f"outside 0..{len(targets) - 1}"
            )
        out.append((targets[w], int(moves.rank[e])))
    return int(moves.primitive[0]), out


def check_tiered_game(game: TieredGame, samples: int = 200, seed: int = 0) -> None:
    """Check `game`'s tiers, ranking, moves and un-moves on random slots of every tier.

    Checked: the tiers form an order (no tier cycle, children are tiers); the start is a slot
    and is where ``as_game().initial()`` is; for each sampled slot ``r`` of tier ``t``:
    ``locate(position(t, r)) == (t, r)`` (rank and unrank agree, the slot is canonical); the
    primitive value equals ``as_game().outcome``; the children (as ``(tier, rank)``, counted
    with multiplicity) equal ``locate`` of the positions ``as_game().moves`` gives, lie in
    ``t`` or its child tiers, are slots there, and stay in ``t`` only if ``inner_moves(t)``;
    for tiers with inner moves, every in-tier child lists ``r`` among its ``parents``, and
    every parent slot listed for ``r`` has ``r`` among its children; orbit sizes are at least 1;
    a tier's parts (``tier_parts``), where it names them, start at rank 0 and increase within
    the tier, under distinct labels.

    Parameters
    ----------
    game : TieredGame
    samples : int
        Slots checked per tier (all of a tier that has fewer).
    seed : int
        Seed of the random choice of slots.

    Raises
    ------
    GameDefinitionError
        Naming the tier, rank and what disagrees.

    Notes
    -----
    Cost: about ``samples * (number of tiers)`` positions, each with one ``children`` call,
    its Python-level ``moves`` and, for loopy tiers, one ``parents`` call per move.
    """
    name = game.info.name
    rng = np.random.default_rng(seed)
    order = tier_order(game)
    rules = game.as_game()
    start = game.initial()
    if start[0] not in order or not _is_slot(game, *start):
        raise GameDefinitionError(f"{name}: the start {start} is not a slot of a tier")
    if game.locate(rules.initial()) != start:
        raise GameDefinitionError(
            f"{name}: initial() is {start} but as_game().initial() is at "
            f"{game.locate(rules.initial())}"
        )
    for tier in order:
        _check_parts(game, tier)
        allowed = (
            {tier, *game.child_tiers(tier)}
            if game.inner_moves(tier)
            else set(game.child_tiers(tier))
        )
        ranks = _sample(game, tier, samples, rng)
        if ranks and bool((game.orbit_sizes(tier, np.array(ranks, np.int64)) < 1).any()):
            raise GameDefinitionError(f"{name}: tier {tier} has an orbit size below 1")
        for rank in ranks:
            where = f"{name}: tier {tier} rank {rank}"
            position = game.position(tier, rank)
            try:
                back = game.locate(position)
            except PerfectPlayError as error:
                raise GameDefinitionError(f"{where}: locate(position) fails: {error}") from None
            if back != (tier, rank):
                raise GameDefinitionError(f"{where}: locate(position(t, r)) gives {back}")
            primitive, children = _children(game, tier, rank)
            outcome = rules.outcome(position)
            expected = UNDECIDED if outcome is None else int(outcome)
            if primitive != expected:
                said = "UNDECIDED" if primitive == UNDECIDED else Value(primitive).name
                rule = "play goes on" if outcome is None else outcome.name
                raise GameDefinitionError(f"{where}: primitive {said}, but the rules say {rule}")
            want = (
                Counter(game.locate(m[1]) for m in rules.moves(position))
                if outcome is None
                else Counter()
            )
            if Counter(children) != want:
                raise GameDefinitionError(
                    f"{where}: children {sorted(children)} but the rules' moves lead to "
                    f"{sorted(want.elements())}"
                )
            for child in children:
                if child[0] not in allowed:
                    raise GameDefinitionError(f"{where}: a move to tier {child[0]} is not allowed")
                if not _is_slot(game, *child):
                    raise GameDefinitionError(f"{where}: child {child} is not a slot")
            if game.inner_moves(tier):
                _check_parents(game, tier, rank, [c[1] for c in children if c[0] == tier], where)


def _check_parts(game: TieredGame, tier: int) -> None:
    """``tier_parts(tier)``: None, or labels apart and first ranks from 0, increasing, inside
    the tier (``analyze`` splits a tier's counts at them)."""
    parts = game.tier_parts(tier)
    if parts is None:
        return
    firsts = [first for _, first in parts]
    labels = [label for label, _ in parts]
    inside = all(0 <= f < game.tier_size(tier) for f in firsts)
    if not parts or firsts[0] != 0 or firsts != sorted(set(firsts)) or not inside:
        raise GameDefinitionError(
            f"{game.info.name}: tier {tier}'s parts must start at rank 0 and increase within "
            f"its {game.tier_size(tier)} ranks, not {firsts}"
        )
    if len(set(labels)) != len(labels):
        raise GameDefinitionError(f"{game.info.name}: tier {tier}'s parts repeat a label: {labels}")


def _check_parents(game: TieredGame, tier: int, rank: int, inner: list[int], where: str) -> None:
    if inner:
        indptr, parents = game.parents(tier, np.array(inner, dtype=np.int64))
        for i, child in enumerate(inner):
            listed = parents[int(indptr[i]) : int(indptr[i + 1])]
            if rank not in set(int(q) for q in listed):
                raise GameDefinitionError(
                    f"{where}: has a move to rank {child}, whose parents do not list it"
                )
    indptr, parents = game.parents(tier, np.array([rank], dtype=np.int64))
    for q in {int(q) for q in parents[int(indptr[0]) : int(indptr[1])]}:
        if not _is_slot(game, tier, q):
            continue
        _, moves = _children(game, tier, q)
        if (tier, rank) not in moves:
            raise GameDefinitionError(f"{where}: parents list rank {q}, which has no move to it")
