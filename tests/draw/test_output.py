"""Writing pictures: SVG or PNG by the ending, whole or not at all."""

from __future__ import annotations

import os
import sys

import pytest
from png_helpers import needs_cairo

from perfectplay.draw import write_picture
from perfectplay.errors import InputFormatError, MissingDependencyError

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<rect width="5" height="5"/></svg>'
)


def test_svg_is_written_as_is(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "a.SVG")
    write_picture(path, SVG)
    with open(path, encoding="utf-8") as f:
        assert f.read() == SVG
    assert os.listdir(tmp_path) == ["a.SVG"]


@needs_cairo
def test_png_has_the_png_signature(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "a.png")
    write_picture(path, SVG)
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["a.gif", "a", "a.svg.txt"])
def test_other_endings_are_refused_before_writing(tmp_path: os.PathLike[str], name: str) -> None:
    with pytest.raises(InputFormatError, match=r"expected a file name ending in \.svg or \.png"):
        write_picture(os.path.join(tmp_path, name), SVG)
    assert os.listdir(tmp_path) == []


def test_a_missing_directory_names_the_file_asked_for(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "missing", "a.svg")
    with pytest.raises(FileNotFoundError) as caught:
        write_picture(path, SVG)
    assert caught.value.filename == path


def test_png_without_cairosvg_is_one_clear_error_and_no_file(
    tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg raises ImportError
    with pytest.raises(MissingDependencyError, match=r"perfectplay\[png\]"):
        write_picture(os.path.join(tmp_path, "a.png"), SVG)
    assert os.listdir(tmp_path) == []


def test_a_failed_write_leaves_no_temporary_file(
    tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device", dst)

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="No space left"):
        write_picture(os.path.join(tmp_path, "a.svg"), SVG)
    assert os.listdir(tmp_path) == []
