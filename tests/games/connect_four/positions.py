"""Random Connect Four positions for the tests where play goes on: any, and near-full boards."""

from __future__ import annotations

import random

from perfectplay.games.connect_four.rules import Board, ConnectFour


def random_position(game: ConnectFour, rng: random.Random) -> Board:
    """A position of `game` where play goes on, reached by a random number of random moves
    (tried again from the start when they end the game)."""
    while True:
        position = game.initial()
        for _ in range(rng.randrange(game.rows * game.cols)):
            moves = game.moves(position)
            if not moves:
                break
            position = rng.choice(moves)[1]
        if game.outcome(position) is None:
            return position


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
