"""``perfectplay games``: the registered games, their parameters and defaults."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from perfectplay.cli._options import add_json_option

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``games`` subcommand."""
    parser = subparsers.add_parser(
        "games",
        help="list the registered games and their parameters",
        description=(
            "List the games registered by name, with their parameters (type, default, meaning). "
            "Use a name with `perfectplay solve NAME --param KEY=VALUE` or "
            "`perfectplay play NAME`, or in Python: perfectplay.load_game(NAME, **params)."
        ),
    )
    parser.add_argument("name", nargs="?", help="show only this game (a name or an alias)")
    add_json_option(parser)
    parser.set_defaults(handler=run)


_KINDS = {"int": "integer", "ints": "integers, comma-separated", "text": "text"}


def _has_symmetries(entry: Any) -> bool:
    """Whether the entry's game class merges symmetric positions (``canonical``)."""
    from perfectplay.protocol.game import Game

    return getattr(entry.game_class(), "canonical", None) is not Game.canonical


def _record(entry: Any) -> dict[str, Any]:
    """A registry entry as JSON: name, aliases, summary, parameters, notation, tier form."""
    return {
        "name": entry.name,
        "aliases": list(entry.aliases),
        "summary": entry.summary,
        "params": [
            {"name": p.name, "kind": p.kind, "default": p.default, "help": p.help}
            for p in entry.parameters()
        ],
        "notation": entry.notation or None,
        "tier_form": entry.tiers is not None,
        "symmetries": _has_symmetries(entry),
    }


def run(args: argparse.Namespace) -> int:
    """Print each game: name and summary, then one line per parameter."""
    from perfectplay.games.registry import game_entry, game_names

    names = game_names() if args.name is None else [game_entry(args.name).name]
    if args.json:
        import json

        records = [_record(game_entry(name)) for name in names]
        sys.stdout.write(json.dumps(records) + "\n")
        return 0
    for name in names:
        entry = game_entry(name)
        print(f"{entry.name:<14} {entry.summary}")
        if entry.aliases:
            print(f"{'':<4}also: {', '.join(entry.aliases)}")
        if entry.notation:
            print(f"{'':<4}a position (POSITION): {entry.notation}")
        if _has_symmetries(entry):
            print(
                f"{'':<4}symmetric positions (e.g. mirror images) are solved once, as one "
                "symmetry class"
            )
        for param in entry.parameters():
            kind = _KINDS[param.kind or "text"]
            print(f"    --param {param!s:<16} {param.help + ' ' if param.help else ''}({kind})")
    return 0
