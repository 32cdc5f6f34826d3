"""The web app's JSON API through Starlette's TestClient: answers agree with the solver, bad
requests get a 4xx JSON error (never a 500), databases are served without solving."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from starlette.testclient import TestClient

import perfectplay
from perfectplay.draw import PALETTE, position_svg
from perfectplay.games.registry import game_entry, game_names, load_game
from perfectplay.values import NO_REMOTENESS
from perfectplay.web import app as web_app
from perfectplay.web.app import create_app, database_ids, parse_param_text
from perfectplay.web.solutions import SolutionCache, open_database

TTT = load_game("tic-tac-toe")
C4 = load_game("connect-four", rows=4, cols=4)


SMALL = (TTT, C4, load_game("nim", heaps=(1, 2, 3)), load_game("dodgem"), load_game("subtraction"))
"""Games the module's cache solves first (random parameters in requests start other solves,
refused beyond 200,000 positions)."""


@pytest.fixture(scope="module")
def cache() -> Iterator[SolutionCache]:
    cache = SolutionCache(max_positions=200_000)
    for game in SMALL:
        cache.wait(game)
    yield cache
    cache.close()


@pytest.fixture(scope="module")
def client(cache: SolutionCache) -> Iterator[TestClient]:
    with TestClient(create_app(cache=cache)) as client:
        yield client


@pytest.fixture(scope="module")
def solved_ttt() -> perfectplay.GameSolution[Any]:
    return perfectplay.solve(TTT)


def _remoteness(r: int) -> int | None:
    return None if r == NO_REMOTENESS else r


def test_games_lists_every_registered_game_with_its_parameters(client: TestClient) -> None:
    body = client.get("/api/games").json()
    assert [g["name"] for g in body["games"]] == game_names()
    for listed in body["games"]:
        entry = game_entry(listed["name"])
        assert listed["description"] == entry.summary
        assert [p["name"] for p in listed["params"]] == [p.name for p in entry.parameters()]
        for p, param in zip(listed["params"], entry.parameters(), strict=True):
            default = param.default
            assert p["default"] == (list(default) if isinstance(default, tuple) else default)
    assert body["databases"] == []
    assert body["palette"] == PALETTE


def _random_line(solved: perfectplay.GameSolution[Any], rng: random.Random) -> list[str]:
    """Labels of a random game from the start to its end."""
    position, labels = solved.initial, []
    while moves := solved.move_values(position):
        move = rng.choice(moves)
        labels.append(move.label)
        position = move.position
    return labels


@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 9))
def test_position_agrees_with_the_solver(
    client: TestClient, solved_ttt: perfectplay.GameSolution[Any], seed: int, cut: int
) -> None:
    labels = _random_line(solved_ttt, random.Random(seed))[:cut]
    answer = client.get("/api/games/tic-tac-toe/position", params={"moves": ",".join(labels)})
    assert answer.status_code == 200
    body = answer.json()
    position, history = solved_ttt.initial, []
    for label in labels:
        history.append((solved_ttt.value(position), solved_ttt.remoteness(position)))
        position = next(m.position for m in solved_ttt.move_values(position) if m.label == label)
    history.append((solved_ttt.value(position), solved_ttt.remoteness(position)))
    assert body["played"] == labels
    assert body["position"] == TTT.render(position)
    assert (body["value"], body["remoteness"]) == (history[-1][0].name, history[-1][1])
    assert body["history"] == [{"value": v.name, "remoteness": r} for v, r in history]
    best = {m.label for m in solved_ttt.best_moves(position)}
    expected = [
        {
            "label": m.label,
            "value": m.value.name,
            "remoteness": _remoteness(m.remoteness),
            "score": None,
            "best": m.label in best,
        }
        for m in solved_ttt.move_values(position)
    ]
    assert body["moves"] == expected
    assert body["over"] == (not expected)
    assert body["svg"].startswith("<svg") and body["history_svg"].startswith("<svg")
    assert body["svg"].count('class="move"') == len(expected)


def test_typed_position_and_moves_from_it(client: TestClient) -> None:
    start = "X . .\n. O .\n. . ."
    body = client.get(
        "/api/games/tic-tac-toe/position", params={"position": start, "moves": "c3"}
    ).json()
    assert body["start"] == start
    assert body["position"] == "X . .\n. O .\n. . X"
    assert len(body["history"]) == 2


def test_connect_four_position_with_parameters(client: TestClient) -> None:
    solved = perfectplay.solve(C4)
    text = ". . . .\n. . . .\n. O . .\nX X . ."
    body = client.get(
        "/api/games/connect-four/position", params={"params": "rows=4;cols=4", "position": text}
    ).json()
    position = C4.parse(text)
    assert body["params"] == {"rows": 4, "cols": 4}
    assert body["param_text"] == "rows=4;cols=4"
    assert (body["value"], body["remoteness"]) == (
        solved.value(position).name,
        solved.remoteness(position),
    )
    assert [(m["label"], m["value"]) for m in body["moves"]] == [
        (m.label, m.value.name) for m in solved.move_values(position)
    ]


BAD_REQUESTS = [
    ("/api/games/chess/position", {}, 404, "unknown game 'chess'"),
    ("/api/games/nim/position", {"params": "heaps=x"}, 400, "parameter heaps"),
    ("/api/games/nim/position", {"params": "size=3"}, 404, "no parameter 'size'"),
    ("/api/games/nim/position", {"params": "heaps"}, 400, "KEY=VALUE"),
    ("/api/games/connect-four/position", {"params": "rows=-2"}, 400, "rows"),
    ("/api/games/tic-tac-toe/position", {"moves": "b2,z9"}, 400, "move 2 ('z9') is not legal"),
    ("/api/games/tic-tac-toe/position", {"moves": "b2,b2"}, 400, "not legal"),
    ("/api/games/tic-tac-toe/position", {"position": "XXXXX"}, 400, "9 cells"),
    ("/api/games/tic-tac-toe/position", {"position": "XXX......"}, 400, "X moves first"),
    ("/api/games/tic-tac-toe/position", {"position": "X" * 20_000}, 400, "at most"),
    ("/api/games/tic-tac-toe/position", {"moves": ",".join(["a1"] * 10_001)}, 400, "at most"),
    ("/api/games/nim/position", {"params": "heaps=1,2,3", "position": "5 5 5"}, 400, "5 5 5"),
    ("/api/games/tic-tac-toe/position?moves=a1&moves=b1", None, 400, "at most once"),
    ("/api/databases/none/position", {}, 404, "unknown database 'none'"),
    ("/api/nothing", {}, 404, "Not Found"),
]


@pytest.mark.parametrize(("path", "params", "status", "words"), BAD_REQUESTS)
def test_bad_requests_answer_4xx_json_naming_the_problem(
    client: TestClient, path: str, params: dict[str, str] | None, status: int, words: str
) -> None:
    answer = client.get(path, params=params)
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/json"
    assert words in answer.json()["error"]


def test_wrong_method_is_a_json_405(client: TestClient) -> None:
    answer = client.post("/api/games")
    assert answer.status_code == 405
    assert "Method Not Allowed" in answer.json()["error"]


@given(
    game=st.sampled_from([*SMALL, None]),
    params=st.none() | st.text(max_size=20),
    position=st.none() | st.text(max_size=40),
    moves=st.text(max_size=30),
)
def test_no_request_gives_a_500(
    client: TestClient, game: Any, params: str | None, position: str | None, moves: str
) -> None:
    name = "x" if game is None else game.info.name
    if params is None and game is not None:
        params = ";".join(
            f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}"
            for k, v in game.info.params.items()
        )
    query = {"params": params or "", "moves": moves}
    if position is not None:
        query["position"] = position
    answer = client.get(f"/api/games/{name}/position", params=query)
    # 503: random parameters started other solves, and the solver has its limit of them.
    assert answer.status_code in (200, 202, 400, 404, 413, 503), answer.text
    if answer.status_code == 503:
        assert answer.json()["busy"] is True and "Retry-After" in answer.headers
    elif answer.status_code >= 400:
        assert set(answer.json()) == {"error"}


def test_games_are_solved_on_first_use_and_the_page_polls() -> None:
    """The first request starts the solve and answers 202; later ones the position."""
    cache = SolutionCache()
    with TestClient(create_app(cache=cache)) as client:
        first = client.get("/api/games/subtraction/position", params={"params": "heap=30"})
        cache.wait(load_game("subtraction", heap=30))
        second = client.get("/api/games/subtraction/position", params={"params": "heap=30"})
    cache.close()
    assert first.status_code in (200, 202)  # 200 only if the solve won the race
    if first.status_code == 202:
        status = first.json()
        assert status["solving"] is True and status["game"] == "subtraction"
        assert status["elapsed"] >= 0
    assert second.status_code == 200 and second.json()["position"] == "30"


def test_a_game_too_large_is_refused_with_413() -> None:
    cache = SolutionCache(max_positions=100)
    with TestClient(create_app(cache=cache)) as client:
        with pytest.raises(perfectplay.TooLargeError):
            cache.wait(TTT)
        answer = client.get("/api/games/tic-tac-toe/position")
    cache.close()
    assert answer.status_code == 413
    assert "max_positions" in answer.json()["error"]


def test_a_game_beyond_its_bound_is_refused_at_once_with_its_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Quixo 5's position bound exceeds the limit: 413 on the first request, no solve started."""
    _no_solving(monkeypatch)
    cache = SolutionCache()
    with TestClient(create_app(cache=cache)) as client:
        answers = [
            client.get("/api/games/quixo/position", params={"params": "size=5"}) for _ in range(2)
        ]
    cache.close()
    for answer in answers:
        assert answer.status_code == 413
        error = answer.json()["error"]
        assert "1,694,577,218,886 reachable positions" in error
        assert "TiB of memory" in error and "20,000,000" in error


LATE = "2252576253462244111563365343671351441"  # Connect Four 6x7, 37 plies: 4 to the end
C4_BIG = load_game("connect-four", rows=6, cols=7)


def _poll(client: TestClient, url: str, params: dict[str, str], seconds: float = 120) -> Any:
    """GET until the answer is not a 202 (a solve or a search under way)."""
    deadline = time.monotonic() + seconds
    while (answer := client.get(url, params=params)).status_code == 202:
        assert time.monotonic() < deadline, answer.json()
        time.sleep(0.05)
    return answer


def test_a_game_too_large_to_solve_with_a_compiled_search_is_served_by_search() -> None:
    """Connect Four 6x7: its solve is refused (no 413), each position is searched instead:
    202 with "thinking" while the search runs, then the search engine's values."""
    from perfectplay.search import search

    cache = SolutionCache()
    params = {"params": "rows=6;cols=7", "position": LATE}
    url = "/api/games/connect-four/position"
    with TestClient(create_app(cache=cache)) as client:
        first = client.get(url, params=params)
        answer = _poll(client, url, params)
        best = answer.json()["moves"][0]
        after = _poll(client, url, {**params, "moves": best["label"]})
    cache.close()
    assert first.status_code in (200, 202)  # 202 unless the search process started at once
    if first.status_code == 202:
        status = first.json()
        assert status["thinking"] is True and status["game"] == "connect-four"
        assert status["elapsed"] >= 0 and status["running"] is True
    assert answer.status_code == 200, answer.text
    body = answer.json()
    found = search(C4_BIG, C4_BIG.parse(LATE), all_moves=True)
    assert (body["value"], body["remoteness"]) == (found.value.name, found.remoteness)
    assert [(m["label"], m["value"], m["remoteness"]) for m in body["moves"]] == [
        (m.label, m.value.name, m.remoteness) for m in found.moves
    ]
    assert [m["label"] for m in body["moves"] if m["best"]] == list(found.best_moves)
    assert body["history_from"] == 0 and len(body["history"]) == 1
    # the history goes back to the first position whose value is known: the one searched
    flipped = {"WIN": "LOSE", "LOSE": "WIN", "TIE": "TIE"}[best["value"]]
    assert after.json()["history"] == [
        {"value": found.value.name, "remoteness": found.remoteness},
        {"value": flipped, "remoteness": best["remoteness"] - 1},
    ]


def test_requests_during_a_long_search_answer_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search of far more than the test (6x7, one ply in) runs in its own process: the game
    list, a solved game, the same game's other positions and another board served by search
    all answer at once meanwhile (202 for the position waiting its turn), and the other
    board's search (a second search slot) ends while the long one still runs. The long search
    is not abandoned for going unasked while the test's requests run (a loaded machine took
    longer than ABANDON_AFTER between two of them)."""
    from perfectplay.search import search

    monkeypatch.setattr("perfectplay.search.service.ABANDON_AFTER", 3600.0)
    cache = SolutionCache(max_positions=200_000)
    cache.wait(TTT)
    url = "/api/games/connect-four/position"
    big = {"params": "rows=6;cols=7"}
    long = {**big, "position": "4"}
    small = {"params": "rows=4;cols=5", "position": "112233"}
    with TestClient(create_app(cache=cache)) as client:
        deadline = time.monotonic() + 60
        while not (started := client.get(url, params=long).json()).get("elapsed", 0) >= 1.0:
            assert started.get("thinking") and time.monotonic() < deadline, started
            time.sleep(0.05)
        timed = []
        for path, params in [
            ("/api/games", {}),
            ("/api/games/tic-tac-toe/position", {"moves": "b2"}),
            (url, {**big, "position": LATE}),
            (url, long),
            (url, small),
        ]:
            start = time.monotonic()
            answer = client.get(path, params=params)
            timed.append((answer.status_code, time.monotonic() - start, answer.json()))
        other = _poll(client, url, small, seconds=30)
        still = client.get(url, params=long)
    cache.close()  # ends the search processes
    assert [code for code, _, _ in timed[:4]] == [200, 200, 202, 202]
    assert timed[4][0] in (200, 202)  # 202 while its own search process starts
    assert max(seconds for _, seconds, _ in timed) < 1.0, timed
    waiting, running = timed[2][2], timed[3][2]
    assert waiting["thinking"] and not waiting["running"]  # one search per game at a time
    assert running["thinking"] and running["running"] and running["elapsed"] >= 1.0
    # each 202 carries the position and its board, no move valued, the size of a valued one
    found = search(C4_BIG, C4_BIG.parse(LATE), all_moves=True)
    valued = position_svg(C4_BIG, C4_BIG.parse(LATE), found.moves)
    for status, text in [(waiting, LATE), (running, "4")]:
        assert C4_BIG.parse(status["position"]) == C4_BIG.parse(text)
        assert status["svg"].count("data-move=") == 0
        assert status["svg"].split(">")[0] == valued.split(">")[0]  # the same width, height
    assert other.status_code == 200 and other.json()["value"] == "WIN"
    assert still.status_code == 202 and still.json()["running"]


def test_the_202_says_running_while_its_own_solve_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_app, "FIRST_WAIT", 0.0)
    cache = SolutionCache()
    query = {"params": "heap=100000"}  # about a second of solving
    with TestClient(create_app(cache=cache)) as client:
        first = client.get("/api/games/subtraction/position", params=query)
        cache.wait(load_game("subtraction", heap=100_000))
    cache.close()
    assert first.status_code == 202
    assert first.json()["running"] is True  # nothing else is solved first


@pytest.mark.parametrize(
    ("params", "status"),
    [
        (None, 200),
        ("", 200),
        (" ", 200),
        ("heap=20", 200),
        ("heap=20;take=1,2,3", 200),
        ("heap=21", 400),
        ("take=1,2", 400),
        ("rows=4", 404),
    ],
)
def test_database_params_are_refused_unless_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, params: str | None, status: int
) -> None:
    path = tmp_path / "subtraction.ppstore"
    perfectplay.save(path, perfectplay.solve(load_game("subtraction")))
    _no_solving(monkeypatch)
    db = open_database("sub", str(path))
    query = {} if params is None else {"params": params}
    with TestClient(create_app([db])) as client:
        answer = client.get("/api/databases/sub/position", params=query)
    db.source.close()
    assert answer.status_code == status, answer.text
    if status == 400:
        error = answer.json()["error"]
        assert error == (
            f"params={params!r}: database 'sub' holds subtraction with "
            "params='heap=20;take=1,2,3', which are fixed; leave params out"
        )


def _no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the web app solved a game it was given as a database")

    monkeypatch.setattr("perfectplay.web.solutions.solve", refuse)


def test_a_database_is_served_without_solving(
    tmp_path: Path, solved_ttt: perfectplay.GameSolution[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ttt.ppstore"
    perfectplay.save(path, solved_ttt)
    _no_solving(monkeypatch)
    db = open_database("ttt", str(path))
    with TestClient(create_app([db])) as client:
        listing = client.get("/api/games").json()["databases"]
        body = client.get("/api/databases/ttt/position", params={"moves": "a1,b2"}).json()
        bad = client.get("/api/databases/ttt/position", params={"moves": "a1,a1"})
    db.source.close()
    assert listing == [
        {
            "id": "ttt",
            "file": "ttt.ppstore",
            "game": "tic-tac-toe",
            "params": {},
            "positions": len(solved_ttt),
        }
    ]
    position = "X...O...."
    assert body["database"] == "ttt"
    assert body["position"] == TTT.render(position)
    assert (body["value"], body["remoteness"]) == (
        solved_ttt.value(position).name,
        solved_ttt.remoteness(position),
    )
    assert [(m["label"], m["value"], m["remoteness"]) for m in body["moves"]] == [
        (m.label, m.value.name, m.remoteness) for m in solved_ttt.move_values(position)
    ]
    assert bad.status_code == 400


def test_a_tier_directory_is_served_without_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "c4"
    args = ["solve", "connect-four", "--param", "rows=4", "--param", "cols=4"]
    assert run_cli([*args, "--tiers", str(directory)]).code == 0
    solved = perfectplay.solve(C4)
    _no_solving(monkeypatch)
    db = open_database("c4", str(directory))
    with TestClient(create_app([db])) as client:
        listing = client.get("/api/games").json()["databases"]
        answers = [
            client.get("/api/databases/c4/position", params={"moves": moves}).json()
            for moves in ("", "a,b,a", "b,b,b,b")
        ]
    db.source.close()
    assert [(d["id"], d["file"], d["game"], d["params"]) for d in listing] == [
        ("c4", "c4", "connect-four", {"rows": 4, "cols": 4})
    ]
    assert listing[0]["positions"] > len(solved) // 2  # mirror images stored once
    for body in answers:
        position = C4.parse(body["position"])
        assert (body["value"], body["remoteness"]) == (
            solved.value(position).name,
            solved.remoteness(position),
        )
        assert [(m["label"], m["value"], m["remoteness"]) for m in body["moves"]] == [
            (m.label, m.value.name, m.remoteness) for m in solved.move_values(position)
        ]


def test_a_graph_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "graph.ppstore"
    perfectplay.save(path, perfectplay.solve([(0, 1)]))
    with pytest.raises(perfectplay.StoreError, match="holds a game graph"):
        open_database("g", str(path))


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/", "text/html"),
        ("/games/tic-tac-toe", "text/html"),
        ("/databases/any", "text/html"),
        ("/static/game.js", "javascript"),
        ("/static/gallery.js", "javascript"),
        ("/static/style.css", "text/css"),
    ],
)
def test_pages_and_their_files_are_served(client: TestClient, path: str, kind: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert kind in answer.headers["content-type"]


def test_database_ids_are_unique_url_names() -> None:
    ids = database_ids(["x/a b.ppstore", "y/a b.ppstore", "z/a-b.db", "%%%.db"])
    assert ids == ["a-b", "a-b-2", "a-b-3", "db"]


def test_param_text_reads_what_the_command_line_reads() -> None:
    assert parse_param_text("subtraction", "heap=9; take=1,4") == {"heap": 9, "take": (1, 4)}
    assert parse_param_text("nim", "") == {}


def test_a_game_beyond_the_solver_limit_answers_503_and_starts_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web_app, "FIRST_WAIT", 0.0)
    cache = SolutionCache(max_solves=1)
    busy = load_game("subtraction", heap=100_000)  # about a second of solving
    with TestClient(create_app(cache=cache)) as client:
        first = client.get("/api/games/subtraction/position", params={"params": "heap=100000"})
        assert first.status_code == 202
        refused = [
            client.get("/api/games/nim/position", params={"params": f"heaps={k}"})
            for k in (1, 2, 3)
        ]
        again = client.get("/api/games/subtraction/position", params={"params": "heap=100000"})
        cache.wait(busy, timeout=60)
        cache.wait(load_game("nim", heaps=[2]), timeout=60)  # its turn now
        served = client.get("/api/games/nim/position", params={"params": "heaps=2"})
    cache.close()
    assert again.status_code in (200, 202)  # the game being solved is never refused
    for answer in refused:
        if answer.status_code != 503:  # the solve ended in between: served as usual
            assert answer.status_code == 200
            continue
        assert answer.headers["Retry-After"] == "5"
        body = answer.json()
        solving, asked = "subtraction heap=100000 take=1,2,3", body["game"]
        assert asked.startswith("nim heaps=")
        assert body == {
            "error": f"the server is already solving 1 game, its limit ({solving}): {asked} is "
            "not solved now; ask again in 5 s",
            "busy": True,
            "game": asked,
            "solving": [solving],
            "limit": 1,
        }
    assert any(answer.status_code == 503 for answer in refused), "the solve ended too soon"
    assert served.status_code == 200 and served.json()["value"] == "WIN"


class _Kayles(perfectplay.Game[str]):
    """Kayles: knock down one pin or two adjacent ones (a game of one's own, not registered)."""

    def __init__(self, pins: int = 5) -> None:
        self.info = perfectplay.GameInfo("kayles", {"pins": pins}, impartial=True)
        self.pins = pins

    def initial(self) -> str:
        return "I" * self.pins

    def moves(self, row: str) -> list[tuple[str, str]]:
        ones = [(f"{i}", row[:i] + "." + row[i + 1 :]) for i, c in enumerate(row) if c == "I"]
        twos = [
            (f"{i}{i + 1}", row[:i] + ".." + row[i + 2 :])
            for i in range(len(row) - 1)
            if row[i : i + 2] == "II"
        ]
        return ones + twos

    def outcome(self, row: str) -> perfectplay.Value | None:
        return None

    def parse(self, text: str) -> str:
        return text.strip()


def test_a_game_of_ones_own_is_listed_and_served_with_its_parameters_only() -> None:
    """``serve --game kayles:Kayles --param pins=8``: the page the command prints answers."""
    game = _Kayles(8)
    with TestClient(create_app(games=[game])) as client:
        listed = client.get("/api/games").json()["games"]
        url = "/api/games/kayles/position"
        answer = _poll(client, url, {"params": "pins=8", "position": "II.IIIII"})
        start = _poll(client, url, {})
        other = client.get(url, params={"params": "pins=7"})
    assert listed[0]["name"] == "kayles" and listed[0]["params"] == []
    assert "test_app:_Kayles; parameters pins=8" in listed[0]["description"]
    assert "tic-tac-toe" in [g["name"] for g in listed]
    solved = perfectplay.solve(game)
    assert answer.status_code == 200 and answer.json()["value"] == solved.value("II.IIIII").name
    assert start.json()["value"] == "WIN"  # Kayles: the first player wins every row (symmetry)
    assert other.status_code == 400 and "pins=8" in other.json()["error"]
