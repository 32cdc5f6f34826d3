"""Connect Four's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`).

The tier form is chosen by the board (:func:`.tiers.tiered_form`: by stone count, or by
column heights from 6x6 on); a tier directory records which class made it.
"""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="connect-four",
    rules=".rules:ConnectFour",
    summary="drop stones into columns, four in a row wins (in memory up to 5x5; 6x6 on the "
    "tier engine; 6 rows x 7 columns and any board with (rows + 1) * cols <= 128, 7 rows x 9 "
    "columns and 8x8 among them, answered position by position by search)",
    params=(Param("rows", "board height"), Param("cols", "board width")),
    tiers=".tiers:tiered_form",
    tier_classes=(".tiers:TieredConnectFour", ".heights:HeightTieredConnectFour"),
    small={"rows": 3, "cols": 4},
    picture=".picture:drawing",
    aliases=("connect4", "connectfour", "c4"),
    notation="...../...../O..../XX... or the columns played, 1-based: 112 (past 9 columns "
    "with commas: 10,1,10)",
)
