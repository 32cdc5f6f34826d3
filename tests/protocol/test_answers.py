"""What a solved position answers (perfectplay.protocol.answers): moves valued for their maker."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import PositionNotFoundError
from perfectplay.moves import Move
from perfectplay.protocol.answers import Answers, PositionValue, valued_moves
from perfectplay.values import NO_REMOTENESS, UNKNOWN_REMOTENESS, Value

DECIDED = [Value.LOSE, Value.DRAW, Value.TIE, Value.WIN]


@st.composite
def entries(draw: st.DrawFn, scored: bool) -> PositionValue:
    value = draw(st.sampled_from(DECIDED))
    remoteness = NO_REMOTENESS if value == Value.DRAW else draw(st.integers(0, 50))
    return PositionValue(value, remoteness, draw(st.integers(-99, 99)) if scored else None)


@given(st.booleans(), st.data())
def test_each_move_takes_its_childs_answer_seen_from_the_mover(
    scored: bool, data: st.DataObject
) -> None:
    n = data.draw(st.integers(0, 6))
    answers = [data.draw(entries(scored)) for _ in range(n)]
    gains = [data.draw(st.integers(-9, 9)) for _ in range(n)]
    moves = [
        (f"m{i}", 100 + i, gains[i]) if i % 2 else (i, 100 + i)  # a gain, or none (then 0)
        for i in range(n)
    ]
    asked: list[int] = []

    def probe(child: int) -> PositionValue:
        asked.append(child)
        return answers[child - 100]

    result = valued_moves(moves, probe)
    assert asked == [100 + i for i in range(n)]  # one probe per move, in order
    assert [m.label for m in result] == [str(m[0]) for m in moves]
    assert [m.position for m in result] == asked
    for i, (move, entry) in enumerate(zip(result, answers, strict=True)):
        assert move.value == entry.value.flipped()
        assert (move.value == Value.WIN) == (entry.value == Value.LOSE)
        if entry.remoteness == NO_REMOTENESS:
            assert move.remoteness == NO_REMOTENESS
        else:
            assert move.remoteness == entry.remoteness + 1
        if entry.score is None:
            assert move.score is None
        else:
            assert move.score == (gains[i] if i % 2 else 0) - entry.score


def test_a_position_value_is_frozen_and_unscored_by_default() -> None:
    entry = PositionValue(Value.WIN, 3)
    assert entry.score is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.value = Value.LOSE  # type: ignore[misc]


def test_no_moves_ask_no_probe() -> None:
    def probe(child: object) -> PositionValue:
        raise AssertionError("probed")

    assert valued_moves([], probe) == []


# ---------------------------------------------------------------------- every source conforms
def _sources(tmp: Path) -> Iterator[tuple[str, Any]]:
    """Every source of answers, of Connect Four 3x4: in memory, a store file, a tier directory,
    a strong opening book (depth 3) and the game played by search."""
    from perfectplay.api import solve
    from perfectplay.games.connect_four.rules import ConnectFour
    from perfectplay.games.registry import load_tiered_game
    from perfectplay.search.book import OpeningBook, build_book
    from perfectplay.search.service import SearchedGame
    from perfectplay.solved import open_solved, open_tiers
    from perfectplay.store import save
    from perfectplay.tiers.engine import solve_tiers

    game = ConnectFour(rows=3, cols=4)
    solved = solve(game, progress=False)
    yield "memory", solved
    save(tmp / "c4.ppstore", solved)
    yield "store", open_solved(tmp / "c4.ppstore")
    solve_tiers(load_tiered_game("connect-four", rows=3, cols=4), tmp / "tiers", progress=False)
    yield "tiers", open_tiers(tmp / "tiers")
    build_book(game, 3, tmp / "c4.book", jobs=1, progress=False)
    yield "book", OpeningBook.open(tmp / "c4.book", game)
    with SearchedGame(game) as searched:
        yield "search", searched


def test_every_source_of_answers_satisfies_the_protocol_and_agrees(tmp_path: Path) -> None:
    """Each source is an Answers (runtime check), answers for Connect Four 3x4, and gives the
    in-memory solution's answers: probe and get alike, move values, best moves."""
    from perfectplay.search.book import OpeningBook

    reference = None
    kinds = []
    for kind, source in _sources(tmp_path):
        kinds.append(kind)
        assert isinstance(source, Answers), kind
        game = source.game
        assert (game.info.name, dict(game.info.params)) == ("connect-four", {"rows": 3, "cols": 4})
        if reference is None:
            reference = source
        depth = 2 if isinstance(source, OpeningBook) else 6  # the book's children: depth 3
        for moves in ("", "1", "12", "123", "2233", "112233")[: 4 if depth == 2 else 6]:
            position = game.parse(moves) if moves else game.initial()
            if len(moves) > depth:
                continue
            assert source.probe(position) == reference.probe(position), (kind, moves)
            assert source.get(position) == source.probe(position), (kind, moves)
            _check_records(game, position, source.move_values(position), (kind, moves))
            assert source.move_values(position) == reference.move_values(position), (kind, moves)
            assert source.best_moves(position) == reference.best_moves(position), (kind, moves)
    assert kinds == ["memory", "store", "tiers", "book", "search"]


def _check_records(game: Any, position: Any, moves: list[Any], where: object) -> None:
    """`moves` are the one record, one per legal move in the game's order: its label and the
    position it leads to as ``moves`` yields them, a value, a remoteness (at least 1, or a
    sentinel), no score (Connect Four is unscored)."""
    assert all(type(m) is Move for m in moves), where
    legal = [(str(m[0]), m[1]) for m in game.moves(position)]
    assert [(m.label, m.position) for m in moves] == legal, where
    for m in moves:
        assert isinstance(m.value, Value) and m.score is None, where
        assert m.remoteness >= 1 or m.remoteness in (NO_REMOTENESS, UNKNOWN_REMOTENESS), where


class _WeakSearch:
    """A search process answering by a weak search, in this process: a source that knows
    each value without its remoteness."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def search(self, position: Any, all_moves: bool) -> Any:
        from perfectplay.search.engine import search

        return search(self.game, position, weak=True, all_moves=all_moves)

    def close(self) -> None:
        pass


def test_sources_knowing_values_only_say_the_remoteness_is_unknown(tmp_path: Path) -> None:
    """A weak book and a game played by a weak search give each move (and the position) the
    unknown remoteness, never the draw's: Connect Four 3x4 has no draw."""
    from perfectplay.games.connect_four.rules import ConnectFour
    from perfectplay.search.book import OpeningBook, build_book
    from perfectplay.search.service import SearchedGame

    game = ConnectFour(rows=3, cols=4)
    build_book(game, 2, tmp_path / "weak.book", weak=True, jobs=1, progress=False)
    book = OpeningBook.open(tmp_path / "weak.book", game)
    with SearchedGame(game) as searched:
        searched._process = _WeakSearch(game)  # type: ignore[assignment]
        for kind, source in (("book", book), ("search", searched)):
            for moves in ("", "1"):
                position = game.parse(moves) if moves else game.initial()
                assert source.probe(position).remoteness == UNKNOWN_REMOTENESS, kind
                valued = source.move_values(position)
                _check_records(game, position, valued, (kind, moves))
                assert {m.remoteness for m in valued} == {UNKNOWN_REMOTENESS}, (kind, moves)
                for m in valued:  # the child's value, seen from the mover
                    assert m.value == book.probe(m.position).value.flipped(), (kind, moves)


def test_get_gives_the_default_where_probe_raises(tmp_path: Path) -> None:
    """A position a source does not hold: probe raises PositionNotFoundError, get the default."""
    for kind, source in _sources(tmp_path):
        if kind == "search":
            continue  # a search holds every position of the game
        game = source.game
        absent = game.parse("1234") if kind == "book" else ("XO",) * 4  # played on after a four
        with pytest.raises(PositionNotFoundError):
            source.probe(absent)
        marker = PositionValue(Value.TIE, 7)
        assert source.get(absent, marker) is marker, kind
        assert source.get(absent) is None, kind


def test_distinct_sentinels_for_a_draw_and_an_unknown_remoteness() -> None:
    assert UNKNOWN_REMOTENESS != NO_REMOTENESS
    assert all(r < 0 for r in (UNKNOWN_REMOTENESS, NO_REMOTENESS))
    moves = valued_moves([("a", 1)], lambda child: PositionValue(Value.LOSE, UNKNOWN_REMOTENESS))
    assert moves[0].remoteness == UNKNOWN_REMOTENESS  # a sentinel stays as it is
