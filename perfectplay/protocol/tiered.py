"""The tiered-game protocol: how a game too large for memory describes itself to the tier engine.

A *tiered game* splits its positions into **tiers** such that every move stays in its tier or
goes to a tier solved earlier (Connect Four: the number of stones, each move adds one; Quixo:
the numbers of X and O cubes, which never shrink; a loopy game with no such quantity: one
tier). Inside a tier, positions are numbered by a **ranking**: a bijection, or an injection
into a small superset, between the tier's positions and ``0..tier_size(tier)-1``. The engine
never builds a graph of the whole game or a table of all positions: it solves one tier at a
time, asking the game for the moves of whole arrays of ranks at once.

Required methods (the engine fails without them):

=======================  ==========================================================================
``tiers()``              every tier (integers), in any order
``child_tiers(t)``       the tiers other than ``t`` that moves from ``t`` reach (solved first)
``tier_size(t)``         the number of ranks of tier ``t`` (slots, used or not)
``children(t, ranks)``   the moves of an array of ranks at once: a :class:`TierMoves`
``initial()``            the start as ``(tier, rank)`` (canonical)
``position(t, r)``       the position of ``as_game()`` that rank ``r`` of tier ``t`` stands for
``locate(p)``            the inverse: ``(tier, rank)`` of ``p``'s canonical form
``as_game()``            the same game as an ordinary :class:`~perfectplay.protocol.game.Game`:
                         move labels, ``render``/``parse`` for people, the rules once more for
                         :func:`~perfectplay.tiers.check.check_tiered_game` to compare against
=======================  ==========================================================================

Required for tiers with moves inside them (``inner_moves(t)`` true):

=======================  ==========================================================================
``parents(t, ranks)``    the un-moves inside tier ``t``: for each rank, the canonical ranks of the
                         tier-``t`` positions with a move to it. Without them a loopy tier cannot
                         be solved (the engine stores no reverse graph).
=======================  ==========================================================================

Optional extras, each with what the engine does without it:

=======================  ==========================================================================
``inner_moves(t)``       whether moves from tier ``t`` may stay in ``t``. Without it: the
                         declared ``info.cyclic`` for every tier.
``slots(t, lo, hi)``     which ranks in ``lo..hi-1`` are positions to solve: reachable-looking
                         and canonical. Without it: every rank is solved. Ranks outside the
                         slots are stored as "no position" (0), which compresses to nothing.
``orbit_sizes(t, rs)``   how many positions each canonical rank stands for (symmetric images).
                         Without it: 1 (no symmetry). ``analyze`` counts positions with it.
``starts()``             every start of a game with more than one (Squadro: either player may
                         move first), as ``(tier, rank)``. Without it: ``initial()`` alone.
                         ``analyze`` counts the positions reachable from any start.
``tier_label(t)``        a short name of the tier for file names and tables. Without: ``str(t)``.
``tier_group(t)``        the name of the tiers reported together by ``analyze --by-tier`` (many
                         small tiers: Connect Four by column heights, per number of stones).
                         Without: each tier alone.
``tier_parts(t)``        the parts of a tier ``analyze --by-tier`` reports apart, as ``(label,
                         first rank)`` (Morris: the two subspaces of a moving tier). Without:
                         the tier as one.
``max_moves()``          an upper bound on the moves of one position; lets the engine keep
                         move counters in 16 bits. Without it: 32-bit counters.
``total_size()``         the ranks of every tier together, without listing the tiers; lets
                         ``solve`` choose its engine at once. Without it: ``tiers()`` is listed.
``largest_tiers(k)``     the ``k`` tiers with the most ranks, largest first, without listing the
                         tiers; lets the engine refuse a game too large before its plan (Connect
                         Four 7x6: 412,972 tiers). Without it: ``tiers()`` is listed.
=======================  ==========================================================================

The contract of :meth:`TieredGame.children` (checked on random positions by
:func:`~perfectplay.tiers.check.check_tiered_game`):

* ranks given are slots of tier ``t``; children are given as canonical ranks: a child of
  ``t`` is ``(which, rank)`` where ``which`` is 0 for tier ``t`` itself and ``j >= 1`` for
  ``child_tiers(t)[j - 1]``;
* positions the rules decide (game over) have a ``primitive`` value for the player to move
  (``WIN``, ``LOSE`` or ``TIE``) and no moves; every other position has ``UNDECIDED`` and its
  moves (none: the player to move has lost);
* scored games also give each move's ``gain`` (points the mover scores) and each position's
  ``score`` where it is over (points the player to move still gets there).

Examples
--------
Take-away with a heap of ``n`` tokens (take 1 or 2; whoever cannot move loses), one tier per
heap size. It is the smallest complete tiered game: copy it and change the rules.

>>> import numpy as np
>>> from perfectplay.protocol.game import Game, GameInfo
>>> from perfectplay.values import UNDECIDED
>>> class Heap(Game[int]):
...     info = GameInfo("heap")
...     def __init__(self, n: int) -> None:
...         self.n = n
...     def initial(self) -> int:
...         return self.n
...     def moves(self, h: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", h - k) for k in (1, 2) if k <= h]
...     def outcome(self, h: int) -> None:
...         return None
>>> class TieredHeap(TieredGame):
...     info = GameInfo("heap")
...     def __init__(self, n: int) -> None:
...         self.n = n
...     def tiers(self) -> list[int]:
...         return list(range(self.n + 1))  # tier h: the heap of h tokens, one rank
...     def child_tiers(self, tier: int) -> list[int]:
...         return [h for h in (tier - 1, tier - 2) if h >= 0]
...     def tier_size(self, tier: int) -> int:
...         return 1
...     def children(self, tier: int, ranks: np.ndarray) -> TierMoves:
...         k = len(self.child_tiers(tier))  # moves per position: to child tiers 1..k, rank 0
...         return TierMoves(
...             primitive=np.full(len(ranks), UNDECIDED, dtype=np.uint8),
...             indptr=np.arange(len(ranks) + 1, dtype=np.int64) * k,
...             which=np.tile(np.arange(1, k + 1, dtype=np.int8), len(ranks)),
...             rank=np.zeros(len(ranks) * k, dtype=np.int64),
...         )
...     def initial(self) -> tuple[int, int]:
...         return (self.n, 0)
...     def position(self, tier: int, rank: int) -> int:
...         return tier
...     def locate(self, position: int) -> tuple[int, int]:
...         return (position, 0)
...     def as_game(self) -> Heap:
...         return Heap(self.n)
>>> game = TieredHeap(7)
>>> moves = game.children(7, np.array([0]))
>>> [game.child_tiers(7)[w - 1] for w in moves.which.tolist()]
[6, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.protocol.game import Game, GameInfo

__all__ = ["TierMoves", "TieredGame"]


class TierMoves(NamedTuple):
    """The moves of an array of ranks of one tier, as :meth:`TieredGame.children` gives them.

    Moves of rank ``ranks[i]`` are entries ``indptr[i]:indptr[i + 1]`` of the move arrays.
    """

    primitive: NDArray[np.uint8]
    """Per rank: WIN, LOSE or TIE for the player to move where the rules end the game (such a
    position has no moves), UNDECIDED where play goes on."""
    indptr: NDArray[np.int64]
    """Per rank, where its moves start in `which`/`rank`; length ``len(ranks) + 1``."""
    which: NDArray[np.int8]
    """Per move: 0 if the child is in the same tier, ``j >= 1`` for ``child_tiers(t)[j - 1]``."""
    rank: NDArray[np.int64]
    """Per move: the child's canonical rank in its tier."""
    gain: NDArray[np.int64] | None = None
    """Scored games, per move: the points the mover scores by it; otherwise None."""
    score: NDArray[np.int64] | None = None
    """Scored games, per rank: the points the player to move still gets where the game is
    over (0 elsewhere); otherwise None."""


class TieredGame:
    """Base class of tiered games: subclass it and define the required methods.

    See the module documentation for the protocol, what each optional extra buys, and a
    worked example. ``info`` declares the game's name, parameters and properties
    (``scored``: moves carry gains; ``cyclic``: tiers have moves inside them by default).
    """

    info: GameInfo = GameInfo("tiered-game")
    """The game's declared properties (name and parameters identify a tier directory)."""

    # ------------------------------------------------------------------ required
    def tiers(self) -> Sequence[int]:
        """Every tier of the game, in any order."""
        raise GameDefinitionError(f"{type(self).__name__} must define tiers()")

    def child_tiers(self, tier: int) -> Sequence[int]:
        """The tiers other than `tier` that moves from `tier` reach."""
        raise GameDefinitionError(f"{type(self).__name__} must define child_tiers(tier)")

    def tier_size(self, tier: int) -> int:
        """The number of ranks of `tier`: its positions are ranks ``0..size-1`` (or a subset)."""
        raise GameDefinitionError(f"{type(self).__name__} must define tier_size(tier)")

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """The moves of every rank in `ranks` (slots of `tier`), canonical children."""
        raise GameDefinitionError(f"{type(self).__name__} must define children(tier, ranks)")

    def initial(self) -> tuple[int, int]:
        """The start of the game as ``(tier, canonical rank)``."""
        raise GameDefinitionError(f"{type(self).__name__} must define initial()")

    def position(self, tier: int, rank: int) -> Any:
        """The position of :meth:`as_game` that rank `rank` of `tier` stands for."""
        raise GameDefinitionError(f"{type(self).__name__} must define position(tier, rank)")

    def locate(self, position: Any) -> tuple[int, int]:
        """``(tier, rank)`` of the canonical form of `position` (a position of ``as_game()``).

        Raises a :class:`~perfectplay.errors.PerfectPlayError` naming the problem if
        `position` is not a position of this game.
        """
        raise GameDefinitionError(f"{type(self).__name__} must define locate(position)")

    def as_game(self) -> Game[Any]:
        """The same game as an ordinary Game (labels, rendering, parsing, the rules)."""
        raise GameDefinitionError(f"{type(self).__name__} must define as_game()")

    # ------------------------------------------------------------------ loopy tiers
    def inner_moves(self, tier: int) -> bool:
        """Whether moves from `tier` may stay inside it. Default: ``info.cyclic``."""
        return self.info.cyclic

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Un-moves inside `tier`: ``(indptr, parent_ranks)``, canonical parents per rank.

        Every slot ``q`` of `tier` with a move to (a symmetric image of) ``ranks[i]`` must be
        listed for ``i``, in any order and possibly more than once; non-slot ranks listed are
        ignored.
        """
        raise GameDefinitionError(
            f"{type(self).__name__} has moves inside tier {tier} but no parents(tier, ranks)"
        )

    # ------------------------------------------------------------------ optional extras
    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_] | None:
        """Which ranks ``start..stop-1`` of `tier` are positions to solve; None: all of them."""
        return None

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """How many positions each canonical rank stands for. Default: 1 each."""
        return np.ones(len(ranks), dtype=np.int64)

    def starts(self) -> Sequence[tuple[int, int]]:
        """Every start of the game as ``(tier, canonical rank)``, :meth:`initial` first.
        Default: ``initial()`` alone."""
        return [self.initial()]

    def players(self) -> tuple[str, str]:
        """The two players' names, the one to move at :meth:`initial` first, as :meth:`movers`
        numbers them. Default: ``("first", "second")``."""
        return ("first", "second")

    def movers(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64] | None:
        """The player to move at each of `ranks` of `tier` (0 or 1, as :meth:`players` orders
        them), so that ``analyze`` can count the positions won by each player; None (the
        default): not told, and positions are counted by value for the player to move only."""
        return None

    def tier_label(self, tier: int) -> str:
        """A short name of `tier` for file names and tables. Default: ``str(tier)``."""
        return str(tier)

    def tier_group(self, tier: int) -> str | None:
        """The name of the group `tier` is reported in (its counts added to the group's), or
        None to report it alone. Default: None."""
        return None

    def tier_parts(self, tier: int) -> Sequence[tuple[str, int]] | None:
        """The parts of `tier` counted apart by ``analyze --by-tier``: ``(label, first
        rank)`` in increasing rank order, the first at rank 0; None (the default): the tier
        as one part, labelled :meth:`tier_label`. A tier in a group (:meth:`tier_group`) is
        counted within its group, parts and all."""
        return None

    def max_moves(self) -> int | None:
        """An upper bound on the moves of one position, or None if unknown."""
        return None

    def total_size(self) -> int | None:
        """The sum of :meth:`tier_size` over every tier, computed without listing the tiers;
        None (the default): unknown, the tiers are listed to add their sizes."""
        return None

    def largest_tiers(self, count: int) -> Sequence[int] | None:
        """The `count` tiers with the most ranks (every tier if there are fewer), largest
        first, found without listing the tiers; None (the default): unknown, the tiers are
        listed to find them."""
        return None

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.info.params.items())
        return f"<{type(self).__name__} {self.info.name}{' ' if params else ''}{params}>"


GameLoader = Callable[[str, Mapping[str, Any]], TieredGame]
"""Rebuilds a tiered game from the name and parameters a tier directory records
(``loader(name, params)``); handed to the tier engine by the front ends, which resolve names."""
