"""Quixo: rules and tier form (:mod:`.rules`), kernels and picture."""
