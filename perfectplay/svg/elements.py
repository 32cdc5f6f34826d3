"""SVG text, element by element: the few shapes every picture uses, and the page around them.

Pictures are built as lists of element strings (no DOM library): :func:`el` writes one
element with escaped attributes, :func:`move_mark` wraps a legal move's shapes in a group
carrying ``data-move``, ``data-value`` and ``data-remoteness`` (so a page can make it
clickable), and :func:`page` puts a title, the picture and a legend into one standalone
``<svg>`` document.

Examples
--------
>>> el("rect", x=1, y=2.5, width=3, height=4, fill="#fff", stroke_width=1)
'<rect x="1" y="2.5" width="3" height="4" fill="#fff" stroke-width="1"/>'
>>> el("text", "a < b", x=0, y=0, class_="label")
'<text x="0" y="0" class="label">a &lt; b</text>'
>>> value_tag(Value.WIN, 3), value_tag(Value.DRAW, -1)
('W3', 'D')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from perfectplay.moves import Move
from perfectplay.svg.palette import INK, PALETTE, ink_on
from perfectplay.values import Value

__all__ = [
    "FONT",
    "Drawing",
    "arrow",
    "el",
    "group",
    "legend",
    "move_mark",
    "page",
    "tag",
    "thumbnail",
    "value_tag",
    "xo_mark",
]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
"""Font family of every picture (DejaVu Sans is what cairosvg finds on Debian)."""

_LEGEND_HEIGHT = 46.0
_TITLE_HEIGHT = 30.0
_MARGIN = 12.0
_LIGHT = (PALETTE["TIE"], PALETTE["UNDECIDED"], "#FFFFFF", "#DDDDDD")


def _number(value: float) -> str:
    """A coordinate without trailing zeros (``2.5``, ``3``)."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def el(tag: str, content: str | None = None, /, **attrs: Any) -> str:
    """One SVG element; ``stroke_width=`` becomes ``stroke-width``, ``class_`` ``class``.

    `content` is escaped text; use :func:`group` for child elements. Attributes that are
    None are left out.
    """
    words = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = "xml:space" if key == "xml_space" else key.rstrip("_").replace("_", "-")
        text = _number(value) if isinstance(value, float | int) else str(value)
        words.append(f'{name}="{escape(text, quote=True)}"')
    head = " ".join(words)
    return f"<{head}/>" if content is None else f"<{head}>{escape(content)}</{tag}>"


def group(children: Iterable[str], **attrs: Any) -> str:
    """A ``<g>`` element around already written `children`."""
    head = el("g", **attrs)[:-2]
    return f"{head}>{''.join(children)}</g>"


def value_tag(value: Value, remoteness: int) -> str:
    """A value's initial and its remoteness, as written on a move: ``W3``, ``L0``, ``D`` (the
    initial alone where the remoteness is a sentinel: a draw, or not known)."""
    initial = Value(value).name[0]
    return initial if remoteness < 0 else f"{initial}{remoteness}"


def move_mark(move: Move[Any], shapes: Sequence[str]) -> str:
    """A legal move's shapes in one group carrying its label, value and remoteness.

    `move`'s ``value`` is already the value for the player *making* the move. The group's
    ``<title>`` is a tooltip: the move in words (``str(move)``), and whether it is a best
    move (``move.best``, where the picture flags it).
    """
    value = Value(move.value)
    tip = str(move)
    best = bool(getattr(move, "best", False))
    if best:
        tip += " (a best move)"
    return group(
        [el("title", tip), *shapes],
        class_="move",
        data_move=move.label,
        data_value=value.name,
        data_remoteness=move.remoteness,
        data_best="true" if best else None,
    )


def xo_mark(
    symbol: str, cx: float, cy: float, cross: float, radius: float, width: float
) -> list[str]:
    """An X (two strokes reaching `cross` from the centre each way) or an O (a ring of
    `radius`) centred on ``(cx, cy)``, strokes `width` wide; nothing for another symbol."""
    if symbol == "X":
        return [
            el("line", x1=cx - cross, y1=cy - dy, x2=cx + cross, y2=cy + dy, stroke=INK,
               stroke_width=width, stroke_linecap="round")
            for dy in (cross, -cross)
        ]  # fmt: skip
    if symbol == "O":
        return [el("circle", cx=cx, cy=cy, r=radius, fill="none", stroke=INK, stroke_width=width)]
    return []


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str, width: float = 4.0) -> list[str]:
    """A straight arrow from (x1, y1) to (x2, y2): a line and a filled triangular head."""
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    head = min(4.0 * width, 0.6 * length)
    bx, by = x2 - ux * head, y2 - uy * head
    half = 0.55 * head
    points = [
        (x2, y2),
        (bx - uy * half, by + ux * half),
        (bx + uy * half, by - ux * half),
    ]
    return [
        el("line", x1=x1, y1=y1, x2=bx, y2=by, stroke=colour, stroke_width=width),
        el(
            "polygon", points=" ".join(f"{_number(x)},{_number(y)}" for x, y in points), fill=colour
        ),
    ]


@dataclass
class Drawing:
    """A picture's body: its size and its elements, in picture coordinates from (0, 0)."""

    width: float
    height: float
    parts: list[str] = field(default_factory=list)
    caption: str = ""
    """One line under the title (whose turn it is, the outcome...)."""


def legend(entries: Sequence[tuple[str, str, str]], note: str) -> tuple[float, float, list[str]]:
    """Swatches ``(colour, letter, words)`` in a row with a note under them; returns the
    legend's estimated width (text at about 7.6 and 6.4 pixels a character), its height and
    its elements."""
    parts: list[str] = []
    x = 0.0
    for colour, letter, words in entries:
        parts.append(el("rect", x=x, y=0, width=22, height=18, rx=3, fill=colour, stroke=INK))
        ink = "#000000" if colour in _LIGHT else "#FFFFFF"
        parts.append(
            el(
                "text",
                letter,
                x=x + 11,
                y=13.5,
                fill=ink,
                font_size=12,
                text_anchor="middle",
                font_weight="bold",
            )
        )
        parts.append(el("text", words, x=x + 27, y=14, fill=INK, font_size=13))
        x += 27 + 7.6 * len(words) + 16
    parts.append(el("text", note, x=0, y=36, fill=INK, font_size=11.5))
    return max(x, 6.4 * len(note)), _LEGEND_HEIGHT, parts


def page(
    drawing: Drawing,
    *,
    title: str,
    entries: Sequence[tuple[str, str, str]] | None = None,
    note: str = "",
    size: float | None = None,
) -> str:
    """A standalone SVG document: `title`, the drawing's caption, the drawing and a legend.

    Parameters
    ----------
    drawing : Drawing
        The body, placed under the title.
    title : str
        The first line of the picture (and its ``<title>``).
    entries : sequence of (colour, letter, words), optional
        Legend swatches; default: the four values.
    note : str
        A line under the swatches saying what the colours mean.
    size : float, optional
        Width in pixels of the rendered picture (the height follows); default: natural size.
    """
    if entries is None:
        entries = [
            (PALETTE[v.name], v.name[0], v.name)
            for v in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
        ]
    top = _MARGIN + _TITLE_HEIGHT + (18.0 if drawing.caption else 0.0)
    legend_width, legend_height, legend_parts = legend(entries, note)
    width = max(drawing.width, legend_width, 8.5 * len(title), 6.8 * len(drawing.caption))
    width += 2 * _MARGIN
    height = top + drawing.height + 14.0 + legend_height + _MARGIN
    shown_width = width if size is None else float(size)
    shown_height = height * shown_width / width
    body = [
        el("title", title),
        el("rect", x=0, y=0, width=width, height=height, fill="#FFFFFF"),
        el("text", title, x=_MARGIN, y=_MARGIN + 18, fill=INK, font_size=17, font_weight="bold"),
    ]
    if drawing.caption:
        body.append(el("text", drawing.caption, x=_MARGIN, y=_MARGIN + 40, fill=INK, font_size=13))
    body.append(group(drawing.parts, transform=f"translate({_number(_MARGIN)},{_number(top)})"))
    legend_top = top + drawing.height + 14.0
    body.append(
        group(legend_parts, transform=f"translate({_number(_MARGIN)},{_number(legend_top)})")
    )
    head = el(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {_number(width)} {_number(height)}",
        width=_number(shown_width),
        height=_number(shown_height),
        font_family=FONT,
    )[:-2]
    return f"{head}>{''.join(body)}</svg>\n"


def thumbnail(drawing: Drawing, *, title: str, size: float) -> str:
    """A standalone SVG document of the drawing alone, `size` pixels wide (the height follows):
    no title line, caption or legend, for a list of small pictures. `title` is its ``<title>``
    (what a screen reader and a hover say).

    >>> svg = thumbnail(Drawing(100, 50, [el("circle", cx=5, cy=5, r=4)]), title="a", size=40)
    >>> svg.split(">")[0]
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 108 58" width="40" height="21.48" \
font-family="DejaVu Sans, Verdana, Arial, sans-serif"'
    """
    pad = 4.0
    width, height = drawing.width + 2 * pad, drawing.height + 2 * pad
    head = el(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {_number(width)} {_number(height)}",
        width=_number(size),
        height=_number(height * size / width),
        font_family=FONT,
    )[:-2]
    body = [
        el("title", title),
        el("rect", x=0, y=0, width=width, height=height, fill="#FFFFFF"),
        group(drawing.parts, transform=f"translate({_number(pad)},{_number(pad)})"),
    ]
    return f"{head}>{''.join(body)}</svg>\n"


def tag(move: Any, x: float, y: float, font_size: float = 14.0) -> str:
    """A move's :func:`value_tag` centred at (x, y), in the ink that reads on its colour;
    ringed (white inside a dark ring, ``class="best"``) when ``move.best`` is true."""
    text = value_tag(move.value, move.remoteness)
    ring = ""
    if getattr(move, "best", False):
        width = font_size * (0.5 + 0.68 * len(text))
        height = font_size * 1.35
        ring = group(
            [
                el("rect", x=x - width / 2, y=y - height / 2, width=width, height=height,
                   rx=height / 2, fill="none", stroke=INK, stroke_width=4),
                el("rect", x=x - width / 2, y=y - height / 2, width=width, height=height,
                   rx=height / 2, fill="none", stroke="#FFFFFF", stroke_width=1.5),
            ],
            class_="best",
        )  # fmt: skip
    return ring + el(
        "text",
        text,
        x=x,
        y=y + 0.36 * font_size,
        fill=ink_on(move.value),
        font_size=font_size,
        font_weight="bold",
        text_anchor="middle",
    )
