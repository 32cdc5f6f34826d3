"""Games: one folder per game, holding its rules, tier form, kernels, picture and entry.

Each folder holds ``rules.py`` (the game in plain Python, the reference its kernels are tested
against), ``tiers.py`` where it has a tier form, private numba kernels, ``picture.py`` and
``entry.py`` (its :class:`~perfectplay.games.entry.GameEntry`); the registry
(:mod:`~perfectplay.games.registry`) lists the folders. The contest problems' games (graph
builders, the staircase game) live in :mod:`perfectplay.builders`. A game never knows which
front end shows it.
"""
