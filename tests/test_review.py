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


def test_early_plays_are_not_analysed(four: Record) -> None:
    r = review(four, depth=2)
    positions = list(four.positions())
    for p in r.plays:
        before = positions[p.move - 1]
        assert p.analysed == (before.tricks_left <= 2)
        if not p.analysed:
            assert p.before is None and not p.marks and p.status == "unknown"


def test_marks_and_better_plays_agree_with_reference(four: Record) -> None:
    r = review(four, depth=2)
    positions = list(four.positions())
    assert any(p.analysed for p in r.plays)
    for p in r.plays:
        if not p.analysed:
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
        assert any("score" in m for m in p.marks) == lost_score
        if p.better is not None:  # the suggested play keeps what this one lost
            ref_better = forced_answers(pos.play(p.better), p.seat)
            assert (ref_better.best_score or -99) >= (ref_after.best_score or -99)
            if lost_score:
                assert ref_better.best_score == ref_before.best_score


def test_turning_point_of_a_paradox_round() -> None:
    rec = record(*PARADOX_3P)
    r = review(rec, depth=1)
    assert len(r.turning_points) == 1
    tp = r.turning_points[0]
    positions = list(rec.positions())
    culprit = positions[-1].paradox
    assert tp.seat == culprit and culprit is not None
    # from the turning point on no continuation avoids it; just before, one did
    assert not possible(positions[tp.move], culprit).avoid
    assert possible(positions[tp.move - 1], culprit).avoid
    assert f"from move {tp.move}" in tp.text


def test_review_of_one_seat_only(four: Record) -> None:
    r = review(four, seat=2, depth=2)
    assert r.plays and all(p.seat == 2 for p in r.plays)
