"""Nim: rules (:mod:`.rules`) and the heap picture (:mod:`.picture`, shared with subtraction)."""
