"""A database of solved positions on disk: one versioned, checksummed, memory-mapped file.

:func:`save` writes a solved game; :func:`open_store` opens it for queries without
re-solving: only the pages a query touches are read from disk.

File format (version 1), little-endian, one uncompressed file::

    offset 0   8 bytes   magic b"PPSTORE\\x00"
    offset 8   uint32    format version (1)
    offset 12  uint32    CRC-32 of the manifest bytes
    offset 16  uint64    manifest length L in bytes
    offset 24  L bytes   manifest: UTF-8 JSON (see below)
    then zero padding to a multiple of 64 bytes: the start of the data section
    data       each array's raw bytes at its recorded offset (64-byte aligned)

The manifest records the format, the perfectplay version that wrote the file, the game's
name and parameters (``null`` for a plain game graph), whether its positions are canonical
forms, the solver, the counts ``n`` (positions) and ``m`` (moves), the start position's id,
the total file size, and for each array its dtype, shape, offset in the data section, size
and CRC-32. The arrays:

``value`` (uint8, n), ``remoteness`` (int32, n)
    :class:`~perfectplay.values.Value` and remoteness for the player to move at each position.
``score`` (int64, n), ``gain`` (int64, m)
    Scored games only: the minimax score and each move's gain.
``indptr`` (n + 1), ``indices`` (m)
    The moves, in CSR form (as in :class:`~perfectplay.graph.GameGraph`).
``codes`` (int64, n), ``code_ids`` (n)
    Game stores only (a plain graph store looks positions up by id): the positions' codes
    in increasing order, and the position id of each; a lookup is a binary search (O(log n)
    pages touched).
``primitive`` (uint8, n), ``terminal_score`` (int64, n)
    Graph stores (optional when reading: older files lack them): the values the rules fix
    (WIN, LOSE or TIE for the player to move; UNDECIDED elsewhere) and, scored, the scores
    where the game is over, so that ``perfectplay verify`` can check every position against
    the rules (a game store asks its game instead).

Why one file rather than a directory of ``.npy`` files: a single file is replaced atomically
by one ``os.replace`` (a directory cannot atomically replace another), moves and copies as a
unit, and still maps each array directly at its offset (one ``mmap`` for all of them).

Examples
--------
>>> import os, tempfile
>>> from perfectplay.graph import GameGraph
>>> from perfectplay.solution import Solution
>>> import numpy as np
>>> graph = GameGraph.from_edges([0, 1], [1, 2], n=3)
>>> solution = Solution(graph, np.array([3, 0, 0], np.uint8), np.array([1, 0, 0], np.int32),
...                     solver="dag")
>>> path = os.path.join(tempfile.mkdtemp(), "chain.ppstore")
>>> save(path, solution)
>>> with open_store(path) as store:
...     store.probe(0), store.get(7)
(PositionValue(value=<Value.WIN: 3>, remoteness=1, score=None), None)
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import mmap
import os
import struct
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, BinaryIO, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._atomic import atomic_file
from perfectplay._targets import class_target
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import InvalidGraphError, PositionNotFoundError, StoreError
from perfectplay.graph import GameGraph
from perfectplay.moves import Move, optimal_moves
from perfectplay.protocol.answers import GetByProbe, PositionValue, valued_moves
from perfectplay.protocol.game import Game
from perfectplay.solution import Solution
from perfectplay.values import LOSE, NO_REMOTENESS, UNDECIDED, VALUE_DTYPE, Value

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "PositionValue",
    "SolutionStore",
    "file_head",
    "open_store",
    "read_head",
    "save",
    "valued_moves",
]

MAGIC = b"PPSTORE\x00"
"""The first 8 bytes of every store file."""
FORMAT_VERSION = 1
"""The file format version this module writes and reads."""

_HEADER = struct.Struct("<8sIIQ")  # magic, version, manifest CRC-32, manifest length
_ALIGN = 64
_AUTO_VERIFY_BYTES = 64 * 2**20
"""``verify="auto"`` checks every array's CRC-32 on open up to this many bytes of arrays."""
_ARRAY_DTYPES = {
    "value": ("|u1",),
    "remoteness": ("<i4",),
    "score": ("<i8",),
    "gain": ("<i8",),
    "indptr": ("<i4", "<i8"),
    "indices": ("<i4", "<i8"),
    "codes": ("<i8",),
    "code_ids": ("<i4", "<i8"),
    "primitive": ("|u1",),
    "terminal_score": ("<i8",),
}
"""Every array a store may hold, with the dtypes it may be stored as."""


_VALUES = sorted(Value)
"""Every value in increasing order: LOSE, DRAW, TIE, WIN, UNDECIDED."""
_VALUE_SLOT = np.full(256, len(_VALUES), dtype=np.int64)
_VALUE_SLOT[[int(v) for v in _VALUES]] = np.arange(len(_VALUES))
"""Position of each uint8 value code in `_VALUES`; ``len(_VALUES)`` marks an invalid code."""


def _aligned(offset: int) -> int:
    return -(-offset // _ALIGN) * _ALIGN


def _crc(array: NDArray[Any]) -> int:
    return zlib.crc32(np.ascontiguousarray(array).data.cast("B"))


def _json_params(params: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(params)
    try:
        json.dumps(result, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise StoreError(f"game parameters {result!r} cannot be saved as JSON: {error}") from None
    return result


def save(
    path: str | os.PathLike[str],
    solved: Solution | GameSolution[Any],
    *,
    game: str | None = None,
    params: Mapping[str, Any] | None = None,
    codes: ArrayLike | None = None,
    start: int | None = None,
    canonical: bool = False,
    primitive: ArrayLike | None = None,
) -> None:
    """Write a solved game to `path`, atomically.

    Parameters
    ----------
    path : str or PathLike
        The file to write; an existing file is replaced only once the new one is complete.
    solved : GameSolution or Solution
        A solved game (from :func:`perfectplay.api.solve`): its name, parameters, integer
        codes and start are taken from it, and the other options must be left out. Or a
        graph :class:`~perfectplay.solution.Solution`, described by the options below.
    game : str, optional
        The game's name, so :func:`open_store` can rebuild a registered game (its moves'
        labels, its position parser). None for a plain game graph, whose positions are
        looked up by id.
    params : mapping, optional
        The game's parameters (JSON-serialisable values).
    codes : array of int, shape (n,), optional
        With `game` (and only then): the integer code (``game.encode``) of each position id.
    start : int, optional
        The id of the game's starting position.
    canonical : bool
        Whether the positions are canonical forms (``game.canonical``): look-ups then
        canonicalise a position before encoding it.
    primitive : array of uint8, shape (n,), optional
        With a graph Solution: the values its rules fixed (UNDECIDED elsewhere), kept so
        that the store can be verified against them. Default: read off the solution (the
        values at remoteness 0, but a stuck position's LOSE).

    Raises
    ------
    StoreError
        If the file cannot be written, `codes` has the wrong shape, repeats a code or comes
        without `game` (or `game` without `codes`), the parameters are not
        JSON-serialisable, or options are given with a GameSolution.
    GameDefinitionError
        If the solved game has no integer codes (``encode``).

    Notes
    -----
    Cost: O(n log n) to sort the codes, one CRC-32 pass and one write of every array. The
    file is written to a temporary file in the same directory, flushed to disk, then renamed
    over `path` (:func:`perfectplay._atomic.atomic_file`): an interrupted write leaves no
    partial file at `path`.
    The file's mode follows the user's umask (0644 under the usual umask 022), as for any
    other file the user creates.
    """
    record = _record(solved, game, params, codes, start, canonical, primitive)
    arrays = _arrays(record)
    table = _array_table(arrays)
    manifest = _manifest(record, table)
    _write(os.fspath(path), file_head(manifest, _data_size(table)), arrays, table)


@dataclass(frozen=True)
class _Record:
    """What a store file records of a solved game, whichever way :func:`save` was called."""

    solution: Solution
    game: str | None
    params: Mapping[str, Any]
    game_class: str | None
    codes: ArrayLike | None
    start: int | None
    canonical: bool
    primitive: ArrayLike | None


def _record(
    solved: Solution | GameSolution[Any],
    game: str | None,
    params: Mapping[str, Any] | None,
    codes: ArrayLike | None,
    start: int | None,
    canonical: bool,
    primitive: ArrayLike | None,
) -> _Record:
    """The record of :func:`save`'s two call modes: a graph Solution described by the
    options, or a GameSolution that describes itself (then no option may be given)."""
    if isinstance(solved, Solution):
        return _Record(solved, game, params or {}, None, codes, start, canonical, primitive)
    options = {"game": game, "params": params, "codes": codes, "start": start}
    given = [name for name, v in {**options, "primitive": primitive}.items() if v is not None]
    if given or canonical:
        raise StoreError(
            f"save: {', '.join(given) or 'canonical'} come from the GameSolution; "
            "give them only with a graph Solution"
        )
    return _Record(
        solution=solved.solution,
        game=solved.game.info.name,
        params=solved.game.info.params,
        game_class=class_target(type(solved.game)),
        codes=solved.codes,
        start=solved.id_of(solved.initial),
        canonical=solved.enumeration.canonical,
        primitive=None,
    )


def _arrays(record: _Record) -> dict[str, NDArray[Any]]:
    """Every array the store holds, little-endian, each checked to have its length."""
    solution = record.solution
    graph = solution.graph
    arrays: dict[str, NDArray[Any]] = {
        "value": np.asarray(solution.value, dtype=VALUE_DTYPE),
        "remoteness": np.asarray(solution.remoteness, dtype="<i4"),
        "indptr": np.asarray(graph.indptr),
        "indices": np.asarray(graph.indices),
    }
    if solution.score is not None:
        arrays["score"] = np.asarray(solution.score, dtype="<i8")
        gain = np.zeros(graph.m, np.int64) if graph.gain is None else graph.gain
        arrays["gain"] = np.asarray(gain, dtype="<i8")
    if record.game is None:
        arrays.update(_graph_rules(solution, record.primitive))
    if (record.codes is None) != (record.game is None):
        raise StoreError("save: a game store needs both the game's name and the codes")
    if record.codes is not None:
        arrays.update(_code_index(record.codes, graph.n))
    for name, array in arrays.items():
        expected = _length(name, graph.n, graph.m)
        if array.shape != (expected,):
            raise StoreError(f"{name} must have {expected} entries, got shape {array.shape}")
        arrays[name] = array.astype(array.dtype.newbyteorder("<"), copy=False)
    return arrays


def _length(name: str, n: int, m: int) -> int:
    """How many entries the array `name` has in a store of `n` positions and `m` moves."""
    return n + 1 if name == "indptr" else m if name in ("indices", "gain") else n


def _code_index(codes: ArrayLike, n: int) -> dict[str, NDArray[Any]]:
    """``codes`` (sorted) and ``code_ids`` (the position of each): a binary search's index.

    Raises StoreError unless `codes` holds `n` distinct codes.
    """
    code_array = np.asarray(codes, dtype=np.int64)
    if code_array.shape != (n,):
        raise StoreError(f"codes must have one entry per position ({n}), got {code_array.shape}")
    order = np.argsort(code_array)  # codes are distinct (checked below): no need for stable
    sorted_codes = code_array[order]
    repeated = np.flatnonzero(sorted_codes[1:] == sorted_codes[:-1])
    if repeated.size:
        code = int(sorted_codes[repeated[0]])
        raise StoreError(f"code {code} is given to two positions; codes must be distinct")
    return {"codes": sorted_codes, "code_ids": order.astype(np.int32 if n < 2**31 else np.int64)}


def _array_table(arrays: Mapping[str, NDArray[Any]]) -> dict[str, dict[str, Any]]:
    """The manifest's entry of each array: dtype, shape, offset in the data section, size
    and CRC-32; the arrays follow each other, each 64-byte aligned."""
    table: dict[str, dict[str, Any]] = {}
    offset = 0
    for name, array in arrays.items():
        table[name] = {
            "dtype": array.dtype.str,
            "shape": list(array.shape),
            "offset": offset,
            "nbytes": int(array.nbytes),
            "crc32": _crc(array),
        }
        offset = _aligned(offset + int(array.nbytes))
    return table


def _data_size(table: Mapping[str, Mapping[str, Any]]) -> int:
    """Bytes of the data section: up to the aligned end of its last array."""
    return max((_aligned(e["offset"] + e["nbytes"]) for e in table.values()), default=0)


def _manifest(record: _Record, table: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The manifest of a store holding `record`'s arrays laid out as `table` (without its
    ``file_size``, which :func:`file_head` settles)."""
    from perfectplay import __version__

    solution = record.solution
    return {
        "format": "perfectplay-store",
        "format_version": FORMAT_VERSION,
        "perfectplay_version": __version__,
        "game": record.game,
        "params": _json_params(record.params),
        "class": record.game_class,
        "solver": solution.solver,
        "n": solution.graph.n,
        "m": solution.graph.m,
        "scored": solution.score is not None,
        "start": record.start,
        "canonical": record.canonical,
        "arrays": table,
    }


def file_head(manifest: dict[str, Any], data_size: int) -> bytes:
    """The bytes of a store file before its data section of `data_size` bytes: the header,
    the manifest (its ``file_size`` set, in place) and the padding to 64 bytes.

    The file size depends on the manifest's length, which contains the file size: the size
    is written with a fixed width (20 digits hold any uint64), so one pass settles it.

    >>> head = file_head({"format": "perfectplay-store"}, 64)
    >>> len(head) % 64, read_head(head + bytes(64))[0]["file_size"]
    (0, '00000000000000000192')
    """
    manifest["file_size"] = "0" * 20
    data_start = _aligned(_HEADER.size + len(json.dumps(manifest).encode()))
    manifest["file_size"] = f"{data_start + data_size:020d}"
    text = json.dumps(manifest).encode()
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, zlib.crc32(text), len(text))
    return header + text + b"\0" * (data_start - _HEADER.size - len(text))


def read_head(data: bytes) -> tuple[dict[str, Any], int]:
    """The manifest of a store file's bytes `data` and where its data section starts.

    Checks the magic bytes, the version and the manifest's CRC-32 (not the rest: see
    :func:`open_store`). Raises StoreError on a file that fails them.
    """
    return _read_manifest(io.BytesIO(data), "the store", len(data))


def _write(
    target: str,
    head: bytes,
    arrays: Mapping[str, NDArray[Any]],
    table: Mapping[str, Mapping[str, Any]],
) -> None:
    """Write `head` then each array at its offset in `table` to `target`, atomically."""
    if os.path.isdir(target):
        raise StoreError(f"cannot write {target}: {os.strerror(errno.EISDIR)}")
    try:
        with atomic_file(target) as out:
            out.write(head)
            for name, array in arrays.items():
                out.write(np.ascontiguousarray(array).data.cast("B"))
                out.write(b"\0" * (_aligned(array.nbytes) - array.nbytes))
                if out.tell() != len(head) + table[name]["offset"] + _aligned(array.nbytes):
                    raise StoreError(f"{target}: wrote {name} at the wrong offset")
    except OSError as error:
        if isinstance(error, StoreError):
            raise
        raise StoreError(f"cannot write {target}: {error.strerror or error}") from None


def _graph_rules(solution: Solution, primitive: ArrayLike | None) -> dict[str, NDArray[Any]]:
    """What a graph store records of its rules, so that it can be verified later.

    ``primitive``: the given array, else the values where the solution says the game is over
    (remoteness 0) other than a stuck position's LOSE, which needs no rule. Scored graphs also
    get ``terminal_score``: the score where the game is over, 0 elsewhere.
    """
    value = np.asarray(solution.value)
    over = np.asarray(solution.remoteness) == 0
    if primitive is None:
        moves = np.diff(solution.graph.indptr) > 0
        primitive = np.where(over & (moves | (value != LOSE)), value, UNDECIDED)
    rules = {"primitive": np.asarray(primitive, dtype=VALUE_DTYPE)}
    if solution.score is not None:
        rules["terminal_score"] = np.where(over, solution.score, 0).astype("<i8")
    return rules


class SolutionStore(GetByProbe):
    """An open store file: a solved game's arrays, memory-mapped read-only.

    Create it with :func:`open_store`; use it as a context manager. Positions are game
    positions when the store names a registered game with integer codes (the game is rebuilt
    from the registry on first use), position ids otherwise.

    Attributes
    ----------
    path : str
        The file.
    manifest : dict
        The parsed JSON manifest (see the module documentation).
    """

    def __init__(
        self,
        path: str,
        manifest: dict[str, Any],
        arrays: dict[str, NDArray[Any]],
        mapping: mmap.mmap | None,
        game: Game[Any] | None = None,
    ) -> None:
        self.path = path
        self.manifest = manifest
        self._arrays = arrays
        self._mapping = mapping
        self._game = game

    # ------------------------------------------------------------------ description
    @property
    def game_name(self) -> str | None:
        """The registered game's name, or None for a plain game graph."""
        name: str | None = self.manifest["game"]
        return name

    @property
    def params(self) -> dict[str, Any]:
        """The game's parameters."""
        return dict(self.manifest["params"])

    @property
    def n(self) -> int:
        """Number of positions."""
        return int(self.manifest["n"])

    @property
    def m(self) -> int:
        """Number of moves."""
        return int(self.manifest["m"])

    @property
    def scored(self) -> bool:
        """Whether the game is scored (``score`` and ``gain`` arrays present)."""
        return bool(self.manifest["scored"])

    @property
    def start(self) -> int | None:
        """The id of the starting position, if recorded."""
        start: int | None = self.manifest["start"]
        return start

    def array(self, name: str) -> NDArray[Any]:
        """One stored array, read-only and memory-mapped (``value``, ``remoteness``, ...)."""
        if self._mapping is None and not self._arrays:
            raise StoreError(f"{self.path}: the store is closed")
        if name not in self._arrays:
            raise StoreError(f"{self.path} holds no {name!r} array")
        return self._arrays[name]

    @property
    def game(self) -> Game[Any]:
        """The game: the one given to :func:`open_store`, else rebuilt from the registry.

        Raises
        ------
        StoreError
            If the store holds a plain game graph (no game name).
        UnknownNameError
            If the game was not given and is not registered (built in or installed): the
            message names the ``--game`` to pass. No module the file names is imported.
        """
        if self._game is None:
            if self.game_name is None:
                raise StoreError(f"{self.path} holds a game graph, not a game")
            from perfectplay.recorded import load_recorded_game

            recorded = self.manifest.get("class")  # optional: files of older versions lack it
            target = recorded if isinstance(recorded, str) else None
            self._game = load_recorded_game(self.game_name, self.params, target, where=self.path)
        return self._game

    # ------------------------------------------------------------------ lookups
    def position_id(self, position: Any) -> int:
        """The id of `position` in the stored arrays.

        A game store takes a game position (canonicalised if the stored positions are
        canonical, then encoded by the game); a graph store takes an id. Cost: O(log n) for
        a binary search on the codes.

        Raises
        ------
        PositionNotFoundError
            If the position is not in the solved game.
        """
        if self.game_name is None:
            if isinstance(position, int | np.integer) and 0 <= int(position) < self.n:
                return int(position)
            raise PositionNotFoundError(
                f"position {position!r} is not in {self.path} (ids are 0..{self.n - 1})"
            )
        game = self.game
        key = game.canonical(position) if self.manifest["canonical"] else position
        return self.code_id(int(game.encode(key)), lambda: f"position {game.render(position)!r}")

    def code_id(self, code: int, describe: Callable[[], str] | None = None) -> int:
        """The id of the position with integer code `code`; PositionNotFoundError if none."""
        codes = self.array("codes")
        k = int(np.searchsorted(codes, code))
        if k == codes.shape[0] or int(codes[k]) != code:
            what = describe() if describe is not None else f"code {code}"
            raise PositionNotFoundError(f"{what} is not in {self.path}")
        return int(self.array("code_ids")[k])

    def entry(self, i: int) -> PositionValue:
        """The stored value of position id `i`."""
        score = int(self.array("score")[i]) if self.scored else None
        return PositionValue(
            Value(int(self.array("value")[i])), int(self.array("remoteness")[i]), score
        )

    def probe(self, position: Any) -> PositionValue:
        """The value of `position` for the player to move.

        Raises
        ------
        PositionNotFoundError
            If the position is not in the solved game (use :meth:`get` for a default).

        Notes
        -----
        Cost: O(log n) pages touched for a game store, O(1) for a graph store.
        """
        return self.entry(self.position_id(position))

    def move_values(self, position: Any) -> list[Move[Any]]:
        """Every move from `position` with its label and value for the player making it.

        A game store asks the game for the moves (labels, in the game's order); a graph store
        reads them from the stored moves, labelled by the target's id. Empty where the game
        is over. Cost: one probe per move.

        Raises
        ------
        PositionNotFoundError
            If `position` (or a position a move leads to) is not in the solved game.
        """
        pid = self.position_id(position)
        if self.game_name is None:
            indptr, indices = self.array("indptr"), self.array("indices")
            gains = self._arrays.get("gain")
            moves: list[tuple[Any, ...]] = [
                (str(int(indices[e])), int(indices[e]), 0 if gains is None else int(gains[e]))
                for e in range(int(indptr[pid]), int(indptr[pid + 1]))
            ]
        else:
            if self.game.outcome(position) is not None:
                return []
            moves = list(self.game.moves(position))
        return valued_moves(moves, self.probe)

    def best_moves(self, position: Any) -> list[Move[Any]]:
        """The optimal moves from `position`, in the game's order.

        The rule of :func:`perfectplay.moves.optimal_moves`: moves achieving the
        position's value (scored games: its score, then the best value among those); among
        them the shortest win or tie, the longest loss, any drawing move. Empty where the
        game is over. Cost: one probe per move.
        """
        here = self.probe(position)
        if here.remoteness == 0:
            return []
        return optimal_moves(self.move_values(position), here.value, here.score)

    def counts(self) -> list[tuple[Value, int, int]]:
        """``(value, remoteness, count)`` for every value and remoteness that occurs, sorted.

        Cost: O(n) with numpy (reads the value and remoteness arrays entirely, one
        ``bincount``; about 5 * (max remoteness + 2) counters).

        Raises
        ------
        StoreError
            If a value or remoteness is out of range (a damaged file opened unverified).
        """
        slot = _VALUE_SLOT[self.array("value")]
        remoteness = self.array("remoteness")
        low, high = int(remoteness.min(initial=0)), int(remoteness.max(initial=0))
        if (slot == len(_VALUES)).any() or low < NO_REMOTENESS:
            raise StoreError(f"{self.path} is corrupted: a value or remoteness is out of range")
        span = high + 2  # remoteness -1..high maps to 0..span-1
        tally = np.bincount(slot * span + remoteness + 1, minlength=len(_VALUES) * span)
        return [
            (_VALUES[int(k) // span], int(k) % span - 1, int(tally[k]))
            for k in np.flatnonzero(tally)
        ]

    def solution(self) -> Solution:
        """The stored solution as a :class:`~perfectplay.solution.Solution` over memory maps.

        Cost: O(n + m) to validate the graph's arrays; nothing is copied.
        """
        try:
            graph = GameGraph(
                self.array("indptr"),
                self.array("indices"),
                gain=self._arrays.get("gain"),
            )
        except InvalidGraphError as error:
            raise StoreError(f"{self.path}: corrupted moves: {error}") from None
        return Solution(
            graph,
            self.array("value"),
            self.array("remoteness"),
            score=self._arrays.get("score"),
            solver=str(self.manifest["solver"]),
        )

    def verify(self) -> None:
        """Check every array's CRC-32 against the manifest.

        Raises
        ------
        StoreError
            Naming the first array whose bytes do not match.

        Notes
        -----
        Cost: O(file size): reads the whole file (about 2 GB/s).
        """
        for name, entry in self.manifest["arrays"].items():
            if _crc(self.array(name)) != entry["crc32"]:
                raise StoreError(f"{self.path} is corrupted: checksum mismatch in {name}")

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Release the file. Arrays the caller still holds keep the mapping alive until freed."""
        self._arrays = {}
        mapping, self._mapping = self._mapping, None
        if mapping is not None:
            # Arrays handed out earlier may still export the mapping: then it is unmapped
            # when the last of them is freed.
            with contextlib.suppress(BufferError):
                mapping.close()

    def __enter__(self) -> SolutionStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        what = self.game_name or "game graph"
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"<SolutionStore {what}{' ' + params if params else ''}: n={self.n}, m={self.m}>"


def _check_manifest(path: str, manifest: Any, size: int) -> None:
    """Every field :class:`SolutionStore` relies on is present and consistent with the file."""
    if not isinstance(manifest, dict) or manifest.get("format") != "perfectplay-store":
        raise StoreError(f"{path} is corrupted: the manifest is not a perfectplay store's")
    try:
        n, m = int(manifest["n"]), int(manifest["m"])
        declared = int(manifest["file_size"])
        table = dict(manifest["arrays"])
    except (KeyError, TypeError, ValueError) as error:
        raise StoreError(f"{path} is corrupted: bad manifest field {error}") from None
    keys = ("game", "params", "solver", "scored", "start", "canonical")
    absent = [key for key in keys if key not in manifest]
    if absent:
        raise StoreError(f"{path} is corrupted: the manifest lacks {', '.join(absent)}")
    kinds = {
        "game": (str, type(None)),
        "params": (dict,),
        "solver": (str,),
        "scored": (bool,),
        "start": (int, type(None)),
        "canonical": (bool,),
    }
    for key, kind in kinds.items():
        boolean_start = key == "start" and isinstance(manifest[key], bool)
        if not isinstance(manifest[key], kind) or boolean_start:
            raise StoreError(f"{path} is corrupted: bad manifest field {key!r}")
    if n < 0 or m < 0 or not all(isinstance(entry, dict) for entry in table.values()):
        raise StoreError(f"{path} is corrupted: bad manifest sizes or array table")
    if size < declared:
        raise StoreError(f"{path} is truncated: {size} bytes, expected {declared}")
    if size > declared:
        raise StoreError(f"{path} is corrupted: {size} bytes, expected {declared}")
    required = {"value", "remoteness", "indptr", "indices"}
    if manifest["scored"]:
        required |= {"score", "gain"}
    if manifest["game"] is not None:
        required |= {"codes", "code_ids"}
    missing = required - set(table)
    if missing:
        raise StoreError(f"{path} is corrupted: missing arrays {', '.join(sorted(missing))}")
    lengths = {"indptr": n + 1, "indices": m, "gain": m}
    for name, entry in table.items():
        if name not in _ARRAY_DTYPES or entry.get("dtype") not in _ARRAY_DTYPES[name]:
            raise StoreError(f"{path} is corrupted: unexpected array {name} {entry!r}")
        if not all(isinstance(entry.get(key), int) for key in ("offset", "nbytes", "crc32")):
            raise StoreError(f"{path} is corrupted: bad offset, size or checksum of {name}")
        if entry["offset"] < 0:
            raise StoreError(f"{path} is corrupted: {name} lies outside the file")
        expected = lengths.get(name, n)
        itemsize = np.dtype(entry["dtype"]).itemsize
        if entry.get("shape") != [expected] or entry.get("nbytes") != expected * itemsize:
            raise StoreError(f"{path} is corrupted: {name} should hold {expected} entries")


def _read_manifest(source: BinaryIO, name: str, size: int) -> tuple[Any, int]:
    """The manifest of the store file `source` (`size` bytes, named `name` in errors) and
    where its data section starts; checks the magic bytes, the version and the manifest's
    CRC-32."""
    head = source.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise StoreError(f"{name} is not a perfectplay store (too short: {size} bytes)")
    magic, version, manifest_crc, length = _HEADER.unpack(head)
    if magic != MAGIC:
        raise StoreError(f"{name} is not a perfectplay store (bad magic bytes)")
    if version != FORMAT_VERSION:
        raise StoreError(
            f"{name} has store format version {version}; this perfectplay reads "
            f"version {FORMAT_VERSION}"
        )
    if length > size - _HEADER.size:
        raise StoreError(f"{name} is truncated: the manifest runs past the end")
    text = source.read(length)
    if zlib.crc32(text) != manifest_crc:
        raise StoreError(f"{name} is corrupted: manifest checksum mismatch")
    try:
        return json.loads(text), _aligned(_HEADER.size + length)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise StoreError(f"{name} is corrupted: the manifest is not JSON") from None


def open_store(
    path: str | os.PathLike[str],
    *,
    game: str | Game[Any] | None = None,
    verify: bool | Literal["auto"] = "auto",
) -> SolutionStore:
    """Open a store file written by :func:`save`, memory-mapped read-only.

    Parameters
    ----------
    path : str or PathLike
        The store file.
    game : str or Game, optional
        The game the caller expects, by name or as a game object; a file holding another
        game (or, for a game object, other parameters) is refused. A game object is used
        for look-ups: that is how to query a game of your own, not in the registry.
    verify : bool or "auto"
        Always checked on open: the magic bytes, the format version, the manifest's CRC-32,
        the file size and every array's size and dtype, O(size of the manifest). ``True``
        also checks every array's CRC-32 (reads the whole file, ~2 GB/s); ``False`` never
        does; ``"auto"`` does when the arrays total at most 64 MiB (under ~30 ms). Call
        :meth:`SolutionStore.verify` to check a large file later.

    Returns
    -------
    SolutionStore
        Use it as a context manager (``with open_store(path) as store: ...``).

    Raises
    ------
    StoreError
        If the file is missing, unreadable, not a store, of another format version,
        truncated, corrupted, or holds another game than `game`.
    """
    if verify not in (True, False, "auto"):
        raise StoreError(f"verify must be True, False or 'auto', got {verify!r}")
    name = os.fspath(path)
    try:
        with open(name, "rb") as source:
            size = os.fstat(source.fileno()).st_size
            manifest, data_start = _read_manifest(source, name, size)
            _check_manifest(name, manifest, size)
            mapping = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as error:
        if isinstance(error, StoreError):
            raise
        raise StoreError(f"cannot open {name}: {error.strerror or error}") from None
    expected = game.info.name if isinstance(game, Game) else game
    if expected is not None and manifest["game"] != expected:
        mapping.close()
        held = manifest["game"] or "a game graph"
        raise StoreError(f"{name} holds {held}, not {expected}")
    if isinstance(game, Game):
        params = json.loads(json.dumps(dict(game.info.params)))  # tuples as JSON lists
        if params != manifest["params"]:
            mapping.close()
            raise StoreError(
                f"{name} holds {expected} with parameters {manifest['params']}, not {params}"
            )
    for array_name, entry in manifest["arrays"].items():
        offset = data_start + int(entry["offset"])
        if offset % _ALIGN or offset + int(entry["nbytes"]) > size:
            mapping.close()
            raise StoreError(f"{name} is corrupted: {array_name} lies outside the file")
    arrays: dict[str, NDArray[Any]] = {
        array_name: np.frombuffer(
            mapping,
            dtype=entry["dtype"],
            count=int(entry["shape"][0]),
            offset=data_start + int(entry["offset"]),
        )
        for array_name, entry in manifest["arrays"].items()
    }
    store = SolutionStore(name, manifest, arrays, mapping, game if isinstance(game, Game) else None)
    total = sum(int(entry["nbytes"]) for entry in manifest["arrays"].values())
    if verify is True or (verify == "auto" and total <= _AUTO_VERIFY_BYTES):
        try:
            store.verify()
        except StoreError:
            del arrays
            store.close()
            raise
    return store
