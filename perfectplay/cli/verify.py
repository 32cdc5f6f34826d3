"""``perfectplay verify``: check a solution against the rules, independently of the solvers.

``perfectplay verify GRAPHFILE SOLUTION`` checks ``perfectplay solve``'s text output against the
graph file; ``perfectplay verify FILE`` checks a store file (``solve ... --save``), a tier
directory (``solve GAME --tiers DIR``, against the game's regenerated moves) or a geography
certificate (``problem NAME --certificate``); ``--game MODULE:CLASS`` (with ``--param``) names
the game of one's own that made a store or tier directory. ``perfectplay verify DIR --probe N
--depth D [--seed S] [--tier LABEL ...]`` compares N sampled positions of a tier directory
(also one whose solve is not finished) with a search of the game's rules D plies deep
(:mod:`perfectplay.verify.probe`). Exit code 0 and one summary line when it holds, 1 and the
first offending positions with the reason when it does not, 2 for unreadable input.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from perfectplay.cli._options import add_game_options, add_json_option

__all__ = ["add_parser", "run"]

EXIT_REFUTED = 1
PROBE_DEPTH = 4
"""The search's depth of ``--probe`` without ``--depth``."""


def add_parser(subparsers: Any) -> None:
    """Register the ``verify`` subcommand."""
    parser = subparsers.add_parser(
        "verify",
        help="check a solution against the rules, independently of the solvers",
        description=(
            "Check every position of a solution against its moves: its value and remoteness "
            "(for the player to move) must be exactly what its moves imply, scores what their "
            "gains imply. Give a graph file and `perfectplay solve`'s text output, or one store "
            "file (`solve --save`), tier directory (`solve --tiers`) or geography certificate "
            "(`problem --certificate`). With --probe N, a tier directory (also one whose solve "
            "is not finished) is sampled instead and compared with a search of the game's "
            "rules --depth plies deep. "
            "Exit 0 when the solution holds, 1 (with the first offending positions) when not."
        ),
    )
    parser.add_argument(
        "file", metavar="GRAPHFILE|DB|CERTIFICATE", help="the file (or tier directory) to check"
    )
    parser.add_argument(
        "solution",
        metavar="SOLUTION",
        nargs="?",
        help="with a graph file: the solution text (- for standard input)",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar while checking or probing"
    )
    parser.add_argument(
        "--probe",
        type=int,
        metavar="N",
        help=(
            "tier directory: instead of checking every position, compare N stored positions "
            "(a seeded sample) with a search of the game's rules --depth plies deep; also a "
            "directory whose solve is not finished (its solved tiers)"
        ),
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar="D",
        help=f"with --probe: plies the search looks ahead (default {PROBE_DEPTH})",
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="with --probe: the sample's seed (default 0)"
    )
    parser.add_argument(
        "--tier",
        action="append",
        default=[],
        metavar="LABEL",
        help="with --probe: sample this tier only (repeatable; default every solved tier)",
    )
    add_game_options(parser)
    add_json_option(parser)
    parser.set_defaults(handler=run)


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as source:
        return source.read()


def _kind(path: str) -> str:
    """``store``, ``certificate`` or ``graph``, from the file's first bytes."""
    from perfectplay.store import MAGIC

    if path == "-":
        return "graph"
    if os.path.isdir(path):
        return "tiers"
    with open(path, "rb") as source:
        head = source.read(len(MAGIC))
    if head == MAGIC:
        return "store"
    return "certificate" if head.startswith(b"PK") else "graph"


def run(args: argparse.Namespace) -> int:
    """Check the file(s); print a summary line or the offending positions."""
    from perfectplay.cli import fail

    start = time.perf_counter()
    kind = _kind(args.file)
    if args.probe is not None or args.depth is not None or args.seed is not None or args.tier:
        return _probe(args, kind)
    sizes = ""
    if (args.game is not None or args.param) and kind not in ("store", "tiers"):
        return fail(
            f"verify: --game and --param apply to a store file or tier directory, and "
            f"{args.file} is a {kind} file"
        )
    if args.solution is not None:
        if kind != "graph":
            return fail(f"verify: {args.file} is a {kind} file; give it alone, without SOLUTION")
        from perfectplay.verify import verify_graph_text

        graph = _read(args.file)
        report = verify_graph_text(graph, _read(args.solution))
        what = f"{args.solution} solves {args.file}"
    elif kind == "store":
        from perfectplay.cli._resolve import saved_game
        from perfectplay.verify import verify_store

        game = saved_game(args.file, args.game, args.param)
        progress = not args.no_progress and sys.stderr.isatty()
        report = verify_store(args.file, progress=progress, game=game)
        what = f"{args.file} holds"
    elif kind == "tiers":
        from perfectplay.cli._resolve import open_saved
        from perfectplay.verify.tiers import check_tier_database

        progress = not args.no_progress and sys.stderr.isatty()
        with open_saved(args.file, args.game, args.param) as db:
            report = check_tier_database(db, progress=progress)
        what = f"the tier directory {args.file} holds"
    elif kind == "certificate":
        from perfectplay.verify.certificate import verify_certificate_file

        checked = verify_certificate_file(args.file)
        report = checked.report
        what = (
            f"{args.file}: {checked.cases:,} maximum matching{'s' if checked.cases != 1 else ''} "
            f"({checked.matched_edges:,} matched edges) and the {checked.losers:,} losing starts "
            "D(G) are proved"
        )
        sizes = f"{report.positions:,} vertices, {report.moves // 2:,} edges"
    else:
        return fail(
            f"verify: {args.file} is a graph file: give the solution to check too "
            "(perfectplay verify GRAPHFILE SOLUTION)"
        )
    seconds = time.perf_counter() - start
    if args.json:
        import json

        record = {
            "verified": report.ok,
            "what": what,
            "positions": report.positions,
            "moves": report.moves,
            "bad": report.bad,
            "problems": report.problems,
            "notes": report.notes,
            "seconds": round(seconds, 3),
        }
        sys.stdout.write(json.dumps(record) + "\n")
        return 0 if report.ok else EXIT_REFUTED
    if not report.ok:
        head = f"{report.bad:,} of {report.positions:,} positions break the rules"
        return _refuted(head, report.bad, report.problems)
    sizes = sizes or f"{report.positions:,} positions, {report.moves:,} moves"
    print(f"verified: {what} ({sizes}, {seconds:.2f} s)")
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _refuted(head: str, bad: int, problems: list[str]) -> int:
    """Print ``NOT VERIFIED: HEAD``, the `problems` shown and how many more; the exit code."""
    print(f"NOT VERIFIED: {head}")
    for problem in problems:
        print(problem)
    if bad > len(problems):
        print(f"... and {bad - len(problems):,} more")
    return EXIT_REFUTED


def _probe(args: argparse.Namespace, kind: str) -> int:
    """``--probe``: sample a tier directory and compare it with the depth-limited search."""
    from perfectplay.cli import fail

    if args.probe is None:
        given = (
            "--depth" if args.depth is not None else "--seed" if args.seed is not None else "--tier"
        )
        return fail(f"verify: {given} applies with --probe N")
    if args.probe < 1:
        return fail(f"verify: --probe needs 1 position or more, got {args.probe}")
    depth = PROBE_DEPTH if args.depth is None else args.depth
    if depth < 0:
        return fail(f"verify: --depth must be 0 or more, got {depth}")
    if args.solution is not None:
        return fail("verify: --probe takes one tier directory, without SOLUTION")
    if kind != "tiers":
        return fail(
            f"verify: --probe applies to a tier directory, and {args.file} is a {kind} file"
        )
    from perfectplay.cli._resolve import saved_game
    from perfectplay.solved import open_tiers
    from perfectplay.verify.probe import probe_tiers, tiers_named

    game = saved_game(args.file, args.game, args.param)
    with open_tiers(args.file, game=game, partial=True) as db:
        tiers = tiers_named(db, args.tier) if args.tier else None
        progress = not args.no_progress and sys.stderr.isatty()
        report = probe_tiers(
            db, args.probe, depth, seed=args.seed or 0, tiers=tiers, progress=progress
        )
    if args.json:
        import json

        record = {
            "verified": report.ok,
            "what": f"the tier directory {args.file} against a search of depth {depth}",
            "depth": depth,
            "seed": args.seed or 0,
            "tiers": report.tiers,
            "probed": report.probed,
            "decided": report.decided,
            "agreed": report.agreed,
            "must_decide": report.must_decide,
            "must_decided": report.must_decided,
            "by_value": {k: {"probed": n, "decided": d} for k, (n, d) in report.by_value.items()},
            "nodes": report.nodes,
            "bad": report.bad,
            "problems": report.problems,
            "notes": report.notes,
            "seconds": round(report.seconds, 3),
        }
        sys.stdout.write(json.dumps(record) + "\n")
        return 0 if report.ok else EXIT_REFUTED
    if not report.ok:
        head = f"{report.bad:,} of {report.probed:,} positions probed disagree with a search"
        head += f" of depth {depth}"
        return _refuted(head, report.bad, report.problems)
    print(
        f"verified: the tier directory {args.file} agrees with a search of its rules "
        f"({report.summary()}; {report.nodes:,} positions searched, {report.seconds:.2f} s)"
    )
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    return 0
