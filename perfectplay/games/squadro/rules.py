"""Squadro: race five pieces across the board and back; jumping an opponent sends it back.

The rules of Adrian Jimenez Pascual's game (published by Gigamic) as ndeineko's
squadro-solver (https://github.com/ndeineko/squadro-solver, MIT, ``src/board_state.rs``)
plays them, with the pieces' speeds and the pieces needed home as parameters (the standard
game: ``speeds=(1, 3, 2, 3, 1)``, ``home=4``; fewer pieces are for tests):

* Two players, **top** (``T``) and **left** (``L``), have ``n`` pieces each. The board is a
  grid of ``n`` x ``n`` crossings: the top player's piece ``i`` runs down column ``i`` and back
  up, the left player's piece ``j`` along row ``j`` to the right and back.
* A piece's place is its **track position** ``0 .. 2n + 2``: ``0`` its start, ``1 .. n`` the
  crossings on the way out, ``n + 1`` the far side (where it turns), ``n + 2 .. 2n + 1`` the
  crossings on the way back, ``2n + 2`` home (back at its start, finished). The top player's
  piece ``i`` moves ``speeds[i]`` steps out and ``4 - speeds[i]`` back; the left player's piece
  ``i`` the other way round (``4 - speeds[i]`` out, ``speeds[i]`` back), as on the real board,
  where the two players' speeds are 1, 3, 2, 3, 1 and 3, 1, 2, 1, 3.
* A move advances one piece of the player to move, step by step, by its speed, stopping at the
  far side or home if it gets there first (a piece never turns in mid-move). At each crossing
  it steps on, an opponent's piece standing there is **jumped**: sent back to the start of its
  current leg (its start ``0`` on the way out, the far side ``n + 1`` on the way back), and the
  moving piece stops on the next step past it; if an opponent's piece stands there too, it is
  jumped in turn, and so on.
* A player whose move brings ``home`` pieces home (4 of 5 in Squadro) wins: the position is
  over, lost for the player to move. A game may go on forever (a DRAW).
* Either player may move first; the start with the **top player to move** is
  :meth:`Squadro.initial`. ndeineko counts the states reachable from either start; each start
  is reachable from the other (tests/games/squadro), so the reachable states are the same.

Values, for the player to move. The left player wins Squadro from the start whoever moves
first (ndeineko): the start with top to move is a LOSE.

A position is ``(top, left, turn)``: the track positions of the top player's pieces (left to
right), of the left player's (from the top), and ``"T"`` or ``"L"``. A piece never stands on a
crossing where the opponent's crossing piece stands (the mover jumps it), and a track position
a piece's speeds never reach is no position (``1`` for pieces faster than 1 on the way out,
``n + 2`` for pieces faster than 1 on the way back). Move labels are the moved piece, ``1`` to
``n``. Codes are ndeineko's state IDs: each piece's index among its reachable track positions,
alternating top and left, the player to move last (0: top).

Examples
--------
>>> game = Squadro()
>>> game.notation(game.initial())
'0,0,0,0,0/0,0,0,0,0 T'
>>> [game.notation(child) for _, child in game.moves(game.initial())][:2]
['1,0,0,0,0/0,0,0,0,0 L', '0,3,0,0,0/0,0,0,0,0 L']
>>> p = game.parse("1,0,0,0,0/0,0,0,0,0 L")
>>> game.notation(dict(game.moves(p))["1"])  # left's piece 1 (speed 3) jumps top's piece 1
'0,0,0,0,0/2,0,0,0,0 T'
>>> game.encode(game.parse("0,0,0,0,0/0,0,0,0,0 L"))  # ndeineko's ID of that start
1
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = [
    "SIDES",
    "Squadro",
    "SquadroPosition",
    "check_params",
    "crossing",
    "jump",
    "track",
]

SquadroPosition = tuple[tuple[int, ...], tuple[int, ...], str]
"""``(top, left, turn)``: track positions of each side's pieces, ``"T"`` or ``"L"`` to move."""

SIDES = "TL"
"""The players: ``T`` (top, moves first from :meth:`Squadro.initial`) and ``L`` (left)."""


def check_params(speeds: Any, home: Any) -> tuple[tuple[int, ...], int]:
    """``(speeds, home)`` checked: 1 to 5 speeds of 1 to 3, and 1 to ``len(speeds)`` pieces home.

    >>> check_params((1, 3), 1)
    ((1, 3), 1)
    """
    ok = isinstance(speeds, tuple) and 1 <= len(speeds) <= 5
    if not ok or any(isinstance(s, bool) or s not in (1, 2, 3) for s in speeds):
        raise GameDefinitionError(
            f"squadro needs speeds: 1 to 5 speeds, each 1, 2 or 3, got {speeds!r}"
        )
    if isinstance(home, bool) or not isinstance(home, int) or not 1 <= home <= len(speeds):
        raise GameDefinitionError(
            f"squadro needs home between 1 and {len(speeds)} (the pieces), got {home!r}"
        )
    return speeds, home


def track(n: int, out: int) -> list[list[int]]:
    """The track positions a piece that moves `out` steps out (``4 - out`` back) can stand on,
    by leg: ``[on the way out, on the way back, home]`` (a leg's start first).

    A piece gets past its leg's start only by a move of its speed or by landing behind a
    piece it jumped, so the first crossing of a leg is reached only at speed 1.

    >>> track(5, 3)
    [[0, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12]]
    >>> track(5, 1)
    [[0, 1, 2, 3, 4, 5], [6, 8, 9, 10, 11], [12]]
    """
    back = 4 - out
    return [
        [0, *([1] if out == 1 else []), *range(2, n + 1)],
        [n + 1, *([n + 2] if back == 1 else []), *range(n + 3, 2 * n + 2)],
        [2 * n + 2],
    ]


def crossing(n: int, position: int) -> int:
    """The lane (the opponent's piece) a piece at track `position` crosses, or -1 at its start,
    the far side and home."""
    if 1 <= position <= n:
        return position - 1
    if n + 2 <= position <= 2 * n + 1:
        return 2 * n + 1 - position
    return -1


def jump(mine: list[int], theirs: list[int], piece: int, speed: int, n: int) -> None:
    """Move `piece` of `mine` by its `speed` for its current leg, jumping `theirs` (in place).

    Cost: O(n).
    """
    p = mine[piece]
    end = n + 1 if p <= n else 2 * n + 2
    target = min(p + speed, end)
    while p != target:
        p += 1
        lane = crossing(n, p)
        if lane < 0:
            continue
        if theirs[lane] == piece + 1:  # on its way out, at our lane
            theirs[lane], target = 0, p + 1
        elif theirs[lane] == 2 * n + 1 - piece:  # on its way back, at our lane
            theirs[lane], target = n + 1, p + 1
    mine[piece] = p


class Squadro(Game[SquadroPosition]):
    """Squadro with the top player's out `speeds` and `home` pieces to bring home (module doc).

    Parameters
    ----------
    speeds : tuple of int
        The top player's pieces' speeds on the way out, 1 to 3 each (their speeds back, and the
        left player's speeds out, are ``4 - speed``); one piece per speed, 1 to 5 pieces.
        Squadro: ``(1, 3, 2, 3, 1)``.
    home : int
        Pieces a player must bring home to win, 1 to ``len(speeds)``. Squadro: 4.

    Raises
    ------
    GameDefinitionError
        If a parameter is out of range.
    """

    def __init__(self, speeds: tuple[int, ...] = (1, 3, 2, 3, 1), home: int = 4) -> None:
        self.speeds, self.home = check_params(speeds, home)
        self.n = n = len(speeds)
        self.end = 2 * n + 2
        self.info = GameInfo(
            "squadro",
            {"speeds": speeds, "home": home},
            cyclic=True,
            description=f"Squadro with {n} pieces a side, speeds {speeds}, {home} home wins",
        )
        # out speed per side and piece; the reachable track positions per side and piece
        self.out = (speeds, tuple(4 - s for s in speeds))
        self.tracks = tuple(tuple(track(n, s) for s in side) for side in self.out)
        self.places = tuple(
            tuple(tuple(p for leg in legs for p in leg) for legs in side) for side in self.tracks
        )

    def initial(self) -> SquadroPosition:
        return (0,) * self.n, (0,) * self.n, "T"

    def position_bound(self) -> int:
        """The codes: every reachable track position of every piece, either side to move."""
        bound = 2
        for side in self.places:
            for places in side:
                bound *= len(places)
        return bound

    def speed(self, side: int, piece: int, position: int) -> int:
        """The steps `piece` of `side` (0 top, 1 left) moves from track `position`."""
        out = self.out[side][piece]
        return out if position <= self.n else 4 - out

    def moves(self, position: SquadroPosition) -> list[tuple[str, SquadroPosition]]:
        if self.outcome(position) is not None:
            return []
        top, left, turn = position
        side = SIDES.index(turn)
        result = []
        for piece in range(self.n):
            pieces = [list(top), list(left)]
            mine, theirs = pieces[side], pieces[1 - side]
            if mine[piece] == self.end:
                continue
            jump(mine, theirs, piece, self.speed(side, piece, mine[piece]), self.n)
            child = (tuple(pieces[0]), tuple(pieces[1]), SIDES[1 - side])
            result.append((str(piece + 1), child))
        return result

    def outcome(self, position: SquadroPosition) -> Value | None:
        top, left, turn = position
        last = left if turn == "T" else top
        return Value.LOSE if last.count(self.end) >= self.home else None

    # ------------------------------------------------------------------ text
    def notation(self, position: SquadroPosition) -> str:
        """The top player's track positions, ``/``, the left player's, a blank, ``T`` or ``L``:
        ``1,3,0,0,0/0,0,3,0,0 L``."""
        top, left, turn = position
        return f"{','.join(map(str, top))}/{','.join(map(str, left))} {turn}"

    def labelled(self, position: SquadroPosition) -> str:
        """:meth:`render`'s board with the piece numbers of the move labels: the top player's
        over their columns, the left player's before their rows.

        >>> game = Squadro((1, 3), home=1)
        >>> print(game.labelled(game.parse("1,0/0,2 L")))
            1 2
          . . v .
        1 > v + .
        2 . + > .
          . . . .
        L to move
        """
        *rows, status = self.render(position).splitlines()
        names = ["", *(str(j + 1) for j in range(self.n)), ""]
        width = len(str(self.n))
        header = " " * (width + 3) + " ".join(f"{i + 1:<{width}}" for i in range(self.n))
        board = [f"{name:>{width}} {row}" for name, row in zip(names, rows, strict=True)]
        return "\n".join([header.rstrip(), *board, status])

    def render(self, position: SquadroPosition) -> str:
        """The board: the top player's pieces ``v`` (out) and ``^`` (back; home: ``^`` on the
        top row), the left player's ``>`` and ``<``, crossings ``+``, then ``T to move``."""
        top, left, turn = position
        n = self.n
        size = n + 2
        grid = [["+" if 0 < r < size - 1 and 0 < c < size - 1 else "." for c in range(size)]
                for r in range(size)]  # fmt: skip
        for i, p in enumerate(top):
            grid[p if p <= n + 1 else self.end - p][i + 1] = "v" if p <= n else "^"
        for j, p in enumerate(left):
            grid[j + 1][p if p <= n + 1 else self.end - p] = ">" if p <= n else "<"
        return "\n".join([*(" ".join(row) for row in grid), f"{turn} to move"])

    def parse(self, text: str) -> SquadroPosition:
        """The position :meth:`notation` writes or :meth:`render` draws; InputFormatError
        naming the fault for anything else, or a position no game reaches."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines:
            raise InputFormatError(
                f"expected a squadro position like {self.notation(self.initial())!r}, got an "
                "empty text"
            )
        one = len(lines) == 1
        position = self._parse_notation(lines[0]) if one else self._parse_board(lines)
        self.check(position)
        return position

    def _parse_notation(self, text: str) -> SquadroPosition:
        parts = text.split()
        sides = parts[0].split("/") if len(parts) == 2 else []
        if len(sides) != 2 or parts[1].upper() not in ("T", "L"):
            raise InputFormatError(
                f"expected a squadro position like {self.notation(self.initial())!r} (track "
                "positions of the top player's pieces, '/', the left player's, a blank, T or "
                f"L), got {text!r}"
            )
        pieces = []
        for name, part in zip(("top", "left"), sides, strict=True):
            fields = part.split(",")
            if len(fields) != self.n or not all(f.strip().isdigit() for f in fields):
                raise InputFormatError(
                    f"squadro position {text!r}: the {name} player needs {self.n} track "
                    f"positions (integers 0 to {self.end}) separated by commas, got {part!r}"
                )
            pieces.append(tuple(int(f) for f in fields))
        return pieces[0], pieces[1], parts[1].upper()

    def _parse_board(self, lines: list[str]) -> SquadroPosition:
        size = self.n + 2
        rows = [line.split() for line in lines[:-1]]
        turn = lines[-1].split()[0].upper() if lines[-1].endswith("to move") else ""
        if len(rows) != size or any(len(row) != size for row in rows) or turn not in SIDES:
            raise InputFormatError(
                f"expected a squadro board of {size} rows of {size} cells and a line "
                f"'T to move' or 'L to move', got {len(rows)} rows"
            )
        top, left = [-1] * self.n, [-1] * self.n
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell in "v^" and 0 < c < size - 1:
                    top[c - 1] = r if cell == "v" else self.end - r
                elif cell in "<>" and 0 < r < size - 1:
                    left[r - 1] = c if cell == ">" else self.end - c
                elif cell not in ".+":
                    raise InputFormatError(f"squadro board: unexpected cell {cell!r} on row {r}")
        if -1 in top or -1 in left:
            raise InputFormatError("squadro board: every piece must be drawn once")
        return tuple(top), tuple(left), turn

    def check(self, position: SquadroPosition) -> None:
        """Raise InputFormatError unless `position` is one a game of Squadro could reach by
        its pieces alone: reachable track positions, no two pieces on one crossing, fewer
        than ``home`` pieces home for the player to move, at most ``home`` for the other."""
        top, left, turn = position
        pieces = (top, left)
        for side, name in enumerate(("top", "left")):
            for i, p in enumerate(pieces[side]):
                if p not in self.places[side][i]:
                    raise InputFormatError(
                        f"squadro: the {name} player's piece {i + 1} (speed "
                        f"{self.out[side][i]} out) never stands on track position {p}; its "
                        f"positions are {', '.join(map(str, self.places[side][i]))}"
                    )
        for i, p in enumerate(top):
            j = crossing(self.n, p)
            if j >= 0 and crossing(self.n, left[j]) == i:
                raise InputFormatError(
                    f"squadro: the top player's piece {i + 1} and the left player's piece "
                    f"{j + 1} stand on one crossing; no game gets there"
                )
        side = SIDES.index(turn)
        moving, other = pieces[side].count(self.end), pieces[1 - side].count(self.end)
        if moving >= self.home or other > self.home:
            raise InputFormatError(
                f"squadro: no game reaches {moving} pieces home for the player to move and "
                f"{other} for the other (the game ends when a player has {self.home} home)"
            )

    # ------------------------------------------------------------------ codes
    def encode(self, position: SquadroPosition) -> int:
        """ndeineko's state ID: piece by piece (top's piece 1, left's piece 1, top's piece 2,
        ...), each piece's index among its reachable track positions, then the player to move
        (0: top)."""
        top, left, turn = position
        code = 0
        for i in range(self.n):
            for side, pieces in enumerate((top, left)):
                places = self.places[side][i]
                code = code * len(places) + places.index(pieces[i])
        return code * 2 + SIDES.index(turn)

    def decode(self, code: int) -> SquadroPosition:
        turn = SIDES[code % 2]
        code //= 2
        pieces: list[list[int]] = [[0] * self.n, [0] * self.n]
        for i in reversed(range(self.n)):
            for side in (1, 0):
                places = self.places[side][i]
                code, index = divmod(code, len(places))
                pieces[side][i] = places[index]
        return tuple(pieces[0]), tuple(pieces[1]), turn
