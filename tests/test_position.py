"""Position consistency checks (formats.md) and derived facts, each naming its rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from catbox.solver import NEUTRAL, Play, Position, PositionError, deal_round
from catbox.solver.board import cell_index, with_owner
from catbox.solver.deal import random_position

from .games import F2_RED_4P, L3B_3P, PARADOX_3P, position


def rule_of(pos: Position) -> str | None:
    with pytest.raises(PositionError) as e:
        pos.validate()
    return e.value.rule


def test_generated_positions_validate() -> None:
    for players in (2, 3, 4, 5):
        for seed in range(5):
            random_position(players, seed, 3, mid_trick=seed % players).validate()


def test_derived_to_play_led_red_broken() -> None:
    pos = position(*F2_RED_4P)
    assert pos.to_play == (pos.leader + 2) % 4
    assert pos.led is not None and pos.led.name == "R"
    assert pos.red_broken
    assert pos.tricks_left == 8 - pos.completed_tricks


def test_positions_are_hashable_values() -> None:
    a = random_position(4, 1, 3)
    b = random_position(4, 1, 3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.leader = 2  # type: ignore[misc]


def test_P1_tokens_must_match_cards_played() -> None:
    pos = position(*F2_RED_4P).hide([2, 3])
    known = pos.known_cards()
    empty = next(i for i, o in enumerate(pos.board) if o == -1 and known[i % 8 + 1] < 5)
    assert rule_of(replace(pos, board=with_owner(pos.board, empty, 0))) == "P1"


def test_S2_hand_size_must_match() -> None:
    pos = position(*F2_RED_4P)
    seats = list(pos.seats)
    seats[2] = replace(seats[2], hand_size=seats[2].hand_size + 1)
    assert rule_of(replace(pos, seats=tuple(seats))) == "S2"


def test_S3_prediction_must_be_allowed() -> None:
    pos = deal_round(3, 1).position
    seats = list(pos.seats)
    seats[0] = replace(seats[0], prediction=2)
    assert rule_of(replace(pos, seats=tuple(seats))) == "S3"


def test_S1_no_more_than_five_copies() -> None:
    pos = deal_round(3, 1).position.hide([1])
    seats = list(pos.seats)
    seats[0] = replace(seats[0], hand=(1,) * 9)  # nine 1s in one hand: the deck has five
    assert rule_of(replace(pos, seats=tuple(seats))) == "S1"


def test_W3_first_trick_led_by_round_start() -> None:
    pos = deal_round(4, 2).position
    assert rule_of(replace(pos, leader=2)) == "W3"


def test_F2_consistency_of_the_trick_in_progress() -> None:
    pos = position(*F2_RED_4P).play(Play.parse("8Y"))  # B lost red
    seats = list(pos.seats)
    seats[1] = replace(seats[1], colours=0b1111)
    assert rule_of(replace(pos, seats=tuple(seats))) == "F2"


def test_L3_consistency_of_the_lead() -> None:
    pos = deal_round(3, 11).position
    lead = pos.legal_plays()[0]
    after = pos.play(lead)
    n = 6
    red = Play(lead.number, lead.colour.__class__(0))
    board = with_owner(after.board, cell_index(lead.colour, lead.number, n), -1)
    board = with_owner(board, cell_index(red.colour, red.number, n), 0)
    bad = replace(after, board=board, trick=(red,))
    assert rule_of(bad) == "L3"
    # L3(b): the same lead is fine when the leader had nothing else
    good = position(*L3B_3P)
    good.play(good.legal_plays()[0]).validate()


def test_X1_paradox_needs_no_legal_play() -> None:
    pos = position(*F2_RED_4P)
    assert rule_of(replace(pos, paradox=pos.to_play)) == "X1"
    assert rule_of(replace(pos, paradox=(pos.to_play or 0) + 1)) == "X1"
    position(*PARADOX_3P).validate()


def test_I5_no_paradox_in_trick_1_is_accepted() -> None:
    pos = deal_round(4, 3).position.hide([0])
    assert rule_of(replace(pos, paradox=0)) == "I5"


def test_2P2_neutral_tokens_match_revealed() -> None:
    pos = deal_round(2, 9).position
    pos.validate()
    idx = next(i for i, o in enumerate(pos.board) if o == NEUTRAL)
    assert rule_of(replace(pos, board=with_owner(pos.board, idx, -1))) == "2P2"
    assert rule_of(replace(pos, revealed=pos.revealed[:2])) == "2P1"


def test_unseen_cards_and_unknown_pool() -> None:
    pos = random_position(4, 2, 3)
    seen_by_a = pos.unseen_by(0)
    assert sum(seen_by_a.values()) == 40 - pos.seats[0].hand_size - 1 - pos.completed_tricks * 4
    hidden = pos.hide([1, 2, 3])
    pool = hidden.unknown_pool()
    assert pool == hidden.unseen_by(0)
    assert sum(pool.values()) == sum(s.hand_size for s in pos.seats[1:]) + 3


def test_settle_records_a_paradox_only_when_known() -> None:
    pos = position(*PARADOX_3P)
    running = replace(pos, paradox=None)
    assert running.settle().paradox == 2
    assert running.hide([2]).settle().paradox is None
