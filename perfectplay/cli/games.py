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


def _has_symmetries(target: str) -> bool:
    """Whether the game class at ``module:Class`` merges symmetric positions (``canonical``)."""
    import importlib

    from perfectplay.protocol.game import Game

    module, _, name = target.partition(":")
    game_class = getattr(importlib.import_module(module), name)
    return getattr(game_class, "canonical", None) is not Game.canonical


def _record(entry: Any) -> dict[str, Any]:
    """A registry entry as JSON: name, aliases, summary, parameters, notation, tier form."""
    return {
        "name": entry.name,
        "aliases": list(entry.aliases),
        "summary": entry.summary,
        "params": [
            {"name": p.name, "kind": p.kind, "default": p.default, "help": p.help}
            for p in entry.params
        ],
        "notation": entry.notation or None,
        "tier_form": entry.tiered is not None,
        "symmetries": _has_symmetries(entry.target),
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
        if _has_symmetries(entry.target):
            print(
                f"{'':<4}symmetric positions (e.g. mirror images) are solved once, as one "
                "symmetry class"
            )
        for param in entry.params:
            kind = "integer" if param.kind == "int" else "integers, comma-separated"
            print(f"    --param {param!s:<16} {param.help} ({kind})")
    return 0
