"""The staircase game (scored): rules, tier form, kernels and picture."""
