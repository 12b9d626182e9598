"""The questions of analysis.md, answered by the right engine and merged honestly.

"Possible" questions go to :mod:`.possible` (fast checks, plain search or CP-SAT); "guaranteed"
and "forceable" questions go to the game-tree search (:mod:`.search`), which is exact when every
hand is known. With unknown hands, a guaranteed answer means "for every deal of the unseen
cards": deals are enumerated when there are few, otherwise sampled; a sampled "yes" is labelled
``estimate`` (a "no" found on a sampled deal is a proof by counterexample).

Budget policy (one :class:`.limits.Limits` per command, its deadline shared by every call):
the cheap exact answers come first -- the possible columns, which CP-SAT proves fast -- then
the forced answers as deep as the time left allows: the whole forced search first, then, when
it runs out, one question at a time (paradox avoidance, each exact count, at least, at most),
each settled question kept as a proven bound (analysis.md, "Partial answers").
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from .answers import PROVEN, UNKNOWN, Status, Witness, merge_status
from .cards import Play
from .errors import PositionError
from .limits import Limits, OutOfTime
from .position import Position

__all__ = [
    "Budget",
    "ForcedReport",
    "Limits",
    "MoveReport",
    "ParadoxReport",
    "TricksReport",
    "analyze",
    "deals_of",
    "forced_report",
    "merge_status",
    "paradox_report",
    "tricks_report",
]

EXACT_DEALS = 64  # enumerate every deal up to this many; sample beyond
SAMPLED_DEALS = 24

Bounds = dict[str, Any]  # key -> [lo, hi] (numbers) or {"in": [...], "out": [...]} (sets)


class Budget:
    """A wall-clock budget shared by the solves of one question (a thin view of
    :class:`Limits`, kept for callers that count seconds)."""

    def __init__(self, seconds: float | None, deadline: float | None = None):
        if deadline is None and seconds is not None:
            deadline = time.monotonic() + seconds
        self.deadline = deadline

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def left(self, floor: float = 0.0) -> float | None:
        if self.deadline is None:
            return None
        return max(floor, self.deadline - time.monotonic())


# ---------------------------------------------------------------------------- deals
def _count_splits(pool: Counter[int], sizes: list[int], cap: int | None = None) -> int:
    """How many ways to deal ``pool`` into hands of ``sizes`` (multisets, hands ordered; cards
    left over stay unseen); with ``cap``, counting stops at ``cap`` (the answer is then
    ``min(count, cap)``: enough to choose between enumerating and sampling, in a few steps
    however large the count)."""
    counts = [k for _, k in sorted(pool.items())]
    after = [sum(counts[i:]) for i in range(len(counts) + 1)]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def rec(i: int, room: tuple[int, ...]) -> int:
        if sum(room) > after[i]:  # not enough cards left to fill the hands
            return 0
        if i == len(counts):
            return 1
        key = (i, room)
        got = memo.get(key)
        if got is not None:
            return got
        total = 0
        for split in _compositions(counts[i], room):
            total += rec(i + 1, tuple(r - t for r, t in zip(room, split, strict=True)))
            if cap is not None and total >= cap:
                total = cap
                break
        memo[key] = total
        return total

    return rec(0, tuple(sizes))


def _compositions(k: int, caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to give k copies to hands with room ``caps`` (any left go to nobody)."""
    if not caps:
        yield ()
        return
    for first in range(min(k, caps[0]) + 1):
        for rest in _compositions(k - first, caps[1:]):
            yield (first, *rest)


def _splits(pool: Counter[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    seen = set()
    for combo in combinations(sorted(pool.elements()), sizes[0]):
        if combo in seen:
            continue
        seen.add(combo)
        for tail in _splits(pool - Counter(combo), sizes[1:]):
            yield [combo, *tail]


def deals_of(
    pos: Position, *, limit: int = EXACT_DEALS, samples: int = SAMPLED_DEALS, seed: int = 0
) -> tuple[list[Position], bool]:
    """Positions with every unknown hand filled from the unknown pool: all of them when there
    are at most ``limit`` (exact=True), else ``samples`` drawn with a fixed seed (exact=False)."""
    unknown = [i for i, s in enumerate(pos.seats) if s.hand is None]
    if not unknown:
        return [pos.settle()], True
    pool = pos.unknown_pool()
    sizes = [pos.seats[i].hand_size for i in unknown]
    if sum(sizes) > sum(pool.values()):
        raise PositionError("the unknown hands need more cards than are unseen", rule="S1")

    def fill(hands: list[tuple[int, ...]]) -> Position:
        seats = list(pos.seats)
        for i, h in zip(unknown, hands, strict=True):
            seats[i] = replace(seats[i], hand=tuple(sorted(h)))
        return replace(pos, seats=tuple(seats)).settle()

    if _count_splits(pool, sizes, cap=limit + 1) <= limit:
        return [fill(h) for h in _splits(pool, sizes)], True
    rng = random.Random(seed)
    cards = sorted(pool.elements())
    out = []
    for _ in range(samples):
        rng.shuffle(cards)
        hands, at = [], 0
        for size in sizes:
            hands.append(tuple(cards[at : at + size]))
            at += size
        out.append(fill(hands))
    return out, False


def wilson_upper(failures: int, n: int, z: float = 1.96) -> float:
    """Upper end of the Wilson 95% interval for a failure rate seen as failures/n."""
    if n == 0:
        return 1.0
    p = failures / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return min(1.0, (centre + margin) / (1 + z * z / n))


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


def _set_bounds(ins: set[int], outs: set[int]) -> dict[str, list[int]]:
    return {"in": sorted(ins), "out": sorted(outs - ins)}


@dataclass
class _Pieces:
    """Forced answers for one fully known deal, settled one question at a time."""

    guaranteed: bool | None = None
    f_in: set[int] = field(default_factory=set)
    f_out: set[int] = field(default_factory=set)
    al: tuple[int, int] | None = None  # at_least bounds
    am: tuple[int, int] | None = None  # at_most bounds


def _forced_pieces(
    full: Position, seat: int, lim: Limits, cands: tuple[int, ...] | None
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
        if lim.expired():
            raise OutOfTime
        ok, st = can_force(full, seat, t, node_limit=lim.node_limit, time_limit=lim.seconds())
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
            for k in range(hi_al, lo_al, -1):
                got = ask(Target("at-least", k))
                if got is None:
                    break
                if got:
                    lo_al = k
                    break
                hi_al = k - 1
            out.al = (lo_al, hi_al)
            for k in range(lo_am, hi_am):
                got = ask(Target("at-most", k))
                if got is None:
                    break
                if got:
                    hi_am = k
                    break
                lo_am = k + 1
            out.am = (lo_am, hi_am)
    except OutOfTime:
        pass
    return out


def _forced_one(
    full: Position, seat: int, lim: Limits, cands: tuple[int, ...] | None
) -> tuple[Any, _Pieces | None]:
    """The whole forced search on one known deal (with half the time when it may run out),
    then the question-by-question pieces with the rest."""
    from .search import forced

    first = lim if lim.left() is None else lim.share(0.5)
    f = forced(full, seat, node_limit=lim.node_limit, time_limit=first.seconds())
    if f.status == PROVEN:
        return f, None
    return f, _forced_pieces(full, seat, lim, cands)


def forced_report(
    pos: Position,
    seat: int,
    *,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    seed: int = 0,
    only_guaranteed: bool = False,
    limits: Limits | None = None,
    possible: tuple[int, ...] | None = None,
) -> ForcedReport:
    """With ``only_guaranteed`` just the paradox question is searched (a far cheaper proof);
    the other fields are None. ``limits`` (started) overrides ``time_limit``/``node_limit``;
    ``possible``: the possible counts when proven (forceable counts lie among them)."""
    from .search import Target, can_force

    lim = (limits or Limits(time_limit, node_limit=node_limit, seed=seed)).start()
    boards, exact = deals_of(pos, seed=seed)
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
            ok, st = can_force(
                full,
                seat,
                Target("avoid-paradox"),
                node_limit=lim.node_limit,
                time_limit=part.seconds(),
            )
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
            f, pc = _forced_one(full, seat, part, possible)
        else:
            from .search import forced

            f = forced(full, seat, node_limit=lim.node_limit, time_limit=part.seconds())
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
            b["forceable"] = _set_bounds(pc.f_in if n == 1 else set(), outs)
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


# ---------------------------------------------------------------------------- reports
@dataclass(frozen=True, slots=True)
class ParadoxReport:
    seat: int
    possible: bool | None
    guaranteed: bool | None
    round_possible: bool | None
    witness: Witness | None  # a full line for possible
    round_witness: Witness | None
    strategy_line: tuple[Play, ...] | None  # guaranteed: a main line of a winning strategy
    reason: str | None
    status: Status  # of the possible part (the guaranteed part: forced.status)
    forced: ForcedReport

    @property
    def overall_status(self) -> Status:
        return merge_status(self.status, self.forced.guaranteed_status)


@dataclass(frozen=True, slots=True)
class TricksReport:
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
            b["possible"] = _set_bounds(set(self.possible), every - set(self.undecided))
        return b


def _possible_then_forced(
    pos: Position,
    seat: int,
    limits: Limits,
    ask: Callable[..., Any],
    only_guaranteed: bool = False,
) -> tuple[Any, ForcedReport, Limits]:
    """Ask a possible-question solver (up to 60% of the time), then the forced search with the
    rest, all within one deadline."""
    lim = limits.start()
    first = lim if lim.left() is None else lim.share(0.6)
    poss = ask(
        pos,
        seat,
        time_limit=None,
        deadline=first.deadline,
        workers=limits.workers,
        seed=limits.seed,
    )
    counts = None
    if not only_guaranteed and getattr(poss, "status", None) == PROVEN:
        counts = tuple(poss.possible)
    forced = forced_report(
        pos, seat, limits=lim, seed=limits.seed, only_guaranteed=only_guaranteed, possible=counts
    )
    if counts == () and forced.status == UNKNOWN:  # no possible count: nothing to force
        forced = ForcedReport(
            seat,
            False,
            (),
            None,
            None,
            None,
            PROVEN,
            forced.deals,
            forced.exact_deals,
            None,
            forced.nodes,
        )
    return poss, forced, lim


def paradox_report(pos: Position, seat: int, limits: Limits = Limits()) -> ParadoxReport:
    from .possible import paradox_possible

    poss, forced, lim = _possible_then_forced(
        pos, seat, limits, paradox_possible, only_guaranteed=True
    )
    if poss.possible is False and forced.guaranteed is None:  # not even possible
        forced = ForcedReport(
            seat, False, None, None, None, None, PROVEN, forced.deals, forced.exact_deals, None, 0
        )
    line = None
    if forced.guaranteed and pos.all_hands_known:
        from .search import Target, main_line

        line = main_line(pos, seat, Target("avoid-paradox"), time_limit=lim.seconds())
    return ParadoxReport(
        seat=seat,
        possible=poss.possible,
        guaranteed=forced.guaranteed,
        round_possible=poss.round_possible,
        witness=poss.witness,
        round_witness=poss.round_witness,
        strategy_line=line,
        reason=poss.reason,
        status=poss.status,
        forced=forced,
    )


def tricks_report(pos: Position, seat: int, limits: Limits = Limits()) -> TricksReport:
    from .possible import tricks_possible

    poss, forced, _ = _possible_then_forced(pos, seat, limits, tricks_possible)
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


def analyze(
    pos: Position,
    limits: Limits = Limits(),
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
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is nothing to analyse", rule="E1")
    if pos.seats[seat].hand is None:
        raise PositionError(
            "analyze needs the hand of the seat to play (its legal plays)",
            code="needs-known-hands",
        )
    lim = limits.start()
    plays = pos.legal_plays()
    classes = colour_classes(pos, plays)
    reps = [c[0] for c in classes]
    rep_of = {p: c[0] for c in classes for p in c}
    if progress:
        progress("possible", 0, len(reps))
    # the possible columns come first and may take most of the time (they are what a
    # full-deal position can prove); the forced columns get what is left
    first = lim if lim.left() is None else lim.share(0.9)
    poss = rows_possible(pos, reps, deadline=first.deadline, workers=lim.workers, seed=lim.seed)
    if progress:
        progress("possible", len(reps), len(reps))
    forced_rows = _forced_rows(pos, seat, plays, lim, poss, rep_of, progress)
    rows = []
    for p in plays:
        rp = poss[rep_of[p]]
        fr = forced_rows[p]
        b: Bounds = {}
        possible = rp.possible if rp.status == PROVEN else None
        if possible is None:
            every = set(rp.possible) | set(rp.undecided)
            b["possible"] = _set_bounds(set(rp.possible), every - set(rp.undecided))
        if fr.status == UNKNOWN:
            b.update({k: v for k, v in fr.bounds.items() if k == "forceable"})
        avoid_g = fr.guaranteed
        if rp.avoid_possible is False:
            avoid_g = False
        rows.append(
            MoveReport(
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
                same_as=rep_of[p] if rep_of[p] != p else None,
            )
        )
    return rows


def _forced_rows(
    pos: Position,
    seat: int,
    plays: list[Play],
    lim: Limits,
    poss: dict[Play, Any],
    rep_of: dict[Play, Play],
    progress: Progress | None,
) -> dict[Play, ForcedReport]:
    """The forced columns of every row with the time left: the search's table when every
    hand is known (rows it could not finish then get the question-by-question bounds), the
    forced answers over the deals otherwise."""
    out: dict[Play, ForcedReport] = {}
    counts = {
        p: poss[rep_of[p]].possible if poss[rep_of[p]].status == PROVEN else None for p in plays
    }
    if pos.all_hands_known:
        from .search import analyze_moves

        first = lim if lim.left() is None else lim.share(0.7)
        for r in analyze_moves(pos, node_limit=lim.node_limit, time_limit=first.seconds()):
            if r.status == PROVEN:
                out[r.play] = ForcedReport(
                    seat,
                    r.guaranteed,
                    r.forceable,
                    None,
                    None,
                    r.best_score,
                    PROVEN,
                    1,
                    True,
                    None,
                    0,
                )
    todo = [p for p in plays if p not in out]
    for i, p in enumerate(todo):
        if progress:
            progress("forced", len(out), len(plays))
        part = lim.share(1.0 / (len(todo) - i))
        c = counts[p]
        if c == ():  # paradox avoidance is not even possible: nothing can be forced
            out[p] = ForcedReport(seat, False, (), None, None, None, PROVEN, 1, True, None, 0)
            continue
        if lim.expired():
            out[p] = ForcedReport(seat, None, None, None, None, None, UNKNOWN, 1, True, None, 0, {})
            continue
        out[p] = forced_report(pos.play(p), seat, limits=part, seed=lim.seed, possible=c)
    if progress:
        progress("forced", len(plays), len(plays))
    return out
