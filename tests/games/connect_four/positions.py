"""Random Connect Four positions for the tests: near-full boards where play goes on."""

from __future__ import annotations

import random

from perfectplay.games.connect_four.rules import Board, ConnectFour


def near_full(game: ConnectFour, rng: random.Random, empty: int) -> tuple[Board, list[int]]:
    """A position of `game` with `empty` cells left where play goes on, and the columns
    (0-based) played from the start to reach it: random moves that end the game only where
    every move does (then play starts again)."""
    while True:
        position, played = game.initial(), []
        for _ in range(game.rows * game.cols - empty):
            going = [
                (ord(label) - ord("a"), p)
                for label, p in game.moves(position)
                if game.outcome(p) is None
            ]
            if not going:
                break
            c, position = rng.choice(going)
            played.append(c)
        else:
            return position, played
