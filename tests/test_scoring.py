"""Scoring: Sc1-Sc3 per round (incl. paradox rounds and the 2-player bonus) and Sc4 totals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from catbox.solver import PositionError, game_result, round_score, seat_score
from catbox.solver.board import largest_group
from catbox.solver.deal import random_position
from catbox.solver.scoring import lowest_score_at

from .games import FULL_2P, PARADOX_3P, position


def test_Sc1_paradox_seat_scores_minus_its_tricks() -> None:
    pos = position(*PARADOX_3P)
    sc = round_score(pos)
    c = sc.seats[2]
    assert c.caused_paradox and c.tricks == 1 and c.score == -1 and c.bonus == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_Sc1_no_round_scores_below_lowest_score(players: int) -> None:
    # random play-outs from random positions: at every position on the way, each seat's
    # final score is at least lowest_score there (X3: the trick of the paradox counts for
    # nobody; W1: a seat beaten in the current trick cannot win it), and the floor is reached
    # both ways
    rng = random.Random(players)
    reached = [0, 0]  # the floor met when not beaten / beaten
    for seed in range(60):
        pos = random_position(players, 900 + seed, rng.randint(1, 4))
        line = [pos]
        while not pos.finished:
            pos = pos.play(rng.choice(pos.legal_plays()))
            line.append(pos)
        for s in range(players):
            final = -pos.seats[s].tricks if pos.paradox == s else pos.seats[s].tricks
            for p in line[:-1]:
                low = lowest_score_at(p, s)
                assert final >= low, (players, seed, s)
                beaten = low > -(p.seats[s].tricks + p.tricks_left - 1)
                reached[beaten] += final == low and p.tricks_left > 2
    assert reached[0] > 0 and (reached[1] > 0 or players == 2), reached  # 2p: not met here


def test_Sc2_others_score_normally_in_a_paradox_round() -> None:
    pos = position(*PARADOX_3P)
    a, b = round_score(pos).seats[:2]
    assert (a.tricks, a.prediction, a.bonus, a.score) == (3, 4, 0, 3)  # missed: no bonus
    assert (b.tricks, b.prediction) == (1, 1) and b.eligible
    assert b.bonus == b.largest_group == largest_group(pos.board, 1, 3) == 4
    assert b.score == 1 + 4


def test_Sc2_two_players_bonus_needs_four_or_fewer_tricks() -> None:
    pos = position(*FULL_2P)
    a, b = round_score(pos).seats
    assert (a.tricks, a.eligible, a.bonus, a.score) == (5, False, 0, 5)
    assert (b.tricks, b.eligible) == (3, True) and b.score == 3 + b.largest_group


def test_Sc2_unknown_prediction_gives_unknown_score() -> None:
    pos = random_position(4, 3, 2)
    seats = list(pos.seats)
    seats[0] = replace(seats[0], prediction=None)
    hidden = replace(pos, seats=tuple(seats))
    assert seat_score(hidden, 0) is None
    assert round_score(hidden).seats[0].bonus is None


def test_Sc3_bonus_is_the_largest_group() -> None:
    pos = position(*PARADOX_3P)
    for i, s in enumerate(round_score(pos).seats):
        assert s.largest_group == largest_group(pos.board, i, 3)


def test_running_round_is_provisional() -> None:
    pos = random_position(5, 1, 4)
    assert round_score(pos).finished is False
    assert round_score(position(*FULL_2P)).finished is True


def test_Sc4_highest_total_wins() -> None:
    r = game_result([[3, 1, 0], [2, 2, 2], [1, 0, 0]])
    assert r.totals == (6, 3, 2) and r.winners == (0,)


def test_Sc4_tie_goes_to_higher_final_round() -> None:
    r = game_result([[5, 2], [1, 4]])
    assert r.totals == (6, 6) and r.winners == (1,)


def test_Sc4_still_tied_the_win_is_shared() -> None:
    r = game_result([[5, 3, 0], [1, 3, 7], [2, 2, 1]])
    assert r.totals == (8, 8, 8) and r.winners == (0, 1)


def test_Sc4_a_game_has_as_many_rounds_as_players() -> None:
    with pytest.raises(PositionError) as e:
        game_result([[1, 2], [3, 4], [5, 6]])
    assert e.value.rule == "Sc4"
