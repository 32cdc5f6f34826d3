"""Geography benchmark: time to solve vertex geography from every vertex (matching + D(G)).

Each row builds its graph with numpy (fixed seed, not timed) as an undirected GameGraph, then
times ``solve_geography(graph)``: the 2-colouring, the maximum matching and the Gallai–Edmonds
set D(G), i.e. the whole answer. Best of ``--repeats`` runs after a warm-up on a tiny graph
(numba cache filled).

networkx is timed on the same graph for the rows marked so (its matching only:
``hopcroft_karp_matching`` for bipartite graphs, ``max_weight_matching(maxcardinality=True)``
otherwise; networkx has no D(G), so its figure is a lower bound), in a child process killed
after ``--nx-timeout`` seconds. Rows where networkx is known to need far longer than that
(or several GB to hold the graph) say "skipped".

Rows (full size; ``--quick`` divides every size by about 10 to 100):

- grid 2000 x 2000 with 10% random walls, free cells only (target <= 2.5 s);
- random bipartite graph, 10^6 vertices, 5 x 10^6 random edges (target <= 1 s);
- random general graph, 10^6 vertices, mean degree 4 (target <= 2 s), and 10^5 (<= 0.1 s);
- smaller twins of each kind on which networkx finishes, for the ratio;
- then, timed whole: two tokens on an open 40 x 40 board (~1.3 M positions), building the
  position graph plus solving it (target <= 3 s).

Run: ``.venv/bin/python benchmarks/bench_geography.py [--quick] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import dataclass

import numpy as np

from perfectplay.graph import GameGraph
from perfectplay.solvers.geography import solve_geography

SEED = 20261121


@dataclass(frozen=True)
class Row:
    kind: str  # "grid", "bipartite" or "general"
    size: int  # grid side, or number of vertices
    edges: int  # random graphs: number of undirected edges
    networkx: bool  # time networkx too


def grid_edges(side: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:  # type: ignore[type-arg]
    """Edges between orthogonally adjacent free cells of a side x side grid, 10% walls."""
    free = rng.random((side, side)) >= 0.10
    ids = np.full((side, side), -1, dtype=np.int64)
    ids[free] = np.arange(int(free.sum()))
    horizontal = free[:, :-1] & free[:, 1:]
    vertical = free[:-1, :] & free[1:, :]
    src = np.concatenate([ids[:, :-1][horizontal], ids[:-1, :][vertical]])
    dst = np.concatenate([ids[:, 1:][horizontal], ids[1:, :][vertical]])
    return src, dst, int(free.sum())


def build(row: Row) -> GameGraph:
    rng = np.random.default_rng(SEED)
    if row.kind == "grid":
        src, dst, n = grid_edges(row.size, rng)
    elif row.kind == "bipartite":
        n = row.size
        src = rng.integers(0, n // 2, row.edges)
        dst = rng.integers(n // 2, n, row.edges)
    else:
        n = row.size
        src = rng.integers(0, n, row.edges)
        dst = rng.integers(0, n, row.edges)
    return GameGraph.from_edges(src, dst, n=n, undirected=True)


def networkx_child(row: Row, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    import networkx as nx

    graph = build(row)
    rows = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    keep = rows < graph.indices
    nxg = nx.Graph()
    nxg.add_nodes_from(range(graph.n))
    nxg.add_edges_from(zip(rows[keep].tolist(), graph.indices[keep].tolist(), strict=True))
    if row.kind == "general":
        start = time.perf_counter()
        nx.max_weight_matching(nxg, maxcardinality=True)
    else:
        top = {v for v, side in nx.bipartite.color(nxg).items() if side == 0}
        start = time.perf_counter()
        nx.bipartite.hopcroft_karp_matching(nxg, top_nodes=top)
    out.put(time.perf_counter() - start)


def time_networkx(row: Row, timeout: float) -> float | None:
    """networkx's matching time in a child process, or None if it ran out of time."""
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    child = multiprocessing.Process(target=networkx_child, args=(row, queue))
    child.start()
    child.join(timeout + 60)  # building the networkx graph is not timed
    if child.is_alive():
        child.kill()
        child.join()
        return None
    seconds = queue.get() if not queue.empty() else None
    return None if seconds is None or seconds > timeout else float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes divided by 10 to 100")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--nx-timeout", type=float, default=60.0, help="seconds for networkx")
    args = parser.parse_args()
    q = 10 if args.quick else 1
    rows = [
        Row("grid", 2000 // q, 0, False),
        Row("grid", 200 // q * 2, 0, True),
        Row("bipartite", 10**6 // q, 5 * 10**6 // q, False),
        Row("bipartite", 10**5 // q, 5 * 10**5 // q, True),
        Row("general", 10**6 // q, 2 * 10**6 // q, False),
        Row("general", 10**5 // q, 2 * 10**5 // q, False),
        Row("general", 2000 // q, 4000 // q, True),
    ]
    solve_geography(GameGraph.from_edges([0, 1, 2], [1, 2, 0], undirected=True))  # warm-up
    solve_geography(GameGraph.from_edges([0, 1], [1, 2], undirected=True))
    print(f"solve_geography, best of {args.repeats} (seconds; networkx: matching only)")
    header = (
        f"{'graph':<28} {'vertices':>10} {'edges':>11} {'matching':>10} {'|D(G)|':>9} "
        f"{'algorithm':<26} {'seconds':>8} {'networkx':>10} {'ratio':>7}"
    )
    print(header)
    for row in rows:
        graph = build(row)
        best = float("inf")
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = solve_geography(graph)
            best = min(best, time.perf_counter() - start)
        if row.kind == "grid":
            name = f"grid {row.size}x{row.size}, 10% walls"
        else:
            name = f"random {row.kind}, deg {2 * row.edges / row.size:.0f}"
        if row.networkx:
            nx_seconds = time_networkx(row, args.nx_timeout)
            nx_text = f"{nx_seconds:>10.3f}" if nx_seconds is not None else f"{'> timeout':>10}"
            ratio = f"{nx_seconds / best:>7.0f}" if nx_seconds is not None else f"{'-':>7}"
        else:
            nx_text, ratio = f"{'skipped':>10}", f"{'-':>7}"
        print(
            f"{name:<28} {graph.n:>10,} {graph.m // 2:>11,} {result.matching_size:>10,} "
            f"{int(result.in_d.sum()):>9,} {result.algorithm:<26} {best:>8.3f} {nx_text} {ratio}",
            flush=True,
        )
        del graph, result
    two_tokens(40 // q, args.repeats)


def two_tokens(side: int, repeats: int) -> None:
    """Print the best time of building + solving two tokens on an open side x side board."""
    from perfectplay.builders.two_tokens import TwoTokens

    solve_geography(TwoTokens(np.ones((3, 3), dtype=bool)).graph())  # warm-up
    best_build = best_total = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        graph = TwoTokens(np.ones((side, side), dtype=bool)).graph()
        built = time.perf_counter()
        solve_geography(graph)
        best_build = min(best_build, built - start)
        best_total = min(best_total, time.perf_counter() - start)
    print(
        f"two tokens, open {side}x{side} board: {graph.n:,} positions, {graph.m // 2:,} edges; "
        f"position graph {best_build:.3f} s, graph + solve {best_total:.3f} s (best of {repeats})"
    )


if __name__ == "__main__":
    main()
