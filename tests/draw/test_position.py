"""position_svg: every legal move marked once, its data-value and colour agreeing with the
solver (the child's value for its player to move, flipped), on positions reached by random play
in every registered game."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.draw import PALETTE, position_svg
from perfectplay.draw.position import graph_position_svg, thumbnail_svg
from perfectplay.games.registry import game_entry, game_names, load_game
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import NO_REMOTENESS, Value

SVG = "{http://www.w3.org/2000/svg}"

# Small instances of every registered game (all solve in about a second).
PARAMS: dict[str, dict[str, Any]] = {name: dict(game_entry(name).small) for name in game_names()}
_SOLVED: dict[str, Any] = {}


def solved(name: str) -> tuple[Game[Any], Any]:
    if name not in _SOLVED:
        game = load_game(name, **PARAMS[name])
        _SOLVED[name] = (game, solve(game))
    result: tuple[Game[Any], Any] = _SOLVED[name]
    return result


def marks(svg: str) -> dict[str, ET.Element]:
    """The elements carrying data-move, by label (each label must occur once)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    found: dict[str, ET.Element] = {}
    for element in root.iter():
        label = element.get("data-move")
        if label is not None:
            assert label not in found, f"move {label} marked twice"
            found[label] = element
    return found


def test_every_registered_game_has_a_board_renderer() -> None:
    assert all(game_entry(name).picture is not None for name in game_names())


def random_position(name: str, choices: list[int]) -> Any:
    """The position reached from the start by the moves `choices` pick (modulo the count)."""
    game, _ = solved(name)
    position = game.initial()
    for k in choices:
        moves = list(game.moves(position))
        if not moves:
            break
        position = moves[k % len(moves)][1]
    return position


@pytest.mark.parametrize("name", sorted(PARAMS))
@settings(deadline=None)
@given(choices=st.lists(st.integers(0, 50), max_size=12))
def test_every_legal_move_is_marked_with_the_solvers_value(name: str, choices: list[int]) -> None:
    game, solution = solved(name)
    position = random_position(name, choices)
    moves = solution.move_values(position)
    found = marks(position_svg(game, position, moves))
    assert set(found) == {label for label, *_ in game.moves(position)}
    for label, child, *_ in game.moves(position):
        # Independently of Move: the child's value for its player to move, flipped.
        child_value = solution.value(child)
        expected = {Value.WIN: Value.LOSE, Value.LOSE: Value.WIN}.get(child_value, child_value)
        r = solution.remoteness(child)
        element = found[label]
        assert element.get("data-value") == expected.name
        assert int(element.get("data-remoteness", "")) == (NO_REMOTENESS if r < 0 else r + 1)
        fills = {e.get("fill") for e in element.iter()}
        assert PALETTE[expected.name] in fills
    assert ringed(found) == {m.label for m in solution.best_moves(position)}


def ringed(found: dict[str, ET.Element]) -> set[str]:
    """The moves whose mark holds the best-move ring (and says so in data-best)."""
    rings = {
        label
        for label, element in found.items()
        if any(e.get("class") == "best" for e in element.iter())
    }
    assert rings == {label for label, e in found.items() if e.get("data-best") == "true"}
    return rings


def test_the_best_moves_are_ringed_and_only_they() -> None:
    """Tic-tac-toe, O to move facing X's two in a row: blocking at c1 is the one best move
    (every other move loses); at the start every move ties, the best ones ringed, the
    legend says what a ring means."""
    game, solution = solved("tic-tac-toe")
    threat = game.parse("XX. .O. ...")
    svg = position_svg(game, threat, solution.move_values(threat))
    assert [m.label for m in solution.best_moves(threat)] == ["c1"]
    assert ringed(marks(svg)) == {"c1"}
    assert svg.count('class="best"') == 1 and "ringed: a best move" in svg
    start = game.initial()
    found = marks(position_svg(game, start, solution.move_values(start)))
    assert ringed(found) == {m.label for m in solution.best_moves(start)}


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_the_board_alone_has_no_move_marks_and_a_legend(name: str) -> None:
    game, _ = solved(name)
    svg = position_svg(game, game.initial())
    assert marks(svg) == {}
    for value in ("WIN", "LOSE", "TIE", "DRAW"):
        assert f">{value}</text>" in svg


@pytest.mark.parametrize("name", game_names())
def test_a_thumbnail_is_the_games_own_board_at_its_defaults_without_marks(name: str) -> None:
    game = load_game(name)
    start = game.initial()
    svg = thumbnail_svg(game, start, size=150)
    root = ET.fromstring(svg)
    assert marks(svg) == {} and float(root.get("width", "")) == 150
    board = root.find(f"{SVG}g")
    assert board is not None
    inner = "".join(ET.tostring(child, encoding="unicode") for child in board)
    full = ET.fromstring(position_svg(game, start))
    drawn = [g for g in full.findall(f"{SVG}g") if g.get("transform", "").startswith("translate")]
    assert inner == "".join(ET.tostring(child, encoding="unicode") for child in drawn[0])


def test_size_sets_the_rendered_width_and_keeps_the_aspect_ratio() -> None:
    game, _ = solved("tic-tac-toe")
    root = ET.fromstring(position_svg(game, game.initial(), size=300))
    _, _, w, h = (float(x) for x in root.get("viewBox", "").split())
    assert float(root.get("width", "")) == 300
    assert float(root.get("height", "")) == pytest.approx(300 * h / w, abs=0.01)


def test_a_heap_too_large_for_tokens_falls_back_to_buttons_with_every_move() -> None:
    game = load_game("subtraction", heap=500, take=(1, 2, 7))
    solution = solve(game)
    found = marks(position_svg(game, 500, solution.move_values(500)))
    assert set(found) == {"1", "2", "7"}


class Renamed(Game[int]):
    """A user's game that borrows the name of a registered one."""

    info = GameInfo("tic-tac-toe")

    def initial(self) -> int:
        return 3

    def moves(self, position: int) -> list[tuple[str, int]]:
        return [(f"take {k}", position - k) for k in (1, 2) if k <= position]

    def outcome(self, position: int) -> Value | None:
        return None


def test_a_user_game_sharing_a_name_gets_the_text_picture() -> None:
    game = Renamed()
    solution = solve(game)
    svg = position_svg(game, 3, solution.move_values(3))
    assert set(marks(svg)) == {"take 1", "take 2"}
    assert ">3</text>" in svg


def test_text_is_escaped() -> None:
    class Angled(Renamed):
        info = GameInfo("angled <game>")

        def render(self, position: int) -> str:
            return f"<{position}> & more"

    svg = position_svg(Angled(), 3, solve(Angled()).move_values(3))
    root = ET.fromstring(svg)  # well-formed despite the <, > and &
    assert any(e.text == "<3> & more" for e in root.iter())


def test_a_graph_position_lists_its_moves_by_target_id() -> None:
    from perfectplay.graph import GameGraph

    graph = GameGraph.from_edges([0, 0], [1, 2], n=3)
    s = solve(graph)
    found = marks(graph_position_svg(0, s.move_values(0)))
    assert set(found) == {"1", "2"}
    assert {e.get("data-value") for e in found.values()} == {"WIN"}


def test_over_positions_show_no_moves_and_say_who_won() -> None:
    game, solution = solved("tic-tac-toe")
    over = "XXXOO...."
    svg = position_svg(game, over, solution.move_values(over))
    assert marks(svg) == {}
    assert "X has three in a row" in svg


def test_notebook_views_draw_the_position_with_its_moves() -> None:
    game, solution = solved("nim")
    view = solution.view((1, 2, 2))
    here = (solution.value((1, 2, 2)), solution.remoteness((1, 2, 2)))
    assert (view.value, view.remoteness) == here
    assert set(marks(view._repr_svg_())) == {m.label for m in view.moves}
    assert set(marks(solution._repr_svg_())) == {label for label, _ in game.moves(game.initial())}


def test_a_geography_result_too_large_to_draw_shows_as_text() -> None:
    from perfectplay.solvers.geography import solve_geography

    path = [(i, i + 1) for i in range(3000)]
    assert solve_geography(path)._repr_svg_() is None
    assert solve_geography(path[:3])._repr_svg_() is not None
