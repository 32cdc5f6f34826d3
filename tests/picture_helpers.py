"""Checks shared by the games' picture tests: a Drawing read back by an XML parser.

Every picture module's ``drawing(game, position, moves)`` must mark each move it is given
exactly once (``data-move``), with the move's value and colour, and keep its shapes inside
the box it declares. :func:`check_drawing` asserts that on a position; :func:`played`
reaches positions by random play from the start.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, group
from perfectplay.svg.palette import value_colour

_COORDINATES = {
    "rect": (("x", "width"), ("y", "height")),
    "circle": (("cx", "r"), ("cy", "r")),
    "line": (("x1", None), ("y1", None), ("x2", None), ("y2", None)),
}


def played(game: Game[Any], choices: list[int]) -> Any:
    """The position reached from the start by the moves `choices` pick (modulo the count)."""
    position = game.initial()
    for k in choices:
        moves = list(game.moves(position))
        if game.outcome(position) is not None or not moves:
            break
        position = moves[k % len(moves)][1]
    return position


def parsed(drawing: Drawing) -> ET.Element:
    """The drawing's parts under one ``<g>``, parsed."""
    return ET.fromstring(group(drawing.parts))


def marked(drawing: Drawing) -> dict[str, ET.Element]:
    """The groups carrying ``data-move``, by label; each label must occur once."""
    found: dict[str, ET.Element] = {}
    for element in parsed(drawing).iter():
        label = element.get("data-move")
        if label is not None:
            assert label not in found, f"move {label} marked twice"
            found[label] = element
    return found


def board_tags(drawing: Drawing) -> Counter[str]:
    """How many elements of each tag the drawing has outside its move marks (the board)."""
    return Counter(e.tag for e in parsed(drawing) if e.get("class") != "move")


def _inside(drawing: Drawing, slack: float) -> None:
    for element in parsed(drawing).iter():
        spec = _COORDINATES.get(element.tag)
        if spec is None:
            continue
        for at, extent in spec:
            if at not in element.attrib:
                continue
            low = float(element.attrib[at])
            size = float(element.attrib.get(extent, 0)) if extent else 0.0
            bound = drawing.width if at[-1] == "x" or at in ("x1", "x2") else drawing.height
            if element.tag == "circle":
                low, size = low - size, 2 * size
            assert -slack <= low and low + size <= bound + slack, (ET.tostring(element), bound)


def check_drawing(
    draw: Callable[[Game[Any], Any, dict[str, Any]], Drawing | None],
    game: Game[Any],
    solution: Any,
    position: Any,
    slack: float = 0.5,
) -> Drawing:
    """`draw` on `position` with every move valued: each marked once by value and colour,
    the shapes inside the drawing's box; without moves, nothing marked."""
    moves = {m.label: m for m in solution.move_values(position)}
    drawing = draw(game, position, moves)
    assert drawing is not None and drawing.width > 0 and drawing.height > 0
    found = marked(drawing)
    assert set(found) == set(moves)
    for label, element in found.items():
        assert element.get("data-value") == moves[label].value.name
        assert element.get("data-remoteness") == str(moves[label].remoteness)
        fills = {e.get("fill") for e in element.iter()} | {e.get("stroke") for e in element.iter()}
        assert value_colour(moves[label].value) in fills
    _inside(drawing, slack)
    bare = draw(game, position, {})
    assert bare is not None and marked(bare) == {} and bare.caption == drawing.caption
    return drawing
