"""Tiers of a solved tier directory solved again, on threads and on Dask, against its files.

For each tier named (by its label, as the manifest and its file ``tier-LABEL.tier`` name
it): two scratch copies of the directory are made, each holding the manifest and the tier files
(``tier-LABEL.tier``) of the tiers that tier reads, directly or not, as hard links (a copy of
the file where the scratch folder is on another file system; only those: a solve opening a
directory reads the checksums of every tier file in it); no chunk folder, temporary file or
lock of the directory is taken, so a directory still being solved can be used (its finished
files never change: the engine writes every file under a temporary name and renames it, and a
rename in a copy replaces the copy's link, never the linked file). Then ``perfectplay solve
GAME --tiers COPY --only LABEL`` runs in one copy with ``--jobs 2`` and in the other with
``--dask local:2`` (child processes: wall, CPU and peak RSS from ``os.wait4``), each solving
that tier again from the child tiers it reads (all finished: the engine finishes a tier only
after the tiers it reads) and no other (``--only``); the new file must be the directory's, byte
for byte, and the tier the only one solved. A first row runs both with nothing to solve (the
tier's own file linked): the fixed cost of each way (interpreter, imports, the plan, the
cluster's start).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from _child import perfectplay_command, run_child

from perfectplay.games.registry import load_tiered_game
from perfectplay.tiers.plan import tiers_read
from perfectplay.tiers.storage import MANIFEST, read_manifest, tier_file

__all__ = [
    "EXECUTORS",
    "Redone",
    "choose_tiers",
    "finished_tiers",
    "reached",
    "redo",
    "scratch_root",
]

EXECUTORS = {"threads": ["--jobs", "2"], "dask": ["--dask", "local:2"]}
"""The two ways each tier is solved again."""
MOST_TIERS = 3
"""Tiers chosen when none are named (:func:`choose_tiers`)."""


@dataclass
class Redone:
    """One tier solved again both ways (`label` None: nothing solved, the fixed costs)."""

    label: str | None
    ranks: int
    figures: dict[str, tuple[float, float, int]]
    """Per way: wall s, CPU s (user + system, the process tree's), peak RSS bytes."""
    same: bool
    """Whether both ways wrote the directory's file, byte for byte, and solved no other tier."""


def finished_tiers(directory: str) -> dict[str, int]:
    """The finished tiers of `directory` (those whose tier file exists): label -> ranks.

    Cost: one ``stat`` per tier of the manifest.
    """
    manifest = read_manifest(directory)
    return {
        label: size
        for label, size in zip(manifest["labels"], manifest["sizes"], strict=True)
        if os.path.exists(tier_file(directory, label))
    }


def choose_tiers(finished: dict[str, int], budget: int) -> list[str]:
    """The default tiers: the largest finished ones of at most a third of `budget` ranks each,
    at most :data:`MOST_TIERS` of them, largest first.

    >>> choose_tiers({"a": 50, "b": 30, "c": 30, "d": 20, "e": 10}, 100)
    ['b', 'c', 'd']
    """
    fit = [label for label, size in finished.items() if size <= budget // MOST_TIERS]
    return sorted(fit, key=lambda label: (-finished[label], label))[:MOST_TIERS]


def scratch_root(directory: str, scratch: str | None) -> str:
    """A new folder for the copies: inside `scratch` if given, else in the system's temporary
    folder when it is on `directory`'s file system (hard links need one), else beside
    `directory`; never inside `directory`.

    Raises
    ------
    SystemExit
        If `scratch` lies inside `directory`.
    """
    source = os.path.realpath(directory)
    if scratch is not None:
        place = os.path.realpath(scratch)
        if os.path.commonpath([place, source]) == source:
            raise SystemExit(f"--scratch {scratch} lies inside {directory}: give another folder")
        os.makedirs(place, exist_ok=True)
    else:
        place = tempfile.gettempdir()
        if os.stat(place).st_dev != os.stat(source).st_dev:
            place = os.path.dirname(source)
    return tempfile.mkdtemp(prefix="redo-", dir=place)


def reached(manifest: dict, label: str) -> list[str]:
    """The labels of the tier `label` and of every tier it reads, directly or not, of the game
    of `manifest` (rebuilt from its name and parameters). Cost: the child tiers of each."""
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in manifest["params"].items()}
    game = load_tiered_game(manifest["game"], **params)
    tiers = dict(zip(manifest["labels"], manifest["tiers"], strict=True))
    return [game.tier_label(t) for t in tiers_read(game, manifest["tiers"], [tiers[label]])]


def _copy(directory: str, labels: list[str], into: str) -> int:
    """`directory`'s manifest and the tier files of `labels` in the new folder `into`, linked
    where the file system allows; return the files copied instead."""
    os.makedirs(into)
    shutil.copyfile(os.path.join(directory, MANIFEST), os.path.join(into, MANIFEST))
    copied = 0
    for label in labels:
        source, target = tier_file(directory, label), tier_file(into, label)
        try:
            os.link(source, target)
        except OSError as error:
            if error.errno != errno.EXDEV:
                raise
            shutil.copyfile(source, target)
            copied += 1
    return copied


def _digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _solve_command(manifest: dict, copy: str, label: str, way: list[str]) -> list[str]:
    params = []
    for key, value in manifest["params"].items():
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        params += ["--param", f"{key}={text}"]
    return [*perfectplay_command(), "solve", manifest["game"], *params, "--tiers", copy,
            "--only", label, "--json", *way]  # fmt: skip


def _state(directory: str, labels: list[str]) -> dict[str, tuple[int, int, int]]:
    """Inode, size and modification time (ns) of the tier files of `labels` in `directory`."""
    out = {}
    for label in labels:
        stat = os.stat(tier_file(directory, label))
        out[label] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return out


def redo(directory: str, labels: list[str], root: str) -> tuple[list[Redone], bool]:
    """Solve each tier of `labels` again from copies of `directory` under `root`, both ways
    (the module docstring), after a first row with nothing to solve (the first tier's copies
    with its own file); return the rows and whether the files of `directory` that were read
    are as they were (inode, size, modification time). `directory` is only read.

    Raises
    ------
    SystemExit
        If `labels` is empty or names no finished tier of `directory` or one reading an
        unfinished tier, or a solve fails.
    """
    manifest = read_manifest(directory)
    finished = finished_tiers(directory)
    if not labels:
        raise SystemExit(f"{directory}: no tier to solve again")
    strange = [label for label in labels if label not in finished]
    if strange:
        raise SystemExit(f"{directory}: {strange[0]} is no finished tier (no tier file)")
    reads = {label: reached(manifest, label) for label in labels}
    for label, names in reads.items():
        missing = [name for name in names if name not in finished]
        if missing:  # a directory the engine wrote has none: a tier ends after those it reads
            raise SystemExit(f"{directory}: {label} reads {missing[0]}, which is not finished")
    read = sorted({name for names in reads.values() for name in names})
    before = _state(directory, read)
    originals = {label: _digest(tier_file(directory, label)) for label in labels}
    rows = []
    for label in [None, *labels]:
        names = reads[label or labels[0]]
        kept = [name for name in names if name != label]
        figures, same = {}, True
        for way, options in EXECUTORS.items():
            copy = os.path.join(root, f"{label or 'none'}-{way}")
            if _copy(directory, kept, copy):  # another file system: copies cost disk and time
                print(f"{copy}: tier files copied, not linked", file=sys.stderr)
            command = _solve_command(manifest, copy, label or labels[0], options)
            wall, cpu, rss, out = run_child(command, os.devnull)
            figures[way] = (wall, cpu, rss)
            run = json.loads(out)["run"]
            now = sorted(p.name for p in Path(copy).glob("tier-*.tier"))
            same &= now == sorted(f"tier-{name}.tier" for name in names)
            same &= run["tiers_solved"] == int(label is not None)
            if label is not None:
                same &= _digest(tier_file(copy, label)) == originals[label]
            shutil.rmtree(copy)
        rows.append(Redone(label, finished[label] if label else 0, figures, same))
    return rows, _state(directory, read) == before
