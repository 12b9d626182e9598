"""The analysis facade (solver/analysis.py): merged answers, deals of unknown hands, the
analyze table — all checked against the exhaustive reference."""

from __future__ import annotations

from collections import Counter

import pytest

from catbox.solver.analysis import (
    _with_settled,
    analyze,
    analyze_play,
    best_rows,
    paradox_report,
    tricks_report,
)
from catbox.solver.answers import merge_status
from catbox.solver.cards import Play
from catbox.solver.deal import random_position
from catbox.solver.errors import IllegalPlayError, PositionError
from catbox.solver.forcing import ForcedReport, forced_report
from catbox.solver.limits import Limits
from catbox.solver.sampling import _count_splits, deals_of, wilson_upper
from catbox.solver.search import MoveRow, Session

from .reference import deals, forced_answers, possible

CASES = [(p, seed, tl) for p in (2, 3, 4, 5) for seed in range(4) for tl in (1, 2)]


def test_merge_status() -> None:
    assert merge_status("proven", "proven") == "proven"
    assert merge_status("proven", "estimate") == "estimate"
    assert merge_status("estimate", "unknown", "proven") == "unknown"


def test_count_splits_matches_enumeration() -> None:
    for seed in range(6):
        pos = random_position(3 + seed % 3, seed, 1).hide([1, 2])
        sizes = [pos.seats[1].hand_size, pos.seats[2].hand_size]
        assert _count_splits(pos.unknown_pool(), sizes) == sum(1 for _ in deals(pos))
    assert _count_splits(Counter({1: 2, 2: 1}), [1, 1]) == 3


def test_wilson_upper_bound() -> None:
    assert wilson_upper(0, 24) == pytest.approx(0.138, abs=0.002)
    assert wilson_upper(0, 0) == 1.0


@pytest.mark.parametrize(("players", "seed", "tl"), CASES)
def test_reports_agree_with_reference(players: int, seed: int, tl: int) -> None:
    pos = random_position(players, seed + 40, tl, mid_trick=seed % players)
    seat = ((pos.to_play or 0) + seed) % players
    ref_p = possible(pos, seat)
    ref_f = forced_answers(pos, seat)
    pr = paradox_report(pos, seat)
    assert (pr.possible, pr.round_possible, pr.guaranteed) == (
        ref_p.avoid,
        ref_p.round,
        ref_f.guaranteed,
    )
    assert pr.status == "proven"
    if pr.strategy_line is not None:  # a guaranteed main line replays to a safe end
        end = pos
        for play in pr.strategy_line:
            end = end.play(play)
        assert end.finished and end.paradox != seat
    tr = tricks_report(pos, seat)
    assert set(tr.possible) == ref_p.tricks
    f = tr.forced
    assert set(f.forceable or ()) == ref_f.forceable
    assert (f.at_least, f.at_most, f.best_score) == (
        ref_f.at_least,
        ref_f.at_most,
        ref_f.best_score,
    )


@pytest.mark.parametrize("seed", range(6))
def test_forced_with_unknown_hands_means_every_deal(seed: int) -> None:
    full = random_position(3 + seed % 2, seed + 7, 1, mid_trick=1)
    seat = full.to_play
    assert seat is not None
    other = (seat + 1) % full.players
    hidden = full.hide([other])
    boards, exact = deals_of(hidden)
    assert exact and full.seats[other].hand in [b.seats[other].hand for b in boards]
    per_deal = [forced_answers(b, seat) for b in boards]
    fr = forced_report(hidden, seat)
    assert fr.status == "proven" and fr.deals == len(boards)
    assert fr.guaranteed == all(a.guaranteed for a in per_deal)
    assert set(fr.forceable or ()) == set.intersection(*(set(a.forceable) for a in per_deal))
    if fr.guaranteed:
        assert fr.at_least == min(a.at_least for a in per_deal if a.at_least is not None)
        assert fr.at_most == max(a.at_most for a in per_deal if a.at_most is not None)


def test_many_deals_are_sampled_and_labelled_estimate() -> None:
    pos = random_position(4, 3, 3).hide([1, 2, 3])
    boards, exact = deals_of(pos)
    assert not exact and len(boards) == 24
    assert deals_of(pos)[0] == boards  # a fixed seed: the same sample every time
    fr = forced_report(pos, pos.to_play or 0, limits=Limits(60))
    assert fr.status == "estimate" and fr.failure_bound is not None
    # a sampled "yes" is only an estimate; a "no" is proven by the deal that refutes it
    assert fr.guaranteed_status == ("estimate" if fr.guaranteed else "proven")


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (2, 4)])
def test_analyze_rows_agree_with_reference(players: int, seed: int) -> None:
    pos = random_position(players, seed, 2, mid_trick=1)
    seat = pos.to_play
    assert seat is not None
    rows = analyze(pos)
    assert [r.play for r in rows] == pos.legal_plays()
    for r in rows:
        child = pos.play(r.play)
        ref_p, ref_f = possible(child, seat), forced_answers(child, seat)
        assert set(r.possible or ()) == ref_p.tricks
        assert set(r.forceable or ()) == ref_f.forceable
        assert (r.avoid_possible, r.avoid_guaranteed) == (ref_p.avoid, ref_f.guaranteed)
        assert r.best_score == ref_f.best_score and r.status == "proven"


@pytest.mark.parametrize(
    ("players", "seed", "hide"), [(3, 1, ()), (4, 2, ()), (5, 3, ()), (2, 4, ()), (4, 5, (1, 2))]
)
def test_analyze_play_gives_the_row_of_analyze(players: int, seed: int, hide: tuple[int]) -> None:
    pos = random_position(players, seed, 2, mid_trick=1).hide(hide)
    for r in analyze(pos):
        one = analyze_play(pos, r.play)
        assert (one.play, one.possible, one.forceable, one.best_score) == (
            r.play,
            r.possible,
            r.forceable,
            r.best_score,
        )
        assert (one.avoid_possible, one.avoid_guaranteed, one.status, one.deals) == (
            r.avoid_possible,
            r.avoid_guaranteed,
            r.status,
            r.deals,
        )
        assert one.same_as is None


def test_analyze_play_refuses_an_illegal_play() -> None:
    pos = random_position(4, 2, 2)
    legal = set(pos.legal_plays())
    bad = next(
        Play.parse(f"{n}{c}")
        for n in range(1, 9)
        for c in "RBYG"
        if Play.parse(f"{n}{c}") not in legal
    )
    with pytest.raises(IllegalPlayError):
        analyze_play(pos, bad)


def test_best_rows_prefer_the_highest_guaranteed_score() -> None:
    pos = random_position(3, 7, 2)
    rows = analyze(pos)
    best = best_rows(rows)
    scores = [r.best_score for r in rows]
    assert best and all(scores[i] == max(s for s in scores if s is not None) for i in best)


def test_analyze_refuses_an_unknown_hand_to_play_and_finished_rounds() -> None:
    pos = random_position(4, 1, 2)
    with pytest.raises(PositionError):
        analyze(pos.hide([pos.to_play or 0]))
    end = random_position(4, 1, 1)
    while not end.finished:
        end = end.play(end.legal_plays()[0])
    with pytest.raises(PositionError):
        analyze(end, limits=Limits(5.0))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_forced_answers_are_consistent_with_possible_ones(players: int) -> None:
    """forceable ⊆ possible; guaranteed ⇒ possible; every forceable k between at_most and
    at_least (at_least may exceed at_most)."""
    for seed in range(8):
        pos = random_position(players, seed + 300, 1 + seed % 3, mid_trick=seed % players)
        seat = (pos.to_play or 0) + seed % 2
        seat %= players
        tr, pr = tricks_report(pos, seat), paradox_report(pos, seat)
        f = tr.forced
        assert set(f.forceable or ()) <= set(tr.possible)
        assert not pr.guaranteed or pr.possible
        for k in f.forceable or ():
            assert f.at_most is not None and f.at_least is not None
            assert f.at_most <= k <= f.at_least
        if f.guaranteed:
            assert f.at_least in tr.possible and f.at_most in tr.possible


@pytest.mark.parametrize("hide", [(), (1,), (1, 2, 3)])
def test_paradox_only_search_agrees_with_the_full_one(hide: tuple[int, ...]) -> None:
    for seed in range(6):
        pos = random_position(4, seed + 500, 2 + seed % 2).hide(hide)
        seat = 0
        cheap = forced_report(pos, seat, only_guaranteed=True)
        full = forced_report(pos, seat)
        assert cheap.guaranteed == full.guaranteed
        assert cheap.guaranteed_status == full.guaranteed_status
        assert cheap.forceable is None and cheap.best_score is None
        assert paradox_report(pos, seat).guaranteed == full.guaranteed


def test_a_cut_search_keeps_what_it_settled_on_every_row() -> None:
    # the search asks paradox avoidance of every row before the trick counts (search api
    # FAMILIES): under a node budget that cuts rows, every row still has its guaranteed
    # answer, and every settled answer is the unlimited one
    pos = random_position(4, 5, 5)
    full = {r.play: r for r in analyze(pos, session=Session())}
    cut = analyze(pos, limits=Limits(node_limit=3000), session=Session())
    assert any(r.status == "unknown" for r in cut)
    for r in cut:
        assert r.avoid_guaranteed == full[r.play].avoid_guaranteed
        assert r.forceable is None or r.forceable == full[r.play].forceable
        assert r.best_score is None or r.best_score == full[r.play].best_score
        if r.best_score is None and full[r.play].best_score is not None:
            lo, hi = r.bounds["best_score"]
            assert lo <= full[r.play].best_score <= hi


def test_settled_answers_fill_a_row_and_narrow_its_score() -> None:
    # a row the question-by-question pass left open takes the search's settled answers: S
    # cannot avoid its paradox, so nothing is forceable and the score is at most -tricks (Sc1)
    pos = random_position(3, 2, 4)
    play = pos.legal_plays()[0]
    after = pos.play(play)
    seat = pos.to_play
    assert seat is not None
    fr = ForcedReport(
        seat,
        None,
        None,
        None,
        None,
        None,
        "unknown",
        0,
        1,
        True,
        None,
        {"best_score": [-9, 30]},
    )
    row = MoveRow(play, (), False, None, "unknown")
    got = _with_settled(fr, row, after, seat)
    t, left = after.seats[seat].tricks, after.tricks_left
    assert (got.guaranteed, got.forceable, got.status) == (False, (), "unknown")
    assert got.bounds["best_score"] == [max(-9, -(t + left - 1)), -t]  # X3: not the last trick
    assert _with_settled(got, row, after, seat) == got  # nothing more to add
