"""Gobblet Gobblers' entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="gobblet-gobblers",
    rules=".rules:GobbletGobblers",
    summary="tic-tac-toe whose larger pieces cover smaller ones and move (GamesmanOne's rules); "
    "loopy, a first-player win",
    aliases=("gobblet", "gobbletg"),
    notation="sL,-,-/-,M,-/-,-,l O",
    params=(
        Param("sizes", "piece sizes, the smallest ones: 1 to 3"),
        Param("pieces", "pieces of each size per player: 1 to 3"),
    ),
    tiers=".tiers:TieredGobblet",
    small={"sizes": 1, "pieces": 3},
    picture=".picture:drawing",
)
