"""Random small acyclic games for the search tests: a DAG on ids 0..n-1 as a Game.

Moves go from a lower id to a higher one (so play cannot cycle); some positions are over with
a value the rules fix (WIN, LOSE or TIE: they have no moves), some are stuck (no moves, a LOSE);
scored games carry a gain per move and a terminal score per position.
"""

from __future__ import annotations

from hypothesis import strategies as st

from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value


class DagGame(Game[int]):
    """A game on ids ``0..n-1``: `moves[u]` lists ``(child, gain)``; `over[u]` a Value or None."""

    def __init__(
        self,
        moves: list[list[tuple[int, int]]],
        over: list[Value | None],
        terminal: list[int],
        scored: bool,
        start: int = 0,
    ) -> None:
        self.info = GameInfo("random-dag", scored=scored)
        self._moves, self._over, self._terminal, self._start = moves, over, terminal, start
        self.stuck_scores = False
        """Whether positions without moves (and no outcome) have a terminal score too."""

    def initial(self) -> int:
        return self._start

    def moves(self, p: int) -> list[tuple[str, int] | tuple[str, int, int]]:
        if self._over[p] is not None:
            return []
        if self.info.scored:
            return [(f"to{c}", c, g) for c, g in self._moves[p]]
        return [(f"to{c}", c) for c, _ in self._moves[p]]

    def outcome(self, p: int) -> Value | None:
        return self._over[p]

    def terminal_score(self, p: int) -> int:
        # Only where the rules end the game: perfectplay's enumerator asks terminal_score
        # only there (a stuck position scores 0 in `solve`), while solve_dag and the search
        # engine also score positions without moves; test_search_engine checks that case
        # against the twin alone.
        if not self.info.scored or (self._over[p] is None and not self.stuck_scores):
            return 0
        return self._terminal[p]

    def at(self, start: int) -> DagGame:
        """The same game starting at `start` (for the strong solver's enumeration)."""
        return DagGame(self._moves, self._over, self._terminal, self.info.scored, start)

    @property
    def n(self) -> int:
        return len(self._over)


@st.composite
def dag_games(draw: st.DrawFn, max_n: int = 12, scored: bool | None = None) -> DagGame:
    """A random DagGame: n positions, each with a few moves to larger ids."""
    n = draw(st.integers(1, max_n))
    is_scored = draw(st.booleans()) if scored is None else scored
    moves = []
    for u in range(n):
        later = list(range(u + 1, n))
        kids = draw(st.lists(st.sampled_from(later), unique=True, max_size=4)) if later else []
        moves.append([(c, draw(st.integers(-3, 3))) for c in kids])
    over = [
        draw(st.sampled_from([None, None, None, Value.WIN, Value.LOSE, Value.TIE]))
        for _ in range(n)
    ]
    terminal = [draw(st.integers(-3, 3)) for _ in range(n)]
    return DagGame(moves, over, terminal, is_scored)
