"""Tic-tac-toe's entry in the registry: the model of what a game folder's ``entry.py`` holds.

``ENTRY`` names the game and its aliases, says in one line what it is, shows its notation and
points at its forms by targets relative to this folder (``.rules:TicTacToe``: the class
``TicTacToe`` of ``rules.py`` here). Importing this module imports neither the rules nor the
picture; the registry lists the folder (``perfectplay/games/registry.py``) and reads this.

A game with parameters also lists each constructor keyword with a help line,
``params=(Param("rows", "board height"), ...)`` (types and defaults come from the
constructor) and a small instance for tests and examples, ``small={"rows": 3}``; a game with
a tier form names it: ``tiers=".tiers:TieredNim"``. Nothing else outside the folder names the
game but its line in the registry's ``FOLDERS``.

>>> ENTRY.name, ENTRY.rules
('tic-tac-toe', '.rules:TicTacToe')
"""

from perfectplay.games.entry import GameEntry

__all__ = ["ENTRY"]

ENTRY = GameEntry(
    name="tic-tac-toe",
    rules=".rules:TicTacToe",
    summary="noughts and crosses on 3x3; a tie from the start, 5,478 reachable positions in "
    "765 symmetry classes",
    aliases=("tictactoe", "ttt", "noughts-and-crosses"),
    notation="X../.O./...",
    picture=".picture:drawing",
)
