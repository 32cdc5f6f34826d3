"""Nim's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="nim",
    rules=".rules:Nim",
    summary="take any number of tokens from one heap; who takes the last token wins",
    params=(Param("heaps", "starting heap sizes"),),
    small={"heaps": (2, 3, 4)},
    picture=".picture:nim_drawing",
    notation="1 4 5",
)
