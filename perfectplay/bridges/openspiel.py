"""OpenSpiel games solved by perfectplay: values, remoteness, exact returns, a perfect bot.

Any loaded ``pyspiel.Game`` that is two-player, deterministic (no chance nodes),
perfect-information, sequential and zero-sum or constant-sum is enumerated through its state
API (``new_initial_state``, ``legal_actions``, ``child``, ``is_terminal``, ``returns``) into a
perfectplay :class:`~perfectplay.protocol.game.Game` and solved by
:func:`perfectplay.solve`. Any other game is refused with one line naming the missing
property.

**Which states are the same.** OpenSpiel's ``State::operator==`` compares ``ToString()``: two
states are equal when they are the same world state, which for perfect-information games such
as tic-tac-toe is the board alone (``spiel.h``). By default (``transpositions="string"``) states
are therefore merged by ``str(state)``, as OpenSpiel's own equality does, with OpenSpiel's player
to move appended (``" @0"``, ``" @1"``, ``" @end"`` at a terminal state) because some games print
the board without it (dots_and_boxes); a repeated key is a cycle of play (a DRAW where neither
side can force an end). Two terminal states with one key but different returns are refused.
For a game whose ``ToString`` leaves out more of the state, ``transpositions="history"`` keys
states by their action history (OpenSpiel's one-to-one ``HistoryString``): a tree, no merging.

**Whose turn.** perfectplay's player to move alternates with every move; OpenSpiel's need not
(a dots-and-boxes player who closes a box moves again). A move by the same player twice in a
row passes through a forced ``"pass"`` position of the other player, so values and returns are
exact, and remoteness counts those passes as plies. A position is the pair ``(key, player)``:
the state's key and the player (0 or 1) to move there; at a terminal state, the player who
would move next.

**Values and returns.** Values are for the player to move: at a terminal state WIN, LOSE or TIE
by comparing the two players' returns. With ``scored=True`` (the default when the game's
utilities are not within -1..1) the scored path carries the exact difference of returns
``own - opponent`` (which must be an integer), so :meth:`OpenSpielSolution.returns` gives each
player's exact return under perfect play (intermediate rewards included: OpenSpiel's terminal
returns sum them).

**Connect Four.** OpenSpiel's ``connect_four`` is solved by perfectplay's own Connect Four on
the same board (:class:`ConnectFourRoute`; ``native=False`` walks OpenSpiel's states instead),
and a board too large to solve whole, OpenSpiel's default 6 x 7 among them, is refused at once
with the estimate.

**Bots and seats.** A ``pyspiel`` bot is made for one seat; :func:`grade` takes a function from
a seat to a bot where seats alternate, and refuses a seat-bound bot there.

Examples
--------
>>> import pyspiel
>>> solved = solve_openspiel(pyspiel.load_game("tic_tac_toe"))
>>> state = solved.game.new_initial_state()
>>> solved.value(state), solved.remoteness(state), solved.returns(state), len(solved.solution)
(<Value.TIE: 2>, 9, (0.0, 0.0), 5478)
>>> state.apply_action(4)  # x takes the centre
>>> [state.action_to_string(a) for a in solved.best_actions(state)]
['o(0,0)', 'o(0,2)', 'o(2,0)', 'o(2,2)']
>>> solve_openspiel(pyspiel.load_game("kuhn_poker"))
Traceback (most recent call last):
...
perfectplay.errors.GameDefinitionError: OpenSpiel game kuhn_poker is not deterministic (chance ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from perfectplay._memory import format_bytes
from perfectplay.api import solve
from perfectplay.enumeration.solving import GameSolution
from perfectplay.errors import (
    GameDefinitionError,
    InputFormatError,
    MissingDependencyError,
    PositionNotFoundError,
    TooLargeError,
)
from perfectplay.moves import Move
from perfectplay.protocol.game import Game, GameInfo, MoveTuple
from perfectplay.values import Value

try:
    import pyspiel
except ImportError:
    raise MissingDependencyError(
        "the OpenSpiel bridge needs OpenSpiel: pip install 'perfectplay[openspiel]'"
    ) from None

__all__ = [
    "PASS",
    "ConnectFourRoute",
    "Grade",
    "OpenSpielGame",
    "OpenSpielSolution",
    "PerfectBot",
    "SpielPosition",
    "check_supported",
    "grade",
    "labelled_actions",
    "solve_openspiel",
]

SpielPosition = tuple[str, int]
"""A position of an OpenSpiel game: ``(key, player to move)`` (see the module documentation)."""

Transpositions = Literal["string", "history"]

PASS = "pass"
"""The label of the forced move between two moves of the same player."""


class _Policy(Protocol):
    """An OpenSpiel policy: ``open_spiel.python.policy.Policy`` or anything with this method."""

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """The probability of each legal action at `state`."""
        ...


def check_supported(game: Any) -> None:
    """Refuse an OpenSpiel game perfectplay cannot solve, naming the missing property.

    Raises
    ------
    GameDefinitionError
        If `game` is not a ``pyspiel.Game``, or is not two-player, deterministic,
        perfect-information, sequential and zero-sum or constant-sum.

    Examples
    --------
    >>> check_supported(pyspiel.load_game("nim"))
    >>> check_supported(pyspiel.load_game("goofspiel"))
    Traceback (most recent call last):
    ...
    perfectplay.errors.GameDefinitionError: OpenSpiel game goofspiel is not deterministic ...
    """
    if not isinstance(game, pyspiel.Game):
        raise GameDefinitionError(f"expected a pyspiel.Game, got {type(game).__name__}")
    kind = game.get_type()
    name = kind.short_name
    kinds = pyspiel.GameType
    if game.num_players() != 2:
        raise GameDefinitionError(
            f"OpenSpiel game {name} has {game.num_players()} players; "
            "perfectplay solves two-player games"
        )
    if kind.chance_mode != kinds.ChanceMode.DETERMINISTIC:
        raise GameDefinitionError(
            f"OpenSpiel game {name} is not deterministic (chance mode {kind.chance_mode.name}); "
            "perfectplay solves games without chance nodes"
        )
    if kind.dynamics != kinds.Dynamics.SEQUENTIAL:
        raise GameDefinitionError(
            f"OpenSpiel game {name} is not sequential ({kind.dynamics.name}); "
            "perfectplay solves games where one player moves at a time"
        )
    if kind.information != kinds.Information.PERFECT_INFORMATION:
        raise GameDefinitionError(
            f"OpenSpiel game {name} is not perfect-information ({kind.information.name}); "
            "perfectplay solves games where both players see the whole state"
        )
    if kind.utility not in (kinds.Utility.ZERO_SUM, kinds.Utility.CONSTANT_SUM):
        raise GameDefinitionError(
            f"OpenSpiel game {name} is not zero-sum or constant-sum ({kind.utility.name}); "
            "perfectplay solves games where one player's gain is the other's loss"
        )


def labelled_actions(state: Any) -> list[tuple[str, int]]:
    """``(label, action)`` for each legal action of `state`, labels distinct.

    The label is OpenSpiel's ``action_to_string``, prefixed by the action's number where two
    actions of `state` print alike. Cost: one ``action_to_string`` per legal action.

    Examples
    --------
    >>> labelled_actions(pyspiel.load_game("nim", {"pile_sizes": "1;2"}).new_initial_state())
    [('pile:1, take:1;', 0), ('pile:2, take:1;', 1), ('pile:2, take:2;', 3)]
    """
    player = state.current_player()
    actions = state.legal_actions()
    labels = [state.action_to_string(player, a) for a in actions]
    if len(set(labels)) < len(labels):
        labels = [f"{a}:{label}" for a, label in zip(actions, labels, strict=True)]
    return list(zip(labels, actions, strict=True))


class OpenSpielGame(Game[SpielPosition]):
    """A supported OpenSpiel game as a perfectplay :class:`~perfectplay.protocol.game.Game`.

    Parameters
    ----------
    game : pyspiel.Game or str
        A loaded game, or a name OpenSpiel's ``load_game`` reads (``"connect_four(rows=4)"``).
    transpositions : {"string", "history"}
        How states are identified: by ``str(state)`` (OpenSpiel's state equality; merges
        transpositions, may find cycles) or by the action history (a tree).
    scored : bool, optional
        Carry the exact difference of returns (scored path). Default: when the game's
        utilities are not within -1..1.

    Notes
    -----
    The game keeps one OpenSpiel state per key met, to generate that key's moves: memory
    grows with the positions enumerated. Cost of ``moves``: one ``child`` and one key per
    legal action.

    Examples
    --------
    >>> game = OpenSpielGame("nim(pile_sizes=1;2,is_misere=false)")
    >>> game.initial(), game.moves(game.initial())[0]
    (('(0): 1 2 @0', 0), ('pile:1, take:1;', ('(1): 0 2 @1', 1)))
    >>> game.info.name, game.info.scored, game.info.cyclic
    ('openspiel:nim', False, True)
    """

    def __init__(
        self,
        game: Any,
        *,
        transpositions: Transpositions = "string",
        scored: bool | None = None,
    ) -> None:
        if isinstance(game, str):
            game = _loaded(game)
        check_supported(game)
        if transpositions not in ("string", "history"):
            raise InputFormatError(
                f"transpositions must be 'string' or 'history', got {transpositions!r}"
            )
        self.spiel_game = game
        self.transpositions = transpositions
        if scored is None:
            scored = game.min_utility() < -1 or game.max_utility() > 1
        name = game.get_type().short_name
        self.info = GameInfo(
            f"openspiel:{name}",
            dict(game.get_parameters()),
            scored=scored,
            cyclic=transpositions == "string",
            description=f"OpenSpiel's {game.get_type().long_name}",
        )
        self._states: dict[str, Any] = {}
        self._start = self._remember(game.new_initial_state(), mover=1)

    # ---------------------------------------------------------------- the state map
    def key(self, state: Any) -> str:
        """The key of `state`: ``str(state)`` and its player to move, or its history string.

        Cost: one ``ToString`` (or ``HistoryString``).
        """
        if self.transpositions == "history":
            return str(state.history_str())
        return f"{state} @{'end' if state.is_terminal() else state.current_player()}"

    def position(self, state: Any) -> SpielPosition:
        """The position of `state`; at a terminal state, the player to move is the one who
        did not make the last move. Cost: one key."""
        if state.is_terminal():
            history = state.full_history()
            return self.key(state), (1 - history[-1].player) if history else 0
        return self.key(state), state.current_player()

    def player(self, state: Any) -> int:
        """The player to move at `state` (at a terminal state: who did not move last)."""
        return self.position(state)[1]

    def actions(self, state: Any) -> list[tuple[str, int]]:
        """``(label, action)`` for each legal action: :func:`labelled_actions`."""
        return labelled_actions(state)

    def where(self, state: Any) -> str:
        """`state` in a message: its key."""
        return repr(self.key(state))

    def state(self, position: SpielPosition) -> Any:
        """A copy of the OpenSpiel state met at `position` (its key).

        Raises
        ------
        PositionNotFoundError
            If no state with that key has been met.
        """
        try:
            return self._states[position[0]].clone()
        except KeyError:
            raise PositionNotFoundError(
                f"no OpenSpiel state met with key {position[0]!r}"
            ) from None

    def _remember(self, state: Any, mover: int) -> SpielPosition:
        """The position reached when player `mover` moves into `state`; keeps `state`."""
        key = self.key(state)
        seen = self._states.setdefault(key, state)
        if seen is not state and state.is_terminal() and seen.returns() != state.returns():
            raise GameDefinitionError(
                f"{self.info.name}: two terminal states print as {key!r} but their returns "
                f"differ ({seen.returns()} and {state.returns()}); solve with "
                "transpositions='history'"
            )
        return key, 1 - mover

    # ---------------------------------------------------------------- the Game protocol
    def initial(self) -> SpielPosition:
        """The position of the game's initial state."""
        key, _ = self._start
        state = self._states[key]
        return key, 0 if state.is_terminal() else state.current_player()

    def moves(self, position: SpielPosition) -> list[MoveTuple[SpielPosition]]:
        """One move per legal action (label: :func:`labelled_actions`), or the forced pass
        where the other player moves next; scored games add a gain of 0."""
        key, player = position
        state = self._states[key]
        if state.is_terminal():
            return []
        if state.current_player() != player:
            forced = (key, state.current_player())
            return [(PASS, forced, 0) if self.info.scored else (PASS, forced)]
        result: list[MoveTuple[SpielPosition]] = []
        for label, action in labelled_actions(state):
            child = self._remember(state.child(action), mover=player)
            result.append((label, child, 0) if self.info.scored else (label, child))
        return result

    def outcome(self, position: SpielPosition) -> Value | None:
        """WIN, LOSE or TIE for the player to move at a terminal state (by comparing the two
        returns); None elsewhere."""
        key, player = position
        state = self._states[key]
        if not state.is_terminal():
            return None
        returns = state.returns()
        own, other = returns[player], returns[1 - player]
        return Value.WIN if own > other else Value.LOSE if own < other else Value.TIE

    def terminal_score(self, position: SpielPosition) -> int:
        """The difference of returns ``own - opponent`` at a terminal state.

        Raises
        ------
        GameDefinitionError
            If that difference is not an integer (perfectplay's scores are integers).
        """
        key, player = position
        returns = self._states[key].returns()
        difference = returns[player] - returns[1 - player]
        if difference != math.floor(difference):
            raise GameDefinitionError(
                f"{self.info.name}: returns {returns} at {key!r} differ by {difference}, not an "
                "integer; solve with scored=False"
            )
        return int(difference)

    def render(self, position: SpielPosition) -> str:
        """``str`` of the OpenSpiel state (with who is to move)."""
        key, player = position
        return f"{self._states[key]}\n(player {player} to move)"


_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_VECTOR_BITS = 31
"""perfectplay's in-memory Connect Four takes boards with ``(rows + 1) * cols`` up to this."""

_BYTES_PER_BOARD = 45
"""Bytes per position of the in-memory engine's vectorized enumeration
(:mod:`perfectplay.enumeration.enumerate`), for the estimate of a board refused."""


class ConnectFourRoute:
    """OpenSpiel's ``connect_four`` states as positions of perfectplay's own Connect Four.

    The state's action history is the columns played (player 0 is X, and moves first), so a
    state is the board ``("X", "", "OX", ...)`` of :mod:`perfectplay.games.connect_four` and
    action ``c`` its move ``"abc..."[c]``. Only four in a row (OpenSpiel's ``x_in_row=4``).

    Parameters
    ----------
    game : pyspiel.Game
        A loaded ``connect_four``.

    Raises
    ------
    TooLargeError
        Where perfectplay cannot solve the board whole in memory (``(rows + 1) * cols > 31``,
        OpenSpiel's default 6 x 7 among them): one line with the estimate, before any work.

    Examples
    --------
    >>> route = ConnectFourRoute(pyspiel.load_game("connect_four(rows=4,columns=5)"))
    >>> state = route.spiel_game.new_initial_state()
    >>> for action in (2, 2, 3):
    ...     state.apply_action(action)
    >>> route.position(state), route.player(state), route.actions(state)[:2]
    (('', '', 'XO', 'X', ''), 1, [('a', 0), ('b', 1)])
    """

    def __init__(self, game: Any) -> None:
        from perfectplay.games.registry import load_game

        params = game.get_parameters()
        rows, cols = int(params["rows"]), int(params["columns"])
        if int(params.get("x_in_row", 4)) != 4:
            raise GameDefinitionError(
                f"OpenSpiel's connect_four with x_in_row={params['x_in_row']} is not "
                "perfectplay's Connect Four (four in a row): solve it with native=False"
            )
        refuse_whole_connect_four(rows, cols)
        self.spiel_game = game
        self.native: Game[Any] = load_game("connect-four", rows=rows, cols=cols)
        """perfectplay's Connect Four on the same board."""

    def position(self, state: Any) -> tuple[str, ...]:
        """The board of `state`: each column's stones from the bottom up. Cost: one pass over
        the history."""
        columns = [""] * len(self.native.initial())
        for ply, action in enumerate(state.history()):
            columns[action] += "XO"[ply % 2]
        return tuple(columns)

    def player(self, state: Any) -> int:
        """The player to move at `state`: 0 after an even number of moves."""
        return len(state.history()) % 2

    def actions(self, state: Any) -> list[tuple[str, int]]:
        """``(column letter, action)`` for each legal action."""
        return [(_LETTERS[action], action) for action in state.legal_actions()]

    def where(self, state: Any) -> str:
        """`state` in a message: the board in perfectplay's notation."""
        return repr(self.native.notation(self.position(state)))


def refuse_whole_connect_four(rows: int, cols: int) -> None:
    """Refuse a Connect Four board too large to solve whole in memory, with the estimate, at
    once: perfectplay's in-memory Connect Four takes ``(rows + 1) * cols <= 31``. Cost: the
    bound, O((rows * cols)**2 * cols) integer additions.

    >>> refuse_whole_connect_four(6, 7)
    Traceback (most recent call last):
    ...
    perfectplay.errors.TooLargeError: connect_four 6x7 has up to 70,728,639,995,483 positions: ...
    """
    from perfectplay.games.connect_four.rules import superset_sizes

    if (rows + 1) * cols <= _VECTOR_BITS:
        return
    bound = sum(superset_sizes(rows, cols))
    estimate = bound * _BYTES_PER_BOARD
    raise TooLargeError(
        f"connect_four {rows}x{cols} has up to {bound:,} positions: solving it whole needs "
        f"about {format_bytes(estimate)} of memory (perfectplay solves boards with "
        f"(rows + 1) * columns <= {_VECTOR_BITS} in memory)",
        limit="memory",
        estimate=estimate,
        advice="search single positions instead: perfectplay search connect-four --param "
        f"rows={rows} --param cols={cols} POSITION",
    )


class OpenSpielSolution:
    """Perfect play for every state of an OpenSpiel game, asked by OpenSpiel state.

    Built by :func:`solve_openspiel`. Values are for the player to move at the state (at a
    terminal state: the player who did not make the last move). Each query costs one key of
    the state plus one dictionary look-up (``best_actions``: one per legal action more).
    """

    def __init__(self, game: OpenSpielGame | ConnectFourRoute, solution: GameSolution[Any]) -> None:
        self.spiel = game
        """How states are positions: the bridge game (its positions, the OpenSpiel states it
        met), or the route to perfectplay's own game (:class:`ConnectFourRoute`)."""
        self.solution = solution
        """perfectplay's solution, indexed by :data:`SpielPosition` (routed: by the native
        game's positions)."""

    @property
    def game(self) -> Any:
        """The ``pyspiel.Game`` solved."""
        return self.spiel.spiel_game

    def position(self, state: Any) -> Any:
        """The position of `state` (see :meth:`OpenSpielGame.position`,
        :meth:`ConnectFourRoute.position`)."""
        return self.spiel.position(state)

    def value(self, state: Any) -> Value:
        """The value of `state` for the player to move."""
        return self.solution.value(self.position(state))

    def remoteness(self, state: Any) -> int:
        """Plies to the end under best play (-1 for DRAW); forced passes count as plies."""
        return self.solution.remoteness(self.position(state))

    def returns(self, state: Any) -> tuple[float, float]:
        """Each player's return ``(player 0, player 1)`` under perfect play from `state`.

        Scored: exact, from the solved difference of returns and the game's utility sum.
        Unscored: the game's maximum utility for a win, its minimum for a loss, half the
        utility sum for a tie or a draw (exact for games with those three outcomes).
        """
        position, player = self.position(state), self.spiel.player(state)
        solved = self.solution.score(position)
        own = self.return_of(self.solution.value(position), solved)
        total = self.game.utility_sum()
        return (own, total - own) if player == 0 else (total - own, own)

    def return_of(self, value: Value, score: int | None) -> float:
        """A player's return for its `value` (unscored) or its difference of returns `score`
        (scored games) under perfect play."""
        game = self.game
        if score is not None:
            return (game.utility_sum() + score) / 2
        if value == Value.WIN:
            return float(game.max_utility())
        if value == Value.LOSE:
            return float(game.min_utility())
        return float(game.utility_sum()) / 2

    def move_values(self, state: Any) -> list[tuple[int, Move[SpielPosition]]]:
        """``(action, move)`` for each legal action of `state`, the move's value, remoteness
        (and score) for the player making it."""
        by_label = {m.label: m for m in self.solution.move_values(self.position(state))}
        return [(action, by_label[label]) for label, action in self.spiel.actions(state)]

    def best_actions(self, state: Any) -> list[int]:
        """The optimal actions at `state` (fastest win, slowest loss; scored: best return),
        in OpenSpiel's order; empty at a terminal state."""
        best = {m.label for m in self.solution.best_moves(self.position(state))}
        return [action for label, action in self.spiel.actions(state) if label in best]

    def action_return(self, state: Any, action: int) -> float:
        """The return of the player to move at `state` under perfect play after `action`."""
        for candidate, move in self.move_values(state):
            if candidate == action:
                return self.return_of(move.value, move.score)
        raise InputFormatError(f"action {action} is not legal at {self.spiel.where(state)}")


def solve_openspiel(
    game: Any,
    *,
    transpositions: Transpositions = "string",
    scored: bool | None = None,
    max_positions: int | None = None,
    native: bool = True,
) -> OpenSpielSolution:
    """Solve an OpenSpiel game: value, remoteness (and exact returns) of every state.

    Parameters
    ----------
    game : pyspiel.Game or str
        A supported game (see :func:`check_supported`) or a name ``pyspiel.load_game`` reads.
    transpositions, scored
        See :class:`OpenSpielGame` (the generic path only).
    max_positions : int, optional
        Refuse (TooLargeError) a game with more positions.
    native : bool
        Solve OpenSpiel's ``connect_four`` (four in a row) with perfectplay's own Connect
        Four on the same board (:class:`ConnectFourRoute`: compiled, symmetric boards merged;
        1.6 s against 146 s for 4 x 5) rather than through OpenSpiel's state API. Either way a board
        too large to solve whole (OpenSpiel's default 6 x 7) is refused at once with the
        estimate; :mod:`perfectplay.search` answers its single positions.

    Raises
    ------
    GameDefinitionError
        If the game is not supported (one line naming the missing property), or its
        ``ToString`` does not identify its states.
    TooLargeError
        Beyond `max_positions` or memory; a Connect Four board beyond perfectplay's in-memory
        Connect Four, before any work.

    Notes
    -----
    Cost: one ``child`` and one ``str`` per move of every reachable state (Python calls,
    about 10^4 to 10^5 states per second), then perfectplay's O(n + m) solve; routed, that of
    perfectplay's Connect Four (``solve connect-four``).

    Examples
    --------
    >>> solved = solve_openspiel("nim(pile_sizes=1;2;3,is_misere=false)")
    >>> solved.value(solved.game.new_initial_state())
    <Value.LOSE: 0>
    >>> solved = solve_openspiel("connect_four(rows=3,columns=4)")  # perfectplay's Connect Four
    >>> solved.value(solved.game.new_initial_state()), solved.spiel.native.info.param_text()
    (<Value.TIE: 2>, 'rows=3 cols=4')
    """
    if isinstance(game, str):
        game = _loaded(game)
    check_supported(game)
    if game.get_type().short_name == "connect_four":
        params = game.get_parameters()
        refuse_whole_connect_four(int(params["rows"]), int(params["columns"]))
        if native:
            route = ConnectFourRoute(game)
            return OpenSpielSolution(route, solve(route.native, max_positions=max_positions))
    bridge = OpenSpielGame(game, transpositions=transpositions, scored=scored)
    return OpenSpielSolution(bridge, solve(bridge, max_positions=max_positions))


_KINDS = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}
"""OpenSpiel's parameter types in words."""


def _loaded(name: str) -> Any:
    """``pyspiel.load_game(name)``, or one line saying why not (an unknown game is refused
    before OpenSpiel prints its list of games)."""
    import difflib

    short = name.partition("(")[0].strip()
    known = list(pyspiel.registered_names())
    if short not in known:
        close = difflib.get_close_matches(short, known, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputFormatError(
            f"OpenSpiel cannot load {name!r}: no game {short!r}{hint}; "
            "pyspiel.registered_names() lists them"
        )
    try:
        given = dict(pyspiel.game_parameters_from_string(name))
        given.pop("name", None)
        accepted = dict(pyspiel.load_game(short).get_parameters())
        unknown = sorted(set(given) - set(accepted))
        if unknown:
            raise InputFormatError(
                f"OpenSpiel cannot load {name!r}: {short} has no parameter {unknown[0]!r}; its "
                f"parameters: {', '.join(sorted(accepted)) or 'none'}"
            )
        for key, value in given.items():
            expected = type(accepted[key])
            if not isinstance(value, expected) and not (expected is float and type(value) is int):
                raise InputFormatError(
                    f"OpenSpiel cannot load {name!r}: parameter {key} takes "
                    f"{_KINDS.get(expected, expected.__name__)}, got {value!r}"
                )
        return pyspiel.load_game(name)
    except pyspiel.SpielError as error:
        first = str(error).splitlines()[0] if str(error) else "unknown game"
        raise InputFormatError(f"OpenSpiel cannot load {name!r}: {first}") from None


class PerfectBot(pyspiel.Bot):  # type: ignore[misc]
    """A ``pyspiel.Bot`` that plays perfectly from an :class:`OpenSpielSolution`.

    At each state it plays the first of :meth:`OpenSpielSolution.best_actions`: the fastest
    win, the slowest loss, the best exact return in scored games. Cost per step: one move
    list of the state.

    Examples
    --------
    >>> solved = solve_openspiel("tic_tac_toe")
    >>> state = solved.game.new_initial_state()
    >>> for action in (0, 4, 8):
    ...     state.apply_action(action)
    >>> state.action_to_string(PerfectBot(solved).step(state))  # o must not take a corner
    'o(0,1)'
    """

    def __init__(self, solved: OpenSpielSolution) -> None:
        pyspiel.Bot.__init__(self)
        self.solved = solved

    def step(self, state: Any) -> int:
        """The action to play at `state`."""
        best = self.solved.best_actions(state)
        if not best:
            raise InputFormatError(f"no action at {self.solved.spiel.where(state)}: over")
        return best[0]

    def restart_at(self, state: Any) -> None:
        """Nothing to reset: the bot keeps no state between moves."""

    def provides_policy(self) -> bool:
        """No policy: the bot picks one action."""
        return False


@dataclass(frozen=True)
class Grade:
    """How a player compares with perfect play, over `games` games (see :func:`grade`).

    Counts are expectations under a policy's probabilities at each decision (a bot's single
    action has probability 1).
    """

    games: int
    """Games played."""
    decisions: int
    """Positions where the graded player chose among two or more actions."""
    mistakes: float
    """Decisions whose action lowers the player's value (WIN to TIE, TIE to LOSE, ...)."""
    losing_moves: float
    """Decisions whose action loses for the player where some action would not."""
    value_lost: float
    """Return thrown away: the sum over decisions of (perfect return - return after the
    action), both under perfect play afterwards."""

    @property
    def losing_move_rate(self) -> float:
        """Losing moves per decision (0 without decisions)."""
        return self.losing_moves / self.decisions if self.decisions else 0.0

    @property
    def value_lost_per_game(self) -> float:
        """Return thrown away per game."""
        return self.value_lost / self.games if self.games else 0.0


def _per_seat(player: Any, what: str, alternating: bool) -> Any:
    """A function from a seat (0 or 1) to the bot or policy that plays it.

    A policy (``action_probabilities``) and a :class:`PerfectBot` play either seat. Any other
    object with ``step`` is a bot bound to the seat it was made for (``pyspiel`` bots are: one
    asked at the other seat's turn may crash the process), so it is refused where seats
    alternate. A callable without either method makes the bot of a seat; it is called once
    per seat.
    """
    if hasattr(player, "action_probabilities") or isinstance(player, PerfectBot):
        return lambda seat: player
    if hasattr(player, "step"):
        if alternating:
            raise InputFormatError(
                f"the {what} is a bot bound to one seat and grade alternates seats: give "
                "seat=0 or seat=1 (the seat the bot was made for), or a function making the "
                "bot of a seat (lambda seat: pyspiel.make_uniform_random_bot(seat, 42))"
            )
        return lambda seat: player
    if callable(player):
        made: dict[int, Any] = {}

        def make(seat: int) -> Any:
            if seat not in made:
                made[seat] = player(seat)
            return made[seat]

        return make
    raise InputFormatError(
        f"the {what} must be a pyspiel.Bot, a policy (action_probabilities) or a function from "
        f"a seat to one, got {type(player).__name__}"
    )


def _choices(player: Any, state: Any) -> dict[int, float]:
    """A player's action probabilities at `state` (a bot: the action it steps, 1.0)."""
    if hasattr(player, "action_probabilities"):
        return dict(player.action_probabilities(state, state.current_player()))
    return {int(player.step(state)): 1.0}


def grade(
    solved: OpenSpielSolution,
    player: Any,
    *,
    seat: int | None = None,
    opponent: Any = None,
    games: int = 100,
    seed: int = 0,
) -> Grade:
    """Score an OpenSpiel bot or policy against perfect play.

    The graded `player` (a ``pyspiel.Bot``, a policy with ``action_probabilities``, or a
    function from a seat, 0 or 1, to either) plays `games` games against `opponent` (the same
    kinds; default: a :class:`PerfectBot`), alternating seats unless `seat` is given. A bot
    other than :class:`PerfectBot` plays the one seat it was made for: it is refused where
    seats alternate (give `seat`, or a function making the bot of each seat). At each of its
    decisions the solution says whether its action (or, for a policy, each action weighed by
    its probability) keeps the value, throws away a win or a tie, or loses where a non-losing
    action existed, and how much return it gives up.

    Returns
    -------
    Grade

    Notes
    -----
    Cost: per decision, the move values of the state (one ``child`` per legal action) plus
    the player's own time.

    Examples
    --------
    >>> solved = solve_openspiel("tic_tac_toe")
    >>> grade(solved, PerfectBot(solved), games=4)
    Grade(games=4, decisions=16, mistakes=0.0, losing_moves=0.0, value_lost=0.0)
    >>> random = grade(solved, lambda seat: pyspiel.make_uniform_random_bot(seat, 42), games=20)
    >>> random.games, random.losing_moves > 0
    (20, True)
    """
    if games < 0:
        raise InputFormatError(f"games must be >= 0, got {games}")
    if seat not in (None, 0, 1):
        raise InputFormatError(f"seat must be 0, 1 or None, got {seat}")
    rng = np.random.default_rng(seed)
    graded = _per_seat(player, "graded player", seat is None)
    other = _per_seat(
        opponent if opponent is not None else PerfectBot(solved), "opponent", seat is None
    )
    decisions = 0
    mistakes = losing = lost = 0.0
    for index in range(games):
        mine = seat if seat is not None else index % 2
        players = [graded(0), other(1)] if mine == 0 else [other(0), graded(1)]
        state = solved.game.new_initial_state()
        for each in players:
            if hasattr(each, "restart_at"):
                each.restart_at(state)
        while not state.is_terminal():
            turn = state.current_player()
            choices = _choices(players[turn], state)
            if turn == mine and len(state.legal_actions()) > 1:
                decisions += 1
                here = solved.value(state)
                best = solved.return_of(here, solved.solution.score(solved.position(state)))
                moves = dict(solved.move_values(state))
                for action, probability in choices.items():
                    move = moves.get(action)
                    if move is None:
                        raise InputFormatError(
                            f"the graded player chose action {action}, not legal at "
                            f"{solved.spiel.where(state)}; legal: {sorted(moves)}"
                        )
                    mistakes += probability * (move.value < here)
                    losing += probability * (move.value == Value.LOSE and here != Value.LOSE)
                    lost += probability * (best - solved.return_of(move.value, move.score))
            actions = list(choices)
            weights = np.array([choices[a] for a in actions], dtype=float)
            action = actions[int(rng.choice(len(actions), p=weights / weights.sum()))]
            for each in players:
                if hasattr(each, "inform_action"):
                    each.inform_action(state, turn, action)
            state.apply_action(action)
    return Grade(games, decisions, mistakes, losing, lost)
