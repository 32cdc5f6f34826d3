"""Nine Men's Morris's entry in the registry (see :mod:`perfectplay.games.tictactoe.entry`)."""

from perfectplay.games.entry import GameEntry, Param

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="nine-mens-morris",
    rules=".rules:Mills",
    summary="place stones, then move them; a mill removes a stone; fewer than 3 stones or no "
    "move loses (Gasser's and Malom's rules); loopy; variants Lasker, Morabaraba, six, three",
    params=(
        Param("variant", "nine, lasker, morabaraba, six or three (Three Men's Morris)"),
        Param("stones", "stones per side, 3 to 12; 0: the variant's own (9, 10, 12, 6, 3)"),
    ),
    tiers=".tiers:TieredMills",
    small={"variant": "three"},
    aliases=("morris", "mills", "nmm", "muehle", "merels"),
    notation="WW------B-B------------- W 1 1",
    picture=".picture:drawing",
)
