"""Tiered games from random data, and the explicit graph of any tiered game, for the engine's tests.

:class:`RandomTieredGame` is a small game drawn from a seed: a few tiers with arbitrary ids,
positions ranked by random permutations inside tiers with unused ranks between them, moves
inside cyclic tiers and to tiers earlier in a random order, primitives (WIN, LOSE, TIE),
positions without moves, duplicate children, parents lists with repeats and non-slot ranks,
random orbit sizes, and optionally gains and terminal scores (then no tier has inner moves,
so the whole game is acyclic). Its moves are kept as an explicit :class:`~perfectplay.GameGraph`
over position ids (:meth:`RandomTieredGame.reference`), from which the tiered methods are
derived: the engine's answer on the tiered form must equal ``solve_retrograde``/``solve_dag``
on that graph.

:func:`explicit_graph` goes the other way for any tiered game: it asks ``children()`` for every
slot of every tier and builds the whole graph (small games only), the brute-force twin of the
engine for the staircase game and Dodgem.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from perfectplay.graph import GameGraph
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.solution import Solution
from perfectplay.solvers.dag import solve_dag
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import LOSE, TIE, UNDECIDED, VALUE_DTYPE, WIN, Value

Ids = NDArray[np.int64]


@dataclass
class Explicit:
    """A tiered game's whole graph: slot ``(tier, rank)`` is position ``start[tier] + rank``."""

    graph: GameGraph
    primitive: NDArray[np.uint8]
    terminal_score: Ids | None
    """Scored games: the score where the game is over, 0 elsewhere; otherwise None."""
    start: dict[int, int]
    slots: dict[int, NDArray[np.bool_]]
    """Per tier, which ranks are positions (the others are isolated ids, never compared)."""

    def solve(self) -> Solution:
        """``solve_dag`` for scored games, else ``solve_retrograde``."""
        if self.terminal_score is not None:
            return solve_dag(self.graph, self.primitive, terminal_score=self.terminal_score)
        return solve_retrograde(self.graph, self.primitive)

    def ids(self, tier: int) -> Ids:
        """The ids of tier `tier`'s ranks ``0..size - 1``."""
        return self.start[tier] + np.arange(self.slots[tier].shape[0], dtype=np.int64)


def _slot_mask(game: TieredGame, tier: int) -> NDArray[np.bool_]:
    size = game.tier_size(tier)
    mask = game.slots(tier, 0, size)
    return np.ones(size, dtype=np.bool_) if mask is None else np.asarray(mask, dtype=np.bool_)


def explicit_graph(game: TieredGame) -> Explicit:
    """Every slot's moves from ``game.children`` as one GameGraph (O(positions) memory)."""
    tiers = list(game.tiers())
    slots = {t: _slot_mask(game, t) for t in tiers}
    start: dict[int, int] = {}
    total = 0
    for t in tiers:
        start[t] = total
        total += slots[t].shape[0]
    primitive = np.full(total, UNDECIDED, dtype=VALUE_DTYPE)
    terminal = np.zeros(total, dtype=np.int64) if game.info.scored else None
    src, dst, gains = [], [], []
    for t in tiers:
        ranks = np.flatnonzero(slots[t]).astype(np.int64)
        moves = game.children(t, ranks)
        ids = start[t] + ranks
        primitive[ids] = moves.primitive
        targets = [t, *game.child_tiers(t)]
        offsets = np.array([start[x] for x in targets], dtype=np.int64)
        src.append(np.repeat(ids, np.diff(moves.indptr)))
        dst.append(offsets[moves.which.astype(np.int64)] + moves.rank)
        if terminal is not None:
            assert moves.gain is not None and moves.score is not None
            gains.append(moves.gain)
            over = (moves.primitive != UNDECIDED) | (np.diff(moves.indptr) == 0)
            terminal[ids[over]] = moves.score[over]
    graph = GameGraph.from_edges(
        np.concatenate(src), np.concatenate(dst), total,
        gain=np.concatenate(gains) if terminal is not None else None,
    )  # fmt: skip
    return Explicit(graph, primitive, terminal, start, slots)


class RandomGame(Game[int]):
    """The plain-Game form of a :class:`RandomTieredGame`: positions are ids, moves "m0", ..."""

    def __init__(self, tiered: RandomTieredGame) -> None:
        self.tiered = tiered
        self.info = tiered.info

    def initial(self) -> int:
        return self.tiered.start

    def moves(self, position: int) -> list[tuple[str, int] | tuple[str, int, int]]:
        graph = self.tiered.graph
        lo, hi = int(graph.indptr[position]), int(graph.indptr[position + 1])
        if graph.gain is None:
            return [(f"m{k}", int(graph.indices[lo + k])) for k in range(hi - lo)]
        return [
            (f"m{k}", int(graph.indices[lo + k]), int(graph.gain[lo + k])) for k in range(hi - lo)
        ]

    def outcome(self, position: int) -> Value | None:
        code = int(self.tiered.primitive[position])
        return None if code == UNDECIDED else Value(code)


class RandomTieredGame(TieredGame):
    """A tiered game drawn from `seed` (see the module docstring); positions are ids ``0..N-1``.

    Parameters
    ----------
    seed : int
        Seeds everything below.
    tiers : int
        Number of tiers (each gets a random id in ``0..99``).
    positions : int
        Most positions per tier (each tier gets ``0..positions``, at least one in all).
    unused : int
        Most unused ranks per tier.
    moves : int
        Most moves per position.
    scored : bool
        Give moves gains and over positions terminal scores; no tier then has inner moves.
    parallel : bool
        Scored games: let two moves of one position reach the same child with different gains
        (otherwise a repeated child repeats its gain too).
    """

    def __init__(
        self,
        seed: int,
        tiers: int = 3,
        positions: int = 8,
        unused: int = 3,
        moves: int = 4,
        scored: bool = False,
        parallel: bool = False,
    ) -> None:
        rng = np.random.default_rng(seed)
        ids = rng.choice(100, size=tiers, replace=False)
        self.order = [int(t) for t in ids]  # moves go to tiers earlier in this order
        counts = rng.integers(0, positions + 1, size=tiers)
        counts[rng.integers(tiers)] = max(1, int(counts.max()))
        self.cyclic = {t: not scored and bool(rng.integers(2)) for t in self.order}
        self.tier_of = np.repeat(np.arange(tiers), counts)  # index into order, per position
        total = int(counts.sum())
        # Ranks: per tier a random injection of its positions into 0..size-1.
        self.size: dict[int, int] = {}
        self.rank_of = np.empty(total, dtype=np.int64)
        self.position_at: dict[int, Ids] = {}
        first = 0
        for i, t in enumerate(self.order):
            count = int(counts[i])
            self.size[t] = count + int(rng.integers(0, unused + 1))
            self.rank_of[first : first + count] = rng.choice(self.size[t], count, replace=False)
            at = np.full(self.size[t], -1, dtype=np.int64)
            at[self.rank_of[first : first + count]] = np.arange(first, first + count)
            self.position_at[t] = at
            first += count
        # Child tiers: a random subset of the earlier tiers (some maybe never reached).
        self.children_of: dict[int, list[int]] = {
            t: [u for u in self.order[:i] if rng.integers(3) > 0] for i, t in enumerate(self.order)
        }
        self.primitive = np.full(total, UNDECIDED, dtype=VALUE_DTYPE)
        terminal = np.zeros(total, dtype=np.int64)
        src: list[int] = []
        dst: list[int] = []
        gain: list[int] = []
        for p in range(total):
            t = self.order[int(self.tier_of[p])]
            reach = [
                u for u in [t] * self.cyclic[t] + self.children_of[t] if counts[self._index(u)]
            ]
            if rng.random() < 0.15 or not reach:
                if rng.random() < 0.7:
                    self.primitive[p] = rng.choice([WIN, LOSE, TIE])
                terminal[p] = rng.integers(-5, 6)
                continue
            for _ in range(int(rng.integers(0, moves + 1))):
                u = reach[int(rng.integers(len(reach)))]
                choices = np.flatnonzero(self.tier_of == self._index(u))
                src.append(p)
                dst.append(int(rng.choice(choices)))
                gain.append(int(rng.integers(-5, 6)))
                if rng.random() < 0.2:  # a duplicate child
                    src.append(p)
                    dst.append(dst[-1])
                    gain.append(int(rng.integers(-5, 6)) if parallel else gain[-1])
            if src[-1:] != [p]:
                terminal[p] = rng.integers(-5, 6)  # no move drawn: over, a LOSE
        self.graph = GameGraph.from_edges(src, dst, total, gain=gain if scored else None)
        self.terminal_score = terminal if scored else None
        self.start = int(rng.integers(total))
        self._parents = self._parent_lists(rng)
        self.orbit = rng.integers(1, 9, size=total)  # symmetric images each position stands for
        self.info = GameInfo(
            "random-tiered",
            {"seed": seed, "tiers": tiers, "positions": positions, "unused": unused,
             "moves": moves, "scored": scored, "parallel": parallel},
            scored=scored,
            cyclic=any(self.cyclic.values()),
        )  # fmt: skip

    def _index(self, tier: int) -> int:
        return self.order.index(tier)

    def _parent_lists(self, rng: np.random.Generator) -> dict[int, list[list[int]]]:
        """Per tier and rank: the ranks of inner parents, each maybe twice, plus non-slots."""
        result = {t: [[] for _ in range(self.size[t])] for t in self.order}
        for p, c in zip(*self._edges(), strict=True):
            t = self.order[int(self.tier_of[p])]
            if self.tier_of[c] == self.tier_of[p]:
                repeats = 2 if rng.random() < 0.2 else 1
                result[t][int(self.rank_of[c])] += [int(self.rank_of[p])] * repeats
        for t in self.order:
            unused = np.flatnonzero(self.position_at[t] < 0)
            for parents in result[t]:
                if unused.size and rng.random() < 0.3:
                    parents.append(int(rng.choice(unused)))
                rng.shuffle(parents)
        return result

    def _edges(self) -> tuple[Ids, Ids]:
        src = np.repeat(np.arange(self.graph.n), np.diff(self.graph.indptr))
        return src, self.graph.indices.astype(np.int64)

    # ------------------------------------------------------------------ the reference
    def reference(self) -> Solution:
        """The random graph solved directly: ``solve_dag`` if scored, else ``solve_retrograde``."""
        if self.terminal_score is not None:
            return solve_dag(self.graph, self.primitive, terminal_score=self.terminal_score)
        return solve_retrograde(self.graph, self.primitive)

    def by_rank(self, tier: int, values: NDArray[np.generic], fill: int) -> NDArray[np.generic]:
        """Per-position `values` laid out by the ranks of `tier`, `fill` at unused ranks."""
        at = self.position_at[tier]
        out = np.full(at.shape[0], fill, dtype=values.dtype)
        out[at >= 0] = values[at[at >= 0]]
        return out

    # ------------------------------------------------------------------ the protocol
    def tiers(self) -> list[int]:
        return list(reversed(self.order))

    def child_tiers(self, tier: int) -> list[int]:
        return self.children_of[tier]

    def tier_size(self, tier: int) -> int:
        return self.size[tier]

    def inner_moves(self, tier: int) -> bool:
        return self.cyclic[tier]

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        return self.position_at[tier][start:stop] >= 0

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> Ids:
        return self.by_rank(tier, self.orbit, 1)[ranks]

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        positions = self.position_at[tier][ranks]
        if (positions < 0).any():
            raise AssertionError(f"children() of non-slot ranks of tier {tier}: {ranks}")
        lo, hi = self.graph.indptr[positions], self.graph.indptr[positions + 1]
        counts = (hi - lo).astype(np.int64)
        indptr = np.zeros(len(ranks) + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        edge = np.repeat(lo - indptr[:-1], counts) + np.arange(indptr[-1])
        child = self.graph.indices[edge].astype(np.int64)
        targets = [tier, *self.children_of[tier]]
        which = np.array([targets.index(self.order[i]) for i in self.tier_of[child]])
        score = None if self.terminal_score is None else self.terminal_score[positions]
        return TierMoves(
            primitive=self.primitive[positions],
            indptr=indptr,
            which=which.astype(np.int8).reshape(-1),
            rank=self.rank_of[child],
            gain=None if self.graph.gain is None else self.graph.gain[edge],
            score=score,
        )

    def parents(self, tier: int, ranks: NDArray[np.int64]) -> tuple[Ids, Ids]:
        lists = [self._parents[tier][int(r)] for r in ranks]
        indptr = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in lists], out=indptr[1:])
        flat = [r for x in lists for r in x]
        return indptr, np.array(flat, dtype=np.int64)

    def initial(self) -> tuple[int, int]:
        return self.locate(self.start)

    def position(self, tier: int, rank: int) -> int:
        return int(self.position_at[tier][rank])

    def locate(self, position: int) -> tuple[int, int]:
        return self.order[int(self.tier_of[position])], int(self.rank_of[position])

    def as_game(self) -> RandomGame:
        return RandomGame(self)


def random_tiered_games(
    scored: bool | None = None, most_tiers: int = 4
) -> st.SearchStrategy[RandomTieredGame]:
    """Hypothesis strategy of :class:`RandomTieredGame` (scored or not, or either if None), of
    1 to `most_tiers` tiers."""
    return st.builds(
        RandomTieredGame,
        seed=st.integers(0, 2**32 - 1),
        tiers=st.integers(1, most_tiers),
        positions=st.integers(1, 12),
        unused=st.integers(0, 4),
        moves=st.integers(0, 4),
        scored=st.booleans() if scored is None else st.just(scored),
        parallel=st.booleans(),
    )
