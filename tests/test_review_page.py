"""The HTML review in a real browser (headless system Chromium, tests/browser.py): it loads
with no network, steps through the round with keys and clicks, ``#ply=N`` opens the position
after N plays, and at every ply the board the page shows is exactly the picture solver/svg.py
draws for the record's position (cells, owners, hands, permissions, the trick)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from catbox.solver import formats
from catbox.solver.estimates.review import review_player
from catbox.solver.limits import Limits
from catbox.solver.record import Record
from catbox.solver.report import review_page
from catbox.solver.review import review
from catbox.solver.shapes import player_review_json, review_json
from catbox.solver.svg import board

from .browser import chromium, open_page
from .pages import expected, ply_of, shown
from .pictures import shown_in_svg

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def _record(name: str) -> Record:
    rec = formats.load(ROOT / "puzzles" / "records" / f"{name}.toml")
    assert isinstance(rec, Record)
    return rec


@pytest.fixture(scope="module")
def full_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Record, dict[str, Any], Path]:
    rec = _record("three-player-paradox")
    doc = review_json(review(rec, depth=3, limits=Limits(60, workers=1), from_move=9))
    path = tmp_path_factory.mktemp("review") / "review.html"
    path.write_text(review_page(rec, doc, view="full"), encoding="utf-8")
    return rec, doc, path


def test_the_page_opens_on_the_deal_without_the_network(
    browser: Browser, full_page: tuple[Record, dict[str, Any], Path]
) -> None:
    rec, doc, path = full_page
    with open_page(browser, path.as_uri()) as (page, refused):
        assert ply_of(page) == 0
        assert shown(page) == expected(rec, doc, 0)
        assert page.text_content("#where") == f"The deal (0 of {len(rec.moves)})"
        assert refused == []


def test_keys_step_through_the_round_and_the_board_follows_the_record(
    browser: Browser, full_page: tuple[Record, dict[str, Any], Path]
) -> None:
    rec, doc, path = full_page
    n = len(rec.moves)
    with open_page(browser, path.as_uri()) as (page, refused):
        for k in range(1, n + 1):
            page.keyboard.press("ArrowRight")
            assert ply_of(page) == k
            assert shown(page) == expected(rec, doc, k), f"ply {k}"
        page.keyboard.press("ArrowRight")  # past the end: stays
        assert ply_of(page) == n
        page.keyboard.press("Home")
        assert ply_of(page) == 0 and shown(page) == expected(rec, doc, 0)
        page.keyboard.press("End")
        assert ply_of(page) == n and page.evaluate("location.hash") == f"#ply={n}"
        page.keyboard.press("ArrowLeft")
        assert ply_of(page) == n - 1 and shown(page) == expected(rec, doc, n - 1)
        assert refused == []


def test_clicks_on_plays_buttons_and_turning_points(
    browser: Browser, full_page: tuple[Record, dict[str, Any], Path]
) -> None:
    rec, doc, path = full_page
    with open_page(browser, path.as_uri()) as (page, _):
        page.click('#moves .play[data-ply="7"]')
        assert ply_of(page) == 7 and shown(page) == expected(rec, doc, 7)
        assert "current" in (page.get_attribute('#moves .play[data-ply="7"]', "class") or "")
        assert (page.text_content("#verdict") or "").startswith("Move 7: ")
        page.click("#next")
        page.click("#next")
        assert ply_of(page) == 9
        page.click("#prev")
        assert ply_of(page) == 8 and shown(page) == expected(rec, doc, 8)
        page.click("#last")
        assert ply_of(page) == len(rec.moves)
        assert "Paradox" in (page.text_content("svg.catbox-board text.status") or "")
        page.click("#first")
        assert ply_of(page) == 0
        for tp in doc["turning_points"]:
            page.click(f'#turning li[data-ply="{tp["move"]}"]')
            assert ply_of(page) == tp["move"]


def test_next_mistake_visits_the_marked_plays_in_order(
    browser: Browser, full_page: tuple[Record, dict[str, Any], Path]
) -> None:
    _, doc, path = full_page
    marked = [p["move"] for p in doc["plays"] if p["grade"] in ("?!", "?", "??")]
    assert marked  # the round ends in a paradox: the review marks something
    with open_page(browser, path.as_uri()) as (page, _):
        for k in marked:
            page.click("#mistake")
            assert ply_of(page) == k
            grade = next(p["grade"] for p in doc["plays"] if p["move"] == k)
            assert grade in (page.text_content("#verdict") or "")
        page.keyboard.press("n")  # wraps around to the first
        assert ply_of(page) == marked[0]
        legend = page.text_content("#grades") or ""
        assert "blunder" in legend and "inaccuracy" in legend  # the thresholds are stated


def test_the_address_opens_a_ply(
    browser: Browser, full_page: tuple[Record, dict[str, Any], Path]
) -> None:
    rec, doc, path = full_page
    with open_page(browser, path.as_uri() + "#ply=12") as (page, _):
        assert ply_of(page) == 12 and shown(page) == expected(rec, doc, 12)
        page.evaluate("location.hash = '#ply=3'")
        page.wait_for_function("document.body.dataset.ply === '3'")
        assert shown(page) == expected(rec, doc, 3)
    with open_page(browser, path.as_uri() + "#ply=999") as (page, _):
        assert ply_of(page) == len(rec.moves)  # clamped to the end


def test_a_record_showing_only_the_reviewers_cards(browser: Browser, tmp_path: Path) -> None:
    full = _record("three-player-paradox")
    rec = replace(
        full.with_moves(full.moves[:7]),
        deal=(None, full.deal[1], None),
        set_aside=(None, full.set_aside[1], None),
    )
    r = review_player(rec, 1, samples=8)
    doc = player_review_json(r, 1)
    path = tmp_path / "mine.html"
    path.write_text(review_page(rec, doc, view="player", seat=1), encoding="utf-8")
    with open_page(browser, path.as_uri() + "#ply=5") as (page, refused):
        assert shown(page) == shown_in_svg(board(rec.position(5), last=rec.moves[4]))
        cards = shown(page)["cards"]
        assert any(c == ["card hidden", "?"] for c in cards)  # A's and C's hands stay hidden
        mine = doc["plays"][0]["move"]
        page.click(f'#moves .play[data-ply="{mine}"]')
        assert "Chance of avoiding a paradox" in (page.text_content("#verdict") or "")
        assert refused == []
