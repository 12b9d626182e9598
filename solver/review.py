"""Reviewing a recorded round, play by play, the way chess and bridge tools annotate a game.

Every play gets a verdict. From the first trick, the cooperative "possible" answers (proven by
CP-SAT for every legal play at once, :func:`.possible.rows_possible`) show what a play gave up
for good: it made the mover's prediction unreachable, made a paradox-free round impossible,
made the mover's own paradox certain in every continuation, or lost some reachable trick
counts -- each with a better play that kept it, when one exists. Where the exact game-tree
search reaches (``depth`` tricks left or fewer, every hand known), the forced answers are
compared too: guaranteed paradox avoidance, the forceable prediction, guaranteed tricks and
score. The turning points over the whole round are the plays after which a paradox-free round,
or the eventual culprit's avoiding its paradox, was no longer possible; a per-seat summary
lists the plays that gave something up.

Each play is graded the way chess annotators do (:data:`GRADES`, thresholds stated there and on
the HTML review page): ``??`` gave up the mover's own safety, ``?`` gave up its prediction or
guaranteed score (or a paradox-free round), ``?!`` lost reachable or guaranteed trick counts
only, ``!`` the only legal play that kept everything (every other one gave something up).

One :class:`.limits.Limits` deadline bounds the whole review; every play gets an equal share
of the time left. A play whose questions ran out of time keeps the verdicts that were proven.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .answers import PROVEN, UNKNOWN, Status
from .cards import Play, seat_letter
from .forcing import ForcedReport, forced_report
from .limits import Limits
from .position import Position
from .record import Record

if TYPE_CHECKING:
    from .search import Session

__all__ = ["GRADES", "PlayReview", "Review", "SeatSummary", "TurningPoint", "review"]

#: The marks of a play, worst first, with the threshold that earns each (proven verdicts only).
GRADES: dict[str, str] = {
    "??": "blunder: made the mover's own paradox certain in every continuation, or gave up its "
    "guaranteed paradox avoidance",
    "?": "mistake: made the mover's prediction unreachable or no longer forceable, lowered its "
    "guaranteed score, or made a paradox-free round impossible",
    "?!": "inaccuracy: lost reachable final trick counts or guaranteed tricks, nothing more",
    "!": "only move: the one legal play that kept everything; every other play gave something up",
}
_ORDER = ("", "!", "?!", "?", "??")


def _worst(grades: list[str]) -> str:
    return max(grades, key=_ORDER.index, default="")


@dataclass(frozen=True, slots=True)
class PlayReview:
    """The verdict on one play of a recorded round: what the mover gave up by it (``marks``,
    graded ``grade``), a ``better`` play that kept it, the reachable trick counts before and
    after, and, near the end, the exact forced answers before and after (``before``/``after``).
    ``status`` is ``proven`` when every question asked of the play was settled."""

    move: int  # 1-based index in the record
    seat: int
    play: Play
    analysed: bool  # a verdict was proven (possible columns at least)
    status: Status  # proven: every question of this play was settled
    before: ForcedReport | None  # forced answers (None: beyond the search depth)
    after: ForcedReport | None
    marks: tuple[str, ...]  # what the play gave up (empty: it kept everything)
    better: Play | None  # a play that kept what this one lost
    possible_before: tuple[int, ...] | None = None  # reachable final trick counts
    possible_after: tuple[int, ...] | None = None
    round_possible_after: bool | None = None  # a paradox-free round still possible
    grade: str = ""  # "??", "?", "?!", "!" or "" (GRADES)


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A move after which something was no longer possible (a paradox-free round, or the
    culprit's avoiding its paradox), told in ``text``."""

    seat: int
    move: int  # after this move (0: from the deal), the thing described was no longer possible
    text: str


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review in numbers: its plays reviewed, those judged, those that gave
    something up."""

    seat: int
    plays: int  # plays reviewed
    judged: int  # plays with a proven verdict
    gave_up: tuple[int, ...]  # moves that gave something up


@dataclass(frozen=True, slots=True)
class Review:
    """The review of a recorded round (:func:`review`): a verdict per play (``plays``), the
    turning points after which a paradox-free round, or the culprit's avoiding its paradox, was
    no longer possible, the search ``depth`` used, and a summary per seat."""

    plays: tuple[PlayReview, ...]
    turning_points: tuple[TurningPoint, ...]
    depth: int
    summary: tuple[SeatSummary, ...] = ()


def _judge(
    pos: Position, seat: int, before: ForcedReport, kids: dict[Play, ForcedReport], played: Play
) -> tuple[list[str], Play | None, str]:
    after = kids[played]
    marks: list[str] = []
    grades: list[str] = []
    better: Play | None = None
    order = sorted(kids)

    def first(test: Callable[[ForcedReport], bool]) -> Play | None:
        return next((p for p in order if test(kids[p])), None)

    if before.guaranteed and not after.guaranteed:
        marks.append("gave up guaranteed paradox avoidance")
        grades.append("??")
        better = better or first(lambda f: bool(f.guaranteed))
    pred = pos.seats[seat].prediction
    if (
        pred is not None
        and pred in (before.forceable or ())
        and pred not in (after.forceable or ())
    ):
        marks.append(f"gave up the forceable prediction of {pred}")
        grades.append("?")
        better = better or first(lambda f: pred in (f.forceable or ()))
    if (
        before.at_least is not None
        and after.at_least is not None
        and after.at_least < before.at_least
    ):
        lost = before.at_least - after.at_least
        marks.append(f"lost {lost} guaranteed trick{'s' if lost > 1 else ''}")
        grades.append("?!")
        top = before.at_least
        better = better or first(lambda f: f.at_least is not None and f.at_least >= top)
    if (
        before.best_score is not None
        and after.best_score is not None
        and after.best_score < before.best_score
    ):
        marks.append(f"guaranteed score {before.best_score} → {after.best_score}")
        grades.append("?")
        best = before.best_score
        better = better or first(lambda f: f.best_score == best)
    return marks, better, _worst(grades)


def _possible_marks(
    pos: Position,
    seat: int,
    rows: dict[Play, tuple[int, ...]],
    played: Play,
    round_before: bool | None,
    round_after: bool | None,
) -> tuple[list[str], Play | None, str]:
    """Verdicts from the possible columns of every legal play (all proven)."""
    marks: list[str] = []
    grades: list[str] = []
    better: Play | None = None
    order = sorted(rows)
    before = set().union(*rows.values()) if rows else set()
    after = set(rows[played])

    def first(test: Callable[[set[int]], bool]) -> Play | None:
        return next((p for p in order if test(set(rows[p]))), None)

    pred = pos.seats[seat].prediction
    if pred is not None and pred in before and pred not in after:
        marks.append(f"made the prediction of {pred} unreachable")
        grades.append("?")
        better = better or first(lambda s: pred in s)
    if round_before and round_after is False:
        marks.append("a paradox-free round is no longer possible")
        grades.append("?")
    if before and not after:
        marks.append(f"made {seat_letter(seat)}'s own paradox certain in every continuation")
        grades.append("??")
        better = better or first(bool)
    elif before - after:
        lost = sorted(before - after)
        marks.append(f"lost trick count{'s' if len(lost) > 1 else ''} {', '.join(map(str, lost))}")
        grades.append("?!")
        better = better or first(lambda s: s >= before)
    return marks, better, _worst(grades)


def review(
    record: Record,
    seat: int | None = None,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    depth: int = 4,
    progress: Callable[[int, int], None] | None = None,
    from_move: int = 1,
) -> Review:
    """Review every play of ``record`` (or only ``seat``'s; from move ``from_move`` on)
    within one deadline: a verdict per play, the round's turning points and a summary per
    seat. ``depth``: the exact forced answers are compared from this many tricks left."""
    from .possible import paradox_possible

    lim = Limits.of(limits)
    positions = list(record.positions())
    n = len(positions) - 1
    todo = [
        k
        for k in range(max(1, from_move), n + 1)
        if seat is None or positions[k - 1].to_play == seat
    ]
    # a paradox-free round possible at each position: once no, no for the rest (I4)
    round_ok: dict[int, bool | None] = {}

    def round_possible(i: int, part: Limits) -> bool | None:
        if i not in round_ok:
            if i > 0 and round_ok.get(i - 1) is False:
                round_ok[i] = False
            elif round_ok.get(i + 1) is True:  # possible later, so possible now (I4)
                round_ok[i] = True
            else:
                r = paradox_possible(positions[i], 0, limits=part)
                round_ok[i] = r.round_possible
        return round_ok[i]

    plays: list[PlayReview] = []
    # the last plays first: they are cheap, and the time they leave goes to the early ones
    for j, k in enumerate(reversed(todo)):
        if progress:
            progress(k, n)
        part = lim.share(1.0 / (len(todo) - j))

        def rounds(part: Limits, k: int = k) -> tuple[bool | None, bool | None]:
            return round_possible(k - 1, part.share(0.5)), round_possible(k, part.share(0.5))

        pos, move = positions[k - 1], record.moves[k - 1]
        plays.append(_review_play(pos, k, move, part, depth, session, rounds))
    plays.sort(key=lambda p: p.move)
    tps = _turning_points(record, positions, seat, lim, session, round_ok)
    return Review(tuple(plays), tuple(tps), depth, _summaries(record.players, plays, seat))


#: A paradox-free round possible before / after the move, within a share of a limit.
Rounds = Callable[[Limits], tuple[bool | None, bool | None]]


@dataclass(slots=True)
class _Verdict:
    """What one play's review has found so far (built by :func:`_review_play`)."""

    marks: list[str] = field(default_factory=list)
    grades: list[str] = field(default_factory=list)
    better: Play | None = None
    status: Status = PROVEN
    analysed: bool = False
    # per legal play: whether it would give something up (None: not proven)
    loses: dict[Play, bool | None] = field(default_factory=dict)


def _review_play(
    pos: Position,
    k: int,
    move: Play,
    part: Limits,
    depth: int,
    session: Session | None,
    rounds: Rounds,
) -> PlayReview:
    """The verdict on move ``k`` (``move``, from ``pos``): what it gave up of the possible
    answers and, within ``depth`` tricks of the end with every hand known, of the forced
    ones; ``rounds(part)``: a paradox-free round possible before / after it."""
    mover = pos.to_play
    assert mover is not None
    v = _Verdict()
    legal = pos.legal_plays()
    exact_depth = pos.tricks_left <= depth and pos.all_hands_known
    p_before, p_after, ra = _possible_verdict(
        v, pos, mover, move, legal, part, exact_depth, session, rounds
    )
    before = after = None
    if exact_depth and not part.expired():
        before, after = _forced_verdict(v, pos, mover, move, legal, part, session)
    elif exact_depth:
        v.status = UNKNOWN
    better = None if v.better == move else v.better
    grade = _worst(v.grades) if v.marks else ""
    others = [v.loses.get(p) for p in legal if p != move]
    if v.analysed and not v.marks and others and all(others):
        grade = "!"
    return PlayReview(
        k,
        mover,
        move,
        v.analysed,
        v.status if v.analysed else UNKNOWN,
        before,
        after,
        tuple(v.marks),
        better,
        p_before,
        p_after,
        ra,
        grade,
    )


def _possible_verdict(
    v: _Verdict,
    pos: Position,
    mover: int,
    move: Play,
    legal: list[Play],
    part: Limits,
    exact_depth: bool,
    session: Session | None,
    rounds: Rounds,
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None, bool | None]:
    """The possible columns of every legal play (symmetric plays solved once) into ``v``;
    the mover's reachable counts before and after the move (None: not proven), and whether
    a paradox-free round is still possible after it."""
    from .possible import colour_classes, rows_possible

    classes = colour_classes(pos, legal)
    rep_of = {p: c[0] for c in classes for p in c}
    need = sorted({rep_of[p] for p in legal})
    poss_part = part if part.left() is None else part.share(0.5 if exact_depth else 0.9)
    rows = rows_possible(pos, need, limits=poss_part)
    rb, ra = rounds(part)
    if not all(r.status == PROVEN for r in rows.values()):
        v.status = UNKNOWN
        return None, None, ra
    counts = {p: rows[rep_of[p]].possible for p in legal}
    m, b, g = _possible_marks(pos, mover, counts, move, rb, ra)
    v.marks += m
    v.grades.append(g)
    v.better = v.better or b
    for p in legal:  # round_after unknown for the alternatives: not counted
        alt = m if p == move else _possible_marks(pos, mover, counts, p, rb, None)[0]
        v.loses[p] = bool(alt)
    v.analysed = True
    return tuple(sorted(set().union(*counts.values()))), counts[move], ra


def _forced_verdict(
    v: _Verdict,
    pos: Position,
    mover: int,
    move: Play,
    legal: list[Play],
    part: Limits,
    session: Session | None,
) -> tuple[ForcedReport, ForcedReport]:
    """The exact forced answers before the move and after every legal play into ``v``."""
    before = forced_report(pos, mover, limits=part.share(0.3), session=session)
    kids = {
        p: forced_report(
            pos.play(p), mover, limits=part.share(1.0 / (len(legal) - i)), session=session
        )
        for i, p in enumerate(legal)
    }
    if before.status == PROVEN and all(f.status == PROVEN for f in kids.values()):
        m, b, g = _judge(pos, mover, before, kids, move)
        v.marks += [x for x in m if x not in v.marks]
        v.grades.append(g)
        v.better = b or v.better  # an exact forced verdict's better play comes first
        v.analysed = True
        for p in legal:
            alt = m if p == move else _judge(pos, mover, before, kids, p)[0]
            v.loses[p] = bool(alt) or bool(v.loses.get(p))
    else:
        v.status = UNKNOWN
    return before, kids[move]


def _summaries(players: int, plays: list[PlayReview], seat: int | None) -> tuple[SeatSummary, ...]:
    summary = []
    for s in range(players):
        mine = [p for p in plays if p.seat == s]
        if seat is not None and s != seat:
            continue
        summary.append(
            SeatSummary(
                s,
                len(mine),
                sum(1 for p in mine if p.analysed),
                tuple(p.move for p in mine if p.marks),
            )
        )
    return tuple(summary)


def _turning_points(
    record: Record,
    positions: list[Position],
    seat: int | None,
    lim: Limits,
    session: Session | None,
    round_ok: dict[int, bool | None],
) -> list[TurningPoint]:
    """The first move after which a paradox-free round was no longer possible, and, for the
    seat that caused the paradox (if any), the first move after which no continuation avoids
    it (a binary search: possible only goes from yes to no along a round, I4)."""
    from .possible import paradox_possible

    out: list[TurningPoint] = []
    known = sorted(i for i, v in round_ok.items() if v is not None)
    gone = [i for i in known if round_ok[i] is False]
    if gone:
        i = gone[0]
        if i == 0:
            out.append(TurningPoint(-1, 0, "a paradox-free round was impossible from the deal"))
        elif round_ok.get(i - 1) is True:
            mover = positions[i - 1].to_play
            who = seat_letter(mover) if mover is not None else "?"
            out.append(
                TurningPoint(
                    mover if mover is not None else -1,
                    i,
                    f"after move {i} ({who} played {record.moves[i - 1]}), a paradox-free "
                    "round was no longer possible",
                )
            )
    end = positions[-1]
    culprit = end.paradox
    if culprit is None or (seat is not None and culprit != seat):
        return out

    def doomed(i: int) -> bool | None:
        if lim.expired():
            return None
        r = paradox_possible(positions[i], culprit, limits=lim)
        return None if r.possible is None else r.possible is False

    lo, hi = 0, len(positions) - 1  # doomed(hi) is True: the paradox happened
    d0 = doomed(lo)
    if d0 is None:
        return out
    if d0:
        text = f"{seat_letter(culprit)}'s paradox was unavoidable from the deal"
        return [*out, TurningPoint(culprit, 0, text)]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        d = doomed(mid)
        if d is None:
            return out
        if d:
            hi = mid
        else:
            lo = mid
    mover = positions[lo].to_play
    who = seat_letter(mover) if mover is not None else "?"
    text = (
        f"from move {hi} ({who} played {record.moves[hi - 1]}), "
        f"{seat_letter(culprit)}'s paradox was unavoidable"
    )
    return [*out, TurningPoint(culprit, hi, text)]
