"""Dodgem's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="dodgem",
    rules=".rules:Dodgem",
    summary="Colin Vout's car race (Winning Ways); loopy, a first-player win on 3x3",
    params=(Param("size", "board side; each player has size - 1 cars"),),
    tiers=".tiers:DodgemTiers",
    picture=".picture:drawing",
    notation=".B./BR./..R B (the side to move after a blank)",
)
