"""The arena's paired statistics (bench/arena.py) against worked examples: the per-deal paired
score difference and its 95% interval, paradoxes and hits on both sides, trick timing (short,
cut short, over), a game's win share (Sc4: a shared win counts 1/k) and a whole game's rounds
(the start passing left)."""

from __future__ import annotations

import pytest

from bench.arena import AGENTS as ARENA_AGENTS
from bench.arena import (
    Outcome,
    Tally,
    deal,
    game_rounds,
    game_win,
    miss_of,
    play_round,
)
from catbox.solver.scoring import game_result


def outcome(scores: list[int], paradox: int | None = None, miss: list[str | None] | None = None,
            hits: list[bool] | None = None) -> Outcome:  # fmt: skip
    return Outcome(scores, paradox, hits or [False] * len(scores), {}, miss or [])


def test_paired_score_difference_per_deal_and_its_interval() -> None:
    """Two deals at two seats. Deal 1: the swapped seat 0 scores 5 against 3 in the reference
    round (+2), seat 1 scores 1 against 2 (-1): +0.5 per seat-round. Deal 2: +1 and +3: +2.0.
    Mean +1.25; the sample standard deviation of (0.5, 2.0) is 1.0607, so the 95% interval is
    1.25 +- 12.706 * 1.0607 / sqrt(2) = 1.25 +- 9.53 (Student's t, 1 degree of freedom)."""
    t = Tally()
    ref1 = outcome([3, 2], hits=[True, False])
    t.add(outcome([5, 0], hits=[True, False]), ref1, 0)
    t.add(outcome([0, 1], paradox=1), ref1, 1)
    t.end_deal()
    ref2 = outcome([2, 4], paradox=0)
    t.add(outcome([3, 0]), ref2, 0)
    t.add(outcome([0, 7], hits=[False, True]), ref2, 1)
    t.end_deal()
    s = t.summary(4)
    d = s["score_diff"]
    assert d.value == pytest.approx(1.25)  # type: ignore[attr-defined]
    lo, hi = d.ci95  # type: ignore[attr-defined]
    assert lo == pytest.approx(1.25 - 9.5295, abs=1e-3) and hi == pytest.approx(10.7795, abs=1e-3)
    # paradoxes caused by the swapped seat: deal 1 seat 1 (the reference seat did not): +1 of 2
    # seats; deal 2 seat 0 caused one in the reference round only: -1 of 2 -> (+0.5, -0.5)
    assert s["paradox_diff"].value == pytest.approx(0.0)  # type: ignore[attr-defined]
    assert s["paradox"].value == s["paradox_base"].value == pytest.approx(0.25)  # type: ignore[attr-defined]
    assert s["hit"].value == pytest.approx(0.5)  # type: ignore[attr-defined]
    assert s["hit_base"].value == pytest.approx(0.25)  # type: ignore[attr-defined]


def test_trick_timing_counts_each_side() -> None:
    t = Tally()
    t.add(outcome([1, 1], miss=["short", None]), outcome([1, 1], miss=["over", "cut"]), 0)
    t.add(outcome([1, 1], miss=[None, "cut"]), outcome([1, 1], miss=["over", "cut"]), 1)
    t.end_deal()
    assert t.summary(2)["timing"] == {"base_cut": 1, "base_over": 1, "its_cut": 1, "its_short": 1}


def test_miss_of_tells_short_cut_and_over_from_the_final_position() -> None:
    """Over many self-played rounds, each seat's miss agrees with its tricks, its prediction
    and who caused the paradox (X3: another seat's paradox ends the round early: cut)."""
    policy = ARENA_AGENTS["policy"]
    seen = set()
    for seed in range(40):
        start = deal(4, 10_000 + seed)
        pos = start
        while not pos.finished:
            pos = pos.play(policy(pos, seed))
        for s in range(4):
            m = miss_of(pos, s)
            pred, tricks = pos.seats[s].prediction, pos.seats[s].tricks
            assert pred is not None
            if pos.paradox == s or tricks == pred:
                assert m is None
            elif tricks > pred:
                assert m == "over"
            else:
                assert m == ("cut" if pos.paradox is not None else "short")
            seen.add(m)
    assert {"short", "over", None} <= seen


def test_a_shared_game_win_counts_one_over_k() -> None:
    """Sc4: totals 10, 10, 7 with the final round 3, 3, 1: A and B share the win."""
    res = game_result([[7, 7, 6], [3, 3, 1]])
    assert res.winners == (0, 1)
    assert game_win(res, 0) == game_win(res, 1) == 0.5 and game_win(res, 2) == 0.0
    alone = game_result([[7, 7, 6], [3, 4, 1]])
    assert game_win(alone, 1) == 1.0 and game_win(alone, 0) == 0.0


def test_a_whole_game_passes_the_start_left_and_sums_its_rounds() -> None:
    policy = ARENA_AGENTS["policy"]
    seeds = [100, 101, 102]
    rounds = game_rounds(3, seeds, policy, None, "player")
    assert len(rounds) == 3  # Sc4: as many rounds as players
    for r, sd in enumerate(seeds):
        start = deal(3, sd, round_start=r)
        assert start.round_start == r
        assert rounds[r] == play_round(start, [policy] * 3, sd).scores
    res = game_result(rounds)
    assert res.totals == tuple(sum(x[s] for x in rounds) for s in range(3))


def test_each_seat_round_keeps_its_row_for_pairing_two_runs() -> None:
    """Tally.rows: one row per swapped seat-round, by deal index, with both sides' score,
    paradox, miss, tricks and prediction (two contestants' runs on the same deals are paired by
    these rows; the tricks against the prediction make the own-play table)."""
    t = Tally()
    mine = outcome([4, 1], miss=[None, "over"])
    mine.tricks, mine.preds = [3, 2], [3, 1]
    t.add(mine, outcome([2, 1], paradox=0, miss=[None, "over"]), 0)
    t.end_deal()
    t.add(outcome([0, 3], paradox=1), outcome([1, 5], miss=["short", None]), 1)
    t.end_deal()
    assert t.rows == [
        {"deal": 0, "seat": 0, "score": 4, "score_base": 2, "paradox": False,
         "paradox_base": True, "miss": None, "miss_base": None, "tricks": 3,
         "tricks_base": None, "prediction": 3, "prediction_base": None},
        {"deal": 1, "seat": 1, "score": 3, "score_base": 5, "paradox": True,
         "paradox_base": False, "miss": None, "miss_base": None, "tricks": None,
         "tricks_base": None, "prediction": None, "prediction_base": None},
    ]  # fmt: skip
