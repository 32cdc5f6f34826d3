"""Fixtures shared by the Quixo tests."""

from __future__ import annotations

import pytest

from perfectplay.api import solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.games.quixo.rules import Quixo, QuixoPosition


@pytest.fixture(scope="session")
def solved3() -> GameSolution[QuixoPosition]:
    """The 3x3 game solved in memory (enumeration of the rules, retrograde analysis)."""
    return solve(Quixo(3))
