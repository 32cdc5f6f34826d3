"""Brute-force twins of every solver: independent, obviously correct, exponential or slow.

Each function here computes what a fast solver computes, by the definition alone, so the
hypothesis tests can compare whole arrays on small random instances.
"""

from __future__ import annotations

from typing import Any


# ---------------------------------------------------------------- grundy (Sprague–Grundy values)
def brute_grundy(n: int, edges: list[tuple[int, int]]) -> list[int] | None:
    """Grundy values by the definition: mex of the children's values, memoised recursion.

    Returns None if the graph has a cycle (some position is reached again while its own
    value is being computed).
    """
    children: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        children[u].append(v)
    memo: dict[int, int] = {}
    active: set[int] = set()

    def value(p: int) -> int | None:
        if p in memo:
            return memo[p]
        if p in active:
            return None
        active.add(p)
        taken = set()
        for c in children[p]:
            g = value(c)
            if g is None:
                return None
            taken.add(g)
        active.discard(p)
        mex = 0
        while mex in taken:
            mex += 1
        memo[p] = mex
        return mex

    result = []
    for p in range(n):
        g = value(p)
        if g is None:
            return None
        result.append(g)
    return result


# ---------------------------------------------------------------- retrograde
def retrograde(
    n: int,
    edges: list[tuple[int, int]],
    primitive: list[int] | None = None,
    *,
    misere: bool = False,
) -> tuple[list[int], list[int]]:
    """Values and remoteness (for the player to move) by the definition: rounds of full sweeps.

    No queue, no counters, no reverse graph. Positions decided by the rules, and positions
    without moves (LOSE, or WIN in misere play), are decided in round 0. Each later round
    sweeps every undecided position and decides it from the positions decided in EARLIER
    rounds only (the round's decisions are applied after the sweep): first WIN/LOSE rounds
    (WIN if some child is LOSE, remoteness 1 + the smallest such child's; LOSE if every child
    is WIN, 1 + the largest) until a round decides nothing, then TIE rounds on what is left
    (TIE if some child is TIE, 1 + the smallest), then DRAW for the rest. A round that decides
    nothing ends its phase: the next round would see exactly the same decided positions.

    (Sweeping all positions again and again from stale values, without the rounds, does not
    work for TIE: values can then circulate around a cycle forever with growing remoteness.)
    """
    from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

    children: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        children[u].append(v)
    value = list(primitive) if primitive is not None else [UNDECIDED] * n
    remote = [NO_REMOTENESS] * n
    for p in range(n):
        if value[p] == UNDECIDED and not children[p]:
            value[p] = WIN if misere else LOSE
        if value[p] != UNDECIDED:
            remote[p] = 0

    def win_lose(kids: list[int]) -> tuple[int, int] | None:
        lose = [remote[c] for c in kids if value[c] == LOSE]
        if lose:
            return WIN, 1 + min(lose)
        if all(value[c] == WIN for c in kids):
            return LOSE, 1 + max(remote[c] for c in kids)
        return None

    def tie(kids: list[int]) -> tuple[int, int] | None:
        ties = [remote[c] for c in kids if value[c] == TIE]
        return (TIE, 1 + min(ties)) if ties else None

    for decide in (win_lose, tie):
        while True:
            decided = {}
            for p in range(n):
                if value[p] == UNDECIDED:
                    outcome = decide(children[p])
                    if outcome is not None:
                        decided[p] = outcome
            if not decided:
                break
            for p, (v, r) in decided.items():
                value[p], remote[p] = v, r
    return [DRAW if v == UNDECIDED else v for v in value], remote


# ---------------------------------------------------------------- dag / staircase
def dag_negamax(
    n: int,
    edges: list[tuple[int, int, int]],
    primitive: list[int] | None = None,
    *,
    misere: bool = False,
    terminal: list[int] | None = None,
) -> tuple[list[int], list[int], list[int]]:
    """Value, remoteness and score of every position of an acyclic graph, by plain recursion.

    `edges` are ``(u, v, gain)``. Value and remoteness by the retrograde rules (for the player
    to move); score = terminal score where the game is over (primitive or no moves), else the
    best ``gain - score(child)``. Recursion straight from the definitions, memoised per position.
    """
    from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN

    moves: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for u, v, g in edges:
        moves[u].append((v, g))
    memo: dict[int, tuple[int, int, int]] = {}

    def solve(p: int) -> tuple[int, int, int]:
        if p in memo:
            return memo[p]
        end_score = terminal[p] if terminal is not None else 0
        if primitive is not None and primitive[p] != UNDECIDED:
            result = (primitive[p], 0, end_score)
        elif not moves[p]:
            result = (WIN if misere else LOSE, 0, end_score)
        else:
            kids = [(solve(c), g) for c, g in moves[p]]
            score = max(g - s for (_, _, s), g in kids)
            lose = [r for (v, r, _), _ in kids if v == LOSE]
            tie = [r for (v, r, _), _ in kids if v == TIE]
            if lose:
                result = (WIN, 1 + min(lose), score)
            elif all(v == WIN for (v, _, _), _ in kids):
                result = (LOSE, 1 + max(r for (_, r, _), _ in kids), score)
            elif tie:
                result = (TIE, 1 + min(tie), score)
            else:
                result = (DRAW, NO_REMOTENESS, score)
        memo[p] = result
        return result

    results = [solve(p) for p in range(n)]
    return [r[0] for r in results], [r[1] for r in results], [r[2] for r in results]


def staircase_scores(a: list[list[int]], b: list[list[int]]) -> dict[tuple[int, ...], int]:
    """The staircase game by memoised minimax over row-length tuples.

    Maps every staircase (row lengths, non-increasing, each at most m) to the best
    (own - opponent) total the player to move can still force; black (the first player, gains
    `a`) moves when the number of stones is even, white (gains `b`) otherwise.
    """
    n, m = len(a), len(a[0])
    memo: dict[tuple[int, ...], int] = {}

    def best(rows: tuple[int, ...]) -> int:
        if rows in memo:
            return memo[rows]
        gains = a if sum(rows) % 2 == 0 else b
        options = [
            gains[i][rows[i]] - best((*rows[:i], rows[i] + 1, *rows[i + 1 :]))
            for i in range(n)
            if rows[i] < m and (i == 0 or rows[i - 1] > rows[i])
        ]
        memo[rows] = max(options) if options else 0
        return memo[rows]

    best((0,) * n)
    return memo


# ---------------------------------------------------------------- blossom (general matching)
def max_matching_size(n: int, edges: list[tuple[int, int]], removed: int = -1) -> int:
    """Size of a maximum matching by exhaustive search: the lowest vertex left either stays
    exposed or is matched to one of its neighbours; memoised on the bitmask of used vertices.

    `removed` is a vertex deleted from the graph first (-1: none).
    """
    adjacent = [0] * n
    for u, v in edges:
        if u != v:
            adjacent[u] |= 1 << v
            adjacent[v] |= 1 << u
    memo: dict[int, int] = {}

    def best(used: int) -> int:
        if used in memo:
            return memo[used]
        free = ~used & ((1 << n) - 1)
        if free == 0:
            return 0
        v = (free & -free).bit_length() - 1
        result = best(used | 1 << v)
        options = adjacent[v] & free & ~(1 << v)
        while options:
            w = (options & -options).bit_length() - 1
            options &= options - 1
            result = max(result, 1 + best(used | 1 << v | 1 << w))
        memo[used] = result
        return result

    return best(0 if removed < 0 else 1 << removed)


def gallai_edmonds_d(n: int, edges: list[tuple[int, int]]) -> list[bool]:
    """D(G) by the definition: v is in D iff deleting v leaves the maximum matching size."""
    size = max_matching_size(n, edges)
    return [max_matching_size(n, edges, removed=v) == size for v in range(n)]


# ---------------------------------------------------------------- geography (vertex geography)
def geography_mover_wins(n: int, edges: list[tuple[int, int]]) -> list[bool]:
    """Undirected vertex geography by exhaustive game-tree search (not via matchings).

    ``result[v]``: the player to move with the token on `v`, only `v` visited, wins. Memo on
    ``(vertex, frozenset of visited vertices)``; self-loops and repeated edges change nothing.
    """
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        if u != v:
            neighbours[u].add(v)
            neighbours[v].add(u)
    memo: dict[tuple[int, frozenset[int]], bool] = {}

    def wins(at: int, visited: frozenset[int]) -> bool:
        key = (at, visited)
        if key not in memo:
            memo[key] = any(not wins(w, visited | {w}) for w in neighbours[at] if w not in visited)
        return memo[key]

    return [wins(v, frozenset({v})) for v in range(n)]


# ---------------------------------------------------------------- two tokens and knights
# Game-tree search over the set of visited positions, by the rules as stated (captures and moves
# into adjacency included); no matching theory. Boards are lists of strings: "." free, "#" not.
_CAPTURE = None


def _brute_no_repeat(moves, starts):  # type: ignore[no-untyped-def]
    """Does the player to move win from each of `starts` (visited = {start})?

    `moves(state)` lists the successor states, with ``_CAPTURE`` for a move that wins at once;
    a successor already visited is not a legal move. Exponential: keep boards tiny.
    """
    memo: dict[tuple[object, frozenset[object]], bool] = {}

    def wins(state, visited):  # type: ignore[no-untyped-def]
        key = (state, visited)
        if key not in memo:
            memo[key] = any(
                nxt is _CAPTURE or (nxt not in visited and not wins(nxt, visited | {nxt}))
                for nxt in moves(state)
            )
        return memo[key]

    return {s: wins(s, frozenset([s])) for s in starts}


def _free_cells(board: list[str]) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "#"]


def brute_two_tokens(board: list[str]) -> dict[frozenset[tuple[int, int]], bool]:
    """Two tokens capturing on contact: for every unordered pair of distinct free cells, does
    the player to move win? A move steps one token up/down/left/right onto a free cell; onto
    the other token it captures and wins; a pair already seen in the game is not allowed."""
    free = set(_free_cells(board))

    def moves(pair):  # type: ignore[no-untyped-def]
        out = []
        for token in pair:
            (other,) = pair - {token}
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                target = (token[0] + dr, token[1] + dc)
                if target == other:
                    out.append(_CAPTURE)
                elif target in free:
                    out.append(frozenset([target, other]))
        return out

    cells = sorted(free)
    starts = [frozenset([a, b]) for k, a in enumerate(cells) for b in cells[k + 1 :]]
    return _brute_no_repeat(moves, starts)  # type: ignore[no-any-return]


def brute_knights(board: list[str], count: int) -> dict[frozenset[tuple[int, int]], bool]:
    """One or two knights: for every position (a set of `count` distinct free cells), does the
    player to move win? A move jumps one knight to a free cell not holding the other knight;
    a position already seen in the game is not allowed."""
    free = set(_free_cells(board))
    jumps = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]

    def moves(position):  # type: ignore[no-untyped-def]
        out = []
        for knight in position:
            rest = position - {knight}
            for dr, dc in jumps:
                target = (knight[0] + dr, knight[1] + dc)
                if target in free and target not in rest:
                    out.append(rest | {target})
        return out

    cells = sorted(free)
    if count == 1:
        starts = [frozenset([a]) for a in cells]
    else:
        starts = [frozenset([a, b]) for k, a in enumerate(cells) for b in cells[k + 1 :]]
    return _brute_no_repeat(moves, starts)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- pursuit (make-you-happy)
def pursuit_bob_wins(n: int, edges: list[tuple[int, int]]) -> dict[tuple[int, int, int], bool]:
    """Who wins the pursuit game from every state, played from its rules directly.

    State ``(b, a, turn)``: Bob on ``b``, Alice on ``a``, ``turn`` 0 for Bob, 1 for Alice. Alice
    wins on contact and when Bob is stuck; Bob wins when Alice is stuck and when the game never
    ends. Alice's winning states are the least fixpoint of "contact, or Bob to move and every Bob
    move (possibly none) reaches one, or Alice to move and some Alice move reaches one"; all other
    states are Bob's. Returns ``{state: True if Bob wins}``.
    """
    out: dict[int, list[int]] = {v: [] for v in range(n)}
    for u, v in edges:
        out[u].append(v)
    states = [(b, a, t) for b in range(n) for a in range(n) for t in (0, 1)]
    alice: set[tuple[int, int, int]] = {s for s in states if s[0] == s[1]}
    changed = True
    while changed:
        changed = False
        for b, a, t in states:
            if (b, a, t) in alice:
                continue
            if t == 0:
                won = all((b2, a, 1) in alice for b2 in out[b])
            else:
                won = any((b, a2, 0) in alice for a2 in out[a])
            if won:
                alice.add((b, a, t))
                changed = True
    return {s: s not in alice for s in states}


# ---------------------------------------------------------------- store and play (solved games)
def brute_game_solution(game: object) -> tuple[object, list[int]]:
    """An acyclic unscored game solved by recursion over its own moves: (Solution, codes).

    Positions are the canonical forms reachable from the start (id 0 is the start), numbered
    in depth-first order; ``codes[i]`` is ``game.encode`` of position ``i``. Values are for
    the player to move: the rules' value where ``outcome`` gives one; LOSE with no moves;
    else WIN if a move reaches a LOSE (fastest), TIE if one reaches a TIE (fastest), else LOSE
    (slowest).
    """
    import numpy as np

    from perfectplay.graph import GameGraph
    from perfectplay.solution import Solution
    from perfectplay.values import Value

    ids: dict[object, int] = {}
    edges: list[tuple[int, int]] = []
    value: dict[int, Value] = {}
    remoteness: dict[int, int] = {}

    def visit(position: object) -> int:
        key = game.canonical(position)
        if key in ids:
            return ids[key]
        me = ids[key] = len(ids)
        ruled = game.outcome(key)
        children = [] if ruled is not None else [visit(move[1]) for move in game.moves(key)]
        edges.extend((me, c) for c in children)
        if ruled is not None or not children:
            value[me], remoteness[me] = Value(ruled if ruled is not None else Value.LOSE), 0
            return me
        for wanted, pick in ((Value.LOSE, min), (Value.TIE, min)):
            found = [remoteness[c] for c in children if value[c] is wanted]
            if found:
                value[me] = wanted.flipped()
                remoteness[me] = pick(found) + 1
                return me
        value[me], remoteness[me] = Value.LOSE, max(remoteness[c] for c in children) + 1
        return me

    visit(game.initial())
    n = len(ids)
    graph = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n)
    solution = Solution(
        graph,
        np.array([value[i] for i in range(n)], dtype=np.uint8),
        np.array([remoteness[i] for i in range(n)], dtype=np.int32),
        solver="brute",
    )
    codes = [0] * n
    for position, i in ids.items():
        codes[i] = game.encode(position)
    return solution, codes


# ---------------------------------------------------------------- classic games (Game API)
# Each game re-implemented from its rules on its own data layout (grids, coordinate sets), solved
# by memoised recursion or a fixed-point iteration; values for the player to move, as -1/0/+1
# (LOSE/TIE/WIN) or Value names for loopy games.
def _c4_line_through(state: tuple[str, ...], col: int, rows: int) -> bool:
    """Whether the top stone of column `col` lies on four equal stones in a row."""
    cols = len(state)
    row = len(state[col]) - 1
    mark = state[col][row]

    def at(c: int, r: int) -> str:
        return state[c][r] if 0 <= c < cols and 0 <= r < len(state[c]) else "."

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            k = 1
            while at(col + sign * k * dc, row + sign * k * dr) == mark:
                run, k = run + 1, k + 1
        if run >= 4:
            return True
    return False


def brute_connect_four(rows: int, cols: int, columns: tuple[str, ...] | None = None) -> int:
    """Negamax value (-1, 0, +1 for the player to move) of a Connect Four position.

    `columns` lists each column's stones bottom-up (X moved first; no four in a row yet);
    default the empty board. Stops at the first winning move (values only, no remoteness).
    """
    from functools import cache

    @cache
    def value(state: tuple[str, ...]) -> int:
        me = "X" if sum(map(len, state)) % 2 == 0 else "O"
        options = [c for c in range(cols) if len(state[c]) < rows]
        if not options:
            return 0
        best = -1
        for c in options:
            child = (*state[:c], state[c] + me, *state[c + 1 :])
            best = max(best, 1 if _c4_line_through(child, c, rows) else -value(child))
            if best == 1:
                break
        return best

    return value(columns if columns is not None else ("",) * cols)


def brute_tictactoe() -> dict[str, int]:
    """Negamax value (-1, 0, +1 for the player to move) of every reachable tic-tac-toe board."""
    lines = [(r, r + 1, r + 2) for r in (0, 3, 6)] + [(c, c + 3, c + 6) for c in range(3)]
    lines += [(0, 4, 8), (2, 4, 6)]
    values: dict[str, int] = {}

    def value(board: str) -> int:
        if board in values:
            return values[board]
        me = "X" if board.count("X") == board.count("O") else "O"
        other = "O" if me == "X" else "X"
        if any(all(board[i] == other for i in line) for line in lines):
            result = -1
        elif "." not in board:
            result = 0
        else:
            empty = [i for i in range(9) if board[i] == "."]
            result = max(-value(board[:i] + me + board[i + 1 :]) for i in empty)
        values[board] = result
        return result

    value("." * 9)
    return values


def brute_subtraction(heap: int, take: tuple[int, ...]) -> list[bool]:
    """Whether the player to move wins from each heap size 0..heap (normal play)."""
    wins: list[bool] = []
    for n in range(heap + 1):
        wins.append(any(k <= n and not wins[n - k] for k in take))
    return wins


Cars = frozenset[tuple[int, int]]


def brute_dodgem(size: int) -> dict[tuple[Cars, Cars, str], str]:
    """Value name (WIN, LOSE, DRAW) of every reachable Dodgem position, by fixed-point iteration.

    A position is (blue cars, red cars, player to move) with cars as (x, y) cells, x to the
    right and y upwards from the bottom-left corner (0, 0). Blue drives +x (off at x = size),
    +y or -y; Red drives +y (off at y = size), -x or +x. A player without a legal move wins.
    """
    start = (
        frozenset((0, y) for y in range(1, size)),
        frozenset((x, 0) for x in range(1, size)),
        "B",
    )

    def children(pos):  # type: ignore[no-untyped-def]
        blue, red, turn = pos
        mine, theirs = (blue, red) if turn == "B" else (red, blue)
        steps = ((1, 0), (0, 1), (0, -1)) if turn == "B" else ((0, 1), (-1, 0), (1, 0))
        result = []
        for x, y in mine:
            for dx, dy in steps:
                nx, ny = x + dx, y + dy
                off = (turn == "B" and nx == size) or (turn == "R" and ny == size)
                if not off and not (0 <= nx < size and 0 <= ny < size):
                    continue
                if not off and ((nx, ny) in mine or (nx, ny) in theirs):
                    continue
                moved = (mine - {(x, y)}) | (frozenset() if off else frozenset({(nx, ny)}))
                nxt = "R" if turn == "B" else "B"
                result.append((moved, theirs, nxt) if turn == "B" else (theirs, moved, nxt))
        return result

    graph = {}
    todo = [start]
    while todo:
        pos = todo.pop()
        if pos in graph:
            continue
        graph[pos] = children(pos)
        todo.extend(graph[pos])
    value = {pos: ("WIN" if not kids else "DRAW") for pos, kids in graph.items()}
    return _fixed_point(graph, value)


def _fixed_point(graph: dict[Any, list[Any]], value: dict[Any, str]) -> dict[Any, str]:
    """Decide DRAW entries of `value` until nothing changes: WIN if a child is LOSE, LOSE if
    every child is WIN (positions without children keep their value)."""
    changed = True
    while changed:
        changed = False
        for pos, kids in graph.items():
            if value[pos] != "DRAW" or not kids:
                continue
            if any(value[k] == "LOSE" for k in kids):
                value[pos], changed = "WIN", True
            elif all(value[k] == "WIN" for k in kids):
                value[pos], changed = "LOSE", True
    return value


# ---------------------------------------------------------------- quixo (GamesmanOne's rules)
# Re-written from GamesmanOne's src/games/quixo/quixo.c on a grid of rows: a move takes an edge
# cube that is blank or the mover's, and reinserts it at an end of its row or column other than
# where it stands; the cubes between slide towards the hole. Over when some row, column or main
# diagonal is one symbol: WIN for the player to move if they own such a line, else LOSE.
QuixoGrid = tuple[tuple[str, ...], ...]


def brute_quixo_outcome(grid: QuixoGrid, turn: str) -> str | None:
    """WIN or LOSE (for the player to move) where a line decides, else None."""
    n = len(grid)
    lines = [list(row) for row in grid] + [[grid[r][c] for r in range(n)] for c in range(n)]
    lines += [[grid[i][i] for i in range(n)], [grid[i][n - 1 - i] for i in range(n)]]
    owners = {line[0] for line in lines if line[0] != "-" and len(set(line)) == 1}
    if turn in owners:
        return "WIN"
    return "LOSE" if owners else None


def brute_quixo_moves(grid: QuixoGrid, turn: str) -> dict[tuple[int, int, str], QuixoGrid]:
    """Every move ``(row, col, end) -> grid after it``; end is "left", "right", "top" or
    "bottom", the end where the cube goes back in. No moves where a line decides."""
    n = len(grid)
    if brute_quixo_outcome(grid, turn) is not None:
        return {}
    result = {}
    for r in range(n):
        for c in range(n):
            if not (r in (0, n - 1) or c in (0, n - 1)) or grid[r][c] not in ("-", turn):
                continue
            for end, (er, ec) in {
                "left": (r, 0), "right": (r, n - 1), "top": (0, c), "bottom": (n - 1, c)
            }.items():  # fmt: skip
                if (er, ec) == (r, c):
                    continue
                cells = [list(row) for row in grid]
                if er == r:  # a row: remove the cube, close the gap, insert at the end
                    row = cells[r][:c] + cells[r][c + 1 :]
                    cells[r] = [turn, *row] if ec == 0 else [*row, turn]
                else:
                    col = [cells[i][c] for i in range(n) if i != r]
                    col = [turn, *col] if er == 0 else [*col, turn]
                    for i in range(n):
                        cells[i][c] = col[i]
                result[(r, c, end)] = tuple(tuple(row) for row in cells)
    return result


def brute_quixo(n: int) -> dict[tuple[QuixoGrid, str], str]:
    """Value name (WIN, LOSE, DRAW) of every position reachable from the empty board (X to move),
    by fixed-point iteration over the whole graph."""
    other = {"X": "O", "O": "X"}
    start = (tuple(tuple("-" * n) for _ in range(n)), "X")
    graph: dict[tuple[QuixoGrid, str], list[tuple[QuixoGrid, str]]] = {}
    todo = [start]
    while todo:
        pos = todo.pop()
        if pos in graph:
            continue
        graph[pos] = [(g, other[pos[1]]) for g in brute_quixo_moves(*pos).values()]
        todo.extend(graph[pos])
    value = {pos: brute_quixo_outcome(*pos) or ("LOSE" if not kids else "DRAW")
             for pos, kids in graph.items()}  # fmt: skip
    return _fixed_point(graph, value)
