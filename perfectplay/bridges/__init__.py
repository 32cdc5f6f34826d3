"""Bridges to other game libraries: their games solved by perfectplay, perfect players for them.

Each bridge is a module of its own that imports its library when it is imported, so
``import perfectplay`` never needs one: ``perfectplay.bridges.openspiel`` (the
``perfectplay[openspiel]`` extra) solves OpenSpiel games.
"""
