"""The local web app: play and explore perfect play in a browser (``perfectplay serve``).

A small Starlette application over perfectplay's public API: a front page showing each
registered game (and database given on the command line) at its start with its value and size
as far as the server knows them, a page per game where every legal move is coloured by its
value for the player making it, and the JSON API under ``/api/`` those pages use (documented
in ``docs/web.md``). Modules:

- :mod:`~perfectplay.web.solutions` — games solved on first use in a background thread (at
  most two solving or waiting at once) and kept in memory up to a budget; databases read
  without solving;
- :mod:`~perfectplay.web.gallery` — the front page's cards: pictures, values found, size
  estimates;
- :mod:`~perfectplay.web.report` — one position as the API describes it;
- :mod:`~perfectplay.web.app` — the routes, error answers and static pages;
- :mod:`~perfectplay.web.server` — binding (loopback only unless asked) and uvicorn.

The pages are plain HTML and JavaScript modules in ``static/`` (no build step).
"""

from __future__ import annotations

from perfectplay.web.app import create_app
from perfectplay.web.server import bind, serve

__all__ = ["bind", "create_app", "serve"]
