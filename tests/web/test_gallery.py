"""The front page's cards (``/api/gallery``): every game pictured at its start, the values of
small games equal to the solver's, big games' size estimates and how to solve them, databases'
values, one solve at a time, nothing waited for."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from starlette.testclient import TestClient

import perfectplay
from perfectplay.games.registry import game_entry, game_names, load_game
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value
from perfectplay.web.app import create_app
from perfectplay.web.gallery import Gallery
from perfectplay.web.solutions import SolutionCache, game_page, open_database

BIG = ("quixo", "teeko", "squadro", "dobutsu", "gobblet-gobblers", "nine-mens-morris")
"""Registered games whose default instance is too large for the server to solve."""


class Held(Game[int]):
    """A countdown from 3 whose solve waits until `gate` opens (no size estimate)."""

    def __init__(self, name: str, gate: threading.Event) -> None:
        self.info = GameInfo(name)
        self.gate = gate

    def initial(self) -> int:
        return 3

    def moves(self, position: int) -> list[tuple[str, int]]:
        if not self.gate.wait(30):
            raise TimeoutError("the test never opened the gate")
        return [("down", position - 1)] if position else []

    def outcome(self, position: int) -> Value | None:
        return None


@pytest.fixture
def cache() -> Iterator[SolutionCache]:
    cache = SolutionCache(max_positions=200_000)
    yield cache
    cache.close()


def _settled(gallery: Gallery, game: Any, timeout: float = 120.0) -> dict[str, Any]:
    """`game`'s card once it no longer says solving or waiting."""
    deadline = time.monotonic() + timeout
    while (card := gallery.card(game, wait=1.0))["state"] in ("solving", "waiting"):
        assert time.monotonic() < deadline, f"{card['name']} was not solved in time"
    return card


def _reachable(game: Game[Any]) -> int:
    """Positions reachable from the start, symmetric ones apart: a breadth-first search over
    the rules (the twin of the solver's count)."""
    seen = {game.initial()}
    todo = deque(seen)
    while todo:
        for _, child in game.moves(todo.popleft()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return len(seen)


def _tier_ranks(name: str) -> int:
    """The ranks of a registered game's tier form at its defaults, tier by tier."""
    tiered = game_entry(name).build({}, tiered=True)
    return sum(tiered.tier_size(t) for t in tiered.tiers())


def test_one_card_per_registered_game_in_order_each_with_its_start_pictured(
    cache: SolutionCache,
) -> None:
    with TestClient(create_app(cache=cache)) as client:
        answer = client.get("/api/gallery")
    assert answer.status_code == 200
    cards = answer.json()["cards"]
    assert [card["name"] for card in cards] == game_names()
    for card in cards:
        game = load_game(card["name"])
        assert card["kind"] == "game"
        assert card["svg"].startswith("<svg") and "data-move" not in card["svg"]
        assert card["href"] == game_page(game)
        assert card["state"] in ("solving", "waiting", "solved", "not-solved")
    assert cache.pending() <= 1  # at most one solve started by viewing the page


@settings(max_examples=12, deadline=None)
@given(
    heaps=st.lists(st.integers(0, 4), min_size=1, max_size=3),
    heap=st.integers(0, 30),
    take=st.sets(st.integers(1, 5), min_size=1, max_size=3),
)
def test_a_small_games_value_and_size_are_the_solvers(
    heaps: list[int], heap: int, take: set[int]
) -> None:
    cache = SolutionCache()
    try:
        games = [
            load_game("nim", heaps=tuple(heaps)),
            load_game("subtraction", heap=heap, take=tuple(sorted(take))),
        ]
        gallery = Gallery(games, (), cache)
        for game in games:
            card = _settled(gallery, game)
            solved = perfectplay.solve(game, progress=False)
            found = solved.probe(game.initial())
            assert card["state"] == "solved" and card["source"] == "solved here"
            assert (card["value"], card["remoteness"]) == (found.value.name, found.remoteness)
            assert card["positions"] == len(solved)
            assert card["value_text"].startswith(f"{found.value.name} for ")
    finally:
        cache.close()


def test_tic_tac_toe_counts_its_positions_apart_and_its_symmetry_classes(
    cache: SolutionCache,
) -> None:
    game = load_game("tic-tac-toe")
    card = _settled(Gallery(["tic-tac-toe"], (), cache), "tic-tac-toe")
    solved = perfectplay.solve(game, progress=False)
    assert (card["value"], card["remoteness"]) == ("TIE", solved.remoteness(game.initial()))
    assert solved.value(game.initial()) == Value.TIE
    assert (card["positions"], card["reachable"]) == (len(solved), _reachable(game))
    assert card["size_text"] == f"{_reachable(game):,} positions ({len(solved):,} symmetry classes)"
    assert card["value_text"].startswith("TIE for X, the player to move")


@pytest.mark.parametrize("name", BIG)
def test_a_big_game_shows_its_estimate_and_how_to_solve_it_and_starts_nothing(
    cache: SolutionCache, name: str
) -> None:
    game = load_game(name)
    card = Gallery([name], (), cache).card(name)
    bound = game.position_bound()
    estimate = bound if bound is not None else _tier_ranks(name)
    assert card["state"] == "not-solved" and card["estimate"] == estimate
    assert card["size_text"] == f"up to {estimate:,} positions"
    assert "not solved here" in card["note"]
    assert f"`perfectplay solve {name} --tiers DIR`, then `perfectplay serve DIR`" in card["note"]
    assert "value" not in card
    assert cache.peek(game) is None and cache.pending() == 0


def test_connect_four_6x7_is_not_solved_here_and_its_page_plays_by_search(
    cache: SolutionCache,
) -> None:
    game = load_game("connect-four", rows=6, cols=7)
    card = Gallery([game], (), cache).card(game)
    assert card["state"] == "not-solved" and card["estimate"] > 4 * 10**12
    assert "its page plays it by search" in card["note"]
    assert (
        "perfectplay solve connect-four --param rows=6 --param cols=7 --tiers DIR" in card["note"]
    )
    assert cache.pending() == 0


def test_one_solve_at_a_time_the_others_wait_and_the_answer_never_waits() -> None:
    gate = threading.Event()
    first, second = Held("first", gate), Held("second", gate)
    cache = SolutionCache()
    try:
        with TestClient(create_app(cache=cache, games=[first, second])) as client:
            began = time.monotonic()
            cards = client.get("/api/gallery").json()["cards"]
            assert time.monotonic() - began < 5  # the held solve is not waited for
            assert [(c["name"], c["state"]) for c in cards[:2]] == [
                ("first", "solving"),
                ("second", "waiting"),
            ]
            assert cache.pending() == 1 and cache.peek(second) is None
            gate.set()
            deadline = time.monotonic() + 30
            while {c["state"] for c in client.get("/api/gallery").json()["cards"][:2]} != {
                "solved"
            }:
                assert time.monotonic() < deadline, "the held games were not solved in time"
                time.sleep(0.05)
            cards = client.get("/api/gallery").json()["cards"]
        assert [(c["value"], c["remoteness"]) for c in cards[:2]] == [("WIN", 3), ("WIN", 3)]
    finally:
        gate.set()
        cache.close()


def test_a_database_gives_its_value_to_its_games_card_without_solving(
    cache: SolutionCache, tmp_path: Path
) -> None:
    game = load_game("tic-tac-toe")
    solved = perfectplay.solve(game, progress=False)
    perfectplay.save(tmp_path / "ttt.ppstore", solved)
    db = open_database("ttt", str(tmp_path / "ttt.ppstore"))
    try:
        cards = Gallery(["tic-tac-toe"], [db], cache).cards()
    finally:
        db.source.close()
    game_card, db_card = cards
    for card in cards:
        assert (card["value"], card["remoteness"]) == ("TIE", solved.remoteness(game.initial()))
        assert card["href"] == "databases/ttt" and card["source"] == "database ttt"
        assert card["size_text"] == f"{db.positions:,} positions stored"
    assert (game_card["kind"], db_card["kind"], db_card["id"]) == ("game", "database", "ttt")
    assert cache.peek(game) is None  # read, not solved


def test_a_value_stays_known_when_the_cache_drops_its_solution() -> None:
    cache = SolutionCache(keep_positions=1)
    try:
        gallery = Gallery(["subtraction", "nim"], (), cache)
        first = _settled(gallery, "subtraction")
        _settled(gallery, "nim")  # solved last: the subtraction game is dropped
        assert cache.peek(load_game("subtraction")) is None
        assert gallery.card("subtraction") == first
        assert cache.pending() == 0  # not solved again
    finally:
        cache.close()


def test_a_game_that_cannot_be_built_gets_a_card_saying_why(cache: SolutionCache) -> None:
    (card,) = Gallery(["no-such-game"], (), cache).cards()
    assert card["state"] == "error" and card["svg"] is None
    assert card["note"].startswith("unknown game 'no-such-game'")
