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
from catbox.solver.puzzle import Puzzle
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
