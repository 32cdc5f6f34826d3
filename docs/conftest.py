"""pytest: the pages of the optional bridges run only where their library is installed."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("pyspiel") else ["openspiel.md"]
