"""The entry mode's and the editor's API (web/entry.py, web/api.py ``edit`` and ``export``),
called as plain functions: a round entered play by play from one seat gives back the record's
moves and scores; another seat's play is refused only when public information proves it
illegal (L1, L2, L3, S1), with the rule; a hidden seat's paradox is declared (X1, not in the
first trick: I5); the game of the rounds entered (Sc4); the editor's draft read by the position
reader with its message and rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catbox.solver import formats
from catbox.solver.cards import Play, seat_letter
from catbox.solver.deal import deal_round
from catbox.solver.errors import CatboxError
from catbox.solver.game import Game
from catbox.solver.position import Position
from catbox.solver.record import Record
from catbox.solver.scoring import round_score
from catbox.solver.shapes import game_score_json, round_json
from catbox.web import api, entry

from .games import L3B_3P, playout, record


def form(rec: Record, seat: int) -> dict[str, Any]:
    out = {
        "players": str(rec.players),
        "seat": seat_letter(seat),
        "hand": " ".join(map(str, rec.deal[seat] or ())),
        "aside": str(rec.set_aside[seat]),
        "start": seat_letter(rec.round_start),
    }
    if rec.players == 2:  # no predictions (S3): the revealed cards instead (2P1)
        return out | {"revealed": " ".join(map(str, rec.revealed))}
    return out | {"predictions": " ".join(str(p) for p in rec.predictions)}


def enter(rec: Record, seat: int) -> dict[str, Any]:
    doc = entry.entry_start(form(rec, seat))
    for m in rec.moves:
        doc = entry.entry_step({"record": doc["record"], "seat": seat_letter(seat), "play": str(m)})
    return doc


def refused(doc: dict[str, Any], play: str) -> CatboxError:
    with pytest.raises(CatboxError) as got:
        entry.entry_step({"record": doc["record"], "seat": doc["seat"], "play": play})
    return got.value


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    start=st.integers(0, 4),
    seat=st.integers(0, 4),
)
def test_a_round_entered_from_any_seat_gives_back_its_moves_and_scores(
    players: int, seed: int, start: int, seat: int
) -> None:
    rec = playout(players, seed, start % players)
    me = seat % players
    doc = enter(rec, me)
    full = rec.position()
    if full.paradox is not None and full.paradox != me:  # hidden: declared by the page
        assert not doc["over"] and doc["turn"] == seat_letter(full.paradox)
        doc = entry.entry_step({"record": doc["record"], "seat": doc["seat"], "paradox": True})
    assert doc["over"] and doc["score"] == round_json(round_score(full))
    got = formats.from_json_obj(doc["record"])
    assert isinstance(got, Record) and got.moves == rec.moves
    assert got.deal[me] == rec.deal[me] and got.predictions == rec.predictions
    assert [m["play"] for m in doc["moves_made"]] == [str(m) for m in rec.moves]


def test_another_seats_play_is_refused_only_when_public_information_forbids_it() -> None:
    """At each hidden seat's turn of real rounds entered as A: a taken cell is refused (L1), a
    colour the seat has lost (L2), a number whose every copy is accounted for by A's hand and
    set-aside card and the board (S1); the play the seat really made is accepted."""
    found: set[str] = set()
    for seed in range(6):
        rec = playout(4, seed, 0)
        doc = entry.entry_start(form(rec, 0))
        for move in rec.moves:
            pos = formats.position_from_line(doc["line"])
            seat = pos.to_play
            if seat is not None and seat != 0 and pos.trick:
                for play, rule in public_refusals(pos, seat):
                    if rule not in found:
                        assert refused(doc, str(play)).rule == rule
                        found.add(rule)
            doc = entry.entry_step({"record": doc["record"], "seat": "A", "play": str(move)})
    assert found == {"L1", "L2", "S1"}


def public_refusals(pos: Position, seat: int) -> list[tuple[Play, str]]:
    """Plays that what is public forbids the hidden ``seat``, with the rule."""
    out = []
    n = pos.max_number
    seen = pos.known_cards()
    for i, owner in enumerate(pos.board):
        colour = "RBYG"[i // n]
        play = Play.parse(f"{i % n + 1}{colour}")
        bit = 1 << (i // n)
        if owner >= 0:
            out.append((play, "L1"))
        elif seen[play.number] >= 5:
            out.append((play, "S1"))
        elif not pos.seats[seat].colours & bit:
            out.append((play, "L2"))
    return out


def test_a_hidden_leader_may_not_lead_red_with_a_card_that_offers_another_colour() -> None:
    rec = Record.from_deal(deal_round(4, 5, predictions=True))
    doc = entry.entry_start(form(rec, 1))  # A (hidden) leads; red is not broken
    e = refused(doc, "3R")  # 3 can be declared blue, yellow or green: L3 proven
    assert e.rule == "L3" and "red" in e.message
    rec3 = record(*L3B_3P)  # the leader holds only cards whose other cells are gone: L3(b)
    pos = rec3.position()
    assert pos.to_play is not None and any(p.colour.name == "R" for p in pos.legal_plays())


def test_a_declared_paradox_is_checked_by_the_replay() -> None:
    rec = Record.from_deal(deal_round(4, 5, predictions=True))
    doc = entry.entry_start(form(rec, 1))
    with pytest.raises(CatboxError) as got:  # nobody can cause a paradox in the first trick
        entry.entry_step({"record": doc["record"], "seat": "B", "paradox": True})
    assert got.value.rule == "I5"
    rec3 = record(3, 2, "1Y 2Y 1B 4G 2R 4B 3R 6R 4R 1R 6G 2B 5R 5G 6B 4Y 5Y")
    as_a = enter(rec3, 0)
    over = entry.entry_step({"record": as_a["record"], "seat": "A", "paradox": True})
    assert over["over"] and over["declared"] == "C" and over["record"]["paradox"] == "C"
    as_c = enter(rec3, 2)  # the entering seat's own paradox: found, the round over by itself
    assert as_c["over"] and as_c["declared"] is None and as_c["score"]["paradox"] == "C"


@pytest.mark.parametrize(
    ("change", "rule", "where"),
    [
        ({"hand": "1 2 3"}, "S1", "hand"),
        ({"aside": "absent"}, "S2", "set_aside.B"),
        ({"predictions": "1 1 1"}, "S3", "predictions"),
        ({"predictions": "1 1 1 9"}, "S3", "predictions.D"),
        ({"hand": "1 2 x"}, None, "hand"),
    ],
)
def test_a_bad_form_names_its_field_and_rule(
    change: dict[str, str], rule: str | None, where: str
) -> None:
    rec = Record.from_deal(deal_round(4, 5, predictions=True))
    if change.get("aside") == "absent":  # a card B was not dealt
        change = {"aside": str(min(set(range(1, 9)) - set(rec.deal[1] or ())))}
    with pytest.raises(CatboxError) as got:
        entry.entry_start(form(rec, 1) | change)
    assert got.value.rule == rule and got.value.where == where


@pytest.mark.parametrize(
    ("change", "rule", "where"),
    [
        ({"revealed": "1 2"}, "2P1", "revealed"),
        ({"predictions": "1 1"}, "S3", None),
        ({"revealed": "1 2 3 4"}, "2P1", "revealed"),
    ],
)
def test_a_two_player_round_takes_the_revealed_cards_and_no_predictions(
    change: dict[str, str], rule: str, where: str | None
) -> None:
    rec = playout(2, 7, start=1)
    doc = enter(rec, 0)
    got = formats.from_json_obj(doc["record"])
    assert doc["over"] and isinstance(got, Record)
    assert got.moves == rec.moves and got.revealed == rec.revealed and got.deal[0] == rec.deal[0]
    assert got.predictions == (None, None) and got.deal[1] is None
    with pytest.raises(CatboxError) as bad:
        entry.entry_start(form(rec, 0) | change)
    assert bad.value.rule == rule and bad.value.where == where


def test_the_game_of_the_rounds_entered() -> None:
    rounds = [playout(3, 70 + r, start=r) for r in range(3)]
    docs = []
    for r, rec in enumerate(rounds):
        doc = enter(rec, 1)
        if not doc["over"]:
            doc = entry.entry_step({"record": doc["record"], "seat": "B", "paradox": True})
        docs.append(doc["record"])
        g = entry.entry_game({"rounds": docs})
        assert g["round"] == r + 1 and g["next_start"] == (seat_letter(r + 1) if r < 2 else None)
    want = Game(players=3, rounds=tuple(rounds))
    assert g["score"] == game_score_json(want) and g["score"]["game"]["complete"]
    text = api.export({"what": "game", "game": g["game"]})["text"]
    assert game_score_json(formats.loads(text)) == g["score"]  # type: ignore[arg-type]
    swapped = [docs[1], docs[0]]  # round 1 must start with A (Sc4)
    with pytest.raises(CatboxError) as got:
        entry.entry_game({"rounds": swapped})
    assert got.value.rule == "Sc4"


def test_the_editor_reads_its_draft_with_the_position_reader() -> None:
    pos = formats.load("puzzles/positions/four-player-endgame.toml")
    assert isinstance(pos, Position)
    line = formats.position_to_line(pos)
    opened = api.edit({"line": line})
    assert opened["line"] == line and opened["to_play"] == seat_letter(pos.to_play or 0)
    draft = opened["table"]
    assert api.edit({"position": draft})["line"] == line
    bad = draft | {"seat": draft["seat"] | {"A": draft["seat"]["A"] | {"prediction": 9}}}
    with pytest.raises(CatboxError) as got:
        api.edit({"position": bad})
    assert got.value.rule == "S3" and got.value.where == "seat.A.prediction"
    blank = api.edit({"blank": 2})
    assert blank["state"]["players"] == 2
    out = api.export({"what": "position", "syntax": "cbx1", "position": line})
    assert out["text"].strip() == line
    named = replace(pos, names=("Ann", "Ben", "Cy", "Dee"))
    toml = api.export({"what": "position", "position": line, "names": list(named.names)})
    assert formats.loads(toml["text"]) == named
    assert Play.parse("5R")  # (the plays the editor sends are parsed by the reader)
