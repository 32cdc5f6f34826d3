"""Fuzzing campaign over every input surface of perfectplay (hypothesis-generated inputs).

Surfaces: the graph file reader (and, when a graph parses, ``perfectplay verify`` of the
solver's own output), each registered contest problem's reader, ``--param`` values of every
registered game, positions typed in every registered game's text format, and the store file
reader with ``verify`` (bit flips, truncation, swapped manifests, edited manifests, edited
arrays with recomputed checksums).

Each input must end in a result or in a :class:`~perfectplay.errors.PerfectPlayError` (the
CLI's one-line error): any other exception is a *traceback*, an input running past the time
limit a *hang*, a broken invariant *wrong* (verify refusing the solver's output, a position that
does not survive render -> parse, a corrupted store accepted). A store edit that rewires the
moves of a *graph* store so that the stored solution still solves the new graph is counted as
*rewired*: no checker can tell it from a genuine store of that graph (game stores are checked
against their game's moves, so there it counts as wrong).

Every surface runs in a child process; the parent watches a heartbeat and kills a child whose
current input runs past ``--timeout`` seconds, saves that input and restarts the surface with
the cases left. Tracebacks and hangs are saved under ``--out``; ``--recheck FOLDER`` runs the
saved hangs again without the short limit and times them (an input that finishes was slow, one
that does not is a hang).

Usage::

    python benchmarks/fuzz.py --cases 1000                 # every surface, 1000 inputs each
    python benchmarks/fuzz.py --cases 100 --surfaces graph-file store
    python benchmarks/fuzz.py --cases 100000 --budget 300   # at most 5 minutes per surface
    python benchmarks/fuzz.py --recheck OUT                 # time the inputs saved as hangs
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from perfectplay.errors import PerfectPlayError

COUNTERS = ("inputs", "accepted", "rejected", "tracebacks", "wrong", "rewired")
MAX_INPUT = 1 << 20
SAVED = 20  # tracebacks saved per surface

PROBLEM_SAMPLES: dict[str, list[bytes]] = {
    "board-game": [b"1 2\nPP\n\n1 3\nP.P\n\n1 4\nP..P\n\n2 2\nP.\n.P\n\n0 0\n"],
    "planinarenje": [b"2 3\n1 2\n2 2\n2 1\n", b"3 0\n", b"2 2\n1 1\n1 1\n"],
    "jsoi-game": [b"3 3\n.##\n...\n#.#\n", b"2 2\n..\n..\n"],
    "knights": [b"3 1 0\n", b"4 2 1\n2 2\n", b"5 1 2\n1 1\n3 3\n"],
    "make-you-happy": [],  # the module's SAMPLE, read in the child
    "staircase": [b"2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n", b"1 1\n5\n100\n"],
    "hamilg": [
        b"3\n4 6\n1 2\n1 3\n4 1\n4 2\n4 3\n2 3\n"
        b"8 7\n3 2\n1 2\n4 2\n5 1\n6 3\n7 1\n8 3\n"
        b"3 2\n1 2\n2 3\n"
    ],
}
GRAPH_SAMPLES = [
    b"5 4\n0 1\n1 2\n3 3\n4 0\n4 TIE\n",
    b"# a comment\n3 2  # header\n0 1\n1 2\n2 win\n",
    b"4 5\n0 1\n1 0\n1 2\n2 3\n3 1\n0 LOSE\r\n",
]
TOKENS = [
    b"0", b"1", b"-1", b"2", b"7", b"9999999999999999999", b"2147483648", b"4294967296",
    b"1000000", b"10000000", b"1e3", b"0x10", b"+5", b"WIN", b"LOSE", b"TIE", b"DRAW", b"win",
    b"#", b"\n", b"\r\n", b"\t", b" ", b"\x00", b"\xff", "é".encode(), b".", b"#", b"P", b",",
    b"=", b"-", b"\n\n",
]  # fmt: skip
INTEGERS = st.one_of(
    st.integers(-3, 12),
    st.integers(-(2**63), 2**64),
    st.sampled_from([2**31 - 1, 2**31, 2**32, 10**5, 10**6, 10**9, 10**18, 10**19]),
)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes], tokens: list[bytes]) -> bytes:
    """One of `seeds` with a few random edits: delete, insert, splice a token, replace a byte,
    duplicate a span, replace a number, truncate; or plain random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=80))
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.integers(0, 6))
        pos = draw(st.integers(0, len(data)))
        span = draw(st.integers(0, 8))
        if op == 0:
            del data[pos : pos + span]
        elif op == 1:
            data[pos:pos] = draw(st.binary(min_size=1, max_size=4))
        elif op == 2:
            data[pos:pos] = draw(st.sampled_from(tokens))
        elif op == 3 and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif op == 4:
            data[pos:pos] = data[pos : pos + span]
        elif op == 5:
            data = _replace_number(data, draw(st.integers(0, 50)), draw(INTEGERS))
        elif op == 6:
            del data[pos:]
    return bytes(data)


def _replace_number(data: bytearray, k: int, value: int) -> bytearray:
    """`data` with its k-th run of digits (modulo their number) replaced by `value`."""
    runs, i = [], 0
    while i < len(data):
        if 48 <= data[i] <= 57:
            j = i
            while j < len(data) and 48 <= data[j] <= 57:
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    if not runs:
        return data
    a, b = runs[k % len(runs)]
    return data[:a] + str(value).encode() + data[b:]


# ---------------------------------------------------------------------------- surfaces
# Each surface is (strategy, check, warm): check(input) returns "accepted", or "wrong: ..."
# when an invariant breaks; a PerfectPlayError counts as "rejected"; `warm` are valid inputs run
# before the clock starts (imports, compiled kernels).


Surface = tuple[Any, Callable[[Any], str], list[Any]]
"""(strategy, check, warm-up inputs) of one input surface."""


def graph_file_surface() -> Surface:
    from perfectplay.graphfile import format_solution, parse_graph
    from perfectplay.solvers.retrograde import solve_retrograde
    from perfectplay.verify import verify_graph_text

    def check(data: bytes) -> str:
        parsed = parse_graph(data)
        if parsed.graph.n > 10**5:
            return "accepted"
        text = format_solution(solve_retrograde(parsed.graph, parsed.primitive)).encode()
        report = verify_graph_text(data, text, workers=1)
        return "accepted" if report.ok else f"wrong: verify refuses the solver: {report.problems}"

    return mutated(GRAPH_SAMPLES, TOKENS), check, list(GRAPH_SAMPLES)


def problem_surface(name: str) -> Surface:
    from perfectplay.problems import get_problem

    problem = get_problem(name)
    seeds = PROBLEM_SAMPLES[name]
    if name == "make-you-happy":
        from perfectplay.problems.make_you_happy import SAMPLE

        seeds = [SAMPLE]

    def check(data: bytes) -> str:
        problem.solve(data)
        return "accepted"

    return mutated(seeds, TOKENS), check, seeds


def params_surface() -> Surface:
    from perfectplay.games.registry import game_entry, game_names, load_game
    from perfectplay.params import parse_params

    names = game_names()
    seeds = [b"x=1"]
    for name in names:
        seeds += [str(p).encode() for p in game_entry(name).parameters()]
    item = mutated(seeds, [*TOKENS, b"rows", b"cols", b"heaps", b"take", b"size", b"heap"])
    strategy = st.tuples(st.sampled_from(names), st.lists(item, max_size=3))

    def check(case: tuple[str, list[bytes]]) -> str:
        name, items = case
        params = parse_params(game_entry(name), [b.decode("utf-8", "replace") for b in items])
        game = load_game(name, **params)
        position = game.initial()
        list(game.moves(position))
        game.outcome(position)
        return "accepted"

    return strategy, check, [(name, []) for name in names]


def position_surface(name: str) -> Surface:
    from perfectplay.games.registry import load_game

    game = load_game(name)
    seeds, frontier = [], [game.initial()]
    for _ in range(4):  # renders of positions a few moves deep
        frontier = [move[1] for p in frontier[:20] for move in game.moves(p)]
        seeds += [game.render(p).encode() for p in frontier[:30]]
    seeds.append(game.render(game.initial()).encode())
    letters = sorted({bytes([c]) for s in seeds for c in s})

    def check(data: bytes) -> str:
        position = game.parse(data.decode("utf-8", "replace"))
        again = game.parse(game.render(position))
        if again != position:
            return f"wrong: {data!r} parses to {position!r}, its render to {again!r}"
        return "accepted"

    return mutated(seeds, [*TOKENS, *letters]), check, seeds[:3]


# ---------------------------------------------------------------------------- stores


def _base_stores(directory: str) -> list[tuple[str, bytes]]:
    """Small valid stores: two game stores, a graph store with draws and ties, a scored one."""
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game
    from perfectplay.graph import GameGraph
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.solvers.retrograde import solve_retrograde
    from perfectplay.store import save

    rng = np.random.default_rng(3)
    primitive = np.full(40, 255, np.uint8)
    primitive[[3, 9]] = 2  # TIE
    graph = GameGraph.from_edges(rng.integers(0, 40, 90), rng.integers(0, 40, 90), n=40)
    src = rng.integers(0, 39, 80)
    dst = src + 1 + rng.integers(0, 3, 80) % (40 - src - 1).clip(1)
    scored = GameGraph.from_edges(src, np.minimum(dst, 39), n=40, gain=rng.integers(-4, 5, 80))
    solved: list[tuple[str, Any]] = [
        ("tic-tac-toe", solve(load_game("tic-tac-toe"))),
        ("nim", solve(load_game("nim", heaps=(1, 2, 3)))),
        ("graph", solve_retrograde(graph, primitive)),
        ("scored", solve_dag(scored)),
    ]
    stores = []
    for name, solution in solved:
        path = os.path.join(directory, f"{name}.ppstore")
        save(path, solution, **({"primitive": primitive} if name == "graph" else {}))
        with open(path, "rb") as source:
            stores.append((name, source.read()))
    return stores


def _join(manifest: dict[str, Any], body: bytes) -> bytes:
    """A store file with `manifest` (checksummed, its size set) in front of the data `body`."""
    from perfectplay.store import file_head

    return file_head(manifest, len(body)) + body


@st.composite
def store_edits(draw: st.DrawFn, stores: list[tuple[str, bytes]]) -> tuple[int, bytes]:
    """(index of the base store, the corrupted bytes)."""
    from perfectplay.store import read_head

    k = draw(st.integers(0, len(stores) - 1))
    data = bytearray(stores[k][1])
    manifest, start = read_head(bytes(data))
    kind = draw(st.integers(0, 4))
    if kind == 0:  # bit flips
        for _ in range(draw(st.integers(1, 8))):
            bit = draw(st.integers(0, 8 * len(data) - 1))
            data[bit // 8] ^= 1 << (bit % 8)
    elif kind == 1:  # truncation
        del data[draw(st.integers(0, len(data) - 1)) :]
    elif kind == 2:  # another store's manifest over this data section
        other_manifest, _ = read_head(stores[draw(st.integers(0, len(stores) - 1))][1])
        data = bytearray(_join(other_manifest, bytes(data[start:])))
    elif kind == 3:  # an edited manifest, checksummed again
        key = draw(st.sampled_from([*manifest, "arrays"]))
        if key == "arrays":
            entry = manifest["arrays"][draw(st.sampled_from(sorted(manifest["arrays"])))]
            field = draw(st.sampled_from(["dtype", "shape", "offset", "nbytes", "crc32"]))
            entry[field] = draw(
                st.one_of(INTEGERS, st.sampled_from(["<i8", "|u1", "<f8", "x"]),
                          st.lists(INTEGERS, max_size=2))
            )  # fmt: skip
        elif draw(st.booleans()):
            del manifest[key]
        else:
            manifest[key] = draw(
                st.one_of(INTEGERS, st.none(), st.booleans(), st.text(max_size=5),
                          st.lists(INTEGERS, max_size=2))
            )  # fmt: skip
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            data = bytearray(_join(manifest, bytes(data[start:])))
    else:  # one array entry edited, its checksum and the manifest's recomputed
        name = draw(st.sampled_from(sorted(manifest["arrays"])))
        entry = manifest["arrays"][name]
        array = np.frombuffer(
            bytes(data), dtype=entry["dtype"], count=entry["shape"][0],
            offset=start + entry["offset"],
        ).copy()  # fmt: skip
        if array.size:
            i = draw(st.integers(0, array.size - 1))
            delta = draw(st.sampled_from([1, -1, 2, 255, 1 << 20]))
            bits = array.view(f"u{array.itemsize}")  # wrap around in the unsigned view
            bits[i] = (int(bits[i]) + delta) % (1 << 8 * array.itemsize)
            raw = array.tobytes()
            offset = start + entry["offset"]
            data[offset : offset + len(raw)] = raw
            entry["crc32"] = zlib.crc32(raw)
            data = bytearray(_join(manifest, bytes(data[start:])))
    return k, bytes(data)


def _arrays(path: str) -> dict[str, bytes]:
    from perfectplay.store import open_store

    with open_store(path, verify=False) as store:
        return {name: store.array(name).tobytes() for name in store.manifest["arrays"]}


def _same_rules(edited: dict[str, bytes], original: dict[str, bytes]) -> bool:
    """Whether two graph stores' primitive arrays differ only where a position has no moves
    and either array says LOSE or nothing (a stuck position is a LOSE either way)."""
    new = np.frombuffer(edited["primitive"], np.uint8)
    old = np.frombuffer(original["primitive"], np.uint8)
    indptr = np.frombuffer(original["indptr"], np.int32)
    stuck = np.diff(indptr) == 0
    loses = np.isin(new, (0, 255)) & np.isin(old, (0, 255))
    return bool((stuck & loses)[new != old].all())


def store_surface() -> Surface:
    from perfectplay.verify import verify_store

    directory = tempfile.mkdtemp(prefix="fuzz-store-")
    stores = _base_stores(directory)
    originals = [_arrays(os.path.join(directory, f"{name}.ppstore")) for name, _ in stores]
    path = os.path.join(directory, "case.ppstore")

    def check(case: tuple[int, bytes]) -> str:
        k, data = case
        with open(path, "wb") as out:
            out.write(data)
        report = verify_store(path, workers=1)
        if not report.ok:
            raise _Refuted
        arrays = _arrays(path)
        if arrays == originals[k]:
            return "accepted"  # e.g. a flip in the padding: the same store
        changed = {name for name in arrays if arrays[name] != originals[k].get(name)}
        if changed == {"primitive"} and _same_rules(arrays, originals[k]):
            return "accepted"  # a stuck position's LOSE made a rule, or back: the same game
        if stores[k][0] in ("graph", "scored") and changed <= {"indptr", "indices", "gain"}:
            return "rewired"
        return f"wrong: a corrupted {stores[k][0]} store was accepted ({sorted(changed)})"

    return store_edits(stores), check, [(k, data) for k, (_, data) in enumerate(stores)]


def web_surface() -> Surface:
    from starlette.testclient import TestClient

    from perfectplay.games.registry import game_names, load_game
    from perfectplay.store import save
    from perfectplay.web.app import create_app
    from perfectplay.web.solutions import SolutionCache, open_database

    directory = tempfile.mkdtemp(prefix="fuzz-web-")
    path = os.path.join(directory, "ttt.ppstore")
    from perfectplay.api import solve

    save(path, solve(load_game("tic-tac-toe")))
    client = TestClient(
        create_app([open_database("ttt", path)], cache=SolutionCache(max_positions=20_000))
    )
    client.__enter__()
    ttt = load_game("tic-tac-toe")
    positions = [ttt.render(ttt.initial()).encode(), b"XX.OO....", b"X........"]
    texts = mutated([*positions, b"c1,a1", b"heaps=1,2,3", b"rows=4;cols=4", b"size=3"], TOKENS)
    paths = st.sampled_from(
        [f"/api/games/{name}/position" for name in game_names()]
        + ["/api/databases/ttt/position", "/api/databases/x/position", "/api/games"]
    )
    keys = st.sampled_from(["params", "position", "moves", "x"])
    strategy = st.tuples(paths, st.lists(st.tuples(keys, texts), max_size=3))

    def check(case: tuple[str, list[tuple[str, bytes]]]) -> str:
        url, query = case
        params = [(k, v.decode("utf-8", "replace")) for k, v in query]
        response = client.get(url, params=params)
        body = response.json()  # every answer, errors included, is JSON
        if response.status_code >= 500 or not isinstance(body, dict):
            return f"wrong: {response.status_code} {body!r}"
        return "accepted" if response.status_code < 400 else "rejected"

    return strategy, check, [("/api/games", []), ("/api/databases/ttt/position", [])]


@st.composite
def tier_edits(draw: st.DrawFn, files: dict[str, bytes]) -> dict[str, bytes | None]:
    """A tier directory's files (None: deleted) after one corruption: bit flips, a truncation,
    two files swapped, a file deleted, or the manifest's JSON edited."""
    names = sorted(n for n in files if files[n])  # an empty file (the solve lock) has no bits
    out: dict[str, bytes | None] = dict(files)
    name = draw(st.sampled_from(names))
    data = bytearray(files[name])
    kind = draw(st.integers(0, 4))
    if kind == 0:
        for _ in range(draw(st.integers(1, 8))):
            bit = draw(st.integers(0, 8 * len(data) - 1))
            data[bit // 8] ^= 1 << (bit % 8)
        out[name] = bytes(data)
    elif kind == 1:
        out[name] = bytes(data[: draw(st.integers(0, len(data) - 1))])
    elif kind == 2:
        other = draw(st.sampled_from(names))
        out[name], out[other] = files[other], files[name]
    elif kind == 3:
        out[name] = None
    else:
        manifest = json.loads(files["manifest.json"])
        key = draw(st.sampled_from(sorted(manifest)))
        manifest[key] = draw(
            st.one_of(INTEGERS, st.none(), st.booleans(), st.text(max_size=5),
                      st.lists(INTEGERS, max_size=3))
        )  # fmt: skip
        out["manifest.json"] = json.dumps(manifest).encode()
    return out


def tier_surface() -> Surface:
    from perfectplay.games.registry import load_tiered_game
    from perfectplay.solved import open_tiers
    from perfectplay.tiers import solve_tiers
    from perfectplay.verify.tiers import verify_tiers

    base = tempfile.mkdtemp(prefix="fuzz-tiers-")
    solve_tiers(load_tiered_game("dodgem", size=3), os.path.join(base, "good"), progress=False)
    files = {}
    for name in sorted(os.listdir(os.path.join(base, "good"))):
        with open(os.path.join(base, "good", name), "rb") as source:
            files[name] = source.read()

    def records(directory: str) -> list[bytes]:
        with open_tiers(directory) as db:
            return [db.records(t).tobytes() for t in db.order]

    original = records(os.path.join(base, "good"))
    case = os.path.join(base, "case")

    def check(edited: dict[str, bytes | None]) -> str:
        os.makedirs(case, exist_ok=True)
        for name, data in edited.items():
            path = os.path.join(case, name)
            if data is None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
            else:
                with open(path, "wb") as out:
                    out.write(data)
        if not verify_tiers(case).ok:
            raise _Refuted
        if records(case) == original:
            return "accepted"  # e.g. a flip in an ignored field: the same solution
        return "wrong: a corrupted tier directory was accepted"

    return tier_edits(files), check, [files]


class _Refuted(PerfectPlayError):
    """verify refused a store (counted as rejected)."""


def surfaces() -> dict[str, Callable[[], Surface]]:
    """Every surface by name, each a factory run in the child process."""
    from perfectplay.games.registry import game_names
    from perfectplay.problems import problem_names

    table: dict[str, Callable[[], Surface]] = {"graph-file": graph_file_surface}
    for name in problem_names():
        table[f"problem:{name}"] = lambda name=name: problem_surface(name)
    table["params"] = params_surface
    for name in game_names():
        table[f"position:{name}"] = lambda name=name: position_surface(name)
    table["store"] = store_surface
    table["tier-files"] = tier_surface
    try:
        import perfectplay.web.app  # noqa: F401 - the web app, once it exists
    except ImportError:
        return table
    table["web-api"] = web_surface
    return table


# ---------------------------------------------------------------------------- running
def run_cases(
    name: str,
    cases: int,
    seed: int,
    counts: Any,
    beat: Any,
    current: Any,
    out: str | None,
) -> None:
    """Run `cases` inputs of surface `name` (in this process), updating the shared counters."""
    strategy, check, warm = surfaces()[name]()
    for data in warm:  # valid inputs: imports and compiled kernels loaded off the clock
        with contextlib.suppress(Exception):
            check(data)
    saved = [0]

    def record(kind: str, data: Any, text: str) -> None:
        if out is None or saved[0] >= SAVED:
            return
        saved[0] += 1
        safe = name.replace(":", "-")
        with open(os.path.join(out, f"{safe}-{kind}-{counts[0]}.txt"), "w") as report:
            report.write(f"input: {data!r}\n\n{text}\n")

    @hypothesis_seed(seed)
    @settings(
        max_examples=cases,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def one(data: Any) -> None:
        blob = repr(data).encode()[:MAX_INPUT]
        current[0][: len(blob)] = blob
        current[1].value = len(blob)
        beat[1] = time.monotonic()
        beat[0] = 1.0
        counts[0] += 1
        try:
            verdict = check(data)
        except PerfectPlayError:
            counts[2] += 1
        except Exception:  # a traceback: what the campaign looks for
            counts[3] += 1
            record("traceback", data, traceback.format_exc())
        else:
            if verdict == "rejected":
                counts[2] += 1
            elif verdict.startswith("wrong"):
                counts[4] += 1
                record("wrong", data, verdict)
            elif verdict == "rewired":
                counts[5] += 1
            else:
                counts[1] += 1
        beat[0] = 0.0

    one()


def _child(
    name: str, cases: int, seed: int, counts: Any, beat: Any, current: Any, out: Any
) -> None:
    import warnings

    warnings.simplefilter("ignore")
    run_cases(name, cases, seed, counts, beat, current, out)


def campaign(
    name: str, cases: int, timeout: float, out: str, budget: float, seed: int = 1
) -> dict[str, Any]:
    """Run one surface in child processes, restarting after a hang; return its figures.

    The surface stops after `cases` inputs or `budget` seconds, whichever comes first (an input
    cut short by the budget is not counted).
    """
    ctx = mp.get_context("fork")
    counts = ctx.Array("q", len(COUNTERS), lock=False)
    beat = ctx.Array("d", 2, lock=False)
    current = (ctx.Array("c", MAX_INPUT, lock=False), ctx.Value("q", 0, lock=False))
    hangs, crashes, start = 0, 0, time.monotonic()
    out_of_time = False
    while counts[0] < cases and not out_of_time:
        beat[0] = 0.0
        process = ctx.Process(
            target=_child, args=(name, cases - counts[0], seed, counts, beat, current, out)
        )
        process.start()
        killed = False  # by us, for a hang or the budget (not by the kernel's OOM killer)
        while process.is_alive():
            process.join(0.2)
            now = time.monotonic()
            if beat[0] and now - beat[1] > timeout:
                process.kill()
                process.join()
                killed = True
                hangs += 1
                text = bytes(current[0][: current[1].value])
                saved = os.path.join(out, f"{name.replace(':', '-')}-hang-{hangs}.txt")
                with open(saved, "wb") as hang:
                    hang.write(text)
            elif now - start > budget and process.is_alive():
                process.kill()
                process.join()
                killed = True
                counts[0] -= int(beat[0] > 0)  # the input cut short
                out_of_time = True
        if process.exitcode != 0 and not killed:
            crashes += 1  # the interpreter died: a segfault, an abort, the OOM killer
            counts[0] -= int(beat[0] > 0)
            text = bytes(current[0][: current[1].value])
            saved = os.path.join(out, f"{name.replace(':', '-')}-crash-{crashes}.txt")
            with open(saved, "wb") as crash:
                crash.write(text + f"\nexit code {process.exitcode}\n".encode())
        if process.exitcode == 0 and counts[0] < cases:
            break  # hypothesis ran out of distinct inputs
        seed += 1
        if crashes > 3:
            break
    seconds = time.monotonic() - start
    figures = dict(zip(COUNTERS, list(counts), strict=True))
    figures.update(hangs=hangs, crashes=crashes, seconds=round(seconds, 1))
    figures["rate"] = round(figures["inputs"] / seconds, 1) if seconds else 0.0
    return figures


def _timed(name: str, data: Any, result: Any) -> None:
    import warnings

    warnings.simplefilter("ignore")
    _, check, warm = surfaces()[name]()
    for sample in warm:
        with contextlib.suppress(Exception):
            check(sample)
    began = time.perf_counter()
    try:
        verdict = check(data)
    except PerfectPlayError:
        verdict = "rejected"
    except Exception as error:  # what the campaign looks for
        verdict = f"traceback: {type(error).__name__}"
    result.put((verdict, time.perf_counter() - began))


def recheck(folders: list[str], per_surface: int, limit: float) -> None:
    """Run inputs saved as over the time limit again, up to `limit` seconds each, and print
    how long each took: an input that finishes is slow, one that does not is a hang."""
    import ast
    import glob

    names = {name.replace(":", "-"): name for name in surfaces()}
    chosen: dict[str, list[tuple[str, Any]]] = {}
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*-hang-*.txt"))):
            safe = os.path.basename(path).rsplit("-hang-", 1)[0]
            with open(path, "rb") as saved:
                data = ast.literal_eval(saved.read().decode("utf-8", "replace"))
            picked = chosen.setdefault(names[safe], [])
            if len(picked) < per_surface and all(d != data for _, d in picked):
                picked.append((path, data))
    ctx = mp.get_context("fork")
    print("| surface | input | outcome | seconds |\n|---|---|---|---|")
    for name, inputs in chosen.items():
        for path, data in inputs:
            result = ctx.Queue()
            child = ctx.Process(target=_timed, args=(name, data, result))
            child.start()
            child.join(limit + 60)  # the warm-up is not timed
            if child.is_alive():
                child.kill()
                child.join()
                verdict, seconds = "still running: a hang", limit
            elif child.exitcode != 0:
                verdict, seconds = f"died (exit code {child.exitcode})", float("nan")
            else:
                verdict, seconds = result.get()
            shown = repr(data)[:60].replace("|", "\\|")
            print(f"| {name} | `{shown}` ({os.path.basename(path)}) | {verdict} | {seconds:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000, help="inputs per surface")
    parser.add_argument("--surfaces", nargs="*", help="only these surfaces (default: all)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    parser.add_argument("--out", default=None, help="directory for saved inputs and the summary")
    parser.add_argument(
        "--budget", type=float, default=float("inf"), help="seconds per surface at most"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="hypothesis seed (another seed, other inputs)"
    )
    parser.add_argument(
        "--recheck",
        nargs="+",
        metavar="FOLDER",
        help="instead of fuzzing: run the inputs saved as over --timeout in these --out "
        "folders again, with no limit but --recheck-limit, and time them",
    )
    parser.add_argument("--recheck-per-surface", type=int, default=5, help="inputs per surface")
    parser.add_argument("--recheck-limit", type=float, default=600.0, help="seconds per input")
    args = parser.parse_args()
    if args.recheck:
        recheck(args.recheck, args.recheck_per_surface, args.recheck_limit)
        return
    out = args.out or tempfile.mkdtemp(prefix="perfectplay-fuzz-")
    os.makedirs(out, exist_ok=True)
    names = args.surfaces or list(surfaces())
    unknown = sorted(set(names) - set(surfaces()))
    if unknown:
        parser.error(f"unknown surfaces {unknown}; known: {', '.join(surfaces())}")
    print(
        f"{'surface':<26}"
        + "".join(f"{c:>11}" for c in (*COUNTERS, "hangs", "crashes", "inputs/s"))
    )
    results = {}
    for name in names:
        figures = campaign(name, args.cases, args.timeout, out, args.budget, args.seed)
        results[name] = figures
        cells = [figures[c] for c in (*COUNTERS, "hangs", "crashes", "rate")]
        print(f"{name:<26}" + "".join(f"{c:>11}" for c in cells), flush=True)
        with open(os.path.join(out, "summary.json"), "w") as summary:
            json.dump(results, summary, indent=1)
    print(f"saved inputs and summary.json in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
