"""The layers of docs/architecture.md, enforced: every import of every module, at the top or
inside a function, goes to its own layer or one below, no modules import each other in a
cycle, and each game is one folder.

An import is any way one module reaches another: ``import`` and ``from ... import`` (of the
package root too: ``from perfectplay import open_solved`` reaches the module that defines
``open_solved``), and ``importlib.import_module`` or ``__import__`` of a literal name. The
one exception: a notebook hook ``_repr_*_`` may import ``perfectplay.draw`` lazily.

The layer table is read from docs/architecture.md itself, so the page and this test cannot
drift apart. Each rule is checked on the package, and on a planted violation that it must
report (the checker itself under test).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "architecture.md"
ENGINES = ("perfectplay.enumeration", "perfectplay.tiers", "perfectplay.search")
HOOK_MAY_IMPORT = "perfectplay.draw"
"""What a notebook hook ``_repr_*_`` may import whatever its own layer (a picture)."""
GAME_BASES = {"Game", "TieredGame"}
"""The protocol classes a game's class derives from."""
GAMES_SHARED = {"__init__", "registry", "entry"}
"""Modules directly in ``perfectplay/games/`` besides the private shared helpers ``_*.py``: the
registry and the entry every folder's ``entry.py`` fills in."""

Table = list[tuple[int, str, list[str]]]


def layer_table() -> Table:
    """``(rank, layer, module prefixes)`` from the table's rows, lowest layer first."""
    rows = []
    for line in TABLE.read_text().splitlines():
        match = re.match(r"\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", line)
        if match:
            prefixes = re.findall(r"`([\w./]+)`", match.group(3))
            rows.append((int(match.group(1)), match.group(2), prefixes))
    return rows


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package under `root` (the folder holding ``perfectplay/``)."""
    return {module_name(p, root): p for p in sorted((root / "perfectplay").rglob("*.py"))}


@cache
def exports(root: Path = ROOT) -> dict[str, str]:
    """The package root's lazy public names: ``name -> the module defining it``."""
    tree = ast.parse((root / "perfectplay" / "__init__.py").read_text())
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets):
            table = ast.literal_eval(node.value)  # type: ignore[union-attr]
            return {n: importlib.util.resolve_name(m, "perfectplay") for n, m in table.items()}
    return {}


def _display_hooks(tree: ast.AST) -> set[int]:
    """Nodes inside ``_repr_*_`` methods (the notebook hooks)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "_repr_"
        ):
            inside.update(id(n) for n in ast.walk(node))
    return inside


def _dynamic_import(node: ast.Call) -> str | None:
    """The module a call ``importlib.import_module("x", "pkg")`` or ``__import__("x")`` names,
    when its arguments are literals; None for any other call."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not node.args:
        return None
    literals = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)]
    literals += [k.value.value for k in node.keywords
                 if k.arg == "package" and isinstance(k.value, ast.Constant)]  # fmt: skip
    if not literals or not isinstance(literals[0], str):
        return None
    if name == "import_module" and literals[0].startswith("."):
        package = literals[1] if len(literals) > 1 and isinstance(literals[1], str) else None
        return importlib.util.resolve_name(literals[0], package) if package else None
    return literals[0]


def imports(name: str, path: Path, root: Path = ROOT) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import in the module, resolved to a module of
    the package where it names one (``from a import b`` where ``a.b`` is a module; a public
    name of the package root to the module defining it)."""
    tree = ast.parse(path.read_text())
    hooks = _display_hooks(tree)
    known = modules(root)
    public = exports(root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        found: list[str] = []
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in known:
                    found.append(full)
                elif base == "perfectplay":
                    # a public name reaches its module; one the root defines itself
                    # (``__version__``) reaches nothing
                    found += [public[alias.name]] if alias.name in public else []
                else:
                    found.append(base)
        elif isinstance(node, ast.Call):
            found = [target] if (target := _dynamic_import(node)) else []
        for target in found:
            if id(node) in hooks and (
                target == HOOK_MAY_IMPORT or target.startswith(HOOK_MAY_IMPORT + ".")
            ):
                continue
            yield target, node.lineno


def rank_of(module: str, table: Table) -> tuple[int, str] | None:
    best: tuple[int, int, str] | None = None
    for rank, layer, prefixes in table:
        for prefix in prefixes:
            dotted = prefix.removesuffix(".py").replace("/", ".").rstrip(".")
            matches = module == dotted or module.startswith(dotted + ".")
            if matches and (best is None or len(dotted) > best[0]):
                best = (len(dotted), rank, layer)
    return None if best is None else (best[1], best[2])


def target_rank(target: str, table: Table, root: Path) -> tuple[int, str] | None:
    """The layer an import reaches; ``import perfectplay`` reaches every public name."""
    if target != "perfectplay":
        return rank_of(target, table)
    ranks = [r for m in set(exports(root).values()) if (r := rank_of(m, table)) is not None]
    return max(ranks, default=None)


def layer_violations(root: Path = ROOT) -> list[str]:
    """Every import from a module to a layer above its own, one line each."""
    table = layer_table()
    wrong = []
    for name, path in modules(root).items():
        if name == "perfectplay":
            continue  # the lazy public API names every layer
        own = rank_of(name, table)
        assert own is not None, f"{name} has no layer"
        for target, line in imports(name, path, root):
            if target != "perfectplay" and not target.startswith("perfectplay."):
                continue
            theirs = target_rank(target, table, root)
            if theirs is not None and theirs[0] > own[0]:
                wrong.append(f"{path.relative_to(root)}:{line} ({own[1]}) imports {target} "
                             f"({theirs[1]})")  # fmt: skip
    return wrong


def engine_violations(engine: str, root: Path = ROOT) -> list[str]:
    """Every import from the engine `engine` to another engine, a game or a builder."""
    wrong = []
    for name, path in modules(root).items():
        if not name.startswith(engine):
            continue
        for target, line in imports(name, path, root):
            others = [e for e in ENGINES if e != engine and target.startswith(e)]
            if others or target.startswith(("perfectplay.games", "perfectplay.builders")):
                wrong.append(f"{path.relative_to(root)}:{line} imports {target}")
    return wrong


def _defines_game(path: Path) -> bool:
    """Whether the module defines a class deriving from Game or TieredGame."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                base = base.value if isinstance(base, ast.Subscript) else base
                named = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                if named in GAME_BASES:
                    return True
    return False


def game_folder_violations(root: Path = ROOT) -> list[str]:
    """Each ``perfectplay/games/<x>/`` is one game (its ``rules.py`` defines it) importing no
    other game's folder; beside the folders only the registry, its ``GameEntry`` and private
    shared helpers (``_*.py``), none of them a game."""
    games = root / "perfectplay" / "games"
    folders = {p.name for p in games.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    wrong = []
    for path in sorted(games.glob("*.py")):
        where = path.relative_to(root)
        if path.stem not in GAMES_SHARED and not path.stem.startswith("_"):
            wrong.append(f"{where}: a module of the games layer outside a game's folder")
        elif _defines_game(path):
            wrong.append(f"{where}: defines a game outside a game's folder")
    for folder in sorted(folders):
        rules = games / folder / "rules.py"
        if not rules.exists() or not _defines_game(rules):
            wrong.append(f"{rules.relative_to(root)}: a game's folder without its rules")
    for name, path in modules(root).items():
        parts = name.split(".")
        if parts[:2] != ["perfectplay", "games"] or len(parts) < 3 or parts[2] not in folders:
            continue
        for target, line in imports(name, path, root):
            theirs = target.split(".")
            other = theirs[:2] == ["perfectplay", "games"] and len(theirs) > 2
            if other and theirs[2] in folders and theirs[2] != parts[2]:
                wrong.append(f"{path.relative_to(root)}:{line} imports {target}, another game")
    return wrong


def public_kernels(root: Path = ROOT) -> list[str]:
    """Every numba kernel (a function under an ``njit``/``jit`` decorator) defined in a public
    module: kernels live in private ``_*.py`` modules behind validating public functions."""
    wrong = []
    for path in sorted((root / "perfectplay").rglob("*.py")):
        if path.name.startswith("_"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                re.search(r"\b(njit|jit)\b", ast.unparse(d)) for d in node.decorator_list
            ):
                wrong.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return wrong


# ---------------------------------------------------------------------------- the package
def test_the_table_names_a_layer_for_every_module() -> None:
    table = layer_table()
    assert len(table) >= 8, "docs/architecture.md lost its layer table"
    unplaced = [m for m in modules() if m != "perfectplay" and rank_of(m, table) is None]
    assert unplaced == []


def test_every_import_goes_to_its_own_layer_or_one_below() -> None:
    assert layer_violations() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_imports_no_other_engine_and_no_game(engine: str) -> None:
    assert engine_violations(engine) == []


def test_each_game_is_one_folder() -> None:
    assert game_folder_violations() == []


def test_numba_kernels_live_in_private_modules() -> None:
    assert public_kernels() == []


def module_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package (the root left out) to the modules it imports."""
    graph: dict[str, set[str]] = {}
    known = modules(root)
    for name, path in known.items():
        if name == "perfectplay":
            continue
        graph[name] = {t for t, _ in imports(name, path, root) if t in known and t != "perfectplay"}
    # Importing a submodule runs its package's __init__ first; that edge is not a cycle.
    for name, targets in graph.items():
        targets.discard(name.rpartition(".")[0])
    return graph


def package_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each first-level package (``perfectplay.cli``) to the other first-level packages its
    modules import; top-level modules (``perfectplay.store``) stand for themselves."""

    def first(name: str) -> str:
        return ".".join(name.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for name, targets in module_graph(root).items():
        edges = graph.setdefault(first(name), set())
        edges.update(first(t) for t in targets if first(t) != first(name))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """One line per cycle found by a depth-first walk of `graph` (``a -> b -> a``)."""
    found = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_no_modules_import_each_other_in_a_cycle() -> None:
    assert cycles(module_graph()) == []


def test_no_packages_import_each_other_in_a_cycle() -> None:
    """Two front ends importing each other's modules (``cli`` and ``web``) is a cycle of
    packages even when no two modules form one."""
    assert cycles(package_graph()) == []


# ---------------------------------------------------------------------------- planted
def plant(root: Path, files: dict[str, str]) -> Path:
    """A package tree under `root`: the package root with one public name, plus `files`
    (paths under ``perfectplay/`` to their source)."""
    sources = {
        "__init__.py": '_EXPORTS = {"open_solved": ".solved"}\n__version__ = "0"\n',
        "solved.py": "",
        "cli/__init__.py": "",
        "cli/solve.py": "",
        "draw/__init__.py": "",
        "tiers/__init__.py": "",
        "games/__init__.py": "",
        "games/registry.py": "",
        "games/nim/__init__.py": "",
        "games/nim/rules.py": "class Nim(Game[int]):\n    pass\n",
        **files,
    }
    for relative, text in sources.items():
        path = root / "perfectplay" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


@pytest.mark.parametrize(
    "source",
    [
        "from perfectplay.cli import solve\n",
        "def f():\n    from perfectplay.cli import solve\n",
        "from ..cli import solve\n",
        "from perfectplay import open_solved\n",  # the root's public name: services
        "import perfectplay\n",  # every public name
        "import importlib\nimportlib.import_module('perfectplay.cli.solve')\n",
        "from importlib import import_module\nimport_module('.cli.solve', 'perfectplay')\n",
        "__import__('perfectplay.cli.solve')\n",
        "class R:\n    def _repr_svg_(self):\n        from perfectplay.cli import solve\n",
    ],
)
def test_a_planted_upward_import_is_reported(tmp_path: Path, source: str) -> None:
    """An engine module reaching a front end or a service, in any of the ways to import."""
    root = plant(tmp_path, {"tiers/planted.py": source})
    wrong = layer_violations(root)
    assert len(wrong) == 1 and wrong[0].startswith("perfectplay/tiers/planted.py:")


@pytest.mark.parametrize(
    "source",
    [
        "from perfectplay import __version__\n",  # defined by the root itself
        "class R:\n    def _repr_svg_(self):\n        from perfectplay import draw\n",
        "import importlib\nimportlib.import_module(name)\n",  # not a literal: not resolved
    ],
)
def test_a_planted_allowed_import_is_not_reported(tmp_path: Path, source: str) -> None:
    root = plant(tmp_path, {"tiers/planted.py": source})
    assert layer_violations(root) == []


def test_a_planted_engine_importing_a_game_is_reported(tmp_path: Path) -> None:
    root = plant(tmp_path, {"tiers/planted.py": "from perfectplay.games.nim import rules\n"})
    assert engine_violations("perfectplay.tiers", root) == [
        "perfectplay/tiers/planted.py:1 imports perfectplay.games.nim.rules"
    ]


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        ({"games/chess.py": ""}, "perfectplay/games/chess.py: a module of the games layer"),
        (
            {"games/_helper.py": "class Go(Game[str]):\n    pass\n"},
            "perfectplay/games/_helper.py: defines a game outside",
        ),
        ({"games/go/__init__.py": ""}, "perfectplay/games/go/rules.py: a game's folder without"),
        (
            {
                "games/go/__init__.py": "",
                "games/go/rules.py": "from perfectplay.games.nim import rules\n"
                "class Go(TieredGame):\n    pass\n",
            },
            "perfectplay/games/go/rules.py:1 imports perfectplay.games.nim.rules, another game",
        ),
    ],
)
def test_a_planted_game_outside_its_folder_is_reported(
    tmp_path: Path, files: dict[str, str], reported: str
) -> None:
    wrong = game_folder_violations(plant(tmp_path, files))
    assert len(wrong) == 1 and wrong[0].startswith(reported)


def test_a_planted_game_in_its_folder_with_a_shared_helper_passes(tmp_path: Path) -> None:
    files = {
        "games/_square_board.py": "",
        "games/go/__init__.py": "",
        "games/go/rules.py": "from perfectplay.games import _square_board\n"
        "class Go(Game[str]):\n    pass\n",
    }
    assert game_folder_violations(plant(tmp_path, files)) == []


def test_a_planted_kernel_in_a_public_module_is_reported(tmp_path: Path) -> None:
    kernel = "import numba as nb\n\n@nb.njit(cache=True)\ndef count(a):\n    return a.size\n"
    root = plant(tmp_path, {"graphfile.py": kernel, "_graphfile_kernels.py": kernel})
    assert public_kernels(root) == ["perfectplay/graphfile.py:4 count"]


def test_a_planted_cycle_of_packages_is_reported(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "web/__init__.py": "",
            "web/app.py": "from perfectplay.cli import solve\n",
            "cli/serve.py": "from perfectplay.web import app\n",
        },
    )
    assert cycles(module_graph(root)) == []
    assert cycles(package_graph(root)) == ["perfectplay.cli -> perfectplay.web -> perfectplay.cli"]
