"""problem NAME --help: the problem's formats and a sample that the problem itself answers."""

from __future__ import annotations

import re
import sys

import pytest
from cli_helpers import run_cli

from perfectplay.cli.problem import problem_help, sample
from perfectplay.problems import get_problem, problem_names


@pytest.mark.parametrize("name", problem_names())
def test_every_problem_help_has_a_sample_its_solver_answers(name: str) -> None:
    problem = get_problem(name)
    text = problem_help(name)
    assert text.startswith(f"{name} (aliases: ") and "Sample input:" in text
    doc = sys.modules[problem.solve.__module__].__doc__ or ""
    found = sample(doc)
    assert found is not None
    given, expected = found
    assert problem.solve(given.encode()) == expected


@pytest.mark.parametrize("name", problem_names())
def test_every_problem_help_is_plain_text(name: str) -> None:
    text = problem_help(name)
    assert "``" not in text and not re.search(r":\w+:`", text), text


def test_problem_name_help_prints_the_problem_not_the_usage() -> None:
    result = run_cli(["problem", "knights", "--help"])
    assert result.code == 0 and result.out.startswith("knights (aliases: none): One or two")
    assert "Sample output:\n8\n" in result.out
    usage = run_cli(["problem", "--help"])
    assert usage.code == 0 and usage.out.startswith("usage: perfectplay problem")


def test_help_of_an_unknown_problem_is_one_error_line() -> None:
    result = run_cli(["problem", "nosuch", "--help"])
    assert result.code == 2 and result.err.startswith("perfectplay: error: unknown problem")
