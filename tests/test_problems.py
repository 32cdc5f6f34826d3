"""The problem registry: names, aliases, one module per problem with a summary and solve()."""

from __future__ import annotations

import pytest

from perfectplay.errors import UnknownNameError
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
