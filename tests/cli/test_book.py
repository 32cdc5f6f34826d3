"""The book command (perfectplay.cli.book): what it reports, resuming, and refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import run_cli

from perfectplay.errors import StoreError
from perfectplay.games.registry import load_game
from perfectplay.search import book as search_book


def _classes_within(depth: int) -> int:
    """Tic-tac-toe's symmetry classes within `depth` moves of the start, by breadth-first search."""
    game = load_game("tic-tac-toe")
    layer = {game.canonical(game.initial())}
    seen = set(layer)
    for _ in range(depth):
        layer = {
            game.canonical(child)
            for p in layer
            if game.outcome(p) is None
            for _, child, *_ in game.moves(p)
        } - seen
        seen |= layer
    return len(seen)


def test_the_book_holds_every_class_within_its_depth_and_resumes_an_interrupted_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "ttt.book"
    args = ["book", "tic-tac-toe", "--depth", "3", "-o", str(book), "--jobs", "1", "--weak"]

    def crash(*args: object) -> None:  # every search done and journalled, the book unwritten
        raise StoreError("the disk is full")

    monkeypatch.setattr(search_book, "_write", crash)
    broken = run_cli(args)
    assert broken.code == 2 and "the disk is full" in broken.err and not book.exists()
    monkeypatch.undo()
    made = run_cli(args)
    assert made.code == 0 and made.out == "" and book.exists(), made.err
    counts = re.search(
        r"([\d,]+) positions of depth <= 3 \(([\d,]+) searched, ([\d,]+) kept", made.err
    )
    assert counts is not None, made.err
    total, searched, kept = (int(x.replace(",", "")) for x in counts.groups())
    assert total == kept == _classes_within(3) and searched == 0
    assert not (tmp_path / "ttt.book.journal").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["--memory", "lots"], "--memory"),
    ],
)
def test_bad_options_are_one_error_line_with_exit_2(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    out = tmp_path / "b.book"
    result = run_cli(["book", "tic-tac-toe", "--depth", "1", "-o", str(out), *extra])
    assert result.code == 2 and message in result.err
    assert len(result.err.strip().splitlines()) == 1 and not out.exists()


def test_depth_and_file_are_required(tmp_path: Path) -> None:
    assert run_cli(["book", "tic-tac-toe", "-o", str(tmp_path / "b")]).code == 2
    assert run_cli(["book", "tic-tac-toe", "--depth", "1"]).code == 2
    unknown = run_cli(["book", "tictac", "--depth", "1", "-o", str(tmp_path / "b")])
    assert unknown.code == 2 and "did you mean" in unknown.err
