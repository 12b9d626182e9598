"""Practice on the served board in a real browser (headless Chromium, tests/browser.py): a
puzzle is a puzzle (its goal shown, its answer hidden until asked, a play that loses the goal
told at once, the right plays reaching the goal against catbox's defence), a puzzle loaded on
the board opens as one, and screenshots at desktop and phone size (390x844) with no sideways
scrolling. The page loads nothing but the server's own files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from catbox.solver import formats
from catbox.solver.estimates.policy import credit_note, hazard_at
from catbox.solver.game import Game
from catbox.solver.puzzle import Puzzle
from catbox.solver.shapes import game_score_json
from catbox.solver.solve import keeping_plays, solve_goal

from .browser import chromium, open_page
from .webserver import Served

# the quick lane leaves these out (tests/conftest.py): each needs a real server and a browser
pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
#: Where the screenshots go (looked at by whoever runs the tests; CATBOX_SHOTS to keep them).
SHOTS = Path(os.environ.get("CATBOX_SHOTS", "/tmp/catbox-shots"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    s = Served("--level", "0")
    yield s
    s.stop()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def small_targets(page: Page, scope: str) -> list[str]:
    """The buttons, links and selects in ``scope`` shown smaller than 40 px high."""
    got: list[str] = page.evaluate(
        f"""[...document.querySelectorAll('{scope} button, {scope} a, {scope} select')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 40)
        .map(e => e.id || e.textContent)"""
    )
    return got


def verdict(page: Page, *words: str) -> str:
    cond = " && ".join(f"t.includes({w!r})" for w in words)
    page.wait_for_function(
        "(() => { const t = document.querySelector('#puzzle-verdict').textContent;"
        f" return {cond}; }})()",
        timeout=60_000,
    )
    return page.inner_text("#puzzle-verdict")


def settled(page: Page, seat: str, after: int) -> str:
    """Wait until the page shows a position after more than ``after`` moves where the goal
    seat is to play or the round is over (catbox's replies made); that position (one line)."""
    page.wait_for_function(
        f"Number(document.body.dataset.puzzlePly) > {after} && catboxPuzzle.view &&"
        f" (catboxPuzzle.view.to_play === null || catboxPuzzle.view.to_play === {seat!r})"
        " && !catboxPuzzle.busy",
        timeout=60_000,
    )
    line: str = page.evaluate("catboxPuzzle.plies[catboxPuzzle.plies.length - 1]")
    return line


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_puzzle_played_wrong_is_told_at_once_and_played_right_reaches_its_goal(
    browser: Browser, server: Served, size: str
) -> None:
    puzzle = formats.load(PUZZLES / "the-red-herring.toml")
    assert isinstance(puzzle, Puzzle)
    goal, seat = puzzle.goal, "B"
    with open_page(browser, server.url + "#puzzle=the-red-herring") as (page, refused):
        if size == "phone":
            page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_selector("#puzzle-board svg")
        assert "B makes exactly 5 tricks" in page.inner_text("#puzzle-goal")
        assert page.is_hidden("#puzzle-answer")  # the answer stays hidden until asked
        assert page.evaluate("document.querySelectorAll('#puzzle-board .cell.best').length") == 0
        settled(page, seat, -1)
        shot(page, f"puzzle-start-{size}")
        # the obvious 4R loses the goal: said at once, before catbox replies
        page.click('#puzzle-board [data-cell="4R"]')
        assert "loses the goal" in verdict(page, "4R", "loses")
        settled(page, seat, 0)
        shot(page, f"puzzle-lost-{size}")
        page.click("#puzzle-retry")
        page.wait_for_function(
            "document.body.dataset.puzzlePly === '0' && catboxPuzzle.moves.length === 0"
        )
        line = settled(page, seat, -1)
        # the key, then every later play that keeps the goal, catbox defending in between
        while True:
            pos = formats.position_from_line(line)
            assert solve_goal(pos, goal).solvable
            keep = keeping_plays(pos, goal)
            assert keep
            before = page.evaluate("catboxPuzzle.moves.length")
            page.click(f'#puzzle-plays button[data-play="{keep[0]}"]')
            verdict(page, str(keep[0]), "keeps")
            line = settled(page, seat, before)
            if page.evaluate("catboxPuzzle.view.to_play") is None:
                break
        assert "Goal reached" in verdict(page, "Goal reached")
        page.click("#show-answer")
        page.wait_for_selector("#puzzle-answer p")
        assert "Key: 2G" in page.inner_text("#puzzle-answer")
        shot(page, f"puzzle-solved-{size}")
        no_sideways_scroll(page)
        if size == "phone":
            assert small_targets(page, "#puzzle-view") == []
        assert refused == []


def test_a_puzzle_loaded_on_the_board_opens_as_a_puzzle(browser: Browser, server: Served) -> None:
    text = (PUZZLES / "the-red-herring.toml").read_text(encoding="utf-8")
    with open_page(browser, server.url) as (page, refused):
        page.wait_for_selector("#board svg")
        page.fill("#paste", text)
        page.click("#load")
        page.wait_for_selector("#puzzle-view #puzzle-board svg")
        assert page.get_attribute("body", "data-mode") == "puzzle"
        assert "B makes exactly 5 tricks" in page.inner_text("#puzzle-goal")
        assert page.is_hidden("#puzzle-answer") and page.is_hidden("main.layout")
        assert refused == []


def test_the_collection_and_the_generator_open_puzzles(browser: Browser, server: Served) -> None:
    with open_page(browser, server.url + "#puzzles") as (page, refused):
        page.wait_for_selector("#puzzle-board svg")
        count = page.evaluate("document.querySelectorAll('#puzzle-pick option').length")
        assert count == len(list(PUZZLES.glob("*.toml")))
        first = page.inner_text("#puzzle-title")
        page.click("#puzzle-next")
        page.wait_for_function(
            f"document.querySelector('#puzzle-title').textContent !== {first!r}", timeout=20_000
        )
        page.select_option("#gen-players", "2")
        page.click("#puzzle-generate")
        page.wait_for_function(
            "document.querySelector('#puzzle-title').textContent.includes('generated')",
            timeout=120_000,
        )
        assert page.inner_text("#puzzle-goal").startswith("Goal: ")
        assert refused == []


# ---------------------------------------------------------------------------- whole games
def my_turn_or_end(page: Page, me: str) -> str:
    """Wait until it is ``me``'s turn on the board's round of the game, or the round is over
    (``between`` rounds, or ``over``)."""
    got: str = page.wait_for_function(
        f"""() => {{
          const S = catbox.S, g = document.body.dataset.game;
          if (g === 'between' || g === 'over') return g;
          if (S.view && S.doc === catboxGame.doc && S.view.to_play === {me!r}
              && S.cursor === S.plies.length - 1 && !S.busy) return 'me';
          return false; }}""",
        timeout=120_000,
    ).json_value()
    return got


def tap_cell(page: Page, play: str) -> None:
    """One tap on the cell of ``play``; tapped again if the page was not ready for it."""
    from playwright.sync_api import TimeoutError as Late

    before = page.evaluate("catbox.S.cursor")
    for _ in range(3):
        page.click(f'#board [data-cell="{play}"]')
        try:
            page.wait_for_function(f"catbox.S.cursor > {before}", timeout=10_000)
            return
        except Late:  # the page was busy: tap again
            continue
    raise AssertionError(f"the tap on {play} was not played")


@pytest.mark.parametrize(("players", "size"), [(2, "phone"), (3, "desktop")])
def test_a_whole_game_against_catbox_to_its_totals_and_its_record(
    browser: Browser, server: Served, players: int, size: str
) -> None:
    me = "B"
    with open_page(browser, server.url + "#game") as (page, refused):
        if size == "phone":
            page.set_viewport_size({"width": 390, "height": 844})
        page.select_option("#versus-new [name=players]", str(players))
        page.select_option("#versus-new [name=seat]", me)
        page.fill("#versus-new [name=seed]", "5")
        page.click("#versus-new button[type=submit]")
        for r in range(players):
            page.wait_for_selector(".aside-choice button")
            assert f"Round {r + 1} of {players}" in page.inner_text("#versus-status")
            if r == 0:  # the advisor's ranking on request: every card of the hand
                page.click("#advisor")
                page.wait_for_selector("#advice table")
                cards = page.eval_on_selector_all(".aside-choice button", "bs => bs.length")
                assert page.eval_on_selector_all("#advice tbody tr", "rs => rs.length") >= min(
                    cards, 10
                )
                shot(page, f"game-start-{players}p-{size}")
                no_sideways_scroll(page)
                if size == "phone":
                    assert small_targets(page, "#versus-panel") == []
            page.click(".aside-choice button >> nth=0")
            if players > 2:
                page.wait_for_selector(".prediction-choice button", timeout=120_000)
                page.click(".prediction-choice button >> nth=0")
            page.wait_for_function("document.body.dataset.game === 'round'", timeout=120_000)
            while (state := my_turn_or_end(page, me)) == "me":
                legal = page.evaluate("catbox.S.view.moves.legal")
                tap_cell(page, legal[-1])
                if r == 0 and page.evaluate("catbox.S.cursor") in (4, 5):
                    shot(page, f"game-round-{players}p-{size}")
            page.wait_for_selector("#versus-totals")
            if state == "between":
                page.click("#versus-next")
        assert state == "over" and "Game over" in page.inner_text("#versus-status")
        # catbox's reasons for one of its plays: the ranked candidates, the play made first
        page.wait_for_selector("#reasons-panel:not([hidden])")
        chosen = page.eval_on_selector("#why-move", "s => s.options[s.selectedIndex].text")
        page.click("#why-play")
        page.wait_for_selector("#why-out table")
        best = page.inner_text("#why-out tr.best td:first-child")
        assert chosen.endswith(f" {best}"), (chosen, best)
        # and for its round-start decisions
        page.click(".why-start >> nth=0")
        page.wait_for_selector(".start-reasons table tr.best", timeout=60_000)
        heads = page.eval_on_selector_all(".start-reasons th", "hs => hs.map(h => h.textContent)")
        assert ("ranked by" in heads) == (hazard_at(players) > 0)  # the value beside the score
        notes = " ".join(
            page.eval_on_selector_all(".start-reasons .note", "ns => ns.map(n => n.textContent)")
        )
        note = credit_note(hazard_at(players))  # the library's words, shown as they are
        assert f"Ranked by {note}." in notes if note else "Ranked by" not in notes
        shot(page, f"game-over-{players}p-{size}")
        if size == "desktop":
            no_sideways_scroll(page)
        # the game record replays through the library, and its totals are the page's
        with page.expect_download() as dl:
            page.click("#versus-download")
        path = dl.value.path()
        game = formats.loads(Path(path).read_text(encoding="utf-8"), "toml")
        assert isinstance(game, Game)
        game.validate()
        assert game.complete and len(game.rounds) == players
        shown = page.evaluate("catboxGame.score.game.totals")
        assert game_score_json(game)["game"]["totals"] == shown
        cells = page.eval_on_selector_all(
            "#versus-totals tr.totals td", "ts => ts.slice(1).map(t => Number(t.textContent))"
        )
        assert cells == list(shown.values())
        assert all(rec.position().finished for rec in game.rounds)
        page.click("#versus-review-open")
        page.wait_for_selector(".versus-review-link", timeout=120_000)
        assert page.eval_on_selector_all(".versus-review-link", "ls => ls.length") == players
        page.click("#versus-again")  # and a new game can start
        page.wait_for_selector("#versus-new button[type=submit]")
        assert refused == []


def test_a_game_against_catbox_comes_back_after_a_reload_at_every_step(
    browser: Browser, server: Served
) -> None:
    """A phone at the table reloads: the round start shows the same hand, the round on the
    board comes back at the same ply (the nav marking the game, not the board), and between
    rounds the totals come back with the next round to play."""
    me = "B"
    with open_page(browser, server.url + "#game") as (page, refused):
        page.select_option("#versus-new [name=players]", "3")
        page.select_option("#versus-new [name=seat]", me)
        page.fill("#versus-new [name=seed]", "7")
        page.click("#versus-new button[type=submit]")
        page.wait_for_selector(".aside-choice button")
        hand = page.inner_text(".deal-hand")
        page.reload()
        page.wait_for_selector(".aside-choice button")
        assert page.inner_text(".deal-hand") == hand
        page.click(".aside-choice button >> nth=0")
        page.wait_for_selector(".prediction-choice button", timeout=120_000)
        page.click(".prediction-choice button >> nth=0")
        page.wait_for_function("document.body.dataset.game === 'round'", timeout=120_000)
        for _ in range(2):
            assert my_turn_or_end(page, me) == "me"
            tap_cell(page, page.evaluate("catbox.S.view.moves.legal")[-1])
        assert my_turn_or_end(page, me) == "me"
        plies = page.evaluate("catbox.S.plies")
        assert page.url.endswith("#game")
        page.reload()
        page.wait_for_function(
            "document.body.dataset.game === 'round' && catbox.S.doc === catboxGame.doc"
            " && catbox.S.view !== null",
            timeout=60_000,
        )
        assert page.evaluate("catbox.S.plies") == plies
        assert page.evaluate("catbox.S.cursor") == len(plies) - 1
        assert page.input_value("#players") == "3"  # a new deal from the board: this table's size
        background = "a => getComputedStyle(a).backgroundColor"
        assert page.eval_on_selector("#to-game", background) == "rgb(241, 232, 250)"
        assert page.eval_on_selector("#to-board", background) == "rgba(0, 0, 0, 0)"
        while my_turn_or_end(page, me) == "me":
            tap_cell(page, page.evaluate("catbox.S.view.moves.legal")[-1])
        page.wait_for_selector("#versus-totals")
        totals = page.inner_text("#versus-totals")
        page.reload()
        page.wait_for_selector("#versus-totals", timeout=60_000)
        assert page.inner_text("#versus-totals") == totals
        assert page.evaluate("catboxGame.game.rounds.length") == 1
        page.click("#versus-next")
        page.wait_for_selector(".aside-choice button")
        assert "Round 2 of 3" in page.inner_text("#versus-status")
        assert refused == []
