"""Tic-tac-toe: its rules (:mod:`.rules`) and picture (:mod:`.picture`)."""
