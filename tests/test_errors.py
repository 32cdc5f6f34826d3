"""The error hierarchy: one root, and every error also is the builtin it refines."""

from __future__ import annotations

import inspect

import pytest

from perfectplay import errors
from perfectplay.errors import InputFormatError, PerfectPlayError, UnknownNameError

ALL_ERRORS = [
    obj
    for _, obj in inspect.getmembers(errors, inspect.isclass)
    if issubclass(obj, Exception) and obj.__module__ == errors.__name__
]


def test_all_errors_are_listed_in_dunder_all() -> None:
    assert sorted(e.__name__ for e in ALL_ERRORS) == sorted(errors.__all__)


@pytest.mark.parametrize("error", [e for e in ALL_ERRORS if e is not PerfectPlayError])
def test_every_error_has_the_root_and_a_builtin_base(error: type[Exception]) -> None:
    assert issubclass(error, PerfectPlayError)
    builtin_bases = [
        base
        for base in error.__mro__
        if base.__module__ == "builtins" and base not in (Exception, BaseException, object)
    ]
    assert builtin_bases, f"{error.__name__} refines no builtin exception"


def test_input_format_error_prefixes_the_line() -> None:
    error = InputFormatError("expected an integer", line=7)
    assert str(error) == "line 7: expected an integer"
    assert error.line == 7
    assert str(InputFormatError("empty input")) == "empty input"


def test_unknown_name_error_is_not_quoted_like_a_key_error() -> None:
    assert str(UnknownNameError("unknown game 'x'")) == "unknown game 'x'"
