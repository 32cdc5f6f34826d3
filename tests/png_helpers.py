"""PNG tests need cairosvg and the system's cairo library: skip them, saying why, without."""

from __future__ import annotations

import pytest


def _cairo_missing() -> str | None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:
        return f"PNG output needs cairosvg and libcairo2 (apt-get install libcairo2): {error}"
    return None


REASON = _cairo_missing()
needs_cairo = pytest.mark.skipif(REASON is not None, reason=REASON or "")
"""Mark a test that writes PNG files."""
