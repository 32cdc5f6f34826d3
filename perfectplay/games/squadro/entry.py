"""Squadro's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="squadro",
    rules=".rules:Squadro",
    summary="race pieces across the board and back at speeds 1 to 3; jumping sends a piece "
    "back; the first with 4 home wins (ndeineko's rules); loopy, the left player wins",
    params=(
        Param("speeds", "the top player's speeds out, one per piece (left's: 4 - speed)"),
        Param("home", "pieces a player must bring home to win"),
    ),
    tiers=".tiers:TieredSquadro",
    small={"speeds": (1, 3), "home": 1},
    picture=".picture:drawing",
    notation="1,3,0,0,0/0,0,3,0,0 L (each piece's track position, 0 to 12; T or L to move)",
)
