"""``perfectplay query FILE [POSITION] [--moves ...]``: a position's value and its moves', from a
saved solution (store file or tier directory)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time: start-up stays fast
    from perfectplay.store import SolutionStore
    from perfectplay.tiers.database import TierDatabase

from perfectplay.cli._options import (
    add_game_options,
    add_json_option,
    add_position_arguments,
    move_labels,
)

__all__ = ["add_parser", "parse_position", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``query`` subcommand."""
    parser = subparsers.add_parser(
        "query",
        help="look a position up in a saved solution (perfectplay solve GAME --save FILE)",
        description=(
            "Print the value and remoteness (or score) of a position for the player to move, "
            "and of every move from it for the player making it, from a file written by "
            "`perfectplay solve GAME -o FILE` (a store file or a tier directory). Nothing is "
            "re-solved. A game graph's positions are ids. The file records its game; --game "
            "names a game class of your own that no package registers."
        ),
    )
    parser.add_argument(
        "file", metavar="FILE|DIR", help="a saved solution: a store file or a tier directory"
    )
    add_position_arguments(parser)
    add_game_options(parser)
    add_json_option(parser)
    parser.set_defaults(handler=run)


def parse_position(store: SolutionStore | TierDatabase, text: str | None, moves: str = "") -> Any:
    """The position `text` writes (the start if None), read by the stored game's own parser,
    then the moves `moves` (``--moves``, comma-separated labels) played from it; an id for a
    game graph.

    Raises
    ------
    InputFormatError
        If the game cannot read `text`, a move is not legal (named with its index), or a graph
        store gets a non-integer.
    """
    from perfectplay.cli._options import read_position
    from perfectplay.errors import InputFormatError
    from perfectplay.store import SolutionStore

    if isinstance(store, SolutionStore) and store.game_name is None:
        if move_labels(moves):
            raise InputFormatError("--moves applies to a game, not to a game graph's ids")
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
    return read_position(store.game, [] if text is None else [text], moves)[-1]


def run(args: argparse.Namespace) -> int:
    """Open the file, look the position up, print it with its moves."""
    from perfectplay.cli._resolve import open_saved, saved_path
    from perfectplay.play import describe

    with open_saved(saved_path(args.file, "query"), args.game, args.param) as store:
        text = "\n".join(args.position) if args.position else None
        position = parse_position(store, text, args.moves)
        here = store.probe(position)
        moves = store.move_values(position)
        best = {m.label for m in store.best_moves(position)}
        drawn = str(position) if store.game_name is None else store.game.render(position)
        if args.json:
            record = {
                "game": store.game_name,
                "params": store.params,
                "position": drawn,
                "notation": None if store.game_name is None else store.game.notation(position),
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
        lines = [drawn if store.game_name is None else store.game.labelled(position)]
        line = None if store.game_name is None else store.game.notation(position)
        if line is not None and line != drawn:  # a drawing of several lines
            lines.append(f"notation: {line}")
        lines.append(f"value: {describe(here.value, here.remoteness, here.score)} ({status})")
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
