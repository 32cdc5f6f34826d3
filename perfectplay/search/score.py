"""The search engine's score: one integer per position that orders outcomes for the player to move.

Unscored games are searched on a single integer, the *score*, for the player to move:

==================  ======================  ===========================================
value, remoteness   score                   why
==================  ======================  ===========================================
WIN in r moves      ``BIG - r``             the sooner a win, the better
TIE                 ``0``                   (whatever its remoteness: see below)
LOSE in r moves     ``-(BIG - r)``          the later a loss, the less bad
==================  ======================  ===========================================

so a larger score is always better for the player to move, and the solvers' rules (WIN = 1 +
the smallest remoteness of a LOSE child, LOSE = 1 + the largest of the WIN children, see
:func:`perfectplay.solvers.dag.solve_dag`) become one negamax step: the parent's score is the
maximum over its children of ``-score(child)``, moved one step towards zero for the one move
more (:func:`parent_score`). ``BIG`` exceeds every remoteness the engine can reach, so no real
score is ever ``±1`` and the step is strictly increasing on real scores; this is what lets a
search window be translated exactly from a parent to its children (:func:`child_window`).

A TIE's remoteness cannot be carried by a zero-sum score: both players prefer the shortest
tie (the solvers define it as 1 + the smallest remoteness of a TIE child), so the engine
finds it in a second pass once the values are known (see :mod:`perfectplay.search.plain`).

Scored games (``GameInfo.scored``) are searched on their points instead: the best (own -
opponent) total the player to move can force, ``max(gain - score(child))``, exactly as
:func:`~perfectplay.solvers.dag.solve_dag` defines ``score``; their value and remoteness stay
the rules' ones and use the score above.

Examples
--------
>>> from perfectplay.values import Value
>>> s = from_value(Value.LOSE, 2)          # the child: lost in 2 for its player to move
>>> to_value(parent_score(s))              # so the parent wins in 3
(<Value.WIN: 3>, 3)
>>> from_value(Value.WIN, 1) > from_value(Value.WIN, 5) > 0 > from_value(Value.LOSE, 5)
True
"""

from __future__ import annotations

from collections.abc import Callable

from perfectplay.values import Value

__all__ = [
    "BIG",
    "INFINITY",
    "MAX_REMOTENESS",
    "child_window",
    "from_value",
    "narrow",
    "parent_score",
    "to_value",
]

BIG = 1 << 30
"""The score of a win in 0 moves (a position the rules give to the player to move)."""

MAX_REMOTENESS = BIG - 2
"""The largest remoteness the score can carry (a game over ``2**30`` plies is refused)."""

INFINITY = 1 << 40
"""Beyond every score of an unscored game: the bound of a full window."""


def from_value(value: Value | int, remoteness: int) -> int:
    """The score, for the player to move, of `value` reached in `remoteness` moves.

    Parameters
    ----------
    value : Value
        WIN, LOSE or TIE for the player to move (DRAW has no score: acyclic games only).
    remoteness : int
        Moves to the end under best play, ``0 <= remoteness <= MAX_REMOTENESS``; ignored for a
        TIE.

    Returns
    -------
    int
        ``BIG - r`` for a WIN, ``-(BIG - r)`` for a LOSE, 0 for a TIE.

    Raises
    ------
    ValueError
        For DRAW or UNDECIDED, or a remoteness out of range.

    Notes
    -----
    Cost: O(1).

    Examples
    --------
    >>> from_value(Value.WIN, 0) == BIG, from_value(Value.TIE, 7), from_value(Value.LOSE, 1)
    (True, 0, -1073741823)
    """
    if not 0 <= remoteness <= MAX_REMOTENESS:
        raise ValueError(f"remoteness {remoteness} out of range 0..{MAX_REMOTENESS}")
    if value == Value.WIN:
        return BIG - remoteness
    if value == Value.LOSE:
        return remoteness - BIG
    if value == Value.TIE:
        return 0
    raise ValueError(f"{Value(value).name} has no search score (acyclic games only)")


def to_value(score: int) -> tuple[Value, int | None]:
    """The value and remoteness, for the player to move, that `score` stands for.

    Parameters
    ----------
    score : int
        A score as :func:`from_value` makes it.

    Returns
    -------
    (Value, int or None)
        WIN or LOSE with its remoteness, or ``(TIE, None)``: a tie's remoteness is not in the
        score.

    Raises
    ------
    ValueError
        If `score` is not a score (``0 < |score| <= BIG - MAX_REMOTENESS - 1`` or beyond BIG).

    Notes
    -----
    Cost: O(1).

    Examples
    --------
    >>> to_value(BIG - 3), to_value(0), to_value(3 - BIG)
    ((<Value.WIN: 3>, 3), (<Value.TIE: 2>, None), (<Value.LOSE: 0>, 3))
    """
    if score == 0:
        return Value.TIE, None
    remoteness = BIG - abs(score)
    if not 0 <= remoteness <= MAX_REMOTENESS:
        raise ValueError(f"{score} is not a search score")
    return (Value.WIN if score > 0 else Value.LOSE), remoteness


def parent_score(child: int) -> int:
    """The score of a move into a position of score `child`, for the player making it.

    ``-child`` (the child's score is for the opponent), one move further from the end: a win
    or a loss one move later, a tie unchanged. The parent's score is the maximum of this over
    its moves.

    Notes
    -----
    Cost: O(1).

    Examples
    --------
    >>> to_value(parent_score(from_value(Value.WIN, 4)))
    (<Value.LOSE: 0>, 5)
    >>> parent_score(0)
    0
    """
    s = -child
    return s - 1 if s > 0 else s + 1 if s < 0 else 0


def child_window(alpha: int, beta: int) -> tuple[int, int]:
    """The window to search a child in, so that its result answers the parent's `alpha`, `beta`.

    For every real child score ``c`` (never ±1), ``parent_score(c) <= alpha`` exactly when
    ``c >= b`` and ``parent_score(c) >= beta`` exactly when ``c <= a``, where ``(a, b)`` is the
    returned window: each bound moves one step away from zero (the inverse of the parent's
    step), then both are negated and swapped.

    Notes
    -----
    Cost: O(1). A window around zero, ``(-1, 1)`` (the weak search), becomes ``(-2, 2)`` one
    ply down and ``(-d - 1, d + 1)`` d plies down: still only the sign is asked for.

    Examples
    --------
    >>> child_window(-1, 1)
    (-2, 2)
    >>> a, b = child_window(BIG - 10, BIG - 9)  # does the parent win within 9 moves?
    >>> to_value(a)                             # <=> is the child lost within 8 moves?
    (<Value.LOSE: 0>, 8)
    """
    return -_away(beta), -_away(alpha)


def _away(x: int) -> int:
    """`x` one step away from zero (0 stays): the inverse of the parent's step."""
    return x + 1 if x > 0 else x - 1 if x < 0 else 0


def narrow(
    probe: Callable[[int, int], int],
    lower: int = -INFINITY,
    upper: int = INFINITY,
    guess: int = 0,
) -> tuple[int, int]:
    """The exact score by null-window probes (MTD(f)), and the number of probes.

    Parameters
    ----------
    probe : callable ``(alpha, beta) -> int``
        An alpha-beta search of the position: a result ``v`` with ``alpha < v < beta`` is
        exact, ``v <= alpha`` bounds the score from above, ``v >= beta`` from below.
    lower, upper : int
        Known bounds on the score (default: none).
    guess : int
        Where to probe first (0: the value's sign is decided first).

    Returns
    -------
    (int, int)
        The score and the number of probes made.

    Notes
    -----
    Each probe asks ``score >= beta?`` with the window ``(beta - 1, beta)`` at the last
    result, which is a true bound, so the interval ``[lower, upper]`` shrinks at every probe
    to a score some position really has; a search with a table of bounds answers the later,
    nearby probes mostly from the table. Cost: a few probes, each one alpha-beta search.

    Examples
    --------
    >>> true = 37
    >>> def probe(alpha: int, beta: int) -> int:  # fail-hard, for the example
    ...     return min(max(true, alpha), beta)
    >>> narrow(probe)[0]
    37
    """
    g = min(max(guess, lower), upper)
    probes = 0
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = probe(beta - 1, beta)
        probes += 1
        if g < beta:
            upper = g
        else:
            lower = g
    return g, probes
