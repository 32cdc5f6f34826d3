"""The store: round trips, atomic writes, and every kind of damaged file refused on open."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perfectplay.errors import (
    GameDefinitionError,
    PerfectPlayError,
    PositionNotFoundError,
    StoreError,
    UnknownNameError,
)
from perfectplay.graph import GameGraph
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.solution import Solution
from perfectplay.store import (
    FORMAT_VERSION,
    MAGIC,
    PositionValue,
    file_head,
    open_store,
    read_head,
    save,
)
from perfectplay.values import Value


def _random_solution(seed: int, n: int, scored: bool) -> Solution:
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 3 * n + 1)) if n else 0
    src = rng.integers(0, n, size=m) if n else np.zeros(0, np.int64)
    dst = rng.integers(0, n, size=m) if n else np.zeros(0, np.int64)
    gain = rng.integers(-5, 6, size=m) if scored else None
    graph = GameGraph.from_edges(src, dst, n=n, gain=gain)
    value = rng.choice(np.array([0, 1, 2, 3], np.uint8), size=n)
    remoteness = np.where(value == 1, -1, rng.integers(0, 9, size=n)).astype(np.int32)
    score = rng.integers(-20, 21, size=n).astype(np.int64) if scored else None
    return Solution(graph, value, remoteness, score=score, solver="retrograde")


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.integers(0, 40), st.booleans(), st.booleans())
def test_round_trip_keeps_every_array(
    tmp_path: Path, seed: int, n: int, scored: bool, with_codes: bool
) -> None:
    solution = _random_solution(seed, n, scored)
    rng = np.random.default_rng(seed + 1)
    codes = rng.choice(10 * n + 1, size=n, replace=False) if with_codes else None
    path = tmp_path / "s.ppstore"
    game = "nim" if with_codes else None
    save(path, solution, game=game, params={"k": 3}, codes=codes, start=0 if n else None)
    with open_store(path, verify=True) as store:
        assert (store.n, store.m, store.scored, store.params) == (
            n,
            solution.graph.m,
            scored,
            {"k": 3},
        )
        for name in ("value", "remoteness", "indptr", "indices"):
            assert np.array_equal(
                store.array(name),
                getattr(solution.graph, name, None)
                if name.startswith("ind")
                else getattr(solution, name),
            )
        if scored:
            assert np.array_equal(store.array("score"), solution.score)
        for i in range(n):
            expected = PositionValue(
                Value(int(solution.value[i])),
                int(solution.remoteness[i]),
                int(solution.score[i]) if solution.score is not None else None,
            )
            if codes is None:
                assert store.probe(i) == store.get(i) == expected
                assert store.position_id(i) == i
            else:
                assert store.entry(store.code_id(int(codes[i]))) == expected
        graph_keyed = codes is None
        for i in range(n if graph_keyed else 0):
            assert store.move_values(i) == solution.move_values(i)  # the same records
            assert [m.position for m in store.best_moves(i)] == solution.best_moves(i)
        rebuilt = store.solution()
        assert [rebuilt.move_values(i) for i in range(n)] == [
            solution.move_values(i) for i in range(n)
        ]
        expected_counts = Counter(
            zip(solution.value.tolist(), solution.remoteness.tolist(), strict=True)
        )
        assert {(int(v), r): c for v, r, c in store.counts()} == expected_counts
        assert store.counts() == sorted(store.counts())


def test_missing_positions_raise_a_key_error_or_return_the_default(tmp_path: Path) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(1, 5, False), game="nim", codes=[10, 20, 30, 40, 50])
    with open_store(path) as store:
        for bad in (-1, 5, 99):
            with pytest.raises(PositionNotFoundError) as info:
                store.code_id(bad)
            assert isinstance(info.value, KeyError) and isinstance(info.value, PerfectPlayError)
            assert str(bad) in str(info.value)
    save(path, _random_solution(1, 5, False))
    with open_store(path) as store:
        sentinel = PositionValue(Value.TIE, 0)
        assert store.get(5, sentinel) is sentinel
        assert store.get("a") is None
        with pytest.raises(PositionNotFoundError, match=r"ids are 0\.\.4"):
            store.probe(5)


def test_repeated_codes_and_bad_params_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.ppstore"
    with pytest.raises(StoreError, match="code 7"):
        save(path, _random_solution(2, 3, False), game="g", codes=[7, 1, 7])
    with pytest.raises(StoreError, match="one entry per position"):
        save(path, _random_solution(2, 3, False), game="g", codes=[1, 2])
    for options in ({"game": "g"}, {"codes": [1, 2, 3]}):
        with pytest.raises(StoreError, match="both the game's name and the codes"):
            save(path, _random_solution(2, 3, False), **options)  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="JSON"):
        save(path, _random_solution(2, 3, False), params={"x": object()})
    assert not path.exists()
    assert os.listdir(tmp_path) == []


def test_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(3, 10, False))
    before = path.read_bytes()

    def crash(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(KeyboardInterrupt):
        save(path, _random_solution(4, 30, True))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["s.ppstore"]


def _saved(tmp_path: Path) -> tuple[Path, bytes]:
    path = tmp_path / "s.ppstore"
    save(
        path,
        _random_solution(5, 50, True),
        game="nim",
        params={"heaps": "1,2"},
        codes=np.arange(50) * 3,
    )
    return path, path.read_bytes()


@pytest.mark.parametrize("cut", [0, 5, 23, 30, -1, -100])
def test_truncated_files_are_refused(tmp_path: Path, cut: int) -> None:
    path, data = _saved(tmp_path)
    path.write_bytes(data[:cut])
    with pytest.raises(StoreError, match=r"truncated|too short|not a perfectplay store"):
        open_store(path)


def test_every_flipped_byte_is_detected(tmp_path: Path) -> None:
    """Damage anywhere (header, manifest, any array) makes the open fail with StoreError."""
    path, data = _saved(tmp_path)
    header_and_manifest = 24 + int.from_bytes(data[16:24], "little")
    positions = list(range(0, header_and_manifest, 7)) + list(
        range(header_and_manifest, len(data), 53)
    )
    with open_store(path) as store:
        table = store.manifest["arrays"]
    data_start = -(-header_and_manifest // 64) * 64
    for entry in table.values():  # inside every array, not only in the padding
        if entry["nbytes"]:
            positions.append(data_start + entry["offset"] + entry["nbytes"] - 1)
    for i in positions:
        inside = i < header_and_manifest or any(
            0 <= i - data_start - e["offset"] < e["nbytes"] for e in table.values()
        )
        if not inside:
            continue
        damaged = bytearray(data)
        damaged[i] ^= 0x41
        path.write_bytes(bytes(damaged))
        with pytest.raises(StoreError):
            open_store(path)


def test_corruption_is_found_by_verify_when_open_skips_checksums(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    damaged = bytearray(data)
    damaged[-200] ^= 1
    path.write_bytes(bytes(damaged))
    with open_store(path, verify=False) as store, pytest.raises(StoreError, match="checksum"):
        store.verify()


def test_wrong_magic_version_game_and_options(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    with open_store(path, game="nim") as store:
        assert store.game_name == "nim"
        assert "nim heaps='1,2'" in repr(store)
    with pytest.raises(StoreError, match="holds nim, not tic-tac-toe"):
        open_store(path, game="tic-tac-toe")
    path.write_bytes(data[:8] + (FORMAT_VERSION + 1).to_bytes(4, "little") + data[12:])
    with pytest.raises(StoreError, match=f"version {FORMAT_VERSION + 1}"):
        open_store(path)
    path.write_bytes(b"PK\x03\x04" + data[4:])
    with pytest.raises(StoreError, match="bad magic"):
        open_store(path)
    assert data.startswith(MAGIC)
    with pytest.raises(StoreError, match="verify must be"):
        open_store(path, verify="yes")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="cannot open") as info:
        open_store(tmp_path / "missing.ppstore")
    assert isinstance(info.value, OSError)


def test_graph_store_has_no_game_and_closed_store_refuses(tmp_path: Path) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(6, 0, False))
    store = open_store(path)
    assert store.n == 0 and store.counts() == [] and store.game_name is None
    with pytest.raises(StoreError, match="game graph"):
        _ = store.game
    with pytest.raises(StoreError, match="no 'codes'"):
        store.array("codes")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.array("value")


def test_arrays_are_read_only_memory_maps(tmp_path: Path) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(7, 20, False))
    with open_store(path) as store:
        value = store.array("value")
        assert not value.flags.writeable
        with pytest.raises(ValueError):
            value[0] = 1
        del value


@pytest.mark.parametrize(
    ("name", "params"),
    [("nim", {"heaps": (1, 2, 3)}), ("tic-tac-toe", {}), ("subtraction", {"heap": 12})],
)
def test_a_saved_game_answers_like_its_game_solution(
    tmp_path: Path, name: str, params: dict[str, object]
) -> None:
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game

    game = load_game(name, **params)
    solved = solve(game)
    path = tmp_path / "game.ppstore"
    save(path, solved)
    with open_store(path, game=name) as store:
        assert store.start == solved.id_of(solved.initial)
        assert store.n == len(solved)
        for pid in range(len(solved)):
            position = solved.position_of(pid)
            entry = store.probe(position)
            assert (entry.value, entry.remoteness, entry.score) == (
                solved.value(position),
                solved.remoteness(position),
                solved.score(position),
            )
            assert store.move_values(position) == solved.move_values(position)
            assert store.best_moves(position) == solved.best_moves(position)
    with open_store(path, game=game) as store:
        assert store.game is game
    other = {"nim": {"heaps": (2, 2)}, "subtraction": {"heap": 5}}.get(name)
    if other is not None:
        with pytest.raises(StoreError, match="parameters"):
            open_store(path, game=load_game(name, **other))


def test_counts_refuse_values_out_of_range_in_an_unverified_file(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    with open_store(path) as store:
        entry = store.manifest["arrays"]["value"]
    header_and_manifest = 24 + int.from_bytes(data[16:24], "little")
    first_value = -(-header_and_manifest // 64) * 64 + entry["offset"]
    damaged = bytearray(data)
    damaged[first_value] = 7  # not a Value code
    path.write_bytes(bytes(damaged))
    with open_store(path, verify=False) as store, pytest.raises(StoreError, match="out of range"):
        store.counts()


class _TakeAway(Game[int]):
    """A user's own game, not in the registry: take 1 or 2 from a heap; last take wins."""

    info = GameInfo("take-away", {"heap": 7}, impartial=True)

    def initial(self) -> int:
        return 7

    def moves(self, heap: int) -> list[tuple[str, int]]:
        return [(f"t{k}", heap - k) for k in (1, 2) if k <= heap]

    def outcome(self, heap: int) -> Value | None:
        return None  # no encode/decode: a heap, a non-negative int, is its own code


def test_a_users_own_game_is_queried_with_the_game_object(tmp_path: Path) -> None:
    from perfectplay.api import solve

    path = tmp_path / "take.ppstore"
    save(path, solve(_TakeAway()))
    with open_store(path, game=_TakeAway()) as store:
        for heap in range(8):
            entry = store.probe(heap)
            assert entry.value is (Value.LOSE if heap % 3 == 0 else Value.WIN)
        assert [m.label for m in store.best_moves(7)] == ["t1"]
        assert store.get(8) is None
    with open_store(path) as store, pytest.raises(UnknownNameError, match="take-away"):
        store.probe(3)


def test_a_game_without_codes_cannot_be_saved(tmp_path: Path) -> None:
    from perfectplay.api import solve

    class NoCodes(Game[str]):
        info = GameInfo("strip")

        def initial(self) -> str:
            return "ab"

        def moves(self, strip: str) -> list[tuple[str, str]]:
            return [("x", strip[1:])] if strip else []

        def outcome(self, strip: str) -> Value | None:
            return None

    with pytest.raises(GameDefinitionError, match=r"integer codes .* 'ab' is not a non-negative"):
        save(tmp_path / "x.ppstore", solve(NoCodes()))
    assert os.listdir(tmp_path) == []


def test_write_errors_name_the_target_not_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solution = _random_solution(6, 5, False)
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(StoreError, match=f"^cannot write {folder}: Is a directory$"):
        save(folder, solution)
    missing = tmp_path / "missing" / "s.ppstore"
    with pytest.raises(StoreError, match=f"^cannot write {missing}: No such file or directory$"):
        save(missing, solution)
    path = tmp_path / "s.ppstore"

    def refuse(*args: object) -> None:
        raise PermissionError(13, "Permission denied", str(args[0]))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(StoreError, match=f"^cannot write {path}: Permission denied$"):
        save(path, solution)
    assert os.listdir(tmp_path) == ["folder"], "no temporary file is left behind"
    assert os.listdir(folder) == []


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_store_files_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        save(tmp_path / "s.ppstore", _random_solution(1, 5, False))
    finally:
        os.umask(old)
    assert (tmp_path / "s.ppstore").stat().st_mode & 0o777 == mode


def _with_manifest(path: Path, **changes: object) -> None:
    """Rewrite the store at `path` with manifest fields changed, checksummed again."""
    data = path.read_bytes()
    manifest, start = read_head(data)
    manifest.update(changes)
    path.write_bytes(file_head(manifest, len(data) - start) + data[start:])


def test_the_head_of_a_saved_file_is_rebuilt_byte_for_byte(tmp_path: Path) -> None:
    """read_head and file_head are the format's two directions: what save writes before the
    data section is file_head of the manifest read back."""
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(5, 9, True))
    data = path.read_bytes()
    manifest, start = read_head(data)
    assert start % 64 == 0 and int(manifest["file_size"]) == len(data)
    assert file_head(manifest, len(data) - start) == data[:start]
    with pytest.raises(StoreError, match="bad magic bytes"):
        read_head(b"x" * len(data))


@pytest.mark.parametrize(
    "changes",
    [{"params": 1}, {"game": 7}, {"scored": "yes"}, {"start": [1]}, {"start": False},
     {"canonical": None}, {"solver": 3}, {"n": -1}],
)  # fmt: skip
def test_manifest_fields_of_the_wrong_type_are_refused(
    tmp_path: Path, changes: dict[str, object]
) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(2, 6, False))
    _with_manifest(path, **changes)
    with pytest.raises(StoreError, match="is corrupted"):
        open_store(path)


def test_a_negative_array_offset_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.ppstore"
    save(path, _random_solution(4, 6, False))
    with open_store(path) as store:
        arrays = store.manifest["arrays"]
    arrays["value"]["offset"] = -64
    _with_manifest(path, arrays=arrays)
    with pytest.raises(StoreError, match="value lies outside the file"):
        open_store(path)


def test_graph_store_keeps_the_primitive_values(tmp_path: Path) -> None:
    solution = _random_solution(3, 4, False)
    primitive = np.array([255, 2, 255, 3], np.uint8)
    save(tmp_path / "s.ppstore", solution, primitive=primitive)
    with open_store(tmp_path / "s.ppstore") as store:
        assert store.array("primitive").tolist() == primitive.tolist()


def test_a_store_records_its_game_class_and_refuses_an_unregistered_one(tmp_path: Path) -> None:
    from perfectplay.api import solve
    from perfectplay.games.registry import load_game

    path = tmp_path / "nim.ppstore"
    save(path, solve(load_game("nim", heaps=(1, 2))))
    with open_store(path) as store:
        assert store.manifest["class"] == "perfectplay.games.nim.rules:Nim"
        assert store.game.info.params["heaps"] == (1, 2)
    save(tmp_path / "take.ppstore", solve(_TakeAway()))
    with open_store(tmp_path / "take.ppstore") as store:
        assert store.manifest["class"] == f"{_TakeAway.__module__}:_TakeAway"
        with pytest.raises(UnknownNameError, match=f"pass --game {_TakeAway.__module__}:_TakeAway"):
            _ = store.game


def test_a_store_naming_an_unregistered_module_imports_nothing(tmp_path: Path) -> None:
    import subprocess
    import sys

    from perfectplay.api import solve

    trap = tmp_path / "trap_module_xyz.py"
    trap.write_text(f"open({str(tmp_path / 'imported')!r}, 'w').close()\n")
    game = _TakeAway()
    type(game).__module__ = "trap_module_xyz"  # the store records this class target
    try:
        save(tmp_path / "trap.ppstore", solve(game))
    finally:
        type(game).__module__ = __name__
    script = (
        "import sys\n"
        "from perfectplay.errors import UnknownNameError\n"
        "from perfectplay.store import open_store\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        f"with open_store({str(tmp_path / 'trap.ppstore')!r}) as store:\n"
        "    try:\n"
        "        store.game\n"
        "    except UnknownNameError as error:\n"
        "        print(error)\n"
        "print('trap_module_xyz' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "False"
    assert "pass --game trap_module_xyz:_TakeAway" in done.stdout
    assert not (tmp_path / "imported").exists()
