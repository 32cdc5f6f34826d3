"""The layers of docs/architecture.md, enforced: every import of every module, at the top or
inside a function, goes to its own layer or one below, and no modules import each other in a
cycle.

The layer table is read from docs/architecture.md itself, so the page and this test cannot
drift apart.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "perfectplay"
TABLE = ROOT / "docs" / "architecture.md"


def layer_table() -> list[tuple[int, str, list[str]]]:
    """``(rank, layer, module prefixes)`` from the table's rows, lowest layer first."""
    rows = []
    for line in TABLE.read_text().splitlines():
        match = re.match(r"\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", line)
        if match:
            prefixes = re.findall(r"`([\w./]+)`", match.group(3))
            rows.append((int(match.group(1)), match.group(2), prefixes))
    return rows


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _display_hooks(tree: ast.AST) -> set[int]:
    """Nodes inside ``_repr_*_`` methods: the notebook hooks may draw lazily (the one
    exception the layer table names)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "_repr_"
        ):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import in the module, resolved to a module of
    the package where it names one (``from a import b`` where ``a.b`` is a module)."""
    tree = ast.parse(path.read_text())
    skip = _display_hooks(tree)
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known else base), node.lineno


def rank_of(module: str, table: list[tuple[int, str, list[str]]]) -> tuple[int, str] | None:
    best: tuple[int, int, str] | None = None
    for rank, layer, prefixes in table:
        for prefix in prefixes:
            dotted = prefix.removesuffix(".py").replace("/", ".").rstrip(".")
            matches = module == dotted or module.startswith(dotted + ".")
            if matches and (best is None or len(dotted) > best[0]):
                best = (len(dotted), rank, layer)
    return None if best is None else (best[1], best[2])


def test_the_table_names_a_layer_for_every_module() -> None:
    table = layer_table()
    assert len(table) >= 8, "docs/architecture.md lost its layer table"
    unplaced = [m for m in modules() if m != "perfectplay" and rank_of(m, table) is None]
    assert unplaced == []


def test_every_import_goes_to_its_own_layer_or_one_below() -> None:
    table = layer_table()
    wrong = []
    for name, path in modules().items():
        if name == "perfectplay":
            continue  # the lazy public API names every layer
        own = rank_of(name, table)
        assert own is not None
        for target, line in imports(name, path):
            if not target.startswith("perfectplay.") or target == "perfectplay":
                continue
            theirs = rank_of(target, table)
            if theirs is not None and theirs[0] > own[0]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({own[1]}) imports {target} "
                             f"({theirs[1]})")  # fmt: skip
    assert wrong == []


ENGINES = ("perfectplay.enumeration", "perfectplay.tiers", "perfectplay.search")


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_imports_no_other_engine_and_no_game(engine: str) -> None:
    wrong = []
    for name, path in modules().items():
        if not name.startswith(engine):
            continue
        for target, line in imports(name, path):
            others = [e for e in ENGINES if e != engine and target.startswith(e)]
            if others or target.startswith(("perfectplay.games", "perfectplay.builders")):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert wrong == []


def test_no_modules_import_each_other_in_a_cycle() -> None:
    graph: dict[str, set[str]] = {}
    known = modules()
    for name, path in known.items():
        if name == "perfectplay":
            continue
        graph[name] = {t for t, _ in imports(name, path) if t in known and t != "perfectplay"}
    # Importing a submodule runs its package's __init__ first; that edge is not a cycle.
    for name, targets in graph.items():
        targets.discard(name.rpartition(".")[0])
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_a_planted_upward_import_is_caught(tmp_path: Path) -> None:
    """The checker itself: an engine module importing the CLI is reported."""
    table = layer_table()
    engine = rank_of("perfectplay.tiers.engine", table)
    cli = rank_of("perfectplay.cli.solve", table)
    assert engine is not None and cli is not None and cli[0] > engine[0]
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from perfectplay.cli import solve\n")
    found = list(imports("perfectplay.tiers.planted", planted))
    assert ("perfectplay.cli.solve", 2) in found
