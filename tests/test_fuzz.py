"""A quick slice of the fuzzing campaign (benchmarks/fuzz.py): every input surface, a few dozen
generated inputs each, in this process; no traceback and no broken invariant allowed."""

from __future__ import annotations

import sys
import tempfile
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import fuzz  # the campaign script lives in benchmarks/

CASES = 30


@pytest.mark.parametrize("surface", list(fuzz.surfaces()))
def test_surface_slice(surface: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Small numbers only: the campaign's huge sizes make legitimately long runs.
    monkeypatch.setattr(fuzz, "INTEGERS", st.integers(-3, 30))
    monkeypatch.setattr(fuzz, "TOKENS", [t for t in fuzz.TOKENS if not t.isdigit() or len(t) < 3])
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the surfaces' work directories
    counts = [0] * len(fuzz.COUNTERS)
    beat = [0.0, 0.0]
    current = (bytearray(fuzz.MAX_INPUT), SimpleNamespace(value=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fuzz.run_cases(surface, CASES, 0, counts, beat, current, str(tmp_path))
    figures = dict(zip(fuzz.COUNTERS, counts, strict=True))
    saved = "\n".join(p.read_text()[:2000] for p in tmp_path.glob("*.txt"))
    assert figures["tracebacks"] == 0 and figures["wrong"] == 0, saved
    assert 0 < figures["inputs"] <= CASES
    assert figures["inputs"] == sum(figures[k] for k in fuzz.COUNTERS[1:])


def test_number_replacement_keeps_the_rest() -> None:
    assert fuzz._replace_number(bytearray(b"3 4\n12 x"), 2, -7) == bytearray(b"3 4\n-7 x")
    assert fuzz._replace_number(bytearray(b"no digits"), 0, 5) == bytearray(b"no digits")
