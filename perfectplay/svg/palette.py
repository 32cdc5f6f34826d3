"""The colours of values, shared by every picture and by the web page.

Colours come from the Okabe–Ito palette, chosen to stay distinct for the common forms of
colour blindness: WIN and LOSE differ in lightness and hue (bluish green against vermillion),
never red against green alone. Pictures also write each value's initial (``W``, ``L``, ``T``,
``D``) next to its colour, so no reading depends on colour alone.

References
----------
M. Okabe, K. Ito, "Color Universal Design (CUD): how to make figures and presentations that
are friendly to colorblind people", 2008, https://jfly.uni-koeln.de/color/.

Examples
--------
>>> PALETTE["WIN"], PALETTE["LOSE"]
('#009E73', '#D55E00')
>>> value_colour(Value.TIE), ink_on(Value.TIE), ink_on(Value.WIN)
('#F0E442', '#000000', '#FFFFFF')
"""

from __future__ import annotations

from perfectplay.values import Value

__all__ = ["INK", "PALETTE", "STONE_DARK", "STONE_LIGHT", "ink_on", "value_colour"]

PALETTE: dict[str, str] = {
    "WIN": "#009E73",
    "LOSE": "#D55E00",
    "TIE": "#F0E442",
    "DRAW": "#0072B2",
    "UNDECIDED": "#999999",
}
"""Value name -> colour (Okabe–Ito): bluish green, vermillion, yellow, blue, grey."""

_INK: dict[str, str] = {"TIE": "#000000", "UNDECIDED": "#000000"}

INK = "#222222"
"""Colour of lines and text that carry no value."""
STONE_DARK = "#333333"
"""First player's pieces (X, Blue): kept out of the value colours."""
STONE_LIGHT = "#FFFFFF"
"""Second player's pieces (O, Red): white with a dark outline."""


def value_colour(value: Value) -> str:
    """The colour of `value` (a :class:`~perfectplay.values.Value`)."""
    return PALETTE[Value(value).name]


def ink_on(value: Value) -> str:
    """Black or white: the text colour that reads on :func:`value_colour` of `value`."""
    return _INK.get(Value(value).name, "#FFFFFF")
