"""check_game: each kind of protocol violation is found and explained in one sentence."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from perfectplay.enumeration.check import check_game
from perfectplay.errors import GameDefinitionError
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value


class Chain(Game[int]):
    """A heap of 6 tokens; take 1 or 2. Subclasses break one rule each."""

    info = GameInfo("chain")

    def initial(self) -> int:
        return 6

    def moves(self, n: int) -> Any:
        return [(f"take {k}", n - k) for k in (1, 2) if k <= n]

    def outcome(self, n: int) -> Value | None:
        return None


def only(violations: list[str], fragment: str) -> None:
    assert len(violations) == 1, violations
    assert fragment in violations[0], violations[0]
    assert violations[0].startswith("chain: ")


def test_a_correct_game_passes() -> None:
    assert check_game(Chain()) == []
    assert check_game(Chain(), strict=True) == []


def test_non_deterministic_moves() -> None:
    counter = itertools.count()

    class Flaky(Chain):
        def moves(self, n: int) -> Any:
            moves = super().moves(n)
            return moves[::-1] if next(counter) % 2 and n > 1 else moves

    only(check_game(Flaky()), "gives different moves on a second call")


def test_move_to_an_unhashable_position() -> None:
    class Listy(Chain):
        def moves(self, n: int) -> Any:
            return [("up", [n])] if n == 3 else super().moves(n)

    only(check_game(Listy()), "move 'up' from 3 leads to an unhashable list")


def test_over_position_with_moves() -> None:
    class Early(Chain):
        def outcome(self, n: int) -> Value | None:
            return Value.TIE if n == 2 else None

    only(check_game(Early()), "position 2 is over (outcome TIE) but moves() yields 2 moves")


def test_outcome_of_the_wrong_type() -> None:
    class Draws(Chain):
        def outcome(self, n: int) -> Any:
            return Value.DRAW if n == 0 else None

    only(check_game(Draws()), "outcome(0) returned <Value.DRAW: 1>")


def test_move_shapes_labels_and_gains() -> None:
    class Bare(Chain):
        def moves(self, n: int) -> Any:
            return [n - 1] if n else []

    class Twins(Chain):
        def moves(self, n: int) -> Any:
            return [("take", n - k) for k in (1, 2) if k <= n]

    class Scored(Chain):
        info = GameInfo("chain", scored=True)

        def moves(self, n: int) -> Any:
            return [(f"take {k}", n - k, "one") for k in (1, 2) if k <= n]

    only(check_game(Bare()), "yields 5; expected a (label, position) tuple")
    only(check_game(Twins()), "has repeated labels ['take', 'take']")
    only(check_game(Scored()), "has the gain 'one'; expected an int")


def test_encode_decode_must_round_trip() -> None:
    class Codes(Chain):
        def encode(self, n: int) -> int:
            return n

        def decode(self, code: int) -> int:
            return min(code, 4)

    only(check_game(Codes()), "decode(encode(6)) gives 4, not the position")


def test_codes_must_be_non_negative_ints() -> None:
    class Negative(Chain):
        def encode(self, n: int) -> int:
            return -n

        def decode(self, code: int) -> int:
            return -code

    only(check_game(Negative()), "expected a non-negative int")


def test_parse_render_must_round_trip() -> None:
    class Text(Chain):
        def render(self, n: int) -> str:
            return "*" * n

        def parse(self, text: str) -> int:
            return len(text.strip("*")) or len(text) - 1

    assert "parse(render(" in check_game(Text())[0]


def test_canonical_forms_must_keep_the_value() -> None:
    class Merged(Chain):  # 3 (a loss to move) and 4 (a win) declared equivalent
        def canonical(self, n: int) -> int:
            return 3 if n == 4 else n

    only(check_game(Merged()), "canonical forms must keep the value")


def test_canonical_must_keep_the_outcome_and_be_idempotent() -> None:
    class Shifty(Chain):
        def canonical(self, n: int) -> int:
            return max(n - 1, 0)

    violations = check_game(Shifty())
    assert any("canonical is not idempotent" in v for v in violations)


def test_declared_acyclic_game_with_a_cycle() -> None:
    class Loop(Chain):
        def moves(self, n: int) -> Any:
            return [("back", 6)] if n == 0 else super().moves(n)

    only(check_game(Loop()), "declares GameInfo(cyclic=False) but positions can repeat")


def test_batch_methods_must_agree_with_the_plain_ones() -> None:
    class OffByOne(Subtraction):
        info = GameInfo("chain")

        def batch_moves(self, codes: Any) -> Any:
            parent, child = super().batch_moves(codes)
            return parent, np.maximum(child - (child == 3), 0)

    violations = check_game(OffByOne(8, (1, 2)))
    assert any("batch_moves gives the codes" in v for v in violations), violations


def test_exceptions_in_the_game_are_reported() -> None:
    class Crash(Chain):
        def outcome(self, n: int) -> Value | None:
            if n == 1:
                raise ZeroDivisionError("boom")
            return None

    assert "outcome(1) raised ZeroDivisionError: boom" in check_game(Crash())[0]


def test_strict_mode_raises_with_every_violation() -> None:
    class Early(Chain):
        def outcome(self, n: int) -> Value | None:
            return Value.TIE if n == 2 else None

    with pytest.raises(GameDefinitionError, match="position 2 is over"):
        check_game(Early(), strict=True)


def test_same_seed_same_report() -> None:
    class Early(Chain):
        def outcome(self, n: int) -> Value | None:
            return Value.TIE if n in (2, 4) else None

    assert check_game(Early(), seed=3) == check_game(Early(), seed=3)
