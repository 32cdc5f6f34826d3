"""``perfectplay search GAME [POSITION]``: perfect play at one position, by search.

No enumeration: the search engine (:mod:`perfectplay.search`) runs alpha-beta from the given
position only, so it answers positions of games far too large to solve whole (Connect Four on
the standard 6 x 7 board). ``--positions FILE`` answers one position per line, a line out per
line in. Values are for the player to move; moves' values for the player making them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, TextIO

from perfectplay.cli._options import (
    add_game_options,
    add_json_option,
    add_position_arguments,
    read_position,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register the ``search`` subcommand."""
    parser = subparsers.add_parser(
        "search",
        help="perfect play at one position by alpha-beta search, without solving the game",
        description=(
            "Search one position of an acyclic game: its value and remoteness for the player "
            "to move (the score for scored games), the best moves, the nodes searched and the "
            "time. Nothing is enumerated, so boards too large to solve whole are answered, "
            "e.g. perfectplay search connect-four --param rows=6 --param cols=7 4453."
        ),
    )
    parser.add_argument(
        "target", metavar="GAME", nargs="?", help="a registered game's name (or use --game)"
    )
    add_position_arguments(parser)
    add_game_options(parser)
    parser.add_argument(
        "--weak", action="store_true", help="decide only WIN/LOSE/TIE (faster; no remoteness)"
    )
    parser.add_argument(
        "--all", dest="all_moves", action="store_true", help="also value every move"
    )
    parser.add_argument(
        "--positions",
        metavar="FILE",
        help="answer every position of FILE (one per line, '-' for standard input), a line "
        "out per line in; a bad line is reported with its number and the rest still answered",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="with --positions: search them in N worker processes (answers still in order)",
    )
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="the transposition table's size, e.g. 512M or 1G (refused if it does not fit; "
        "default 16M for a compiled search such as Connect Four's, else 64M)",
    )
    parser.add_argument(
        "--book", metavar="FILE", help="an opening book of the game (perfectplay book)"
    )
    parser.add_argument(
        "--db",
        metavar="FILE|DIR",
        help="a solved database of the same game (solve --save FILE or --tiers DIR): positions "
        "found there are answered from it",
    )
    add_json_option(parser)
    parser.set_defaults(handler=run)


def _lookups(args: argparse.Namespace, game: Any) -> Any:
    """The answers known before searching: the book's and the database's, the book first."""
    from perfectplay.errors import InputFormatError

    sources = []
    if args.book:
        from perfectplay.search import OpeningBook

        sources.append(OpeningBook.open(args.book, game).get)
    if args.db:
        from perfectplay.cli._resolve import open_saved

        # --param builds a named game; a database of it is opened as its file records it
        db = open_saved(args.db, args.game, args.param if args.game else ())
        info = db.game.info
        if (info.name, dict(info.params)) != (game.info.name, dict(game.info.params)):
            raise InputFormatError(
                f"--db {args.db} is not a database of {_title(game)}: it holds {_title(db.game)}"
            )
        sources.append(db.get)
    if not sources:
        return None

    def lookup(position: Any) -> Any:
        for source in sources:
            found = source(position)
            if found is not None:
                return found
        return None

    return lookup


def _titled(game: Any) -> dict[str, Any]:
    """The game and its parameters (the board) as the JSON answer names them."""
    return {"game": game.info.name, "params": dict(game.info.params)}


def _title(game: Any) -> str:
    """The line naming the game and its board above an answer: ``connect-four rows=4 cols=5``."""
    params = game.info.param_text()
    return f"{game.info.name}{' ' + params if params else ''}"


def _answer(result: Any) -> dict[str, Any]:
    """The JSON object of one answer."""
    answer: dict[str, Any] = {
        "value": result.value.name,
        "remoteness": result.remoteness,
    }
    if result.score is not None:
        answer["score"] = result.score
    answer["best_moves"] = list(result.best_moves)
    if result.moves:
        answer["moves"] = [
            {"move": m.label, "value": m.value.name, "remoteness": _json_remoteness(m.remoteness)}
            | ({} if m.score is None else {"score": m.score})
            for m in result.moves
        ]
    answer["nodes"] = result.nodes
    answer["seconds"] = round(result.seconds, 6)
    return answer


def _json_remoteness(remoteness: int) -> int | None:
    """A move's remoteness in JSON: ``null`` where the search does not know it (weak)."""
    from perfectplay.values import UNKNOWN_REMOTENESS

    return None if remoteness == UNKNOWN_REMOTENESS else remoteness


def _text(result: Any) -> str:
    """The lines of one answer for people."""
    how = "" if result.remoteness is None else f" in {result.remoteness}"
    lines = [f"value: {result.value.name}{how} for the player to move"]
    if result.score is not None:
        lines.append(f"score: {result.score:+d}")
    lines.append(f"best moves: {' '.join(result.best_moves) or '-'}")
    for move in result.moves:
        lines.append(f"  {move}")
    lines.append(f"searched {result.nodes:,} nodes in {result.seconds:.3f} s")
    return "\n".join(lines)


def _line(result: Any) -> str:
    """One answer on one line (``--positions`` without ``--json``)."""
    how = "" if result.remoteness is None else f" {result.remoteness}"
    score = "" if result.score is None else f" score {result.score:+d}"
    return f"{result.value.name}{how}{score} best {','.join(result.best_moves)}"


def run(args: argparse.Namespace) -> int:
    """Search the position (or every line of ``--positions``) and print the answers."""
    from perfectplay._memory import parse_bytes
    from perfectplay.cli._resolve import build_game, with_game
    from perfectplay.errors import InputFormatError, PerfectPlayError
    from perfectplay.search import Searcher

    args.target, args.position = with_game(args.target, args.position, args.game, files=False)
    game: Any = build_game(args.target, args.param, args.game)
    memory = None if args.memory is None else parse_bytes(args.memory, "--memory")
    searcher = Searcher(game, memory=memory, lookup=_lookups(args, game))

    def one(words: list[str], moves: str) -> Any:
        position = read_position(game, words, moves)[-1]
        return searcher.search(position, weak=args.weak, all_moves=args.all_moves)

    def listed(line: str) -> list[str]:
        """The words of a ``--positions`` line; a blank line is a bad line, not the start."""
        words = line.split()
        if not words:
            raise InputFormatError(
                "a blank line, not a position (write the start as the game draws it)"
            )
        return words

    if args.positions is None:
        result = one(args.position, args.moves)
        if args.json:
            print(json.dumps(_titled(game) | _answer(result)))
        else:
            print(f"{_title(game)}\n{_text(result)}")
        return 0
    if args.position or args.moves:
        raise InputFormatError("give a POSITION or --positions FILE, not both")
    if args.jobs < 1:
        raise InputFormatError(f"--jobs must be at least 1, got {args.jobs}")
    titled = _titled(game)  # every JSON answer names the game and its board
    if args.jobs == 1:  # streamed: each answer as soon as its line is searched
        with _opened(args.positions) as stream:
            bad = 0
            for number, line in enumerate(stream, 1):
                try:
                    result = one(listed(line), "")
                except PerfectPlayError as error:
                    bad += _report(args, number, error)
                    continue
                print(
                    json.dumps(titled | _answer(result)) if args.json else _line(result), flush=True
                )
        return 2 if bad else 0
    from perfectplay.search.batch import search_positions

    with _opened(args.positions) as stream:
        lines = list(stream)
    parsed: list[Any] = []
    for line in lines:
        try:
            parsed.append(read_position(game, listed(line), "")[-1])
        except PerfectPlayError as error:
            parsed.append(error)
    wanted = [p for p in parsed if not isinstance(p, PerfectPlayError)]
    answers = iter(
        search_positions(
            game, wanted, jobs=args.jobs, memory=memory, weak=args.weak,
            all_moves=args.all_moves,
        )
    )  # fmt: skip
    bad = 0
    for number, item in enumerate(parsed, 1):
        result = item if isinstance(item, PerfectPlayError) else next(answers)
        if isinstance(result, PerfectPlayError):
            bad += _report(args, number, result)
            continue
        print(json.dumps(titled | _answer(result)) if args.json else _line(result), flush=True)
    return 2 if bad else 0


def _opened(path: str) -> contextlib.AbstractContextManager[TextIO]:
    """The ``--positions`` file, or standard input for ``-`` (left open when done)."""
    if path == "-":
        return contextlib.nullcontext(sys.stdin)
    return open(path, encoding="utf-8")


def _report(args: argparse.Namespace, number: int, error: Exception) -> int:
    """Report a bad line of ``--positions`` on both streams; return 1 (one more bad line)."""
    message = f"line {number}: {error}"
    print(f"perfectplay: error: {args.positions}: {message}", file=sys.stderr)
    print(json.dumps({"line": number, "error": str(error)}) if args.json else f"error: {message}")
    return 1
