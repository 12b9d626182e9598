"""catbox's whole player: the round's opening decisions (S2 set-aside, S3 prediction) within the
rules and deterministic for a seed, the successive halving behind them, and every decision legal
from any view at 2-5 players (hypothesis), mid-trick and at the round start, the same whatever the
hidden hands hold."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catbox.solver import choose_aside, choose_play, choose_prediction, shapes
from catbox.solver.cards import variant
from catbox.solver.deal import deal_round, random_position
from catbox.solver.errors import PositionError
from catbox.solver.estimates import opening, policy
from catbox.solver.estimates.deals import DealSpace
from catbox.solver.estimates.opening import (
    deal_world,
    rank_openings,
    strength_prediction,
    typical_before,
)
from catbox.solver.estimates.start import advise_start
from catbox.solver.position import Position

SMALL = {2: 40, 3: 40, 4: 40, 5: 40}  # playouts per decision in these tests


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for p, b in SMALL.items():
        monkeypatch.setitem(opening.BUDGET, p, b)
    for p in opening.ASIDE_BUDGET:
        monkeypatch.setitem(opening.ASIDE_BUDGET, p, SMALL[p])


def _order_before(players: int, order: int) -> tuple[int, ...]:
    return typical_before(players, order)


@pytest.mark.usefixtures("small_budget")
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000), data=st.data())
def test_S2_S3_the_opening_decisions_are_within_the_rules(
    players: int, seed: int, data: st.DataObject
) -> None:
    hand = deal_round(players, seed).dealt[0]
    order = data.draw(st.integers(0, players - 1))
    aside = choose_aside(hand, players=players, order=order, seed=seed)
    assert aside in hand  # S2: a card of the dealt hand
    if players == 2:
        with pytest.raises(PositionError, match="no predictions"):
            choose_prediction(hand, aside, players=2, order=order, seed=seed)
        return
    allowed = variant(players).predictions
    before = tuple(data.draw(st.sampled_from(allowed)) for _ in range(order))
    pred = choose_prediction(hand, aside, players=players, order=order, before=before, seed=seed)
    assert pred in allowed  # S3: an allowed prediction


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_opening_decisions_are_deterministic_for_a_seed(players: int) -> None:
    hand = deal_round(players, 7).dealt[1]
    order = 1
    a = choose_aside(hand, players=players, order=order, seed=3)
    assert all(choose_aside(hand, players=players, order=order, seed=3) == a for _ in range(2))
    # the hand's order does not matter: it is a set of dealt cards
    assert choose_aside(tuple(reversed(hand)), players=players, order=order, seed=3) == a
    if players > 2:
        before = _order_before(players, order)
        p = choose_prediction(hand, a, players=players, order=order, before=before, seed=3)
        again = choose_prediction(hand, a, players=players, order=order, before=before, seed=3)
        assert p == again


def test_S1_S2_S3_bad_opening_questions_are_position_errors() -> None:
    hand = (1, 1, 2, 3, 3, 3, 5, 6, 7, 8)  # no 4
    with pytest.raises(PositionError) as e:
        choose_prediction(hand, 4, players=4, order=0)
    assert e.value.rule == "S2"
    with pytest.raises(PositionError) as e:
        choose_aside(hand[:-1], players=4, order=0)
    assert e.value.rule == "S1"
    with pytest.raises(PositionError) as e:
        choose_prediction(hand, hand[0], players=4, order=2, before=(1,))
    assert e.value.rule == "S3"
    with pytest.raises(PositionError) as e:
        choose_prediction(hand, hand[0], players=4, order=1, before=(4,))  # 4 not allowed at 4p
    assert e.value.rule == "S3"
    with pytest.raises(PositionError):
        choose_aside(hand, players=4, order=4)


def test_successive_halving_spends_its_budget_on_the_leaders() -> None:
    hand = deal_round(4, 2).dealt[0]
    o = rank_openings(4, hand, order=0, budget=240, seed=1)
    cands = {(a, p) for a in set(hand) for p in variant(4).predictions}
    assert {(r.set_aside, r.prediction) for r in o.rows} == cands  # each candidate once
    assert o.playouts <= 240 and not o.stopped
    best = o.rows[0]
    assert best.dropped is None  # the last one left in the race
    assert best.score.samples == max(r.score.samples for r in o.rows)
    # the rows that left earlier come later, and had fewer worlds
    dropped = [r.dropped for r in o.rows[1:] if r.dropped is not None]
    assert dropped == sorted(dropped, reverse=True)
    first_out = [r for r in o.rows if r.dropped == 0]
    assert first_out and all(r.score.samples < best.score.samples for r in first_out)
    assert all(0.0 <= r.avoid_paradox <= 1.0 for r in o.rows)


def test_one_candidate_per_prediction_when_the_card_is_set() -> None:
    hand = deal_round(3, 5).dealt[2]
    o = rank_openings(3, hand, order=2, before=(1, 3), asides=(hand[0],), budget=60)
    assert [r.set_aside for r in o.rows] == [hand[0]] * 3
    assert sorted(r.prediction or 0 for r in o.rows) == [1, 3, 4]


def test_a_world_deals_the_unseen_cards_and_keeps_the_hand() -> None:
    hand = deal_round(4, 9).dealt[0]
    w = deal_world(4, hand, 2, seed=0, index=4)
    assert w.dealt[2] == hand and w.asides[2] == 0
    # at 4 players the four dealt hands are the whole deck (S1: 8 numbers x 5 copies)
    assert sorted(c for h in w.dealt for c in h) == sorted(
        n for n in variant(4).numbers for _ in range(5)
    )
    for s, h in enumerate(w.dealt):
        if s != 2:
            assert w.asides[s] in h  # the others set aside a dealt card (S2)
            # the fixed rule predicts from the hand it plays, less the set-aside card
            rest = list(h)
            rest.remove(w.asides[s])
            assert w.preds_after[s] == strength_prediction(rest, 4)
    assert deal_world(4, hand, 2, seed=0, index=4) == w


def test_with_HAZARD_a_playout_credits_the_seats_score_at_each_trick_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """policy.HAZARD: each candidate's playout is worth, at HAZARD per trick, the seat's score
    (Sc1-Sc3) at each trick start after the first (another seat's paradox ending the round
    there, X3), else its final score; a playout in which the seat caused its own paradox keeps
    its final score. Recomputed from the same playouts."""
    from catbox.solver.estimates.policy import playout

    hand = deal_round(4, 9).dealt[1]
    world = deal_world(4, hand, 1, seed=0, index=3)
    aside = max(set(hand), key=lambda n: (hand.count(n), n))
    cands = [(aside, p) for p in variant(4).predictions]
    plain = [(v, ok) for v, ok, _ in opening.outcomes(world, 1, cands, (2,), hazard=0.0)]
    monkeypatch.setitem(policy.HAZARD, 4, 0.1)
    got = [(v, ok) for v, ok, _ in opening.outcomes(world, 1, cands, (2,))]
    credited = 0
    for (_, pred), (v0, ok0), (v, ok) in zip(cands, plain, got, strict=True):
        sim = opening._base(world, 1, aside)
        sim.preds = [2, pred, world.preds_after[2], world.preds_after[3]]
        starts: list[int] = []
        playout(sim, random.Random(world.play_seed), starts=(1, starts))
        assert ok == ok0 == (sim.paradox != 1) and v0 == (sim.score(1) or 0)
        assert len(starts) == sim.completed - (sim.paradox is None)
        if sim.paradox == 1:
            assert v == v0
            continue
        want, alive = 0.0, 1.0
        for s in starts:
            want, alive = want + alive * 0.1 * s, alive * 0.9
        assert v == pytest.approx(want + alive * v0)
        credited += v != v0
    assert credited


# ------------------------------------------------------------------- plays from any view
@st.composite
def views(draw: st.DrawFn) -> tuple[Position, Position]:
    """A running position (2-5 players, any trick, mid-trick or at its start, the round start
    included) and the view of its seat to play."""
    players = draw(st.integers(2, 5))
    tricks = variant(players).tricks
    left = draw(st.integers(1, tricks))
    mid = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 500))
    try:
        full = random_position(players, seed=seed, tricks_left=left, mid_trick=mid)
    except PositionError:
        full = random_position(players, seed=seed, tricks_left=left)
    full = full.settle()
    seat = full.to_play
    assert seat is not None
    return full, full.hide([s for s in range(players) if s != seat])


@settings(max_examples=40, deadline=None)
@given(views(), st.integers(0, 3))
def test_the_policys_play_is_legal_from_any_view(fv: tuple[Position, Position], seed: int) -> None:
    full, view = fv
    play = choose_play(view, seed=seed, level=0)
    assert play in full.legal_plays()
    assert choose_play(view, seed=seed, level=0) == play


@settings(max_examples=8, deadline=None)
@given(views(), st.integers(0, 3))
def test_the_players_play_is_legal_and_blind_to_hidden_hands(
    fv: tuple[Position, Position], seed: int
) -> None:
    """Level 1 (rollouts before the horizon, exact endgames from it): legal, the same for the
    same view and seed, and the same when the other hands are refilled at random consistently
    with the view (no information leaks into the decision)."""
    full, view = fv
    play = choose_play(view, seed=seed)
    assert play in full.legal_plays()
    other = DealSpace.of(view).sample(random.Random(seed))
    seat = view.to_play
    assert seat is not None
    again = other.hide([s for s in range(view.players) if s != seat])
    assert again == view
    assert choose_play(again, seed=seed) == play


@pytest.mark.usefixtures("small_budget")
def test_S2_the_set_aside_is_a_copy_of_a_most_held_number_the_ranking_breaks_ties() -> None:
    """choose_aside = aside_choice(...).aside: a copy of the number the hand holds most of;
    with several such numbers, the best of the ranking over them (every prediction)."""
    from collections import Counter

    from catbox.solver.estimates.opening import aside_choice, most_held_numbers

    ties = 0
    for seed in range(30):
        hand = deal_round(4, seed).dealt[seed % 4]
        c = aside_choice(hand, players=4, order=seed % 4, seed=seed)
        counts = Counter(hand)
        tied = most_held_numbers(hand)
        assert tied == tuple(sorted(n for n, k in counts.items() if k == max(counts.values())))
        assert c.aside in tied and c.check is None
        assert {r.set_aside for r in c.opening.rows} == set(tied)
        assert (c.aside, c.usual[1]) == (c.opening.rows[0].set_aside, c.opening.rows[0].prediction)
        ties += len(tied) > 1
        assert c.aside == choose_aside(hand, players=4, order=seed % 4, seed=seed)
    assert ties >= 3


@pytest.mark.usefixtures("small_budget")
def test_S2_with_ASIDE_EVERY_every_card_of_the_hand_is_ranked_for_the_set_aside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``ASIDE_EVERY`` on (here at 5 players) the set-aside candidates are every number of
    the dealt hand, not only the most-held ones; the card chosen is the ranking's best, a card
    of the hand (S2), the same for the same seed, and ``choose_aside`` agrees with
    ``aside_choice``."""
    from catbox.solver.estimates.opening import aside_choice

    monkeypatch.setitem(opening.ASIDE_EVERY, 5, True)
    for seed in range(6):
        hand = deal_round(5, seed).dealt[seed % 5]
        c = aside_choice(hand, players=5, order=seed % 5, seed=seed)
        assert {r.set_aside for r in c.opening.rows} == set(hand)
        assert c.aside in hand and c.aside == c.opening.rows[0].set_aside
        assert len(c.opening.rows) == 3 * len(set(hand))  # every card, every prediction
        assert c.aside == choose_aside(hand, players=5, order=seed % 5, seed=seed)
        assert c == aside_choice(tuple(reversed(hand)), players=5, order=seed % 5, seed=seed)


def test_S3_a_world_agrees_with_the_predictions_made_before_the_seat() -> None:
    """The seats before the asking one predicted ``before`` (public, I6): the worlds are
    redrawn until the fixed rule in those seats would have made those predictions."""
    hand = deal_round(5, 3).dealt[2]
    agree = plain = 0
    for i in range(40):
        w = deal_world(5, hand, 2, seed=1, index=i, before=(2, 2))
        agree += w.preds_after[:2] == (2, 2)
        plain += deal_world(5, hand, 2, seed=1, index=i).preds_after[:2] == (2, 2)
        assert deal_world(5, hand, 2, seed=1, index=i, before=(2, 2)) == w
    assert agree > plain and agree >= 12


def test_the_player_ranks_by_the_credited_value_and_shows_the_score_beside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With HAZARD on, a candidate's outcome is (value credited per trick, avoided, the score
    itself): the score is what HAZARD 0 gives, the ranking's rows carry both and the hazard,
    and the round-start advisor (``advise --hand``) still estimates the round score itself
    (analysis.md: "each with its estimated round score")."""
    hand = deal_round(4, 9).dealt[1]
    world = deal_world(4, hand, 1, seed=0, index=3)
    aside = max(set(hand), key=lambda n: (hand.count(n), n))
    cands = [(aside, p) for p in variant(4).predictions]
    plain = opening.outcomes(world, 1, cands, (2,), hazard=0.0)
    assert all(v == s for v, _, s in plain)
    got = opening.outcomes(world, 1, cands, (2,), hazard=0.1)
    assert [(s, ok) for _, ok, s in got] == [(s, ok) for _, ok, s in plain]
    assert any(v != s for v, _, s in got)
    monkeypatch.setitem(policy.HAZARD, 4, 0.1)
    o = opening.rank_openings(4, tuple(hand), order=1, before=(2,), budget=200)
    assert o.hazard == 0.1 and any(r.value.value != r.score.value for r in o.rows)
    doc = shapes.opening_json(o)
    assert doc["hazard"] == 0.1 and doc["candidates"][0]["value"] == o.rows[0].value.to_json()
    assert doc["value_note"].startswith("the round score with, at 0.1 per trick,")
    on = advise_start(4, tuple(hand), order=1, before=(2,), samples=6)
    monkeypatch.setitem(policy.HAZARD, 4, 0.0)
    assert advise_start(4, tuple(hand), order=1, before=(2,), samples=6) == on
