"""``perfectplay solve FILE|GAME``: solve a game graph file, one line per position (or ``--json``),
or a registered game (a summary); ``--save`` writes the solution to a store file."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import TYPE_CHECKING, Any

from perfectplay.cli import add_param_option

if TYPE_CHECKING:  # imported lazily at run time: numba stays out of start-up
    from collections.abc import Sequence

    from perfectplay.api import GameSolution
    from perfectplay.graphfile import ParsedGraph
    from perfectplay.protocol.game import Game

__all__ = ["add_parser", "count_words", "reachable_positions", "resolve_target", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a game graph file: value and remoteness of every position",
        description=(
            "Solve a game graph given in the plain text format (first line `n m`, then m moves "
            "`u v`, then optional `u WIN|LOSE|TIE` lines; `#` starts a comment) by retrograde "
            "analysis. Prints `id VALUE remoteness` per position, values for the player to move, "
            "remoteness `-` for a DRAW."
        ),
    )
    parser.add_argument(
        "target",
        metavar="FILE|GAME",
        help="a game graph file, - to read it from standard input, or a registered game's name "
        "(a registered name wins over a file of the same name; write ./NAME for the file)",
    )
    add_param_option(parser)
    parser.add_argument(
        "--save",
        metavar="OUT",
        help="also write the solution to this store file (for perfectplay query/analyze/play)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object {"positions": [...], "summary": {...}} instead',
    )
    parser.add_argument(
        "--tiers",
        metavar="DIR",
        help="solve a registered game with the tier engine into DIR, one tier at a time "
        "(for games larger than memory; run again to resume after a crash)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="with --tiers: threads (default: every core)",
    )
    parser.add_argument(
        "--chunk-size",
        type=int,
        metavar="N",
        help="with --tiers: ranks per chunk of a tier (default 4194304, with --dask 67108864; "
        "a new DIR only)",
    )
    parser.add_argument(
        "--dask",
        metavar="local:N[xT]|tcp://HOST:PORT",
        help="with --tiers: run the chunks as tasks on a Dask cluster: N worker processes on "
        "this machine (T threads each, default 1), or a running scheduler whose workers all "
        "see DIR at the same path (docs/distributed.md; needs perfectplay[dask])",
    )
    parser.set_defaults(handler=run)


def resolve_target(
    target: str, params: Sequence[str] = (), *, json: bool = False
) -> ParsedGraph | Game[Any]:
    """The game graph or registered game `target` names.

    A registered game's name wins, built with `params` (``KEY=VALUE`` strings, typed by the
    game's parameter specs); otherwise ``-`` (standard input), a path containing ``/`` or an
    existing file is read as a graph file, refused at its header if it could not be parsed,
    solved and printed (as JSON with `json`) in the memory available.

    Raises
    ------
    FileNotFoundError
        If `target` names no registered game and no existing file.
    UnknownNameError, InputFormatError
        An unknown parameter or a badly typed value; `params` given with a graph file.
    InputFormatError, TooLargeError
        If the file is malformed or too large (see :func:`perfectplay.graphfile.parse_graph`).
    """
    from perfectplay.errors import InputFormatError, UnknownNameError
    from perfectplay.games.registry import game_entry, load_game, parse_params
    from perfectplay.graphfile import read_graph_file, solve_bytes

    try:
        name = game_entry(target).name
    except UnknownNameError:
        name = None
    if name is not None:
        return load_game(name, **parse_params(name, params))
    if target == "-" or "/" in target or os.path.isfile(target):
        if params:
            raise InputFormatError(f"--param applies to a registered game, not to {target}")
        return read_graph_file(target, then=lambda n, m: solve_bytes(n, m, json=json))
    raise FileNotFoundError(errno.ENOENT, "no such file", target)


def run(args: argparse.Namespace) -> int:
    """Solve the graph or game `args.target` names; print the solution, save it if asked.

    The whole output is built before anything is written, so an error leaves stdout empty.
    """
    from perfectplay.graphfile import format_solution, format_solution_json
    from perfectplay.protocol.game import Game
    from perfectplay.solvers.retrograde import solve_retrograde

    if args.tiers is not None:
        return _solve_tiers(args)
    if args.jobs is not None or args.chunk_size is not None or args.dask is not None:
        from perfectplay.errors import InputFormatError

        raise InputFormatError("--jobs, --chunk-size and --dask apply with --tiers DIR")
    target = resolve_target(args.target, args.param, json=args.json)
    if isinstance(target, Game):
        return _solve_game(target, args)
    parsed = target
    solution = solve_retrograde(parsed.graph, parsed.primitive)
    text = format_solution_json(solution) + "\n" if args.json else format_solution(solution)
    if args.save is not None:
        from perfectplay.store import save

        save(args.save, solution, primitive=parsed.primitive)
        print(f"saved to {args.save}", file=sys.stderr)
    sys.stdout.write(text)
    return 0


def _solve_game(game: Game[Any], args: argparse.Namespace) -> int:
    """Solve a registered game; print a summary (the start's value, counts by value)."""
    import json
    import time

    from perfectplay.api import solve
    from perfectplay.play import describe

    start = time.perf_counter()
    solved = solve(game)
    seconds = time.perf_counter() - start
    initial = solved.initial
    value, remoteness = solved.value(initial), solved.remoteness(initial)
    score = solved.score(initial)
    counts = solved.summary()
    info = game.info
    reachable = reachable_positions(solved)
    if args.save is not None:
        from perfectplay.store import save

        save(args.save, solved)
        print(f"saved to {args.save}", file=sys.stderr)
    if args.json:
        record = {
            "game": info.name,
            "params": dict(info.params),
            "positions": len(solved),
            "symmetry_classes": len(solved) if solved.enumeration.canonical else None,
            "reachable_positions": reachable,
            "moves": solved.graph.m,
            "solver": solved.solution.solver,
            "start": {"value": value.name, "remoteness": remoteness, "score": score},
            "summary": counts,
        }
        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    params = " ".join(
        f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}"
        for k, v in info.params.items()
    )
    canonical = solved.enumeration.canonical
    lines = [
        f"{info.name}{' ' + params if params else ''}: solved in {seconds:.2f} s "
        f"({solved.solution.solver})",
        f"start: {describe(value, remoteness, score)} for the player to move",
        f"positions: {count_words(len(solved), canonical, reachable)}; "
        f"{solved.graph.m:,} moves between them",
        f"{'symmetry classes' if canonical else 'positions'} by value: "
        + ", ".join(f"{k} {v:,}" for k, v in counts.items()),
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


COUNT_LIMIT = 20_000
"""Up to this many symmetry classes, ``solve GAME`` also counts every reachable position (one
more enumeration without merging symmetric positions, on the plain path: under a second)."""


def reachable_positions(solved: GameSolution[Any]) -> int | None:
    """How many positions are reachable, symmetric ones counted apart; None if not counted.

    Without symmetry reduction that is the number solved. With it, the game is enumerated again
    without merging symmetric positions when it has at most COUNT_LIMIT classes (at most 48
    positions per class, else not counted); larger games give None.
    """
    from perfectplay.enumeration.enumerate import enumerate_game
    from perfectplay.errors import TooLargeError

    classes = len(solved)
    if not solved.enumeration.canonical:
        return classes
    if classes > COUNT_LIMIT:
        return None
    try:
        full = enumerate_game(
            solved.game, canonical=False, vectorized=False, max_positions=48 * classes,
            progress=False,
        )  # fmt: skip
    except TooLargeError:
        return None
    return full.graph.n


def count_words(solved: int, canonical: bool, reachable: int | None) -> str:
    """The position counts in a newcomer's words: reachable positions and symmetry classes.

    Parameters
    ----------
    solved : int
        How many positions were solved (symmetry classes when `canonical`).
    canonical : bool
        Whether symmetric positions were merged into one class.
    reachable : int or None
        How many positions are reachable, symmetric ones counted apart (None: not counted).

    Examples
    --------
    >>> print(count_words(765, True, 5478))
    5,478 reachable, in 765 symmetry classes (symmetric positions, e.g. mirror images, solved once)
    >>> print(count_words(2055, False, 2055))
    2,055 reachable (no symmetries merged)
    """
    if not canonical:
        return f"{solved:,} reachable (no symmetries merged)"
    merged = "symmetric positions, e.g. mirror images, solved once"
    if reachable is None:
        return f"{solved:,} symmetry classes ({merged}; reachable positions not counted)"
    return f"{reachable:,} reachable, in {solved:,} symmetry classes ({merged})"


def _solve_tiers(args: argparse.Namespace) -> int:
    """Solve a registered game into a tier directory; print the start's value and the files."""
    import dataclasses
    import json
    import time

    from perfectplay.errors import InputFormatError
    from perfectplay.games.registry import game_entry, load_tiered_game, parse_params
    from perfectplay.play import describe
    from perfectplay.tiers import solve_tiers

    if args.save is not None:
        raise InputFormatError(
            "--save writes a store file; with --tiers the tiers are saved in DIR"
        )
    for name, value in (("--jobs", args.jobs), ("--chunk-size", args.chunk_size)):
        if value is not None and value < 1:
            raise InputFormatError(f"{name} must be at least 1, got {value}")
    if args.dask is not None and args.jobs is not None:
        raise InputFormatError(
            "--jobs sets threads in this process; with --dask the cluster's workers do the work"
        )
    name = game_entry(args.target).name
    game = load_tiered_game(name, **parse_params(name, args.param))
    start = time.perf_counter()
    with solve_tiers(
        game, args.tiers, jobs=args.jobs, chunk_size=args.chunk_size, dask=args.dask
    ) as db:
        seconds = time.perf_counter() - start
        here = db.probe(db.initial)
        stored, size = db.footprint()
        stats = db.stats
    record = {
        "game": db.game_name,
        "params": db.params,
        "tiers": len(db.order),
        "directory": args.tiers,
        "seconds": round(seconds, 3),
        "start": {"value": here.value.name, "remoteness": here.remoteness, "score": here.score},
        "stored_classes": stored,
        "bytes": size,
    }
    if stats is not None:
        record["run"] = dataclasses.asdict(stats)
    if args.json:
        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    per = f", {size / stored:.2f} bytes per stored class" if stored else ""
    lines = [
        f"{db.describe()}: {len(db.order)} tiers solved into {args.tiers} in {seconds:.2f} s",
        f"start: {describe(here.value, here.remoteness, here.score)} for the player to move",
        f"files: {size:,} bytes for {stored:,} stored classes (symmetric positions stored once)"
        + per,
    ]
    if stats is not None and (stats.tiers_kept or stats.chunks_kept):
        lines.append(
            f"resumed: {stats.tiers_kept} tiers and {stats.chunks_kept} chunks were complete "
            f"already; solved {stats.tiers_solved} tiers ({stats.chunks_solved} chunks)"
        )
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
