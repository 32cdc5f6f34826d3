"""The error hierarchy: one root, and every error also is the builtin it refines."""

from __future__ import annotations

import ast
import inspect
import pickle
from pathlib import Path

import pytest

from perfectplay import errors
from perfectplay.errors import (
    InputFormatError,
    PerfectPlayError,
    TooLargeError,
    UnknownNameError,
)

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


def test_every_exception_of_the_package_is_defined_in_errors() -> None:
    """One hierarchy in one module: no other module defines an exception class."""
    package = Path(errors.__file__).parent
    elsewhere = []
    for path in sorted(package.rglob("*.py")):
        if path == Path(errors.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b) for b in node.bases]
                if any(b.endswith(("Error", "Exception")) for b in bases):
                    elsewhere.append(f"{path.relative_to(package)}: {node.name}")
    assert elsewhere == []


def test_unknown_name_error_carries_its_fields_through_pickling() -> None:
    error = UnknownNameError("unknown game 'tt'", name="tt", suggestions=["ttt", "t"])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is UnknownNameError and str(again) == str(error)
    assert (again.name, again.suggestions) == ("tt", ("ttt", "t"))
    plain = UnknownNameError("unknown x")
    assert (str(plain), plain.name, plain.suggestions) == ("unknown x", None, ())


def test_too_large_error_carries_its_fields_through_pickling() -> None:
    error = TooLargeError("7 positions", limit="max_positions", estimate=7, advice="raise it")
    assert str(error) == "7 positions; raise it"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is TooLargeError and str(again) == str(error)
    assert (again.what, again.limit, again.estimate, again.advice) == (
        "7 positions", "max_positions", 7, "raise it"
    )  # fmt: skip
    plain = TooLargeError("too big")
    assert (str(plain), plain.what, plain.limit, plain.estimate) == (
        "too big",
        "too big",
        None,
        None,
    )
