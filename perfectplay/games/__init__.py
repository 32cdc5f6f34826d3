"""Games: one folder per game, holding its rules, tier form, kernels and picture.

Registered by name (:mod:`~perfectplay.games.registry`): :mod:`.tictactoe`, :mod:`.connect_four`,
:mod:`.nim`, :mod:`.subtraction`, :mod:`.dodgem`, :mod:`.quixo`, :mod:`.teeko`.

Each folder holds ``rules.py`` (the game in plain Python, the reference its kernels are tested
against), ``tiers.py`` where it has a tier form, private numba kernels and ``picture.py``. The
contest problems' games (graph builders, the staircase game) live in
:mod:`perfectplay.builders`. A game never knows which
front end shows it.
"""
