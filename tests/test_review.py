"""Reviewing recorded rounds (solver/review.py): marks are true, better plays really are
better, early plays are not guessed, and turning points are where the reference says."""

from __future__ import annotations

from pathlib import Path

import pytest

from catbox.solver import Record, formats
from catbox.solver.review import review

from .games import PARADOX_3P, record
from .reference import forced_answers, possible

RECORDS = Path(__file__).resolve().parent.parent / "puzzles" / "records"


@pytest.fixture(scope="module")
def four() -> Record:
    rec = formats.load(RECORDS / "four-player-round.toml")
    assert isinstance(rec, Record)
    return rec


def test_every_play_gets_a_verdict_and_forced_answers_only_near_the_end(four: Record) -> None:
    r = review(four, depth=2, from_move=21)
    positions = list(four.positions())
    assert [p.move for p in r.plays] == list(range(21, 33))
    for p in r.plays:
        before = positions[p.move - 1]
        assert p.analysed and p.status == "proven"
        assert (p.before is not None) == (before.tricks_left <= 2)


def test_possible_verdicts_agree_with_reference(four: Record) -> None:
    """From the possible columns: the reachable counts before and after each play, and the
    marks they imply (prediction unreachable, own paradox certain, counts lost)."""
    r = review(four, depth=1, from_move=21)
    positions = list(four.positions())
    for p in r.plays:
        pos = positions[p.move - 1]
        before = possible(pos, p.seat).tricks
        after = possible(pos.play(p.play), p.seat).tricks
        assert set(p.possible_before or ()) == before
        assert set(p.possible_after or ()) == after
        assert p.round_possible_after == possible(positions[p.move], p.seat).round
        pred = pos.seats[p.seat].prediction
        lost_pred = pred is not None and pred in before and pred not in after
        assert any("prediction" in m and "unreachable" in m for m in p.marks) == lost_pred
        assert any("lost trick count" in m for m in p.marks) == bool(before - after and after)
        if p.better is not None and (before - after):
            kept = possible(pos.play(p.better), p.seat).tricks
            assert kept > after or (lost_pred and pred in kept)
        # the marks (GRADES): ?? own paradox certain, ? prediction lost, ! the only keeper
        assert (p.grade in ("", "!")) == (not p.marks)
        if before and not after:
            assert p.grade == "??"
        elif lost_pred:
            assert p.grade == "?"
        if p.grade == "!":
            others = [q for q in pos.legal_plays() if q != p.play]
            assert others
            for q in others:
                kept = possible(pos.play(q), p.seat).tricks
                lost = bool(before - kept) or (pred in before and pred not in kept)
                if p.before is not None:  # forced answers too (the last trick at depth 1)
                    f0, f1 = forced_answers(pos, p.seat), forced_answers(pos.play(q), p.seat)
                    lost |= (f0.guaranteed and not f1.guaranteed) or (
                        f0.best_score is not None
                        and f1.best_score is not None
                        and f1.best_score < f0.best_score
                    )
                    lost |= pred in f0.forceable and pred not in f1.forceable
                    lost |= (f1.at_least or 0) < (f0.at_least or 0) and f1.at_least is not None
                assert lost, (p.move, q)
    assert {p.grade for p in r.plays} >= {"?!", "!"}  # both occur in this round
    s = {x.seat: x for x in r.summary}
    assert sorted(s) == [0, 1, 2, 3]
    assert sum(x.plays for x in r.summary) == len(r.plays)
    assert {m for x in r.summary for m in x.gave_up} == {p.move for p in r.plays if p.marks}


def test_marks_and_better_plays_agree_with_reference(four: Record) -> None:
    r = review(four, depth=2, from_move=25)
    positions = list(four.positions())
    assert any(p.before is not None for p in r.plays)
    for p in r.plays:
        if p.before is None:
            continue
        pos = positions[p.move - 1]
        ref_before = forced_answers(pos, p.seat)
        ref_after = forced_answers(pos.play(p.play), p.seat)
        assert p.before is not None and p.after is not None
        assert p.before.best_score == ref_before.best_score
        assert p.after.best_score == ref_after.best_score
        lost_score = (
            ref_before.best_score is not None
            and ref_after.best_score is not None
            and ref_after.best_score < ref_before.best_score
        )
        assert any("guaranteed score" in m for m in p.marks) == lost_score
        forced_marks = any("guaranteed" in m or "forceable" in m for m in p.marks)
        if p.better is not None and forced_marks:  # the better play keeps what this one lost
            ref_better = forced_answers(pos.play(p.better), p.seat)
            assert (ref_better.best_score or -99) >= (ref_after.best_score or -99)
            if lost_score and not any("trick count" in m or "prediction" in m for m in p.marks):
                assert ref_better.best_score == ref_before.best_score


def test_turning_point_of_a_paradox_round() -> None:
    rec = record(*PARADOX_3P)
    r = review(rec, depth=1)
    assert all(p.analysed for p in r.plays)
    mine = [t for t in r.turning_points if "unavoidable" in t.text]
    assert len(mine) == 1
    tp = mine[0]
    positions = list(rec.positions())
    culprit = positions[-1].paradox
    assert tp.seat == culprit and culprit is not None
    # from the turning point on no continuation avoids it; just before, one did
    assert not possible(positions[tp.move], culprit).avoid
    assert possible(positions[tp.move - 1], culprit).avoid
    assert f"from move {tp.move}" in tp.text


def test_review_of_one_seat_only(four: Record) -> None:
    r = review(four, seat=2, depth=2, from_move=25)
    assert r.plays and all(p.seat == 2 for p in r.plays)
