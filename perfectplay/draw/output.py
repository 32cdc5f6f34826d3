"""Writing a picture to a file: SVG as is, PNG through cairosvg, atomically.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "p.svg")
>>> write_picture(path, '<svg xmlns="http://www.w3.org/2000/svg"/>')
>>> open(path).read()
'<svg xmlns="http://www.w3.org/2000/svg"/>'
>>> write_picture(path + ".gif", "<svg/>")
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: cannot write a picture to ...: expected ... .svg or .png
"""

from __future__ import annotations

import os

from perfectplay._atomic import atomic_file
from perfectplay.errors import InputFormatError, MissingDependencyError

__all__ = ["FORMATS", "check_picture_path", "picture_bytes", "write_picture"]

FORMATS = (".svg", ".png")
"""File name endings a picture may be written to."""


def check_picture_path(path: str) -> str:
    """The format (``".svg"`` or ``".png"``) of `path`, by its ending (any case).

    Raises
    ------
    InputFormatError
        If `path` ends otherwise.
    """
    ending = os.path.splitext(path)[1].lower()
    if ending not in FORMATS:
        raise InputFormatError(
            f"cannot write a picture to {path!r}: expected a file name ending in .svg or .png"
        )
    return ending


def picture_bytes(svg: str, kind: str) -> bytes:
    """The bytes of `svg` in format `kind` (``".svg"``, or ``".png"`` rendered by cairosvg).

    Raises
    ------
    MissingDependencyError
        PNG asked for but cairosvg (``pip install 'perfectplay[png]'``, and the system's
        libcairo2) is missing.

    Notes
    -----
    Cost: SVG O(size); PNG, cairosvg's rasterisation, about 0.05 to 0.3 s per picture.
    """
    if kind == ".svg":
        return svg.encode("utf-8")
    try:
        import cairosvg
    except (ImportError, OSError) as error:
        raise MissingDependencyError(
            f"PNG output needs cairosvg and the cairo library ({error}); install them with "
            "pip install 'perfectplay[png]' (and apt-get install libcairo2), or write .svg"
        ) from None
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return png


def write_picture(path: str, svg: str) -> None:
    """Write `svg` to `path` as SVG or PNG (by the ending), via a temporary file and a rename.

    Nothing is left at `path` if anything fails (an unwritable directory, a missing PNG
    renderer): the file appears whole or not at all.

    Raises
    ------
    InputFormatError
        An ending other than ``.svg`` or ``.png``.
    MissingDependencyError
        PNG asked for without cairosvg.
    OSError
        The directory is missing or not writable.
    """
    data = picture_bytes(svg, check_picture_path(path))
    with atomic_file(path, prefix=".picture-", suffix="", durable=False, mode=0o644) as out:
        out.write(data)
