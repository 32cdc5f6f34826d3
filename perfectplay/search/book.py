"""An opening book: every position up to a depth, searched once, written to one file.

:func:`build_book` lists the positions reachable in at most `depth` moves from the start (one
per symmetry class: the game's ``canonical`` and ``encode`` name them), searches each with
:func:`~perfectplay.search.engine.search` as one idempotent task, and writes the answers into
one file, atomically, with a checksum. Finished tasks are appended to a journal beside the file
(``FILE.journal``), so a build killed at any moment resumes where it stopped; the journal is
removed once the book is written. A build over a book of the same game and mode already at the
path takes its answers and searches only the positions it lacks (a deeper book, or none). Tasks
run in this process's worker processes (every core) or on a Dask cluster (``dask="local:N"`` or
``"tcp://HOST:PORT"``).

:class:`OpeningBook` reads a book back; :func:`~perfectplay.search.engine.search` answers a
position found in a book given to it without searching. Every value is stated **for the player
to move**.

Examples
--------
>>> import os, tempfile
>>> from perfectplay.protocol.game import Game, GameInfo
>>> class TakeAway(Game[int]):  # take 1 or 2 tokens; who takes the last wins
...     info = GameInfo("take-away")
...     def initial(self) -> int:
...         return 9
...     def moves(self, heap: int) -> list[tuple[str, int]]:
...         return [(f"take {k}", heap - k) for k in (1, 2) if k <= heap]
...     def outcome(self, heap: int) -> None:
...         return None
...     def encode(self, heap: int) -> int:
...         return heap
...     def decode(self, code: int) -> int:
...         return code
>>> path = os.path.join(tempfile.mkdtemp(), "take-away.book")
>>> build_book(TakeAway(), 3, path, jobs=1, progress=False)
BookStats(positions=7, searched=7, kept=0, seconds=...)
>>> book = OpeningBook.open(path, TakeAway())
>>> book.probe(6), book.get(2)
(PositionValue(value=<Value.LOSE: 0>, remoteness=4, score=None), None)
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import time
import zlib
from collections.abc import Iterable, Iterator
from concurrent.futures import as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._atomic import atomic_file
from perfectplay.errors import (
    GameDefinitionError,
    InputFormatError,
    PositionNotFoundError,
    StoreError,
)
from perfectplay.moves import Move, optimal_moves
from perfectplay.protocol.answers import GetByProbe, PositionValue, valued_moves
from perfectplay.protocol.game import Game, over_value, param_value_text, provides
from perfectplay.search.engine import Searcher
from perfectplay.search.service import process_pool, searcher_of
from perfectplay.values import NO_REMOTENESS, UNKNOWN_REMOTENESS, Value

__all__ = ["BookStats", "OpeningBook", "book_positions", "build_book"]

MAGIC = b"perfectplay-book\n"
"""The first bytes of a book file; then a 4-byte header length, the JSON header, the arrays."""
_DTYPES: dict[str, np.dtype[Any]] = {
    "codes": np.dtype("<u8"),
    "values": np.dtype("u1"),
    "remoteness": np.dtype("<i4"),
}
_MAX_CODE_WORDS = 4
"""The most 64-bit words of a book's code: 256 bits, two Connect Four boards of 128."""


def _code_dtype(words: int) -> np.dtype[Any]:
    """How a book stores codes of `words` 64-bit words: uint64 for one; past 64 bits (Connect
    Four past 4 x 6) a record of the words, most significant first, which numpy sorts and
    searches in the order of the codes. The header then says ``"code_words": words``."""
    if words == 1:
        return _DTYPES["codes"]
    return np.dtype([(f"w{k}", "<u8") for k in reversed(range(words))])


_MAX_POSITIONS = 50_000_000
"""Books larger than this are refused before any work (8 to 32 bytes of code, + 1 + 4 each, in
memory)."""


def _code_words(game: Game[Any], codes: list[int]) -> int:
    """64-bit words per code for `codes`: enough for the longest, at least one.

    Raises
    ------
    GameDefinitionError
        If a code needs more than ``64 * _MAX_CODE_WORDS`` bits (or is negative).
    """
    top = max(codes, default=0)
    bits = 64 * _MAX_CODE_WORDS
    if top >= 1 << bits or min(codes, default=0) < 0:
        raise GameDefinitionError(
            f"{game.info.name}: an opening book holds codes of 0 to {bits} bits, got a code of "
            f"{max(top.bit_length(), bits + 1)} bits"
        )
    return max(1, -(-top.bit_length() // 64))


def _code_array(codes: Iterable[int], words: int) -> NDArray[Any]:
    """`codes` as a book stores them (:func:`_code_dtype`).

    >>> _code_array([3, 2**64 + 5], 2).tolist()
    [(0, 3), (1, 5)]
    >>> _code_array([2**128 + 2**64 + 5], 3).tolist()
    [(1, 1, 5)]
    """
    if words == 1:
        return np.array(list(codes), dtype=_DTYPES["codes"])
    low = (1 << 64) - 1
    shifts = [64 * k for k in reversed(range(words))]
    return np.array([tuple(c >> s & low for s in shifts) for c in codes], dtype=_code_dtype(words))


def _increasing(codes: NDArray[Any]) -> bool:
    """Whether stored codes are strictly increasing (a sound book's order): word by word
    from the most significant, a later code is greater where the words before are equal."""
    if codes.dtype.names is None:
        return bool(np.all(codes[1:] > codes[:-1]))
    greater = np.zeros(max(len(codes) - 1, 0), dtype=bool)
    equal = ~greater
    for name in codes.dtype.names:
        later, earlier = codes[name][1:], codes[name][:-1]
        greater |= equal & (later > earlier)
        equal &= later == earlier
    return bool(np.all(greater))


@dataclass(frozen=True)
class BookStats:
    """What one run of :func:`build_book` did."""

    positions: int
    """Positions in the book (one per symmetry class, play going on)."""
    searched: int
    """Positions searched by this run."""
    kept: int
    """Positions found in the journal of an earlier, interrupted run or in a book already at
    the path (not searched again)."""
    seconds: float
    """Wall-clock time of the run."""

    def __repr__(self) -> str:
        return (
            f"BookStats(positions={self.positions}, searched={self.searched}, "
            f"kept={self.kept}, seconds=...)"
        )


def _code(game: Game[Any], position: Any) -> int:
    canonical = game.canonical(position) if provides(game, "canonical") else position
    return int(game.encode(canonical))


def _require_codes(game: Game[Any]) -> None:
    if not (provides(game, "encode") and provides(game, "decode")):
        raise GameDefinitionError(
            f"{game.info.name}: an opening book names positions by code, so the game must "
            "define encode() and decode()"
        )


def book_positions(game: Game[Any], depth: int) -> list[int]:
    """Codes of the positions within `depth` moves of the start where play goes on, one per
    symmetry class, in breadth-first order.

    Raises
    ------
    InputFormatError
        If `depth` is negative.
    GameDefinitionError
        If the game lacks ``encode``/``decode``.
    TooLargeError
        If more than 50 million positions would be listed.

    Notes
    -----
    Cost: one call of ``moves`` and ``outcome`` per listed position and its children (Python).
    """
    from perfectplay.errors import TooLargeError

    if depth < 0:
        raise InputFormatError(f"the book's depth must be 0 or more, got {depth}")
    _require_codes(game)
    start = game.initial()
    seen = {_code(game, start)}
    layer = [start] if game.outcome(start) is None else []
    codes: list[int] = []
    for level in range(depth + 1):
        following = []
        for position in layer:
            moves = list(game.moves(position))
            if not moves:
                continue  # stuck: over, nothing to search
            codes.append(_code(game, position))
            if len(codes) > _MAX_POSITIONS:
                raise TooLargeError(
                    f"{game.info.name}: a book of depth {depth} holds more than "
                    f"{_MAX_POSITIONS:,} positions",
                    advice="choose a smaller depth",
                )
            if level == depth:
                continue
            for move in moves:
                child = move[1]
                code = _code(game, child)
                if code not in seen and game.outcome(child) is None:
                    seen.add(code)
                    following.append(child)
        layer = following
    return codes


def _book_task(
    game: Game[Any], code: int, memory: int | None, weak: bool, searcher: Searcher | None = None
) -> tuple[int, int, int]:
    """Search the position `code` names with `searcher` (default: a fresh table):
    ``(code, value, remoteness)`` (-1: weak, as the book file records it)."""
    searcher = searcher if searcher is not None else Searcher(game, memory=memory)
    result = searcher.search(game.decode(code), weak=weak)
    remoteness = NO_REMOTENESS if result.remoteness is None else result.remoteness
    return code, int(result.value), remoteness


def _worker_task(
    game: Game[Any], code: int, memory: int | None, weak: bool
) -> tuple[int, int, int]:
    """:func:`_book_task` in a worker process, with the worker's table kept across tasks."""
    return _book_task(game, code, memory, weak, searcher_of(game, memory))


def _from_book(
    path: str, game: Game[Any], weak: bool, codes: list[int]
) -> dict[int, tuple[int, int]]:
    """The answers for `codes` that a book already at `path` holds, if it is a sound book of
    the same game and mode: a build run again, or deeper, searches only what is new. A file
    that is no such book gives none (the build overwrites it)."""
    if not os.path.exists(path):
        return {}
    try:
        book = OpeningBook.open(path, game)
    except StoreError:
        return {}
    if book.weak != weak or not len(book) or not codes:
        return {}
    return {
        code: (int(book._values[i]), int(book._remoteness[i]))
        for code, i in book._find(codes).items()
    }


def _read_journal(path: str) -> dict[int, tuple[int, int]]:
    """The answers an earlier run appended (a torn last line, from a kill, is ignored)."""
    done: dict[int, tuple[int, int]] = {}
    if not os.path.exists(path):
        return done
    with open(path, encoding="ascii", errors="replace") as journal:
        for line in journal:
            words = line.split()
            if len(words) == 3 and line.endswith("\n"):
                try:
                    code, value, remoteness = (int(w) for w in words)
                except ValueError:
                    continue
                done[code] = (value, remoteness)
    return done


def _run_local(
    game: Game[Any], codes: list[int], memory: int | None, weak: bool, jobs: int
) -> Iterator[tuple[int, int, int]]:
    if jobs == 1:
        searcher = Searcher(game, memory=memory)
        for code in codes:
            yield _book_task(game, code, memory, weak, searcher)
        return
    with process_pool(jobs) as pool:
        futures = [pool.submit(_worker_task, game, code, memory, weak) for code in codes]
        for future in as_completed(futures):
            yield future.result()


def _run_dask(
    spec: str, game: Game[Any], codes: list[int], memory: int | None, weak: bool
) -> Iterator[tuple[int, int, int]]:
    from distributed import as_completed as dask_completed

    from perfectplay._dask import dask_client

    with dask_client(spec) as client:
        remote_game = client.scatter(game, broadcast=True)
        futures = [
            client.submit(_book_task, remote_game, code, memory, weak, key=f"book-{code}-{weak}")
            for code in codes
        ]
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()


def build_book(
    game: Game[Any],
    depth: int,
    path: str | os.PathLike[str],
    *,
    weak: bool = False,
    memory: int | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
) -> BookStats:
    """Search every position within `depth` moves of the start and write the answers to `path`.

    Parameters
    ----------
    game : Game
        An acyclic game with ``encode``/``decode`` (and ``canonical`` to share symmetric
        positions).
    depth : int
        The deepest level listed: 0 is the start alone.
    path : path
        The book file to write (atomically, at the end); ``path + ".journal"`` holds the
        answers of finished tasks meanwhile.
    weak : bool
        Record only WIN/LOSE/TIE (remoteness -1): a faster book.
    memory : int, optional
        Each search's table budget (see :func:`~perfectplay.search.engine.search`).
    jobs : int, optional
        Worker processes on this machine (default: every core); ignored with `dask`.
    dask : str, optional
        ``local:N`` or ``tcp://HOST:PORT``: run the tasks on a Dask cluster instead (the game
        is sent to the workers pickled).
    progress : bool, optional
        Show a progress bar (default: on a terminal).

    Returns
    -------
    BookStats

    Raises
    ------
    InputFormatError, GameDefinitionError, TooLargeError
        As :func:`book_positions` and :func:`~perfectplay.search.engine.search`; a bad `dask`.

    Notes
    -----
    Cost: one search per listed position (the searches share nothing, so the book costs the
    sum of its positions' searches); memory: `memory` per worker, plus 13 bytes per position.
    """
    from tqdm import tqdm

    began = time.perf_counter()
    target = os.fspath(path)
    if dask is not None:
        from perfectplay._dask import parse_dask

        parse_dask(dask)
    codes = book_positions(game, depth)
    journal_path = target + ".journal"
    done = _from_book(target, game, weak, codes)
    done.update(_read_journal(journal_path))
    todo = [c for c in codes if c not in done]
    kept = len(codes) - len(todo)
    workers = jobs or os.cpu_count() or 1
    answers: Iterable[tuple[int, int, int]] = (
        _run_dask(dask, game, todo, memory, weak)
        if dask is not None
        else _run_local(game, todo, memory, weak, workers)
    )
    with (
        contextlib.ExitStack() as opened,
        tqdm(
            total=len(codes), initial=kept, desc="book", unit="pos",
            disable=None if progress is None else not progress, leave=False,
        ) as bar,
    ):  # fmt: skip
        journal = None  # opened at the first answer: a build refused before it writes nothing
        for code, value, remoteness in answers:
            if journal is None:
                journal = opened.enter_context(open(journal_path, "a", encoding="ascii"))
            journal.write(f"{code} {value} {remoteness}\n")
            journal.flush()
            done[code] = (value, remoteness)
            bar.update(1)
    _write(target, game, depth, weak, codes, done)
    with contextlib.suppress(FileNotFoundError):  # nothing was searched: no journal
        os.unlink(journal_path)
    return BookStats(len(codes), len(todo), kept, time.perf_counter() - began)


def _write(
    path: str,
    game: Game[Any],
    depth: int,
    weak: bool,
    codes: list[int],
    done: dict[int, tuple[int, int]],
) -> None:
    order = sorted(codes)
    words = _code_words(game, order)
    arrays = {
        "codes": _code_array(order, words),
        "values": np.array([done[c][0] for c in order], dtype=_DTYPES["values"]),
        "remoteness": np.array([done[c][1] for c in order], dtype=_DTYPES["remoteness"]),
    }
    payload = b"".join(arrays[k].tobytes() for k in _DTYPES)
    fields = {
        "game": game.info.name,
        "params": {k: _plain(v) for k, v in game.info.params.items()},
        "depth": depth,
        "weak": weak,
        "positions": len(order),
        "crc32": zlib.crc32(payload),
    }
    header = json.dumps(fields | ({"code_words": words} if words > 1 else {}), sort_keys=True)
    with atomic_file(path) as out:
        out.write(MAGIC + struct.pack("<I", len(header)) + header.encode() + payload)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _titled(name: str, params: dict[str, Any], order: Iterable[str]) -> str:
    """``name (key=value, ...)``, the keys in `order` first (the game's own order), as the
    command line writes parameters.

    >>> _titled("connect-four", {"cols": 5, "rows": 4}, ["rows", "cols"])
    'connect-four (rows=4, cols=5)'
    """
    first = [k for k in order if k in params]
    keys = first + [k for k in params if k not in first]
    words = ", ".join(f"{k}={param_value_text(params[k])}" for k in keys)
    return f"{name} ({words})" if words else name


class OpeningBook(GetByProbe):
    """A book written by :func:`build_book`, read back for look-ups.

    Use :meth:`open`. A source of answers (:class:`~perfectplay.protocol.answers.Answers`):
    ``probe``/``get`` give a position's value for the player to move (remoteness
    :data:`~perfectplay.values.UNKNOWN_REMOTENESS` in a weak book); where play is over the
    rules answer. ``move_values`` and ``best_moves`` need every child in the book (a position
    above the book's last level).
    """

    def __init__(self, game: Game[Any], header: dict[str, Any], arrays: dict[str, Any]) -> None:
        self.game = game
        """The game the book is of."""
        self.depth: int = header["depth"]
        """The deepest level the book holds."""
        self.weak: bool = header["weak"]
        """True if the book records values only (no remoteness)."""
        self._codes: NDArray[Any] = arrays["codes"]
        """The sorted codes: uint64, or records of words past 64 bits (:func:`_code_dtype`)."""
        self._values: NDArray[np.uint8] = arrays["values"]
        self._remoteness: NDArray[np.int32] = arrays["remoteness"]

    def __len__(self) -> int:
        return len(self._codes)

    def _find(self, codes: list[int]) -> dict[int, int]:
        """The index of each of `codes` the book holds. Cost: a binary search per code."""
        names = self._codes.dtype.names
        words = 1 if names is None else len(names)
        wanted = [c for c in codes if c < 1 << (64 * words)]  # longer codes are not in the book
        if not wanted or not len(self._codes):
            return {}
        stored = _code_array(wanted, words)
        at = np.minimum(np.searchsorted(self._codes, stored), len(self._codes) - 1)
        return {wanted[k]: int(at[k]) for k in np.flatnonzero(self._codes[at] == stored)}

    @classmethod
    def open(cls, path: str | os.PathLike[str], game: Game[Any]) -> OpeningBook:
        """Read and check the book at `path` for `game`.

        Raises
        ------
        StoreError
            If the file is not a book, is damaged (checksum, lengths, values), or is another
            game's (name or parameters differ) — one line naming the file.
        """
        target = os.fspath(path)
        with open(target, "rb") as stream:
            data = stream.read()
        if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
            raise StoreError(f"{target}: not an opening book (perfectplay book writes them)")
        (size,) = struct.unpack_from("<I", data, len(MAGIC))
        start = len(MAGIC) + 4
        try:
            header = json.loads(data[start : start + size])
            count = int(header["positions"])
            crc = int(header["crc32"])
            header["depth"], header["weak"] = int(header["depth"]), bool(header["weak"])
            name, params = header["game"], header["params"]
            words = int(header.get("code_words", 1))
        except (ValueError, KeyError, TypeError):
            raise StoreError(f"{target}: damaged opening book (unreadable header)") from None
        if not 1 <= words <= _MAX_CODE_WORDS:
            raise StoreError(
                f"{target}: damaged opening book (code_words {words}, not 1 to {_MAX_CODE_WORDS})"
            )
        dtypes = _DTYPES | {"codes": _code_dtype(words)}
        payload = data[start + size :]
        if count < 0 or len(payload) != count * sum(d.itemsize for d in dtypes.values()):
            raise StoreError(f"{target}: damaged opening book (its arrays are cut short)")
        if zlib.crc32(payload) != crc:
            raise StoreError(f"{target}: damaged opening book (checksum mismatch)")
        expected = {k: _plain(v) for k, v in game.info.params.items()}
        if name != game.info.name or params != expected:
            raise StoreError(
                f"{target} is a book of {_titled(name, params, expected)}, not of "
                f"{_titled(game.info.name, expected, expected)}"
            )
        arrays, offset = {}, 0
        for key, dtype in dtypes.items():
            arrays[key] = np.frombuffer(payload, dtype=dtype, count=count, offset=offset)
            offset += count * dtype.itemsize
        if count and (not _increasing(arrays["codes"]) or arrays["values"].max() > int(Value.WIN)):
            raise StoreError(f"{target}: damaged opening book (codes or values out of order)")
        return cls(game, header, arrays)

    def probe(self, position: Any) -> PositionValue:
        """Value and remoteness of `position` for the player to move.

        Raises
        ------
        PositionNotFoundError
            If the book does not hold `position` (and play goes on there). Cost: one
            ``canonical``/``encode`` and a binary search, O(log n).
        """
        over = over_value(self.game, position)
        if over is not None:
            return PositionValue(over, 0)
        code = _code(self.game, position)
        i = self._find([code]).get(code)
        if i is None:
            raise PositionNotFoundError(
                f"{position!r} is not in the opening book of {self.game.info.name} "
                f"(depth {self.depth})"
            )
        remoteness = UNKNOWN_REMOTENESS if self.weak else int(self._remoteness[i])
        return PositionValue(Value(int(self._values[i])), remoteness)

    def move_values(self, position: Any) -> list[Move[Any]]:
        """Every move from `position`, valued for the player making it; empty where over.

        Raises
        ------
        PositionNotFoundError
            If a child is not in the book. Cost: one probe per move.
        """
        if over_value(self.game, position) is not None:
            return []
        return valued_moves(self.game.moves(position), self.probe)

    def best_moves(self, position: Any) -> list[Move[Any]]:
        """The optimal moves from `position` (the rule of
        :func:`~perfectplay.moves.optimal_moves`; in a weak book every move keeping the
        value). Empty where over."""
        here = self.probe(position)
        if here.remoteness == 0:
            return []
        return optimal_moves(self.move_values(position), here.value)
