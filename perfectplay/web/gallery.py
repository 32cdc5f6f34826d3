"""The web app's front page: one card per game, its picture at the start, its value and size.

Each card (``GET /api/gallery``, docs/web.md) shows a game at its start position, drawn by the
game's own picture (:func:`~perfectplay.draw.position.thumbnail_svg`), with what is *known*
of it, never a value written down by hand:

- a game whose default instance is small enough (its size estimate at most
  :data:`SOLVE_ON_VIEW` positions and the server's ``max_positions``, or no estimate at all) is
  solved by the server's :class:`~perfectplay.web.solutions.SolutionCache` when the page is
  first viewed, one game at a time and only while no other solve is under way (so a game page
  opened meanwhile finds the solver free): its card says "solving" (or "waiting"), then the
  value **for the player to move** at the start, its remoteness and the positions solved;
- a game that a database given on the command line holds (same parameters) shows the value
  read from the database and the positions it stores;
- any other game shows its size estimate (the rules' bound on reachable positions, else the
  ranks of its tier form) and how to solve it: ``perfectplay solve GAME --tiers DIR``, then
  ``perfectplay serve DIR``.

Pictures, estimates and the values found are computed once per game and kept (a few KB per
game), so a card's value stays known when the cache drops the solution.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> from perfectplay.web.solutions import SolutionCache
>>> cache = SolutionCache()
>>> gallery = Gallery([load_game("subtraction", heap=5), load_game("quixo", size=5)], (), cache)
>>> small, big = gallery.cards()
>>> small["state"] in ("solving", "solved"), big["state"], big["estimate"]
(True, 'not-solved', 1694577218886)
>>> small = gallery.card(load_game("subtraction", heap=5), wait=10.0)
>>> small["state"], small["value"], small["remoteness"], small["positions"]
('solved', 'WIN', 3, 6)
>>> small["value_text"], small["size_text"]
('WIN for the player to move, 3 moves to the end', '6 positions')
>>> cache.close()
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from perfectplay._targets import class_target
from perfectplay.draw.position import side_to_move, thumbnail_svg
from perfectplay.enumeration.reachable import count_reachable
from perfectplay.errors import PerfectPlayError, TooLargeError
from perfectplay.games.registry import entry_for_target, load_game
from perfectplay.protocol.answers import Answers
from perfectplay.protocol.game import Game, param_value_text, provides
from perfectplay.search.service import SearchedGame, offers_search
from perfectplay.values import Value
from perfectplay.web.solutions import Busy, Database, SolutionCache, Solving, game_key, game_page

if TYPE_CHECKING:
    from perfectplay.api import GameSolution

__all__ = [
    "SOLVE_ON_VIEW",
    "THUMBNAIL_WIDTH",
    "Gallery",
    "size_estimate",
    "solve_command",
    "value_words",
]

SOLVE_ON_VIEW = 10_000_000
"""Largest size estimate (positions) of a game solved when the front page is viewed: a few
seconds each here (Connect Four 4x5, 5.6 million ranks in its tier form: 3.5 s)."""
THUMBNAIL_WIDTH = 180.0
"""Width in pixels of a card's picture."""


def size_estimate(game: Game[Any]) -> int | None:
    """An upper bound on `game`'s positions, or None where none is known cheaply.

    The rules' ``position_bound`` where they give one; else the ranks of the game's tier form
    (``total_size``, or its tiers' sizes added up), unreachable ranks included.

    >>> from perfectplay.games.registry import load_game
    >>> size_estimate(load_game("quixo", size=4)), size_estimate(load_game("connect-four"))
    (86093442, 5621939)
    >>> size_estimate(load_game("tic-tac-toe")) is None
    True

    Notes
    -----
    Cost: one ``position_bound`` call; else building the tier form and listing its tiers
    (Connect Four 4x5: 21 tiers, 0.3 s).
    """
    bound = game.position_bound() if provides(game, "position_bound") else None
    if bound is not None:
        return int(bound)
    entry = entry_for_target(class_target(type(game)))
    if entry is None or entry.tiers is None:
        return None
    tiered = entry.build(game.info.params, tiered=True)
    ranks = tiered.total_size()
    if ranks is None:
        ranks = sum(tiered.tier_size(t) for t in tiered.tiers())
    return int(ranks)


def value_words(value: Value, remoteness: int, side: str | None) -> str:
    """A start's value for the player to move, in words.

    >>> value_words(Value.TIE, 9, "X"), value_words(Value.DRAW, -1, None)
    ('TIE for X, the player to move, 9 moves to the end', 'DRAW for the player to move: endless')
    >>> value_words(Value.LOSE, 1, "O")
    'LOSE for O, the player to move, 1 move to the end'
    """
    who = f"{side}, the player to move" if side else "the player to move"
    if value == Value.DRAW:
        return f"DRAW for {who}: endless"
    return f"{value.name} for {who}, {remoteness} move{'s' if remoteness != 1 else ''} to the end"


@dataclass(frozen=True)
class _Known:
    """What is known of a game's start: its value and the positions it was found among."""

    value: Value
    remoteness: int
    positions: int
    counted: str
    """What `positions` counts: ``positions``, ``symmetry classes``, ``positions stored``."""
    source: str
    """``solved here`` or ``database ID``."""
    reachable: int | None = None
    """Reachable positions, symmetric ones counted apart, where `positions` counts symmetry
    classes and they were counted (small games); else None."""

    def size_text(self) -> str:
        """The size in words: ``5,478 positions (765 symmetry classes)``."""
        if self.reachable is not None and self.reachable != self.positions:
            return f"{self.reachable:,} positions ({self.positions:,} {self.counted})"
        return f"{self.positions:,} {self.counted}"


def _known(answers: Answers, positions: int, counted: str, source: str) -> _Known:
    game = answers.game
    found = answers.probe(game.initial())
    return _Known(Value(found.value), found.remoteness, positions, counted, source)


class Gallery:
    """The front page's cards: `games` (with their parameters) and `databases`.

    Parameters
    ----------
    games : sequence of Game or str
        The games to show, in order: games of one's own, and registered games by name, each
        built at its defaults when first shown (a game that cannot be built gets a card
        saying why).
    databases : sequence of Database
        The databases served: each has a card of its own, and gives its value to the card of
        a game with the same name and parameters.
    cache : SolutionCache
        The server's solver, where small games are solved (and kept for their pages).

    Notes
    -----
    Thread-safe. Memory: one picture (a few KB) and a few numbers per card.
    """

    def __init__(
        self,
        games: Sequence[Game[Any] | str],
        databases: Sequence[Database],
        cache: SolutionCache,
    ) -> None:
        self.games = list(games)
        self.databases = list(databases)
        self.cache = cache
        self._lock = threading.Lock()
        self._static: dict[tuple[str, Hashable], dict[str, Any]] = {}
        self._known: dict[tuple[str, Hashable], _Known] = {}
        self._by_key = {game_key(db.source.game): db for db in self.databases}
        self._games: dict[str, Game[Any]] = {}

    def _built(self, name: str) -> Game[Any]:
        """The registered game `name` at its defaults, built once."""
        with self._lock:
            game = self._games.get(name)
        if game is None:
            game = load_game(name)
            with self._lock:
                self._games[name] = game
        return game

    def cards(self) -> list[dict[str, Any]]:
        """Every game's card, then every database's, as ``/api/gallery`` lists them.

        Never waits for a solve; starts at most one (when no other is under way).

        Notes
        -----
        Cost: the first call draws each start and computes each estimate (under a second for
        the registered games); later calls look up what is known.
        """
        return [self.card(game) for game in self.games] + [
            self.database_card(db) for db in self.databases
        ]

    def card(self, game: Game[Any] | str, wait: float = 0.0) -> dict[str, Any]:
        """`game`'s card (a registered game's name: at its defaults), waiting up to `wait`
        seconds for a solve it starts or finds."""
        try:
            built = self._built(game) if isinstance(game, str) else game
            card = dict(self._picture(built, kind="game"))
            card.update(self._status(built, card["estimate"], wait))
        except PerfectPlayError as error:
            name = game if isinstance(game, str) else game.info.name
            card = {"name": name, "kind": "game", "svg": None, "estimate": None}
            card.update(state="error", note=str(error))
        return card

    def database_card(self, db: Database) -> dict[str, Any]:
        """A database's card: its game's start, the value read from it, positions stored."""
        card = dict(self._picture(db.source.game, kind="database"))
        card.update(id=db.id, href=f"databases/{db.id}")
        card.update(self._solved(db.source.game, self._from_database(db)))
        return card

    def _picture(self, game: Game[Any], *, kind: str) -> dict[str, Any]:
        """What never changes on a card: name, description, link, picture, estimate."""
        key = game_key(game)
        with self._lock:
            found = self._static.get(key)
        if found is None:
            start = game.initial()
            about = game.info.description or (type(game).__doc__ or "").strip().split("\n")[0]
            found = {
                "name": game.info.name,
                "kind": kind,
                "description": about,
                "param_text": game.info.param_text(" "),
                "href": game_page(game),
                "svg": thumbnail_svg(game, start, size=THUMBNAIL_WIDTH),
                "side": side_to_move(game, start),
                "estimate": size_estimate(game),
            }
            with self._lock:
                self._static[key] = found
        return dict(found, kind=kind)

    def _from_database(self, db: Database) -> _Known:
        key = game_key(db.source.game)
        with self._lock:
            known = self._known.get(("database", (db.id, key)))
        if known is None:
            known = _known(db.source, db.positions, "positions stored", f"database {db.id}")
            with self._lock:
                self._known[("database", (db.id, key))] = known
        return known

    def _solved(self, game: Game[Any], known: _Known) -> dict[str, Any]:
        side = self._picture(game, kind="game")["side"]
        return {
            "state": "solved",
            "value": known.value.name,
            "remoteness": known.remoteness,
            "positions": known.positions,
            "counted": known.counted,
            "source": known.source,
            "value_text": value_words(known.value, known.remoteness, side),
            "reachable": known.reachable,
            "size_text": known.size_text(),
        }

    def _status(self, game: Game[Any], estimate: int | None, wait: float) -> dict[str, Any]:
        """What is known of `game`'s start now, solving it if it is small and the solver idle."""
        key = game_key(game)
        db = self._by_key.get(key)
        if db is not None:
            return dict(self._solved(game, self._from_database(db)), href=f"databases/{db.id}")
        with self._lock:
            known = self._known.get(key)
        if known is not None:
            return self._solved(game, known)
        limit = min(SOLVE_ON_VIEW, self.cache.max_positions)
        if estimate is not None and estimate > limit:
            return self._unsolved(game, estimate, on_request=estimate <= self.cache.max_positions)
        found: GameSolution[Any] | Solving | Busy | SearchedGame | None
        try:
            found = self.cache.peek(game)
            if found is not None or self.cache.pending() == 0:  # a new solve waits its turn
                found = self.cache.lookup(game, wait)
        except TooLargeError:  # its solve stopped at the server's limit
            return self._unsolved(game, estimate, on_request=False)
        if found is None or isinstance(found, Busy):
            return {"state": "waiting", "note": "waiting for the solver"}
        if isinstance(found, Solving):
            return {"state": "solving", "elapsed": round(found.elapsed, 2)}
        if isinstance(found, SearchedGame):  # too large, played by search: nothing solved
            return self._unsolved(game, estimate, on_request=False)
        canonical = found.enumeration.canonical
        counted = "symmetry classes" if canonical else "positions"
        known = _known(found, len(found), counted, "solved here")
        if canonical:
            reachable = count_reachable(game, len(found), canonical=True)
            known = replace(known, reachable=reachable)
        with self._lock:
            self._known[key] = known
        return self._solved(game, known)

    def _unsolved(
        self, game: Game[Any], estimate: int | None, *, on_request: bool
    ) -> dict[str, Any]:
        """A game not solved on viewing the page: its estimate and how to solve it."""
        size = f"up to {estimate:,} positions" if estimate is not None else "size unknown"
        if on_request:
            return {
                "state": "not-solved",
                "size_text": size,
                "note": "not solved yet: solved when its page is first opened",
            }
        note = (
            "not solved here: too large to solve on request (more than "
            f"{self.cache.max_positions:,} positions, serve --max-positions)"
        )
        if offers_search(game):
            note += "; its page plays it by search, position by position"
        command = solve_command(game)
        if command is not None:
            note += f"; solve it with `{command}`, then `perfectplay serve {command.split()[-1]}`"
        return {"state": "not-solved", "size_text": size, "note": note}


def solve_command(game: Game[Any]) -> str | None:
    """The command that solves a registered `game` into a database ``serve`` opens (its
    parameters that differ from the defaults given), or None for a game of one's own.

    >>> from perfectplay.games.registry import load_game
    >>> solve_command(load_game("dobutsu")), solve_command(load_game("nim", heaps=(1, 2)))
    ('perfectplay solve dobutsu --tiers DIR', 'perfectplay solve nim --param heaps=1,2 --save FILE')
    """
    entry = entry_for_target(class_target(type(game)))
    if entry is None:
        return None
    defaults = {p.name: p.default for p in entry.parameters()}
    params = "".join(
        f" --param {k}={param_value_text(v)}"
        for k, v in game.info.params.items()
        if defaults.get(k) != v
    )
    out = "--tiers DIR" if entry.tiers is not None else "--save FILE"
    return f"perfectplay solve {entry.name}{params} {out}"
