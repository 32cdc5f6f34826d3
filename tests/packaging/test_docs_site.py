"""The documentation site builds in strict mode, with a page for every public name.

``mkdocs build --strict`` (as ``make docs`` runs it) into a temporary directory: every public
name of ``perfectplay.__all__`` has its API page rendered from its docstring, every command
its CLI section, the pictures are SVG drawn by ``perfectplay.draw``, and the search index
holds the pages. A copy of the docs with one broken link must fail the strict build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

for _module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
    pytest.importorskip(_module, reason="the docs extra (mkdocs, Material, mkdocstrings)")

import perfectplay  # noqa: E402
from perfectplay.cli import build_parser  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of `config` into `site`."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        cwd=config.parent,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = build(ROOT / "mkdocs.yml", out)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_every_public_name_has_an_api_page(site: Path) -> None:
    for name in perfectplay.__all__:
        page = site / "reference" / "api" / f"{'version' if name == '__version__' else name}.html"
        html = page.read_text()
        if name != "__version__":
            thing = getattr(perfectplay, name)
            own = str(getattr(thing, "__module__", "")).startswith("perfectplay")
            summary = (thing.__doc__ or "").strip().splitlines() if own else []  # not int's
            assert 'class="doc doc-object' in html, name  # rendered by mkdocstrings
            assert not summary or summary[0].split()[0] in html, name
    index = (site / "reference" / "api" / "index.html").read_text()
    assert all(f"{name}</code>" in index for name in perfectplay.__all__)


def test_openspiel_bridge_page(site: Path) -> None:
    html = (site / "reference" / "openspiel.html").read_text()
    for name in ("solve_openspiel", "PerfectBot", "grade", "OpenSpielGame"):
        assert f'id="perfectplay.bridges.openspiel.{name}"' in html, name


def test_cli_reference_has_every_command(site: Path) -> None:
    html = (site / "reference" / "cli.html").read_text()
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert commands
    for name in commands:
        assert f"usage: perfectplay {name}" in html, name
    assert ":func:" not in html and ":class:" not in html


def test_pictures_are_drawn_svg(site: Path) -> None:
    svgs = sorted((site / "reference").glob("*.svg"))
    assert len(svgs) >= 6
    for svg in svgs:
        assert svg.read_text().lstrip().startswith("<svg"), svg.name
        assert svg.name in (site / "reference" / "pictures.html").read_text()


def test_search_index_and_home_page(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text())
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert {"index.html", "reference/api/solve.html", "tiers.html"} <= locations
    home = (site / "index.html").read_text()
    assert 'href="tiers.html"' in home  # the README's docs/ links, made site-relative


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    page = tmp_path / "docs" / "games.md"
    page.write_text(page.read_text() + "\nSee [nowhere](no-such-page.md).\n")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stderr
