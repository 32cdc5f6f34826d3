"""How registered names are matched (perfectplay._names): case, blanks and _ vs - ignored."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from perfectplay._names import normalise_name
from perfectplay.games.registry import game_entry, game_names
from perfectplay.problems import get_problem, problem_names

words = st.text("abcXYZ-_ 09", max_size=20)


@given(words)
def test_normalising_is_idempotent_and_ignores_case_blanks_and_underscores(name: str) -> None:
    once = normalise_name(name)
    assert normalise_name(once) == once
    assert once == once.strip() and once == once.lower() and "_" not in once
    assert normalise_name(f"  {name.upper().replace('-', '_')}\t") == once


@given(st.data())
def test_every_registered_name_is_found_under_any_spelling(data: st.DataObject) -> None:
    for name in game_names():
        assert normalise_name(name) == name
        spelled = data.draw(st.sampled_from([name.upper(), f" {name} ", name.replace("-", "_")]))
        assert game_entry(spelled).name == name
    for name in problem_names():
        assert get_problem(name.upper().replace("-", "_")).name == name
