"""Squadro (see :mod:`perfectplay.games.squadro.rules`)."""
