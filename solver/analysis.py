"""The questions of analysis.md, answered by the right engine and merged honestly.

The parts live in their own modules: :mod:`.sampling` (deals of the unknown hands),
:mod:`.forced` (forced answers over those deals); this module answers the commands' questions
(paradox, tricks, analyze) and re-exports the old names.

"Possible" questions go to :mod:`.possible` (fast checks, plain search or CP-SAT); "guaranteed"
and "forceable" questions go to the game-tree search (:mod:`.search`), which is exact when every
hand is known. With unknown hands, a guaranteed answer means "for every deal of the unseen
cards": deals are enumerated when there are few, otherwise sampled; a sampled "yes" is labelled
``estimate`` (a "no" found on a sampled deal is a proof by counterexample).

Time policy (one :class:`.limits.Limits` per command, its deadline shared by every call):
the cheap exact answers come first -- the possible columns, which CP-SAT proves fast -- then
the forced answers as deep as the time left allows: the whole forced search first, then, when
it runs out, one question at a time (paradox avoidance, each exact count, at least, at most),
each settled question kept as a proven bound (analysis.md, "Partial answers").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .answers import PROVEN, UNKNOWN, Status, Witness, merge_status
from .cards import Play
from .errors import PositionError
from .forcing import (
    Bounds,
    ForcedReport,
    bounds_met,
    forced_report,
    narrowed,
    no_avoidance_report,
    score_bounds,
    set_bounds,
)
from .limits import Limits
from .position import Position

if TYPE_CHECKING:
    from .search import MoveRow, Session

__all__ = [
    "MoveReport",
    "ParadoxReport",
    "TricksReport",
    "analyze",
    "analyze_play",
    "best_rows",
    "paradox_report",
    "seat_to_analyse",
    "tricks_report",
]


# ---------------------------------------------------------------------------- reports
@dataclass(frozen=True, slots=True)
class ParadoxReport:
    """``catbox paradox`` (analysis.md, "paradox"): can ``seat`` avoid causing a paradox in some
    continuation (``possible``, with a ``witness`` line), whatever the others play
    (``guaranteed``, from ``forced``, with a ``strategy_line``), and can the round end with no
    paradox at all (``round_possible``, ``round_witness``); ``reason`` says why not when it
    cannot. ``possible_status`` is the possible part's status, ``status`` the report's (both
    parts merged), as on :class:`TricksReport`."""

    seat: int
    possible: bool | None
    guaranteed: bool | None
    round_possible: bool | None
    witness: Witness | None  # a full line for possible
    round_witness: Witness | None
    strategy_line: tuple[Play, ...] | None  # guaranteed: a main line of a winning strategy
    reason: str | None
    possible_status: Status  # of the possible part (the guaranteed part: forced)
    forced: ForcedReport

    @property
    def status(self) -> Status:
        """The report's status: the possible part's and the guaranteed answer's merged."""
        return merge_status(self.possible_status, self.forced.guaranteed_status)


@dataclass(frozen=True, slots=True)
class TricksReport:
    """``catbox tricks`` (analysis.md, "tricks"): the final trick counts ``seat`` can reach
    (``possible``, one witness line each; ``undecided`` when a limit stopped it) and what it can
    force (``forced``: forceable counts, at least, at most, best score). ``possible_status``
    is the possible part's status, ``status`` the report's (both parts merged)."""

    seat: int
    possible: tuple[int, ...]
    witnesses: dict[int, Witness]
    undecided: tuple[int, ...]
    possible_status: Status
    forced: ForcedReport

    @property
    def status(self) -> Status:
        return merge_status(self.possible_status, self.forced.status)

    @property
    def bounds(self) -> Bounds:
        """Proven bounds of every value not proven exactly (analysis.md, "Partial answers")."""
        b: Bounds = dict(self.forced.bounds)
        if self.possible_status != PROVEN:
            now_all = set(self.possible) | set(self.undecided)
            lo = min(now_all, default=0)
            every = set(range(lo, max(now_all, default=lo) + 1))
            b["possible"] = set_bounds(set(self.possible), every - set(self.undecided))
        return b


def _possible_then_forced(
    pos: Position,
    seat: int,
    lim: Limits,
    session: Session | None,
    ask: Callable[..., Any],
    only_guaranteed: bool = False,
) -> tuple[Any, ForcedReport]:
    """Ask a possible-question solver (up to 60% of the time), then the forced search with the
    rest, all within one deadline."""
    first = lim if lim.left() is None else lim.share(0.6)
    poss = ask(pos, seat, limits=first)
    counts = None
    if not only_guaranteed and getattr(poss, "status", None) == PROVEN:
        counts = tuple(poss.possible)
    forced = forced_report(
        pos, seat, limits=lim, session=session, only_guaranteed=only_guaranteed, possible=counts
    )
    if counts == () and forced.status == UNKNOWN:  # no possible count: nothing to force
        forced = no_avoidance_report(
            pos, seat, forced.deals, forced.exact_deals, forced.nodes, lim, session
        )
    return poss, forced


def paradox_report(
    pos: Position, seat: int, *, limits: Limits | None = None, session: Session | None = None
) -> ParadoxReport:
    """Can ``seat`` avoid causing a paradox: in some continuation (possible) and against every
    defence (guaranteed), with a line for each yes (analysis.md, "paradox")."""
    from .possible import paradox_possible

    lim = Limits.of(limits)
    poss, forced = _possible_then_forced(
        pos, seat, lim, session, paradox_possible, only_guaranteed=True
    )
    if poss.possible is False and forced.guaranteed is None:  # not even possible
        forced = ForcedReport(
            seat, False, None, None, None, None, PROVEN, 0, forced.deals, forced.exact_deals, None
        )
    line = None
    if forced.guaranteed and pos.all_hands_known:
        from .search import Target, main_line

        line = main_line(pos, seat, Target("avoid-paradox"), limits=lim, session=session)
    return ParadoxReport(
        seat=seat,
        possible=poss.possible,
        guaranteed=forced.guaranteed,
        round_possible=poss.round_possible,
        witness=poss.witness,
        round_witness=poss.round_witness,
        strategy_line=line,
        reason=poss.reason,
        possible_status=poss.status,
        forced=forced,
    )


def tricks_report(
    pos: Position, seat: int, *, limits: Limits | None = None, session: Session | None = None
) -> TricksReport:
    """The final trick counts ``seat`` can reach (possible, with a witness each) and force
    (analysis.md, "tricks")."""
    from .possible import tricks_possible

    lim = Limits.of(limits)
    poss, forced = _possible_then_forced(pos, seat, lim, session, tricks_possible)
    return TricksReport(seat, poss.possible, poss.witnesses, poss.undecided, poss.status, forced)


# ---------------------------------------------------------------------------- analyze
@dataclass(frozen=True, slots=True)
class MoveReport:
    """One row of ``catbox analyze``: a legal play of the seat to play. ``bounds``: what is
    proven of the values left None (analysis.md, "Partial answers")."""

    play: Play
    possible: tuple[int, ...] | None
    forceable: tuple[int, ...] | None
    avoid_possible: bool | None
    avoid_guaranteed: bool | None
    best_score: int | None
    status: Status
    bounds: Bounds = field(default_factory=dict)
    deals: int = 1  # deals the forced columns were searched on
    exact_deals: bool = True  # False: forced columns estimated on sampled deals
    same_as: Play | None = None  # possible columns taken from this symmetric play


Progress = Callable[[str, int, int], None]


def seat_to_analyse(pos: Position) -> int:
    """The seat whose plays :func:`analyze` lists (the seat to play).

    Raises:
        PositionError: the round is over, or that seat's hand is unknown.
    """
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is nothing to analyse", rule="E1")
    if pos.seats[seat].hand is None:
        raise PositionError(
            "analyze needs the hand of the seat to play (its legal plays)",
            code="needs-known-hands",
        )
    return seat


def analyze(
    pos: Position,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    progress: Progress | None = None,
) -> list[MoveReport]:
    """A double-dummy-like table for the seat to play: every legal play with its possible and
    forceable trick counts, paradox avoidance, and the best score it guarantees. The possible
    columns first (every row, in one shared CP-SAT model; symmetric plays solved once), then
    the forced columns as deep as the time left allows. With unknown hands (other than the
    seat to play's): possible means "for some deal"; forced columns are over every deal
    (enumerated) or estimated on sampled deals."""
    from .possible import colour_classes, rows_possible

    pos = pos.settle()
    seat = seat_to_analyse(pos)
    lim = Limits.of(limits)
    plays = pos.legal_plays()
    classes = colour_classes(pos, plays)
    reps = [c[0] for c in classes]
    rep_of = {p: c[0] for c in classes for p in c}
    if progress:
        progress("possible", 0, len(reps))
    # the possible columns come first and may take most of the time (they are what a
    # full-deal position can prove); the forced columns get what is left
    first = lim if lim.left() is None else lim.share(0.9)
    poss = rows_possible(pos, reps, limits=first)
    if progress:
        progress("possible", len(reps), len(reps))
    forced_rows = _forced_rows(pos, seat, plays, lim, session, poss, rep_of, progress)
    return [
        _row(p, poss[rep_of[p]], forced_rows[p], rep_of[p] if rep_of[p] != p else None)
        for p in plays
    ]


def _row(p: Play, rp: Any, fr: ForcedReport, same_as: Play | None) -> MoveReport:
    """One row from its possible columns ``rp`` (a ``possible.RowPossible``) and forced ones."""
    b: Bounds = {}
    possible = rp.possible if rp.status == PROVEN else None
    if possible is None:
        every = set(rp.possible) | set(rp.undecided)
        b["possible"] = set_bounds(set(rp.possible), every - set(rp.undecided))
    if fr.status == UNKNOWN:
        b.update({k: v for k, v in fr.bounds.items() if k in ("forceable", "best_score")})
    avoid_g = fr.guaranteed
    if rp.avoid_possible is False:
        avoid_g = False
    return MoveReport(
        play=p,
        possible=possible,
        forceable=fr.forceable,
        avoid_possible=rp.avoid_possible,
        avoid_guaranteed=avoid_g,
        best_score=fr.best_score,
        status=merge_status(rp.status, fr.status),
        bounds=b,
        deals=fr.deals,
        exact_deals=fr.exact_deals,
        same_as=same_as,
    )


def analyze_play(
    pos: Position,
    play: Play,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
) -> MoveReport:
    """One row of :func:`analyze`, for the legal play ``play`` alone (same columns, same
    meaning; ``same_as`` is never set): what a front end computes play by play to show each
    row as soon as it is proven. The possible columns take up to 90% of the time limit, the
    forced columns the rest.

    Raises:
        PositionError: the round is over, or the hand to play is unknown.
        IllegalPlayError: ``play`` is not legal now.
    """
    from .possible import rows_possible

    pos = pos.settle()
    seat = seat_to_analyse(pos)
    pos.check_play(play)
    lim = Limits.of(limits)
    first = lim if lim.left() is None else lim.share(0.9)
    rp = rows_possible(pos, [play], limits=first)[play]
    counts = rp.possible if rp.status == PROVEN else None
    return _row(play, rp, _forced_row(pos, seat, play, counts, lim, session), None)


def best_rows(rows: list[MoveReport]) -> list[int]:
    """The rows to highlight as best: those with the highest guaranteed score; without
    scores, those that guarantee paradox avoidance."""
    scored = [r.best_score for r in rows if r.best_score is not None]
    if scored:
        top = max(scored)
        return [i for i, r in enumerate(rows) if r.best_score == top]
    return [i for i, r in enumerate(rows) if r.avoid_guaranteed]


def _forced_rows(
    pos: Position,
    seat: int,
    plays: list[Play],
    lim: Limits,
    session: Session | None,
    poss: dict[Play, Any],
    rep_of: dict[Play, Play],
    progress: Progress | None,
) -> dict[Play, ForcedReport]:
    """The forced columns of every row with the time left: the search's table when every
    hand is known (rows it could not finish then get the question-by-question bounds), the
    forced answers over the deals otherwise."""
    out: dict[Play, ForcedReport] = {}
    settled: dict[Play, MoveRow] = {}  # rows the search cut, with what it settled of them
    counts = {
        p: poss[rep_of[p]].possible if poss[rep_of[p]].status == PROVEN else None for p in plays
    }
    if pos.all_hands_known:
        from .search import analyze_moves

        first = lim if lim.left() is None else lim.share(0.7)
        for r in analyze_moves(pos, limits=first, session=session):
            if r.status != PROVEN:
                settled[r.play] = r
            else:
                out[r.play] = ForcedReport(
                    seat,
                    r.guaranteed,
                    r.forceable,
                    None,
                    None,
                    r.best_score,
                    PROVEN,
                    0,
                    1,
                    True,
                    None,
                )
    todo = [p for p in plays if p not in out]
    for i, p in enumerate(todo):
        if progress:
            progress("forced", len(out), len(plays))
        part = lim.share(1.0 / (len(todo) - i))
        fr = _forced_row(pos, seat, p, counts[p], part, session)
        if p in settled:
            fr = _with_settled(fr, settled[p], pos.play(p), seat)
        out[p] = bounds_met(fr, pos.play(p), extremes=False)  # a row shows no at least / most
    if progress:
        progress("forced", len(plays), len(plays))
    return out


def _with_settled(fr: ForcedReport, r: MoveRow, after: Position, seat: int) -> ForcedReport:
    """A row's question-by-question answers ``fr`` completed by what the search's table had
    settled of it before its limit (``r``, status unknown): paradox avoidance, the forceable
    counts and the score's interval its probes proved, and the score's interval they narrow
    (all the intervals are proven, so their intersection is)."""
    g = fr.guaranteed if fr.guaranteed is not None else r.guaranteed
    f = fr.forceable if fr.forceable is not None else r.forceable
    probed = r.score_bounds if fr.best_score is None else None
    if g == fr.guaranteed and f == fr.forceable and probed is None:
        return fr
    b = {k: v for k, v in fr.bounds.items() if k != "forceable" or f is None}
    if fr.best_score is None and (sb := score_bounds(after, seat, g)) is not None:
        b["best_score"] = narrowed(sb, b.get("best_score"))
    if probed is not None:
        b["best_score"] = narrowed(b.get("best_score"), list(probed))
    return replace(fr, guaranteed=g, forceable=f, bounds=b)


def _forced_row(
    pos: Position,
    seat: int,
    p: Play,
    counts: tuple[int, ...] | None,
    part: Limits,
    session: Session | None,
) -> ForcedReport:
    """The forced columns of the row of play ``p`` alone, with the time ``part`` leaves;
    ``counts``: its possible counts when proven. A score not proven keeps its bounds."""
    after = pos.play(p)
    if counts == () and pos.all_hands_known:  # paradox avoidance is not even possible
        return no_avoidance_report(after, seat, 1, True, 0, part, session)
    if part.expired():
        sb = score_bounds(after, seat, None)
        b = {"best_score": sb} if sb is not None else {}
        return ForcedReport(seat, None, None, None, None, None, UNKNOWN, 0, 1, True, None, b)
    fr = forced_report(after, seat, limits=part, session=session, possible=counts)
    if counts == () and fr.status == UNKNOWN:  # nothing can be forced on any deal
        fr = replace(fr, guaranteed=False, forceable=())
    return fr
