"""Brute-force twins of every solver: independent, obviously correct, exponential or slow.

Each function here computes what a fast solver computes, by the definition alone, so the
hypothesis tests can compare whole arrays on small random instances.
"""

from __future__ import annotations
