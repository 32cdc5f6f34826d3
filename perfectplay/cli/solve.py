"""``perfectplay solve GAME|FILE``: solve a registered game (a summary; the engine is chosen by
size) or a game graph file (one line per position, or ``--json``); ``-o`` saves the solution."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

from perfectplay.cli._options import add_game_options, add_json_option

if TYPE_CHECKING:  # imported lazily at run time: numba stays out of start-up
    from collections.abc import Iterator, Sequence

    from perfectplay.graphfile import ParsedGraph
    from perfectplay.protocol.game import Game

__all__ = ["TIER_THRESHOLD", "add_parser", "choose_engine", "count_words", "resolve_target", "run"]

TIER_THRESHOLD = 20_000_000
"""A game with a tier form whose tiers hold more ranks than this is solved by the tier engine
(``connect-four --param rows=5 --param cols=5``: 172 M ranks, 4.5 s and 235 MB on the tier
engine against 32 s and 4 GB in memory); smaller games are solved in memory."""


def add_parser(subparsers: Any) -> None:
    """Register the ``solve`` subcommand."""
    from perfectplay.cli._resolve import RULE

    parser = subparsers.add_parser(
        "solve",
        help="solve a registered game or a game graph file: value and remoteness of positions",
        description=(
            "Solve a registered game (or --game MODULE:CLASS, or openspiel:NAME for an "
            "OpenSpiel game, e.g. openspiel:tic_tac_toe) and print a summary, or a game "
            "graph in the plain text format (first line `n m`, then m moves `u v`, then "
            "optional `u WIN|LOSE|TIE` lines; `#` starts a comment) and print `id VALUE "
            "remoteness` per position, values for the player to move, remoteness `-` for a "
            "DRAW. A game with a tier form is solved by the tier engine when its tiers hold "
            f"more than {TIER_THRESHOLD:,} ranks, else in memory; one line on standard error "
            "says which engine and why (--engine chooses). -o saves the solution in that "
            "engine's format: a store file (in memory) or a tier directory (tier engine)."
        ),
    )
    parser.add_argument(
        "target",
        metavar="GAME|FILE",
        nargs="?",
        help=f"a registered game or alias, a game graph file, or - for standard input ({RULE})",
    )
    add_game_options(parser)
    parser.add_argument(
        "-o",
        "--out",
        metavar="PATH",
        help="save the solution: a store file (in memory) or a tier directory (tier engine); "
        "for perfectplay query, analyze, verify, play, draw and serve",
    )
    parser.add_argument(
        "--engine",
        choices=("auto", "memory", "tiers"),
        default="auto",
        help="auto (default: by size, see above), memory, or tiers (the game's tier form)",
    )
    parser.add_argument(
        "--save", metavar="FILE", help="same as --engine memory -o FILE (a store file)"
    )
    parser.add_argument(
        "--tiers",
        metavar="DIR",
        help="same as --engine tiers -o DIR (a tier directory; run again to resume after a crash)",
    )
    add_json_option(parser)
    parser.add_argument(
        "--max-positions",
        type=int,
        metavar="N",
        help="in-memory engine: refuse a game with more positions than this (default "
        "20,000,000 on the plain path, 1,000,000,000 on the vectorized one); the memory "
        "available is checked too",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="tier engine: threads (default: every core)",
    )
    parser.add_argument(
        "--chunk-size",
        type=int,
        metavar="N",
        help="tier engine: ranks per chunk of a tier (default 4194304, with --dask 67108864; "
        "a new DIR only)",
    )
    parser.add_argument(
        "--only",
        metavar="LABEL[,LABEL...]",
        help="tier engine, with --tiers DIR: solve only these tiers (labels as their files "
        "tier-LABEL.tier and the manifest name them) and the tiers they read whose files are "
        "missing, leaving the others as they are; remove a tier's file to have it solved again",
    )
    parser.add_argument(
        "--dask",
        metavar="local:N[xT]|tcp://HOST:PORT",
        help="tier engine: run the chunks as tasks on a Dask cluster: N worker processes on "
        "this machine (T threads each, default 1), or a running scheduler whose workers all "
        "see DIR at the same path (docs/distributed.md; needs perfectplay[dask])",
    )
    parser.set_defaults(handler=run)


def resolve_target(
    target: str | None, params: Sequence[str] = (), *, json: bool = False, game: str | None = None
) -> ParsedGraph | Game[Any]:
    """The game graph or game `target` (or the class `game`, ``--game``) names.

    `target` is resolved by the rule of :mod:`perfectplay.cli._resolve`: a registered game is
    built with `params` (``KEY=VALUE`` strings, typed by the game's parameter specs); a file
    (``-``: standard input) is read as a game graph, refused at its header if it could not be
    parsed, solved and printed (as JSON with `json`) in the memory available.

    Raises
    ------
    UnknownNameError
        If `target` names no registered game and no existing file (with close names).
    UnknownNameError, InputFormatError
        An unknown parameter or a badly typed value; `params` given with a graph file.
    InputFormatError, TooLargeError
        If the file is malformed or too large (see :func:`perfectplay.graphfile.parse_graph`).
    """
    from perfectplay.cli._resolve import build_game, resolve
    from perfectplay.errors import InputFormatError
    from perfectplay.graphfile import read_graph_file, solve_bytes

    if game is not None or target is None:
        built: Game[Any] = build_game(target, params, game)  # type: ignore[assignment]
        return built
    where = resolve(target)
    if where.path is None:
        return build_game(target, params, None)  # type: ignore[return-value]
    if params:
        raise InputFormatError(f"--param applies to a registered game, not to {target}")
    return read_graph_file(where.path, then=lambda n, m: solve_bytes(n, m, json=json))


def choose_engine(game: Game[Any], engine: str, tiered: Any) -> tuple[str, str]:
    """``("memory" | "tiers", why)``: the engine for `game` and the reason, in words.

    `engine` is the user's choice (``auto``, ``memory``, ``tiers``); `tiered` the game's tier
    form (None: it has none). Cost: the tier form's ``total_size()``, or a pass over its
    tiers (their sizes) where it has none.
    """
    from perfectplay.errors import InputFormatError

    if engine == "memory":
        return "memory", "as asked (--engine memory or --save)"
    if engine == "tiers":
        if tiered is None:
            raise InputFormatError(
                f"{game.info.name} has no tier form: solve it in memory (--engine memory), "
                "or see perfectplay games for the games that have one"
            )
        return "tiers", "as asked (--engine tiers or --tiers)"
    if tiered is None:
        return "memory", "the game has no tier form"
    ranks = tiered.total_size()
    if ranks is None:
        ranks = sum(tiered.tier_size(t) for t in tiered.tiers())
    if ranks > TIER_THRESHOLD:
        return "tiers", f"its tiers hold {ranks:,} ranks, more than {TIER_THRESHOLD:,}"
    return "memory", f"its tiers hold {ranks:,} ranks, at most {TIER_THRESHOLD:,}"


def _tier_form(game: Game[Any], target: str | None) -> Any:
    """The tier form of a registered game (same parameters), or None."""
    from perfectplay._targets import class_target
    from perfectplay.games.registry import entry_for_target, game_entry

    entry = entry_for_target(class_target(type(game)))
    if entry is None and target is not None and ":" not in target:
        entry = game_entry(target)
    if entry is None or entry.tiers is None:
        return None
    return entry.build(game.info.params, tiered=True)


def run(args: argparse.Namespace) -> int:
    """Solve the graph or game `args.target` names; print the solution, save it if asked.

    The whole output is built before anything is written, so an error leaves stdout empty.
    """
    from perfectplay.cli._openspiel import PREFIX, solve_openspiel_target
    from perfectplay.errors import InputFormatError
    from perfectplay.graphfile import format_solution, format_solution_json
    from perfectplay.protocol.game import Game
    from perfectplay.solvers.retrograde import solve_retrograde

    if args.target is not None and args.target.startswith(PREFIX):
        return solve_openspiel_target(args)
    given = [o for o, v in (("-o", args.out), ("--save", args.save), ("--tiers", args.tiers)) if v]
    if len(given) > 1:
        raise InputFormatError(f"give one of -o, --save and --tiers, not {' and '.join(given)}")
    out = args.out or args.save or args.tiers
    engine = "memory" if args.save else "tiers" if args.tiers else args.engine
    if args.tiers is not None or engine == "tiers":
        return _solve_tiers(args, None, out)
    if args.game is not None and engine == "auto" and _names_tier_form(args.game):
        why = f"--game {args.game} is a tier form (a TieredGame class)"
        return _solve_tiers(args, None, out, why=why)
    target = resolve_target(args.target, args.param, json=args.json, game=args.game)
    if isinstance(target, Game):
        tiered = _tier_form(target, args.game or args.target)
        chosen, why = choose_engine(target, engine, tiered)
        # the engine was not asked for: say which and why (the tier engine once it accepts)
        said = why if engine == "auto" else None
        if chosen == "tiers":
            return _solve_tiers(args, tiered, out, why=said)
        _check_tier_options(args, "the in-memory engine")
        if said is not None:
            print(f"perfectplay: solving with the in-memory engine: {said}", file=sys.stderr)
        _check_writable(out)
        return _solve_game(target, args, out)
    _check_tier_options(args, "a game graph file")
    _check_writable(out)
    parsed = target
    solution = solve_retrograde(parsed.graph, parsed.primitive)
    text = format_solution_json(solution) + "\n" if args.json else format_solution(solution)
    if out is not None:
        from perfectplay.store import save

        save(out, solution, primitive=parsed.primitive)
        print(f"saved to {out}", file=sys.stderr)
    sys.stdout.write(text)
    return 0


def _names_tier_form(target: str) -> bool:
    """Whether the class `target` (``--game``) is a tier form only: a TieredGame, not a Game.

    False where `target` cannot be imported; building the game then says why. Cost: importing
    `target`'s module (which building the game does anyway).
    """
    from perfectplay._targets import import_target, importable_here
    from perfectplay.errors import UnknownNameError
    from perfectplay.protocol.game import Game
    from perfectplay.protocol.tiered import TieredGame

    importable_here()
    try:
        found = import_target(target)
    except UnknownNameError:
        return False
    return isinstance(found, type) and issubclass(found, TieredGame) and not issubclass(found, Game)


def _check_writable(out: str | None) -> None:
    """Refuse a store file `out` that could not be written, before any solving: a directory,
    a missing folder, a folder without write permission (the store's wording)."""
    import errno
    import os

    from perfectplay.errors import StoreError

    if out is None:
        return
    folder = os.path.dirname(out) or "."
    if os.path.isdir(out):
        reason = errno.EISDIR
    elif not os.path.isdir(folder):
        reason = errno.ENOENT
    elif not os.access(folder, os.W_OK | os.X_OK):
        reason = errno.EACCES
    else:
        return
    raise StoreError(f"cannot write {out}: {os.strerror(reason)}")


def _check_tier_options(args: argparse.Namespace, what: str) -> None:
    """Refuse the tier engine's options where another engine runs."""
    from perfectplay.errors import InputFormatError

    if any(v is not None for v in (args.jobs, args.chunk_size, args.dask, args.only)):
        raise InputFormatError(
            "--jobs, --chunk-size, --dask and --only apply with --tiers DIR (the tier engine, "
            f"--engine tiers), not to {what}"
        )


def _solve_game(game: Game[Any], args: argparse.Namespace, out: str | None) -> int:
    """Solve a game in memory; print a summary (the start's value, counts by value)."""
    import json
    import time

    from perfectplay.api import solve
    from perfectplay.enumeration.reachable import count_reachable
    from perfectplay.errors import TooLargeError
    from perfectplay.play import describe

    start = time.perf_counter()
    try:
        solved = solve(game, max_positions=args.max_positions)
    except TooLargeError as error:
        # the engine's finding, with the command line's options as the advice
        works = [_smaller(game)]
        if _tier_form(game, args.game or args.target) is not None:
            works.insert(0, "the tier engine (--engine tiers)")
        if error.limit == "max_positions":
            works.append("--max-positions N if memory allows")
        raise TooLargeError(
            error.what,
            limit=error.limit,
            estimate=error.estimate,
            advice=f"what would work: {' or '.join(works)}",
        ) from None
    seconds = time.perf_counter() - start
    initial = solved.initial
    value, remoteness = solved.value(initial), solved.remoteness(initial)
    score = solved.score(initial)
    counts = solved.summary()
    info = game.info
    reachable = count_reachable(game, len(solved), canonical=solved.enumeration.canonical)
    if out is not None:
        from perfectplay.store import save

        save(out, solved)
        print(f"saved to {out}", file=sys.stderr)
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


def _smaller(game: Game[Any]) -> str:
    """What a smaller instance of `game` is, in its parameters' words.

    >>> from perfectplay.games.registry import load_game
    >>> _smaller(load_game("nim"))
    'smaller heaps (--param heaps=..., see perfectplay games)'
    >>> _smaller(load_game("connect-four"))
    'smaller rows or cols (--param rows=..., see perfectplay games)'
    """
    names = list(game.info.params)
    if not names:
        return "a smaller game"
    return f"smaller {' or '.join(names)} (--param {names[0]}=..., see perfectplay games)"


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


def _solve_tiers(
    args: argparse.Namespace, tiered: Any, out: str | None, *, why: str | None = None
) -> int:
    """Solve the tier form `tiered` (None: the one `args` names) with the tier engine into
    `out` (a temporary directory when None); print the start's value and the files. `why`
    the engine was chosen is said on standard error once the game is not refused as too
    large (from its largest tiers)."""
    import tempfile

    from perfectplay.cli._resolve import build_game
    from perfectplay.errors import InputFormatError
    from perfectplay.tiers.engine import refuse_early

    for name, value in (("--jobs", args.jobs), ("--chunk-size", args.chunk_size)):
        if value is not None and value < 1:
            raise InputFormatError(f"{name} must be at least 1, got {value}")
    if args.dask is not None and args.jobs is not None:
        raise InputFormatError(
            "--jobs sets threads in this process; with --dask the cluster's workers do the work"
        )
    if args.only is not None and out is None:
        raise InputFormatError("--only solves some tiers into a tier directory: give --tiers DIR")
    if tiered is None:
        tiered = build_game(args.target, args.param, args.game, tiered=True)
    only = None if args.only is None else _named_tiers(tiered, args.only)
    refuse_early(tiered, args.chunk_size, dask=args.dask is not None, tiers=only, directory=out)
    if why is not None:
        print(f"perfectplay: solving with the tier engine: {why}", file=sys.stderr)
    if only is not None:
        assert out is not None
        return _run_some_tiers(args, tiered, out, only)
    with _terminate_as_exit(), tempfile.TemporaryDirectory(prefix="perfectplay-tiers-") as scratch:
        directory = out if out is not None else scratch
        return _run_tiers(args, tiered, directory, kept=out is not None)


def _named_tiers(game: Any, text: str) -> list[int]:
    """The tiers of `game` whose labels `text` lists, comma-separated (``--only``), each once.

    Cost: the label of every tier of the game once.

    Raises
    ------
    InputFormatError
        Naming the first label that is no tier of the game, or an empty list.
    """
    from perfectplay.errors import InputFormatError

    names = list(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise InputFormatError("--only: give the labels of the tiers to solve")
    tiers = {game.tier_label(t): int(t) for t in game.tiers()}
    for name in names:
        if name not in tiers:
            raise InputFormatError(
                f"--only: {game.info.name} has no tier labelled {name!r} "
                f"(e.g. {next(iter(tiers))!r}; the manifest's labels)"
            )
    return [tiers[name] for name in names]


def _run_some_tiers(args: argparse.Namespace, game: Any, directory: str, only: list[int]) -> int:
    """Solve the tiers `only` (and the missing tiers they read) into `directory`; print what
    was solved and kept (the directory may stay partly solved: no start's value)."""
    import dataclasses
    import json
    import time

    from perfectplay.tiers.engine import solve_some_tiers

    start = time.perf_counter()
    with _terminate_as_exit():
        stats = solve_some_tiers(
            game, directory, only, jobs=args.jobs, chunk_size=args.chunk_size, dask=args.dask
        )
    seconds = time.perf_counter() - start
    labels = [game.tier_label(t) for t in only]
    if args.json:
        record = {
            "game": game.info.name,
            "params": dict(game.info.params),
            "only": labels,
            "directory": directory,
            "seconds": round(seconds, 3),
            "run": dataclasses.asdict(stats),
        }
        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    sys.stdout.write(
        f"{game.info.name}: {', '.join(labels)} and the tiers they read: {stats.tiers_solved} "
        f"solved ({stats.chunks_solved} chunks) into {directory} in {seconds:.2f} s, "
        f"{stats.tiers_kept} complete already\n"
    )
    return 0


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """Within the block, SIGTERM ends the process as SIGINT does: by an exception in the main
    thread (``SystemExit(143)``), so that the tier engine stops its threads after their chunks
    in flight and the temporary directory is removed; a second SIGTERM does not cut that short.
    Outside the main thread (no signal reaches it there) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run_tiers(args: argparse.Namespace, game: Any, directory: str, *, kept: bool) -> int:
    """Run the tier engine on `game` into `directory`; print the summary."""
    import dataclasses
    import json
    import time

    from perfectplay.play import describe
    from perfectplay.tiers import solve_tiers

    start = time.perf_counter()
    with solve_tiers(
        game, directory, jobs=args.jobs, chunk_size=args.chunk_size, dask=args.dask
    ) as db:
        seconds = time.perf_counter() - start
        here = db.probe(db.initial)
        stored, size = db.footprint()
        stats = db.stats
    record = {
        "game": db.game_name,
        "params": db.params,
        "tiers": len(db.order),
        "directory": directory if kept else None,
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
        f"{db.describe()}: {len(db.order)} tiers solved "
        f"{f'into {directory} ' if kept else ''}in {seconds:.2f} s",
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
