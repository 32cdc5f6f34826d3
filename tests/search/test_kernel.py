"""The kernel hook: search() drives a game's SearchKernel (here a test double) when offered."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.typing import NDArray
from search_brute import brute
from search_games import DagGame, dag_games

from perfectplay.errors import GameDefinitionError, GameOverError, InputFormatError, TooLargeError
from perfectplay.protocol.game import over_value
from perfectplay.search import SearchKernel, search
from perfectplay.search._kernel_table import ENTRY_BYTES, MIN_LOG_SIZE
from perfectplay.values import Value

_SCALE = 100  # the double's own convention: WIN in r -> 100 - r, LOSE in r -> r - 100, TIE 0


class DoubleKernel:
    """A SearchKernel answering from the twin, fail-hard, recording every call."""

    def __init__(self, game: DagGame) -> None:
        self.game = game
        self.twin = brute(game)
        self.calls: list[tuple[Any, ...]] = []
        self.tables: list[tuple[int, ...]] = []

    def _score(self, p: int) -> int:
        t = self.twin(p)
        if t.value == Value.TIE:
            return 0
        return _SCALE - t.remoteness if t.value == Value.WIN else t.remoteness - _SCALE

    def _mover(self, child: int) -> int:
        s = -self._score(child)
        return s - 1 if s > 0 else s + 1 if s < 0 else 0

    def solve(self, position: Any, weak: bool, table: NDArray[np.uint64]) -> tuple[int, int]:
        self.calls.append(("solve", weak))
        self.tables.append(table.shape)
        s = self._score(position)
        return (int(np.sign(s)) if weak else s), 7

    def move_scores(
        self, position: Any, weak: bool, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        self.calls.append(("moves", weak))
        scores = tuple((m[0], self._mover(m[1])) for m in self.game.moves(position))
        return tuple((m, int(np.sign(s)) if weak else s) for m, s in scores), 3

    def move_bounds(
        self, position: Any, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        self.calls.append(("bounds", alpha, beta))
        scores = tuple(
            (m[0], min(max(self._mover(m[1]), alpha), beta)) for m in self.game.moves(position)
        )
        return scores, 2

    def score_to_value_remoteness(self, position: Any, score: int) -> tuple[Value, int]:
        if score == 0:  # the double knows its ties: the twin's remoteness
            return Value.TIE, self.twin(position).remoteness
        return (Value.WIN if score > 0 else Value.LOSE), _SCALE - abs(score)


class KernelGame(DagGame):
    """A DagGame offering the double as its compiled search."""

    kernel: DoubleKernel | None = None

    def search_kernel(self) -> DoubleKernel | None:
        return self.kernel


def _with_kernel(game: DagGame) -> KernelGame:
    g = KernelGame(game._moves, game._over, game._terminal, scored=False)
    g.kernel = DoubleKernel(g)
    return g


def test_double_is_a_search_kernel() -> None:
    assert isinstance(DoubleKernel(DagGame([[]], [None], [0], False)), SearchKernel)


@given(dag_games(scored=False), st.booleans(), st.booleans())
def test_search_uses_the_kernel_and_agrees_with_plain(
    base: DagGame, weak: bool, all_moves: bool
) -> None:
    # A kernel's score fixes a tie's remoteness from the position alone (as in Connect Four,
    # where every tie ends on the full board); random DAGs do not, so no ties here (ties:
    # test_kernel_ties below).
    assume(Value.TIE not in base._over)
    game = _with_kernel(base)
    assert game.kernel is not None
    for p in range(game.n):
        if game.outcome(p) is not None or not game.moves(p):
            continue
        game.kernel.calls.clear()
        fast = search(game, p, weak=weak, all_moves=all_moves, memory=3 * 2**20)
        plain = search(game, p, weak=weak, all_moves=all_moves, use_kernel=False)
        assert game.kernel.tables[-1] == (2**18,)  # the largest power of two in the budget
        assert game.kernel.calls[0] == ("solve", weak)
        if weak or all_moves:  # every move's value, its sign when weak
            assert game.kernel.calls[1:] == [("moves", weak)]
        else:  # which moves reach the score: a null window per move
            score = fast.remoteness and (_SCALE - fast.remoteness)
            assert [c[0] for c in game.kernel.calls[1:]] == ["bounds"]
            assert game.kernel.calls[1][2] - game.kernel.calls[1][1] == 1
            assert abs(game.kernel.calls[1][2]) == score
        assert (fast.value, fast.remoteness, fast.score) == (
            plain.value, plain.remoteness, plain.score
        )  # fmt: skip
        assert fast.moves == plain.moves
        assert fast.best_moves == plain.best_moves
        assert fast.nodes >= 7


def test_kernel_ties() -> None:
    # 0 -> 1 -> 3 and 0 -> 2 -> 3, where the rules end the game level: every tie line from a
    # position has one length, so the kernel's score 0 stands for one remoteness.
    game = _with_kernel(DagGame([[(1, 0), (2, 0)], [(3, 0)], [(3, 0)], []],
                                [None, None, None, Value.TIE], [0] * 4, scored=False))  # fmt: skip
    found = search(game, all_moves=True)
    assert (found.value, found.remoteness, found.best_moves) == (Value.TIE, 2, ("to1", "to2"))
    assert found.moves == search(game, all_moves=True, use_kernel=False).moves


def test_kernel_best_moves_at_the_exact_score() -> None:
    # 0 -> 1 (stuck: a win in 1), or 0 -> 2 -> 3 -> 4 (stuck: a win in 3)
    game = _with_kernel(DagGame([[(1, 0), (2, 0)], [], [(3, 0)], [(4, 0)], []],
                                [None] * 5, [0] * 5, scored=False))  # fmt: skip
    found = search(game, all_moves=True)
    assert (found.value, found.remoteness, found.best_moves) == (Value.WIN, 1, ("to1",))
    assert [(m.label, m.value, m.remoteness) for m in found.moves] == [
        ("to1", Value.WIN, 1), ("to2", Value.WIN, 3)
    ]  # fmt: skip


def test_kernel_none_means_plain_path() -> None:
    game = _with_kernel(DagGame([[(1, 0)], []], [None, None], [0, 0], scored=False))
    game.kernel = None
    assert search(game).value == Value.WIN


def test_kernel_refusals() -> None:
    game = _with_kernel(DagGame([[(1, 0)], []], [None, None], [0, 0], scored=False))
    least = ENTRY_BYTES << MIN_LOG_SIZE
    with pytest.raises(InputFormatError, match="below the smallest table"):
        search(game, memory=least - 1)
    assert search(game, memory=least).value == Value.WIN
    with pytest.raises(TooLargeError, match="the search table"):
        search(game, memory=2**40)

    scored = KernelGame([[(1, 2)], []], [None, None], [0, 0], scored=True)
    scored.kernel = DoubleKernel(scored)
    with pytest.raises(GameDefinitionError, match="scored"):
        search(scored)

    class NotAKernel:
        def solve(self) -> None: ...

    odd = KernelGame([[(1, 0)], []], [None, None], [0, 0], scored=False)
    odd.kernel = NotAKernel()  # type: ignore[assignment]
    with pytest.raises(GameDefinitionError, match="lacks the SearchKernel methods"):
        search(odd)


class OverKernel(DoubleKernel):
    """The double with the optional ``over``, answering from the rules and recording calls."""

    def over(self, position: Any) -> Value | None:
        self.calls.append(("over", position))
        return over_value(self.game, position)


@given(dag_games(scored=False))
def test_a_kernels_over_decides_where_the_search_refuses(base: DagGame) -> None:
    """The engine asks the kernel's ``over`` (one call per search, before the kernel searches)
    and refuses exactly where the rules end the game, with the value the kernel names."""
    assume(Value.TIE not in base._over)
    game = KernelGame(base._moves, base._over, base._terminal, scored=False)
    kernel = game.kernel = OverKernel(game)
    for p in range(game.n):
        kernel.calls.clear()
        over = over_value(game, p)
        if over is None:
            assert search(game, p, weak=True).value == search(game, p, use_kernel=False).value
            assert kernel.calls[0] == ("over", p) and kernel.calls[1][0] == "solve"
        else:
            with pytest.raises(GameOverError, match=f"{over.name} for the player to move"):
                search(game, p)
            assert kernel.calls == [("over", p)]
