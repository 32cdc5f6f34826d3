"""SVG primitives (perfectplay.svg.elements), read back by an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.moves import Move
from perfectplay.svg.elements import (
    Drawing,
    arrow,
    el,
    group,
    legend,
    move_mark,
    page,
    tag,
    thumbnail,
    value_tag,
    xo_mark,
)
from perfectplay.svg.palette import PALETTE, ink_on
from perfectplay.values import NO_REMOTENESS, Value

SVG = "{http://www.w3.org/2000/svg}"
# XML 1.0 text: no control characters but tab, newline and carriage return, no surrogates.
xml_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"),
    max_size=30,
)


@given(xml_text, xml_text)
def test_an_element_reads_back_its_text_and_attributes(content: str, attribute: str) -> None:
    node = ET.fromstring(el("text", content, x=1, class_=attribute, data_move=attribute))
    assert node.tag == "text" and (node.text or "") == content
    assert node.attrib == {"x": "1", "class": attribute, "data-move": attribute}


@pytest.mark.parametrize(
    ("number", "text"), [(2.5, "2.5"), (3.0, "3"), (-0.001, "0"), (1 / 3, "0.33"), (7, "7")]
)
def test_numbers_are_written_without_trailing_zeros(number: float, text: str) -> None:
    assert ET.fromstring(el("rect", x=number)).attrib["x"] == text


def test_attributes_that_are_none_are_left_out_and_names_are_svg_names() -> None:
    node = ET.fromstring(el("text", "a", fill=None, stroke_width=2, xml_space="preserve"))
    assert node.attrib == {
        "stroke-width": "2",
        "{http://www.w3.org/XML/1998/namespace}space": "preserve",
    }


def test_a_group_holds_its_children_in_order() -> None:
    node = ET.fromstring(group([el("rect"), el("circle"), el("line")], class_="g"))
    assert [c.tag for c in node] == ["rect", "circle", "line"] and node.attrib == {"class": "g"}
    assert list(ET.fromstring(group([]))) == []


@pytest.mark.parametrize("value", [Value.WIN, Value.LOSE, Value.TIE])
@pytest.mark.parametrize("remoteness", [0, 1, 17])
def test_a_value_tag_is_the_initial_and_the_remoteness(value: Value, remoteness: int) -> None:
    assert value_tag(value, remoteness) == f"{value.name[0]}{remoteness}"
    assert value_tag(Value.DRAW, NO_REMOTENESS) == "D"


@pytest.mark.parametrize(
    ("move", "tip"),
    [
        (Move("a1", 0, Value.WIN, 3), "a1: WIN in 3"),
        (Move("b", 0, Value.DRAW, NO_REMOTENESS), "b: DRAW"),
        (Move("c<", 0, Value.LOSE, 2, score=-4), "c<: LOSE in 2, score -4"),
        (Move("d", 0, Value.TIE, 1, score=5), "d: TIE in 1, score +5"),
    ],
)
def test_a_move_mark_carries_the_move_its_value_and_a_tooltip(move: Move[int], tip: str) -> None:
    node = ET.fromstring(move_mark(move, [el("rect"), tag(move, 5, 5)]))
    assert node.attrib == {
        "class": "move",
        "data-move": move.label,
        "data-value": move.value.name,
        "data-remoteness": str(move.remoteness),
    }
    title, rect, text = list(node)
    assert (title.tag, title.text, rect.tag) == ("title", tip, "rect")
    assert text.text == value_tag(move.value, move.remoteness)
    assert text.attrib["fill"] == ink_on(move.value)


def test_an_x_is_two_strokes_an_o_a_ring_and_anything_else_nothing() -> None:
    x = [ET.fromstring(p) for p in xo_mark("X", 10, 20, 4, 5, 2)]
    assert [p.tag for p in x] == ["line", "line"]
    for line in x:  # each stroke passes through the centre, reaching 4 each way
        x1, y1, x2, y2 = (float(line.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
        assert ((x1 + x2) / 2, (y1 + y2) / 2) == (10, 20) and abs(x2 - x1) == 8
    (o,) = [ET.fromstring(p) for p in xo_mark("O", 10, 20, 4, 5, 2)]
    assert o.tag == "circle" and (o.attrib["cx"], o.attrib["r"]) == ("10", "5")
    assert xo_mark("-", 10, 20, 4, 5, 2) == []


@given(
    st.floats(-500, 500), st.floats(-500, 500), st.floats(-500, 500), st.floats(-500, 500),
    st.floats(1, 10),
)  # fmt: skip
def test_an_arrow_ends_at_its_target_with_its_head(
    x1: float, y1: float, x2: float, y2: float, width: float
) -> None:
    line, head = (ET.fromstring(p) for p in arrow(x1, y1, x2, y2, "#123456", width))
    tip, *base = [tuple(map(float, p.split(","))) for p in head.attrib["points"].split()]
    assert tip == pytest.approx((x2, y2), abs=0.006)
    # The line stops where the head starts: at the midpoint of the head's base.
    mid = ((base[0][0] + base[1][0]) / 2, (base[0][1] + base[1][1]) / 2)
    end = (float(line.attrib["x2"]), float(line.attrib["y2"]))
    assert end == pytest.approx(mid, abs=0.02)
    assert line.attrib["stroke"] == head.attrib["fill"] == "#123456"


def test_the_legend_is_as_wide_as_its_entries_or_its_note() -> None:
    width, height, parts = legend([("#000000", "W", "WIN")], "a long note " * 10)
    assert width == pytest.approx(6.4 * len("a long note " * 10)) and height > 0
    assert len(parts) == 4  # swatch, letter, words, note
    wide, _, _ = legend([("#000000", "W", "WIN" * 40)], "n")
    assert wide > 7.6 * 120


@given(st.floats(10, 900), st.floats(10, 900), st.none() | st.floats(50, 2000), st.booleans())
def test_a_page_is_one_svg_document_scaled_to_its_size(
    width: float, height: float, size: float | None, caption: bool
) -> None:
    drawing = Drawing(
        width, height, [el("rect", width=width, height=height)], "X to move" * caption
    )
    root = ET.fromstring(page(drawing, title="A <title>", note="colours", size=size))
    assert root.tag == f"{SVG}svg"
    _, _, box_width, box_height = (float(v) for v in root.attrib["viewBox"].split())
    assert box_width >= width and box_height >= height
    shown = float(root.attrib["width"])
    assert shown == pytest.approx(box_width if size is None else size, abs=0.006)
    assert float(root.attrib["height"]) == pytest.approx(
        box_height * shown / box_width, rel=1e-3, abs=0.01
    )
    assert root[0].tag == f"{SVG}title" and root[0].text == "A <title>"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert ("X to move" in texts) == caption and "colours" in texts
    letters = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("font-weight") == "bold"]
    assert letters[1:] == ["W", "L", "T", "D"]  # the title, then the default legend
    fills = {r.attrib.get("fill") for r in root.iter(f"{SVG}rect")}
    assert {PALETTE[v] for v in ("WIN", "LOSE", "TIE", "DRAW")} <= fills


@given(st.floats(10, 900), st.floats(10, 900), st.floats(20, 400))
def test_a_thumbnail_is_the_drawing_alone_scaled_to_its_size(
    width: float, height: float, size: float
) -> None:
    drawing = Drawing(width, height, [el("rect", width=width, height=height)], "X to move")
    root = ET.fromstring(thumbnail(drawing, title="A <title>", size=size))
    assert root.tag == f"{SVG}svg"
    _, _, box_width, box_height = (float(v) for v in root.attrib["viewBox"].split())
    assert box_width >= width and box_height >= height
    assert box_width == pytest.approx(width + 8, abs=0.006)  # a 4-pixel margin
    assert float(root.attrib["width"]) == pytest.approx(size, abs=0.006)
    assert float(root.attrib["height"]) == pytest.approx(
        box_height * size / box_width, rel=1e-3, abs=0.01
    )
    assert root[0].tag == f"{SVG}title" and root[0].text == "A <title>"
    assert list(root.iter(f"{SVG}text")) == []  # no caption, no legend
