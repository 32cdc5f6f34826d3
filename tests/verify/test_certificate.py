"""verify_certificate_file: every case of a certificate file checked, and what it proves."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from perfectplay.solvers.certificate import save_certificates
from perfectplay.solvers.geography import solve_geography
from perfectplay.verify.certificate import verify_certificate_file


def _solved(n: int, edges: list[tuple[int, int]]):  # type: ignore[no-untyped-def]
    ends = np.array(edges, dtype=np.int64).reshape(-1, 2)
    return solve_geography(np.vstack([ends, [[v, v] for v in range(n)]]))


def test_the_file_report_sums_the_cases_and_notes_the_general_ones(tmp_path: Path) -> None:
    path = tmp_path / "cert.npz"
    graphs = [(5, [(0, 1), (1, 2), (2, 3)]), (3, [(0, 1), (1, 2), (2, 0)])]
    results = [_solved(n, edges) for n, edges in graphs]
    save_certificates(str(path), results)
    checked = verify_certificate_file(str(path))
    assert checked.report.ok and checked.cases == 2
    assert checked.report.positions == 5 + 3
    assert checked.losers == 1 + 3  # the isolated vertex 4; every vertex of the triangle
    assert checked.matched_edges == 2 + 1  # the path 0-1-2-3 and the triangle
    assert [note[:6] for note in checked.report.notes] == ["case 2"]


def test_a_damaged_case_is_reported_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "cert.npz"
    save_certificates(str(path), [_solved(3, [(0, 1)]), _solved(4, [(0, 1), (2, 3)])])
    damaged = dict(np.load(path))
    damaged["1.losers"] = ~damaged["1.losers"]
    np.savez(tmp_path / "bad.npz", **damaged)
    checked = verify_certificate_file(str(tmp_path / "bad.npz"))
    assert not checked.report.ok
    assert all(problem.startswith("case 2: ") for problem in checked.report.problems)
