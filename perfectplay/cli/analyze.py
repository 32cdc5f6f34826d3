"""``perfectplay analyze FILE``: a saved game's positions counted by value and remoteness."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, cast

from perfectplay.cli._options import add_game_options, add_json_option

if TYPE_CHECKING:
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

__all__ = ["add_parser", "format_table", "run"]


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


def format_table(counts: list[tuple[Any, int, int]]) -> str:
    """Rows by remoteness (a DRAW's row is ``draw``), columns WIN LOSE TIE DRAW and total.

    >>> from perfectplay.values import Value
    >>> print(format_table([(Value.LOSE, 0, 1), (Value.WIN, 1, 2), (Value.DRAW, -1, 3)]))
    remoteness      WIN     LOSE      TIE     DRAW    total
             0        0        1        0        0        1
             1        2        0        0        0        2
          draw        0        0        0        3        3
         total        2        1        0        3        6
    """
    from perfectplay.values import Value

    columns = (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
    rows: dict[int, dict[Value, int]] = {}
    for value, remoteness, count in counts:
        rows.setdefault(remoteness, {})[Value(value)] = count
    order = sorted(r for r in rows if r >= 0) + [r for r in rows if r < 0]
    width = max(8, *(len(str(c)) + 1 for _, _, c in counts)) if counts else 8
    lines = [
        f"{'remoteness':>10}"
        + "".join(f"{h:>{width + 1}}" for h in (*(v.name for v in columns), "total"))
    ]
    totals = dict.fromkeys(columns, 0)
    for r in order:
        cells = [rows[r].get(v, 0) for v in columns]
        for v, c in zip(columns, cells, strict=True):
            totals[v] += c
        label = "draw" if r < 0 else str(r)
        lines.append(f"{label:>10}" + "".join(f"{c:>{width + 1}}" for c in (*cells, sum(cells))))
    grand = [totals[v] for v in columns]
    lines.append(f"{'total':>10}" + "".join(f"{c:>{width + 1}}" for c in (*grand, sum(grand))))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Open the file and print its counts."""
    from perfectplay.cli._resolve import open_saved, saved_path
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

            write_picture(args.plot, counts_svg(counts, f"{title}{' ' + params if params else ''}"))
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
        sys.stdout.write(header + "\n" + format_table(counts) + "\n")
    return 0


def _run_tiers(args: argparse.Namespace) -> int:
    """Counts of a tier directory: positions reachable from the start, classes and positions."""
    from perfectplay.cli._resolve import open_saved
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
    lines = [
        f"{title}: {positions:,} positions reachable from the start, stored as {classes:,} "
        "classes (a position and its mirror images are one class)",
        "positions by value and remoteness:",
        format_table([(value, r, p) for value, r, _, p in analysis.remoteness]),
        "classes by value: " + ", ".join(f"{k} {v:,}" for k, v in analysis.classes.items()),
    ]
    if args.by_tier:
        names = ("WIN", "LOSE", "TIE", "DRAW")
        head = f"{'tier':>8}" + "".join(f"{n:>14}" for n in names) + f"{'classes':>14}"
        lines += ["positions by tier:", head]
        for t in analysis.tiers:
            cells = "".join(f"{t.positions[n]:>14,}" for n in names)
            lines.append(f"{t.label:>8}{cells}{sum(t.classes.values()):>14,}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
