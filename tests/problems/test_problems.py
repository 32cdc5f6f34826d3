"""The problem registry: names, aliases, one module per problem with a summary and solve();
every reader refuses work too large for memory before building anything."""

from __future__ import annotations

import tracemalloc

import pytest

from perfectplay import _memory
from perfectplay.errors import InputFormatError, TooLargeError, UnknownNameError
from perfectplay.problems import get_problem, problem_names


@pytest.mark.parametrize("name", problem_names())
def test_every_problem_loads_with_a_summary(name: str) -> None:
    problem = get_problem(name)
    assert problem.name == name
    assert problem.summary and "\n" not in problem.summary
    assert callable(problem.solve)
    for alias in problem.aliases:
        assert get_problem(alias).name == name


def test_unknown_problem_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="unknown problem 'nope'; known problems: board-"):
        get_problem("nope")


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("Make-You-Happy", "make-you-happy"),
        ("make_you_happy", "make-you-happy"),
        (" GYM100548H ", "make-you-happy"),
        ("Board_Game", "board-game"),
        ("HamilG", "hamilg"),
    ],
)
def test_names_ignore_case_and_underscores_like_game_names(spelling: str, name: str) -> None:
    assert get_problem(spelling).name == name


@pytest.mark.parametrize(
    ("name", "data"),
    [  # inputs of the fuzz campaign the reader took on, until the machine ran out of memory
        ("knights", b"42964 2 1\n2 2\n"),
        ("knights", b"20000 1 0\n"),
        ("hamilg", b"1\n1000000000 6\n1 2\n1 3\n4 1\n4 2\n4 3\n2 3\n"),
        ("planinarenje", b"210000000 2\n1 1\n1 1\n"),
        ("make-you-happy", b"1\n1000000000 3\n1 2\n3 4\n4 5\n1 2\n"),
    ],
)
def test_lifted_limits_a_small_input_asking_for_too_much_is_refused_before_anything_is_built(
    name: str, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_memory, "available_bytes", lambda: 20 << 30)  # this machine
    problem = get_problem(name)
    with pytest.raises(TooLargeError):  # the modules it uses imported before tracing memory
        problem.solve(data, limits=False)
    tracemalloc.start()
    try:
        with pytest.raises(TooLargeError, match=r"needs about .* of memory but only 20\.0 GiB"):
            problem.solve(data, limits=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # bytes: read the numbers, estimated, refused


@pytest.mark.parametrize(
    ("name", "data"),
    [  # inputs of at most 20 bytes that would ask for minutes of work within memory
        ("board-game", b"64 64\n"),
        ("planinarenje", b"1000000 0\n"),
        ("jsoi-game", b"2000 2000\n"),
        ("knights", b"200 2 0\n"),
        ("make-you-happy", b"1\n2000 20000\n"),
        ("staircase", b"14 14\n"),
        ("hamilg", b"1\n2000000 0\n"),
    ],
)
def test_a_short_input_beyond_the_judge_limits_is_refused_at_once(name: str, data: bytes) -> None:
    assert len(data) <= 20
    tracemalloc.start()
    try:
        with pytest.raises(InputFormatError, match=r"^line \d+: .* is above the documented limit"):
            get_problem(name).solve(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # bytes: a few numbers read, nothing built
