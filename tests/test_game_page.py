"""The review page of a whole game (``catbox review GAME --html``): one self-contained page, a
round selector over every round's review, ``#round=R&ply=N``, the game's totals and costliest
plays; in a real browser (tests/browser.py) the board shown is solver/svg.py's picture of that
round's position."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from catbox.solver import Game
from catbox.solver.limits import Limits
from catbox.solver.report import external_references, game_review_page
from catbox.solver.review import review
from catbox.solver.shapes import game_review_json, review_json

from .browser import chromium, open_page
from .games import played_game
from .pages import embedded, expected, ply_of, shown

if TYPE_CHECKING:
    from playwright.sync_api import Browser

NAMES = ("Ann", "Ben", "Cy")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def game_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, dict[str, Any], Path]:
    g = played_game(3, seed=31)
    g = replace(g, names=NAMES, rounds=tuple(replace(r, names=NAMES) for r in g.rounds))
    docs = [  # the last plays of each round, to keep the test fast
        review_json(review(r, depth=2, limits=Limits(60, workers=1), from_move=len(r.moves) - 5))
        for r in g.rounds
    ]
    doc = game_review_json(g, docs)
    path = tmp_path_factory.mktemp("game-page") / "game.html"
    path.write_text(game_review_page(g, doc, title="A <game>"), encoding="utf-8")
    return g, doc, path


def test_the_game_page_is_self_contained_and_embeds_every_round(
    game_page: tuple[Game, dict[str, Any], Path],
) -> None:
    g, doc, path = game_page
    page = path.read_text(encoding="utf-8")
    assert external_references(page) == [] and "{{" not in page
    assert "A &lt;game&gt;" in page
    data = embedded(page)
    assert data["game"] == doc["game"]
    assert [r["review"] for r in data["rounds"]] == doc["rounds"]
    for one, rec in zip(data["rounds"], g.rounds, strict=True):
        assert [m["play"] for m in one["moves"]] == [str(m) for m in rec.moves]
        assert len(one["states"]) == len(rec.moves) + 1
        assert one["plot"].startswith('<svg class="plot"')
    buttons = re.findall(r'<button type="button" data-round="(\d)">', page)
    assert buttons == ["1", "2", "3"]


def test_the_round_selector_and_the_address(
    browser: Browser, game_page: tuple[Game, dict[str, Any], Path]
) -> None:
    g, doc, path = game_page
    with open_page(browser, path.as_uri()) as (page, refused):
        assert page.get_attribute("body", "data-round") == "1" and ply_of(page) == 0
        for r in (3, 2):
            rec = g.rounds[r - 1]
            page.click(f'#rounds button[data-round="{r}"]')
            assert page.get_attribute("body", "data-round") == str(r) and ply_of(page) == 0
            assert shown(page) == expected(rec, doc["rounds"][r - 1], 0)
            assert f"Round {r} of 3" in (page.text_content("#subtitle") or "")
            for k in range(1, 4):
                page.keyboard.press("ArrowRight")
                assert shown(page) == expected(rec, doc["rounds"][r - 1], k)
            assert page.evaluate("location.hash") == f"#round={r}&ply=3"
            assert len(page.query_selector_all("#moves .play")) == len(rec.moves)
        assert refused == []
    rec = g.rounds[1]
    with open_page(browser, path.as_uri() + "#round=2&ply=7") as (page, _):
        assert page.get_attribute("body", "data-round") == "2" and ply_of(page) == 7
        assert shown(page) == expected(rec, doc["rounds"][1], 7)
        page.evaluate("location.hash = '#round=3&ply=2'")
        page.wait_for_function("document.body.dataset.round === '3'")
        assert shown(page) == expected(g.rounds[2], doc["rounds"][2], 2)


def test_the_totals_and_the_costliest_plays(
    browser: Browser, game_page: tuple[Game, dict[str, Any], Path]
) -> None:
    g, doc, path = game_page
    res = g.result()
    with open_page(browser, path.as_uri()) as (page, _):
        rows = page.query_selector_all("#totals tr")
        assert len(rows) == 4
        for i, row in enumerate(rows[1:]):
            cells = [c.text_content() for c in row.query_selector_all("td")]
            assert cells[0] == f"{'ABC'[i]} {NAMES[i]}" + (" ★" if i in res.winners else "")
            assert cells[4] == str(res.totals[i])
        costliest = doc["game"]["costliest"]
        assert costliest  # three rounds of the policy's play: something was given up
        items = page.query_selector_all("#costliest li")
        assert len(items) == len(costliest)
        for c in costliest[:3]:
            page.click(f'#costliest li[data-round="{c["round"]}"][data-ply="{c["move"]}"]')
            assert page.get_attribute("body", "data-round") == str(c["round"])
            assert ply_of(page) == c["move"]
            assert c["grade"] in (page.text_content("#verdict") or "")
