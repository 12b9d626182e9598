"""Forced answers over the deals of the unknown hands (analysis.md "guaranteed", "forceable"):
the game-tree search on each deal, merged honestly; what a limit leaves unsettled stays a proven
bound (analysis.md, "Partial answers")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .answers import PROVEN, UNKNOWN, Status
from .goals import ForcedKind
from .limits import Limits, OutOfTime
from .position import Position
from .sampling import deals_of, wilson_upper

if TYPE_CHECKING:
    from .search import Session

__all__ = ["Bounds", "ForcedReport", "forced_report"]

Bounds = dict[str, Any]  # key -> [lo, hi] (numbers) or {"in": [...], "out": [...]} (sets)


# ---------------------------------------------------------------------------- forced
@dataclass(frozen=True, slots=True)
class ForcedReport:
    """Forced outcomes for ``seat`` (analysis.md). With unknown hands: over every deal (or
    a sample of deals, status ``estimate``). When a limit stopped the search, the fields not
    proven are None and ``bounds`` holds what was proven (analysis.md, "Partial answers")."""

    seat: int
    guaranteed: bool | None
    forceable: tuple[int, ...] | None
    at_least: int | None
    at_most: int | None
    best_score: int | None
    status: Status
    deals: int  # deals searched (1 when every hand is known)
    exact_deals: bool
    failure_bound: float | None  # estimate only: 95% upper bound on deals where "yes" fails
    nodes: int  # nodes searched (0: not counted, e.g. the paradox question alone)
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


@dataclass
class _Pieces:
    """Forced answers for one fully known deal, settled one question at a time."""

    guaranteed: bool | None = None
    f_in: set[int] = field(default_factory=set)
    f_out: set[int] = field(default_factory=set)
    al: tuple[int, int] | None = None  # at_least bounds
    am: tuple[int, int] | None = None  # at_most bounds


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
        pass
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
    from .search import Target, can_force

    lim = Limits.of(limits)
    boards, exact = deals_of(pos, seed=lim.seed)
    n = len(boards)

    def unknown(nodes: int = 0, **kw: Any) -> ForcedReport:
        g = kw.pop("guaranteed", None)
        return ForcedReport(seat, g, None, None, None, None, UNKNOWN, n, exact, None, nodes, kw)

    if only_guaranteed:
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
                return ForcedReport(seat, False, None, None, None, None, PROVEN, n, exact, None, 0)
        if missed:
            return unknown()
        status0: Status = PROVEN if exact else "estimate"
        bound0 = None if exact else wilson_upper(0, n)
        return ForcedReport(seat, True, None, None, None, None, status0, n, exact, bound0, 0)
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
        return ForcedReport(seat, False, (), None, None, None, UNKNOWN, n, exact, None, nodes, {})
    if pieces:
        pc = pieces[0]
        now = pos.seats[seat].tricks
        every = set(range(now, now + pos.tricks_left + 1))
        outs = set(pc.f_out) | (every - set(possible) if possible is not None else set())
        b: Bounds = {}
        g = pc.guaranteed if n == 1 else None
        if g is False:
            return ForcedReport(seat, False, (), None, None, None, PROVEN, 1, exact, None, nodes)
        if not outs >= every:
            b["forceable"] = set_bounds(pc.f_in if n == 1 else set(), outs)
        else:
            b["forceable"] = {"in": [], "out": sorted(every)}
        if g and pc.al is not None and pc.am is not None:
            b["at_least"], b["at_most"] = list(pc.al), list(pc.am)
        return unknown(nodes, guaranteed=g, **b)
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
        seat, guaranteed, forceable, at_least, at_most, best, status, n, exact, bound, nodes
    )
