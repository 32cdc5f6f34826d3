"""The Game protocol: GameInfo, defaults of the optional extras, `provides`."""

from __future__ import annotations

import dataclasses

import pytest

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import OPTIONAL_METHODS, Game, GameInfo, provides, replay
from perfectplay.values import Value


class Countdown(Game[int]):
    """Take 1 from a counter; the player who reaches 0 has made the last move."""

    info = GameInfo("countdown", {"start": 3})

    def initial(self) -> int:
        return 3

    def moves(self, position: int) -> list[tuple[str, int]]:
        return [("down", position - 1)] if position > 0 else []

    def outcome(self, position: int) -> Value | None:
        return None


def test_game_info_is_frozen_and_its_params_read_only() -> None:
    info = GameInfo("g", {"rows": 4})
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.name = "h"  # type: ignore[misc]
    with pytest.raises(TypeError):
        info.params["rows"] = 5  # type: ignore[index]


def test_game_info_equality_and_hash_follow_the_fields() -> None:
    a = GameInfo("g", {"rows": 4}, cyclic=True)
    assert a == GameInfo("g", {"rows": 4}, cyclic=True)
    assert hash(a) == hash(GameInfo("g", {"rows": 4}, cyclic=True))
    assert a != GameInfo("g", {"rows": 5}, cyclic=True)
    assert a != GameInfo("g", {"rows": 4})
    assert {a, GameInfo("g", {"rows": 4}, cyclic=True)} == {a}


def test_game_info_needs_a_name() -> None:
    with pytest.raises(GameDefinitionError, match="name"):
        GameInfo("")


def test_defaults_of_the_optional_extras() -> None:
    game = Countdown()
    assert game.canonical(2) == 2
    assert game.render(2) == "2"
    assert game.terminal_score(0) == 0
    assert game.position_bound() is None and game.move_bound() is None
    with pytest.raises(GameDefinitionError, match="countdown"):
        game.parse("2")
    assert (game.encode(2), game.decode(2)) == (2, 2)  # a non-negative int is its own code
    for position in (-1, True, "2"):
        with pytest.raises(GameDefinitionError, match="countdown has no integer codes"):
            game.encode(position)  # type: ignore[arg-type]


def test_a_game_with_its_own_encode_has_no_default_decode() -> None:
    class Shifted(Countdown):
        def encode(self, position: int) -> int:
            return position + 1

    with pytest.raises(GameDefinitionError, match="no decode method"):
        Shifted().decode(3)


def test_required_methods_must_be_defined() -> None:
    class Empty(Game[int]):
        pass

    for method, args in (("initial", ()), ("moves", (0,)), ("outcome", (0,))):
        with pytest.raises(GameDefinitionError, match=f"Empty must define {method}"):
            getattr(Empty(), method)(*args)


def test_provides_tells_overridden_extras() -> None:
    class Drawn(Countdown):
        def render(self, position: int) -> str:
            return "*" * position

    assert [name for name in OPTIONAL_METHODS if provides(Drawn(), name)] == ["render"]
    assert not any(provides(Countdown(), name) for name in OPTIONAL_METHODS)
    with pytest.raises(GameDefinitionError, match="not an optional"):
        provides(Countdown(), "moves")


def test_repr_names_the_game_and_its_params() -> None:
    assert repr(Countdown()) == "<Countdown countdown start=3>"


def test_game_info_pickles_for_worker_processes() -> None:
    import pickle

    info = GameInfo("connect-four", {"rows": 4, "cols": 5}, description="d")
    again = pickle.loads(pickle.dumps(info))
    assert again == info and hash(again) == hash(info)
    assert dict(again.params) == {"rows": 4, "cols": 5}


class Drawn2D(Countdown):
    def render(self, position: int) -> str:
        return f"{position} .\n. {position}"


def test_the_default_notation_joins_the_drawings_lines_with_slashes() -> None:
    assert Countdown().notation(3) == "3"
    assert Drawn2D().notation(2) == "2 ./. 2"
    assert "\n" not in Drawn2D().notation(2)


def test_replay_follows_legal_moves_and_names_the_first_illegal_one() -> None:
    assert replay(Countdown(), 3, ["down", "down"]) == [3, 2, 1]
    assert replay(Countdown(), 3, []) == [3]
    with pytest.raises(
        InputFormatError, match=r"move 2 of 3, 'up', is not legal; legal moves: down"
    ):
        replay(Countdown(), 3, ["down", "up", "down"])
    with pytest.raises(InputFormatError, match="legal moves: none, the game is over"):
        replay(Countdown(), 0, ["down"])
