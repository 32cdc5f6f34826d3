"""The opening book: every entry equals the strong solver, a build killed with SIGKILL resumes
to the same file, damaged books are refused in one line, the Dask path gives the same book, and
a search given a book answers from it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dask_helpers import Cluster

from perfectplay.api import solve
from perfectplay.errors import GameDefinitionError, InputFormatError, StoreError, TooLargeError
from perfectplay.games.registry import load_game
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.protocol.answers import PositionValue
from perfectplay.protocol.game import Game
from perfectplay.search import OpeningBook, build_book, search
from perfectplay.search.book import book_positions
from perfectplay.values import UNKNOWN_REMOTENESS, Value


def test_every_entry_equals_the_strong_solver(tmp_path: Path) -> None:
    game = load_game("tic-tac-toe")
    solved = solve(game)
    path = tmp_path / "ttt.book"
    stats = build_book(game, 4, path, jobs=1, progress=False)
    book = OpeningBook.open(path, game)
    assert len(book) == stats.positions == stats.searched > 100
    codes = book_positions(game, 4)
    assert sorted(codes) == sorted(set(codes))
    for code in codes:
        position = game.decode(code)
        assert book.get(position) == solved.probe(position)
    assert not (tmp_path / "ttt.book.journal").exists()


def test_a_weak_book_records_values_only(tmp_path: Path) -> None:
    game = load_game("connect-four", rows=4, cols=4)
    solved = solve(game)
    path = tmp_path / "c4.book"
    build_book(game, 3, path, weak=True, jobs=2, progress=False)
    book = OpeningBook.open(path, game)
    assert book.weak
    for code in book_positions(game, 3):
        position = game.decode(code)
        assert book.get(position) == PositionValue(solved.value(position), UNKNOWN_REMOTENESS)


def test_a_build_over_a_book_of_the_same_game_searches_only_what_it_lacks(
    tmp_path: Path,
) -> None:
    game = load_game("tic-tac-toe")
    path = tmp_path / "ttt.book"
    first = build_book(game, 3, path, jobs=1, progress=False)
    written = path.read_bytes()
    again = build_book(game, 3, path, jobs=1, progress=False)
    assert (again.searched, again.kept) == (0, first.positions)
    assert path.read_bytes() == written
    deeper = build_book(game, 4, path, jobs=1, progress=False)
    assert (deeper.searched, deeper.kept) == (deeper.positions - first.positions, first.positions)
    fresh = tmp_path / "fresh.book"
    build_book(game, 4, fresh, jobs=1, progress=False)
    assert path.read_bytes() == fresh.read_bytes()
    weak = build_book(game, 4, path, weak=True, jobs=1, progress=False)
    assert weak.searched == weak.positions  # a strong book's answers are not a weak book's
    path.write_bytes(b"not a book")
    assert build_book(game, 3, path, jobs=1, progress=False).searched == first.positions


def test_a_board_whose_codes_pass_64_bits_gets_a_book_of_two_word_codes(tmp_path: Path) -> None:
    # Connect Four 4 x 7: a code is two boards of 35 bits; a stone in column g sets bit 65
    game = load_game("connect-four", rows=4, cols=7)
    path = tmp_path / "wide.book"
    first = build_book(game, 1, path, jobs=1, progress=False)
    assert max(book_positions(game, 1)) < 1 << 64 <= max(book_positions(game, 2))
    deeper = build_book(game, 2, path, jobs=1, progress=False)
    assert deeper.kept == first.positions  # read from the book of one-word codes
    book = OpeningBook.open(path, game)
    assert len(book) == deeper.positions
    for code in book_positions(game, 2):
        position = game.decode(code)
        found = search(game, position)
        assert book.get(position) == PositionValue(found.value, found.remoteness)
    assert book.get(game.parse("1234")) is None  # depth 4: not in the book
    again = build_book(game, 2, path, jobs=1, progress=False)
    assert again.kept == deeper.positions  # and from the book of two-word codes
    cut = tmp_path / "cut.book"
    cut.write_bytes(path.read_bytes()[:-16])
    with pytest.raises(StoreError, match="cut short"):
        OpeningBook.open(cut, game)


class _FarCodes(TicTacToe):
    """Tic-tac-toe whose codes are 200 to 214 bits long (a book of four-word codes)."""

    def encode(self, position: str) -> int:
        return (super().encode(position) + 1) << 200

    def decode(self, code: int) -> str:
        return super().decode((code >> 200) - 1)


def test_codes_past_128_bits_get_a_book_of_as_many_words(tmp_path: Path) -> None:
    game = _FarCodes()
    path = tmp_path / "far.book"
    built = build_book(game, 3, path, jobs=1, progress=False)
    book = OpeningBook.open(path, game)
    assert len(book) == built.positions > 10
    plain = TicTacToe()
    for code in book_positions(game, 3):
        position = game.decode(code)
        found = search(plain, position)
        assert book.get(position) == PositionValue(found.value, found.remoteness)
    assert book.get(game.parse("XO./.O./..X")) is None  # depth 4: not in the book
    with pytest.raises(GameDefinitionError, match="codes of 0 to 256 bits"):
        build_book(_Farther(), 1, tmp_path / "farther.book", jobs=1, progress=False)


class _Farther(_FarCodes):
    def encode(self, position: str) -> int:
        return super().encode(position) << 60

    def decode(self, code: int) -> str:
        return super().decode(code >> 60)


_BUILD = """
import sys
from perfectplay.games.registry import load_game
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.search import build_book
build_book(load_game("tic-tac-toe"), 6, sys.argv[1], jobs=1, progress=False)
"""


def test_a_build_killed_with_sigkill_resumes_to_the_same_file(tmp_path: Path) -> None:
    whole = tmp_path / "whole.book"
    subprocess.run([sys.executable, "-c", _BUILD, str(whole)], check=True)
    killed = tmp_path / "killed.book"
    journal = Path(str(killed) + ".journal")
    process = subprocess.Popen([sys.executable, "-c", _BUILD, str(killed)])
    deadline = time.monotonic() + 120
    while not (journal.exists() and journal.stat().st_size > 2000):
        assert process.poll() is None, "the build ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not killed.exists()
    done = len(journal.read_text().splitlines())
    stats = build_book(load_game("tic-tac-toe"), 6, killed, jobs=1, progress=False)
    assert stats.kept >= done - 1 and stats.kept + stats.searched == stats.positions
    assert killed.read_bytes() == whole.read_bytes()


def test_damaged_or_foreign_books_are_refused_in_one_line(tmp_path: Path) -> None:
    game = load_game("tic-tac-toe")
    path = tmp_path / "ttt.book"
    build_book(game, 2, path, jobs=1, progress=False)
    data = path.read_bytes()
    cases = {
        "flipped": data[:-3] + bytes([data[-3] ^ 1]) + data[-2:],
        "cut": data[:-5],
        "not a book": b"hello\n",
        "header": data[:25] + b"{" + data[26:],
    }
    messages = {
        "flipped": "checksum mismatch",
        "cut": "cut short",
        "not a book": "not an opening book",
        "header": "damaged opening book",
    }
    for name, content in cases.items():
        bad = tmp_path / f"{name}.book"
        bad.write_bytes(content)
        with pytest.raises(StoreError, match=messages[name]) as info:
            OpeningBook.open(bad, game)
        assert "\n" not in str(info.value)
    with pytest.raises(StoreError, match="is a book of tic-tac-toe"):
        OpeningBook.open(path, load_game("connect-four", rows=4, cols=4))
    four = tmp_path / "four.book"
    build_book(load_game("connect-four", rows=4, cols=5), 0, four, jobs=1, progress=False)
    with pytest.raises(StoreError) as info:
        OpeningBook.open(four, load_game("connect-four", rows=4, cols=4))
    assert str(info.value).endswith(
        "is a book of connect-four (rows=4, cols=5), not of connect-four (rows=4, cols=4)"
    )


def test_a_refused_build_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.book"
    with pytest.raises(TooLargeError, match="needs about"):
        build_book(load_game("tic-tac-toe"), 1, path, jobs=1, memory=2**50, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_book_too_deep_is_refused_with_the_advice_as_a_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("perfectplay.search.book._MAX_POSITIONS", 100)
    with pytest.raises(TooLargeError) as caught:
        book_positions(load_game("tic-tac-toe"), 4)
    error = caught.value
    assert error.what == "tic-tac-toe: a book of depth 4 holds more than 100 positions"
    assert (error.advice, str(error)) == ("choose a smaller depth", f"{error.what}; {error.advice}")


def test_bad_requests_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="depth must be 0 or more"):
        build_book(load_game("tic-tac-toe"), -1, tmp_path / "b", progress=False)
    with pytest.raises(InputFormatError, match="--dask takes"):
        build_book(load_game("tic-tac-toe"), 1, tmp_path / "b", dask="nowhere", progress=False)

    class NoCodes(Game[int]):
        def initial(self) -> int:
            return 2

        def moves(self, p: int) -> list[tuple[str, int]]:
            return [("1", p - 1)] if p else []

        def outcome(self, p: int) -> None:
            return None

    with pytest.raises(GameDefinitionError, match="encode"):
        build_book(NoCodes(), 1, tmp_path / "b", progress=False)
    assert not (tmp_path / "b").exists()


def test_search_answers_from_the_book_and_agrees_without_it(tmp_path: Path) -> None:
    game = load_game("tic-tac-toe")
    path = tmp_path / "ttt.book"
    build_book(game, 3, path, jobs=1, progress=False)
    book = OpeningBook.open(path, game)
    for code in book_positions(game, 2):
        position = game.decode(code)
        plain = search(game, position, all_moves=True)
        booked = search(game, position, all_moves=True, lookup=book.get)
        assert booked.nodes == 0  # the position and every child are in the book
        assert (booked.value, booked.remoteness) == (plain.value, plain.remoteness)
        assert booked.moves == plain.moves and booked.best_moves == plain.best_moves
    deep = game.decode(book_positions(game, 5)[-1])
    assert book.get(deep) is None
    assert search(game, deep, lookup=book.get).nodes > 0


def test_the_dask_path_gives_the_same_book(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    game = load_game("tic-tac-toe")
    local = tmp_path / "local.book"
    build_book(game, 3, local, jobs=1, progress=False)
    root = tmp_path / "cluster"
    root.mkdir()
    cluster = Cluster(root)
    try:
        cluster.add_worker()
        cluster.add_worker()
        remote = tmp_path / "remote.book"
        stats = build_book(game, 3, remote, dask=cluster.address, progress=False)
    finally:
        cluster.close()
    assert stats.searched == stats.positions
    assert remote.read_bytes() == local.read_bytes()
    assert OpeningBook.open(remote, game).get(game.initial()) == PositionValue(Value.TIE, 9)
