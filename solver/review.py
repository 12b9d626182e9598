"""Reviewing a recorded round, play by play, the way bridge tools annotate a deal.

At every play whose position is small enough for exact search (``depth`` tricks left or
fewer, every hand known), compare what the player could force before the play with what the
play kept: paradox avoidance, the prediction, guaranteed tricks and score. Earlier positions
are reported as not analysed, never guessed. Turning points use the cooperative "possible"
answer, which only ever goes from yes to no along a round (I4), so a binary search finds the
move after which a paradox became unavoidable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .analysis import ForcedReport, forced_report
from .answers import PROVEN, UNKNOWN, Status
from .cards import Play, seat_letter
from .position import Position
from .record import Record

__all__ = ["PlayReview", "Review", "TurningPoint", "review"]


@dataclass(frozen=True, slots=True)
class PlayReview:
    move: int  # 1-based index in the record
    seat: int
    play: Play
    analysed: bool
    status: Status
    before: ForcedReport | None
    after: ForcedReport | None
    marks: tuple[str, ...]  # what the play gave up ("" when it kept everything)
    better: Play | None  # a play that kept what this one lost


@dataclass(frozen=True, slots=True)
class TurningPoint:
    seat: int
    move: int  # after this move (0: from the deal), the seat's paradox was unavoidable
    text: str


@dataclass(frozen=True, slots=True)
class Review:
    plays: tuple[PlayReview, ...]
    turning_points: tuple[TurningPoint, ...]
    depth: int


def _judge(
    pos: Position, seat: int, before: ForcedReport, kids: dict[Play, ForcedReport], played: Play
) -> tuple[tuple[str, ...], Play | None]:
    after = kids[played]
    marks: list[str] = []
    better: Play | None = None
    order = sorted(kids)

    def first(test: Callable[[ForcedReport], bool]) -> Play | None:
        return next((p for p in order if test(kids[p])), None)

    if before.guaranteed and not after.guaranteed:
        marks.append("gave up guaranteed paradox avoidance")
        better = better or first(lambda f: bool(f.guaranteed))
    pred = pos.seats[seat].prediction
    if (
        pred is not None
        and pred in (before.forceable or ())
        and pred not in (after.forceable or ())
    ):
        marks.append(f"gave up the forceable prediction of {pred}")
        better = better or first(lambda f: pred in (f.forceable or ()))
    if (
        before.at_least is not None
        and after.at_least is not None
        and after.at_least < before.at_least
    ):
        lost = before.at_least - after.at_least
        marks.append(f"lost {lost} guaranteed trick{'s' if lost > 1 else ''}")
        top = before.at_least
        better = better or first(lambda f: f.at_least is not None and f.at_least >= top)
    if (
        before.best_score is not None
        and after.best_score is not None
        and after.best_score < before.best_score
    ):
        marks.append(f"guaranteed score {before.best_score} → {after.best_score}")
        best = before.best_score
        better = better or first(lambda f: f.best_score == best)
    return tuple(marks), better


def review(
    record: Record,
    seat: int | None = None,
    *,
    depth: int = 4,
    time_limit: float | None = 20.0,
    workers: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every play of ``record`` (or only ``seat``'s), exactly where search allows."""
    positions = list(record.positions())
    plays: list[PlayReview] = []
    for k, move in enumerate(record.moves[: len(positions) - 1], start=1):
        pos = positions[k - 1]
        mover = pos.to_play
        assert mover is not None
        if progress:
            progress(k, len(record.moves))
        if seat is not None and mover != seat:
            continue
        if pos.tricks_left > depth or not pos.all_hands_known:
            plays.append(PlayReview(k, mover, move, False, UNKNOWN, None, None, (), None))
            continue
        before = forced_report(pos, mover, time_limit=time_limit)
        kids = {
            p: forced_report(pos.play(p), mover, time_limit=time_limit) for p in pos.legal_plays()
        }
        statuses = [before.status, *(f.status for f in kids.values())]
        if any(s != PROVEN for s in statuses):
            plays.append(
                PlayReview(k, mover, move, False, UNKNOWN, before, kids.get(move), (), None)
            )
            continue
        marks, better = _judge(pos, mover, before, kids, move)
        plays.append(PlayReview(k, mover, move, True, PROVEN, before, kids[move], marks, better))
    return Review(tuple(plays), tuple(_turning_points(record, positions, seat, workers)), depth)


def _turning_points(
    record: Record, positions: list[Position], seat: int | None, workers: int
) -> list[TurningPoint]:
    """For the seat that caused the paradox (if any), the first move after which no
    continuation avoids it."""
    from .possible import paradox_possible

    end = positions[-1]
    culprit = end.paradox
    if culprit is None or (seat is not None and culprit != seat):
        return []

    def doomed(i: int) -> bool | None:
        return paradox_possible(positions[i], culprit, workers=workers).possible is False

    lo, hi = 0, len(positions) - 1  # doomed(hi) is True: the paradox happened
    if doomed(lo):
        text = f"{seat_letter(culprit)}'s paradox was unavoidable from the deal"
        return [TurningPoint(culprit, 0, text)]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if doomed(mid):
            hi = mid
        else:
            lo = mid
    mover = positions[lo].to_play
    who = seat_letter(mover) if mover is not None else "?"
    text = (
        f"from move {hi} ({who} played {record.moves[hi - 1]}), "
        f"{seat_letter(culprit)}'s paradox was unavoidable"
    )
    return [TurningPoint(culprit, hi, text)]
