"""Pictures: positions, geography problems and charts as standalone SVG (PNG on request).

One renderer per kind of board or graph, used alike by the command line (``perfectplay
draw``, ``problem --draw``, ``analyze --plot``), the web app and notebook reprs. Values are
stated for the player to move, except on a move's mark, which shows the value for the player
*making* the move. Colours: :data:`PALETTE` (Okabe–Ito, colour-blind safe), always next to
the value's initial.

Examples
--------
>>> from perfectplay import load_game, solve
>>> from perfectplay.values import Value
>>> game = load_game("tic-tac-toe")
>>> svg = position_svg(game, game.initial(), solve(game).move_values(game.initial()))
>>> svg.count('class="move"')
9
>>> value_history_svg([(Value.TIE, 9), (Value.TIE, 8)]).startswith("<svg")
True
"""

from __future__ import annotations

from perfectplay.draw.charts import counts_svg, value_history_svg
from perfectplay.draw.output import write_picture
from perfectplay.draw.position import position_svg
from perfectplay.svg.palette import PALETTE

__all__ = ["PALETTE", "counts_svg", "position_svg", "value_history_svg", "write_picture"]
