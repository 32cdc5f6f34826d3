"""numba kernels of Dobutsu Shogi's tier form (see :mod:`perfectplay.games.dobutsu.tiers`).

A position is kept with the player to move as "own" (upper case in the rules, moving up, row 0
on top): a board of 12 cell codes, ``0`` empty, ``1..5`` own lion, giraffe, elephant, chick,
hen, ``6..10`` the opponent's, and the hands ``own[k]``, ``opp[k]`` of each kind ``k``
(giraffe, elephant, chick). After a move the board is turned half round and the colours and
hands swapped (:func:`_flip`), so that the child again has "own" to move.

**Ranking.** The two lions' cells pick a *class*: a lion pair up to the mirror image (its
canonical pair, or the pair itself where both lions stand in the middle column), in three
regions: ``M``, play goes on (own lion off row 0, opposing lion off row 3); ``T``, the opponent
has just made a try (its lion on row 3); ``X``, the own lion was just caught (only the opposing
lion on the board). In a class the other pieces fill the *free* cells (those the lions leave);
their rank is a mixed radix: which of the combinations ``(a0, a1, a2)`` of pieces of each kind
on the board (offsets by combination), then per kind the colex rank of the cells it holds
among the cells the kinds before it leave free, the states of its pieces in cell order (owner;
for chicks also promoted) and the number held in the own hand (the rest is the opponent's).
Region ``X`` ranks no hands (its positions are over, whoever holds what): its un-moves list
every split of the hands. A class whose lions stand both in the middle column holds both
mirror images of a board: the canonical one has the smaller rank.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from math import comb
from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay.games.dobutsu.rules import destinations
from perfectplay.values import LOSE, UNDECIDED, WIN

__all__ = [
    "MAX_MOVES",
    "REGION_M",
    "REGION_T",
    "REGION_X",
    "children",
    "decode",
    "encode",
    "orbit_sizes",
    "parents",
    "slots",
    "tables",
]

REGION_M, REGION_T, REGION_X = 0, 1, 2
MAX_MOVES = 72
"""At most 8 + 2 * (4 + 4 + 6) = 36 steps and 3 * 10 drops from one position."""
_MAX_PARENTS = 27 * 12 * 8 * 5
"""Un-moves of one rank, at most: 27 hand splits in region X, 12 cells, 8 origins, 5 captures."""
CODES = "-LGECHlgech"
"""The letter of each cell code, own pieces upper case."""
CLASSES = 62
"""Lion classes: 41 in play, 13 after a try, 8 after a lion was caught."""


_SECTIONS = (
    ("TOTALS", 3),  # pieces of each kind (giraffe, elephant, chick) in play
    ("KIND", 11),  # per cell code: its kind 0..2, or -1 (empty, lions)
    ("STATE", 11),  # per cell code: its state within its kind (owner; chicks: also promoted)
    ("RADIX", 3),  # per kind: its number of states (2, 2, 4)
    ("CODE_OF", 12),  # [k * 4 + s]: the cell code of kind k in state s
    ("SWAP", 11),  # per cell code: the same piece of the other player
    ("MIRROR", 12),  # per cell: its mirror image
    ("DESTS", 11 * 12 * 8),  # [code * 96 + cell * 8 + i]: the cells a piece steps to
    ("NDEST", 11 * 12),  # [code * 12 + cell]: how many
    ("ORIGINS", 11 * 12 * 8),  # [code * 96 + cell * 8 + i]: the cells it steps to `cell` from
    ("NORIGIN", 11 * 12),
    ("BINOM", 13 * 13),  # [i * 13 + j]: C(i, j)
    ("PAIR", 2 * 55),  # [2 * s], [2 * s + 1]: the two cells of the 2-subset of colex rank s
    ("CLASS_OF", 13 * 12),  # per lion pair (own + 1) * 12 + opp (own -1: caught): class or -1
    ("FLAG", 13 * 12),  # per lion pair: 0 canonical, 1 its class's mirror image, 2 symmetric
    ("BASE", CLASSES + 1),  # per class: its first rank; [CLASSES]: the tier size
    ("FREE", CLASSES * 11),  # [cls * 11 + i]: its free cells in increasing order
    ("LAYOUT", CLASSES),  # per class: 0 (10 free cells, hands ranked), 1 (11, hands not ranked)
    ("REGION", CLASSES),  # per class: REGION_M, REGION_T or REGION_X
    ("LIONS", CLASSES * 2),  # [cls * 2]: the own lion's cell (-1: caught), [+ 1]: the other's
    ("COMBOS", 2 * 27 * 4),  # [v * 108 + c * 4]: a0, a1, a2, first config rank, by rank
    ("NCOMBO", 2),  # per layout: how many combinations
    ("OFFSET", 2 * 27),  # [v * 27 + a0 * 9 + a1 * 3 + a2]: first config rank of a combination
    ("NFREE", 2),  # per layout: free cells (10, 11)
    ("MERGED", 2),  # per layout: 1 where hands are not ranked
)


def _offsets() -> dict[str, int]:
    at, out = 0, {}
    for name, size in _SECTIONS:
        out[name] = at
        at += size
    out["END"] = at
    return out


_AT = _offsets()
TOTALS, KIND, STATE, RADIX, CODE_OF = (
    _AT[n] for n in ("TOTALS", "KIND", "STATE", "RADIX", "CODE_OF")
)
SWAP, MIRROR, DESTS, NDEST = _AT["SWAP"], _AT["MIRROR"], _AT["DESTS"], _AT["NDEST"]
ORIGINS, NORIGIN, BINOM, PAIR = _AT["ORIGINS"], _AT["NORIGIN"], _AT["BINOM"], _AT["PAIR"]
CLASS_OF, FLAG, BASE, FREE = _AT["CLASS_OF"], _AT["FLAG"], _AT["BASE"], _AT["FREE"]
LAYOUT, REGION, LIONS = _AT["LAYOUT"], _AT["REGION"], _AT["LIONS"]
COMBOS, NCOMBO, OFFSET, NFREE, MERGED = (
    _AT[n] for n in ("COMBOS", "NCOMBO", "OFFSET", "NFREE", "MERGED")
)


def _combination_size(
    n: int, a: tuple[int, int, int], totals: tuple[int, ...], merged: bool
) -> int:
    size, left = 1, n
    for k, count in enumerate(a):
        size *= comb(left, count) * (2, 2, 4)[k] ** count * (1 if merged else totals[k] - count + 1)
        left -= count
    return size


@cache
def tables(giraffes: int, elephants: int, chicks: int) -> NDArray[np.int64]:
    """The kernels' tables for the pieces in play, as one flat array (sections in
    ``_SECTIONS``: the kernels pass one array, not a tuple of them; built once, ~1 ms)."""
    totals = (giraffes, elephants, chicks)
    tab = np.full(_AT["END"], -1, dtype=np.int64)

    def put(name: str, values: Any) -> None:
        flat = np.asarray(values, dtype=np.int64).ravel()
        tab[_AT[name] : _AT[name] + len(flat)] = flat

    mirror = [r * 3 + 2 - c for r in range(4) for c in range(3)]
    put("TOTALS", totals)
    put("KIND", [-1, -1, 0, 1, 2, 2, -1, 0, 1, 2, 2])
    put("STATE", [0, 0, 0, 0, 0, 1, 0, 1, 1, 2, 3])
    put("RADIX", [2, 2, 4])
    put("CODE_OF", [[2, 7, -1, -1], [3, 8, -1, -1], [4, 5, 9, 10]])
    put("SWAP", [0, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5])
    put("MIRROR", mirror)
    dests = np.full((11, 12, 8), -1, dtype=np.int64)
    ndest = np.zeros((11, 12), dtype=np.int64)
    origins = np.full((11, 12, 8), -1, dtype=np.int64)
    norigin = np.zeros((11, 12), dtype=np.int64)
    for code in range(1, 11):
        for cell in range(12):
            for dest in destinations(CODES[code], cell):
                dests[code, cell, ndest[code, cell]] = dest
                ndest[code, cell] += 1
                origins[code, dest, norigin[code, dest]] = cell
                norigin[code, dest] += 1
    put("DESTS", dests)
    put("NDEST", ndest)
    put("ORIGINS", origins)
    put("NORIGIN", norigin)
    put("BINOM", [[comb(i, j) for j in range(13)] for i in range(13)])
    put("PAIR", [(lo, hi) for hi in range(11) for lo in range(hi)])
    combos = np.zeros((2, 27, 4), dtype=np.int64)
    ncombo = [0, 0]
    offset = np.full((2, 27), -1, dtype=np.int64)
    sizes = []
    for v, (n, merged) in enumerate(((10, False), (11, True))):
        at = 0
        for a0 in range(giraffes + 1):
            for a1 in range(elephants + 1):
                for a2 in range(chicks + 1):
                    combos[v, ncombo[v]] = (a0, a1, a2, at)
                    offset[v, a0 * 9 + a1 * 3 + a2] = at
                    ncombo[v] += 1
                    at += _combination_size(n, (a0, a1, a2), totals, merged)
        sizes.append(at)
    put("COMBOS", combos)
    put("NCOMBO", ncombo)
    put("OFFSET", offset)
    put("NFREE", [10, 11])
    put("MERGED", [0, 1])
    # Lion classes: region M, then T, then X; a pair and its mirror image share a class.
    class_of = np.full(13 * 12, -1, dtype=np.int64)
    flag = np.zeros(13 * 12, dtype=np.int64)
    base: list[int] = [0]
    free: list[list[int]] = []
    layout: list[int] = []
    regions: list[int] = []
    lions: list[tuple[int, int]] = []
    for region in (REGION_M, REGION_T, REGION_X):
        for own in range(-1, 12):
            for opp in range(12):
                if own == opp:
                    continue
                if region == REGION_X:
                    ok = own == -1
                else:
                    ok = own >= 3 and (opp >= 9) == (region == REGION_T)
                image = (-1 if own < 0 else mirror[own], mirror[opp])
                if not ok or image < (own, opp):
                    continue
                cls = len(regions)
                class_of[(own + 1) * 12 + opp] = cls
                flag[(own + 1) * 12 + opp] = 2 if image == (own, opp) else 0
                if image != (own, opp):
                    class_of[(image[0] + 1) * 12 + image[1]] = cls
                    flag[(image[0] + 1) * 12 + image[1]] = 1
                v = 1 if region == REGION_X else 0
                cells = [c for c in range(12) if c not in (own, opp)]
                free.append(cells + [-1] * (11 - len(cells)))
                layout.append(v)
                regions.append(region)
                lions.append((own, opp))
                base.append(base[-1] + sizes[v])
    assert len(regions) == CLASSES
    put("CLASS_OF", class_of)
    put("FLAG", flag)
    put("BASE", base)
    put("FREE", free)
    put("LAYOUT", layout)
    put("REGION", regions)
    put("LIONS", lions)
    return tab


# ---------------------------------------------------------------------------- ranking
@nb.njit(cache=True, nogil=True, inline="always")
def _config(
    board: NDArray[np.int64], own: NDArray[np.int64], v: int, tab: NDArray[np.int64]
) -> int:
    """The rank of the pieces other than the lions among the configs of layout `v`."""
    a0 = a1 = a2 = 0
    sub0 = sub1 = sub2 = 0
    st0 = st1 = st2 = 0
    j = 0
    for cell in range(12):
        p = board[cell]
        if p == 1 or p == 6:
            continue
        k = tab[KIND + p]
        if k == 0:
            a0 += 1
            sub0 += tab[BINOM + (j) * 13 + a0]
            st0 = st0 * 2 + tab[STATE + p]
        elif k == 1:
            a1 += 1
            sub1 += tab[BINOM + (j - a0) * 13 + a1]
            st1 = st1 * 2 + tab[STATE + p]
        elif k == 2:
            a2 += 1
            sub2 += tab[BINOM + (j - a0 - a1) * 13 + a2]
            st2 = st2 * 4 + tab[STATE + p]
        j += 1
    n = tab[NFREE + v]
    x = sub0 * 2**a0 + st0
    if not tab[MERGED + v]:
        x = x * (tab[TOTALS + 0] - a0 + 1) + own[0]
    x = (x * tab[BINOM + (n - a0) * 13 + a1] + sub1) * 2**a1 + st1
    if not tab[MERGED + v]:
        x = x * (tab[TOTALS + 1] - a1 + 1) + own[1]
    x = (x * tab[BINOM + (n - a0 - a1) * 13 + a2] + sub2) * 4**a2 + st2
    if not tab[MERGED + v]:
        x = x * (tab[TOTALS + 2] - a2 + 1) + own[2]
    return tab[OFFSET + v * 27 + a0 * 9 + a1 * 3 + a2] + x


@nb.njit(cache=True, nogil=True, inline="always")
def _lions(board: NDArray[np.int64]) -> tuple[int, int]:
    own = opp = -1
    for cell in range(12):
        if board[cell] == 1:
            own = cell
        elif board[cell] == 6:
            opp = cell
    return own, opp


@nb.njit(cache=True, nogil=True, inline="always")
def _rank(
    board: NDArray[np.int64],
    own: NDArray[np.int64],
    work: NDArray[np.int64],
    tab: NDArray[np.int64],
) -> int:
    """The canonical rank of a position (`work`: 12 cells of scratch)."""
    lo, lx = _lions(board)
    key = (lo + 1) * 12 + lx
    cls = tab[CLASS_OF + key]
    f = tab[FLAG + key]
    v = tab[LAYOUT + cls]
    if f == 1:
        for cell in range(12):
            work[tab[MIRROR + cell]] = board[cell]
        return tab[BASE + cls] + _config(work, own, v, tab)
    r = _config(board, own, v, tab)
    if f == 2:
        for cell in range(12):
            work[tab[MIRROR + cell]] = board[cell]
        r = min(r, _config(work, own, v, tab))
    return tab[BASE + cls] + r


@nb.njit(cache=True, nogil=True, inline="always")
def _class(rank: int, tab: NDArray[np.int64]) -> int:
    lo, hi = 0, CLASSES - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if tab[BASE + mid] <= rank:
            lo = mid
        else:
            hi = mid - 1
    return lo


@nb.njit(cache=True, nogil=True, inline="always")
def _subset(
    a: int, sub: int, radix: int, st: int, tab: NDArray[np.int64]
) -> tuple[int, int, int, int]:
    """The relative cells (-1: none) and states of the `a` pieces of colex subset `sub`."""
    if a == 0:
        return -1, -1, 0, 0
    if a == 1:
        return sub, -1, st, 0
    return tab[PAIR + 2 * sub], tab[PAIR + 2 * sub + 1], st // radix, st % radix


@nb.njit(cache=True, nogil=True, inline="always")
def _unrank(
    rank: int,
    board: NDArray[np.int64],
    own: NDArray[np.int64],
    opp: NDArray[np.int64],
    tab: NDArray[np.int64],
) -> int:
    """Fill `board` and the hands with the position of `rank`; return its class. Where the
    class ranks no hands (region X), the own hand holds every piece off the board."""
    cls = _class(rank, tab)
    v = tab[LAYOUT + cls]
    x = rank - tab[BASE + cls]
    c = 0
    while c + 1 < tab[NCOMBO + v] and tab[COMBOS + v * 108 + (c + 1) * 4 + 3] <= x:
        c += 1
    x -= tab[COMBOS + v * 108 + (c) * 4 + 3]
    a0, a1, a2 = (
        tab[COMBOS + v * 108 + (c) * 4 + 0],
        tab[COMBOS + v * 108 + (c) * 4 + 1],
        tab[COMBOS + v * 108 + (c) * 4 + 2],
    )
    n = tab[NFREE + v]
    if tab[MERGED + v]:
        own[2], own[1], own[0] = tab[TOTALS + 2] - a2, tab[TOTALS + 1] - a1, tab[TOTALS + 0] - a0
    else:
        hands = tab[TOTALS + 2] - a2 + 1
        own[2] = x % hands
        x //= hands
    st2 = x % 4**a2
    x //= 4**a2
    subsets = tab[BINOM + (n - a0 - a1) * 13 + a2]
    sub2 = x % subsets
    x //= subsets
    if not tab[MERGED + v]:
        hands = tab[TOTALS + 1] - a1 + 1
        own[1] = x % hands
        x //= hands
    st1 = x % 2**a1
    x //= 2**a1
    subsets = tab[BINOM + (n - a0) * 13 + a1]
    sub1 = x % subsets
    x //= subsets
    if not tab[MERGED + v]:
        hands = tab[TOTALS + 0] - a0 + 1
        own[0] = x % hands
        x //= hands
    st0 = x % 2**a0
    sub0 = x // 2**a0
    for k in range(3):
        opp[k] = tab[TOTALS + k] - own[k]
    opp[0] -= a0
    opp[1] -= a1
    opp[2] -= a2
    lo, lx = tab[LIONS + cls * 2 + 0], tab[LIONS + cls * 2 + 1]
    if lo >= 0:
        board[lo] = 1
    board[lx] = 6
    g0, g1, gs0, gs1 = _subset(a0, sub0, 2, st0, tab)
    e0, e1, es0, es1 = _subset(a1, sub1, 2, st1, tab)
    c0, c1, cs0, cs1 = _subset(a2, sub2, 4, st2, tab)
    ng = ne = 0
    for j in range(n):
        cell = tab[FREE + cls * 11 + j]
        if j == g0 or j == g1:  # noqa: SIM109 (scalars in numba, no tuple built)
            board[cell] = tab[CODE_OF + (gs0 if j == g0 else gs1)]
            ng += 1
            continue
        je = j - ng
        if je == e0 or je == e1:  # noqa: SIM109
            board[cell] = tab[CODE_OF + 4 + (es0 if je == e0 else es1)]
            ne += 1
            continue
        jc = je - ne
        if jc == c0 or jc == c1:  # noqa: SIM109
            board[cell] = tab[CODE_OF + 8 + (cs0 if jc == c0 else cs1)]
        else:
            board[cell] = 0
    return cls


@nb.njit(cache=True, nogil=True, inline="always")
def _flip(
    board: NDArray[np.int64],
    own: NDArray[np.int64],
    opp: NDArray[np.int64],
    out: NDArray[np.int64],
    out_own: NDArray[np.int64],
    out_opp: NDArray[np.int64],
    tab: NDArray[np.int64],
) -> None:
    """The position seen by the other player: board turned half round, colours swapped."""
    for cell in range(12):
        out[cell] = tab[SWAP + board[11 - cell]]
    for k in range(3):
        out_own[k] = opp[k]
        out_opp[k] = own[k]


@nb.njit(cache=True, nogil=True, inline="always")
def _attacked(board: NDArray[np.int64], target: int, tab: NDArray[np.int64]) -> bool:
    """Whether an own piece steps to `target`."""
    for cell in range(12):
        p = board[cell]
        if 1 <= p <= 5:
            for i in range(tab[NDEST + p * 12 + cell]):
                if tab[DESTS + p * 96 + cell * 8 + i] == target:
                    return True
    return False


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def encode(
    boards: NDArray[np.int64], owns: NDArray[np.int64], tab: NDArray[np.int64]
) -> NDArray[np.int64]:
    """Canonical ranks of positions given as rows of 12 cell codes and own hands."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    work = np.empty(12, dtype=np.int64)
    for i in range(boards.shape[0]):
        out[i] = _rank(boards[i], owns[i], work, tab)
    return out


@nb.njit(cache=True, nogil=True)
def decode(
    rank: NDArray[np.int64], tab: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Boards, own hands, opposing hands and classes of ranks."""
    count = rank.shape[0]
    boards = np.empty((count, 12), dtype=np.int64)
    owns = np.empty((count, 3), dtype=np.int64)
    opps = np.empty((count, 3), dtype=np.int64)
    classes = np.empty(count, dtype=np.int64)
    for i in range(count):
        classes[i] = _unrank(rank[i], boards[i], owns[i], opps[i], tab)
    return boards, owns, opps, classes


@nb.njit(cache=True, nogil=True)
def children(
    rank: NDArray[np.int64], tab: NDArray[np.int64]
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:
    """Primitive values and canonical children (all in the one tier) of ranks.

    Region X (own lion caught): LOSE. Region T (the opponent's try): WIN if an own piece
    steps onto the lion, else LOSE. Region M: every step of an own piece to a cell not its
    own (a chick reaching row 0 promoted, a piece taken to the own hand, a hen as a chick),
    then every drop; each child turned over for the other player and ranked.
    """
    count = rank.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    child = np.empty(count * MAX_MOVES, dtype=np.int64)
    board = np.empty(12, dtype=np.int64)
    own = np.empty(3, dtype=np.int64)
    opp = np.empty(3, dtype=np.int64)
    nb_ = np.empty(12, dtype=np.int64)
    nown = np.empty(3, dtype=np.int64)
    fb = np.empty(12, dtype=np.int64)
    fown = np.empty(3, dtype=np.int64)
    fopp = np.empty(3, dtype=np.int64)
    work = np.empty(12, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        cls = _unrank(rank[i], board, own, opp, tab)
        region = tab[REGION + cls]
        if region == REGION_X:
            primitive[i] = LOSE
        elif region == REGION_T:
            primitive[i] = WIN if _attacked(board, tab[LIONS + cls * 2 + 1], tab) else LOSE
        else:
            primitive[i] = UNDECIDED
            for s in range(12):
                p = board[s]
                if not 1 <= p <= 5:
                    continue
                for e in range(tab[NDEST + p * 12 + s]):
                    d = tab[DESTS + p * 96 + s * 8 + e]
                    q = board[d]
                    if 1 <= q <= 5:
                        continue
                    for c in range(12):
                        nb_[c] = board[c]
                    for k in range(3):
                        nown[k] = own[k]
                    nb_[d] = 5 if p == 4 and d < 3 else p
                    nb_[s] = 0
                    if q >= 7:
                        nown[tab[KIND + q]] += 1
                    _flip(nb_, nown, opp, fb, fown, fopp, tab)
                    child[m] = _rank(fb, fown, work, tab)
                    m += 1
            for k in range(3):
                if own[k] == 0:
                    continue
                for d in range(12):
                    if board[d] != 0:
                        continue
                    for c in range(12):
                        nb_[c] = board[c]
                    for c in range(3):
                        nown[c] = own[c]
                    nb_[d] = tab[CODE_OF + k * 4 + 0]
                    nown[k] -= 1
                    _flip(nb_, nown, opp, fb, fown, fopp, tab)
                    child[m] = _rank(fb, fown, work, tab)
                    m += 1
        indptr[i + 1] = m
    return primitive, indptr, np.zeros(m, dtype=np.int8), child[:m].copy()


@nb.njit(cache=True, nogil=True, inline="always")
def _playable(board: NDArray[np.int64]) -> bool:
    """Whether a board with the opponent to move is a position of region M for them: both
    lions on the board, the own lion off row 0 (else its try ended the game), the opposing
    lion off row 3 (its try would have ended the game)."""
    lo, lx = _lions(board)
    return lo >= 3 and 0 <= lx < 9


@nb.njit(cache=True, nogil=True)
def _unmoves(
    board: NDArray[np.int64], own: NDArray[np.int64], opp: NDArray[np.int64], caught: bool,
    out: NDArray[np.int64], m: int, pb: NDArray[np.int64], popp: NDArray[np.int64],
    fb: NDArray[np.int64], fown: NDArray[np.int64], fopp: NDArray[np.int64],
    work: NDArray[np.int64], tab: NDArray[np.int64],
) -> int:  # fmt: skip
    """Append to `out` from `m` the ranks of the positions (opponent to move, region M) with a
    move to ``(board, own, opp)``; `caught`: that move took the own lion. Return the new end."""
    for d in range(12):
        p = board[d]
        if p < 6:
            continue
        if not (p == 9 and d >= 9):  # a chick on row 3 was dropped: it would have promoted
            for e in range(tab[NORIGIN + p * 12 + d]):
                s = tab[ORIGINS + p * 96 + d * 8 + e]
                if board[s] != 0:
                    continue
                for promoted in range(2):
                    # a hen on row 3 may be the chick that stepped there
                    if promoted and not (p == 10 and d >= 9 and s == d - 3):
                        continue
                    before = 9 if promoted else p
                    # what stood on d: the own lion (caught), nothing, or an own piece taken
                    for taken in range(6):
                        if (taken == 1) != caught:  # the own lion was taken iff it was caught
                            continue
                        if taken >= 2 and opp[tab[KIND + taken]] == 0:
                            continue
                        for c in range(12):
                            pb[c] = board[c]
                        for c in range(3):
                            popp[c] = opp[c]
                        pb[s] = before
                        pb[d] = taken
                        if taken >= 2:
                            popp[tab[KIND + taken]] -= 1
                        if not _playable(pb):
                            continue
                        _flip(pb, own, popp, fb, fown, fopp, tab)
                        out[m] = _rank(fb, fown, work, tab)
                        m += 1
        if not caught and 7 <= p <= 9:
            for c in range(12):
                pb[c] = board[c]
            for c in range(3):
                popp[c] = opp[c]
            pb[d] = 0
            popp[tab[KIND + p]] += 1
            if _playable(pb):
                _flip(pb, own, popp, fb, fown, fopp, tab)
                out[m] = _rank(fb, fown, work, tab)
                m += 1
    return m


@nb.njit(cache=True, nogil=True)
def parents(
    rank: NDArray[np.int64], tab: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Canonical ranks of the positions with a move to each rank.

    The opponent made the move undone: one of its pieces back to an empty cell it steps from
    (a hen on row 3 also as the chick it was), leaving on its cell nothing or an own piece
    from its hand (a chick or a hen), or the own lion in region X; or a giraffe, elephant or
    chick back into its hand. Parents must be in region M (the rest are not positions or are
    over). Region X's ranks stand for every split of the hands: each split is undone.
    """
    count = rank.shape[0]
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(count * 64 + _MAX_PARENTS, dtype=np.int64)
    board = np.empty(12, dtype=np.int64)
    own = np.empty(3, dtype=np.int64)
    opp = np.empty(3, dtype=np.int64)
    pb = np.empty(12, dtype=np.int64)
    popp = np.empty(3, dtype=np.int64)
    fb = np.empty(12, dtype=np.int64)
    fown = np.empty(3, dtype=np.int64)
    fopp = np.empty(3, dtype=np.int64)
    work = np.empty(12, dtype=np.int64)
    left = np.empty(3, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        if out.shape[0] - m < _MAX_PARENTS:
            grown = np.empty(2 * out.shape[0], dtype=np.int64)
            grown[:m] = out[:m]
            out = grown
        cls = _unrank(rank[i], board, own, opp, tab)
        if tab[REGION + cls] != REGION_X:
            m = _unmoves(board, own, opp, False, out, m, pb, popp, fb, fown, fopp, work, tab)
        else:
            for k in range(3):
                left[k] = own[k] + opp[k]
            for h0 in range(left[0] + 1):
                for h1 in range(left[1] + 1):
                    for h2 in range(left[2] + 1):
                        own[0], own[1], own[2] = h0, h1, h2
                        for k in range(3):
                            opp[k] = left[k] - own[k]
                        m = _unmoves(
                            board, own, opp, True, out, m, pb, popp, fb, fown, fopp, work, tab
                        )
        indptr[i + 1] = m
    return indptr, out[:m].copy()


@nb.njit(cache=True, nogil=True)
def slots(start: int, stop: int, tab: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which ranks ``start..stop-1`` are canonical: rank again to the same rank."""
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    board = np.empty(12, dtype=np.int64)
    own = np.empty(3, dtype=np.int64)
    opp = np.empty(3, dtype=np.int64)
    work = np.empty(12, dtype=np.int64)
    for i in range(out.shape[0]):
        cls = _class(start + i, tab)
        if tab[FLAG + (tab[LIONS + cls * 2] + 1) * 12 + tab[LIONS + cls * 2 + 1]] != 2:
            out[i] = True
        else:
            _unrank(start + i, board, own, opp, tab)
            out[i] = _rank(board, own, work, tab) == start + i
    return out


@nb.njit(cache=True, nogil=True)
def orbit_sizes(rank: NDArray[np.int64], tab: NDArray[np.int64]) -> NDArray[np.int64]:
    """1 where the board is its own mirror image, else 2."""
    out = np.empty(rank.shape[0], dtype=np.int64)
    board = np.empty(12, dtype=np.int64)
    own = np.empty(3, dtype=np.int64)
    opp = np.empty(3, dtype=np.int64)
    for i in range(rank.shape[0]):
        _unrank(rank[i], board, own, opp, tab)
        same = True
        for cell in range(12):
            if board[tab[MIRROR + cell]] != board[cell]:
                same = False
        out[i] = 1 if same else 2
    return out
