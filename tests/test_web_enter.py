"""The board's entry mode (``/#enter``) in a real browser: whole rounds from records entered as
they were played, from different seats at 3-5 players (the form, then one tap per play on the
board), giving back the same moves and scores; a round ended by a hidden seat's declared paradox
and one ended by the entering seat's own (X1); an entry refused with its rule; undo. Each tap's
redraw time is measured in the browser and printed, not asserted."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from catbox.solver import formats
from catbox.solver.cards import seat_letter
from catbox.solver.game import Game
from catbox.solver.record import Record
from catbox.solver.scoring import round_score
from catbox.solver.shapes import game_score_json, round_json

from .browser import chromium, open_page
from .games import playout
from .webserver import Served

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RECORDS = Path(__file__).parent.parent / "puzzles" / "records"


def record(name: str) -> Record:
    rec = formats.load(RECORDS / f"{name}.toml")
    assert isinstance(rec, Record)
    return rec


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    s = Served()
    yield s
    s.stop()


def fill_form(page: Page, rec: Record, seat: int) -> None:
    form = "form#enter-round"
    page.wait_for_selector(form)
    page.select_option(f"{form} [name=players]", str(rec.players))
    page.select_option(f"{form} [name=seat]", seat_letter(seat))
    page.select_option(f"{form} [name=start]", seat_letter(rec.round_start))
    page.fill(f"{form} [name=hand]", " ".join(map(str, rec.deal[seat] or ())))
    page.fill(f"{form} [name=aside]", str(rec.set_aside[seat]))
    if rec.players == 2:  # no predictions (S3): the three revealed cards instead (2P1)
        assert page.is_hidden(f"{form} [name=predictions]")
        page.fill(f"{form} [name=revealed]", " ".join(map(str, rec.revealed)))
    else:
        page.fill(f"{form} [name=predictions]", " ".join(str(p) for p in rec.predictions))
    if rec.names:
        page.fill(f"{form} [name=names]", ", ".join(rec.names))
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector("#status:not(:empty)")


def tap(page: Page, play: str, k: int) -> None:
    """Taps the cell of the k-th play and waits until the board shows it."""
    page.click(f'#board [data-cell="{play}"]')
    page.wait_for_function(f"document.body.dataset.ply === '{k}'", timeout=20_000)


def enter(page: Page, rec: Record, seat: int) -> list[float]:
    """Enters ``rec`` as ``seat``; the redraw time of each tap (ms)."""
    fill_form(page, rec, seat)
    times = []
    for k, move in enumerate(rec.moves, start=1):
        tap(page, str(move), k)
        assert page.get_attribute(f'#board [data-cell="{move}"]', "data-owner")
        times.append(float(page.evaluate("window.catboxRedrawMs")))
    return times


def downloaded(page: Page) -> Record:
    with page.expect_download() as got:
        page.click("#download-record")
    rec = formats.loads(Path(got.value.path()).read_text())
    assert isinstance(rec, Record)
    return rec


def check_entered(page: Page, rec: Record, seat: int) -> None:
    """The page says the round is over, scores it as the full record, and its download is
    the record from the seat's view: the same moves, the seat's hand and every prediction."""
    assert "over" in page.inner_text("#status")
    full = rec.position()
    assert page.evaluate("catbox.S.view.score") == round_json(round_score(full))
    got = downloaded(page)
    assert got.moves == rec.moves and got.predictions == rec.predictions
    assert got.deal[seat] == rec.deal[seat] and got.set_aside[seat] == rec.set_aside[seat]
    assert all(got.deal[i] is None for i in range(rec.players) if i != seat)
    assert got.round_start == rec.round_start and got.names == rec.names
    assert got.revealed == rec.revealed
    # a hidden seat's paradox is declared in the record; the entering seat's own is found
    hidden = full.paradox if full.paradox not in (None, seat) else None
    assert got.declared_paradox == hidden


CASES = [
    ("two-player-round", 1),
    ("playout-2-7", 0),
    ("four-player-round", 1),
    ("four-player-round", 3),
    ("five-player-round", 2),
    ("playout-5-3", 4),
    ("playout-3-11", 0),
]


@pytest.mark.parametrize(("name", "seat"), CASES)
def test_a_round_entered_tap_by_tap_gives_back_its_moves_and_scores(
    browser: Browser, server: Served, name: str, seat: int
) -> None:
    if name.startswith("playout"):
        _, players, seed = name.split("-")
        rec = playout(int(players), int(seed), start=2 % int(players))
    else:
        rec = record(name)
    with open_page(browser, server.url + "#enter", width=390) as (page, refused):
        times = enter(page, rec, seat)
        if rec.position().paradox not in (None, seat):  # a hidden seat's: declared
            page.click("#declare-paradox")
            page.wait_for_function("catbox.S.view.over")
        check_entered(page, rec, seat)
        assert refused == []
    print(
        f"\n{name} as {seat_letter(seat)}: {len(times)} taps, redraw median "
        f"{statistics.median(times):.0f} ms, max {max(times):.0f} ms"
    )


def test_a_hidden_seats_paradox_is_declared_and_the_own_one_ends_the_round(
    browser: Browser, server: Served
) -> None:
    rec = record("three-player-paradox")  # C has no legal play after the 17 moves (X1)
    assert rec.position().paradox == 2
    with open_page(browser, server.url + "#enter") as (page, _):
        enter(page, rec, 0)  # as A: C's cards are hidden, so C's paradox is declared
        assert page.is_visible("#declare-paradox") and "over" not in page.inner_text("#status")
        page.click("#declare-paradox")
        page.wait_for_function("catbox.S.view.over")
        assert "C" in page.inner_text("#status")
        check_entered(page, rec, 0)
        page.click("#open-review")  # A's plays judged from A's view, in a worker
        page.wait_for_selector("#review-link:not([hidden])", timeout=120_000)
        assert "of your plays reviewed" in page.inner_text("#review-note")
        html = page.evaluate(
            "fetch(document.querySelector('#review-link').href).then(r => r.text())"
        )
        assert html.startswith("<!DOCTYPE html>") and "catbox-review-page" in html
    with open_page(browser, server.url + "#enter") as (page, _):
        enter(page, rec, 2)  # as C: the page ends the round by itself
        assert not page.is_visible("#declare-paradox")
        check_entered(page, rec, 2)


def test_an_illegal_entry_is_refused_with_its_rule_and_undo_steps_back(
    browser: Browser, server: Served
) -> None:
    rec = record("four-player-round")
    with open_page(browser, server.url + "#enter") as (page, _):
        fill_form(page, rec, 1)
        first = rec.moves[0]  # A leads (hidden): red is not broken, so a red lead is refused...
        red = next(
            f"{n}R"
            for n in range(1, 9)
            if f"{n}R" != str(first) and rec.position(0).board[n - 1] < 0
        )
        page.click(f'#board [data-cell="{red}"]')
        page.wait_for_selector("#message:not([hidden])")
        text = page.inner_text("#message")
        assert "[rule L3]" in text and "red" in text, text
        assert page.get_attribute(f'#board [data-cell="{red}"]', "data-owner") is None
        tap(page, str(first), 1)
        page.click(f'#board [data-cell="{first}"]')  # ...and a taken cell (L1)
        page.wait_for_function("document.querySelector('#message').textContent.includes('L1')")
        page.click("#enter-undo")
        page.wait_for_function("document.body.dataset.ply === '0'")
        assert page.get_attribute(f'#board [data-cell="{first}"]', "data-owner") is None


def test_a_bad_form_names_the_field_and_rule(browser: Browser, server: Served) -> None:
    with open_page(browser, server.url + "#enter") as (page, _):
        page.wait_for_selector("form#enter-round")
        page.fill("[name=hand]", "1 1 2 2 3 3 4 4 5 5")
        page.fill("[name=aside]", "7")  # not dealt to the seat (S2)
        page.fill("[name=predictions]", "1 1 1 1")
        page.click("form#enter-round button[type=submit]")
        page.wait_for_selector("#enter-error:not([hidden])")
        assert "S2" in page.inner_text("#enter-error")
        page.fill("[name=hand]", "1 1 1 1 1 1 2 3 4 5")  # six 1s: the deck has five (S1)
        page.fill("[name=aside]", "2")
        page.click("form#enter-round button[type=submit]")
        page.wait_for_function("document.querySelector('#enter-error').textContent.includes('S1')")


def test_a_whole_game_entered_round_after_round(browser: Browser, server: Served) -> None:
    """Three rounds at 3 players, the start passing left (Sc4): "next round" keeps the players,
    the seat and the names and fixes the start seat; the totals and the game's download are
    the game's."""
    rounds = [replace(playout(3, 40 + r, start=r), names=("Ann", "Ben", "Cy")) for r in range(3)]
    game = Game(players=3, rounds=tuple(rounds), names=rounds[0].names)
    game.validate()
    with open_page(browser, server.url + "#enter", width=390) as (page, _):
        for r, rec in enumerate(rounds):
            if r == 0:
                fill_form(page, rec, 1)
            else:
                page.click("#next-round")
                assert page.is_disabled("form#enter-round [name=start]")
                assert page.input_value("form#enter-round [name=start]") == seat_letter(r)
                page.fill("[name=hand]", " ".join(map(str, rec.deal[1] or ())))
                page.fill("[name=aside]", str(rec.set_aside[1]))
                page.fill("[name=predictions]", " ".join(str(p) for p in rec.predictions))
                page.click("form#enter-round button[type=submit]")
            for k, move in enumerate(rec.moves, start=1):
                tap(page, str(move), k)
            if rec.position().paradox not in (None, 1):
                page.click("#declare-paradox")
            page.wait_for_selector("#game-totals")
        score = game_score_json(game)
        names = dict(zip("ABC", rounds[0].names, strict=True))
        totals = " · ".join(f"{s} {names[s]} {t}" for s, t in score["game"]["totals"].items())
        text = page.inner_text("#game-totals")
        assert "Game over after 3 rounds" in text and totals in text, text
        assert not page.is_visible("#next-round")
        with page.expect_download() as got:
            page.click("#download-game")
        entered = formats.loads(Path(got.value.path()).read_text())
        assert isinstance(entered, Game) and game_score_json(entered) == score
        assert [r.moves for r in entered.rounds] == [r.moves for r in rounds]


def test_a_reload_keeps_the_round_being_entered(browser: Browser, server: Served) -> None:
    rec = record("four-player-round")
    with open_page(browser, server.url + "#enter", width=390) as (page, _):
        fill_form(page, rec, 2)
        for k, move in enumerate(rec.moves[:3], start=1):
            tap(page, str(move), k)
        page.reload()
        page.wait_for_function("document.body.dataset.ply === '3'")
        for move in rec.moves[:3]:
            assert page.get_attribute(f'#board [data-cell="{move}"]', "data-owner")
        assert "D" in page.inner_text("#status")  # D plays the 4th card of the first trick
        page.click("#enter-new")
        page.wait_for_selector("form#enter-round:not([hidden])")


def test_your_turn_gets_advice_from_your_view_and_a_row_enters_its_play(
    browser: Browser, server: Served
) -> None:
    rec = record("four-player-round")  # A starts: as A, the first play is yours
    with open_page(browser, server.url + "#enter") as (page, _):
        fill_form(page, rec, 0)
        assert "Your turn" in page.inner_text("#status")
        page.wait_for_selector("#analysis-status.estimate", timeout=60_000)
        rows = page.eval_on_selector_all("#analysis-rows tr", "rs => rs.map(r => r.dataset.play)")
        legal = [str(p) for p in rec.position(0).legal_plays()]
        assert rows and set(rows) <= set(legal)
        page.click(f'#analysis-rows tr[data-play="{rows[0]}"]')
        page.wait_for_function("document.body.dataset.ply === '1'")
        assert page.get_attribute(f'#board [data-cell="{rows[0]}"]', "data-owner") == "A"
        page.click("#enter-edit")  # the position shown, in the editor
        page.wait_for_selector("#edit-status.ok")
        assert "B to play" in page.inner_text("#edit-status")
