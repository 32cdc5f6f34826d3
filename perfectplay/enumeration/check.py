"""``check_game``: a conformance test of a user's game against the Game protocol.

It plays random games from the initial position (a fixed seed makes runs repeatable) and
checks every position met; then, when the whole game is small, it enumerates and solves it to
check the properties only a solution shows. Each violation is one sentence naming the
position; the first position of each kind of violation is reported, with a count of others.

Checked on sampled positions
    ``initial`` and ``outcome`` are deterministic; ``outcome`` returns None, WIN, LOSE or
    TIE; ``moves`` is deterministic, yields ``(label, position)`` pairs (triples with an int
    gain for scored games) with distinct string labels and hashable positions; a position
    that is over has no moves; ``canonical`` is idempotent and keeps ``outcome``;
    ``decode(encode(p)) == p`` with a non-negative int code; ``parse(render(p)) == p``;
    ``batch_outcome`` and ``batch_moves`` agree with ``outcome`` and ``moves``.
Checked on the whole game (at most `max_positions` positions)
    every position gets the checks above; codes are distinct; a game declared acyclic has no
    repeating positions; canonical forms keep the value (the full game and the reduced game
    are both solved); the vectorized path builds the same graph as the plain path.

Examples
--------
>>> from perfectplay.protocol.game import Game, GameInfo
>>> from perfectplay.values import Value
>>> class Broken(Game[int]):
...     info = GameInfo("broken")
...     def initial(self) -> int:
...         return 3
...     def moves(self, n: int) -> list[tuple[str, int]]:
...         return [("down", n - 1)] if n > 0 else []
...     def outcome(self, n: int) -> Value | None:
...         return Value.WIN if n == 1 else None  # over, yet moves(1) yields a move
>>> for violation in check_game(Broken()):
...     print(violation)
broken: position 1 is over (outcome WIN) but moves() yields 1 move; an over position must
have no moves (1 position)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from perfectplay.enumeration.enumerate import Enumeration, enumerate_game, has_vectorized_path
from perfectplay.enumeration.solving import solve_enumeration
from perfectplay.errors import GameDefinitionError, PerfectPlayError, TooLargeError
from perfectplay.protocol.game import Game, provides
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN, Value

__all__ = ["check_game"]

_WALK_LENGTH = 500  # longest random game played (loopy games may never end)


class _Report:
    """Violations by kind: the first message of each kind and how many positions had it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.first: dict[str, str] = {}
        self.count: dict[str, int] = {}

    def add(self, kind: str, message: str) -> None:
        if kind not in self.first:
            self.first[kind] = f"{self.name}: {message}"
        self.count[kind] = self.count.get(kind, 0) + 1

    def lines(self) -> list[str]:
        return [
            f"{message} ({self.count[kind]} position{'s' if self.count[kind] > 1 else ''})"
            for kind, message in self.first.items()
        ]


def check_game(
    game: Game[Any],
    *,
    seed: int = 0,
    samples: int = 300,
    max_positions: int = 50_000,
    strict: bool = False,
) -> list[str]:
    """Check that `game` follows the Game protocol; return the violations found.

    Parameters
    ----------
    game : Game
        The game to check (:func:`perfectplay.check_game` also takes a tiered game).
    seed : int
        Seed of the random games played to sample positions.
    samples : int
        Number of distinct positions to sample.
    max_positions : int
        Enumerate and solve the whole game (for the whole-game checks) only if it has at
        most this many positions; larger games get the sampled checks only.
    strict : bool
        Raise instead of returning (for tests): :class:`GameDefinitionError` listing every
        violation.

    Returns
    -------
    list of str
        One sentence per kind of violation, naming the first position that shows it; empty
        when the game passes.

    Raises
    ------
    GameDefinitionError
        With ``strict=True``, if any violation was found.

    Notes
    -----
    Cost: O(samples * moves) calls to the game, plus, for small games, two or three
    enumerations and solutions (plain full game, plain reduced, vectorized).
    """
    report = _Report(game.info.name)
    positions = _sample(game, seed, samples, report)
    for p in positions:
        _check_position(game, p, report)
    if has_vectorized_path(game) and positions:
        _check_batch(game, positions, report)
    if not report.first:
        _check_whole(game, max_positions, positions, report)
    violations = report.lines()
    if strict and violations:
        raise GameDefinitionError("; ".join(violations))
    return violations


def _call(
    report: _Report, kind: str, what: str, fn: Callable[..., Any], *args: Any
) -> tuple[bool, Any]:
    """Run ``fn(*args)``; on an exception record that `what` failed and return (False, None)."""
    try:
        return True, fn(*args)
    except Exception as error:
        report.add(kind, f"{what} raised {type(error).__name__}: {error}")
        return False, None


def _list_moves(game: Game[Any], p: Any) -> list[Any]:
    return list(game.moves(p))


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _sample(game: Game[Any], seed: int, samples: int, report: _Report) -> list[Any]:
    """Distinct positions met in random games from the initial position."""
    ok, start = _call(report, "initial", "initial()", game.initial)
    if not ok:
        return []
    if not _hashable(start):
        report.add("initial", f"the initial position {start!r} is unhashable")
        return []
    ok, again = _call(report, "initial", "initial()", game.initial)
    if ok and again != start:
        report.add("initial", f"initial() is not deterministic: {start!r} then {again!r}")
    rng = random.Random(seed)
    found: dict[Any, None] = {}
    for _ in range(4 * samples):
        p = start
        for _ in range(_WALK_LENGTH):
            found[p] = None
            if len(found) >= samples:
                return list(found)
            ok, moves = _call(report, "moves", f"moves({p!r})", _list_moves, game, p)
            ok2, rule = _call(report, "outcome", f"outcome({p!r})", game.outcome, p)
            if not (ok and ok2) or rule is not None or not moves:
                break
            move = rng.choice(moves)
            if not isinstance(move, tuple) or len(move) < 2 or not _hashable(move[1]):
                break  # reported by _check_position
            p = move[1]
    return list(found)


def _check_position(game: Game[Any], p: Any, report: _Report) -> None:
    """The protocol checks that need only position `p`."""
    at = f"position {p!r}"
    ok, rule = _call(report, "outcome", f"outcome({p!r})", lambda: game.outcome(p))
    if not ok:
        return
    if rule is not None and rule not in (Value.WIN, Value.LOSE, Value.TIE):
        report.add(
            "outcome-type", f"outcome({p!r}) returned {rule!r}; expected None, WIN, LOSE or TIE"
        )
    if game.outcome(p) != rule:
        report.add("outcome-determinism", f"outcome({p!r}) is not deterministic")
    ok, moves = _call(report, "moves", f"moves({p!r})", lambda: list(game.moves(p)))
    if not ok:
        return
    if list(game.moves(p)) != moves:
        report.add("moves-determinism", f"moves({p!r}) gives different moves on a second call")
    if rule is not None and moves:
        report.add(
            "over-moves",
            f"{at} is over (outcome {Value(rule).name}) but moves() yields {len(moves)} "
            f"move{'s' if len(moves) > 1 else ''}; an over position must have no moves",
        )
    _check_moves(game, p, moves, report)
    if provides(game, "canonical"):
        _check_canonical(game, p, rule, report)
    if provides(game, "encode") or provides(game, "decode"):
        _check_codes(game, p, report)
    if provides(game, "parse"):
        ok, text = _call(report, "render", f"render({p!r})", lambda: game.render(p))
        if ok:
            ok, back = _call(report, "parse", f"parse(render({p!r}))", lambda: game.parse(text))
            if ok and back != p:
                report.add("parse", f"parse(render({p!r})) gives {back!r}, not the position")


def _check_moves(game: Game[Any], p: Any, moves: list[Any], report: _Report) -> None:
    arity = 3 if game.info.scored else 2
    shape = "(label, position, gain)" if game.info.scored else "(label, position)"
    labels = []
    for move in moves:
        if not isinstance(move, tuple) or len(move) != arity:
            report.add("move-shape", f"moves({p!r}) yields {move!r}; expected a {shape} tuple")
            return
        label, child = move[0], move[1]
        labels.append(label)
        if not isinstance(label, str) or not label:
            report.add("label", f"moves({p!r}) yields the label {label!r}; expected a string")
        if not _hashable(child):
            report.add(
                "unhashable",
                f"move {label!r} from {p!r} leads to an unhashable {type(child).__name__}; "
                "positions must be hashable (tuple, str, int, frozen dataclass)",
            )
        if arity == 3 and (isinstance(move[2], bool) or not isinstance(move[2], int | np.integer)):
            report.add(
                "gain", f"move {label!r} from {p!r} has the gain {move[2]!r}; expected an int"
            )
    if len(set(labels)) != len(labels):
        report.add("labels", f"moves({p!r}) has repeated labels {labels}; labels must be distinct")


def _check_canonical(game: Game[Any], p: Any, rule: Any, report: _Report) -> None:
    ok, c = _call(report, "canonical", f"canonical({p!r})", lambda: game.canonical(p))
    if not ok:
        return
    if not _hashable(c):
        report.add("canonical", f"canonical({p!r}) = {c!r} is unhashable")
        return
    if game.canonical(c) != c:
        report.add("canonical", f"canonical is not idempotent at {p!r}: {c!r} maps elsewhere")
    if game.outcome(c) != rule:
        report.add(
            "canonical-outcome", f"canonical({p!r}) = {c!r} has a different outcome than {p!r}"
        )


def _check_codes(game: Game[Any], p: Any, report: _Report) -> None:
    for q in {p, game.canonical(p)}:
        ok, code = _call(report, "encode", f"encode({q!r})", game.encode, q)
        if not ok:
            return
        if isinstance(code, bool) or not isinstance(code, int | np.integer) or code < 0:
            report.add("encode", f"encode({q!r}) = {code!r}; expected a non-negative int")
            return
        ok, back = _call(report, "decode", f"decode({code})", game.decode, int(code))
        if ok and back != q:
            report.add("codes", f"decode(encode({q!r})) gives {back!r}, not the position")


def _check_batch(game: Game[Any], positions: list[Any], report: _Report) -> None:
    """The vectorized calls agree with outcome() and moves() on the sampled positions."""
    canon = [game.canonical(p) for p in positions]
    codes = np.array([game.encode(p) for p in canon], dtype=np.int64)
    ok, outcomes = _call(report, "batch", "batch_outcome", lambda: game.batch_outcome(codes))
    if not ok:
        return
    ok, pair = _call(report, "batch", "batch_moves", lambda: game.batch_moves(codes))
    if not ok:
        return
    parent, child = (np.asarray(a) for a in pair)
    for i, p in enumerate(canon):
        rule = game.outcome(p)
        expected = UNDECIDED if rule is None else int(rule)
        if int(outcomes[i]) != expected:
            report.add(
                "batch-outcome",
                f"batch_outcome gives {int(outcomes[i])} at {p!r} but outcome() gives {rule!r}",
            )
        mine = child[parent == i].tolist()
        theirs = [game.encode(game.canonical(m[1])) for m in game.moves(p)]
        if mine != theirs:
            report.add(
                "batch-moves",
                f"batch_moves gives the codes {mine} from {p!r} but moves() leads to {theirs}",
            )


def _check_whole(game: Game[Any], max_positions: int, sampled: list[Any], report: _Report) -> None:
    """Checks on the whole (small) game: codes, cycles, canonical values, the two paths."""
    try:
        full = enumerate_game(
            game, max_positions=max_positions, canonical=False, vectorized=False, progress=False
        )
    except TooLargeError:
        return
    except PerfectPlayError as error:
        report.add("enumerate", f"enumerating the game failed: {error}")
        return
    checked = set(sampled)
    for p in full.positions:  # a small game: every position gets the sampled checks too
        if p not in checked:
            _check_position(game, p, report)
    if report.first:
        return
    if provides(game, "encode"):
        codes = full.codes
        if np.unique(codes).size != codes.size:
            report.add(
                "codes-distinct", "two positions have the same code (encode is not one-to-one)"
            )
    try:
        solved = solve_enumeration(full)
    except PerfectPlayError as error:
        report.add("solve", str(error))
        return
    if provides(game, "canonical"):
        reduced = enumerate_game(game, vectorized=False, progress=False)
        try:
            values = solve_enumeration(reduced).solution.value
        except PerfectPlayError as error:
            report.add("solve", f"with positions replaced by canonical forms: {error}")
            return
        for i, p in enumerate(full.positions):
            mine = int(solved.solution.value[i])
            theirs = int(values[reduced.id_of(p)])
            if mine != theirs:
                c = game.canonical(p)
                report.add(
                    "canonical-value",
                    f"position {p!r} is {Value(mine).name} but its canonical form {c!r} is "
                    f"{Value(theirs).name} once positions are replaced by canonical forms; "
                    "canonical forms must keep the value",
                )
        if has_vectorized_path(game):
            _compare_paths(game, reduced, report)
    elif has_vectorized_path(game):
        _compare_paths(game, full, report)


def _compare_paths(game: Game[Any], plain: Enumeration[Any], report: _Report) -> None:
    """The vectorized path reaches the same codes with the same moves as the plain path."""
    fast = enumerate_game(game, vectorized=True, progress=False)
    if fast.n != plain.n or not np.array_equal(np.sort(fast.codes), np.sort(plain.codes)):
        report.add(
            "paths",
            f"the vectorized path finds {fast.n} positions, the plain path {plain.n}",
        )
        return
    ids = np.array([fast.id_of_code(int(c)) for c in plain.codes], dtype=np.int64)
    plain_children = fast.codes[ids[plain.graph.indices]]  # plain moves, as codes
    fast_children = fast.codes[fast.graph.indices]
    for pid in range(plain.n):
        a = plain_children[plain.graph.indptr[pid] : plain.graph.indptr[pid + 1]]
        f = int(ids[pid])
        b = fast_children[fast.graph.indptr[f] : fast.graph.indptr[f + 1]]
        if not np.array_equal(a, b):
            report.add(
                "paths",
                f"position {plain.position_of(pid)!r} has moves to codes {b.tolist()} on the "
                f"vectorized path but {a.tolist()} on the plain path",
            )
    bad = np.flatnonzero(plain.primitive != fast.primitive[ids])
    if bad.size:
        pid = int(bad[0])
        report.add(
            "paths",
            f"position {plain.position_of(pid)!r} is over with value "
            f"{_name(int(fast.primitive[ids[pid]]))} on the vectorized path but "
            f"{_name(int(plain.primitive[pid]))} on the plain path",
        )


def _name(code: int) -> str:
    return Value(code).name if code in (LOSE, TIE, WIN, UNDECIDED) else str(code)
