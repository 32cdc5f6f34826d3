"""Problem pictures (perfectplay.draw.problems): each contest problem's first instance drawn."""

from __future__ import annotations

import numpy as np
import pytest
from draw_helpers import drawn, parsed

from perfectplay.draw.boards import board_svg
from perfectplay.draw.problems import problem_svg
from perfectplay.errors import InputFormatError


def test_board_only_picture_for_two_knights() -> None:
    from perfectplay.problems.knights import solve

    data = b"4 2 2\n1 1\n3 2\n"
    svg = problem_svg("knights", data)
    root = parsed(svg)
    assert not [e for e in root.iter() if e.get("class") == "vertex"]
    assert f"the mover wins from {int(solve(data))} of the 91 pairs" in svg  # C(14, 2) pairs
    assert board_svg(np.ones((2, 2), dtype=bool), title="b", caption="c").startswith("<svg")


SAMPLES = {
    "jsoi-game": b"3 3\n.##\n...\n#.#\n",
    "planinarenje": b"2 3\n1 2\n2 2\n2 1\n",
    "hamilg": b"2\n3 2\n1 2\n2 3\n2 1\n1 2\n",
    "knights": b"4 1 1\n1 1\n",
    "board-game": b"1 3\nP.P\n\n1 4\nP..P\n",
    "make-you-happy": b"1\n3 3\n1 2\n2 3\n3 1\n2 1\n",
    "staircase": b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_problem_draws_its_first_instance(name: str) -> None:
    root = parsed(problem_svg(name, SAMPLES[name]))
    assert root.find("{http://www.w3.org/2000/svg}title") is not None


def test_hamilg_draws_the_first_case_only() -> None:
    in_d, _, _ = drawn(problem_svg("hamilg", SAMPLES["hamilg"]))
    assert len(in_d) == 3  # case 1 has 3 vertices, case 2 has 2


def test_no_case_to_draw_is_an_input_error() -> None:
    with pytest.raises(InputFormatError, match="no case to draw"):
        problem_svg("hamilg", b"0\n")


def test_an_unknown_problem_is_named_and_size_sets_the_width() -> None:
    from perfectplay.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="no-such-problem"):
        problem_svg("no-such-problem", b"")
    root = parsed(problem_svg("staircase", SAMPLES["staircase"], size=250))
    assert float(root.get("width", "")) == 250


def test_bad_judge_input_is_an_input_error_naming_the_line() -> None:
    with pytest.raises(InputFormatError, match="line 1"):
        problem_svg("jsoi-game", b"3 x\n")
