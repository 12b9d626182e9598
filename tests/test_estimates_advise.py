"""``advise`` (analysis.md, "The player's view"): exact pimc equals the weighted average over
every consistent deal of the exhaustive reference solver; sampled answers carry intervals and
do not depend on the number of workers; playouts, the round-start advisor and the player's-view
review answer with labelled estimates."""

from __future__ import annotations

import pytest

from catbox.solver.cards import Play
from catbox.solver.deal import deal_round
from catbox.solver.errors import PositionError
from catbox.solver.estimates.advise import advise
from catbox.solver.estimates.deals import DealSpace
from catbox.solver.estimates.review import review_player
from catbox.solver.estimates.start import advise_start
from catbox.solver.limits import Limits
from catbox.solver.record import Record
from tests import reference
from tests.fixtures import hidden


@pytest.mark.parametrize(("players", "seed", "left"), [(3, 4, 2), (2, 1, 2), (3, 2, 1)])
def test_exact_pimc_matches_reference(players: int, seed: int, left: int) -> None:
    pos = hidden(players, seed, left)
    seat = pos.to_play
    assert seat is not None
    a = advise(pos, seat, method="pimc", exact_limit=400)
    assert a.status == "proven"
    deals = DealSpace.of(pos).enumerate(400)
    assert deals is not None and a.samples == len(deals)
    total = sum(w for _, w in deals)
    for m in a.moves:
        ok = sum(w for d, w in deals if reference.forced_answers(d.play(m.play), seat).guaranteed)
        assert m.avoid_paradox.value == pytest.approx(ok / total)
        assert m.avoid_paradox.exact
        if m.score is not None:
            exp = sum(w * (reference.best_score(d.play(m.play), seat) or 0) for d, w in deals)
            assert m.score.value == pytest.approx(exp / total)
    keys = [m.key() for m in a.moves]
    assert keys == sorted(keys, reverse=True)


def test_sampled_answer_is_the_same_for_any_workers() -> None:
    pos = hidden(4, 4, 5)
    seat = pos.to_play
    assert seat is not None
    one = advise(pos, seat, samples=24, seed=3, workers=1)
    two = advise(pos, seat, samples=24, seed=3, workers=2)
    assert one == two
    assert one.method == "playouts" and one.status == "estimate" and one.samples == 24
    for m in one.moves:
        lo, hi = m.avoid_paradox.ci95
        assert lo <= m.avoid_paradox.value <= hi and m.avoid_paradox.samples == 24
        assert m.tricks is not None and sum(m.tricks.values()) == pytest.approx(1.0)
    assert {m.play for m in one.moves} == set(pos.legal_plays())
    assert advise(pos, seat, samples=24, seed=4) != one


def test_sampled_pimc_is_an_estimate() -> None:
    pos = hidden(4, 2, 2)
    seat = pos.to_play
    assert seat is not None
    a = advise(pos, seat, method="pimc", samples=30, exact_limit=10)
    assert a.status == "estimate" and a.samples == 30 and a.method == "pimc"
    j = a.to_json()
    assert j["best"] == str(a.moves[0].play) and j["seat"] == "ABCD"[seat]


def test_advise_refuses_bad_questions() -> None:
    pos = hidden(3, 1, 3)
    seat = pos.to_play
    assert seat is not None
    with pytest.raises(PositionError):
        advise(pos, (seat + 1) % 3)
    with pytest.raises(PositionError):
        advise(pos, seat, method="magic")


def test_round_start_advisor_ranks_every_candidate() -> None:
    d = deal_round(4, 5)
    r = advise_start(4, d.dealt[2], order=2, before=(1, 2), samples=30)
    assert len(r.candidates) == 3 * len(set(d.dealt[2]))
    scores = [c.score.value for c in r.candidates]
    assert scores == sorted(scores, reverse=True)
    assert r.to_json()["status"] == "estimate"
    r2 = advise_start(2, deal_round(2, 1).dealt[0], order=0, samples=10)
    assert all(c.prediction is None for c in r2.candidates)
    with pytest.raises(PositionError):
        advise_start(4, d.dealt[2], order=2, before=(1,))  # S3: two predictions came before
    with pytest.raises(PositionError):
        advise_start(4, d.dealt[2][:5], order=0)


def test_player_view_review_judges_every_play_of_the_seat() -> None:
    d = deal_round(3, seed=2, predictions=True)
    rec = Record.from_deal(d)
    pos = rec.start()
    moves: list[Play] = []
    mine: list[int] = []
    while not pos.finished and len(moves) < 9:
        if pos.to_play == 1:
            mine.append(len(moves) + 1)
        moves.append(pos.legal_plays()[-1])
        pos = pos.play(moves[-1])
    rec = rec.with_moves(moves)
    r = review_player(rec, 1, samples=12)
    assert [p.move for p in r.plays] == mine and mine
    for p in r.plays:
        assert p.best.avoid_paradox.value >= p.made.avoid_paradox.value or p.better is None


def test_time_limit_stops_sampling_and_says_so() -> None:
    pos = hidden(4, 4, 5)
    seat = pos.to_play
    assert seat is not None
    a = advise(pos, seat, samples=100_000, limits=Limits(0.2))
    assert a.stopped and 1 <= a.samples < 100_000 and a.status == "estimate"


def test_round_start_advisor_is_the_same_for_any_workers() -> None:
    hand = deal_round(3, 8).dealt[1]
    one = advise_start(3, hand, order=1, before=(3,), samples=8, seed=2, workers=1)
    two = advise_start(3, hand, order=1, before=(3,), samples=8, seed=2, workers=2)
    assert one == two
