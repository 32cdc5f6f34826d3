"""Depth-limited search over a game's rules: exact values wherever the next plies decide them.

:class:`DepthSearch` answers one question about a position of any game of the protocol (acyclic
or not): is its value, **for the player to move**, decided by the tree of the next `depth`
moves, and if so what are its value and remoteness? It calls nothing but the game's
``outcome`` and ``moves`` (and ``canonical`` if asked to), so it is independent of any
solver, tier kernel or database: the twin a solved database is probed against
(:mod:`perfectplay.verify.probe`).

The definition, by induction on the depth ``d`` (plies):

* a position where play is over (``outcome``, or no moves: stuck means lost) is decided with
  the rules' value and remoteness 0;
* at depth 0 a position where play goes on is undecided;
* otherwise, with every child searched to depth ``d - 1``: a child decided LOSE (for its
  player to move) makes the position a WIN in 1 + the smallest remoteness of such children;
  every child decided WIN makes it a LOSE in 1 + the largest of theirs; anything else leaves it
  undecided. A DRAW is never claimed, nor a TIE the rules do not fix at the position itself.

What it guarantees: a decided position has exactly its true value and remoteness (the search
never claims wrongly), and every WIN or LOSE whose remoteness is at most ``d`` is decided, as is
every position where play is over. A WIN or LOSE in ``r`` is decided at every depth from ``r``
on and at none below, so its remoteness is the smallest depth that decides it.

How it is computed (the same answers, far fewer positions visited than the definition's full
tree): two predicates, "a WIN in at most ``k``" and "a LOSE in at most ``k``", evaluated with
short cuts (a position wins as soon as one child loses; it loses only while every child wins,
so the first child that does not win ends the question), each remembered per position as the
depths where it is known true (from some depth up) and known false (up to some depth): both
only grow with the depth. :meth:`DepthSearch.decide` asks them at depths ``0, 1, ...`` and
stops at the first that holds, so a short win is found before deep trees are searched. The
table is keyed by the positions (or their canonical forms: ``canonical`` keeps the value).

Examples
--------
>>> from perfectplay.protocol.game import Game, GameInfo
>>> class TakeAway(Game[int]):  # take 1 or 2 tokens; whoever cannot move loses
...     info = GameInfo("take-away")
...     def initial(self) -> int:
...         return 7
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> None:
...         return None
>>> search = DepthSearch(TakeAway())
>>> search.decide(7, 5)  # WIN in 5: not decided within 4 plies
PositionValue(value=<Value.WIN: 3>, remoteness=5, score=None)
>>> search.decide(7, 4) is None, search.decide(6, 4)
(True, PositionValue(value=<Value.LOSE: 0>, remoteness=4, score=None))
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Generic

from perfectplay.errors import InputFormatError
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game, P, provides
from perfectplay.search.plain import deeper_recursion
from perfectplay.values import Value

__all__ = ["MOVES_KEPT", "TABLE_ENTRIES", "DepthSearch"]

TABLE_ENTRIES = 1 << 18
"""Positions whose bounds the table holds by default before it is emptied (a few hundred bytes
each in Nine Men's Morris, the position and four integers: under 100 MB)."""
MOVES_KEPT = 1 << 12
"""Positions whose moves are kept, the latest generated: the questions at increasing depths
ask for the same positions' moves again soon (a Morris position's moves weigh about 12 kB)."""

_NEVER = sys.maxsize
"""A predicate known false at every depth (a position where play is over)."""
_WIN_TRUE, _WIN_FALSE, _LOSE_TRUE, _LOSE_FALSE = range(4)
"""A position's bounds: the depth from which "WIN in at most k" is known true, the depth up to
which it is known false, and the same two for "LOSE in at most k"."""
_UNKNOWN = (_NEVER, -1, _NEVER, -1)


class DepthSearch(Generic[P]):
    """Values of positions of `game` decided by a search of limited depth over its rules.

    Parameters
    ----------
    game : Game
        Any game of the protocol; its positions are the table's keys. Gains of scored games
        are not used: value and remoteness are the rules' ones.
    table_entries : int
        Positions whose bounds the table holds; it is emptied when full (what it held was
        only a short cut: the answers stay the same).
    canonical : bool
        Key the table by the positions' canonical forms (where the game has ``canonical``):
        symmetric positions are searched once, for one ``canonical`` call per move generated.
        Default False, the positions themselves: in Nine Men's Morris a search of 3 plies from
        20 positions of the tier ``3_3_0_0`` met 35,676 positions so and 31,693 by canonical
        forms, whose 16 symmetries cost six times the moves (8.7 against 76 s of CPU).

    Notes
    -----
    Cost of ``decide(p, d)``: one ``outcome`` and one ``moves`` (and a ``canonical`` per
    child, if asked) for each distinct position within ``d`` plies of ``p``, again where its
    moves are no longer kept (:data:`MOVES_KEPT`) or its bounds were emptied: O(b^d) for ``b``
    moves a position in the worst case; the short cuts bring a position searched to a depth
    that does not decide it nearer O(b^(d/2)). Memory: the table, at most `table_entries`
    positions' bounds, and the moves of :data:`MOVES_KEPT` positions.
    """

    def __init__(
        self, game: Game[P], *, table_entries: int = TABLE_ENTRIES, canonical: bool = False
    ) -> None:
        self.game = game
        """The game searched."""
        self.table_entries = table_entries
        """Positions whose bounds the table holds before it is emptied."""
        self.nodes = 0
        """Positions whose moves were generated (the search's work), over every question."""
        self._canonical = canonical and provides(game, "canonical")
        self._bounds: dict[Hashable, list[int]] = {}
        self._moves: dict[Hashable, tuple[Value | None, list[tuple[P, Hashable]]]] = {}

    def decide(self, position: P, depth: int) -> PositionValue | None:
        """The value and remoteness of `position` for the player to move, if the tree of the
        next `depth` plies decides it; else None.

        Parameters
        ----------
        position : position of the game
            Where to search from.
        depth : int
            Plies searched, 0 or more (0: only a position where play is over is decided).

        Returns
        -------
        PositionValue or None
            WIN or LOSE with the remoteness (or TIE 0 where the rules end the game level);
            None where the search does not decide.

        Raises
        ------
        InputFormatError
            If `depth` is not a non-negative integer.

        Notes
        -----
        Cost: see the class; asking again, or at a smaller depth, is answered from the table
        (while it holds the position).
        """
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise InputFormatError(f"the search depth must be an integer 0 or more, got {depth!r}")
        key = self._key(position)
        with deeper_recursion(4 * depth + 64):
            ruled, _ = self._expand(key, position)
            if ruled is Value.TIE:
                return PositionValue(Value.TIE, 0)
            for k in range(depth + 1):
                if self._holds(key, position, k, _WIN_TRUE):
                    return PositionValue(Value.WIN, k)
                if self._holds(key, position, k, _LOSE_TRUE):
                    return PositionValue(Value.LOSE, k)
        return None

    def clear(self) -> None:
        """Forget every position remembered."""
        self._bounds.clear()
        self._moves.clear()

    def _key(self, position: P) -> Hashable:
        return self.game.canonical(position) if self._canonical else position

    def _expand(self, key: Hashable, position: P) -> tuple[Value | None, list[tuple[P, Hashable]]]:
        """The value where play is over at `position` (None where it goes on) and its
        children with their keys, remembered under `key`."""
        known = self._moves.get(key)
        if known is None:
            self.nodes += 1
            ruled = self.game.outcome(position)
            children = (
                []
                if ruled is not None
                else [(move[1], self._key(move[1])) for move in self.game.moves(position)]
            )
            over = Value(ruled) if ruled is not None else None if children else Value.LOSE
            if len(self._moves) >= MOVES_KEPT:
                del self._moves[next(iter(self._moves))]
            known = self._moves[key] = (over, children)
        return known

    def _holds(self, key: Hashable, position: P, k: int, which: int) -> bool:
        """Whether `position` is a WIN (`which` ``_WIN_TRUE``) or a LOSE (``_LOSE_TRUE``) in at
        most `k` moves, for the player to move, as far as the tree of `k` plies shows."""
        bounds = self._bounds.get(key)
        if bounds is None:
            if len(self._bounds) >= self.table_entries:
                self._bounds.clear()  # callers' bounds stay true for them, merely forgotten here
            bounds = self._bounds[key] = list(_UNKNOWN)
        if k >= bounds[which]:
            return True
        if k <= bounds[which + 1]:
            return False
        over, children = self._expand(key, position)
        if over is not None:
            bounds[:] = [
                0 if over is Value.WIN else _NEVER,
                -1 if over is Value.WIN else _NEVER,
                0 if over is Value.LOSE else _NEVER,
                -1 if over is Value.LOSE else _NEVER,
            ]
            return bounds[which] == 0
        # One child settles the question: for a WIN, a child that loses (its "LOSE" true);
        # for a LOSE, a child that does not win (its "WIN" false). Children whose answer the
        # table knows are looked at first, before any child is searched.
        settle = which == _WIN_TRUE
        ask = _LOSE_TRUE if settle else _WIN_TRUE
        if k == 0:
            holds = False
        elif any(self._settles(ck, k - 1, ask, settle) for _, ck in children):
            holds = settle
        else:
            found = any(self._holds(ck, c, k - 1, ask) == settle for c, ck in children)
            holds = settle if found else not settle
        return self._learn(bounds, which, k, holds)

    def _settles(self, key: Hashable, k: int, which: int, answer: bool) -> bool:
        """Whether the table already knows that the predicate `which` of `key` at depth `k`
        is `answer`."""
        bounds = self._bounds.get(key)
        if bounds is None:
            return False
        return k >= bounds[which] if answer else k <= bounds[which + 1]

    @staticmethod
    def _learn(bounds: list[int], which: int, k: int, holds: bool) -> bool:
        """Record in `bounds` that the predicate `which` at depth `k` is `holds`; return it."""
        if holds:  # the children's questions may have learnt more of this position meanwhile
            bounds[which] = min(bounds[which], k)
        else:
            bounds[which + 1] = max(bounds[which + 1], k)
        return holds
