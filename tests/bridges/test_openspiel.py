"""The OpenSpiel bridge against perfectplay's own games, a brute-force twin and random play.

Every position the bridge solves is matched to perfectplay's own game through its board
(tic-tac-toe, Connect Four 3x4, Nim normal and misère); scored games and a game with a cycle
are checked against an independent negamax over OpenSpiel states (``returns`` only, no
perfectplay code).
"""

from __future__ import annotations

import functools
import importlib
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
uniform_random = pytest.importorskip("open_spiel.python.bots.uniform_random")
policy_lib = pytest.importorskip("open_spiel.python.policy")

from perfectplay import load_game, solve  # noqa: E402
from perfectplay.bridges import openspiel  # noqa: E402
from perfectplay.bridges.openspiel import (  # noqa: E402
    PASS,
    ConnectFourRoute,
    OpenSpielGame,
    OpenSpielSolution,
    PerfectBot,
    grade,
    solve_openspiel,
)
from perfectplay.errors import (  # noqa: E402
    GameDefinitionError,
    InputFormatError,
    MissingDependencyError,
    TooLargeError,
)
from perfectplay.values import LOSE, TIE, WIN, Value  # noqa: E402


@functools.cache
def solved(spec: str, transpositions: str = "string", native: bool = True) -> OpenSpielSolution:
    return solve_openspiel(spec, transpositions=transpositions, native=native)  # type: ignore[arg-type]


def states(solution: OpenSpielSolution) -> list[tuple[tuple[str, int], Any]]:
    """Every position the bridge solved that is not a forced pass, with its state."""
    result = []
    for pid in range(len(solution.solution)):
        position = solution.solution.position_of(pid)
        state = solution.spiel.state(position)
        if state.is_terminal() or state.current_player() == position[1]:
            result.append((position, state))
    return result


# ------------------------------------------------------------------ the brute-force twin
def brute_returns(game: Any) -> Any:
    """Player 0's return under perfect play at each state, by plain minimax over OpenSpiel
    states (no perfectplay code), memoized by OpenSpiel's own state equality (``str``) and
    the player to move: the twin of scored solving. Acyclic games only."""

    @functools.cache
    def value(key: tuple[str, int]) -> float:
        state = table[key]
        if state.is_terminal():
            return float(state.returns()[0])
        children = [of(state.child(a)) for a in state.legal_actions()]
        return max(children) if state.current_player() == 0 else min(children)

    table: dict[tuple[str, int], Any] = {}

    def of(state: Any) -> float:
        key = (str(state), state.current_player())
        table.setdefault(key, state)
        return value(key)

    return of


def brute_reachable(game: Any) -> list[Any]:
    """One state per (``str``, player to move) reachable from the start, by depth-first
    search."""
    start = game.new_initial_state()
    found, stack = {(str(start), start.current_player()): start}, [start]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        for action in state.legal_actions():
            child = state.child(action)
            key = (str(child), child.current_player())
            if key not in found:
                found[key] = child
                stack.append(child)
    return list(found.values())


# ------------------------------------------------------------------ a game with a cycle
def cycle_type(utility: Any) -> Any:
    """The GameType of the game below, with the given utility kind."""
    return pyspiel.GameType(
        short_name="perfectplay_test_cycle",
        long_name="perfectplay test: a token on a cycle with two exits",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )


# Nodes 0 -> 1 -> 2 -> 0 in a cycle; from node 0 or 1 a player may also "exit": from 0 the
# exit loses for the mover, from 1 it wins. Node 2 only moves on. The player at node 1 wins
# at once; the one at 0 must avoid the exit and move to 1 (a loss); the one at 2 moves to 0.
# So 1 is WIN, 0 is LOSE (both moves lose), 2 is WIN. Start at 2. Node 3 is a second
# component, 3 <-> 4, with an exit from 3 that loses for the mover: best play loops, a DRAW.
_MOVES = {0: [1, "lose"], 1: [2, "win"], 2: [0], 3: [4, "lose"], 4: [3]}


class _CycleState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any, node: int) -> None:
        super().__init__(game)
        self.node, self.player, self.result = node, 0, 0.0

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.result else self.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(_MOVES[self.node])))

    def _apply_action(self, action: int) -> None:
        target = _MOVES[self.node][action]
        if isinstance(target, str):
            self.result = (1.0 if target == "win" else -1.0) * (1 if self.player == 0 else -1)
        else:
            self.node, self.player = target, 1 - self.player

    def _action_to_string(self, player: int, action: int) -> str:
        return f"to {_MOVES[self.node][action]}"

    def is_terminal(self) -> bool:
        return bool(self.result)

    def returns(self) -> list[float]:
        return [self.result, -self.result]

    def __str__(self) -> str:
        return f"node {self.node}" + (f" over {self.result:+}" if self.result else "")


class _CycleGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, utility: Any = pyspiel.GameType.Utility.ZERO_SUM) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1000,
        )
        super().__init__(cycle_type(utility), info, {})
        self.start = 2

    def new_initial_state(self) -> _CycleState:
        return _CycleState(self, self.start)


# ------------------------------------------------------------------ tests
def test_tic_tac_toe_equals_perfectplay_on_every_position() -> None:
    bridge = solved("tic_tac_toe")
    own = solve(load_game("tic-tac-toe"))
    seen = states(bridge)
    assert len(seen) == 5478  # every reachable board, no symmetry merging
    assert {p for p, _ in seen} == {bridge.position(s) for s in brute_reachable(bridge.game)}
    for position, state in seen:
        board = str(state).replace("\n", "").upper()
        assert bridge.solution.value(position) == own.value(board), board
        assert bridge.solution.remoteness(position) == own.remoteness(board), board


def connect_four_columns(state: Any, rows: int, cols: int) -> tuple[str, ...]:
    lines = str(state).splitlines()[:rows]  # top row first
    return tuple(
        "".join(lines[r][c] for r in reversed(range(rows)) if lines[r][c] != ".").upper()
        for c in range(cols)
    )


def test_connect_four_3x4_equals_perfectplay_on_every_position() -> None:
    bridge = solved("connect_four(rows=3,columns=4)", native=False)
    own = solve(load_game("connect-four", rows=3, cols=4))
    seen = states(bridge)
    assert len(seen) > 10_000
    for position, state in seen:
        columns = connect_four_columns(state, 3, 4)
        assert bridge.solution.value(position) == own.value(columns), columns
        assert bridge.solution.remoteness(position) == own.remoteness(columns), columns


@pytest.mark.parametrize(
    "spec", ["connect_four(rows=3,columns=4)", "connect_four(rows=4,columns=3)"]
)
def test_connect_four_routed_to_perfectplay_answers_as_the_state_api_on_every_state(
    spec: str,
) -> None:
    routed, generic = solved(spec), solved(spec, native=False)
    assert isinstance(routed.spiel, ConnectFourRoute) and isinstance(generic.spiel, OpenSpielGame)
    for _, state in states(generic):
        assert routed.value(state) == generic.value(state), str(state)
        assert routed.remoteness(state) == generic.remoteness(state), str(state)
        assert routed.returns(state) == generic.returns(state), str(state)
        assert routed.best_actions(state) == generic.best_actions(state), str(state)


def test_a_connect_four_too_large_to_solve_whole_is_refused_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unsolved(*args: object, **kwargs: object) -> None:
        raise AssertionError("work began before the refusal")

    monkeypatch.setattr(openspiel, "solve", unsolved)
    monkeypatch.setattr(OpenSpielGame, "__init__", unsolved)
    for native in (True, False):
        with pytest.raises(TooLargeError) as error:
            solve_openspiel(pyspiel.load_game("connect_four"), native=native)
        message = str(error.value)
        assert message.startswith("connect_four 6x7 has up to 70,728,639,995,483 positions: ")
        assert "needs about" in message and "perfectplay search connect-four" in message
        assert "\n" not in message


def test_a_missing_openspiel_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "perfectplay.bridges.openspiel")
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails
    with pytest.raises(MissingDependencyError) as error:
        importlib.import_module("perfectplay.bridges.openspiel")
    assert str(error.value) == (
        "the OpenSpiel bridge needs OpenSpiel: pip install 'perfectplay[openspiel]'"
    )


@pytest.mark.parametrize("misere", [False, True])
def test_nim_equals_perfectplay(misere: bool) -> None:
    bridge = solved(f"nim(pile_sizes=1;2;3;4,is_misere={str(misere).lower()})")
    own = solve(load_game("nim", heaps=(1, 2, 3, 4)), misere=misere)
    seen = states(bridge)
    assert {p for p, _ in seen} == {bridge.position(s) for s in brute_reachable(bridge.game)}
    for position, state in seen:
        heaps = tuple(int(h) for h in str(state).split(":")[1].split())
        assert bridge.solution.value(position) == own.value(heaps), heaps
        assert bridge.solution.remoteness(position) == own.remoteness(heaps), heaps


@pytest.mark.parametrize(
    "spec",
    [
        "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)",
        "dots_and_boxes(num_rows=1,num_cols=3,utility_margin=true)",
        "tic_tac_toe",
    ],
)
def test_returns_equal_the_brute_force_negamax(spec: str) -> None:
    bridge = solved(spec)
    twin = brute_returns(bridge.game)
    every = brute_reachable(bridge.game)
    for state in every[:: max(1, len(every) // 3000)]:
        zero, one = bridge.returns(state)
        assert zero == twin(state), str(state)
        assert zero + one == bridge.game.utility_sum()


def test_scored_game_keeps_score_where_the_plain_one_keeps_only_the_winner() -> None:
    margin = solved("dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)")
    plain = solved("dots_and_boxes(num_rows=2,num_cols=2)")
    assert margin.spiel.info.scored and not plain.spiel.info.scored
    start = margin.game.new_initial_state()
    assert margin.value(start) == plain.value(plain.game.new_initial_state())
    assert abs(margin.returns(start)[0]) > 1  # a margin of boxes, not just +-1


def test_consecutive_moves_pass_through_a_forced_pass() -> None:
    bridge = solved("dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)")
    passes = [
        bridge.solution.position_of(pid)
        for pid in range(len(bridge.solution))
        if [m.label for m in bridge.solution.move_values(bridge.solution.position_of(pid))]
        == [PASS]
    ]
    assert passes  # closing a box gives the same player another move
    for position in passes:
        (move,) = bridge.solution.move_values(position)
        assert move.position == (position[0], 1 - position[1])
        assert move.value == bridge.solution.value(position)


def test_game_with_a_cycle_has_draws() -> None:
    game = _CycleGame()
    bridge = solve_openspiel(game)
    assert bridge.spiel.info.cyclic
    assert bridge.value(game.new_initial_state()) == Value.WIN
    game.start = 3
    looping = solve_openspiel(game)
    start = game.new_initial_state()
    assert looping.value(start) == Value.DRAW
    assert looping.remoteness(start) == -1
    assert looping.returns(start) == (0.0, 0.0)
    assert looping.best_actions(start) == [0]  # keep looping rather than exit and lose


def count_histories(state: Any) -> int:
    """The number of action sequences from `state` (each a node of the game tree)."""
    if state.is_terminal():
        return 1
    return 1 + sum(count_histories(state.child(a)) for a in state.legal_actions())


def test_history_keys_give_a_tree_with_the_same_values() -> None:
    spec = "nim(pile_sizes=1;2;3,is_misere=false)"
    tree = solved(spec, "history")
    merged = solved(spec)
    start = tree.game.new_initial_state()
    assert len(tree.solution) == count_histories(start) > len(merged.solution)
    for state in brute_reachable(tree.game):
        assert tree.value(state) == merged.value(state)
        assert tree.remoteness(state) == merged.remoteness(state)


@pytest.mark.parametrize(
    ("spec", "missing"),
    [
        ("kuhn_poker", "not deterministic"),
        ("pig(winscore=10)", "not deterministic"),
        ("dark_hex", "not perfect-information"),
        ("matrix_rps", "not sequential"),
        ("cliff_walking", "has 1 players"),
    ],
)
def test_unsupported_games_are_refused_with_one_line(spec: str, missing: str) -> None:
    with pytest.raises(GameDefinitionError) as error:
        solve_openspiel(spec)
    assert missing in str(error.value)
    assert "\n" not in str(error.value)


def test_general_sum_game_is_refused_with_one_line() -> None:
    with pytest.raises(GameDefinitionError, match="not zero-sum or constant-sum") as error:
        solve_openspiel(_CycleGame(pyspiel.GameType.Utility.GENERAL_SUM))
    assert "\n" not in str(error.value)


def test_unknown_game_name_is_one_line() -> None:
    with pytest.raises(InputFormatError, match="OpenSpiel cannot load 'no_such_game'") as error:
        OpenSpielGame("no_such_game")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("spec", ["tic_tac_toe", "connect_four(rows=3,columns=4)"])
def test_perfect_bot_never_loses_to_random_play(spec: str) -> None:
    bridge = solved(spec)
    start = bridge.game.new_initial_state()
    assert bridge.value(start) in (WIN, TIE)
    rng = np.random.default_rng(7)
    for game_index in range(60):
        seat = game_index % 2
        bots = [uniform_random.UniformRandomBot(1 - seat, rng), PerfectBot(bridge)]
        if seat == 0:
            bots.reverse()
        state = bridge.game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert state.returns()[seat] >= 0, str(state)


def test_perfect_bot_plays_the_fastest_win_and_the_slowest_loss() -> None:
    bridge = solved("tic_tac_toe")
    bot = PerfectBot(bridge)
    choices = 0
    for _, state in states(bridge):
        if state.is_terminal():
            continue
        moves = dict(bridge.move_values(state))
        best = max(m.value for m in moves.values())
        lengths = [m.remoteness for m in moves.values() if m.value == best]
        played = moves[bot.step(state)]
        assert played.value == best == bridge.value(state)
        assert played.remoteness == (max(lengths) if best == LOSE else min(lengths))
        choices += len(set(lengths)) > 1
    assert choices > 100  # positions where a slower win or a faster loss was on offer


def test_grade_perfect_bot_makes_no_mistakes() -> None:
    bridge = solved("connect_four(rows=3,columns=4)")
    result = grade(bridge, PerfectBot(bridge), games=6)
    assert (result.mistakes, result.losing_moves, result.value_lost) == (0, 0, 0)
    assert result.decisions > 0


def test_grade_of_random_play_counts_losing_moves_and_lost_value() -> None:
    bridge = solved("tic_tac_toe")
    rng = np.random.default_rng(3)
    result = grade(bridge, uniform_random.UniformRandomBot(0, rng), seat=0, games=40, seed=1)
    assert 0 < result.losing_moves <= result.mistakes <= result.decisions
    assert 0 < result.value_lost_per_game <= 2  # a tie thrown into a loss costs 1 per game
    assert 0 < result.losing_move_rate < 1


class FirstAction:
    """A policy playing the first legal action (an OpenSpiel policy's interface)."""

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        return {state.legal_actions()[0]: 1.0}


@pytest.mark.parametrize("seat", [0, 1])
def test_grade_of_a_policy_equals_the_brute_force_walk(seat: int) -> None:
    bridge = solved("tic_tac_toe")
    twin = brute_returns(bridge.game)
    result = grade(bridge, FirstAction(), seat=seat, games=1)
    perfect = PerfectBot(bridge)
    state = bridge.game.new_initial_state()
    decisions, losing, lost = 0, 0, 0.0
    while not state.is_terminal():
        turn = state.current_player()
        if turn != seat:
            state.apply_action(perfect.step(state))
            continue
        sign = 1 if turn == 0 else -1
        action = state.legal_actions()[0]
        if len(state.legal_actions()) > 1:
            decisions += 1
            before, after = sign * twin(state), sign * twin(state.child(action))
            lost += before - after
            losing += after < 0 <= before
        state.apply_action(action)
    assert (result.decisions, result.losing_moves, result.value_lost) == (decisions, losing, lost)
    assert result.value_lost > 0  # playing the first cell throws the tie away


def test_grade_of_seat_bound_pyspiel_bots_refuses_alternation_and_takes_a_factory() -> None:
    # in another process: before the seats were checked, this crashed the interpreter
    script = """
import pyspiel
from perfectplay.bridges.openspiel import grade, solve_openspiel
solved = solve_openspiel("tic_tac_toe")
try:
    grade(solved, pyspiel.make_uniform_random_bot(0, 42), games=20)
except ValueError as error:
    print(error)
print(grade(solved, lambda seat: pyspiel.make_uniform_random_bot(seat, 42), games=20).games)
print(grade(solved, pyspiel.make_uniform_random_bot(1, 42), seat=1, games=4).games)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    refusal, factory, seated = done.stdout.splitlines()
    assert refusal.startswith("the graded player is a bot bound to one seat and grade alternates")
    assert "lambda seat: pyspiel.make_uniform_random_bot(seat, 42)" in refusal
    assert (factory, seated) == ("20", "4")


def test_grade_calls_a_factory_once_per_seat() -> None:
    bridge = solved("tic_tac_toe")
    made: list[int] = []

    def factory(seat: int) -> Any:
        made.append(seat)
        return uniform_random.UniformRandomBot(seat, np.random.default_rng(seat))

    result = grade(bridge, factory, games=6)
    assert sorted(made) == [0, 1] and result.games == 6 and result.decisions > 0
    with pytest.raises(InputFormatError, match="the opponent is a bot bound to one seat"):
        grade(bridge, factory, opponent=uniform_random.UniformRandomBot(0, np.random.default_rng()))


def test_grade_refuses_an_illegal_action() -> None:
    bridge = solved("tic_tac_toe")
    seated_elsewhere = uniform_random.UniformRandomBot(0, np.random.default_rng(0))
    with pytest.raises(InputFormatError, match="chose action -1, not legal"):
        grade(bridge, seated_elsewhere, seat=1, games=1)
