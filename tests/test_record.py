"""Round records: replay to any move, and precise errors at the first illegal move."""

from __future__ import annotations

from dataclasses import replace

import pytest

from catbox.solver import IllegalPlayError, Play, PositionError, Record, deal_round

from .games import F2_RED_4P, PARADOX_3P, record


def test_replay_to_any_move() -> None:
    rec = record(*F2_RED_4P)
    positions = list(rec.positions())
    assert len(positions) == len(rec.moves) + 1
    assert rec.position(0) == rec.start()
    assert rec.position(4) == positions[4]
    assert rec.position() == positions[-1]


def test_replay_stops_at_first_illegal_move_with_index_seat_play_rule() -> None:
    rec = record(*F2_RED_4P)
    bad = rec.with_moves([*rec.moves[:3], Play.parse(str(rec.moves[0])), *rec.moves[4:]])
    with pytest.raises(IllegalPlayError) as e:
        bad.position()
    err = e.value
    assert err.where == "moves[4]" and err.rule == "L1"
    assert "move 4" in err.message and f"plays {rec.moves[0]}" in err.message


def test_moves_after_a_paradox_are_illegal() -> None:
    rec = record(*PARADOX_3P)
    more = rec.with_moves([*rec.moves, Play.parse("1G")])
    with pytest.raises(IllegalPlayError) as e:
        more.position()
    assert e.value.rule == "X3"


def test_partial_deal_checks_known_seats_only() -> None:
    d = deal_round(3, 2)
    rec = Record.from_deal(d)
    partial = replace(rec, deal=(rec.deal[0], None, None), set_aside=(rec.set_aside[0], None, None))
    full = record(*PARADOX_3P)
    moves = full.moves[:6]
    pos = partial.with_moves(moves).position()
    assert pos.seats[1].hand is None and pos.seats[0].hand is not None
    assert pos.seats[0].hand == full.position(6).seats[0].hand


def test_deal_known_but_set_aside_unknown_checks_against_the_deal() -> None:
    rec = record(*F2_RED_4P)
    partial = replace(rec, set_aside=(None, *rec.set_aside[1:]))
    partial.position()  # the real moves replay
    a_cards = set(rec.deal[0] or ())
    missing = next(n for n in range(1, 9) if n not in a_cards)
    bad = partial.with_moves([Play.parse(f"{missing}B")])
    with pytest.raises(IllegalPlayError, match="not dealt"):
        bad.position()


def test_record_checks() -> None:
    rec = record(*PARADOX_3P)
    with pytest.raises(PositionError) as e:
        replace(rec, set_aside=(9, *rec.set_aside[1:])).validate()
    assert e.value.rule in ("S2", "B1")
    with pytest.raises(PositionError) as e:
        replace(rec, predictions=(2, None, None)).validate()
    assert e.value.rule == "S3"
    with pytest.raises(PositionError) as e:
        replace(rec, deal=(rec.deal[0], rec.deal[0], rec.deal[2])).validate()
    assert e.value.rule == "S1"
    with pytest.raises(PositionError) as e:
        rec.position(999)
