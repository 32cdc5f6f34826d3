"""Quixo's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="quixo",
    rules=".rules:Quixo",
    summary="push edge cubes back into rows, n in a row wins (GamesmanOne's rules); loopy",
    params=(Param("size", "board side: 3, 4 or 5"),),
    tiers=".tiers:TieredQuixo",
    small={"size": 3},
    picture=".picture:drawing",
    notation="--XO/----/----/---- X (the side to move after a blank)",
)
