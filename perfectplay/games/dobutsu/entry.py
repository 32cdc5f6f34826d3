"""Dobutsu Shogi's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="dobutsu",
    rules=".rules:DobutsuShogi",
    summary="Dobutsu Shogi: lions, giraffes, elephants and chicks on 3x4, captures to hand and "
    "drops; catch the lion or reach the far row (GamesmanOne's and Tanaka's rules); loopy, "
    "a loss in 78 for the first player",
    params=(
        Param("giraffes", "giraffes in play: 0 to 2"),
        Param("elephants", "elephants in play: 0 to 2"),
        Param("chicks", "chicks in play: 0 to 2"),
    ),
    tiers=".tiers:TieredDobutsu",
    small={"giraffes": 0, "elephants": 0, "chicks": 1},
    aliases=("dobutsu-shogi", "dshogi", "animal-shogi"),
    notation="gle/-c-/-C-/ELG F -",
    picture=".picture:drawing",
)
