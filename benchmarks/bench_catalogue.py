"""Benchmark of the classic games strongly solved on the tier engine, beside GamesmanOne.

One row per game: its positions reachable from the start (``perfectplay analyze``), the
value at the start for the player to move, and the whole ``perfectplay solve GAME --tiers DIR
--jobs 2`` command's wall time, CPU time and peak memory (a child process; ``os.wait4``'s
figures), with GamesmanOne's wall time for the same game where it has it and ``--gamesmanone-src
PATH`` names its source tree (``fetch`` of ``GamesCrafters/GamesmanOne``): the script builds it
with CMake into a temporary folder (GPL code: never part of this repository) and times
``gamesman solve NAME`` there on 2 OpenMP threads.

By default the games are played reduced, so that ``make bench`` goes through in a minute:
Dobutsu Shogi with one elephant and two chicks, Gobblet Gobblers with two sizes of two
pieces, Squadro with three pieces a side and two home to win. ``--full`` solves the real games
(Dobutsu Shogi: 16 min of wall, 1,694 s of CPU, 5.4 GiB on two cores; Gobblet Gobblers:
2 min 22 s of wall, 218 s of CPU, 1.9 GiB; Squadro: 1 h 54 min of wall, 3.6 CPU hours,
5.5 GiB), ``--keep DIR`` keeps the tier directories under DIR, ``--only NAME`` runs one
game's row.

The column "as published" counts the reachable positions the way the publication does, where
that differs from ``analyze``'s count: Dobutsu Shogi as Tanaka counts them (mirror images once,
no play from a position where the lion can be caught;
:func:`perfectplay.games.dobutsu.reach.reach_counts`, in this process: for the whole game
246,803,167 in 1,302 s of CPU and 8.1 GB).

Usage: ``python benchmarks/bench_catalogue.py [--full] [--only NAME] [--keep DIR]
[--gamesmanone-src PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile

from _child import perfectplay_command, run_child

_GAMES: list[tuple[str, dict[str, int | str], dict[str, int | str], str | None, str]] = [
    # name, reduced parameters, full parameters, GamesmanOne's name, published
    ("dobutsu", {"giraffes": 0, "elephants": 1, "chicks": 2}, {}, "dshogi",
     "LOSE in 78, 246,803,167 positions (Tanaka 2009)"),
    ("gobblet-gobblers", {"sizes": 2, "pieces": 2}, {}, "gobbletg",
     "WIN, 341,024,631 positions up to symmetry (possiblywrong 2024)"),
    ("squadro", {"speeds": "1,3,2", "home": 2}, {}, None,
     "LOSE for top to move, 46,199,129,613 states (ndeineko)"),
]  # fmt: skip
"""The games of the table."""


def _as_published(name: str, params: dict[str, int | str]) -> str:
    """The reachable positions counted as the publication counts them, or ``-``."""
    if name != "dobutsu":
        return "-"
    from perfectplay.games.dobutsu.reach import reach_counts
    from perfectplay.games.dobutsu.tiers import TieredDobutsu

    tanaka, _ = reach_counts(TieredDobutsu(**params), jobs=2)
    return f"{sum(tanaka.classes.values()):,}"


def _params(params: dict[str, int | str]) -> list[str]:
    out = []
    for key, value in params.items():
        out += ["--param", f"{key}={value}"]
    return out


def _ours(name: str, params: dict[str, int | str], directory: str) -> dict:
    shutil.rmtree(directory, ignore_errors=True)
    command = [*perfectplay_command(), "solve", name, *_params(params), "--tiers", directory]
    wall, cpu, rss, out = run_child([*command, "--jobs", "2", "--json"], os.devnull)
    record = json.loads(out)
    _, _, _, counted = run_child(
        [*perfectplay_command(), "analyze", directory, "--json"], os.devnull
    )
    record.update(
        wall=wall, cpu=cpu, rss=rss, positions=sum(json.loads(counted)["positions"].values())
    )
    return record


def _build_gamesmanone(source: str, root: str) -> str:
    """GamesmanOne built from `source` into `root`; the path of its ``gamesman`` binary."""
    build = os.path.join(root, "build")
    subprocess.run(
        ["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    subprocess.run(["cmake", "--build", build, "-j", "2"], check=True, stdout=subprocess.DEVNULL)
    for folder in (build, os.path.join(source, "bin")):  # its newer trees build into bin/
        for inside, _, files in os.walk(folder):
            if "gamesman" in files:
                return os.path.join(inside, "gamesman")
    raise SystemExit(f"no gamesman binary was built under {build} or {source}/bin")


def _theirs(binary: str, name: str, root: str, *variant: str) -> float:
    """Wall seconds of ``gamesman solve NAME [VARIANT]`` on 2 OpenMP threads, in a fresh
    folder."""
    work = os.path.join(root, f"g1-{name}{''.join('-' + v for v in variant)}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "data"))
    # `env` and `sh` exec the binary in the same process: wait4 reports its own figures.
    args = ["env", "OMP_NUM_THREADS=2", "sh", "-c", 'cd "$1" && shift && exec "$0" solve "$@"',
            os.path.abspath(binary), work, name, *variant]  # fmt: skip
    wall, _, _, _ = run_child(args, os.devnull)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the real games, not reduced ones")
    parser.add_argument("--keep", metavar="DIR", help="keep the tier directories under DIR")
    parser.add_argument(
        "--only", metavar="NAME", choices=[g[0] for g in _GAMES], help="one game's row"
    )
    parser.add_argument(
        "--gamesmanone-src", metavar="PATH", help="GamesmanOne's source tree, built and timed"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or scratch
        os.makedirs(root, exist_ok=True)
        binary = None
        if args.gamesmanone_src and args.full:
            binary = _build_gamesmanone(args.gamesmanone_src, scratch)
        print("| game | positions | as published | start | wall s | CPU s | peak RSS MiB "
              "| GamesmanOne wall s | published |")  # fmt: skip
        print("|---|---:|---:|---|---:|---:|---:|---:|---|")
        for name, reduced, full, theirs, published in _GAMES:
            if args.only not in (None, name):
                continue
            params = full if args.full else reduced
            r = _ours(name, params, os.path.join(root, name))
            start = r["start"]["value"]
            if r["start"]["remoteness"] >= 0:
                start += f" in {r['start']['remoteness']}"
            peer = "-"
            if binary is not None and theirs is not None:
                peer = f"{_theirs(binary, theirs, scratch):.1f}"
            title = name + (" " + " ".join(f"{k}={v}" for k, v in params.items()) if params else "")
            print(
                f"| {title} | {r['positions']:,} | {_as_published(name, params)} | {start} "
                f"| {r['wall']:.1f} | {r['cpu']:.1f} "
                f"| {r['rss'] / 2**20:.0f} | {peer} | {published if args.full else '-'} |"
            )
        if binary is None:
            print("\n(GamesmanOne skipped: give --full and --gamesmanone-src PATH to time it)")


if __name__ == "__main__":
    main()
