"""SVG primitives every picture is drawn with: elements, marks and the value palette."""
