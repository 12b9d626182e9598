"""Forced answers over the deals of the unknown hands (analysis.md "guaranteed", "forceable"):
the game-tree search on each deal, merged honestly; what a limit leaves unsettled stays a proven
bound (analysis.md, "Partial answers")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .answers import PROVEN, UNKNOWN, Status
from .goals import ForcedKind
from .limits import Limits, OutOfTime
from .position import Position
from .sampling import deals_of, wilson_upper
from .scoring import TWO_PLAYER_BONUS_MAX, lowest_score_at
from .search.api import Forced

if TYPE_CHECKING:
    from .search import Session

__all__ = [
    "Bounds",
    "ForcedReport",
    "bounds_met",
    "forced_report",
    "narrowed",
    "no_avoidance_report",
    "score_bounds",
]

Bounds = dict[str, Any]  # key -> [lo, hi] (numbers) or {"in": [...], "out": [...]} (sets)


# ---------------------------------------------------------------------------- forced
@dataclass(frozen=True, slots=True)
class ForcedReport(Forced):
    """Forced outcomes for ``seat`` (analysis.md): the search's :class:`.search.Forced`
    answers, over the deals of the unknown hands. With unknown hands: over every deal (or a
    sample of deals, status ``estimate``). When a limit stopped the search, the fields not
    proven are None and ``bounds`` holds what was proven (analysis.md, "Partial answers").
    ``nodes``: nodes searched (0: not counted, e.g. the paradox question alone)."""

    deals: int = 1  # deals searched (1 when every hand is known)
    exact_deals: bool = True
    failure_bound: float | None = None  # estimate only: 95% upper bound on deals where "yes" fails
    bounds: Bounds = field(default_factory=dict)

    @property
    def guaranteed_status(self) -> Status:
        """The status of ``guaranteed`` alone: over sampled deals a "no" is proven (the deal
        that refutes it is a real deal of the unseen cards); only a "yes" is an estimate."""
        if self.guaranteed is False:
            return PROVEN
        if self.guaranteed is None:
            return UNKNOWN
        return self.status if self.status != UNKNOWN else PROVEN


def set_bounds(ins: set[int], outs: set[int]) -> dict[str, list[int]]:
    return {"in": sorted(ins), "out": sorted(outs - ins)}


def score_bounds(
    pos: Position, seat: int, guaranteed: bool | None, at_least: int | None = None
) -> list[int] | None:
    """A proven interval ``[lo, hi]`` of the best score S can guarantee (Sc1-Sc3) from what is
    settled: ``guaranteed`` (None: not settled) and a proven lower bound on the tricks S can
    force. None when the score depends on an unknown prediction (3-5 players) and S may avoid
    its paradox.

    Proof. If S cannot guarantee avoiding a paradox, the others can force S's paradox, which
    scores -(S's tricks then) <= -now (Sc1); no continuation scores below -(now + left - 1)
    (:func:`.scoring.lowest_score`: the trick of the paradox counts for nobody, X3; one more
    when S has played in the current trick and is beaten in it). If S
    can guarantee avoiding it with at least k tricks, that strategy scores at least k (Sc1,
    Sc2 never subtract). No continuation scores above now + left plus the largest bonus S can
    still reach: its largest group now plus one token per play it can still make (Sc3), and
    only when the bonus is still reachable (Sc2: at most 4 tricks at 2 players, the prediction
    within now..now + left otherwise)."""
    from .board import largest_group

    s = pos.seats[seat]
    now, left = s.tricks, pos.tricks_left
    top = now + left
    low = lowest_score_at(pos, seat)
    if guaranteed is False:
        return [low, -now]
    if pos.players == 2:
        bonus = now <= TWO_PLAYER_BONUS_MAX
    elif s.prediction is None:
        return None
    else:
        bonus = now <= s.prediction <= top
    hi = top + (largest_group(pos.board, seat, pos.players) + left if bonus else 0)
    lo = (now if at_least is None else at_least) if guaranteed else low
    return [lo, hi]


def no_avoidance_report(
    pos: Position,
    seat: int,
    deals: int,
    exact: bool,
    nodes: int,
    lim: Limits | None = None,
    session: Session | None = None,
    proven: list[int] | None = None,
) -> ForcedReport:
    """S cannot guarantee avoiding its paradox (proven): nothing is forceable, and the best
    score is -(S's tricks at the paradox the others force) (Sc1). It is searched with the time
    ``lim`` leaves when every hand is known; otherwise it stays unknown with its proven bounds
    (analysis.md, "Partial answers") -- never a silent gap: the static ones, narrowed by what
    this search or an earlier one (``proven``) proved."""
    if deals == 1 and exact:
        best, seen = _score_exactly(pos, seat, lim, session)
        if best is not None:
            return ForcedReport(
                seat, False, (), None, None, best, PROVEN, nodes, deals, exact, None
            )
        proven = seen or proven
    b: Bounds = {"best_score": narrowed(score_bounds(pos, seat, False), proven)}
    fr = ForcedReport(seat, False, (), None, None, None, UNKNOWN, nodes, deals, exact, None, b)
    return bounds_met(fr, pos)  # the score is proven when its bounds meet


def bounds_met(fr: ForcedReport, pos: Position, extremes: bool = True) -> ForcedReport:
    """An unknown report on one fully known deal with the bounds that meet read as answers (a
    search cut after its last probe, or bounds from several searches that together pin a
    value): a one-point interval is its number, a set whose "in" and "out" cover every count
    S can still finish with (now .. now + tricks left) is its "in". When every field is then
    settled the report is proven: each answer is. ``extremes=False`` for a row of the analysis
    table, which shows paradox avoidance, the forceable counts and the score and settles no
    at least / at most (as the search's own rows)."""
    if fr.status != UNKNOWN or fr.deals != 1 or not fr.exact_deals:
        return fr
    b = dict(fr.bounds)
    met: dict[str, Any] = {}
    for key in ("at_least", "at_most", "best_score"):
        if key in b and b[key][0] == b[key][1]:
            met[key] = b.pop(key)[0]
    now = pos.seats[fr.seat].tricks
    if "forceable" in b and len(set(b["forceable"]["in"]) | set(b["forceable"]["out"])) == (
        pos.tricks_left + 1
    ):
        met["forceable"] = tuple(b.pop("forceable")["in"])
        assert all(now <= k <= now + pos.tricks_left for k in met["forceable"])
    out = replace(fr, bounds=b, **met)
    g = out.guaranteed
    score = out.best_score is not None or (g is not None and score_bounds(pos, fr.seat, g) is None)
    tricks = g is False or not extremes or (out.at_least is not None and out.at_most is not None)
    shown = [k for k in b if extremes or k not in ("at_least", "at_most")]  # bounds still open
    if g is not None and out.forceable is not None and score and tricks and not shown:
        return replace(out, status=PROVEN, bounds={})  # (a row's at least / at most dropped)
    return out


def narrowed(static: list[int] | None, proven: list[int] | None) -> list[int] | None:
    """The static bounds of the score (:func:`score_bounds`) within those a search proved."""
    if proven is None:
        return static
    if static is None:
        return list(proven)
    lo, hi = max(static[0], proven[0]), min(static[1], proven[1])
    assert lo <= hi, (static, proven)
    return [lo, hi]


def _score_exactly(
    pos: Position, seat: int, lim: Limits | None, session: Session | None
) -> tuple[int | None, list[int] | None]:
    """The best score S can guarantee on a fully known deal, if the time ``lim`` leaves is
    enough (None otherwise, or when it depends on an unknown prediction), and the interval
    its search proved before a limit cut it (None when it proved none)."""
    if lim is None or lim.expired() or not pos.all_hands_known:
        return None, None
    from .search import best_score_line

    seen: list[int] = []

    def bound(lo: int, hi: int) -> None:
        seen[:] = [lo, hi]

    # (the score alone: no line is shown, so none is searched; probes that settled the score
    # before a limit cut it leave a point interval, which the callers' bounds_met reads)
    v, _ = best_score_line(pos, seat, limits=lim, session=session, on_bound=bound, with_line=False)
    return v, seen or None


@dataclass
class _Pieces:
    """Forced answers for one fully known deal, settled one question at a time."""

    guaranteed: bool | None = None
    f_in: set[int] = field(default_factory=set)
    f_out: set[int] = field(default_factory=set)
    al: tuple[int, int] | None = None  # at_least bounds
    am: tuple[int, int] | None = None  # at_most bounds
    best_score: int | None = None  # proven exactly after the trick questions, if time was left
    score_seen: list[int] | None = None  # else the interval its search proved, if any


def _first_yes(
    ask: Callable[[Any], bool | None], kind: ForcedKind, ks: range
) -> tuple[int | None, int | None]:
    """Ask ``kind`` for each k of ``ks`` in turn until one is forceable: (that k, the last k
    proven not forceable before it). A limit ends the scan; whatever the answers proved stays
    a bound (analysis.md, "Partial answers")."""
    from .search import Target

    no = None
    for k in ks:
        got = ask(Target(kind, k))
        if got is None:
            return None, no
        if got:
            return k, no
        no = k
    return None, no


def _forced_pieces(
    full: Position, seat: int, lim: Limits, cands: tuple[int, ...] | None, session: Session | None
) -> _Pieces:
    """After the whole forced search ran out: paradox avoidance first, then each exact count
    (of ``cands``, the possible counts when known), then at least / at most by descending /
    ascending targets; each question gets the time left, settled ones become proven bounds."""
    from .search import Target, can_force

    now = full.seats[seat].tricks
    top = now + full.tricks_left
    ks = tuple(range(now, top + 1)) if cands is None else cands
    out = _Pieces(f_out=set(range(now, top + 1)) - set(ks))

    def ask(t: Target) -> bool | None:
        lim.check()
        ok, st = can_force(full, seat, t, limits=lim, session=session)
        return ok if st == PROVEN else None

    try:
        out.guaranteed = ask(Target("avoid-paradox"))
        if out.guaranteed is False:
            out.f_out = set(range(now, top + 1))
            out.best_score, out.score_seen = _score_exactly(full, seat, lim, session)
            return out
        lo_al, hi_al = now, max(ks, default=now)
        lo_am, hi_am = min(ks, default=top), top
        for k in ks:
            got = ask(Target("exactly", k))
            if got:
                out.f_in.add(k)
                out.guaranteed = True
                lo_al, hi_am = max(lo_al, k), min(hi_am, k)
            elif got is False:
                out.f_out.add(k)
        if out.guaranteed:
            out.al, out.am = (lo_al, hi_al), (lo_am, hi_am)
            yes, no = _first_yes(ask, "at-least", range(hi_al, lo_al, -1))
            out.al = (lo_al if yes is None else yes, hi_al if no is None else no - 1)
            yes, no = _first_yes(ask, "at-most", range(lo_am, hi_am))
            out.am = (lo_am if no is None else no + 1, hi_am if yes is None else yes)
    except OutOfTime:
        return out
    # the score last, with whatever time is left (its search is the most expensive one)
    out.best_score, out.score_seen = _score_exactly(full, seat, lim, session)
    return out


def _forced_one(
    full: Position, seat: int, lim: Limits, cands: tuple[int, ...] | None, session: Session | None
) -> tuple[Any, _Pieces | None]:
    """The whole forced search on one known deal (with half the time when it may run out),
    then the question-by-question pieces with the rest."""
    from .search import forced

    first = lim if lim.left() is None else lim.share(0.5)
    f = forced(full, seat, limits=first, session=session)
    if f.status == PROVEN:
        return f, None
    return f, _forced_pieces(full, seat, lim, cands, session)


def forced_report(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    only_guaranteed: bool = False,
    possible: tuple[int, ...] | None = None,
) -> ForcedReport:
    """What ``seat`` can guarantee from ``pos`` over every deal of the unknown hands (or a
    seeded sample of deals, ``limits.seed``). With ``only_guaranteed`` just the paradox
    question is searched (a far cheaper proof); the other fields are None. ``possible``: the
    possible counts when proven (forceable counts lie among them)."""
    lim = Limits.of(limits)
    boards, exact = deals_of(pos, seed=lim.seed)
    n = len(boards)
    if only_guaranteed:
        return _guaranteed_over(boards, seat, exact, lim, session)
    answers = []
    pieces: list[_Pieces] = []
    nodes = 0
    for i, full in enumerate(boards):
        if i > 0 and lim.expired():  # the deals not searched stay unsettled
            pieces.append(_Pieces())
            break
        part = lim.share(1.0 / (n - i))
        if n == 1:
            f, pc = _forced_one(full, seat, part, possible, session)
        else:
            from .search import forced

            f = forced(full, seat, limits=part, session=session)
            pc = None
        nodes += f.nodes
        if f.status != PROVEN:
            pieces.append(pc or _Pieces())
        else:
            answers.append(f)
    if pieces and n > 1 and any(not a.guaranteed for a in answers):
        # one settled deal refutes "for every deal": nothing is forceable (the best score
        # needs every deal, so it stays unknown)
        b0: Bounds = {"best_score": score_bounds(pos, seat, False)}
        return ForcedReport(seat, False, (), None, None, None, UNKNOWN, nodes, n, exact, None, b0)
    if pieces:
        return _from_pieces(pos, seat, pieces[0], n, exact, nodes, possible)
    return _over_every_deal(seat, answers, n, exact, nodes)


def _unknown(
    seat: int,
    n: int,
    exact: bool,
    nodes: int = 0,
    g: bool | None = None,
    best: int | None = None,
    b: Bounds | None = None,
) -> ForcedReport:
    return ForcedReport(seat, g, None, None, None, best, UNKNOWN, nodes, n, exact, None, b or {})


def _guaranteed_over(
    boards: list[Position], seat: int, exact: bool, lim: Limits, session: Session | None
) -> ForcedReport:
    """The paradox question alone over the deals (``forced_report(only_guaranteed=True)``)."""
    from .search import Target, can_force

    n = len(boards)
    missed = False  # some deal not settled in time: keep looking for a refuting one
    for i, full in enumerate(boards):
        if i > 0 and lim.expired():
            missed = True
            break
        part = lim.share(1.0 / (n - i))
        ok, st = can_force(full, seat, Target("avoid-paradox"), limits=part, session=session)
        if st != PROVEN:
            missed = True
            continue
        if not ok:  # one deal refutes "for every deal": proven, sampled or not
            return ForcedReport(seat, False, None, None, None, None, PROVEN, 0, n, exact, None)
    if missed:
        return _unknown(seat, n, exact)
    status0: Status = PROVEN if exact else "estimate"
    bound0 = None if exact else wilson_upper(0, n)
    return ForcedReport(seat, True, None, None, None, None, status0, 0, n, exact, bound0)


def _from_pieces(
    pos: Position,
    seat: int,
    pc: _Pieces,
    n: int,
    exact: bool,
    nodes: int,
    possible: tuple[int, ...] | None,
) -> ForcedReport:
    """The report when a limit cut the search: what it settled, the rest as proven bounds."""
    now = pos.seats[seat].tricks
    every = set(range(now, now + pos.tricks_left + 1))
    outs = set(pc.f_out) | (every - set(possible) if possible is not None else set())
    b: Bounds = {}
    g = pc.guaranteed if n == 1 else None
    if g is False:
        if pc.best_score is not None:
            return ForcedReport(
                seat, False, (), None, None, pc.best_score, PROVEN, nodes, 1, exact, None
            )
        return no_avoidance_report(pos, seat, 1, exact, nodes, proven=pc.score_seen)
    if not outs >= every:
        b["forceable"] = set_bounds(pc.f_in if n == 1 else set(), outs)
    else:
        b["forceable"] = {"in": [], "out": sorted(every)}
    if g and pc.al is not None and pc.am is not None:
        b["at_least"], b["at_most"] = list(pc.al), list(pc.am)
    if pc.best_score is None:
        sb = score_bounds(pos, seat, g, pc.al[0] if g and pc.al is not None else None)
        sb = narrowed(sb, pc.score_seen)
        if sb is not None:
            b["best_score"] = sb
    return bounds_met(_unknown(seat, n, exact, nodes, g, pc.best_score, b), pos)


def _over_every_deal(
    seat: int, answers: list[Forced], n: int, exact: bool, nodes: int
) -> ForcedReport:
    """The report from every deal's proven answers: what S guarantees on all of them."""
    guaranteed = all(bool(a.guaranteed) for a in answers)
    forceable = tuple(sorted(set.intersection(*(set(a.forceable or ()) for a in answers))))
    if guaranteed:
        at_least: int | None = min(a.at_least for a in answers if a.at_least is not None)
        at_most: int | None = max(a.at_most for a in answers if a.at_most is not None)
    else:
        at_least = at_most = None
    scores = [a.best_score for a in answers]
    best = None if any(s is None for s in scores) else min(s for s in scores if s is not None)
    if exact:
        status: Status = PROVEN
        bound = None
    else:
        status = "estimate"
        bound = wilson_upper(0, n)
    return ForcedReport(
        seat, guaranteed, forceable, at_least, at_most, best, status, nodes, n, exact, bound
    )
