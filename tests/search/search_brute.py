"""Independent twin of the search engine: memoised minimax over a Game, straight from the rules.

No pruning, no table of bounds, no score encoding: each position's value, remoteness and
(scored games) points are computed from its children's by the definitions the solvers use
(perfectplay.solvers.dag): where the game is over, the rules' value (a position without moves
is a LOSE), remoteness 0, its terminal score; else WIN = 1 + the smallest remoteness of a LOSE
child, LOSE (every child a WIN) = 1 + the largest, TIE = 1 + the smallest remoteness of a TIE
child; points = max(gain - points(child)).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from perfectplay.values import Value


class Twin(NamedTuple):
    """One position's value, remoteness and points (0 if unscored), for the player to move."""

    value: Value
    remoteness: int
    points: int


class TwinMove(NamedTuple):
    """One move valued for the player making it."""

    label: str
    value: Value
    remoteness: int
    points: int


def brute(game: Any) -> Any:
    """A memoised function ``position -> Twin`` for `game` (recursion on the positions)."""
    memo: dict[Any, Twin] = {}

    def solve(p: Any) -> Twin:
        if p in memo:
            return memo[p]
        over = game.outcome(p)
        moves = [] if over is not None else list(game.moves(p))
        if over is not None or not moves:
            result = Twin(Value.LOSE if over is None else Value(over), 0, game.terminal_score(p))
        else:
            kids = [(solve(m[1]), m[2] if len(m) == 3 else 0) for m in moves]
            points = max(g - t.points for t, g in kids)
            lose = [t.remoteness for t, _ in kids if t.value == Value.LOSE]
            tie = [t.remoteness for t, _ in kids if t.value == Value.TIE]
            if lose:
                result = Twin(Value.WIN, 1 + min(lose), points)
            elif tie:
                result = Twin(Value.TIE, 1 + min(tie), points)
            else:
                result = Twin(Value.LOSE, 1 + max(t.remoteness for t, _ in kids), points)
        memo[p] = result
        return result

    return solve


def brute_moves(game: Any, solve: Any, p: Any) -> list[TwinMove]:
    """Every move of `p` valued for the mover by the twin `solve`."""
    out = []
    for m in game.moves(p):
        t = solve(m[1])
        gain = m[2] if len(m) == 3 else 0
        out.append(TwinMove(m[0], t.value.flipped(), t.remoteness + 1, gain - t.points))
    return out


def brute_best(moves: list[TwinMove], value: Value, points: int | None) -> list[str]:
    """The solvers' best-move rule, written again: score first (scored), value, remoteness."""
    if points is not None:
        moves = [m for m in moves if m.points == points]
        value = max(m.value for m in moves)
    options = [m for m in moves if m.value == value]
    if not options:
        return []
    pick = max if value == Value.LOSE else min
    r = pick(m.remoteness for m in options)
    return [m.label for m in options if m.remoteness == r]
