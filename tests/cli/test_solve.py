"""solve GAME: the engine chosen by size, said on one line, saved through one output option."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.cli.solve import TIER_THRESHOLD, choose_engine
from perfectplay.errors import InputFormatError, TooLargeError
from perfectplay.games.registry import load_game, load_tiered_game


def _ranks(name: str, **params: int) -> int:
    tiered = load_tiered_game(name, **params)
    return sum(tiered.tier_size(t) for t in tiered.tiers())


@pytest.mark.parametrize(
    ("name", "params"),
    [("connect-four", {}), ("connect-four", {"rows": 5, "cols": 5}), ("quixo", {"size": 3}),
     ("quixo", {}), ("dodgem", {})],
)  # fmt: skip
def test_auto_picks_the_tier_engine_exactly_above_the_threshold(
    name: str, params: dict[str, int]
) -> None:
    engine, why = choose_engine(load_game(name, **params), "auto", load_tiered_game(name, **params))
    assert engine == ("tiers" if _ranks(name, **params) > TIER_THRESHOLD else "memory")
    assert f"{_ranks(name, **params):,} ranks" in why


def test_a_game_without_a_tier_form_stays_in_memory_and_refuses_tiers() -> None:
    assert choose_engine(load_game("nim"), "auto", None) == (
        "memory",
        "the game has no tier form",
    )
    with pytest.raises(InputFormatError, match="no tier form"):
        choose_engine(load_game("nim"), "tiers", None)


def test_the_engine_line_names_the_engine_and_why() -> None:
    result = run_cli(["solve", "ttt"])
    assert result.code == 0
    assert (
        result.err == "perfectplay: solving with the in-memory engine: the game has no tier form\n"
    )
    assert result.out.startswith("tic-tac-toe: solved in")


def test_out_writes_a_store_in_memory_and_a_directory_on_the_tier_engine(tmp_path: Path) -> None:
    store = tmp_path / "d.ppstore"
    assert run_cli(["solve", "dodgem", "-o", str(store)]).code == 0
    assert store.is_file()
    tiers = tmp_path / "d-tiers"
    result = run_cli(["solve", "dodgem", "--engine", "tiers", "-o", str(tiers)])
    assert result.code == 0 and (tiers / "manifest.json").is_file()
    for saved in (store, tiers):  # both answer alike
        query = run_cli(["query", str(saved), "--json"])
        assert '"value": "WIN"' in query.out


def test_save_and_tiers_stay_aliases(tmp_path: Path) -> None:
    assert run_cli(["solve", "nim", "--save", str(tmp_path / "n.ppstore")]).code == 0
    assert run_cli(["solve", "dodgem", "--tiers", str(tmp_path / "t")]).code == 0
    assert (tmp_path / "t" / "manifest.json").is_file()
    both = run_cli(["solve", "nim", "-o", "x", "--save", "y"])
    assert both.code == 2 and "give one of -o, --save and --tiers" in both.err


def test_a_game_too_large_for_memory_names_what_would_work() -> None:
    result = run_cli(["solve", "quixo", "--engine", "memory"])
    assert result.code == 2 and len(result.err.splitlines()) == 1
    assert "what would work: the tier engine (--engine tiers) or smaller size (--param size=" in (
        result.err
    )
    assert result.err.rstrip().endswith("--max-positions N if memory allows")
    no_tiers = run_cli(["solve", "nim", "--param", "heaps=9,9,9,9,9,9,9", "--max-positions", "9"])
    assert no_tiers.code == 2 and "--engine tiers" not in no_tiers.err
    assert "what would work: smaller heaps (--param heaps=..., see perfectplay games)" in (
        no_tiers.err
    )


@pytest.mark.parametrize("where", ["directory", "missing folder"])
def test_an_output_that_cannot_be_written_is_refused_before_solving(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unsolved(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the output was checked")

    monkeypatch.setattr("perfectplay.api.solve", unsolved)
    monkeypatch.setattr("perfectplay.solvers.retrograde.solve_retrograde", unsolved)
    out = tmp_path if where == "directory" else tmp_path / "no" / "x.ppstore"
    reason = "Is a directory" if where == "directory" else "No such file or directory"
    for target in ("ttt", "-"):
        result = run_cli(["solve", target, "-o", str(out)], "1 0\n")
        assert (result.code, result.out) == (2, "")
        assert result.err.endswith(f"perfectplay: error: cannot write {out}: {reason}\n")
    assert list(tmp_path.iterdir()) == []


def refusing(error: TooLargeError) -> Callable[..., None]:
    """A stand-in for ``solve`` that refuses with `error`."""

    def solve(game: object, max_positions: int) -> None:
        raise error

    return solve


def test_a_refusal_is_worded_from_the_error_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's finding is kept whole (a ';' in it included) and the limit it names, not
    its text, decides the advice."""
    found = TooLargeError("up to 9 boards; say, 9", limit="max_positions", estimate=9)
    monkeypatch.setattr("perfectplay.api.solve", refusing(found))
    result = run_cli(["solve", "nim"])
    assert result.code == 2
    assert result.err.rstrip().endswith(
        "up to 9 boards; say, 9; what would work: smaller heaps (--param heaps=..., see "
        "perfectplay games) or --max-positions N if memory allows"
    )
    memory = TooLargeError("max_positions=9 would need 1 TiB", limit="memory", estimate=2**40)
    monkeypatch.setattr("perfectplay.api.solve", refusing(memory))
    result = run_cli(["solve", "nim"])
    assert result.code == 2 and "--max-positions" not in result.err


def test_only_solves_the_named_tiers_and_the_missing_ones_they_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quixo 3x3 with the files of a tier, of one it reads and of one it does not read
    removed: ``--only`` solves the first two again, byte for byte, and leaves the third out.
    A tier named whose file is there is not solved, so not refused for its memory."""
    directory = tmp_path / "q"
    assert run_cli(["solve", "quixo", "--param", "size=3", "--tiers", str(directory)]).code == 0
    solved = {p.name: p.read_bytes() for p in directory.glob("*.tier")}
    gone = ["tier-1Blank_1X_7O.tier", "tier-0Blank_2X_7O.tier", "tier-4Blank_1X_4O.tier"]
    for name in gone:
        (directory / name).unlink()
    args = ["solve", "quixo", "--param", "size=3", "--tiers", str(directory), "--jobs", "2"]
    result = run_cli([*args, "--only", "1Blank_1X_7O", "--json"])
    assert result.code == 0, result.err
    record = json.loads(result.out)
    assert record["only"] == ["1Blank_1X_7O"]
    assert (record["run"]["tiers_solved"], record["run"]["tiers_kept"]) == (2, 1)
    now = {p.name: p.read_bytes() for p in directory.glob("*.tier")}
    assert now == {k: v for k, v in solved.items() if k != gone[2]}
    text = run_cli([*args, "--only", "1Blank_1X_7O, 1Blank_1X_7O"])  # a label named twice
    assert text.code == 0, text.err
    assert text.out.startswith("quixo: 1Blank_1X_7O and the tiers they read: 0 solved")
    assert text.out.endswith(" s, 3 complete already\n")
    monkeypatch.setattr("perfectplay._memory.available_bytes", lambda: 10_000)
    large = run_cli([*args, "--only", "3Blank_3X_3O"])  # 38,640 bytes to solve it
    assert large.code == 0 and ": 0 solved (0 chunks)" in large.out, large.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "tiers", "--only", "1Blank_1X_7O"], "--only solves some tiers into a"),
        (["--tiers", "D", "--only", "9X"], "--only: quixo has no tier labelled '9X'"),
        (["--tiers", "D", "--only", " , "], "--only: give the labels of the tiers to solve"),
        (["--engine", "memory", "--only", "1Blank_1X_7O"], "apply with --tiers DIR"),
    ],
)
def test_only_refuses_bad_labels_and_other_engines(
    tmp_path: Path, args: list[str], message: str
) -> None:
    args = [str(tmp_path / "d") if a == "D" else a for a in args]
    result = run_cli(["solve", "quixo", "--param", "size=3", *args])
    assert result.code == 2 and message in result.err and result.out == ""
    assert len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()
