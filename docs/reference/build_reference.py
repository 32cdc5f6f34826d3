"""MkDocs hook: the site's generated pages, written at every build from the code itself.

* ``index.md``: the README, its ``docs/`` links made relative to the site;
* ``reference/api/<name>.md``: one page per public name of ``perfectplay.__all__``, rendered
  by mkdocstrings from its numpydoc docstring, and ``reference/api/index.md`` listing them;
* ``reference/openspiel.md``: the OpenSpiel bridge (``perfectplay.bridges.openspiel``, the
  ``openspiel`` extra), from its docstrings;
* ``reference/cli.md``: the help of ``perfectplay`` and of every subcommand, from the argparse
  parsers (``perfectplay.cli.build_parser``);
* ``reference/pictures.md`` and its SVG files: positions and charts drawn by
  ``perfectplay.draw`` from solved games.

Nothing is written into ``docs/``: the pages exist only in the built site, so they cannot drift
from the code. mkdocs imports this module (``hooks:`` in ``mkdocs.yml``); importing it needs
neither mkdocs nor numba, so pytest's doctest collection of ``docs/`` may import it too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def api_pages() -> dict[str, str]:
    """``{path: markdown}``: a page per public name and the index of them."""
    import perfectplay

    exports: dict[str, str] = perfectplay._EXPORTS
    pages = {}
    rows = []
    for name in perfectplay.__all__:
        if name == "__version__":
            body = (
                "# `__version__`\n\nThe installed version of perfectplay, "
                f"`{perfectplay.__version__}` for this site; `perfectplay --version` prints it.\n"
            )
        else:
            module = f"perfectplay{exports[name]}"
            body = f"# `{name}`\n\n`from perfectplay import {name}` (defined in `{module}`)\n\n"
            body += f"::: {module}.{name}\n"
        page = "version" if name == "__version__" else name
        pages[f"reference/api/{page}.md"] = body
        rows.append(f"| [`{name}`]({page}.md) | `{exports.get(name, '')[1:] or 'perfectplay'}` |")
    pages["reference/api/index.md"] = (
        "# Python API\n\nEvery public name of `perfectplay` (its `__all__`), each loaded on first "
        "use. Values are stated for the player to move.\n\n| name | module |\n|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )
    return pages


def cli_page() -> str:
    """The command line's reference: each parser's help, as argparse prints it."""
    import argparse

    from perfectplay.cli import build_parser

    os.environ["COLUMNS"] = "80"  # argparse wraps help at the terminal's width
    parser = build_parser()
    parts = [
        "# Command line\n\nGenerated from the argparse parsers at every build: what "
        "`perfectplay --help` and `perfectplay COMMAND --help` print.\n\n## `perfectplay`\n",
        f"```text\n{parser.format_help()}```\n",
    ]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts.append(f"## `perfectplay {name}`\n\n```text\n{sub.format_help()}```\n")
    return "\n".join(parts)


def pictures() -> tuple[str, dict[str, str]]:
    """The pictures page and ``{file name: SVG}``: positions and charts of solved games."""
    from perfectplay import load_game, solve
    from perfectplay.draw import counts_svg, position_svg, value_history_svg
    from perfectplay.draw.charts import value_counts

    files: dict[str, str] = {}
    sections = []
    for name, params, moves, caption in [
        ("tic-tac-toe", {}, ["b2", "a1"], "Tic-tac-toe after b2 a1: X to move"),
        ("connect-four", {"rows": 4, "cols": 4}, ["b", "c"], "Connect Four 4x4 after b c"),
        ("nim", {"heaps": (1, 3, 5)}, [], "Nim 1 3 5: the player to move wins"),
    ]:
        game = load_game(name, **params)
        solved = solve(game)
        path = [game.initial()]
        for label in moves:
            path.append(next(m.position for m in solved.move_values(path[-1]) if m.label == label))
        here = path[-1]
        stem = name.replace("-", "_")
        files[f"{stem}.svg"] = position_svg(game, here, solved.move_values(here), size=320)
        history = [(solved.value(p), solved.remoteness(p)) for p in path]
        files[f"{stem}_history.svg"] = value_history_svg(history)
        sections.append(
            f"## {caption}\n\n![{caption}]({stem}.svg)\n\n"
            f"The value history of the moves played: ![value history]({stem}_history.svg)\n"
        )
        if name == "connect-four":
            counts = value_counts(solved.solution.value, solved.solution.remoteness)
            files["connect_four_counts.svg"] = counts_svg(counts, "Connect Four 4x4")
            sections.append(
                "## Connect Four 4x4: positions by value and remoteness\n\n"
                "![counts](connect_four_counts.svg)\n"
            )
    page = (
        "# Pictures\n\nDrawn at every build by `perfectplay.draw` from solved games (see "
        "[Pictures](../pictures.md) for the commands); every move is coloured by its value "
        "for the player making it.\n\n" + "\n".join(sections)
    )
    return page, files


BRIDGE = """# OpenSpiel bridge

`pip install 'perfectplay[openspiel]'`, then `from perfectplay.bridges.openspiel import ...`:
OpenSpiel's two-player deterministic perfect-information games solved by perfectplay, a
perfect `pyspiel.Bot`, and the grade of any bot or policy against perfect play.

::: perfectplay.bridges.openspiel
    options:
      show_root_heading: false
      members_order: source
"""


def readme() -> str:
    """The README as the site's home page: links into ``docs/`` made site-relative."""
    text = (ROOT / "README.md").read_text()
    return re.sub(r"\]\(docs/", "](", text)


ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):<code>(~?)([\w.]+)</code>")


def plain_roles(html: str) -> str:
    """Sphinx cross-reference roles left in rendered docstrings, as code.

    mkdocstrings renders numpydoc but not Sphinx's roles; ``:func:`~a.b.c``` shows as ``c``,
    ``:func:`a.b.c``` as ``a.b.c``, as Sphinx shows them.

    >>> plain_roles(":class:<code>~perfectplay.graph.GameGraph</code> and :func:<code>a.b</code>")
    '<code>GameGraph</code> and <code>a.b</code>'
    """
    return ROLE.sub(lambda m: f"<code>{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}</code>", html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: each page's HTML without the Sphinx roles of its docstrings."""
    return plain_roles(html)


def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the generated pages and pictures to the site's files."""
    from mkdocs.structure.files import File

    generated = {
        "index.md": readme(),
        "reference/cli.md": cli_page(),
        "reference/openspiel.md": BRIDGE,
        **api_pages(),
    }
    page, svgs = pictures()
    generated["reference/pictures.md"] = page
    generated.update({f"reference/{name}": svg for name, svg in svgs.items()})
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    return files
