"""The prediction made for the player's own play (S3): the measured own-play table's loader,
the expected score it gives a finished playout (Sc1-Sc3 with the tricks moved), and the
ranking behind ``choose_prediction`` consistent with the choice, the own-play ranking beside it."""

from __future__ import annotations

import random

import pytest

from catbox.solver import choose_prediction
from catbox.solver.cards import variant
from catbox.solver.deal import deal_round
from catbox.solver.estimates import opening, ownplay
from catbox.solver.estimates.opening import (
    deal_world,
    opening_for_prediction,
    outcomes,
)
from catbox.solver.estimates.ownplay import OUTCOMES, OwnPlay, outcome, own_play
from catbox.solver.estimates.policy import Sim, playout

SMALL = {3: 60, 4: 60, 5: 60}


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for p, b in SMALL.items():
        monkeypatch.setitem(opening.BUDGET, p, b)


def _same(players: int, d: int) -> OwnPlay:
    """Every outcome moved by ``d`` tricks, always."""
    return OwnPlay(players, tuple((o, ((d, 1.0),)) for o in OUTCOMES))


def _finished(players: int, seed: int) -> Sim:
    sim = Sim.of(deal_round(players, seed, predictions=True).position)
    return playout(sim, random.Random(seed))


@pytest.mark.parametrize("players", sorted(ownplay.OWN_PLAY_COUNTS))
def test_the_own_play_table_loads_with_shares_summing_to_one(players: int) -> None:
    own = own_play(players)
    assert own is not None and own.players == players
    assert [o for o, _ in own.shifts] == list(OUTCOMES)  # every outcome of the policy's seat
    for o in OUTCOMES:
        pairs = own.shift(o)
        assert abs(sum(s for _, s in pairs) - 1.0) < 1e-9
        assert all(0.0 < s <= 1.0 for _, s in pairs)
        assert [d for d, _ in pairs] == sorted({d for d, _ in pairs})  # each difference once
    # the player wins more tricks than the policy where the policy fell short (the table's point)
    assert sum(d * s for d, s in own.shift("short")) > 0


def test_no_own_play_table_at_2_players_and_a_broken_table_is_a_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert own_play(2) is None  # no prediction at 2 players (S3)
    assert 4 in ownplay.OWN_PLAY_COUNTS  # measured at 4 players at least
    monkeypatch.setitem(ownplay.OWN_PLAY_COUNTS, 4, {"short": {1: 2}, "cut": {}, "hit": {0: 1}})
    with pytest.raises(ValueError, match="no rows for 'cut'"):
        own_play(4)


def test_outcome_of_a_seat_against_its_prediction() -> None:
    assert outcome(2, 2, cut=False) == "hit"
    assert outcome(3, 2, cut=True) == "over"
    assert outcome(1, 2, cut=False) == "short"
    assert outcome(1, 2, cut=True) == "cut"  # another seat's paradox ended the round (X3)


@pytest.mark.parametrize("seed", range(12))
def test_Sc1_Sc3_the_own_play_score_moves_the_tricks(seed: int) -> None:
    sim = _finished(4, seed)
    for seat in range(4):
        base = sim.score(seat)
        assert base is not None
        assert _same(4, 0).score(sim, seat) == base  # nothing moved: the policy's score
        moved = _same(4, 1).score(sim, seat)
        t, pred = sim.tricks[seat], sim.preds[seat]
        if sim.paradox == seat:
            assert moved == base  # Sc1: an own paradox keeps its score
            continue
        u = min(t + 1, sim.total_tricks)
        assert moved == u + (sim.largest_group(seat) if u == pred else 0)  # Sc2, Sc3


def test_a_half_and_half_table_averages_the_two_scores() -> None:
    sim = _finished(3, 4)
    seat = next(s for s in range(3) if sim.paradox != s)
    half = OwnPlay(3, tuple((o, ((0, 0.5), (1, 0.5))) for o in OUTCOMES))
    want = (_same(3, 0).score(sim, seat) + _same(3, 1).score(sim, seat)) / 2
    assert half.score(sim, seat) == pytest.approx(want)


def test_the_own_play_playouts_are_the_policys_with_nothing_moved() -> None:
    hand = deal_round(4, 11).dealt[1]
    world = deal_world(4, hand, 1, seed=2, index=0, before=(2,))
    cands = [(hand[0], p) for p in variant(4).predictions]
    assert outcomes(world, 1, cands, (2,), _same(4, 0)) == [
        (float(v), ok, float(s)) for v, ok, s in outcomes(world, 1, cands, (2,))
    ]


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_S3_the_prediction_is_the_top_of_the_ranking_it_shows(players: int) -> None:
    hand = deal_round(players, 21).dealt[0]
    aside = hand[0]
    before = (variant(players).predictions[0],)

    def shown(own: bool = False) -> opening.Opening:
        return opening_for_prediction(
            hand, aside, players=players, order=1, before=before, seed=5, own=own
        )

    ranking = shown()
    pred = choose_prediction(hand, aside, players=players, order=1, before=before, seed=5)
    assert pred == ranking.rows[0].prediction
    assert shown() == ranking  # deterministic for a seed
    # the same worlds scored for the player's own play: the same candidates
    assert {r.prediction for r in shown(own=True).rows} == {r.prediction for r in ranking.rows}
