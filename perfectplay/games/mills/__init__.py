"""The Morris family: board layouts (:mod:`.board`), rules (:mod:`.rules`), tier form
(:mod:`.tiers`), kernels and picture."""
