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


# ---------------------------------------------------------------- a declared paradox (X1)


def _hidden(seat: int) -> Record:
    """PARADOX_3P with ``seat``'s cards unknown (C causes the paradox after move 17)."""
    rec = record(*PARADOX_3P)
    deal = list(rec.deal)
    aside = list(rec.set_aside)
    deal[seat] = aside[seat] = None
    return replace(rec, deal=tuple(deal), set_aside=tuple(aside))


def test_X1_declared_paradox_of_a_hidden_seat_ends_the_round_and_scores_Sc1() -> None:
    from catbox.solver.scoring import round_score

    known = record(*PARADOX_3P).position()
    assert known.paradox == 2
    hidden = _hidden(2)
    assert hidden.position().paradox is None and hidden.position().to_play == 2
    declared = replace(hidden, declared_paradox=2)
    pos = declared.position()
    assert pos.paradox == 2 and pos.finished and pos.to_play is None
    assert len(list(declared.positions())) == len(declared.moves) + 1
    assert declared.position(5).paradox is None  # only the last position carries it
    sc = round_score(pos)
    want = round_score(known)
    assert [s.score for s in sc.seats] == [s.score for s in want.seats]
    assert sc.seats[2].caused_paradox and sc.seats[2].score == -known.seats[2].tricks


def test_X1_declared_paradox_must_be_the_seat_to_play() -> None:
    bad = replace(_hidden(2), declared_paradox=0)
    with pytest.raises(IllegalPlayError) as e:
        bad.position()
    assert e.value.rule == "X1" and e.value.where == "paradox"
    assert "not the seat to play" in e.value.message


def test_X1_declared_paradox_of_a_known_hand_with_a_legal_play_is_refused() -> None:
    rec = record(*PARADOX_3P)
    early = replace(rec.with_moves(rec.moves[:12]), declared_paradox=rec.position(12).to_play)
    with pytest.raises(IllegalPlayError) as e:
        early.position()
    assert e.value.rule == "X1" and "legal plays" in e.value.message


def test_X1_declared_paradox_agrees_with_a_known_hands_paradox() -> None:
    rec = record(*PARADOX_3P)
    assert replace(rec, declared_paradox=2).position() == rec.position()
    with pytest.raises(IllegalPlayError) as e:
        replace(rec, declared_paradox=1).position()
    assert e.value.rule == "X1" and "C caused the paradox" in e.value.message


def test_I5_no_paradox_can_be_declared_in_trick_1() -> None:
    rec = _hidden(1)
    for k in (0, 1):
        early = replace(rec.with_moves(rec.moves[:k]), declared_paradox=rec.position(k).to_play)
        with pytest.raises(IllegalPlayError) as e:
            early.position()
        assert e.value.rule == "I5" and e.value.where == "paradox"


def test_declared_paradox_round_trips_in_toml_and_json() -> None:
    from catbox.solver import formats

    rec = replace(_hidden(2), declared_paradox=2)
    text = formats.dumps(rec, "toml")
    assert 'paradox = "C"' in text
    assert formats.loads(text) == rec
    assert formats.loads(formats.dumps(rec, "json"), "json") == rec
    assert "paradox" not in formats.dumps(_hidden(2), "toml")
    wrong = text.replace('paradox = "C"', 'paradox = "A"')
    with pytest.raises(IllegalPlayError) as e:
        formats.loads(wrong, name="r.toml")
    assert e.value.rule == "X1" and "paradox" in str(e.value.where)
