"""Quixo, as GamesmanOne plays it: push cubes back into rows, n in a row wins; loopy, with draws.

The rules, exactly as GamesmanOne implements them (``src/games/quixo/quixo.c``, file version
2.1.0 of 2025-03-15, in https://github.com/GamesCrafters/GamesmanOne; its variants "3x3
3-in-a-row", "4x4 4-in-a-row" and "5x5 5-in-a-row"):

* The board is n x n, every cube blank at the start; **X moves first**.
* A move takes a cube from the edge of the board that is blank or shows the mover's symbol
  (never the opponent's), and pushes it back in at the far end of its row or column (any end
  other than where it is: a corner has 2 choices, other edge cells 3); the cubes in between
  slide one cell towards the hole. The cube shows the mover's symbol afterwards. Taking a
  blank cube adds one of the mover's cubes; blank cubes never come back.
* The player to move is part of the position (the same board may occur with either to move).
* A position is over when a row, column or main diagonal is all one symbol: it is a WIN for
  the player to move if they have such a line (whether or not the opponent has one too),
  otherwise a LOSE. So a push that completes lines of both symbols loses for the pusher, and
  a push that completes only the opponent's line loses too.
* Endless play is a DRAW.

Values, for the player to move: the 3x3 start is a WIN in 7 (no draws); the 4x4 start is a WIN
in 21, as GamesmanOne reports, with 82,497,861 positions reachable from the start in
10,339,244 classes up to symmetry (GamesmanOne: 10.3 million), of which 3,213,236 positions
(402,690 classes) are draws (``perfectplay solve quixo --param size=4 --tiers DIR``, then
``perfectplay analyze DIR``). A player is never without a move: all edge cubes the
opponent's would make a line of theirs.

GamesmanOne also rules out, as illegal, positions where the player who has just moved has no
cube on the edge (the cube they pushed in lands on the edge); :class:`TieredQuixo` solves the
same positions: its slots are the canonical positions passing this test.

A position is ``(board, turn)``: `board` is a string of n * n cells ``X``, ``O`` or ``-``, row by
row from the top, and `turn` is ``"X"`` or ``"O"``, the player to move. Move labels are
GamesmanOne's move strings without the space: the cell taken, numbered 1 to n * n row by row
from the top left, and the end it is pushed in at, ``R``/``L`` (right or left end of its row),
``D``/``U`` (bottom or top of its column): ``"1R"`` takes the top-left cube and pushes it in at
the right end of the top row. Moves come in GamesmanOne's order. The 8 symmetries of the square
keep the value; :meth:`Quixo.canonical` picks the image whose bitboards (X first, then O;
bit ``d`` for cell ``d``) are smallest.

:class:`TieredQuixo` is the same game for the tier engine (:mod:`perfectplay.tiers`): tier
``(nx, no)`` holds the positions with ``nx`` X cubes and ``no`` O cubes; a move stays in the
tier (the mover took their own cube) or goes to the tier with one more of the mover's cubes.
Ranks and the kernels are described in :mod:`perfectplay.games.quixo._kernels`.

References
----------
GamesCrafters, *GamesmanOne*, ``src/games/quixo/quixo.c`` (R. Shi et al., after F. Bonnet's
solver of 5x5 Quixo, arXiv:2007.15895), https://github.com/GamesCrafters/GamesmanOne.
S. Tanaka, F. Bonnet, S. Tixeuil, Y. Tamura, *Quixo is solved*, arXiv:2007.15895, 2020.

Examples
--------
>>> game = Quixo(3)
>>> [label for label, _ in game.moves(game.initial())][:6]
['1R', '2L', '1D', '4U', '2R', '3L']
>>> board, turn = dict(game.moves(game.initial()))["1R"]
>>> print(game.render((board, turn)))
- - X
- - -
- - -
O to move
>>> game.outcome(("XXXOOO---", "X"))  # both have a line: the player to move wins
<Value.WIN: 3>
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.quixo import _kernels as kernels
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.values import Value

__all__ = ["SIZES", "Quixo", "QuixoPosition", "TieredQuixo"]

SIZES = (3, 4, 5)
"""The board sides GamesmanOne plays (its three variants)."""

QuixoPosition = tuple[str, str]
"""``(board, turn)``: n * n cells ``X``/``O``/``-`` row by row from the top; ``"X"``/``"O"``."""

_SYMBOLS = "XO"


def _check_size(size: Any) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise GameDefinitionError(
            f"quixo needs a board side of 3, 4 or 5 (GamesmanOne's variants), got {size!r}"
        )
    return size


def _bitboards(board: str) -> tuple[int, int]:
    x = sum(1 << d for d, cell in enumerate(board) if cell == "X")
    o = sum(1 << d for d, cell in enumerate(board) if cell == "O")
    return x, o


def _board(x: int, o: int, cells: int) -> str:
    return "".join("X" if x >> d & 1 else "O" if o >> d & 1 else "-" for d in range(cells))


class Quixo(Game[QuixoPosition]):
    """Quixo on a `size` x `size` board, GamesmanOne's rules (see the module docstring).

    Parameters
    ----------
    size : int
        Board side: 3, 4 or 5 (n in a row wins). 3x3 has 39,366 positions (in memory in a
        second); 4x4 and 5x5 are for the tier engine (:class:`TieredQuixo`).

    Raises
    ------
    GameDefinitionError
        If `size` is not 3, 4 or 5.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = _check_size(size)
        self.info = GameInfo(
            "quixo",
            {"size": size},
            cyclic=True,
            description=f"Quixo on {size}x{size} (GamesmanOne's rules)",
        )
        n = size
        self._moves = kernels.move_list(n)
        self._lines = [[r * n + c for c in range(n)] for r in range(n)]
        self._lines += [[r * n + c for r in range(n)] for c in range(n)]
        self._lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
        self._perms = kernels.symmetries(n)

    def initial(self) -> QuixoPosition:
        return "-" * (self.size * self.size), "X"

    def position_bound(self) -> int:
        """Every board of X, O and blank cells, with either player to move: ``2 * 3**(n*n)``."""
        return 2 * 3 ** (self.size * self.size)

    def moves(self, position: QuixoPosition) -> list[tuple[str, QuixoPosition]]:
        board, turn = position
        if self.outcome(position) is not None:
            return []
        other = "O" if turn == "X" else "X"
        n = self.size
        result = []
        for label, src, dest in self._moves:
            if board[src] == other:
                continue
            step = (1 if abs(src - dest) < n else n) * (1 if dest > src else -1)
            cells = list(board)
            for d in range(src, dest, step):  # the cubes between slide towards the hole
                cells[d] = cells[d + step]
            cells[dest] = turn
            result.append((label, ("".join(cells), other)))
        return result

    def _line(self, board: str, symbol: str) -> bool:
        return any(all(board[d] == symbol for d in line) for line in self._lines)

    def outcome(self, position: QuixoPosition) -> Value | None:
        board, turn = position
        if self._line(board, turn):
            return Value.WIN
        if self._line(board, "O" if turn == "X" else "X"):
            return Value.LOSE
        return None

    def canonical(self, position: QuixoPosition) -> QuixoPosition:
        board, turn = position

        def key(perm: list[int]) -> tuple[int, int]:
            image = [""] * len(board)
            for d, cell in enumerate(board):
                image[perm[d]] = cell
            return _bitboards("".join(image))

        x, o = min(key(perm) for perm in self._perms)
        return _board(x, o, len(board)), turn

    def render(self, position: QuixoPosition) -> str:
        board, turn = position
        n = self.size
        grid = [" ".join(board[r * n : (r + 1) * n]) for r in range(n)]
        return "\n".join([*grid, f"{turn} to move"])

    def notation(self, position: QuixoPosition) -> str:
        """The rows from the top joined by ``/``, a blank and the side to move (``X--/-O-/--- X``
        on 3x3)."""
        board, turn = position
        n = self.size
        return "/".join(board[r * n : (r + 1) * n] for r in range(n)) + f" {turn}"

    def parse(self, text: str) -> QuixoPosition:
        """The position :meth:`render` draws (rows, then ``X to move``/``O to move``) or
        :meth:`notation` writes (rows joined by ``/``, a blank, ``X`` or ``O``)."""
        lines = text.strip().splitlines()
        if len(lines) == 1 and "/" in lines[0]:
            rows, _, side = lines[0].rpartition(" ")
            lines = [*rows.split("/"), f"{side} to move"]
        n = self.size
        words = lines[-1].split() if lines else []
        turn = words[0].upper() if len(words) == 3 and words[1:] == ["to", "move"] else ""
        board = "".join("".join(line.split()) for line in lines[:-1]).upper()
        if turn not in ("X", "O") or len(board) != n * n or set(board) - set("XO-"):
            raise InputFormatError(
                f"expected {n} lines of {n} cells (X, O or -) and 'X to move' or 'O to move', "
                f"got {text!r}"
            )
        return board, turn

    def encode(self, position: QuixoPosition) -> int:
        board, turn = position
        code = 0
        for cell in board:
            code = code * 3 + "-XO".index(cell)
        return code * 2 + (turn == "O")

    def decode(self, code: int) -> QuixoPosition:
        code, o_turn = divmod(code, 2)
        cells = []
        for _ in range(self.size * self.size):
            code, digit = divmod(code, 3)
            cells.append("-XO"[digit])
        return "".join(reversed(cells)), "O" if o_turn else "X"


Tier = int
"""A tier ``(nx, no)`` as the integer ``nx * (n * n + 1) + no``."""


class TieredQuixo(TieredGame):
    """Quixo for the tier engine: tiers by the numbers of X and O cubes (module docstring).

    The tiers are the start ``(0, 0)``, ``(1, 0)`` (O to move after X's first cube) and every
    ``(nx, no)`` with ``nx, no >= 1`` and ``nx + no <= n * n``. Tier ``(nx, no)`` has
    ``2 * C(n*n, nx) * C(n*n - nx, no)`` ranks (both players to move); its slots are the
    canonical ranks that pass GamesmanOne's legality test. 4x4: 85,831,334 ranks in all
    (10,693,969 slots), 5x5: 1.7 * 10^12 (the engine refuses it: about 1.1 TiB of memory for
    its largest tier).

    Parameters
    ----------
    size : int
        Board side: 3, 4 or 5.

    Examples
    --------
    >>> game = TieredQuixo(4)
    >>> start, rank = game.initial()
    >>> game.tier_label(start), [game.tier_label(t) for t in game.child_tiers(start)]
    ('16Blank_0X_0O', ['15Blank_1X_0O'])
    >>> moves = game.children(start, np.array([rank]))
    >>> len(moves.rank), sorted(set(moves.rank.tolist()))  # 32 pushes, 2 boards up to symmetry
    (32, [1, 3])
    """

    def __init__(self, size: int = 4) -> None:
        self.size = _check_size(size)
        self.cells = size * size
        self.info = GameInfo(
            "quixo",
            {"size": size},
            cyclic=True,
            description=f"Quixo on {size}x{size} (GamesmanOne's rules), by cube counts",
        )
        self._tables = kernels.tables(size)
        self._game = Quixo(size)
        counts = [(0, 0), (1, 0)]
        counts += [(x, o) for x in range(1, self.cells) for o in range(1, self.cells + 1 - x)]
        self._tiers = [self._tier(x, o) for x, o in counts]
        self._known = set(self._tiers)

    # ------------------------------------------------------------------ tiers
    def _tier(self, nx: int, no: int) -> Tier:
        return nx * (self.cells + 1) + no

    def counts(self, tier: Tier) -> tuple[int, int]:
        """``(nx, no)`` of `tier`; raises GameDefinitionError for a tier the game lacks."""
        if tier not in self._known:
            raise GameDefinitionError(f"quixo {self.size}x{self.size} has no tier {tier!r}")
        nx, no = divmod(tier, self.cells + 1)
        return nx, no

    def tiers(self) -> list[Tier]:
        return list(self._tiers)

    def child_tiers(self, tier: Tier) -> list[Tier]:
        nx, no = self.counts(tier)
        if nx + no == self.cells:
            return []
        return [t for t in (self._tier(nx + 1, no), self._tier(nx, no + 1)) if t in self._known]

    def _which(self, tier: Tier) -> tuple[int, int]:
        """``which`` codes of the tiers where X or O takes a blank cube (0: not a child tier)."""
        nx, no = self.counts(tier)
        children = self.child_tiers(tier)
        x_tier, o_tier = self._tier(nx + 1, no), self._tier(nx, no + 1)
        x_code = children.index(x_tier) + 1 if x_tier in children else 0
        return x_code, children.index(o_tier) + 1 if o_tier in children else 0

    def tier_size(self, tier: Tier) -> int:
        nx, no = self.counts(tier)
        return 2 * comb(self.cells, nx) * comb(self.cells - nx, no)

    def tier_label(self, tier: Tier) -> str:
        """GamesmanOne's tier name, e.g. ``"6Blank_5X_5O"``."""
        nx, no = self.counts(tier)
        return f"{self.cells - nx - no}Blank_{nx}X_{no}O"

    def inner_moves(self, tier: Tier) -> bool:
        """Moves stay in the tier when the mover takes their own cube: not at the first two."""
        nx, no = self.counts(tier)
        return nx >= 1 and no >= 1

    def max_moves(self) -> int:
        """Every edge cell pushed to each of its far ends: ``4 * (3n - 4)``."""
        return 4 * (3 * self.size - 4)

    # ------------------------------------------------------------------ positions
    def children(self, tier: Tier, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~20 ns per child on 4x4 (module
        :mod:`~perfectplay.games.quixo._kernels`)."""
        nx, no = self.counts(tier)
        which_x, which_o = self._which(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, which_x, which_o, self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: Tier, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical slots of `tier` with a move inside the tier to each rank (a parent with
        symmetric moves to it may repeat); ~30 ns per parent on 4x4."""
        nx, no = self.counts(tier)
        return kernels.parents(np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables)

    def slots(self, tier: Tier, start: int, stop: int) -> NDArray[np.bool_]:
        """Canonical ranks passing GamesmanOne's legality test; ~5 ns per rank on 4x4."""
        nx, no = self.counts(tier)
        return kernels.slots(start, stop, nx, no, self._tables)

    def orbit_sizes(self, tier: Tier, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """How many distinct boards the 8 symmetries make of each rank's board (1, 2, 4 or 8)."""
        nx, no = self.counts(tier)
        return kernels.orbit_sizes(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables
        )

    def initial(self) -> tuple[Tier, int]:
        return self.locate(self._game.initial())

    def position(self, tier: Tier, rank: int) -> QuixoPosition:
        nx, no = self.counts(tier)
        if not 0 <= rank < self.tier_size(tier):
            raise GameDefinitionError(
                f"rank {rank} is outside tier {self.tier_label(tier)} "
                f"(0..{self.tier_size(tier) - 1})"
            )
        xs, os, turns = kernels.boards(np.array([rank], dtype=np.int64), nx, no, self._tables)
        return _board(int(xs[0]), int(os[0]), self.cells), _SYMBOLS[int(turns[0])]

    def locate(self, position: Any) -> tuple[Tier, int]:
        board, turn = self._checked(position)
        x, o = _bitboards(board)
        nx, no = board.count("X"), board.count("O")
        tier = self._tier(nx, no)
        if tier not in self._known:
            raise InputFormatError(
                f"no quixo game reaches a board with {nx} X and {no} O cubes (X moves first)"
            )
        xs, os = np.array([x], dtype=np.int64), np.array([o], dtype=np.int64)
        turns = np.array([_SYMBOLS.index(turn)], dtype=np.int64)
        rank = kernels.ranks(xs, os, turns, nx, no, self._tables, True)
        return tier, int(rank[0])

    def _checked(self, position: Any) -> QuixoPosition:
        ok = isinstance(position, tuple) and len(position) == 2
        board, turn = position if ok else ("", "")
        if not (
            isinstance(board, str) and len(board) == self.cells and not set(board) - set("XO-")
        ) or turn not in ("X", "O"):
            raise InputFormatError(
                f"expected a quixo position (board of {self.cells} cells X/O/-, 'X' or 'O' to "
                f"move), got {position!r}"
            )
        return board, turn

    def as_game(self) -> Quixo:
        return self._game
