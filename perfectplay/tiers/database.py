"""A solved tiered game, read back: values of positions, moves with their values, counts.

:class:`TierDatabase` answers like a saved store
(:class:`~perfectplay.store.SolutionStore`): ``probe``/``get`` a position, ``move_values`` and
``best_moves`` for play, every value **for the player to move**. A tier directory is read
lazily: a look-up decompresses one block of one tier file (about a millisecond), nothing is
re-solved.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import PositionNotFoundError, StoreError
from perfectplay.moves import Move, optimal_moves
from perfectplay.protocol.answers import GetByProbe, PositionValue, valued_moves
from perfectplay.protocol.game import Game
from perfectplay.protocol.tiered import GameLoader, TieredGame
from perfectplay.tiers.files import TierFile, damage
from perfectplay.tiers.records import NO_POSITION, unpack
from perfectplay.tiers.storage import (
    MemoryStore,
    check_fingerprint,
    game_manifest,
    json_params,
    read_manifest,
)
from perfectplay.values import NO_REMOTENESS, Value

if TYPE_CHECKING:
    from perfectplay.tiers.plan import SolveStats

__all__ = ["TierDatabase"]


OPEN_FILES = 256
"""Tier files a database keeps open at most (each a descriptor and a mapping)."""

REPAIR = "solving into the directory again solves it again"
"""What repairs a missing or damaged tier file: a solve into the directory keeps every good
file and solves the others again; every error naming such a file ends with it."""


@contextlib.contextmanager
def _repairable() -> Iterator[None]:
    """Within the block, a tier file's error (missing, damaged, another tier's) says what
    repairs it (:data:`REPAIR`)."""
    try:
        yield
    except StoreError as error:
        raise StoreError(f"{error}; {REPAIR}") from None


class TierDatabase(GetByProbe):
    """The solution of a tiered game: a tier directory, or tiers solved in memory.

    Open a directory with :func:`perfectplay.open_tiers` (or :meth:`TierDatabase.open`);
    :func:`~perfectplay.tiers.engine.solve_tiers` returns one too.
    """

    def __init__(
        self,
        game: TieredGame,
        order: Sequence[int],
        *,
        directory: str | None = None,
        memory: MemoryStore | None = None,
    ) -> None:
        self.tiered = game
        """The tiered game."""
        self._game: Game[Any] | None = None
        self.stats: SolveStats | None = None
        """What the run of ``solve_tiers`` that returned this database did (else None)."""
        self.order = list(order)
        """The tiers in the order they were solved (children first)."""
        self.directory = directory
        """The tier directory, or None for tiers held in memory."""
        self._memory = memory
        self._files: dict[int, TierFile] = {}
        self._labels = {t: game.tier_label(t) for t in self.order}

    @classmethod
    def in_memory(cls, game: TieredGame, order: Sequence[int], store: MemoryStore) -> TierDatabase:
        """The database of tiers solved in memory."""
        return cls(game, order, memory=store)

    @classmethod
    def open(
        cls,
        directory: str,
        *,
        game: TieredGame | None = None,
        loader: GameLoader | None = None,
        partial: bool = False,
    ) -> TierDatabase:
        """Open a tier directory (see :func:`perfectplay.open_tiers`); `partial`: also one
        whose solve is not finished (read only: :meth:`complete` says which tiers it holds)."""
        manifest = read_manifest(directory)
        if game is None:
            if loader is None:
                raise StoreError(
                    f"{directory}: opening a tier directory needs its game or a loader that "
                    f"rebuilds {manifest['game']!r} from its name and parameters"
                )
            params = {
                k: tuple(v) if isinstance(v, list) else v for k, v in manifest["params"].items()
            }
            try:
                game = loader(manifest["game"], params)
            except Exception as error:  # an unknown game or parameter: the manifest is wrong
                raise StoreError(f"{directory}: cannot rebuild its game ({error})") from None
        expected = game_manifest(game, manifest["tiers"], manifest["chunk"], manifest["block"])
        if any(expected[k] != manifest[k] for k in ("game", "params", "tiers", "sizes")):
            raise StoreError(f"{directory} does not hold the tiers of {game!r}")
        check_fingerprint(directory, manifest, expected["fingerprint"])
        db = cls(game, manifest["tiers"], directory=directory)
        missing = [db._labels[t] for t in db.order if not db.complete(t)]
        if missing and not partial:
            raise StoreError(
                f"{directory} is not completely solved: tiers {', '.join(missing[:5])}"
                f"{' ...' if len(missing) > 5 else ''} are missing (run the solve again)"
            )
        return db

    # ------------------------------------------------------------------ tiers
    def _path(self, tier: int) -> str:
        assert self.directory is not None
        return os.path.join(self.directory, f"tier-{self._labels[tier]}.tier")

    def _file(self, tier: int) -> TierFile:
        """`tier`'s file, kept open among the :data:`OPEN_FILES` used last (Connect Four 6x6
        has 58,996 tiers: more files than a process may hold open)."""
        f = self._files.pop(tier, None)
        if f is None:
            f = TierFile(self._path(tier))
            if f.meta.get("tier") != tier or f.stop != self.tiered.tier_size(tier):
                f.close()
                raise StoreError(f"{f.path}: holds tier {f.meta.get('tier')}, not tier {tier}")
            if len(self._files) >= OPEN_FILES:  # dropped, not closed: a reader may hold it
                self._files.pop(next(iter(self._files)), None)
        self._files[tier] = f  # the most recently used last
        return f

    def complete(self, tier: int) -> bool:
        """Whether `tier` is solved and stored (a directory opened ``partial`` may lack some).

        Cost: one ``os.path.exists`` for a directory.
        """
        if self._memory is not None:
            return tier in self._memory.tiers
        return tier in self._labels and os.path.exists(self._path(tier))

    def _check_tier(self, tier: int) -> None:
        if tier not in self._labels:
            raise PositionNotFoundError(f"{tier} is not a tier of {self.tiered.info.name}")

    def records(self, tier: int) -> NDArray[np.unsignedinteger]:
        """The packed records of every rank of `tier` (:mod:`perfectplay.tiers.records`).

        Cost: one decompression of the tier (checksums verified) for a directory.
        """
        self._check_tier(tier)
        if self._memory is not None:
            return self._memory.tiers[tier].records
        with _repairable():
            return self._file(tier).read("records")

    def arrays(self, tier: int) -> tuple[NDArray[np.uint8], NDArray[np.int32]]:
        """Value (UNDECIDED where a rank is no position) and remoteness of every rank of `tier`."""
        return unpack(self.records(tier))

    def scores(self, tier: int) -> NDArray[np.int64]:
        """Scored games: the score of every rank of `tier`."""
        self._check_tier(tier)
        if not self.tiered.info.scored:
            raise StoreError(f"{self.tiered.info.name} is not a scored game")
        if self._memory is not None:
            scores = self._memory.tiers[tier].scores
            assert scores is not None
            return scores
        with _repairable():
            return self._file(tier).read("scores")

    def entry(self, tier: int, rank: int) -> PositionValue:
        """The value of rank `rank` of `tier` for the player to move.

        Raises
        ------
        PositionNotFoundError
            If the rank is outside the tier or no position.
        """
        self._check_tier(tier)
        if not 0 <= rank < self.tiered.tier_size(tier):
            raise PositionNotFoundError(f"rank {rank} is outside tier {self._labels[tier]}")
        score = None
        if self._memory is not None:
            solved = self._memory.tiers[tier]
            record = int(solved.records[rank])
            if solved.scores is not None:
                score = int(solved.scores[rank])
        else:
            with _repairable():
                f = self._file(tier)
                record = int(f.get("records", rank))
                if "scores" in f.arrays:
                    score = int(f.get("scores", rank))
        if record == NO_POSITION:
            raise PositionNotFoundError(
                f"rank {rank} of tier {self._labels[tier]} is no position of {self.game_name}"
            )
        value = Value((record - 1) & 3)
        remoteness = NO_REMOTENESS if value == Value.DRAW else (record - 1) >> 2
        return PositionValue(value, remoteness, score)

    # ------------------------------------------------------------------ positions
    def probe(self, position: Any) -> PositionValue:
        """The value of `position` (a position of ``game.as_game()``) for the player to move.

        Raises
        ------
        PositionNotFoundError
            If `position` is not a position of the game. Cost: one block decompressed.
        """
        return self.entry(*self.tiered.locate(position))

    @property
    def initial(self) -> Any:
        """The start position (of ``game.as_game()``)."""
        return self.game.initial()

    def move_values(self, position: Any) -> list[Move[Any]]:
        """Every move from `position` with its label and value for the player making it.

        Empty where the game is over. Cost: one probe per move.
        """
        game = self.game
        if game.outcome(position) is not None:
            return []
        return valued_moves(game.moves(position), self.probe)

    def best_moves(self, position: Any) -> list[Move[Any]]:
        """The optimal moves from `position` (the rule of
        :func:`perfectplay.moves.optimal_moves`). Empty where the game is over."""
        here = self.probe(position)
        if here.remoteness == 0:
            return []
        return optimal_moves(self.move_values(position), here.value, here.score)

    # ------------------------------------------------------------------ whole database
    def verify(self) -> None:
        """Check every tier file's checksums and decompress it. Cost: one read of everything.

        Raises
        ------
        StoreError
            Naming the first damaged file, and what repairs it.
        """
        if self._memory is None:
            with _repairable():
                for tier in self.order:
                    f = self._file(tier)
                    for name in f.arrays:
                        f.read(name)

    def check(self) -> None:
        """Check every tier file's checksums, without decompressing. Cost: one read of the
        compressed files.

        Raises
        ------
        StoreError
            Naming the first damaged or missing file, and what repairs it.
        """
        if self._memory is None:
            for tier in self.order:
                why = damage(self._path(tier))
                if why is not None:
                    raise StoreError(f"{why}; {REPAIR}")

    @property
    def game(self) -> Game[Any]:
        """The same game as an ordinary Game (``as_game()``): positions, labels, ``render``,
        ``parse``."""
        if self._game is None:
            self._game = self.tiered.as_game()
        return self._game

    @property
    def game_name(self) -> str:
        """The game's registered name."""
        return self.tiered.info.name

    @property
    def params(self) -> dict[str, Any]:
        """The game's parameters, as JSON values."""
        return json_params(self.tiered.info.params)

    def footprint(self) -> tuple[int, int]:
        """``(stored classes, bytes)``: ranks that are positions, and the size of the tier files
        (of the records in memory for tiers solved in memory). Cost: reads the headers only."""
        if self.directory is None:
            assert self._memory is not None
            solved = self._memory.tiers.values()
            return sum(int(np.count_nonzero(t.records)) for t in solved), sum(
                t.records.nbytes + (0 if t.scores is None else t.scores.nbytes) for t in solved
            )
        with _repairable():
            stored = sum(int(self._file(t).meta["stored"]) for t in self.order)
        size = sum(os.path.getsize(self._path(t)) for t in self.order)
        return stored, size

    def describe(self) -> str:
        """``name (k=v, ...)`` of the game, as messages show it, a sequence's items joined by
        commas as ``--param`` takes them (``squadro (speeds=1,3, home=1)``)."""
        params = self.tiered.info.param_text(", ")
        return self.tiered.info.name + (f" ({params})" if params else "")

    def close(self) -> None:
        """Close the tier files."""
        for f in self._files.values():
            f.close()
        self._files.clear()

    def __enter__(self) -> TierDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.directory if self.directory is not None else "memory"
        return f"<TierDatabase {self.describe()} in {where}: {len(self.order)} tiers>"
