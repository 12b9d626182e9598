"""Cooperative "possible" questions (analysis.md): can a seat avoid causing a paradox, can the
round end with no paradox at all, and which final trick counts can a seat reach.

Three engines answer them, cheapest first:

- **matching** -- a seat that must still play all but one of its cards (E1) needs that many
  distinct usable cells (empty, in a colour it still holds; L1, L2). Cells of different numbers are
  disjoint, so the bipartite card-cell graph is a disjoint union of complete graphs and its maximum
  matching is ``sum(min(copies of n, usable cells of n))``. A deficiency of 2 or more proves the
  seat cannot finish the round (a Hall violator: the numbers with more copies than cells). And
  a cap on the trick count from the red cells (:func:`.matching.trick_cap`): a trick in which
  another seat fills a red cell the seat can never fill is lost but for one per red card of its
  own above it (W1), so the counts above the cap are out with no search.
- **search** -- a memoised depth-first search over a compact encoding of the state (a filled-colour
  bitmask per number), for small positions. Unknown hands are dealt lazily from the unknown pool.
- **cp-sat** -- the model of :mod:`catbox.solver.cpsat` for everything larger.

The engines live in :mod:`.matching` and :mod:`.coop`; this module dispatches between them.
Every witness is replayed through the rules engine (:meth:`Witness.verify`) and checked against
the claim before it is returned; a failure is a :class:`SolverBug`, never an answer.

>>> from .deal import random_position
>>> pos = random_position(3, seed=2, tricks_left=2)
>>> ans = paradox_possible(pos, 0)
>>> ans.status, ans.method, ans.possible is not None
('proven', 'search', True)
>>> t = tricks_possible(pos, 0)
>>> t.status, all(t.witnesses[k].verify(pos).seats[0].tricks == k for k in t.possible)
('proven', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .answers import PROVEN, UNKNOWN, Status, Witness
from .board import EMPTY
from .cards import Play, seat_letter
from .coop import CoopSearch
from .errors import SolverBug
from .goals import Question
from .limits import Limits, OutOfTime
from .matching import hall_reason, hall_violation, trick_cap
from .position import Position

__all__ = [
    "Method",
    "ParadoxPossible",
    "RowPossible",
    "TricksPossible",
    "colour_classes",
    "paradox_possible",
    "rows_possible",
    "tricks_possible",
]


Method = Literal["auto", "search", "cp-sat"]


@dataclass(frozen=True, slots=True)
class ParadoxPossible:
    seat: int
    possible: bool | None  # some continuation in which `seat` does not cause a paradox
    round_possible: bool | None  # some continuation in which nobody causes one
    witness: Witness | None  # for possible=True: a full line to the end of the round
    round_witness: Witness | None  # for round_possible=True
    reason: str | None  # when possible is False and a simple reason exists
    status: Status  # "proven" or "unknown" (a time limit never becomes a yes or a no)
    method: str  # which engine settled it: "trivial", "matching", "search", "cp-sat"


@dataclass(frozen=True, slots=True)
class TricksPossible:
    seat: int
    possible: tuple[int, ...]  # final trick counts reachable without `seat` causing a paradox
    witnesses: dict[int, Witness]  # one witness line per k in possible
    undecided: tuple[int, ...]  # counts the time limit left open (status "unknown" iff any)
    status: Status
    method: str


# --------------------------------------------------------------------------- matching (E1, L1, L2)


# --------------------------------------------------------------------------- dispatch

_PROBE_BUDGET = 3000  # nodes of the heuristic witness probe before CP-SAT takes over
_ROW_PROBE = 3000  # per row of analyze (measured: cheaper than one CP-SAT find per count)


def _check(pos: Position, seat: int, w: Witness, goal: Question, k: int = 0) -> Witness:
    """Replay ``w`` through the rules engine and check it satisfies ``goal``."""
    end = w.verify(pos)
    if goal == "round" and end.paradox is not None:
        raise SolverBug(f"witness for a paradox-free round ends in a paradox: {w}")
    if goal in ("avoid", "tricks") and end.paradox == seat:
        raise SolverBug(f"witness line ends in a paradox by {seat_letter(seat)}: {w}")
    if goal == "tricks" and end.seats[seat].tricks != k:
        raise SolverBug(f"witness line gives {end.seats[seat].tricks} tricks, not {k}: {w}")
    return w


def _small(pos: Position) -> bool:
    """Positions where the exhaustive search beats CP-SAT's fixed overhead (a size estimate:
    the search tree grows with plays left and, for unknown hands, with the pool)."""
    hidden = sum(1 for s in pos.seats if s.hand is None)
    if hidden == 0:
        # measured (bench/bench_possible.py): at 3 tricks left the search matches CP-SAT's
        # median up to 4 players and skips its worst case and the ortools import; at 5
        # players it is ~30x slower
        return pos.tricks_left <= 2 or (pos.tricks_left == 3 and pos.players <= 4)
    return pos.tricks_left <= 2 and hidden * pos.tricks_left <= 6


def _resolve(pos: Position, method: Method) -> Literal["search", "cp-sat"]:
    if method == "auto":
        return "search" if _small(pos) else "cp-sat"
    if method not in ("search", "cp-sat"):
        raise ValueError(f"unknown method {method!r}")
    return method


def _trivial_paradox(pos: Position, seat: int) -> ParadoxPossible:
    none = Witness.of(pos, [])
    ok = pos.paradox != seat
    rnd = pos.paradox is None
    return ParadoxPossible(
        seat,
        ok,
        rnd,
        _check(pos, seat, none, "avoid") if ok else None,
        _check(pos, seat, none, "round") if rnd else None,
        None,
        PROVEN,
        "trivial",
    )


def paradox_possible(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    method: Method = "auto",
) -> ParadoxPossible:
    """Can ``seat`` avoid causing a paradox in some continuation (and some deal of the unknown
    hands), and can the round end with no paradox at all? ``method`` forces an engine. (No
    ``session``: the cooperative engines keep no tables between questions.)"""
    pos = pos.settle()
    if pos.finished:
        return _trivial_paradox(pos, seat)
    engine = _resolve(pos, method)
    lim = Limits.of(limits)
    reason = hall_reason(pos, seat)
    # matching: a known seat that cannot play all but one card rules out a full round (E1)
    blocked = any(hall_violation(pos, s) is not None for s in range(pos.players))
    if engine == "search":
        search = CoopSearch(pos, seat, lim)
        try:
            mask, rnd = search.solve(search.root)
        except OutOfTime:
            return ParadoxPossible(seat, None, None, None, None, None, UNKNOWN, "search")
        w = _check(pos, seat, search.witness(search.line("avoid")), "avoid") if mask else None
        rw = _check(pos, seat, search.witness(search.line("round")), "round") if rnd else None
        if blocked and rnd:
            raise SolverBug("search finds a full round that the matching check rules out")
        return ParadoxPossible(
            seat, mask != 0, rnd, w, rw, None if mask else reason, PROVEN, "search"
        )
    from .cpsat.solve import solve_possible

    rnd_status: Status = PROVEN
    rw = None
    rnd_ans: bool | None
    search = CoopSearch(pos, seat)
    how = "probe"
    if blocked:
        rnd_ans, how = False, "matching"
    elif lines := search.probe("round", set(), budget=_PROBE_BUDGET, seed=lim.seed, limits=lim):
        rnd_ans = True
        rw = _check(pos, seat, search.witness(lines[0]), "round")
    else:
        res = solve_possible(pos, seat, "round", limits=lim)
        rnd_ans, how = res.feasible, "cp-sat"
        if res.feasible is None:
            rnd_status = UNKNOWN
        elif res.witness is not None:
            rw = _check(pos, seat, res.witness, "round")
    if rnd_ans:
        return ParadoxPossible(seat, True, True, rw, rw, None, PROVEN, how)
    if lines := search.probe("avoid", set(), budget=_PROBE_BUDGET, seed=lim.seed, limits=lim):
        w = _check(pos, seat, search.witness(lines[0]), "avoid")
        return ParadoxPossible(seat, True, rnd_ans, w, None, None, rnd_status, how)
    res = solve_possible(pos, seat, "avoid", limits=lim)
    if res.feasible is None:
        return ParadoxPossible(seat, None, rnd_ans, None, None, None, UNKNOWN, "cp-sat")
    w = _check(pos, seat, res.witness, "avoid") if res.witness is not None else None
    return ParadoxPossible(
        seat,
        res.feasible,
        rnd_ans,
        w,
        None,
        None if res.feasible else reason,
        rnd_status,
        "cp-sat",
    )


def tricks_possible(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    method: Method = "auto",
) -> TricksPossible:
    """Every final trick count of ``seat`` reachable in some continuation (and deal) in which
    ``seat`` causes no paradox, one verified witness line per count."""
    pos = pos.settle()
    now = pos.seats[seat].tricks
    if pos.finished:
        if pos.paradox == seat:
            return TricksPossible(seat, (), {}, (), PROVEN, "trivial")
        w = _check(pos, seat, Witness.of(pos, []), "tricks", now)
        return TricksPossible(seat, (now,), {now: w}, (), PROVEN, "trivial")
    engine = _resolve(pos, method)
    lim = Limits.of(limits)
    if engine == "search":
        search = CoopSearch(pos, seat, lim)
        try:
            mask, _ = search.solve(search.root)
        except OutOfTime:
            every = tuple(range(now, now + pos.tricks_left + 1))
            return TricksPossible(seat, (), {}, every, UNKNOWN, "search")
        ks = [j for j in range(pos.tricks_left + 1) if mask >> j & 1]
        wits = {
            now + j: _check(pos, seat, search.witness(search.line("tricks", j)), "tricks", now + j)
            for j in ks
        }
        return TricksPossible(seat, tuple(now + j for j in ks), wits, (), PROVEN, "search")
    from .cpsat.solve import solve_tricks

    search = CoopSearch(pos, seat)
    lines = search.probe(
        "tricks",
        set(range(pos.tricks_left + 1)),
        budget=_PROBE_BUDGET,
        seed=lim.seed,
        limits=lim,
    )
    wits = {
        now + j: _check(pos, seat, search.witness(m), "tricks", now + j) for j, m in lines.items()
    }
    found, undecided = solve_tricks(
        pos, seat, limits=lim, exclude=set(wits), cap=trick_cap(pos, seat)
    )
    wits.update({k: _check(pos, seat, w, "tricks", k) for k, w in found.items()})
    return TricksPossible(
        seat,
        tuple(sorted(wits)),
        wits,
        tuple(sorted(undecided)),
        UNKNOWN if undecided else PROVEN,
        "cp-sat",
    )


# --------------------------------------------------------------------------- every row at once


@dataclass(frozen=True, slots=True)
class RowPossible:
    """The possible columns of one row of ``analyze``: the final trick counts of the seat to
    play S after ``play`` without its paradox (so paradox avoidance stays possible exactly when
    some count is), for some continuation and some deal of the unknown hands."""

    play: Play
    possible: tuple[int, ...]  # counts proven reachable (a witness each)
    witnesses: dict[int, Witness]
    undecided: tuple[int, ...]  # counts neither found nor ruled out (status unknown iff any)
    status: Status

    @property
    def avoid_possible(self) -> bool | None:
        if self.possible:
            return True
        return False if self.status == PROVEN else None


def colour_classes(pos: Position, plays: list[Play]) -> list[list[Play]]:
    """``plays`` grouped by the blue/yellow/green symmetry of the position: two non-red colours
    are interchangeable when every number has the same empty cells in both, every seat holds
    both permissions or neither (L2), and no card of either is in the current trick. Then the
    plays (n, c1) and (n, c2) lead to mirror-image positions, with the same possible trick
    counts and paradox avoidance (cooperative questions ignore who owns a filled cell). Classes
    keep the order of ``plays``; the first play of each class is its representative."""
    nmax = pos.max_number
    in_trick = {int(p.colour) for p in pos.trick}

    def same(c1: int, c2: int) -> bool:
        if c1 in in_trick or c2 in in_trick:
            return False
        for n in range(nmax):
            if (pos.board[c1 * nmax + n] == EMPTY) != (pos.board[c2 * nmax + n] == EMPTY):
                return False
        return all(bool(s.colours >> c1 & 1) == bool(s.colours >> c2 & 1) for s in pos.seats)

    parent = {c: c for c in range(4)}
    for c1, c2 in ((1, 2), (1, 3), (2, 3)):
        if same(c1, c2):
            a, b = parent[c1], parent[c2]
            for c in parent:
                if parent[c] == b:
                    parent[c] = a
    classes: dict[tuple[int, int], list[Play]] = {}
    for p in plays:
        classes.setdefault((p.number, parent[int(p.colour)]), []).append(p)
    return list(classes.values())


def _below(counts: set[int], cap: int | None) -> set[int]:
    return counts if cap is None else {k for k in counts if k <= cap}


def rows_possible(
    pos: Position,
    plays: list[Play],
    *,
    limits: Limits | None = None,
) -> dict[Play, RowPossible]:
    """The possible columns of every row in ``plays`` (legal plays of the seat to play S; give
    class representatives of :func:`colour_classes`): the exhaustive search where it is small,
    else a cheap witness probe per row, then one shared CP-SAT model for all remaining
    (play, count) pairs (:func:`..cpsat.solve.solve_rows`), whose final infeasibility proves
    every row complete at once."""
    pos = pos.settle()
    seat = pos.to_play
    if seat is None:
        return {}
    lim = Limits.of(limits)
    now = pos.seats[seat].tricks
    every = set(range(now, now + pos.tricks_left + 1))
    wits: dict[Play, dict[int, Witness]] = {p: {} for p in plays}
    exact: dict[Play, bool] = dict.fromkeys(plays, False)
    rest: list[Play] = []
    for p in plays:
        child = pos.play(p)
        if lim.expired():
            rest.append(p)
            continue
        if child.finished or _small(child):
            t = tricks_possible(child, seat, limits=lim)
            wits[p] = {k: Witness(w.hands, (p, *w.line)) for k, w in t.witnesses.items()}
            exact[p] = t.status == PROVEN
            if not exact[p]:
                rest.append(p)
            continue
        search = CoopSearch(child, seat)
        cnow = child.seats[seat].tricks
        lines = search.probe(
            "tricks",
            set(range(child.tricks_left + 1)),
            budget=_ROW_PROBE,
            seed=lim.seed,
            limits=lim,
        )
        for j, mv in lines.items():
            w = search.witness(mv)
            wits[p][cnow + j] = Witness(w.hands, (p, *w.line))
        rest.append(p)
    # the counts each row can still reach at most (matching.trick_cap: the rest are proven
    # out with no search, and excluded from the shared model)
    reach = {p: _below(every, trick_cap(pos.play(p), seat)) for p in plays}
    complete = True
    if rest:
        from .cpsat.solve import solve_rows

        found, complete = solve_rows(
            pos,
            rest,
            limits=lim,
            exclude={p: set(wits[p]) | (every - reach[p]) for p in rest},
        )
        for p, ws in found.items():
            wits[p].update(ws)
    out: dict[Play, RowPossible] = {}
    for p in plays:
        ws = {k: _check(pos, seat, w, "tricks", k) for k, w in sorted(wits[p].items())}
        # every count witnessed: proven without the final infeasibility proof
        proven = exact[p] or complete or set(ws) >= reach[p]
        undecided = () if proven else tuple(sorted(reach[p] - set(ws)))
        out[p] = RowPossible(p, tuple(sorted(ws)), ws, undecided, PROVEN if proven else UNKNOWN)
    return out
