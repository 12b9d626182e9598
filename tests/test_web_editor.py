"""The board's position editor (``/#edit``) in a real browser: positions built from an empty
board by taps and fields are the positions of their files (exported as TOML, JSON and cbx1);
each change is judged by the position reader with its message and rule; the address keeps the
position; "edit this position" opens the editor on the position shown."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from catbox.solver import formats
from catbox.solver.board import EMPTY, NEUTRAL
from catbox.solver.cards import Colour, seat_letter
from catbox.solver.position import Position

from .browser import chromium, open_page
from .webserver import Served

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

POSITIONS = Path(__file__).parent.parent / "puzzles" / "positions"
FILES = [
    "five-player-endgame",
    "four-player-hidden-hands",
    "three-player-midtrick",
    "two-player-start",
]


def load(name: str) -> Position:
    pos = formats.load(POSITIONS / f"{name}.toml")
    assert isinstance(pos, Position)
    return pos


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    s = Served(str(POSITIONS / "four-player-endgame.toml"))
    yield s
    s.stop()


def download(page: Page, button: str) -> str:
    with page.expect_download() as got:
        page.click(button)
    return Path(got.value.path()).read_text()


def build(page: Page, pos: Position) -> None:
    """Sets ``pos`` up from an empty board: the players, a tap per token, each seat's fields,
    the names, the trick in progress and the seat to play."""
    page.select_option("#edit-players", str(pos.players))
    page.wait_for_function(f"catbox.ED.table.players === {pos.players} && catbox.ED.sent > 0")
    n = pos.max_number
    for i, owner in enumerate(pos.board):
        if owner == EMPTY:
            continue
        brush = "N" if owner == NEUTRAL else seat_letter(owner)
        page.click(f'#edit-brushes [data-brush="{brush}"]')
        cell = f"{i % n + 1}{'RBYG'[i // n]}"
        page.click(f'#board [data-cell="{cell}"]')
        page.wait_for_function(
            f"document.querySelector('#board [data-cell=\"{cell}\"]').dataset.owner === '{brush}'"
        )
    for k, seat in enumerate(pos.seats):
        s = seat_letter(k)
        if seat.hand is not None:
            page.fill(f'[name="{s}.hand"]', " ".join(map(str, seat.hand)))
        else:
            page.fill(f'[name="{s}.hand_size"]', str(seat.hand_size))
        page.fill(f'[name="{s}.tricks"]', str(seat.tricks))
        for key, value in (("prediction", seat.prediction), ("set_aside", seat.set_aside)):
            page.fill(f'[name="{s}.{key}"]', "" if value is None else str(value))
        for c in Colour:
            if not seat.colours & c.bit:
                page.uncheck(f'[name="{s}.colors.{c.name}"]')
    if pos.names:
        page.fill("#edit-names", ", ".join(pos.names))
        page.press("#edit-names", "Enter")
    page.fill("#edit-plays", " ".join(map(str, pos.trick)))
    page.press("#edit-plays", "Enter")
    page.select_option("#edit-to-play", seat_letter(pos.to_play if pos.to_play is not None else 0))


@pytest.mark.parametrize("name", FILES)
def test_the_editor_builds_the_position_of_a_file(
    browser: Browser, server: Served, name: str
) -> None:
    pos = load(name)
    with open_page(browser, server.url + "#edit", width=390) as (page, refused):
        page.wait_for_selector("#edit-status:not(:empty)")
        build(page, pos)
        line = formats.position_to_line(pos)
        page.wait_for_function(
            f"catbox.ED.valid && catbox.ED.valid.line === {line!r}", timeout=20_000
        )
        assert "valid" in page.inner_text("#edit-status")
        assert formats.loads(download(page, "#edit-export-toml")) == pos
        assert formats.loads(download(page, "#edit-export-json"), "json") == pos
        assert formats.position_from_line(download(page, "#edit-export-cbx1").strip()) == replace(
            pos, names=()
        )
        assert page.evaluate("decodeURIComponent(location.hash)") == f"#edit&pos={line}"
        assert refused == []


def test_each_change_is_judged_with_the_readers_message(browser: Browser, server: Served) -> None:
    pos = load("five-player-endgame")
    line = formats.position_to_line(pos)
    with open_page(browser, server.url + f"#edit&pos={line}") as (page, _):
        page.wait_for_selector("#edit-status.ok")
        page.click('#edit-brushes [data-brush="B"]')
        page.click('#board [data-cell="1R"]')  # a sixth 1 on the board: the deck has five
        page.wait_for_selector("#edit-status.error")
        assert "[rule S1]" in page.inner_text("#edit-status")
        assert page.is_disabled("#edit-export-toml")
        page.click('#board [data-cell="1R"]')  # the same brush again clears the cell
        page.wait_for_selector("#edit-status.ok")
        page.fill('[name="A.prediction"]', "9")
        page.wait_for_selector("#edit-status.error")
        text = page.inner_text("#edit-status")
        assert "seat.A.prediction" in text and "S3" in text, text


def test_edit_this_position_opens_the_editor_on_the_position_shown(
    browser: Browser, server: Served
) -> None:
    shown = load("four-player-endgame")
    with open_page(browser, server.url) as (page, _):
        page.wait_for_selector("#board svg")
        page.click("#edit-this")
        page.wait_for_selector("#edit-status.ok")
        assert page.evaluate("catbox.ED.valid.line") == formats.position_to_line(shown)
        assert page.input_value('[name="A.hand"]') == " ".join(map(str, shown.seats[0].hand or ()))
