"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=dev`` for quick local runs)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=30)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
