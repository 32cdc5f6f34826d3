"""``perfectplay analyze FILE``: a saved game's positions counted by value and remoteness.

The tables are :mod:`perfectplay.draw.tables`' (columns sized to their content, counts with
thousands separators); ``--plot`` draws the same counts with
:func:`~perfectplay.draw.charts.counts_svg`, naming what is counted: the symmetry classes a
store keeps, or the positions a tier directory's analysis counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, cast

from perfectplay.cli._options import add_game_options, add_json_option

if TYPE_CHECKING:
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``analyze`` subcommand."""
    parser = subparsers.add_parser(
        "analyze",
        help="count a saved solution's positions by value and remoteness",
        description=(
            "Print a table of a saved solution's positions: one row per remoteness, one column "
            "per value (for the player to move), with totals. Reads only the value and "
            "remoteness arrays."
        ),
    )
    parser.add_argument(
        "file", metavar="FILE|DIR", help="a saved solution: a store file or a tier directory"
    )
    add_json_option(parser)
    add_game_options(parser)
    parser.add_argument(
        "--by-tier",
        action="store_true",
        help="tier directories: also count each tier (classes and positions per value)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the counts as stacked bars (one per remoteness, coloured by value) "
        "to FILE.svg or FILE.png",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Open the file and print its counts."""
    from perfectplay.cli._resolve import open_saved, saved_path
    from perfectplay.draw.tables import remoteness_table
    from perfectplay.solved import is_tier_directory

    args.file = saved_path(args.file, "analyze")
    if args.plot is not None:
        from perfectplay.draw.output import check_picture_path

        check_picture_path(args.plot)
    if is_tier_directory(args.file):
        return _run_tiers(args)
    if args.by_tier:
        from perfectplay.errors import InputFormatError

        raise InputFormatError("--by-tier applies to a tier directory")
    with open_saved(args.file, args.game, args.param) as opened:
        store = cast("SolutionStore", opened)  # not a directory: a store file
        counts = store.counts()
        title = store.game_name or "game graph"
        params = " ".join(
            f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in store.params.items()
        )
        if args.plot is not None:
            from perfectplay.draw import counts_svg, write_picture

            unit = "symmetry classes" if store.manifest["canonical"] else "positions"
            picture = counts_svg(counts, f"{title}{' ' + params if params else ''}", unit=unit)
            write_picture(args.plot, picture)
        if args.json:
            record = {
                "game": store.game_name,
                "params": store.params,
                "positions": store.n,
                "symmetry_classes": store.n if store.manifest["canonical"] else None,
                "moves": store.m,
                "counts": [
                    {"value": value.name, "remoteness": r, "count": c} for value, r, c in counts
                ],
            }
            sys.stdout.write(json.dumps(record) + "\n")
            return 0
        what = (
            f"{store.n:,} symmetry classes (symmetric positions, e.g. mirror images, solved once)"
            if store.manifest["canonical"]
            else f"{store.n:,} positions"
        )
        header = f"{title}{' ' + params if params else ''}: {what}, {store.m:,} moves"
        sys.stdout.write(header + "\n" + remoteness_table(counts) + "\n")
    return 0


def _run_tiers(args: argparse.Namespace) -> int:
    """Counts of a tier directory: positions reachable from the start, classes and positions."""
    from perfectplay.cli._resolve import open_saved
    from perfectplay.draw.tables import remoteness_table, tier_table
    from perfectplay.tiers.analyze import analyze_tiers

    with open_saved(args.file, args.game, args.param) as opened:
        db = cast("TierDatabase", opened)  # a directory: a tier directory
        analysis = analyze_tiers(db)
        title = db.describe()
    if args.plot is not None:
        from perfectplay.draw import counts_svg, write_picture

        rows = [(value, r, positions) for value, r, _, positions in analysis.remoteness]
        write_picture(args.plot, counts_svg(rows, title))
    if args.json:
        sys.stdout.write(json.dumps({"game": title, **analysis.to_json()}) + "\n")
        return 0
    positions = sum(analysis.positions.values())
    classes = sum(analysis.classes.values())
    starts = len(db.tiered.starts())
    origin = "the start" if starts == 1 else f"any of its {starts} starts"
    lines = [
        f"{title}: {positions:,} positions reachable from {origin}, stored as {classes:,} "
        "classes (a position and its symmetric images are one class)",
        "positions by value and remoteness:",
        remoteness_table([(value, r, p) for value, r, _, p in analysis.remoteness]),
        "classes by value: " + ", ".join(f"{k} {v:,}" for k, v in analysis.classes.items()),
    ]
    if analysis.won is not None:
        lines.append(
            "positions won by each player: "
            + ", ".join(f"the {name} player {n:,}" for name, n in analysis.won.items())
        )
    if args.by_tier:
        lines += ["positions by tier:", tier_table(analysis.tiers)]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
