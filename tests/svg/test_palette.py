"""The value colours (perfectplay.svg.palette): distinct, and their ink readable on them."""

from __future__ import annotations

import pytest

from perfectplay.svg.elements import legend
from perfectplay.svg.palette import INK, PALETTE, STONE_DARK, STONE_LIGHT, ink_on, value_colour
from perfectplay.values import Value


def _luminance(colour: str) -> float:
    """Relative luminance of ``#RRGGBB`` (WCAG 2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_value_has_its_own_colour() -> None:
    assert set(PALETTE) == {v.name for v in Value}
    assert len(set(PALETTE.values())) == len(PALETTE)
    assert all(value_colour(v) == PALETTE[v.name] for v in Value)
    assert value_colour(3) == PALETTE["WIN"]  # type: ignore[arg-type]  # a raw code is read too


@pytest.mark.parametrize("value", list(Value))
def test_the_ink_on_each_colour_reads_at_least_3_to_1(value: Value) -> None:
    assert _contrast(ink_on(value), value_colour(value)) >= 3.0


def test_win_and_lose_differ_in_lightness_not_only_in_hue() -> None:
    # Okabe-Ito's bluish green is lighter than its vermillion: told apart without hue.
    assert _luminance(PALETTE["WIN"]) - _luminance(PALETTE["LOSE"]) > 0.02


def test_the_stones_and_the_ink_are_no_value_colour() -> None:
    assert not {INK, STONE_DARK, STONE_LIGHT} & set(PALETTE.values())


def test_the_legend_writes_each_letter_in_the_ink_on_its_colour() -> None:
    entries = [(value_colour(v), v.name[0], v.name) for v in Value]
    _, _, parts = legend(entries, "note")
    letters = [p for p in parts if 'font-weight="bold"' in p]
    for v, text in zip(Value, letters, strict=True):
        assert f'fill="{ink_on(v)}"' in text and f">{v.name[0]}<" in text
