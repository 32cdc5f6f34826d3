"""The enumerator: reachable positions, breadth-first numbering, both paths, limits, errors."""

from __future__ import annotations

import re
import time
from collections import deque
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.enumeration._kernels import (
    BAD_CODE,
    BAD_PARENT,
    DONE,
    LIMIT,
    OVER_MOVES,
    CodeTable,
    first_bad_outcome,
    group_moves,
)
from perfectplay.enumeration.check import check_game
from perfectplay.enumeration.enumerate import enumerate_game, has_vectorized_path
from perfectplay.errors import GameDefinitionError, PositionNotFoundError, TooLargeError
from perfectplay.games.connect_four.rules import ConnectFour
from perfectplay.games.nim.rules import Nim
from perfectplay.games.registry import game_names, load_game
from perfectplay.games.subtraction.rules import Subtraction
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import UNDECIDED, Value


class ExplicitGame(Game[int]):
    """A game given by an explicit move list per position (positions are ints)."""

    def __init__(self, children: list[list[int]], over: dict[int, Value]) -> None:
        self.children, self.over = children, over
        self.info = GameInfo("explicit", cyclic=True)

    def initial(self) -> int:
        return 0

    def moves(self, position: int) -> list[tuple[str, int]]:
        if position in self.over:
            return []
        return [(f"m{i}", c) for i, c in enumerate(self.children[position])]

    def outcome(self, position: int) -> Value | None:
        return self.over.get(position)


@st.composite
def explicit_games(draw: Any) -> ExplicitGame:
    n = draw(st.integers(1, 12))
    children = [draw(st.lists(st.integers(0, n - 1), max_size=4)) for _ in range(n)]
    over = draw(
        st.dictionaries(st.integers(0, n - 1), st.sampled_from(list(Value)[::3]), max_size=3)
    )
    return ExplicitGame(children, {p: v for p, v in over.items() if v != Value.UNDECIDED})


def bfs_layers(game: ExplicitGame) -> dict[int, int]:
    """Depth of every reachable position (independent BFS)."""
    depth = {0: 0}
    queue = deque([0])
    while queue:
        p = queue.popleft()
        for _, q in game.moves(p):
            if q not in depth:
                depth[q] = depth[p] + 1
                queue.append(q)
    return depth


@settings(max_examples=150)
@given(explicit_games())
def test_enumeration_is_the_reachable_graph_numbered_by_depth(game: ExplicitGame) -> None:
    e = enumerate_game(game)
    depth = bfs_layers(game)
    assert sorted(e.positions) == sorted(depth)
    assert e.positions[0] == 0
    layer_of = np.repeat(np.arange(e.layers.size - 1), np.diff(e.layers))
    assert [depth[p] for p in e.positions] == layer_of.tolist()
    for pid, p in enumerate(e.positions):
        assert e.id_of(p) == pid
        assert [e.positions[c] for c in e.graph.moves(pid)] == [q for _, q in game.moves(p)]
        assert e.primitive[pid] == game.over.get(p, UNDECIDED)
    assert e.topological == all(depth[q] > depth[p] for p in depth for _, q in game.moves(p))


def test_tic_tac_toe_counts_on_both_paths() -> None:
    game = TicTacToe()
    assert enumerate_game(game, canonical=False).n == 5478
    plain = enumerate_game(game, vectorized=False)
    fast = enumerate_game(game, vectorized=True)
    assert plain.n == fast.n == 765
    assert plain.path == "plain" and fast.path == "vectorized"
    assert plain.topological and fast.topological
    assert np.array_equal(plain.layers, fast.layers)
    assert sorted(plain.codes.tolist()) == sorted(fast.codes.tolist())
    assert plain.rate > 0 and fast.seconds > 0


@pytest.mark.parametrize("game", [Subtraction(30, (1, 3, 4)), ConnectFour(3, 4), TicTacToe()])
def test_vectorized_path_builds_the_plain_graph(game: Game[Any]) -> None:
    assert has_vectorized_path(game)
    plain = enumerate_game(game, vectorized=False)
    fast = enumerate_game(game, vectorized=True)
    ids = np.array([fast.id_of_code(int(c)) for c in plain.codes])
    assert np.array_equal(np.sort(ids), np.arange(fast.n))
    assert np.array_equal(fast.primitive[ids], plain.primitive)
    for pid in range(plain.n):
        assert ids[plain.graph.moves(pid)].tolist() == fast.graph.moves(int(ids[pid])).tolist()
        assert fast.position_of(int(ids[pid])) == plain.positions[pid]


def test_position_limit() -> None:
    with pytest.raises(TooLargeError, match="more than max_positions=100 reachable") as error:
        enumerate_game(TicTacToe(), max_positions=100, vectorized=False)
    assert error.value.limit == "max_positions"
    assert error.value.what == "tic-tac-toe has more than max_positions=100 reachable positions"
    with pytest.raises(TooLargeError, match="max_positions=100"):
        enumerate_game(TicTacToe(), max_positions=100, vectorized=True)
    assert enumerate_game(TicTacToe(), max_positions=765).n == 765


def test_unknown_positions_and_ids() -> None:
    for vectorized in (False, True):  # positions kept, or codes only
        typed = "X........"  # named as typed (its notation), not as its symmetry class
        with pytest.raises(PositionNotFoundError) as caught:
            enumerate_game(TicTacToe(), vectorized=vectorized).id_of(typed.replace(".", "X"))
        assert str(caught.value) == "'XXX/XXX/XXX' is not a position reachable in tic-tac-toe"
        with pytest.raises(PositionNotFoundError, match=re.escape("'O../.../...' is not a")):
            enumerate_game(TicTacToe(), vectorized=vectorized).id_of("O" + typed[1:])
    e = enumerate_game(TicTacToe())
    with pytest.raises(PositionNotFoundError, match="out of range"):
        e.position_of(765)
    with pytest.raises(PositionNotFoundError, match="code 1 "):
        e.id_of_code(1)


def test_progress_bar_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    enumerate_game(TicTacToe(), progress=True, vectorized=False)
    assert "enumerating tic-tac-toe" in capsys.readouterr().err
    enumerate_game(TicTacToe(), progress=False)
    assert capsys.readouterr().err == ""


class Faulty(Game[Any]):
    """A game whose moves from 1 are given by `bad` (to trigger each protocol error)."""

    def __init__(self, bad: Any, scored: bool = False, rule: Any = None) -> None:
        self.bad, self.rule = bad, rule
        self.info = GameInfo("faulty", scored=scored)

    def initial(self) -> Any:
        return 0

    def moves(self, position: Any) -> Any:
        return [("go", 1, 0) if self.info.scored else ("go", 1)] if position == 0 else self.bad

    def outcome(self, position: Any) -> Value | None:
        return self.rule if position == 1 else None


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (Faulty([("a", [1, 2])]), "move 'a' from 1 leads to an unhashable position \\(list\\)"),
        (Faulty([("a", 2, 5)]), "a 3-tuple needs GameInfo\\(scored=True\\)"),
        (Faulty([("a", 2)], scored=True), "a 2-tuple needs GameInfo\\(scored=False\\)"),
        (Faulty([3]), "yielded 3; expected a \\(label, position\\) tuple"),
        (Faulty([], rule="win"), "outcome\\(1\\) returned 'win'"),
        (Faulty([], rule=Value.DRAW), "expected None, Value.WIN, Value.LOSE or Value.TIE"),
    ],
)
def test_protocol_errors_are_one_clear_message(game: Faulty, message: str) -> None:
    with pytest.raises(GameDefinitionError, match=message):
        enumerate_game(game)


def test_unhashable_initial_position() -> None:
    class ListStart(Faulty):
        def initial(self) -> Any:
            return [0]

    with pytest.raises(GameDefinitionError, match="initial position \\[0\\] is unhashable"):
        enumerate_game(ListStart([]))


def test_vectorized_on_request_needs_the_batch_methods() -> None:
    with pytest.raises(GameDefinitionError, match="no vectorized path"):
        enumerate_game(Faulty([]), vectorized=True)


def test_scored_game_keeps_gains_and_terminal_scores() -> None:
    class Coins(Game[int]):
        """Take 1 or 2 coins, scoring them; the last coin left is worth -1 to the mover."""

        info = GameInfo("coins", scored=True)

        def initial(self) -> int:
            return 4

        def moves(self, n: int) -> list[tuple[str, int, int]]:
            return [(str(k), n - k, k) for k in (1, 2) if k <= n and n > 1]

        def outcome(self, n: int) -> Value | None:
            return Value.TIE if n <= 1 else None

        def terminal_score(self, n: int) -> int:
            return -n

    e = enumerate_game(Coins())
    assert e.graph.gain is not None and e.terminal_score is not None
    assert e.positions == [4, 3, 2, 1, 0]
    assert e.graph.gain.tolist() == [1, 2, 1, 2, 1, 2]
    assert e.terminal_score.tolist() == [0, 0, 0, -1, 0]


def test_bad_batch_arrays_are_reported() -> None:
    class BadBatch(Subtraction):
        def batch_moves(self, codes: Any) -> Any:
            return np.array([0, 0]), np.array([1])

    with pytest.raises(GameDefinitionError, match="2 parents but 1 children"):
        enumerate_game(BadBatch(3, (1,)), vectorized=True)


def test_vectorized_path_cannot_skip_the_symmetry_reduction() -> None:
    with pytest.raises(GameDefinitionError, match="always reduces by symmetry"):
        enumerate_game(TicTacToe(), vectorized=True, canonical=False)


def test_codes_outside_int64_are_a_clear_error() -> None:
    class HugeCodes(Subtraction):
        def encode(self, position: int) -> int:
            return position + 2**63

    with pytest.raises(GameDefinitionError, match="outside the int64 codes"):
        enumerate_game(HugeCodes(3, (1,)), vectorized=True)
    with pytest.raises(GameDefinitionError, match="outside the int64 codes"):
        _ = enumerate_game(HugeCodes(3, (1,)), vectorized=False).codes

    class WideBatch(Subtraction):
        def batch_moves(self, codes: Any) -> Any:
            return np.zeros(1, np.int64), np.array([2**63], dtype=np.uint64)

    with pytest.raises(GameDefinitionError, match="beyond the int64 codes"):
        enumerate_game(WideBatch(3, (1,)), vectorized=True)


def test_position_bound_refuses_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    class Bounded(Subtraction):
        def moves(self, position: int) -> list[tuple[str, int]]:
            raise AssertionError("enumeration started")

    game = Bounded(10**6, (1,))
    for vectorized in (False, True):
        with pytest.raises(TooLargeError, match="up to 1,000,001 reachable positions") as error:
            enumerate_game(game, vectorized=vectorized, max_positions=10**6)
        assert (error.value.limit, error.value.estimate) == ("max_positions", 10**6 + 1)
    monkeypatch.setattr("perfectplay._memory.available_bytes", lambda: 10**6)
    with pytest.raises(TooLargeError, match=r"enumerating subtraction \(up to 1,000,001") as error:
        enumerate_game(game, vectorized=False)
    assert error.value.limit == "memory" and error.value.estimate > 10**6


def test_plain_path_refuses_once_the_moves_exceed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # 64 KiB of memory: 2048 moves at 32 bytes. Nim (100,) has 5050 moves, 101 positions.
    monkeypatch.setattr("perfectplay.enumeration.enumerate.available_bytes", lambda: 2**16)
    with pytest.raises(TooLargeError, match="moves from its first"):
        enumerate_game(Nim((100,)), vectorized=False)
    assert enumerate_game(Nim((60,)), vectorized=False).graph.m == 60 * 61 // 2


def test_vectorized_path_reads_the_memory_rarely(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def counted() -> int:
        calls.append(1)
        return 2**40

    monkeypatch.setattr("perfectplay.enumeration.enumerate.available_bytes", counted)
    monkeypatch.setattr("perfectplay._memory.available_bytes", counted)
    e = enumerate_game(Subtraction(3000, (1,)), vectorized=True)
    assert e.layers.size == 3002  # one layer per heap size, each checked against the budget
    assert len(calls) <= 5


def test_move_bound_refuses_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # `perfectplay solve nim --param heaps=1000000`: 10^6 + 1 positions, ~5 * 10^11 moves
    began = time.process_time()
    with pytest.raises(TooLargeError, match=r"up to 1,000,001 positions and up to 500,000,500,000"):
        enumerate_game(Nim((10**6,)))
    assert time.process_time() - began < 1.0

    class Bounded(Subtraction):
        def moves(self, position: int) -> list[tuple[str, int]]:
            raise AssertionError("enumeration started")

        def position_bound(self) -> None:
            return None

    game = Bounded(1000, (1, 2))  # 1999 moves: about 64 KB on the plain path, 48 KB vectorized
    monkeypatch.setattr("perfectplay._memory.available_bytes", lambda: 40_000)
    for vectorized in (False, True):
        with pytest.raises(TooLargeError, match=r"subtraction \(up to 1,999 moves\)"):
            enumerate_game(game, vectorized=vectorized)


# ---------------------------------------------------------------- the vectorized path's kernels

codes_lists = st.lists(st.one_of(st.integers(0, 40), st.integers(0, 2**63 - 1)), max_size=1500).map(
    lambda codes: np.array(codes, dtype=np.int64)
)


@settings(max_examples=60)
@given(st.lists(codes_lists, min_size=1, max_size=4), st.sampled_from([np.int32, np.int64]))
def test_code_table_numbers_codes_in_first_seen_order(
    batches: list[Any], id_dtype: type[np.signedinteger[Any]]
) -> None:
    # Reference: a dict filled in order. Beyond 512 distinct codes the table (1024 slots at
    # first) grows in the middle of a pass and resumes where it stopped (also pinned below).
    table, reference = CodeTable(), {}
    for codes in batches:
        dst = np.empty(codes.size, dtype=id_dtype)
        status, stop, new = table.number(codes, 2**31, dst)
        expected_new = []
        for code in codes.tolist():
            if code not in reference:
                reference[code] = len(reference)
                expected_new.append(code)
        assert (status, stop) == (DONE, codes.size)
        assert new.tolist() == expected_new
        assert dst.tolist() == [reference[c] for c in codes.tolist()]
        assert table.n == len(reference)
        assert 2 * table.n <= table.table.size // 2  # load factor at most 1/2


def test_code_table_grows_in_the_middle_of_a_pass() -> None:
    codes = np.random.default_rng(5).integers(0, 3000, size=20_000)
    table = CodeTable()
    dst = np.empty(codes.size, dtype=np.int32)
    status, stop, new = table.number(codes, 2**31, dst)
    first = np.unique(codes, return_index=True)[1]
    assert (status, stop) == (DONE, codes.size)
    assert new.tolist() == codes[np.sort(first)].tolist()  # first-seen order
    assert np.array_equal(new[dst], codes)
    assert table.table.size // 2 == 16384  # 1024 slots at first, quadrupled twice in the pass
    assert table.codes[: table.n].tolist() == new.tolist()


def test_code_table_stops_at_the_limit_and_at_negative_codes() -> None:
    table = CodeTable()
    codes = np.array([7, 7, 8, 9, 8, 10], dtype=np.int64)
    status, stop, new = table.number(codes, 2, np.empty(6, dtype=np.int64))
    assert (status, stop, new.tolist(), table.n) == (LIMIT, 3, [7, 8], 2)
    status, stop, new = table.number(np.array([8, -5, 11]), 10, np.empty(3, dtype=np.int64))
    assert (status, stop, new.tolist()) == (BAD_CODE, 1, [])
    table.reserve(5000)
    assert table.table.size // 2 == 16384 and table.n == 2  # room for 5000 codes at half load
    status, stop, new = table.number(np.array([8, 7, 3]), 10, np.empty(3, dtype=np.int64))
    assert (status, new.tolist(), table.n) == (DONE, [3], 3)


@settings(max_examples=100)
@given(st.integers(1, 30), st.data())
def test_group_moves_is_a_stable_sort_by_parent(width: int, data: st.DataObject) -> None:
    m = data.draw(st.integers(0, 80))
    ordered = data.draw(st.booleans())
    drawn = data.draw(st.lists(st.integers(0, width - 1), min_size=m, max_size=m))
    parent = np.array(sorted(drawn) if ordered else drawn, dtype=np.int64)
    child = np.arange(100, 100 + m, dtype=np.int64)
    degree = np.zeros(width, dtype=np.int32)
    status, _, grouped = group_moves(parent, child, np.full(width, UNDECIDED, np.uint8), degree)
    assert status == DONE
    assert degree.tolist() == np.bincount(parent, minlength=width).tolist()
    assert grouped.tolist() == child[np.argsort(parent, kind="stable")].tolist()


def test_group_moves_names_a_parent_out_of_range() -> None:
    parent = np.array([0, 1, 3, 1, -1], dtype=np.int64)
    outcomes = np.array([Value.LOSE, UNDECIDED, UNDECIDED], dtype=np.uint8)  # 0 is over
    status, move, _ = group_moves(
        parent, np.zeros(5, dtype=np.int64), outcomes, np.zeros(3, dtype=np.int32)
    )
    assert (status, move) == (BAD_PARENT, 2)  # a bad parent is named before an over one


@settings(max_examples=100)
@given(st.integers(1, 12), st.data())
def test_group_moves_names_the_first_over_position_with_moves(
    width: int, data: st.DataObject
) -> None:
    parent = np.array(data.draw(st.lists(st.integers(0, width - 1), max_size=40)), np.int64)
    outcomes = np.array(
        data.draw(st.lists(st.sampled_from([0, 2, 3, 255]), min_size=width, max_size=width)),
        dtype=np.uint8,
    )
    degree = np.zeros(width, dtype=np.int32)
    status, index, _ = group_moves(parent, np.zeros(parent.size, np.int64), outcomes, degree)
    bad = [p for p in range(width) if outcomes[p] != UNDECIDED and p in parent.tolist()]
    assert degree.tolist() == np.bincount(parent, minlength=width).tolist()
    assert (status, index) == ((OVER_MOVES, min(bad)) if bad else (DONE, -1))


@settings(max_examples=100)
@given(st.lists(st.integers(0, 255), max_size=70))
def test_first_bad_outcome(values: list[int]) -> None:
    valid = {Value.LOSE, Value.TIE, Value.WIN, UNDECIDED}
    first = next((i for i, v in enumerate(values) if v not in valid), -1)
    assert first_bad_outcome(np.array(values, dtype=np.uint8)) == first
    assert first_bad_outcome(np.array(values, dtype=np.int64)) == first
    assert first_bad_outcome(np.array([3, 255, 1, 7], dtype=np.int64)) == 2


SMALL_PARAMS: dict[str, dict[str, Any]] = {"connect-four": {"rows": 3, "cols": 4}}


@pytest.mark.parametrize("name", game_names())
def test_vectorized_enumeration_is_the_plain_one_for_every_registered_game(name: str) -> None:
    # Both paths number positions breadth-first in first-seen order (parents by id, moves
    # in the game's order), so the two enumerations agree id for id.
    game = load_game(name, **SMALL_PARAMS.get(name, {}))
    if not has_vectorized_path(game):
        pytest.skip(f"{name} has no vectorized path")
    plain = enumerate_game(game, vectorized=False)
    fast = enumerate_game(game, vectorized=True)
    assert fast.path == "vectorized"
    assert np.array_equal(fast.codes, plain.codes)
    assert np.array_equal(fast.layers, plain.layers)
    assert np.array_equal(fast.primitive, plain.primitive)
    assert np.array_equal(fast.graph.indptr, plain.graph.indptr)
    assert np.array_equal(fast.graph.indices, plain.graph.indices)


def test_unordered_batch_moves_are_grouped_by_parent() -> None:
    class Reversed(Subtraction):
        """Subtraction with every layer's moves listed from the last parent to the first."""

        def batch_moves(self, codes: Any) -> Any:
            parent, child = super().batch_moves(codes)
            order = np.argsort(-parent, kind="stable")
            return parent[order], child[order]

    game = Reversed(40, (1, 2, 5))
    plain = enumerate_game(game, vectorized=False)
    fast = enumerate_game(game, vectorized=True)
    assert np.array_equal(fast.codes, plain.codes)
    assert np.array_equal(fast.graph.indices, plain.graph.indices)


@pytest.mark.parametrize(
    ("outcomes", "moves", "message"),
    [
        (lambda c: np.full(c.size, 9), None, "batch_outcome gave 9 for code"),
        (lambda c: np.zeros(c.size, float), None, "expected one integer value per code"),
        (lambda c: np.zeros(c.size, bool), None, "expected one integer value per code"),
        (
            None,
            lambda c: (np.zeros(1, np.int64), np.zeros(1, float)),
            "children must be a 1-D integer array, got float64",
        ),
        (
            None,
            lambda c: (np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64)),
            r"parents must be a 1-D integer array, got int64 \(1, 1\)",
        ),
        (
            None,
            lambda c: (np.zeros(1, np.int64), np.zeros(2, np.int64)),
            "returned 1 parents but 2 children",
        ),
        (None, lambda c: (np.array([1]), np.array([0])), "parents must index the codes given"),
        (None, lambda c: (np.array([0]), np.array([-4])), "a negative code -4"),
    ],
)
def test_bad_batch_results_are_named(outcomes: Any, moves: Any, message: str) -> None:
    class Bad(Subtraction):
        def batch_outcome(self, codes: Any) -> Any:
            return outcomes(codes) if outcomes else super().batch_outcome(codes)

        def batch_moves(self, codes: Any) -> Any:
            return moves(codes) if moves else super().batch_moves(codes)

    with pytest.raises(GameDefinitionError, match=message):
        enumerate_game(Bad(5, (1,)), vectorized=True)


def test_limits_beyond_int32_ids_give_the_same_enumeration() -> None:
    # max_positions above 2**31 numbers moves with int64 ids (int32 otherwise)
    small = enumerate_game(ConnectFour(3, 4), vectorized=True)
    large = enumerate_game(ConnectFour(3, 4), vectorized=True, max_positions=2**40)
    assert np.array_equal(small.codes, large.codes)
    assert np.array_equal(small.graph.indptr, large.graph.indptr)
    assert np.array_equal(small.graph.indices, large.graph.indices)


@pytest.mark.parametrize("game", [ConnectFour(4, 4), TicTacToe(), Subtraction(0, (1,))])
@pytest.mark.parametrize("vectorized", [False, True])
def test_max_positions_below_one_is_refused_on_both_paths(
    game: Game[Any], vectorized: bool
) -> None:
    # every game has its initial position, so fewer than one position is always too many
    # (Subtraction(0) has that one position only)
    for limit in (0, -3):
        with pytest.raises(TooLargeError, match=f"max_positions={limit}"):
            enumerate_game(game, vectorized=vectorized, max_positions=limit)
    if game.initial() == 0:
        assert enumerate_game(game, vectorized=vectorized, max_positions=1).n == 1
        lone = ExplicitGame([[]], {})  # one position and no position_bound: plain path
        with pytest.raises(TooLargeError, match="more than max_positions=0 reachable"):
            enumerate_game(lone, max_positions=0)
        assert enumerate_game(lone, max_positions=1).n == 1
    else:
        with pytest.raises(TooLargeError, match="more than max_positions=1 reachable"):
            enumerate_game(game, vectorized=vectorized, max_positions=1)


@pytest.mark.parametrize("limit", [2**63, 2**64, 10**30])
def test_max_positions_beyond_int64_works_on_both_paths(limit: int) -> None:
    fast = enumerate_game(ConnectFour(4, 4), vectorized=True)
    large = enumerate_game(ConnectFour(4, 4), vectorized=True, max_positions=limit)
    assert np.array_equal(fast.codes, large.codes)
    assert np.array_equal(fast.graph.indptr, large.graph.indptr)
    assert np.array_equal(fast.graph.indices, large.graph.indices)
    assert enumerate_game(TicTacToe(), vectorized=False, max_positions=limit).n == 765


class OverButMoving(Subtraction):
    """Subtraction where a heap of 2 is over (LOSE) by the rules, but batch_moves still
    lists its moves (plain ``moves`` too: the plain path never asks)."""

    def outcome(self, position: int) -> Value | None:
        return Value.LOSE if position == 2 else None

    def batch_outcome(self, codes: Any) -> Any:
        return np.where(codes == 2, np.uint8(Value.LOSE), np.uint8(UNDECIDED))


def test_batch_moves_from_an_over_position_are_a_clear_error() -> None:
    game = OverButMoving(6, (1, 2))
    plain = enumerate_game(game, vectorized=False)
    assert plain.graph.moves(plain.id_of(2)).size == 0  # the plain path never asks
    with pytest.raises(
        GameDefinitionError,
        match=r"code 2 is over \(outcome LOSE\) but batch_moves gives 2 moves; "
        "an over position must have no moves",
    ):
        enumerate_game(game, vectorized=True)
    violations = check_game(game)
    assert any("position 2 is over (outcome LOSE) but moves() yields 2" in v for v in violations)


def test_code_table_keeps_the_codes_in_id_order_in_a_buffer_sized_by_the_table() -> None:
    # the new codes are a view of the table's buffer (half as many codes as slots), not of a
    # buffer sized by the moves; a later growth copies them and leaves the view valid
    table = CodeTable()
    codes = np.array([5, 5, 5, 6, 5, 6, 5, 5], dtype=np.int64)
    _, _, new = table.number(codes, 10, np.empty(codes.size, dtype=np.int32))
    assert new.tolist() == [5, 6] and np.shares_memory(new, table.codes)
    assert table.codes.size == table.table.size // 4
    more = np.arange(10, 2000, dtype=np.int64)
    _, _, newer = table.number(more, 10_000, np.empty(more.size, dtype=np.int32))
    assert table.codes.size == table.table.size // 4 >= table.n == 2 + more.size
    assert new.tolist() == [5, 6] and newer.tolist() == more.tolist()
    assert table.codes[: table.n].tolist() == [5, 6, *more.tolist()]


def test_code_table_reserves_a_power_of_two_and_hedges_by_quadrupling_while_small() -> None:
    table = CodeTable()  # 1024 slots: room for 512 codes at half load
    assert table.grown_bytes(512) == 0 and table.grown_bytes(513) == 20 * 2048
    assert table.grown_bytes(513, hedge=True) == 20 * 4096  # at least four times the table
    assert table.grown_bytes(5000, hedge=True) == 20 * 16384  # already more than four times
    table.reserve(600, hedge=True)
    assert table.table.size // 2 == 4096 and table.codes.size == 2048
    table.reserve(600, hedge=True)  # room already: no growth
    assert table.table.size // 2 == 4096
    # from 2**21 slots, quadrupling would pass 2**22 slots (64 MiB): the table only doubles
    table.table = np.zeros(2 << 21, dtype=np.int64)  # untouched zeros: no memory used
    assert table.grown_bytes(2**20 + 1, hedge=True) == 20 * 2**22


def test_the_progress_bar_counts_whole_positions_and_scales_the_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from perfectplay.games.connect_four.rules import ConnectFour

    found = enumerate_game(ConnectFour(4, 4), vectorized=False, progress=True)  # seconds: drawn
    shown = capsys.readouterr().err
    counts = re.findall(r"enumerating connect-four: (\S+) positions \[", shown)
    assert counts[0] == "0" and len(counts) >= 2
    for count in counts:  # whole numbers with separators: 3 and 80,541, never 3.00 or 80.5k
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", count), count
        assert 0 <= int(count.replace(",", "")) <= found.n
    rates = re.findall(r", (\S+) positions/s\]", shown)
    assert rates and all(re.fullmatch(r"\?|\d+(\.\d+)?[kMG]?", rate) for rate in rates)
    assert not re.search(r"\d{4,}(\.\d+)? positions/s", shown)  # never 5812368.94 positions/s
