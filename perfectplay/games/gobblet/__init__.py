"""Gobblet Gobblers: rules (:mod:`.rules`), tier form (:mod:`.tiers`), kernels and picture."""
