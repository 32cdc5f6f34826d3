"""The subtraction game's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="subtraction",
    rules=".rules:Subtraction",
    summary="one heap, take an allowed number of tokens; who takes the last token wins",
    params=(
        Param("heap", "starting heap size"),
        Param("take", "the numbers of tokens a move may take"),
    ),
    small={"heap": 15, "take": (1, 3, 4)},
    picture=".picture:drawing",
    aliases=("subtraction-game", "take-away"),
    notation="17",
)
