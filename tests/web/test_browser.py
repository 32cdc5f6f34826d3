"""The web pages in headless Chromium (Playwright): the gallery of games, a whole tic-tac-toe game
against perfect play by clicking moves, colours and values checked against the solver, undo
and redo, a typed position, a Connect Four position. Screenshots go to
``$PERFECTPLAY_SCREENSHOTS`` (default: pytest's temporary directory)."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from web_helpers import Server, running_server

import perfectplay
from perfectplay.draw import PALETTE
from perfectplay.games.registry import game_entry, game_names, load_game

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"browser tests need Chromium at {CHROMIUM} (Debian: apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need playwright (pip install playwright)"
)
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 30_000
SOLVE_TIMEOUT_MS = 300_000  # a first solve may compile numba kernels on a cold cache
TTT = load_game("tic-tac-toe")
C4 = load_game("connect-four", rows=4, cols=4)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with tic-tac-toe solved (Connect Four is solved when its page first asks) and
    a tic-tac-toe database."""
    database = tmp_path_factory.mktemp("db") / "ttt.ppstore"
    perfectplay.save(database, perfectplay.solve(TTT))
    with running_server("tic-tac-toe", str(database)) as server:
        deadline = time.monotonic() + SOLVE_TIMEOUT_MS / 1000
        while httpx.get(f"{server.url}api/games/tic-tac-toe/position").status_code == 202:
            assert time.monotonic() < deadline, "tic-tac-toe was not solved in time"
            time.sleep(0.05)
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == []


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("PERFECTPLAY_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _screenshot(page: Any, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000  # a real picture, not an empty page


@pytest.fixture(scope="module")
def ttt() -> perfectplay.GameSolution[Any]:
    return perfectplay.solve(TTT)


def _rgb(colour: str) -> str:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def _wait_turn(page: Any, ply: int) -> str:
    """Wait until the page shows ply `ply` to a person (or the game over); the turn shown."""
    status = page.wait_for_selector(
        f'#status[data-ply="{ply}"]:is([data-turn="human"], [data-turn="over"])'
    )
    return str(status.get_attribute("data-turn"))


def _check_controls(page: Any, solved: Any, position: Any) -> None:
    """Every legal-move control (board mark and button) shows the solver's value and colour."""
    expected = {m.label: (m.value.name, str(m.remoteness)) for m in solved.move_values(position)}
    controls = page.eval_on_selector_all(
        "#board [data-move], #moves [data-move]",
        """els => els.map(e => ({
            where: e.closest('#board') ? 'board' : 'buttons',
            move: e.dataset.move, value: e.dataset.value, remoteness: e.dataset.remoteness,
            background: getComputedStyle(e).backgroundColor,
            fills: [...e.querySelectorAll('[fill]')].map(f => f.getAttribute('fill')),
        }))""",
    )
    for where in ("board", "buttons"):
        shown = {c["move"]: (c["value"], c["remoteness"]) for c in controls if c["where"] == where}
        assert shown == expected, where
    for control in controls:
        colour = PALETTE[control["value"]]
        if control["where"] == "buttons":
            assert control["background"] == _rgb(colour)
        else:
            assert colour in control["fills"]


def _position(page: Any, game: Any) -> Any:
    return game.parse(page.input_value("#position-text"))


def _card(page: Any, name: str, where: str = "#games") -> dict[str, Any]:
    """What the front page's card of `name` shows."""
    card: dict[str, Any] = page.eval_on_selector(
        f'{where} a.card[data-game="{name}"]',
        """a => ({
            state: a.dataset.state, href: a.getAttribute('href'),
            pictures: a.querySelectorAll('.card-picture svg, .card-picture img').length,
            value: a.querySelector('.card-value')?.dataset.value ?? null,
            valueText: a.querySelector('.card-value')?.textContent ?? null,
            text: a.textContent,
        })""",
    )
    return card


def test_the_gallery_shows_every_game_at_its_start_with_what_is_known(
    page: Any, server: Server, ttt: Any, shots: Path
) -> None:
    began = time.monotonic()
    page.goto(server.url)
    page.wait_for_selector("#games[aria-busy=false]")
    shown = time.monotonic() - began
    names = page.eval_on_selector_all("#games a.card", "as => as.map(a => a.dataset.game)")
    assert names == game_names()
    assert all(_card(page, name)["pictures"] == 1 for name in names)
    assert shown < 10, f"the cards took {shown:.1f} s to show"
    # tic-tac-toe: the value read from the database the server was given
    card = _card(page, "tic-tac-toe")
    assert card["state"] == "solved" and card["href"] == "/databases/ttt"
    assert card["value"] == ttt.value(TTT.initial()).name
    assert card["valueText"].startswith(f"{card['value']} for X, the player to move")
    # a game too large to solve here: its size estimate and how to solve it, no value
    tiered = game_entry("dobutsu").build({}, tiered=True)
    ranks = sum(tiered.tier_size(t) for t in tiered.tiers())
    card = _card(page, "dobutsu")
    assert card["state"] == "not-solved" and card["value"] is None
    assert f"up to {ranks:,} positions" in card["text"]
    assert "not solved here" in card["text"]
    assert "perfectplay solve dobutsu --tiers DIR" in card["text"]
    assert _card(page, "tic-tac-toe", "#databases")["pictures"] == 1
    # a small game solved by the server on viewing: the solver's value
    nim = load_game("nim")
    page.wait_for_selector(
        '#games a.card[data-game="nim"][data-state="solved"]', timeout=SOLVE_TIMEOUT_MS
    )
    found = perfectplay.solve(nim, progress=False).probe(nim.initial())
    card = _card(page, "nim")
    assert card["value"] == found.value.name
    assert card["valueText"] == (
        f"{found.value.name} for the player to move, {found.remoteness} moves to the end"
    )
    _screenshot(page, shots / "gallery.png")


def test_a_card_opens_its_games_page_at_the_start_with_moves(page: Any, server: Server) -> None:
    nim = load_game("nim")
    solved = perfectplay.solve(nim, progress=False)
    page.goto(server.url)
    page.click('#games a.card[data-game="nim"]')
    page.wait_for_selector("#moves button[data-move]", timeout=SOLVE_TIMEOUT_MS)
    assert page.url == f"{server.url}games/nim?params=heaps%3D3%2C4%2C5"
    assert _wait_turn(page, 0) == "human"
    assert _position(page, nim) == nim.initial()
    _check_controls(page, solved, nim.initial())


def test_a_whole_game_against_perfect_play_by_clicking_moves(
    page: Any, server: Server, ttt: Any, shots: Path
) -> None:
    rng = random.Random(11)
    page.goto(f"{server.url}games/tic-tac-toe")
    ply, played = 0, []
    while _wait_turn(page, ply) == "human":
        position = _position(page, TTT)
        _check_controls(page, ttt, position)
        move = rng.choice(ttt.move_values(position))
        page.click(f'#board [data-move="{move.label}"]')
        played.append(move.label)
        ply += 2  # the computer replies at once
        if ply == 2:
            page.wait_for_selector('#status[data-ply="2"]')
            _screenshot(page, shots / "tic-tac-toe-playing.png")
        if ttt.is_over(move.position):
            ply -= 1
    _screenshot(page, shots / "tic-tac-toe-over.png")
    final = _position(page, TTT)
    assert ttt.is_over(final)
    assert page.eval_on_selector_all("[data-move]", "els => els.length") == 0
    # the human plays X: X to move at the end means the computer made the last move
    human_to_move = final.count("X") == final.count("O")
    won = (ttt.value(final).name == "WIN") == human_to_move
    said = {"TIE": "a tie"}.get(ttt.value(final).name, "you won" if won else "you lost")
    assert page.text_content("#status") == f"Game over: {said}."
    labels = re.search(r"moves=([^&]*)", page.url)
    assert labels is not None
    line = labels.group(1).replace("%2C", ",").split(",")
    position = TTT.initial()
    for k, label in enumerate(line):
        if k % 2 == 1:  # the computer's moves are optimal
            assert label in {m.label for m in ttt.best_moves(position)}
        else:
            assert label == played[k // 2]
        position = next(m.position for m in ttt.move_values(position) if m.label == label)
    assert position == final
    history = page.eval_on_selector_all("#history svg", "els => els.length")
    assert history == 1


def test_undo_redo_and_restart(page: Any, server: Server, ttt: Any) -> None:
    page.goto(f"{server.url}games/tic-tac-toe")
    _wait_turn(page, 0)
    page.click('#moves [data-move="a1"]')
    _wait_turn(page, 2)
    after_reply = _position(page, TTT)
    page.click("#undo")
    _wait_turn(page, 0)
    assert _position(page, TTT) == TTT.initial()
    _check_controls(page, ttt, TTT.initial())
    page.click("#redo")
    _wait_turn(page, 2)
    assert _position(page, TTT) == after_reply
    page.click("#restart")
    _wait_turn(page, 0)
    assert _position(page, TTT) == TTT.initial()
    assert page.is_disabled("#redo") and page.is_disabled("#undo")


def test_explore_both_sides_by_hand(page: Any, server: Server, ttt: Any) -> None:
    page.goto(f"{server.url}games/tic-tac-toe?side=explore")
    for ply, label in enumerate(["b2", "a1", "c3"]):
        _wait_turn(page, ply)
        page.click(f'#board [data-move="{label}"]')
    _wait_turn(page, 3)
    position = _position(page, TTT)
    assert position == "O...X...X"
    _check_controls(page, ttt, position)
    page.click("#undo")
    _wait_turn(page, 2)
    assert _position(page, TTT) == "O...X...."


def test_a_typed_position(page: Any, server: Server, ttt: Any, shots: Path) -> None:
    page.goto(f"{server.url}games/tic-tac-toe")
    _wait_turn(page, 0)
    page.fill("#position-text", "X . X\n. O .\n. . .")
    page.click("#position-start")
    # the typed text is in the box at once; the new moves (a1 is taken) come with the answer
    page.wait_for_function("document.querySelector('#moves [data-move=\"a1\"]') === null")
    _wait_turn(page, 0)
    _check_controls(page, ttt, "X.X.O....")
    assert page.get_attribute('#moves [data-move="b1"]', "data-value") == "TIE"
    assert page.get_attribute('#moves [data-move="c3"]', "data-value") == "LOSE"
    page.fill("#position-text", "X X X\n. . .\n. . .")
    page.click("#position-start")
    error = page.wait_for_selector("#position-form #position-error:not([hidden])")  # beside it
    assert "X must have as many marks as O" in error.text_content()
    assert page.is_hidden("#error")
    _screenshot(page, shots / "tic-tac-toe-typed-error.png")
    assert page.input_value("#position-text") == "X X X\n. . .\n. . ."  # kept, to correct
    assert page.get_attribute('#moves [data-move="b1"]', "data-value") == "TIE"  # board kept


def test_a_connect_four_position(page: Any, server: Server, shots: Path) -> None:
    page.goto(f"{server.url}games/connect-four?params=rows%3D4%3Bcols%3D4")
    page.wait_for_selector('#status[data-turn="human"]', timeout=SOLVE_TIMEOUT_MS)
    solved = perfectplay.solve(C4)
    text = ". . . .\n. . . .\n. O . .\nX X . ."
    page.fill("#position-text", text)
    page.click("#position-start")
    # the typed text and ply 0 are there before the answer; the address changes with it
    page.wait_for_function("new URLSearchParams(location.search).has('position')")
    _wait_turn(page, 0)
    position = C4.parse(text)
    _check_controls(page, solved, position)
    _screenshot(page, shots / "connect-four.png")
    best = solved.best_moves(position)[0].label
    page.click(f'#moves [data-move="{best}"]')
    _wait_turn(page, 2)
    assert page.text_content("#title") == "connect-four (rows=4, cols=4)"


def test_a_cold_deep_link_shows_its_position_once_solved(browser: Any, shots: Path) -> None:
    """A fresh server, a game it has not solved, moves in the address: the page keeps them
    while the game is solved (the address too), then shows the position they reach."""
    heap = 300_000  # a few seconds of solving: the page polls
    game = load_game("subtraction", heap=heap)
    address = f"games/subtraction?params=heap%3D{heap}&moves=2,3"
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    with running_server() as server:
        page.goto(f"{server.url}{address}")
        page.wait_for_selector("#progress:not([hidden])")
        assert page.get_attribute("#status", "data-turn") == "solving"
        assert page.get_attribute("#status", "data-ply") == "2"
        assert "waiting for another game" not in page.text_content("#progress-text")
        _screenshot(page, shots / "subtraction-solving.png")
        page.wait_for_selector('#status[data-ply="2"][data-turn="human"]', timeout=SOLVE_TIMEOUT_MS)
        assert parse_qs(urlsplit(page.url).query) == {"params": [f"heap={heap}"], "moves": ["2,3"]}
        assert _position(page, game) == heap - 5
        assert page.is_hidden("#error") and page.is_hidden("#progress")
        _check_controls(page, perfectplay.solve(game), heap - 5)
    page.close()


def test_a_game_too_big_to_solve_is_refused_at_once_with_its_estimate(
    page: Any, server: Server
) -> None:
    page.goto(f"{server.url}games/quixo?params=size%3D5")
    page.wait_for_selector('#status[data-turn="error"]')
    assert page.is_hidden("#progress")  # never "solving": 413 at once
    error = page.text_content("#error")
    assert "quixo may have up to 1,694,577,218,886 reachable positions" in error
    assert "TiB of memory" in error


def test_an_address_with_an_illegal_move_shows_the_start_and_why(
    page: Any, server: Server, ttt: Any
) -> None:
    page.goto(f"{server.url}games/tic-tac-toe?moves=b2,b2")
    _wait_turn(page, 0)
    assert _position(page, TTT) == TTT.initial()
    _check_controls(page, ttt, TTT.initial())
    error = page.text_content("#error")
    assert "move 2 ('b2') is not legal" in error and "showing the start position" in error


def test_the_computer_moves_on_request_or_first(page: Any, server: Server, ttt: Any) -> None:
    page.goto(f"{server.url}games/tic-tac-toe")
    _wait_turn(page, 0)
    page.uncheck("#auto")
    page.click('#board [data-move="a1"]')
    page.wait_for_selector('#status[data-ply="1"][data-turn="computer"]')
    page.wait_for_timeout(500)  # no reply comes by itself
    assert page.get_attribute("#status", "data-ply") == "1"
    page.click("#computer")
    _wait_turn(page, 2)
    reply = _position(page, TTT)
    assert reply in {m.position for m in ttt.best_moves("X........")}
    page.goto(f"{server.url}games/tic-tac-toe?side=second")
    _wait_turn(page, 1)  # the computer opened
    assert _position(page, TTT) in {m.position for m in ttt.best_moves(TTT.initial())}


def test_a_database_page(page: Any, server: Server, ttt: Any) -> None:
    page.goto(server.url)
    page.click('#databases a.card[data-game="tic-tac-toe"]')
    assert page.url == f"{server.url}databases/ttt"
    _wait_turn(page, 0)
    assert "served without solving" in page.text_content("#description")
    page.click('#board [data-move="b2"]')
    _wait_turn(page, 2)
    _check_controls(page, ttt, _position(page, TTT))


def test_parameters_are_changed_in_the_form(page: Any, server: Server) -> None:
    page.goto(f"{server.url}games/nim")
    _wait_turn(page, 0)
    assert _position(page, load_game("nim")) == (3, 4, 5)
    page.fill('#params-form input[name="heaps"]', "1,2")
    page.click("#params-form button")
    page.wait_for_function("document.querySelector('#position-text').value === '1 2'")
    assert page.text_content("#title") == "nim (heaps=1,2)"
    nim = perfectplay.solve(load_game("nim", heaps=(1, 2)))
    _check_controls(page, nim, (1, 2))
    assert "params=heaps%3D1%2C2" in page.url


def test_a_game_too_large_to_solve_is_played_by_search(browser: Any, shots: Path) -> None:
    """Connect Four 6x7 from a link with 37 moves: the page says it is thinking (the seconds
    elapsed) while the server searches, then the computer plays a best move and the person's
    moves are coloured by their values, as the search engine finds them."""
    from perfectplay.search.service import SearchedGame

    game = load_game("connect-four", rows=6, cols=7)
    late = "2252576253462244111563365343671351441"  # 37 plies: the computer to move
    letters = ",".join(chr(ord("a") + int(d) - 1) for d in late)
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    # Every state the status line takes, with the progress text shown then: the thinking
    # state lasts as long as the search (a fraction of a second on an idle machine).
    page.add_init_script(
        """new MutationObserver(() => {
             const status = document.getElementById("status");
             const text = document.getElementById("progress-text");
             const progress = document.getElementById("progress");
             if (!status) return;
             window.seen = window.seen || [];
             window.seen.push([status.dataset.turn, progress && !progress.hidden,
                               text ? text.textContent : ""]);
           }).observe(document, {subtree: true, attributes: true, childList: true,
                                 characterData: true});"""
    )
    with running_server() as server, SearchedGame(game) as searched:
        page.goto(f"{server.url}games/connect-four?params=rows%3D6%3Bcols%3D7&moves={letters}")
        _wait_turn(page, 38)
        thinking = [s for s in page.evaluate("window.seen") if s[0] == "thinking"]
        assert thinking and all(visible for _, visible, _ in thinking)
        assert any(text.startswith("Thinking: searching this position") for *_, text in thinking)
        reply = _position(page, game)
        assert reply in {m.position for m in searched.best_moves(game.parse(late))}
        _check_controls(page, searched, reply)
        assert page.is_hidden("#progress") and page.is_hidden("#error")
        _screenshot(page, shots / "connect-four-6x7.png")
    page.close()


def test_the_board_stays_while_the_first_search_runs(browser: Any, shots: Path) -> None:
    """Connect Four 6x7 eight plies in, opened from a link on a fresh server: while the
    position is searched (seconds: the search process starts, then searches), the board of
    the position is shown, without values, as large as it is drawn once its moves are
    valued; so nothing below it jumps when the answer comes."""
    early = "bbebegfb"  # 8 plies: a search of seconds
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    # The board at every change of the page: the turn shown, its size, stones, move marks.
    page.add_init_script(
        """new MutationObserver(() => {
             const status = document.getElementById("status");
             const board = document.getElementById("board");
             if (!status || !board) return;
             const box = board.getBoundingClientRect();
             window.boards = window.boards || [];
             window.boards.push([status.dataset.turn, box.width, box.height,
                                 board.querySelectorAll("svg").length,
                                 board.querySelectorAll("[data-move]").length,
                                 board.querySelectorAll('circle[stroke-width="2"]').length]);
           }).observe(document, {subtree: true, attributes: true, childList: true,
                                 characterData: true});"""
    )
    with running_server() as server:
        moves = ",".join(early)
        page.goto(f"{server.url}games/connect-four?params=rows%3D6%3Bcols%3D7&moves={moves}")
        page.wait_for_selector('#status[data-turn="thinking"]')
        _screenshot(page, shots / "connect-four-6x7-thinking.png")
        _wait_turn(page, 8)
        seen = page.evaluate("window.boards")
        shown = page.eval_on_selector("#board", "b => [b.clientWidth, b.clientHeight]")
    page.close()
    thinking = [s for s in seen if s[0] == "thinking"]
    assert thinking
    done = seen[-1]
    assert done[0] == "human" and done[4] == 7  # every column's drop valued
    assert [done[1], done[2]] == pytest.approx(shown, abs=1)
    for _, width, height, svgs, marks, stones in thinking:
        assert svgs == 1 and marks == 0 and stones == len(early)  # the position, no values
        assert (width, height) == (done[1], done[2])
