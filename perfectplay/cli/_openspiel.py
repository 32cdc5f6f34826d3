"""``perfectplay solve openspiel:GAME``: an OpenSpiel game solved through the bridge.

``GAME`` is what ``pyspiel.load_game`` reads (``tic_tac_toe``, ``connect_four(rows=4,columns=5)``);
``--param KEY=VALUE`` words become its parameters in parentheses. OpenSpiel's ``connect_four``
is solved by perfectplay's own Connect Four, and a board too large to solve whole is refused
at once with the estimate (:func:`perfectplay.bridges.openspiel.solve_openspiel`). The solution
stays in memory: the summary is printed, nothing is saved.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

__all__ = ["PREFIX", "solve_openspiel_target", "spiel_name"]

PREFIX = "openspiel:"
"""How a command-line target names an OpenSpiel game."""


def spiel_name(target: str, params: list[str]) -> str:
    """The name ``pyspiel.load_game`` reads for `target` (``openspiel:GAME``) and the
    ``KEY=VALUE`` words `params`.

    Raises
    ------
    InputFormatError
        A word that is not ``KEY=VALUE``, or parameters both in the name and in `params`.

    Examples
    --------
    >>> spiel_name("openspiel:connect_four", ["rows=4", "columns=5"])
    'connect_four(rows=4,columns=5)'
    >>> spiel_name("openspiel:tic_tac_toe", [])
    'tic_tac_toe'
    """
    from perfectplay.errors import InputFormatError

    name = target.removeprefix(PREFIX)
    if not name:
        raise InputFormatError(f"give a game after {PREFIX}, e.g. {PREFIX}tic_tac_toe")
    if not params:
        return name
    if "(" in name:
        raise InputFormatError(f"give the parameters of {name} in its name or as --param, not both")
    for word in params:
        key, equals, value = word.partition("=")
        if not (equals and key and value):
            raise InputFormatError(f"expected a parameter as KEY=VALUE, got {word!r}")
    return f"{name}({','.join(params)})"


def solve_openspiel_target(args: argparse.Namespace) -> int:
    """Solve the OpenSpiel game `args.target` names and print a summary (``--json``: one
    object); refuse the options that save or choose an engine."""
    from perfectplay.errors import InputFormatError

    given = [
        option
        for option, value in (
            ("-o", args.out), ("--save", args.save), ("--tiers", args.tiers), ("--game", args.game),
            ("--jobs", args.jobs), ("--chunk-size", args.chunk_size), ("--dask", args.dask),
        )
        if value is not None
    ]  # fmt: skip
    if args.engine != "auto":
        given.append("--engine")
    if given:
        raise InputFormatError(
            f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to an "
            "OpenSpiel game: its solution stays in memory (solve_openspiel in Python keeps it)"
        )
    name = spiel_name(args.target, args.param)
    from perfectplay.bridges.openspiel import ConnectFourRoute, solve_openspiel
    from perfectplay.play import describe

    start = time.perf_counter()
    solved = solve_openspiel(name, max_positions=args.max_positions)
    seconds = time.perf_counter() - start
    state = solved.game.new_initial_state()
    value, remoteness = solved.value(state), solved.remoteness(state)
    zero, one = solved.returns(state)
    solution = solved.solution
    routed = isinstance(solved.spiel, ConnectFourRoute)
    how = (
        f"perfectplay's Connect Four {solved.spiel.native.info.param_text()}"
        if isinstance(solved.spiel, ConnectFourRoute)  # routed: mypy narrows on this test
        else "OpenSpiel's states"
    )
    if args.json:
        record = {
            "game": f"{PREFIX}{solved.game.get_type().short_name}",
            "params": dict(solved.game.get_parameters()),
            "solved_as": how,
            "positions": len(solution),
            "symmetry_classes": routed,
            "moves": solution.graph.m,
            "start": {"value": value.name, "remoteness": remoteness, "returns": [zero, one]},
            "summary": solution.summary(),
        }
        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    counted = "symmetry classes" if routed else "positions"
    lines = [
        f"{PREFIX}{name}: solved in {seconds:.2f} s (by {how})",
        f"start: {describe(value, remoteness)} for the player to move (player 0); returns "
        f"{zero:g} and {one:g} under perfect play",
        f"{counted}: {len(solution):,}; {solution.graph.m:,} moves between them",
        f"{counted} by value: " + ", ".join(f"{k} {v:,}" for k, v in solution.summary().items()),
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
