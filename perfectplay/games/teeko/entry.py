"""Teeko's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="teeko",
    rules=".rules:Teeko",
    summary="drop 4 pieces, then slide them; 4 in a row or a 2x2 square wins (GamesmanOne's "
    "rules); loopy, a draw",
    params=(
        Param("size", "board side: 3 to 5"),
        Param("pieces", "pieces per player and line length: 3 to size"),
    ),
    tiers=".tiers:TieredTeeko",
    small={"size": 3, "pieces": 3},
    picture=".picture:drawing",
)
