"""Nine Men's Morris and its family: place stones, then move them; a mill removes a stone.

The standard rules as R. Gasser (1996) and G. Gévay & G. Danner (Malom, 2015) solve them,
with the variants the same code serves (the board layouts: :mod:`.board`):

* White and Black each have ``stones`` stones in hand (Nine Men's Morris: 9); the board is
  empty and **White moves first**.
* Placing: the player to move puts a stone from their hand on an empty point. Once both
  hands are empty, moving: the player to move slides a stone along a line to a neighbouring
  empty point. A player with exactly 3 stones on the board and none in hand may *jump* (move a
  stone to any empty point) where the variant flies.
* A placement or move that closes a mill (three of the mover's stones on a mill, one of them
  the stone just placed or moved) removes one opposing stone, part of the same move: a stone
  in no mill of its owner, or any stone if all of them are in mills. Closing two mills at once
  still removes one stone.
* The player to move loses with fewer than 3 stones (on the board and in hand together) or
  without a legal move. Endless play is a DRAW.

The variants (``variant``; ``stones`` 3 to 12 replaces the variant's count of stones):

============== ============ ====== ========= ===========================================
variant        board        stones jumps     other
============== ============ ====== ========= ===========================================
``nine``       nine         9      yes       Nine Men's Morris
``lasker``     nine         10     yes       a player may move instead of placing while
                                             stones are still in hand (Lasker Morris)
``morabaraba`` morabaraba   12     yes       the diagonals are lines (and mills)
``six``        six          6      no        Six Men's Morris
``three``      three        3      no        Three Men's Morris (a mill wins: the removal
                                             leaves 2 stones)
============== ============ ====== ========= ===========================================

A position is ``(board, turn, white_in_hand, black_in_hand)``: `board` a string of one
character per point in the board's point order (:mod:`.board`: ``a1 d1 g1 b2 ...`` for the
24-point boards), ``W``, ``B`` or ``-``; `turn` ``"W"`` or ``"B"``. Its notation is the board,
the side to move and the stones in hand of White and Black, blanks apart:
``------------------------ W 9 9`` is the start. Move labels are the literature's: ``d2`` places
a stone on d2, ``d2-d3`` moves (or jumps) the stone on d2 to d3, and a move that closes a mill
names its removal after ``x``: ``d2xg7``, ``d2-d3xg7``.

The board's symmetries keep the value, and so does exchanging the colours with the stones in
hand and the side to move: :meth:`Mills.canonical` makes White the player to move, then picks
the image whose bitboards (White first, then Black; bit ``d`` for point ``d``) are smallest.

References
----------
R. Gasser, *Solving Nine Men's Morris*, Computational Intelligence 12 (1996);
G. E. Gévay and G. Danner, *Calculating ultra-strong and extended solutions for Nine Men's
Morris, Morabaraba, and Lasker Morris*, IEEE TCIAIG 8 (2016), arXiv:1408.0032.

Examples
--------
>>> game = Mills()
>>> start = game.initial()
>>> game.notation(start), [label for label, _ in game.moves(start)][:3]
('------------------------ W 9 9', ['a1', 'd1', 'g1'])
>>> p = game.parse("WW------B-B------------- W 1 1")
>>> [label for label, _ in game.moves(p)][:3]
['g1xe3', 'g1xb4', 'b2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import comb
from typing import Any

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.mills.board import Layout, layout
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = ["VARIANTS", "Mills", "MillsPosition", "Variant", "swap_colours", "variant_of"]

MillsPosition = tuple[str, str, int, int]
"""``(board, turn, white_in_hand, black_in_hand)``: points ``W``/``B``/``-``; ``"W"``/``"B"``."""


@dataclass(frozen=True)
class Variant:
    """One member of the family: its board, stones per side and the two rule switches."""

    name: str
    """The variant's name (a key of :data:`VARIANTS`)."""
    board: Layout
    """The board layout."""
    stones: int
    """Stones per side."""
    jumps: bool
    """Whether a player with 3 stones on the board and none in hand jumps."""
    lasker: bool
    """Whether a player with stones in hand may move instead of placing."""


VARIANTS = {
    "nine": ("nine", 9, True, False),
    "lasker": ("nine", 10, True, True),
    "morabaraba": ("morabaraba", 12, True, False),
    "six": ("six", 6, False, False),
    "three": ("three", 3, False, False),
}
"""Each variant's board layout, stones per side, whether 3 stones jump, and Lasker's rule."""


def variant_of(name: Any, stones: Any) -> Variant:
    """The variant `name` with `stones` per side (0: the variant's own count).

    Raises
    ------
    GameDefinitionError
        For an unknown variant, or stones outside 3..12 or more than half the points.
    """
    if name not in VARIANTS:
        raise GameDefinitionError(
            f"no morris variant {name!r}; the variants: {', '.join(VARIANTS)}"
        )
    board, default, jumps, lasker = VARIANTS[name]
    count = default if stones == 0 else stones
    points = len(layout(board).points)
    if (
        isinstance(stones, bool)
        or not isinstance(stones, int)
        or not 3 <= count <= min(12, points // 2)
    ):
        raise GameDefinitionError(
            f"morris needs stones between 3 and {min(12, points // 2)} on the {board} board "
            f"(or 0 for the variant's {default}), got {stones!r}"
        )
    return Variant(name, layout(board), count, jumps, lasker)


def swap_colours(board: str) -> str:
    """`board` with White's and Black's stones exchanged."""
    return board.translate(str.maketrans("WB", "BW"))


class Mills(Game[MillsPosition]):
    """A game of the Morris family (see the module docstring for the rules).

    Parameters
    ----------
    variant : str
        ``nine`` (Nine Men's Morris), ``lasker``, ``morabaraba``, ``six`` or ``three``.
    stones : int
        Stones per side, 3 to 12 (at most half the points); 0: the variant's own.

    Raises
    ------
    GameDefinitionError
        If a parameter is out of range.
    """

    def __init__(self, variant: str = "nine", stones: int = 0) -> None:
        self.variant = variant_of(variant, stones)
        self.board = self.variant.board
        self.points = len(self.board.points)
        self.stones = self.variant.stones
        self.info = GameInfo(
            "nine-mens-morris",
            {"variant": variant, "stones": stones},
            cyclic=True,
            description=f"Morris ({variant}, {self.stones} stones each)",
        )
        self._mills_of = [[m for m in self.board.mills if d in m] for d in range(self.points)]

    def initial(self) -> MillsPosition:
        return "-" * self.points, "W", self.stones, self.stones

    # ------------------------------------------------------------------ the rules
    def in_mill(self, board: str, d: int) -> bool:
        """Whether the stone on point `d` of `board` is in a mill of its colour."""
        return any(all(board[q] == board[d] for q in m) for m in self._mills_of[d])

    def outcome(self, position: MillsPosition) -> Value | None:
        """LOSE where the player to move has fewer than 3 stones; else None (a player without
        a move has lost too: they have no moves)."""
        board, turn, wf, bf = position
        return Value.LOSE if board.count(turn) + (wf if turn == "W" else bf) < 3 else None

    def can_jump(self, board: str, turn: str, in_hand: int) -> bool:
        """Whether `turn`'s stones jump: the variant flies, 3 on the board and none in hand."""
        return self.variant.jumps and in_hand == 0 and board.count(turn) == 3

    def moves(self, position: MillsPosition) -> list[tuple[str, MillsPosition]]:
        """Placements (points in order), then moves (stones in point order, each to its
        targets in point order), each closing a mill once per removable stone in point
        order. Cost: O(points^2) per position."""
        if self.outcome(position) is not None:
            return []
        board, turn, wf, bf = position
        other = "B" if turn == "W" else "W"
        hand = wf if turn == "W" else bf
        names = self.board.points
        steps: list[tuple[str, str, int, int]] = []  # (label, board, wf, bf) before removal
        if hand:
            for d in range(self.points):
                if board[d] == "-":
                    after = board[:d] + turn + board[d + 1 :]
                    steps.append((names[d], after, wf - (turn == "W"), bf - (turn == "B")))
        if hand == 0 or self.variant.lasker:
            jumps = self.can_jump(board, turn, hand)
            for s in range(self.points):
                if board[s] != turn:
                    continue
                targets = range(self.points) if jumps else self.board.neighbours[s]
                for d in targets:
                    if board[d] == "-":
                        cells = list(board)
                        cells[s], cells[d] = "-", turn
                        steps.append((f"{names[s]}-{names[d]}", "".join(cells), wf, bf))
        out = []
        for label, after, w, b in steps:
            d = names.index(label.split("-")[-1])
            theirs = [q for q in range(self.points) if after[q] == other]
            if not theirs or not self.in_mill(after, d):
                out.append((label, (after, other, w, b)))
                continue
            free = [q for q in theirs if not self.in_mill(after, q)] or theirs
            for q in free:
                gone = after[:q] + "-" + after[q + 1 :]
                out.append((f"{label}x{names[q]}", (gone, other, w, b)))
        return out

    def canonical(self, position: MillsPosition) -> MillsPosition:
        """White to move (colours and hands exchanged if Black is), then the image under the
        board's symmetries with the smallest ``(white bits, black bits)``. Cost: O(16 points)."""
        board, turn, wf, bf = position
        if turn == "B":
            board, turn, wf, bf = swap_colours(board), "W", bf, wf
        best: tuple[int, int] | None = None
        for perm in self.board.symmetries:
            w = sum(1 << perm[d] for d, c in enumerate(board) if c == "W")
            b = sum(1 << perm[d] for d, c in enumerate(board) if c == "B")
            if best is None or (w, b) < best:
                best = (w, b)
        assert best is not None
        w, b = best
        cells = "".join(
            "W" if w >> d & 1 else "B" if b >> d & 1 else "-" for d in range(self.points)
        )
        return cells, turn, wf, bf

    def position_bound(self) -> int:
        """Boards of each count of stones on the board with each count in hand (canonical
        forms have White to move): 1,275,120 for the 24-point board with 3 stones each."""
        n, k = self.points, self.stones
        total = 0
        for mf in range(k + 1):
            for of in range(k + 1):
                for m in range(k - mf + 1):
                    for o in range(k - of + 1):
                        if m + o <= n:
                            total += comb(n, m) * comb(n - m, o)
        return total

    # ------------------------------------------------------------------ text
    def render(self, position: MillsPosition) -> str:
        """The board, rank 1 at the bottom, with its coordinates (``.`` an empty point; the
        lines drawn with ``-`` and ``|``, Morabaraba's diagonals left out), then who is to
        move and the stones in hand. Cost: O(side^2 + points)."""
        board, turn, wf, bf = position
        side = self.board.side
        at = {xy: d for d, xy in enumerate(self.board.xy)}
        across: set[tuple[int, int]] = set()
        down: set[tuple[int, int]] = (
            set()
        )  # (x, y) a horizontal line leaves rightwards; a vertical passes
        for a in range(self.points):
            (xa, ya) = self.board.xy[a]
            for b in self.board.neighbours[a]:
                (xb, yb) = self.board.xy[b]
                if ya == yb:
                    across.update((x, ya) for x in range(min(xa, xb), max(xa, xb)))
                elif xa == xb:
                    down.update((xa, y) for y in range(min(ya, yb) + 1, max(ya, yb)))
        rows = []
        for y in range(side - 1, -1, -1):
            chars = []
            for x in range(side):
                d = at.get((x, y))
                cell = (
                    board[d].replace("-", ".")
                    if d is not None
                    else "|"
                    if (x, y) in down
                    else "-"
                    if (x - 1, y) in across
                    else " "
                )
                chars.append(cell + ("-" if (x, y) in across else " "))
            rows.append(f"{y + 1} {''.join(chars).rstrip()}")
        rows.append("  " + " ".join("abcdefghi"[:side]))
        rows.append(f"{turn} to move, in hand: W {wf}, B {bf}")
        return "\n".join(rows)

    def notation(self, position: MillsPosition) -> str:
        """The points in order, the side to move and the stones in hand of White and Black."""
        board, turn, wf, bf = position
        return f"{board} {turn} {wf} {bf}"

    def parse(self, text: str) -> MillsPosition:
        """The position :meth:`notation` writes (``.`` also reads as an empty point) or
        :meth:`render` draws.

        Raises
        ------
        InputFormatError
            If `text` is neither, or no game reaches it (a player with fewer than 3 stones
            and not to move, more stones than the variant has).
        """
        lines = text.strip().splitlines()
        found = (
            re.fullmatch(r"([WB]) to move, in hand: W (\d+), B (\d+)", lines[-1].strip())
            if lines
            else None
        )
        if found and len(lines) > 1:
            picture = "".join(re.sub(r"[^WB.]", "", line[2:]) for line in lines[:-2])
            order = sorted(
                range(self.points), key=lambda d: (-self.board.xy[d][1], self.board.xy[d][0])
            )
            cells = ["-"] * self.points
            for d, c in zip(order, picture, strict=False):
                cells[d] = "-" if c == "." else c
            words = ["".join(cells) if len(picture) == self.points else "", *found.groups()]
        else:
            words = text.split()
        if len(words) != 4 or not words[2].isdigit() or not words[3].isdigit():
            raise InputFormatError(
                f"expected a morris position: {self.points} points W, B or - (in the order "
                f"{' '.join(self.board.points[:4])} ...), the side to move and the stones in hand "
                f"of White and Black, e.g. {self.notation(self.initial())!r}; got {text!r}"
            )
        board, turn = words[0].upper().replace(".", "-"), words[1].upper()
        position = (board, turn, int(words[2]), int(words[3]))
        self.check(position)
        return position

    def check(self, position: MillsPosition) -> None:
        """Raise InputFormatError unless `position` could be one of this game's."""
        board, turn, wf, bf = position
        problem = ""
        if len(board) != self.points or set(board) - set("WB-") or turn not in ("W", "B"):
            problem = f"expected {self.points} points W, B or - and W or B to move"
        elif (
            max(wf, bf) > self.stones
            or board.count("W") + wf > self.stones
            or board.count("B") + bf > self.stones
        ):
            problem = f"more than {self.stones} stones for a side"
        elif board.count(_other(turn)) + (bf if turn == "W" else wf) < 3:
            problem = f"{_other(turn)}, not to move, has fewer than 3 stones: the game was over"
        elif board.count(turn) + (wf if turn == "W" else bf) < 2:
            problem = f"{turn} has fewer than 2 stones: the game ended at 2"
        if problem:
            raise InputFormatError(
                f"not a morris position ({problem}): {self.notation(position)!r}"
            )

    def encode(self, position: MillsPosition) -> int:
        """The points as base-3 digits (``-WB``), the side, then the hands."""
        board, turn, wf, bf = position
        code = 0
        for c in board:
            code = code * 3 + "-WB".index(c)
        return ((code * 2 + (turn == "B")) * (self.stones + 1) + wf) * (self.stones + 1) + bf

    def decode(self, code: int) -> MillsPosition:
        code, bf = divmod(code, self.stones + 1)
        code, wf = divmod(code, self.stones + 1)
        code, side = divmod(code, 2)
        cells = []
        for _ in range(self.points):
            code, digit = divmod(code, 3)
            cells.append("-WB"[digit])
        return "".join(reversed(cells)), "BW"[side == 0], wf, bf


def _other(turn: str) -> str:
    return "B" if turn == "W" else "W"
