"""Double-dummy answers for one seat: the public API of :mod:`catbox.solver.search`.

All hands are known; the asking seat S plays against the other seats acting together
(analysis.md, "guaranteed"). A continuation ends after the last trick (E1) or at a paradox
(X1, X3); trick counts are final counts (tricks already won plus tricks won from here).

Every line returned is replayed through the rules engine (:meth:`..answers.Witness.verify`)
before it is returned; a node or time limit (``limits``, :class:`..limits.Limits`) gives
``status == "unknown"`` and None for every field not decided, never a guess. Every question
takes ``limits=None`` and ``session=None`` (:class:`.session.Session`: whose engines and
tables it uses; the calling thread's default when None).

The searches run in the compiled core (:mod:`.native`, C++17) unless ``engine="python"`` (or
the environment variable ``CATBOX_ENGINE=python``) selects the pure-Python reference
(:mod:`.engine`); both give the same answers. The session keeps one engine (and its tables)
per asking seat between calls, so every question and every row on the same root shares one
table.

>>> from ..deal import random_position
>>> pos = random_position(3, seed=2, tricks_left=2)
>>> f = forced(pos, pos.to_play)
>>> f.status, f.guaranteed is not None
('proven', True)
>>> ok, status = can_force(pos, pos.to_play, Target("avoid-paradox"))
>>> ok == f.guaranteed, status
(True, 'proven')
>>> [r.play for r in analyze_moves(pos)] == pos.legal_plays()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..answers import PROVEN, UNKNOWN, Status, Witness
from ..cards import Play
from ..errors import PositionError
from ..limits import Limits, OutOfTime
from ..position import Position
from ..scoring import seat_score
from .engine import Bound
from .families import (
    ask_all,
    guaranteed_score,
    is_terminal,
    mirror_play,
    rows_in_order,
    rows_in_rounds,
    score_value,
)
from .native import NativeEngine
from .partial import Partial, combine
from .session import AnyEngine, EngineKind, Session, default_engine
from .state import CNT, LEADER, LEFT, TRICKS, State
from .threads import (
    SplitGoal,
    rows_in_threads,
    shared_root,
    split_children,
    win_in_threads,
)

__all__ = [
    "EngineKind",
    "Forced",
    "MoveRow",
    "Session",
    "Target",
    "analyze_moves",
    "best_score_line",
    "can_force",
    "clear_cache",
    "default_engine",
    "forced",
    "guaranteed_score",
    "main_line",
]


@dataclass(frozen=True, slots=True)
class Forced:
    """What S can guarantee (analysis.md): ``guaranteed`` — S can always avoid causing a
    paradox; ``forceable`` — every exact final trick count S can guarantee; ``at_least`` /
    ``at_most`` — the most / fewest tricks S can guarantee (None when S cannot guarantee
    avoiding a paradox); ``best_score`` — the best round score S can guarantee (Sc1-Sc3; None
    when it depends on an unknown prediction)."""

    seat: int
    guaranteed: bool | None
    forceable: tuple[int, ...] | None
    at_least: int | None
    at_most: int | None
    best_score: int | None
    status: Status
    nodes: int


@dataclass(frozen=True, slots=True)
class Target:
    """A goal for S: avoid causing a paradox, and (except ``avoid-paradox``) finish with exactly
    / at least / at most ``k`` tricks (final counts)."""

    kind: Literal["avoid-paradox", "exactly", "at-least", "at-most"]
    k: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("avoid-paradox", "exactly", "at-least", "at-most"):
            raise PositionError(f"unknown goal kind {self.kind!r}")
        if self.kind != "avoid-paradox" and self.k is None:
            raise PositionError(f"goal {self.kind!r} needs a trick count k")

    def interval(self, tricks: int, left: int) -> tuple[int, int]:
        """The goal as tricks still to win from a position where S has ``tricks``."""
        k = 0 if self.k is None else self.k - tricks
        if self.kind == "exactly":
            return k, k
        if self.kind == "at-least":
            return k, left
        if self.kind == "at-most":
            return 0, k
        return 0, left


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One row of the table for the seat to play: what the play still guarantees it."""

    play: Play
    forceable: tuple[int, ...] | None
    guaranteed: bool | None
    best_score: int | None
    status: Status
    # the interval of the best score its search proved before a limit cut it (None: exact, or
    # no probe finished)
    score_bounds: tuple[int, int] | None = None


# ---------------------------------------------------------------------- engines
def clear_cache() -> None:
    """Forget every engine and table of the calling thread's default session."""
    Session.default().clear()


def _engine(
    pos: Position,
    seat: int,
    limits: Limits | None,
    kind: EngineKind | None,
    session: Session | None,
) -> tuple[AnyEngine, dict[State, Partial] | None]:
    """An engine for S from the session (the thread's default when None). Without a node
    limit the session's engine (and its exact transposition tables) is used, so every question
    and every row on the same root shares one table; with a node limit a fresh engine is used
    so that the limit gives the same status on every run (a time limit is never reproducible
    anyway)."""
    lim = Limits.of(limits)
    eng, store = Session.of(session).engine(pos, seat, fresh=lim.node_limit is not None, kind=kind)
    eng.set_budget(lim.node_limit, lim.seconds())  # the engines' boundary: numbers
    return eng, store


def _ready(pos: Position, seat: int) -> Position:
    if not pos.all_hands_known:
        raise PositionError("game-tree search needs every hand known (a double-dummy question)")
    if not 0 <= seat < pos.players:
        raise PositionError(f"seat {seat} out of range at {pos.players} players", where="seat")
    return pos.settle()


def _finished_forced(pos: Position, seat: int) -> Forced:
    ok = pos.paradox != seat
    t = pos.seats[seat].tricks
    return Forced(
        seat,
        ok,
        (t,) if ok else (),
        t if ok else None,
        t if ok else None,
        seat_score(pos, seat),
        PROVEN,
        0,
    )


def forced(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    engine: EngineKind | None = None,
) -> Forced:
    """Everything S can guarantee from ``pos`` (all hands known)."""
    pos = _ready(pos, seat)
    if pos.finished:
        return _finished_forced(pos, seat)
    lim = Limits.of(limits)
    eng, store = _engine(pos, seat, lim, engine, session)
    st = eng.state_of(pos)
    start = eng.nodes
    done = store.get(st) if store is not None else None
    if done is not None:  # combined from the children by analyze_moves
        out, status = done, PROVEN
    else:
        with shared_root(pos, seat, eng, st, lim):
            out, status = ask_all(eng, st)
    return Forced(
        seat,
        out.guaranteed,
        out.forceable,
        out.at_least,
        out.at_most,
        out.best_score,
        status,
        eng.nodes - start,
    )


# ---------------------------------------------------------------------- goals
def _goal_met_finished(pos: Position, seat: int, target: Target) -> bool:
    if pos.paradox == seat:
        return False
    lo, hi = target.interval(pos.seats[seat].tricks, 0)
    return lo <= 0 <= hi


def can_force(
    pos: Position,
    seat: int,
    target: Target,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    engine: EngineKind | None = None,
) -> tuple[bool | None, Status]:
    """Can S guarantee ``target``? ``(None, "unknown")`` when a limit ran out."""
    pos = _ready(pos, seat)
    if pos.finished:
        return _goal_met_finished(pos, seat, target), PROVEN
    lim = Limits.of(limits)
    eng, _ = _engine(pos, seat, lim, engine, session)
    st = eng.state_of(pos)
    lo, hi = target.interval(st[TRICKS], st[LEFT])
    if isinstance(eng, NativeEngine) and (kids := split_children(eng, st, lim)) is not None:
        ok = win_in_threads(pos, seat, eng, st, kids, SplitGoal(st[TRICKS], lo, hi), lim)
        return ok, PROVEN if ok is not None else UNKNOWN
    try:
        return eng.win(st, lo, hi), PROVEN
    except OutOfTime:
        return None, UNKNOWN


def main_line(
    pos: Position,
    seat: int,
    target: Target,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    engine: EngineKind | None = None,
) -> tuple[Play, ...] | None:
    """A full line to the end of the round in which S always makes its first winning play (in
    play order: number, then R, B, Y, G) and the other seats make their first play in that order
    (every reply loses for them, as the goal is forceable). None if the goal is not forceable
    (or a limit ran out before that was proven). Replayed through the rules engine."""
    pos = _ready(pos, seat)
    if pos.finished:
        return () if _goal_met_finished(pos, seat, target) else None
    eng, _ = _engine(pos, seat, limits, engine, session)
    st = eng.state_of(pos)
    lo, hi = target.interval(st[TRICKS], st[LEFT])
    line: list[Play] = []
    try:
        if not eng.win(st, lo, hi):
            return None
        while not is_terminal(st, eng):
            is_s = (st[LEADER] + st[CNT]) % eng.players == seat
            pick = None
            for idx, ch in eng.children(st):
                d = ch[TRICKS] - st[TRICKS]
                if not is_s or eng.win(ch, lo - d, hi - d):
                    pick = (idx, ch, d)
                    break
            if pick is None:  # pragma: no cover - the node was proven winnable
                raise AssertionError("no winning move at a winning node")
            line.append(eng.ctx.play_of(pick[0]))
            st, lo, hi = pick[1], lo - pick[2], hi - pick[2]
    except OutOfTime:
        return None
    end = Witness.of(pos, line).verify(pos)
    assert _goal_met_finished(end, seat, target)
    return tuple(line)


def best_score_line(
    pos: Position,
    seat: int,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    engine: EngineKind | None = None,
    on_bound: Bound | None = None,
    with_line: bool = True,
) -> tuple[int | None, tuple[Play, ...] | None]:
    """The best score S can guarantee and a principal variation: at every node the first play
    (number, then R, B, Y, G) that keeps the value. ``(None, None)`` if the score depends on an
    unknown prediction or a limit ran out. Replayed through the rules engine. ``on_bound(lo,
    hi)``, when given, is told the interval of the score proven so far after every probe of
    its search: what stays proven when a limit cuts it. ``with_line=False``: the score alone
    (the line None), for a caller that shows no line and should not spend the limit on one."""
    pos = _ready(pos, seat)
    if pos.finished:
        return seat_score(pos, seat), () if with_line else None
    lim = Limits.of(limits)
    eng, _ = _engine(pos, seat, lim, engine, session)
    st = eng.state_of(pos)
    try:
        with shared_root(pos, seat, eng, st, lim):  # with threads, as forced's
            v = score_value(eng, st, on_bound=on_bound)
        if v is None:
            return None, None
        if not with_line:
            return v, None
        line: list[Play] = []
        while not is_terminal(st, eng):
            keep = ((i, ch) for i, ch in eng.children(st) if eng.value(ch, v - 1, v + 1) == v)
            pick = next(keep, None)
            if pick is None:  # pragma: no cover - some child keeps the minimax value
                raise AssertionError("no child keeps the minimax value")
            line.append(eng.ctx.play_of(pick[0]))
            st = pick[1]
    except OutOfTime:
        return None, None
    end = Witness.of(pos, line).verify(pos)
    assert seat_score(end, seat) == v
    return v, tuple(line)


# ---------------------------------------------------------------------- table
def analyze_moves(
    pos: Position,
    *,
    limits: Limits | None = None,
    session: Session | None = None,
    engine: EngineKind | None = None,
) -> list[MoveRow]:
    """For each legal play of the seat to play (sorted): the exact trick counts it can still
    force, whether it keeps paradox avoidance guaranteed, and the best score it guarantees.
    Plays that mirror each other under colour symmetry (2B, 2Y, 2G when those rows, S's tokens
    in them and every seat's permissions for them agree, :func:`mirror_play`) are searched once
    and listed for each play. The rows are searched question family by family (paradox
    avoidance for every row, then the trick counts, then the score, :data:`FAMILIES`; with
    threads, paradox avoidance for every row, then the rest row by row), so a limit that cuts
    the search leaves the cheaper columns answered on every row. When every row is proven,
    the session remembers the root's answers combined from them (a later :func:`forced` on
    this position reads them).

    With ``limits.threads`` > 1 (and no node limit) the rows are shared out between that many
    threads: the calling thread searches with the session's engine, every other thread with an
    engine and table of its own (a fresh :class:`Session`; the compiled core releases the GIL
    while it searches). A proven row is exact whichever engine found it, so no answer depends
    on the thread count; a node limit keeps one thread, in order (its budget is spent row by
    row and family by family, so the answers it cuts do not depend on the threads either).

    Under a limit (nodes or time) the rows are searched in rounds
    (:func:`.families.rows_in_rounds`, with threads :class:`.families.RowRounds`): every row
    asks its families with a small node budget, then every row still open with four times
    that, and so on, so that a limit that cuts the table leaves every row its first probes
    (the score's proven interval, ``MoveRow.score_bounds``) rather than one row dug to the
    end and the rest untouched."""
    pos = pos.settle()
    seat = pos.to_play
    if seat is None:
        return []
    _ready(pos, seat)
    lim = Limits.of(limits)
    eng, store = _engine(pos, seat, lim, engine, session)
    st = eng.state_of(pos)
    kids = list(eng.children(st))
    twins = {idx: mirror_play(eng.ctx, st, idx) for idx, _ in kids}
    seen: set[int] = set()
    todo: list[tuple[int, State]] = []
    for idx, ch in kids:  # a twin is a lower colour: listed (and searched) before its mirror
        twin = twins[idx]
        if twin not in seen:
            twins[idx] = None
            todo.append((idx, ch))
        elif twins[twin] is not None:  # the mirror of a mirror: the row searched
            twins[idx] = twins[twin]
        seen.add(idx)
    if lim.threads > 1 and lim.node_limit is None and len(todo) > 1:
        done = rows_in_threads(pos, seat, eng, todo, lim, engine)
    elif lim.node_limit is not None or lim.deadline is not None:
        done = rows_in_rounds(eng, todo, lim)
    else:
        done = rows_in_order(eng, todo)
    every = [(idx, done[idx if (twin := twins[idx]) is None else twin]) for idx, _ in kids]
    rows = [
        MoveRow(
            eng.ctx.play_of(i),
            o.forceable,
            o.guaranteed,
            o.best_score,
            s,
            o.score_bounds if o.best_score is None else None,
        )
        for i, (o, s) in every
    ]
    if all(s == PROVEN for _, (_, s) in every) and every and store is not None:
        root = combine([o for _, (o, _) in every])
        if root is not None:
            store[st] = root
    return rows
