"""Tests of perfectplay.verify: correct solutions pass, every single mutation is refuted."""

from __future__ import annotations

import itertools
import re

import brute
import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.graph import GameGraph
from perfectplay.graphfile import format_solution
from perfectplay.solution import Solution
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN
from perfectplay.verify import check_solution, parse_solution, verify_graph_text, verify_store
from perfectplay.verify.rules import chunks


@st.composite
def games(draw: st.DrawFn, max_n: int = 10) -> tuple[GameGraph, list[int], bool]:
    """A random game: cycles, self-loops, multi-edges, stuck and primitive positions."""
    n = draw(st.integers(1, max_n))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=3 * n))
    code = st.sampled_from([UNDECIDED, UNDECIDED, UNDECIDED, WIN, LOSE, TIE])
    primitive = draw(st.lists(code, min_size=n, max_size=n))
    graph = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n)
    return graph, primitive, draw(st.booleans())


def _solved(graph: GameGraph, primitive: list[int], misere: bool) -> tuple[np.ndarray, np.ndarray]:
    edges = list(zip(graph_sources(graph).tolist(), graph.indices.tolist(), strict=True))
    value, remoteness = brute.retrograde(graph.n, edges, primitive, misere=misere)
    return np.array(value, np.uint8), np.array(remoteness, np.int64)


def graph_sources(graph: GameGraph) -> np.ndarray:
    return np.repeat(np.arange(graph.n), np.diff(graph.indptr))


def _check(graph: GameGraph, value, remoteness, primitive, misere):  # type: ignore[no-untyped-def]
    return check_solution(
        graph.indptr, graph.indices, value, remoteness, np.array(primitive, np.uint8),
        misere=misere,
    )  # fmt: skip


@settings(max_examples=500)
@given(games())
def test_every_correct_solution_is_accepted(game: tuple[GameGraph, list[int], bool]) -> None:
    graph, primitive, misere = game
    value, remoteness = _solved(graph, primitive, misere)
    report = _check(graph, value, remoteness, primitive, misere)
    assert report.ok, report.problems
    assert (report.positions, report.moves) == (graph.n, graph.m)


@settings(max_examples=150)
@given(games(max_n=7))
def test_every_single_mutation_is_rejected(game: tuple[GameGraph, list[int], bool]) -> None:
    graph, primitive, misere = game
    value, remoteness = _solved(graph, primitive, misere)
    for p in range(graph.n):
        for v in (LOSE, DRAW, TIE, WIN, 7):
            for r in range(-2, graph.n + 2):
                if (v, r) == (int(value[p]), int(remoteness[p])):
                    continue
                bad_value, bad_remoteness = value.copy(), remoteness.copy()
                bad_value[p], bad_remoteness[p] = v, r
                report = _check(graph, bad_value, bad_remoteness, primitive, misere)
                assert not report.ok, (p, v, r)
                assert report.problems and report.bad >= 1


def test_the_offender_and_its_reason_are_named() -> None:
    # 0 -> 1 -> 2: claim that 1 loses in 3; its move to 2 leaves the opponent LOSE 0.
    graph = GameGraph.from_edges([0, 1], [1, 2], n=5)  # 3 and 4: stuck, LOSE 0
    report = _check(graph, np.array([WIN, LOSE, LOSE, LOSE, LOSE], np.uint8),
                    np.array([2, 3, 0, 0, 0]), [UNDECIDED] * 5, False)  # fmt: skip
    assert report.bad == 2
    assert report.problems[0] == (
        "position 0: WIN 2 but move to 1 gives LOSE 3 to the opponent (its moves imply WIN 4)"
    )
    assert report.problems[1] == (
        "position 1: LOSE 3 but move to 2 gives LOSE 0 to the opponent (its moves imply WIN 1)"
    )


def test_rules_and_stuck_positions_are_checked() -> None:
    graph = GameGraph.from_edges([0], [1], n=3)
    primitive = [TIE, UNDECIDED, UNDECIDED]
    report = _check(graph, np.array([TIE, WIN, LOSE], np.uint8), np.array([1, 0, 0]),
                    primitive, False)  # fmt: skip
    assert report.problems == [
        "position 0: TIE 1 but the rules fix TIE 0",
        "position 1: WIN 0 but it has no moves (LOSE 0)",
    ]


def test_draws_must_be_closed() -> None:
    # 0 <-> 1 is an endless chase, but 1 can also move to the stuck 2 and win.
    graph = GameGraph.from_edges([0, 1, 1], [1, 0, 2], n=3)
    value = np.array([DRAW, DRAW, LOSE], np.uint8)
    report = _check(graph, value, np.array([-1, -1, 0]), [UNDECIDED] * 3, False)
    assert report.problems == [
        "position 1: DRAW but move to 2 gives LOSE 0 to the opponent (its moves imply WIN 1)"
    ]


@settings(max_examples=200)
@given(games(max_n=8), st.data())
def test_scores_are_checked_against_gains(game, data) -> None:  # type: ignore[no-untyped-def]
    graph, _, _ = game
    acyclic = graph_sources(graph) < graph.indices  # keep the moves to larger ids: a DAG
    src, dst = graph_sources(graph)[acyclic], graph.indices[acyclic]
    gain = data.draw(st.lists(st.integers(-5, 5), min_size=src.size, max_size=src.size))
    dag = GameGraph.from_edges(src, dst, n=graph.n, gain=np.array(gain, np.int64))
    gains = dag.gain.tolist() if dag.gain is not None else []
    edges = list(zip(graph_sources(dag).tolist(), dag.indices.tolist(), gains, strict=True))
    value, remoteness, score = brute.dag_negamax(dag.n, edges)
    args = (dag.indptr, dag.indices, np.array(value, np.uint8), np.array(remoteness))
    score_array = np.array(score, np.int64)
    terminal = np.zeros(dag.n, np.int64)
    assert check_solution(*args, score=score_array, gain=dag.gain, terminal_score=terminal).ok
    p = data.draw(st.integers(0, dag.n - 1))
    score_array[p] += data.draw(st.sampled_from([-1, 1]))
    assert not check_solution(*args, score=score_array, gain=dag.gain, terminal_score=terminal).ok


def test_chunks_cover_every_position_once() -> None:
    indptr = np.cumsum([0, *np.random.default_rng(1).integers(0, 9, 1000)])
    ranges = list(chunks(indptr, size=50))
    assert ranges[0][0] == 0 and ranges[-1][1] == 1000
    assert all(a < b and b == c for (a, b), (c, _) in itertools.pairwise(ranges))


def test_chunked_check_matches_one_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.verify.rules as rules

    rng = np.random.default_rng(5)
    graph = GameGraph.from_edges(rng.integers(0, 300, 900), rng.integers(0, 300, 900), n=300)
    value, remoteness = _solved(graph, [UNDECIDED] * 300, False)
    value[7] = DRAW if value[7] != DRAW else WIN
    whole = _check(graph, value, remoteness, [UNDECIDED] * 300, False)
    monkeypatch.setattr(rules, "CHUNK_MOVES", 17)
    monkeypatch.setattr(rules.chunks, "__defaults__", (17,))
    assert _check(graph, value, remoteness, [UNDECIDED] * 300, False).bad == whole.bad >= 1


# ---------------------------------------------------------------- text and store front ends


def test_solution_text_round_trip() -> None:
    graph = GameGraph.from_edges([0, 1, 3], [1, 2, 3], n=4)
    value, remoteness = _solved(graph, [UNDECIDED] * 4, False)
    text = format_solution(Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    shuffled = "\r\n".join(reversed(text.splitlines())) + "\n\n"
    got_value, got_remoteness = parse_solution(shuffled.encode(), 4)
    assert got_value.tolist() == value.tolist()
    assert got_remoteness.tolist() == remoteness.tolist()
    assert remoteness[3] == NO_REMOTENESS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"0 WIN 1\n1 LOSE\n", "line 2: expected `id VALUE remoteness`, got 2 tokens"),
        (b"0 WIN 1\nx LOSE 0\n", "line 2: expected a position id (an integer): 'x'"),
        (b"0 WIN 1\n5 LOSE 0\n", "line 2: position out of range 0..1: '5'"),
        (b"0 WIN 1\n1 LOST 0\n", "line 2: unknown value: 'LOST'"),
        (b"0 WIN 1\n1 LOSE 0x\n", "line 2: expected a remoteness (an integer, or - for a DRAW)"),
        (b"0 WIN 1\n0 LOSE 0\n", "line 2: position 0 appears a second time"),
        (b"0 WIN 1\n", "line 1: no line for position 1 (1 of 2 given)"),
        (b"0 WIN 1234567890123456789\n1 LOSE 0\n", "line 1: expected a remoteness"),
    ],
)
def test_bad_solution_text_is_named(text: bytes, message: str) -> None:
    with pytest.raises(InputFormatError, match="^" + re.escape(message)):
        parse_solution(text, 2)


@pytest.mark.parametrize("text", [b"", b"\n\n", b"  \r\n"])
def test_an_empty_solution_solves_only_the_empty_graph(text: bytes) -> None:
    # Found by the fuzz campaign: an empty text raised IndexError instead of being read.
    assert parse_solution(text, 0)[0].size == 0
    assert verify_graph_text(b"# no position\n0 0\n", text).ok
    with pytest.raises(InputFormatError, match=r"no line for position 0 \(0 of 3 given\)"):
        parse_solution(text, 3)


def test_graph_text_primitives_are_honoured() -> None:
    graph = b"2 1\n0 1\n0 TIE\n"
    assert verify_graph_text(graph, b"0 TIE 0\n1 LOSE 0\n").ok
    assert not verify_graph_text(graph, b"0 WIN 1\n1 LOSE 0\n").ok


def test_cli_verify_graph_and_solution(tmp_path) -> None:  # type: ignore[no-untyped-def]
    graph = tmp_path / "g.txt"
    graph.write_text("5 4\n0 1\n1 2\n3 3\n4 0\n4 TIE\n")
    solved = run_cli(["solve", str(graph)])
    good = tmp_path / "s.txt"
    good.write_text(solved.out)
    result = run_cli(["verify", str(graph), str(good)])
    assert (
        result.code == 0
        and result.out.startswith("verified: ")
        and len(result.out.splitlines()) == 1
    )
    bad = tmp_path / "bad.txt"
    bad.write_text(solved.out.replace("0 LOSE 2", "0 LOSE 3"))
    result = run_cli(["verify", str(graph), str(bad)])
    assert result.code == 1
    assert "position 0: LOSE 3 but move to 1 gives WIN 1 to the opponent" in result.out
    assert run_cli(["verify", str(graph)]).code == 2
    assert run_cli(["verify", str(graph), str(tmp_path / "missing")]).code == 2


def test_store_is_verified_and_a_mutation_refuted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ttt.ppstore"
    assert run_cli(["solve", "tic-tac-toe", "--save", str(path)]).code == 0
    report = verify_store(path)
    assert report.ok and report.positions == 765
    result = run_cli(["verify", str(path)])
    assert result.code == 0 and "765 positions" in result.out


def test_scored_graph_store_is_verified(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], n=4, gain=[1, 5, -2, 3])
    solution = solve_dag(graph)
    path = tmp_path / "scored.ppstore"
    save(path, solution)
    assert verify_store(path).ok
    assert solution.score is not None
    solution.score[0] += 1
    save(path, solution)
    report = verify_store(path)
    assert report.problems == [
        "position 0: score 4 but move to 1 gains 1 and leaves the opponent -2 "
        "(its moves imply score 3)"
    ]


def test_graph_store_mutation_is_refuted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 1, 3], [1, 2, 3], n=4)
    value, remoteness = _solved(graph, [UNDECIDED] * 4, False)
    path = tmp_path / "g.ppstore"
    save(path, Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    assert verify_store(path).ok
    remoteness[0] += 2
    save(path, Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    result = run_cli(["verify", str(path)])
    assert result.code == 1 and "position 0: LOSE 4" in result.out


def test_graph_store_primitives_are_checked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    graph = tmp_path / "g.txt"
    graph.write_text("3 2\n0 1\n1 2\n1 TIE\n")
    path = tmp_path / "g.ppstore"
    assert run_cli(["solve", str(graph), "--save", str(path)]).code == 0
    assert verify_store(path).ok
    from perfectplay.store import open_store, save

    with open_store(path) as store:
        solution = store.solution()
        value, remoteness = solution.value.copy(), solution.remoteness.copy()
        primitive = store.array("primitive").copy()
    value[1], value[0] = WIN, LOSE  # what the rules fixed at 1, changed consistently at 0
    remoteness[0] = 1
    save(path, Solution(solution.graph, value, remoteness, solver="edited"), primitive=primitive)
    assert verify_store(path).problems == ["position 1: WIN 0 but the rules fix TIE 0"]


# ---------------------------------------------------------------- tier databases


@pytest.mark.parametrize(
    ("name", "params"), [("dodgem", {"size": 3}), ("connect-four", {"rows": 3, "cols": 4})]
)
def test_tier_database_is_verified_and_every_sampled_mutation_refuted(
    name: str, params: dict[str, int]
) -> None:
    from perfectplay.games.registry import load_tiered_game
    from perfectplay.tiers import solve_tiers
    from perfectplay.tiers.records import pack, unpack
    from perfectplay.verify.tiers import check_tier_database

    db = solve_tiers(load_tiered_game(name, **params), progress=False, jobs=1)
    report = check_tier_database(db)
    assert report.ok, report.problems
    assert report.positions > 0 and report.moves > 0
    rng = np.random.default_rng(1)
    for tier in rng.choice(db.order, size=min(4, len(db.order)), replace=False).tolist():
        records = db.records(tier)
        value, remoteness = unpack(records)
        present = np.flatnonzero(value != UNDECIDED)
        if not present.size:
            continue
        rank = int(rng.choice(present))
        saved = records.copy()
        for v, r in ((WIN, 0), (LOSE, 1), (TIE, 3), (DRAW, -1)):
            if (v, r) == (int(value[rank]), int(remoteness[rank])):
                continue
            changed_value, changed_remoteness = value.copy(), remoteness.copy()
            changed_value[rank], changed_remoteness[rank] = v, r
            records[:] = pack(changed_value, changed_remoteness, records.dtype.type)
            refused = check_tier_database(db)
            assert not refused.ok and f"rank {rank}" in " ".join(refused.problems)
        records[:] = saved


def test_cli_verify_tier_directory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    directory = tmp_path / "dodgem"
    assert run_cli(["solve", "dodgem", "--tiers", str(directory)]).code == 0
    result = run_cli(["verify", str(directory)])
    assert result.code == 0 and result.out.startswith("verified: the tier directory")


def test_graph_store_records_its_rules_even_when_saved_from_python(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.solvers.dag import solve_dag
    from perfectplay.store import save

    graph = GameGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], n=4, gain=[1, 5, -2, 3])
    solution = solve_dag(graph, np.array([UNDECIDED, UNDECIDED, WIN, UNDECIDED], np.uint8))
    path = tmp_path / "scored.ppstore"
    save(path, solution)  # no primitive given: read off the solution, with terminal scores
    assert verify_store(path).ok and not verify_store(path).notes
    solution.remoteness[1] = 0  # a position with moves made to look over: not a rule
    save(path, solution, primitive=np.array([UNDECIDED, UNDECIDED, WIN, UNDECIDED], np.uint8))
    problems = " ".join(verify_store(path).problems)
    assert "position 1: WIN 0" in problems


def test_game_store_start_code_must_be_the_initial_positions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game
    from perfectplay.store import save

    game = load_game("nim", heaps=(1, 2))
    solved = solve(game)
    path = tmp_path / "nim.ppstore"
    save(path, solved)
    assert verify_store(path).ok
    codes = np.array(solved.codes, dtype=np.int64)
    start = solved.id_of(solved.initial)
    codes[start] = game.encode((2, 1))  # the same position, not its canonical code
    save(path, solved.solution, game="nim", params={"heaps": [1, 2]}, codes=codes, start=start)
    assert (
        "the start is not stored under the initial position's code" in verify_store(path).problems
    )
