"""The questions of analysis.md, answered by the right engine and merged honestly.

"Possible" questions go to :mod:`.possible` (fast checks, plain search or CP-SAT); "guaranteed"
and "forceable" questions go to the game-tree search (:mod:`.search`), which is exact when every
hand is known. With unknown hands, a guaranteed answer means "for every deal of the unseen
cards": deals are enumerated when there are few, otherwise sampled; a sampled "yes" is labelled
``estimate`` (a "no" found on a sampled deal is a proof by counterexample).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from typing import TypeVar

from .answers import PROVEN, UNKNOWN, Status, Witness
from .cards import Play
from .errors import PositionError
from .position import Position

__all__ = [
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

P = TypeVar("P")

EXACT_DEALS = 64  # enumerate every deal up to this many; sample beyond
SAMPLED_DEALS = 24


def merge_status(*statuses: Status) -> Status:
    if any(s == UNKNOWN for s in statuses):
        return UNKNOWN
    if any(s == "estimate" for s in statuses):
        return "estimate"
    return PROVEN


class Budget:
    """A wall-clock budget shared by the solves of one question."""

    def __init__(self, seconds: float | None):
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def left(self, floor: float = 0.05) -> float | None:
        if self.deadline is None:
            return None
        return max(floor, self.deadline - time.monotonic())


# ---------------------------------------------------------------------------- deals
def _count_splits(pool: Counter[int], sizes: list[int]) -> int:
    """How many ways to deal ``pool`` into hands of ``sizes`` (multisets, hands ordered; cards
    left over stay unseen)."""
    counts = [k for _, k in sorted(pool.items())]

    @cache
    def rec(i: int, room: tuple[int, ...]) -> int:
        if i == len(counts):
            return 1 if not any(room) else 0
        return sum(
            rec(i + 1, tuple(r - t for r, t in zip(room, split, strict=True)))
            for split in _compositions(counts[i], room)
        )

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

    if _count_splits(pool, sizes) <= limit:
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
    a sample of deals, status ``estimate``)."""

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

    @property
    def guaranteed_status(self) -> Status:
        """The status of ``guaranteed`` alone: over sampled deals a "no" is proven (the deal
        that refutes it is a real deal of the unseen cards); only a "yes" is an estimate."""
        if self.status == "estimate" and self.guaranteed is False:
            return PROVEN
        return self.status


def forced_report(
    pos: Position,
    seat: int,
    *,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    seed: int = 0,
    only_guaranteed: bool = False,
) -> ForcedReport:
    """With ``only_guaranteed`` just the paradox question is searched (a far cheaper proof);
    the other fields are None."""
    from .search import Target, can_force, forced

    budget = Budget(time_limit)
    boards, exact = deals_of(pos, seed=seed)
    if only_guaranteed:
        for full in boards:
            ok, st = can_force(
                full, seat, Target("avoid-paradox"), node_limit=node_limit, time_limit=budget.left()
            )
            if st != PROVEN:
                return ForcedReport(
                    seat, None, None, None, None, None, UNKNOWN, len(boards), exact, None, 0
                )
            if not ok:  # one deal refutes "for every deal": proven, sampled or not
                return ForcedReport(
                    seat, False, None, None, None, None, PROVEN, len(boards), exact, None, 0
                )
        status0: Status = PROVEN if exact else "estimate"
        bound0 = None if exact else wilson_upper(0, len(boards))
        return ForcedReport(
            seat, True, None, None, None, None, status0, len(boards), exact, bound0, 0
        )
    answers = []
    for full in boards:
        answers.append(forced(full, seat, node_limit=node_limit, time_limit=budget.left()))
    nodes = sum(a.nodes for a in answers)
    if any(a.status != PROVEN for a in answers):
        return ForcedReport(
            seat, None, None, None, None, None, UNKNOWN, len(boards), exact, None, nodes
        )
    # "for every deal": a property fails as soon as one deal refutes it
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
        bound = wilson_upper(0, len(boards))
    return ForcedReport(
        seat,
        guaranteed,
        forceable,
        at_least,
        at_most,
        best,
        status,
        len(boards),
        exact,
        bound,
        nodes,
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


@dataclass(frozen=True, slots=True)
class Limits:
    """How hard to try: a wall-clock budget per question (None: no limit), an optional node
    budget for the search, CP-SAT workers (0: choose) and the solver seed."""

    time_limit: float | None = 60.0
    node_limit: int | None = None
    workers: int = 0
    seed: int = 0


def _possible_then_forced(
    pos: Position, seat: int, limits: Limits, ask: Callable[..., P], only_guaranteed: bool = False
) -> tuple[P, ForcedReport, Budget]:
    """Ask a possible-question solver, then the forced search, within one time budget."""
    budget = Budget(limits.time_limit)
    poss = ask(
        pos, seat, time_limit=budget.left() or 60.0, workers=limits.workers, seed=limits.seed
    )
    forced = forced_report(
        pos,
        seat,
        time_limit=budget.left(),
        node_limit=limits.node_limit,
        seed=limits.seed,
        only_guaranteed=only_guaranteed,
    )
    return poss, forced, budget


def paradox_report(pos: Position, seat: int, limits: Limits = Limits()) -> ParadoxReport:
    from .possible import paradox_possible

    poss, forced, budget = _possible_then_forced(
        pos, seat, limits, paradox_possible, only_guaranteed=True
    )
    line = None
    if forced.guaranteed and pos.all_hands_known:
        from .search import Target, main_line

        line = main_line(pos, seat, Target("avoid-paradox"), time_limit=budget.left())
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


@dataclass(frozen=True, slots=True)
class MoveReport:
    """One row of ``catbox analyze``: a legal play of the seat to play."""

    play: Play
    possible: tuple[int, ...] | None
    forceable: tuple[int, ...] | None
    avoid_possible: bool | None
    avoid_guaranteed: bool | None
    best_score: int | None
    status: Status


def analyze(
    pos: Position,
    limits: Limits = Limits(),
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveReport]:
    """A double-dummy-like table for the seat to play: every legal play with its possible and
    forceable trick counts, paradox avoidance, and the best score it guarantees."""
    from .possible import paradox_possible, tricks_possible

    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: there is nothing to analyse", rule="E1")
    if not pos.all_hands_known:
        raise PositionError(
            "analyze needs every hand known (a double-dummy table)", code="needs-known-hands"
        )
    from .search import analyze_moves

    budget = Budget(limits.time_limit)
    forced_rows = analyze_moves(pos, node_limit=limits.node_limit, time_limit=budget.left())
    rows = []
    for k, fr in enumerate(forced_rows):
        if progress:
            progress(k, len(forced_rows))
        child = pos.play(fr.play)
        left, workers, seed = budget.left() or 1.0, limits.workers, limits.seed
        tp = tricks_possible(child, seat, time_limit=left, workers=workers, seed=seed)
        pp = paradox_possible(child, seat, time_limit=left, workers=workers, seed=seed)
        rows.append(
            MoveReport(
                play=fr.play,
                possible=tp.possible if tp.status == PROVEN else None,
                forceable=fr.forceable,
                avoid_possible=pp.possible,
                avoid_guaranteed=fr.guaranteed,
                best_score=fr.best_score,
                status=merge_status(tp.status, pp.status, fr.status),
            )
        )
    return rows
