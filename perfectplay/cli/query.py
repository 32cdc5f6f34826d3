"""``perfectplay query FILE [POSITION]``: a position's value and its moves', from a saved game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time: start-up stays fast
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

__all__ = ["add_parser", "parse_position", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``query`` subcommand."""
    parser = subparsers.add_parser(
        "query",
        help="look a position up in a saved solution (perfectplay solve GAME --save FILE)",
        description=(
            "Print the value and remoteness (or score) of a position for the player to move, "
            "and of every move from it for the player making it, from a file written by "
            "`perfectplay solve GAME --save FILE`. Nothing is re-solved."
        ),
    )
    parser.add_argument(
        "file", metavar="FILE|DIR", help="a saved solution, or a tier directory (solve --tiers)"
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="*",
        help="the position, written as the game draws it (a position id for a game graph); "
        "several words are joined by spaces, so quotes are optional; default: the starting "
        "position",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.set_defaults(handler=run)


def parse_position(store: SolutionStore | TierDatabase, text: str | None) -> Any:
    """The position `text` writes, read by the stored game's own parser (an id for a graph).

    Raises
    ------
    InputFormatError
        If the game cannot read `text`, or a graph store gets a non-integer.
    """
    from perfectplay.errors import InputFormatError
    from perfectplay.store import SolutionStore

    if isinstance(store, SolutionStore) and store.game_name is None:
        if text is None:
            if store.start is None:
                raise InputFormatError("this game graph has no recorded start: give a POSITION")
            return store.start
        try:
            return int(text)
        except ValueError:
            raise InputFormatError(
                f"a game graph's positions are ids 0..{store.n - 1}, got {text!r}"
            ) from None
    game = store.game
    return game.initial() if text is None else game.parse(text)


def run(args: argparse.Namespace) -> int:
    """Open the file, look the position up, print it with its moves."""
    from perfectplay.play import describe
    from perfectplay.solved import open_solved

    with open_solved(args.file) as store:
        position = parse_position(store, " ".join(args.position) if args.position else None)
        here = store.probe(position)
        moves = store.move_values(position)
        best = {m.label for m in store.best_moves(position)}
        drawn = str(position) if store.game_name is None else store.game.render(position)
        if args.json:
            record = {
                "game": store.game_name,
                "params": store.params,
                "position": drawn,
                "value": here.value.name,
                "remoteness": here.remoteness,
                "score": here.score,
                "moves": [
                    {
                        "label": m.label,
                        "value": m.value.name,
                        "remoteness": m.remoteness,
                        "score": m.score,
                        "best": m.label in best,
                    }
                    for m in moves
                ],
            }
            sys.stdout.write(json.dumps(record) + "\n")
            return 0
        status = "for the player to move" if moves else "the game is over"
        lines = [drawn, f"value: {describe(here.value, here.remoteness, here.score)} ({status})"]
        if moves:
            width = max(len(m.label) for m in moves)
            lines.append(f"moves ({len(moves)}), valued for the player making them:")
            for m in moves:
                mark = "  best" if m.label in best else ""
                lines.append(
                    f"  {m.label:<{width}}  {describe(m.value, m.remoteness, m.score)}{mark}"
                )
        sys.stdout.write("\n".join(lines) + "\n")
    return 0
