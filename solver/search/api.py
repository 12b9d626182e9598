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

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Literal

from ..answers import PROVEN, UNKNOWN, Status, Witness
from ..cards import Play
from ..errors import PositionError
from ..limits import Limits, OutOfTime
from ..position import Position
from ..scoring import lowest_score, seat_score
from .engine import NOPAR, Bound
from .native import NativeEngine
from .partial import Partial, combine, merged
from .session import AnyEngine, EngineKind, Session, default_engine
from .state import Ctx, State, legal_mask, to_play

__all__ = [
    "EngineKind",
    "Forced",
    "MoveRow",
    "Partial",
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


def _terminal(st: State, eng: AnyEngine) -> bool:
    return st[11] == 0 or not legal_mask(eng.ctx, st)


# ---------------------------------------------------------------------- answers
def _safe(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """Paradox avoidance, guaranteed (I4)."""
    yield replace(out, guaranteed=eng.win(st, 0, st[11]))


def _tricks(eng: AnyEngine, st: State, out: Partial, extremes: bool = True) -> Iterator[Partial]:
    """The trick counts S can force without causing a paradox (none when it cannot avoid
    one), each as soon as it is settled. Exactly k implies at least k and at most k, so only
    at_most <= k <= at_least qualify. ``extremes=False`` (:func:`_row_tricks`) searches
    ``at_most`` only as far as those counts need it and leaves it None above at_least."""
    left, t = st[11], st[10]
    if (none := _no_counts(out)) is not None:
        yield none
        return
    a = _most(eng, st, left)
    out = replace(out, at_least=t + a)
    yield out
    b = _fewest(eng, st, left if extremes else a + 1)  # a + 1: "more than a", never asked
    if extremes or b <= a:
        out = replace(out, at_most=t + b)
        yield out
    yield replace(out, forceable=tuple(t + k for k in range(b, a + 1) if eng.win(st, k, k)))


def _no_counts(out: Partial) -> Partial | None:
    """``out`` with no forceable count when paradox avoidance is settled as no (the counts are
    without a paradox), which needs no search; else None."""
    return replace(out, forceable=()) if out.guaranteed is False else None


def _row_tricks(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """The trick counts S can force, for a row of :func:`analyze_moves`: :func:`_tricks`
    with ``at_most`` asked only for k <= at_least. A row shows the forceable counts, not at
    least / at most, and an exact count k needs "at most k" with k <= at_least; when no such
    k is forceable the row's at_most stays None (it is above at_least) and no count is
    forceable. What this saves is the proof that the others can hold S above a count S could
    never force exactly anyway: on 4 players, 6 tricks left, seed 701, row 5Y's "at most 3
    more" alone took 135 M nodes (no), and the row needs just "at most 0 more" (README, "The
    rows' trick counts, lazily")."""
    return _tricks(eng, st, out, extremes=False)


def _score(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """The best score S guarantees (Sc1-Sc3); when a limit cuts it, the interval its probes
    proved before the cut (then the limit's OutOfTime goes on)."""
    proven: list[tuple[int, int]] = []
    try:
        v = _best_score(eng, st, out.at_least, lambda lo, hi: proven.append((lo, hi)))
    except OutOfTime:
        if proven:
            yield replace(out, score_bounds=proven[-1])
        raise
    yield replace(out, best_score=v)


Family = Callable[[AnyEngine, State, Partial], Iterator[Partial]]
# the question families of a node, cheapest first; analyze_moves asks each of them for every
# row before the next, so a limit that cuts the search leaves the cheaper columns answered
FAMILIES: tuple[Family, ...] = (_safe, _tricks, _score)
# the families of a row of analyze_moves (_row_tricks: the counts a row shows)
ROW_FAMILIES: tuple[Family, ...] = (_safe, _row_tricks, _score)


def _ask(eng: AnyEngine, st: State, out: Partial, family: Family) -> tuple[Partial, bool]:
    """One family's answers added to ``out``; False (with what was settled before the cut)
    when a limit runs out."""
    try:
        for settled in family(eng, st, out):
            out = settled
    except OutOfTime:
        return out, False
    return out, True


def _answers(eng: AnyEngine, st: State) -> tuple[Partial, Status]:
    """Every answer at ``st`` in turn; when a limit runs out, what was settled before it
    (status ``unknown``)."""
    out = Partial()
    for family in FAMILIES:
        out, done = _ask(eng, st, out, family)
        if not done:
            return out, UNKNOWN
    return out, PROVEN


def _most(eng: AnyEngine, st: State, left: int) -> int:
    """The largest k with "at least k more tricks" forceable (monotone in k)."""
    lo, hi = 0, left
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if eng.win(st, mid, left):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _fewest(eng: AnyEngine, st: State, left: int) -> int:
    """The smallest k with "at most k more tricks" forceable, if it is below ``left`` (else
    ``left``, never asked: "at most left" is paradox avoidance, and _row_tricks passes a
    smaller ``left`` to mean "more than that")."""
    lo, hi = 0, left
    while lo < hi:
        mid = (lo + hi) // 2
        if eng.win(st, 0, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _best_score(
    eng: AnyEngine, st: State, guess: int | None = None, on_bound: Bound | None = None
) -> int | None:
    """Sc1-Sc3 minimax. With S's prediction unknown (3-5 players) the score is unknown unless
    every continuation ends with S causing a paradox (then it is -tricks, prediction-free).
    ``guess`` (e.g. at_least: without a paradox the score is at least the tricks) seeds
    MTD(f). ``on_bound(lo, hi)``, when given, is told the interval of the score proven so far
    after every probe (a limit that cuts the search leaves it)."""
    if eng.players > 2 and eng.prediction is None and eng.avoid_possible(st):
        return None
    left, t = st[11], st[10]

    # S has played in the current trick and another seat's play wins it (scoring.lowest_score)
    beaten = st[6] > 0 and (eng.seat - st[5]) % eng.players < st[6] and st[9] != eng.seat
    low = lowest_score(t, left, beaten)

    def within(lo: int, hi: int, shift: int, top: int) -> None:  # MTD(f)'s +-INF cut off
        assert on_bound is not None
        on_bound(max(lo + shift, low), min(hi + shift, top))

    if not eng.win(st, 0, left):
        # the other seats can force S's paradox: the score is -(tricks at the paradox) (Sc1),
        # and every paradox-free end scores at least 0; so the score is at least -(t + j)
        # exactly when S can force "no paradox, or a paradox with at most j more tricks"
        # (one alpha-beta pass over the integer values, Engine.para); the score is at most -t
        v = eng.exact_para(st, eng.para_guess, on_bound and (lambda lo, hi: within(lo, hi, -t, -t)))
        assert v != NOPAR
        eng.para_guess = v
        return v - t
    # at most every trick and a group of every cell of the board (Sc1, Sc3)
    top = t + left + 4 * eng.ctx.max_number
    return eng.exact_value(st, guess, on_bound and (lambda lo, hi: within(lo, hi, 0, top)))


def guaranteed_score(eng: AnyEngine, st: State) -> int | None:
    """The best round score S (the engine's seat) can guarantee from the packed state ``st``
    against every other seat (Sc1-Sc3; None when it depends on S's unknown prediction): the
    score of :func:`forced`, for callers that walk an engine's states themselves (catbox's
    player solves every play on many sampled deals with one engine)."""
    return _best_score(eng, st)


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
        with _shared_root(pos, seat, eng, st, lim):
            out, status = _answers(eng, st)
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


@contextmanager
def _lent(eng: NativeEngine, lim: Limits) -> Iterator[None]:
    """The session's engine searching one question alongside helper threads, which may stop
    it (the core's stop flag): the flag clear before, and after it the flag clear again and
    the question's budget back, for the session's later questions."""
    eng.set_stop(False)
    try:
        yield
    finally:
        eng.set_stop(False)
        eng.set_budget(lim.node_limit, lim.seconds())


@contextmanager
def _shared_root(
    pos: Position, seat: int, eng: AnyEngine, st: State, lim: Limits
) -> Iterator[None]:
    """With threads, the questions :func:`forced` (or :func:`best_score_line`) asks at its
    root ``st`` are answered by :class:`_SharedRoot` (``NativeEngine.root_asker``), on every
    thread."""
    if not isinstance(eng, NativeEngine) or (kids := _split_children(eng, st, lim)) is None:
        yield
        return
    eng.root_asker = (st, _SharedRoot(pos, seat, eng, st, kids, lim))
    try:
        yield
    finally:
        eng.root_asker = None


class _SharedRoot:
    """The questions :func:`forced` asks at its root, on ``lim.threads`` threads. Each
    yes/no question (the trick counts') is shared out as ``can_force``'s is
    (:func:`_win_in_threads`): the calling thread searches the node with the session's
    engine, the others its plays. The paradox regime score asks its thresholds j ("S's
    paradox after at most j more tricks", monotone in j) in parallel (:func:`_para_in_threads`).
    The score outside the paradox regime (``value``'s windows) is searched in one thread.
    Every answer is the node's, whoever settles it: none depends on the threads (README,
    "The root's questions on every thread")."""

    def __init__(
        self,
        pos: Position,
        seat: int,
        eng: NativeEngine,
        st: State,
        kids: list[tuple[int, State]],
        lim: Limits,
    ) -> None:
        self.pos, self.seat, self.eng, self.st, self.kids, self.lim = pos, seat, eng, st, kids, lim

    def win(self, lo: int, hi: int, pk: int) -> bool:
        goal = _Goal(self.st[10], lo, hi, pk)
        ok = _win_in_threads(self.pos, self.seat, self.eng, self.st, self.kids, goal, self.lim)
        if ok is None:
            raise OutOfTime
        return ok

    def exact_para(self, guess: int, on_bound: Bound | None) -> int:
        return _para_in_threads(self.pos, self.seat, self.eng, self.st, guess, self.lim, on_bound)


def _para_in_threads(
    pos: Position,
    seat: int,
    eng: NativeEngine,
    st: State,
    guess: int,
    lim: Limits,
    on_bound: Bound | None,
) -> int:
    """The paradox regime score's value at ``st`` (``exact_para``) on ``lim.threads``
    threads: the calling thread with the session's engine ``eng``, every other with an
    engine of its own, all on one :class:`_Thresholds`."""
    from concurrent.futures import ThreadPoolExecutor

    board = _Thresholds(st, guess, lim, on_bound)

    def helper() -> None:
        try:
            board.work(NativeEngine.for_position(pos, seat), wait=False)
        except OutOfTime:
            pass  # the time limit (the calling thread's search tells it) or a failed board
        except BaseException:
            board.fail()
            raise

    n = lim.threads - 1
    with _lent(eng, lim), ThreadPoolExecutor(n, thread_name_prefix="catbox-para") as pool:
        helpers = [pool.submit(helper) for _ in range(n)]
        try:
            v = board.work(eng)
        except BaseException:
            board.fail()
            for h in helpers:
                h.result()  # a helper's error first (it failed the board)
            raise
        for h in helpers:
            h.result()
    return v


class _Thresholds:
    """The paradox regime score at ``st`` (``exact_para``: -j for the least j such that S can
    force "no paradox, or its paradox after at most j more tricks", P(j)) searched by any
    number of engines at once, each in a thread of its own (:meth:`work`). P is monotone in j
    and P(tricks left) holds (S wins no more), so j lies in [lo, hi] with lo = 0, hi = the
    tricks left. Each engine asks the open threshold nearest the guess that no other asks
    (else races one that only one other asks): a yes lowers hi to j, a no raises lo to
    j + 1, and a search made moot by that is stopped (the core's stop flag). Whichever
    engine answers, each answer is exact, so the value does not depend on the engines or
    threads. Measured (README, "The root's questions on every thread"): the thresholds'
    costs differ tenfold and a dear no at j falls to a cheaper no at j + 1, which is what
    asking several at once harvests. Only for the paradox regime (never NOPAR)."""

    def __init__(self, st: State, guess: int, lim: Limits, on_bound: Bound | None) -> None:
        self.st, self.lim, self.on_bound = st, lim, on_bound
        self.want = min(max(-guess, 0), st[11])
        self.lo, self.hi = 0, st[11]
        self.cond = threading.Condition()
        self.asking: dict[int, tuple[NativeEngine, int]] = {}  # thread: its engine, threshold
        self.failed = False

    def _pick(self) -> int | None:
        if self.failed:
            return None
        taken = [j for _, j in self.asking.values()]
        free = [j for j in range(self.lo, self.hi) if j not in taken]
        pool = free or [j for j in range(self.lo, self.hi) if taken.count(j) == 1]
        return min(pool, key=lambda j: (abs(j - self.want), -j)) if pool else None

    def fail(self) -> None:
        """Stop every engine: a thread raised."""
        with self.cond:
            self.failed = True
            for e, _ in self.asking.values():
                e.set_stop(True)
            self.cond.notify_all()

    def work(self, mine: NativeEngine, wait: bool = True) -> int:
        """Ask thresholds with ``mine`` until the value is settled, and return it; with
        ``wait=False`` return (-1) as soon as there is none to ask. Raises OutOfTime when the
        time limit runs out first (the bounds proven so far told to ``on_bound``) or the
        board failed."""
        me = threading.get_ident()
        while True:
            with self.cond:
                while True:
                    if self.lo == self.hi:
                        return -self.lo
                    if self.failed or self.lim.expired():
                        raise OutOfTime
                    j = self._pick()
                    if j is not None:
                        break
                    if not wait:
                        return -1
                    self.cond.wait(1.0)
                self.asking[me] = (mine, j)
            mine.set_budget(None, self.lim.seconds())
            try:
                ok: bool | None = mine.solve(self.st, 0, self.st[11], j)
            except OutOfTime:
                ok = None
            finally:
                with self.cond:
                    del self.asking[me]
            with self.cond:
                if ok is not None:
                    if ok and j < self.hi:
                        self.hi = j
                    elif not ok and j >= self.lo:
                        self.lo = j + 1
                    assert self.lo <= self.hi, "P(j) is monotone in j"
                    for e, k in self.asking.values():  # searches the answer made moot
                        if not self.lo <= k < self.hi:
                            e.set_stop(True)
                    if self.on_bound is not None:
                        self.on_bound(-self.hi, -self.lo)
                    self.cond.notify_all()
            mine.set_stop(False)


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
    lo, hi = target.interval(st[10], st[11])
    if isinstance(eng, NativeEngine) and (kids := _split_children(eng, st, lim)) is not None:
        ok = _win_in_threads(pos, seat, eng, st, kids, _Goal(st[10], lo, hi), lim)
        return ok, PROVEN if ok is not None else UNKNOWN
    try:
        return eng.win(st, lo, hi), PROVEN
    except OutOfTime:
        return None, UNKNOWN


# A yes/no question is shared out between threads from this many tricks left (closer to the
# end one search takes well under a second and a thread would cost more than it saves).
SPLIT_FROM = 5
# The node budgets of _Split's phases: a short search of each play, a longer one, each of
# its own plays (SPLIT_HELP), then to the end (None).
SPLIT_PROBE, SPLIT_HARD, SPLIT_HELP = 100_000, 5_000_000, 10_000_000
PHASES = (SPLIT_PROBE, SPLIT_HARD, SPLIT_HELP, None)
WHOLE = -1  # _Split's name for the search of the whole node


@dataclass(frozen=True, slots=True)
class _Goal:
    """A yes/no question shared out between threads, as ``win``'s arguments at its root,
    where S holds ``t`` tricks: avoid causing a paradox with ``lo`` to ``hi`` more tricks,
    or (``pk`` >= 0) cause it only after at most ``pk`` more (the score's paradox regime)."""

    t: int
    lo: int
    hi: int
    pk: int = -1

    def at(self, st: State) -> tuple[int, int, int]:
        """The question at ``st`` below the root: the tricks S won since count against it
        (``hi`` capped at the tricks left: S wins no more, so a larger one asks the same; a
        paradox allowed after at most -1 more is none allowed, ``pk`` -1)."""
        d = st[10] - self.t
        return self.lo - d, min(self.hi - d, st[11]), max(self.pk - d, -1) if self.pk >= 0 else -1


def _split_children(eng: NativeEngine, st: State, lim: Limits) -> list[tuple[int, State]] | None:
    """The plays to share a question at ``st`` out between threads (:func:`_win_in_threads`),
    or None when it is searched in one: one thread, a node limit (its count would depend on
    the threads), fewer than SPLIT_FROM tricks left or one play only. (Compiled engines only:
    the callers check, as they need the engine's type.)"""
    if lim.threads < 2 or lim.node_limit is not None or st[11] < SPLIT_FROM:
        return None
    kids = _distinct_children(eng, st)
    return kids if len(kids) > 1 else None


def _distinct_children(eng: AnyEngine, st: State) -> list[tuple[int, State]]:
    """The plays of the seat to play with their states, without plays that mirror a kept one
    under colour symmetry (:func:`_mirror`: their answers are the same)."""
    kids = list(eng.children(st))
    idxs = {idx for idx, _ in kids}
    return [(idx, ch) for idx, ch in kids if _mirror(eng.ctx, st, idx) not in idxs]


def _win_in_threads(
    pos: Position,
    seat: int,
    eng: NativeEngine,
    root: State,
    kids: list[tuple[int, State]],
    goal: _Goal,
    lim: Limits,
) -> bool | None:
    """``can_force`` (or one question of :func:`forced`, :func:`_shared_root`) on
    ``lim.threads`` threads: the calling thread searches the whole node
    with the session's engine ``eng`` (what one thread does), racing the other threads, which
    share out its plays (:class:`_Split`); the first to settle the node stops the rest. None
    when the time limit ran out first."""
    from concurrent.futures import ThreadPoolExecutor

    split = _Split(pos, seat, kids, goal, lim)
    n = min(lim.threads - 1, len(kids))
    split.barrier = threading.Barrier(n, action=split.next_phase)
    with _lent(eng, lim), ThreadPoolExecutor(n, thread_name_prefix="catbox-split") as pool:
        helpers = [pool.submit(split.work) for _ in range(n)]
        try:
            ok = split.search(eng, WHOLE, root, None)
            if ok is not None:
                split.record(WHOLE, ok)
        except BaseException:
            split.stop()
            raise
        for h in helpers:
            h.result()
    return split.answer[0] if split.answer else None


class _Split:
    """The plays of one yes/no question (``can_force``) shared out between threads, racing
    the search of the whole node (``WHOLE``, in the calling thread: _win_in_threads). At S's
    node one play that reaches the goal settles the node (yes), at another seat's node one
    play that stops it (no); the answer is that of the search of the whole node either way, so
    it never depends on the threads.

    The plays still open go through PHASES, every thread taking the next one in play order;
    each search is on empty tables of its own (an engine made for it and dropped after:
    engines are never shared between threads), except the first phase's short searches:
    1. every play for SPLIT_PROBE nodes, so easy plays that settle the node are not kept
       waiting behind hard ones;
    2. every play for SPLIT_HARD nodes;
    3. every play from its own plays, one by one, at most SPLIT_HELP nodes each (a hard play
       often falls to one of them far sooner than to its own search);
    4. every play to the end.
    The first thread to settle the node stops every other (the core's stop flag).

    Measured (``bench/bench_native.py --only split``): the proof-number search is erratic from
    the round start, its nodes moving tenfold with what its tables held before. At 4 players,
    seeds 800-806, one search of the node took 9.8 / 56.1 / 29.6 / 57.0 / 2.7 / 14.2 / 25.0 M
    nodes; one search per play, each on empty tables, 0.9 / 23.6 / 62.9 / 57.2 / 4.4 / 19.0 /
    5.9 M in all; the same plays one after the other on one table 6.5 / 44.1 / 27.0 M (seeds
    800-802); one play searched to the end after a cut 100,000-node search of it on the same
    table 46.8 M nodes where empty tables take 0.27 M, which is why each search to the end
    starts from empty tables. The largest plays (38.5 M at seed 802, 45.3 M at 803) are
    settled by their first own play in 4.6 M and 9.2 M nodes: what step 3 is for. (All before
    the refutation order, search.h pn_refuters: with it the whole search is the better one on
    most seeds, whole 4.7 M nodes median against 17.9 M for the plays alone, so the plays
    shared out mostly cut its worst runs, seed 803 23.6 s -> 7.5 s on two free cores.)"""

    def __init__(
        self,
        pos: Position,
        seat: int,
        kids: list[tuple[int, State]],
        goal: _Goal,
        lim: Limits,
    ) -> None:
        self.pos, self.seat, self.goal, self.lim = pos, seat, goal, lim
        self.kids = dict(kids)
        self.order = [idx for idx, _ in kids]
        self.s_moves = pos.to_play == seat  # S's node: any yes settles it; else any no
        self.lock = threading.Lock()
        self.queue = iter(self.order)  # the current phase's plays
        self.running: dict[int, tuple[NativeEngine, int]] = {}  # thread: engine, its play
        self.settled: dict[int, bool] = {}
        self.answer: list[bool] = []
        self.done = threading.Event()  # the node is settled, or a thread raised
        self.barrier: threading.Barrier | None = None

    def engine(self) -> NativeEngine:
        return NativeEngine.for_position(self.pos, self.seat)

    def next_phase(self) -> None:
        self.queue = iter([i for i in self.order if i not in self.settled])

    def stop(self, idx: int | None = None) -> None:
        """Stop the searches of play ``idx`` (every search and the node when None)."""
        if idx is None:
            self.done.set()
        with self.lock:
            for e, i in self.running.values():
                if idx is None or i == idx:
                    e.set_stop(True)

    def search(self, eng: NativeEngine, idx: int, st: State, budget: int | None) -> bool | None:
        """The goal at ``st`` (play ``idx`` or one of its own plays), None when cut: by the
        budget, the time limit, or because the play or the node got settled meanwhile."""
        me = threading.get_ident()
        with self.lock:
            if self.done.is_set() or idx in self.settled or self.lim.expired():
                return None
            self.running[me] = (eng, idx)
        lo, hi, pk = self.goal.at(st)
        eng.set_budget(budget, self.lim.seconds())
        try:
            return eng.solve(st, lo, hi, pk)
        except OutOfTime:
            return None
        finally:
            with self.lock:
                del self.running[me]

    def record(self, idx: int, ok: bool) -> None:
        with self.lock:
            if idx in self.settled:
                return
            self.settled[idx] = ok
            every = all(i in self.settled for i in self.order)  # no play left: ok is the node's
            decides = (idx == WHOLE or ok == self.s_moves or every) and not self.answer
            if decides:
                self.answer.append(ok)
        self.stop(None if decides else idx)

    def work(self) -> None:
        assert self.barrier is not None
        try:
            prober = self.engine()
            for phase, budget in enumerate(PHASES):
                while not self.done.is_set():
                    with self.lock:
                        idx = next(self.queue, None)
                    if idx is None:
                        break
                    if phase == 2:
                        self.help(idx, prober)
                        continue
                    eng = prober if phase == 0 else self.engine()
                    ok = self.search(eng, idx, self.kids[idx], budget)
                    if ok is not None:
                        self.record(idx, ok)
                self.barrier.wait()  # every thread done with the phase: the next one
        except threading.BrokenBarrierError:
            return  # another thread raised: its error is the one reported
        except BaseException:
            assert self.barrier is not None
            self.barrier.abort()
            self.stop()
            raise

    def help(self, idx: int, eng: NativeEngine) -> None:
        """Settle play ``idx`` from its own plays, one by one (phase 3)."""
        st = self.kids[idx]
        s_next = to_play(eng.ctx, st) == self.seat  # S chooses among them: one yes decides
        for _, ch in _distinct_children(eng, st):
            ok = self.search(self.engine(), idx, ch, SPLIT_HELP)
            if ok is None:
                return
            if ok == s_next:
                self.record(idx, ok)
                return
        self.record(idx, not s_next)  # every own play went the other way


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
    lo, hi = target.interval(st[10], st[11])
    line: list[Play] = []
    try:
        if not eng.win(st, lo, hi):
            return None
        while not _terminal(st, eng):
            is_s = (st[5] + st[6]) % eng.players == seat
            pick = None
            for idx, ch in eng.children(st):
                d = ch[10] - st[10]
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
        with _shared_root(pos, seat, eng, st, lim):  # with threads, as forced's
            v = _best_score(eng, st, on_bound=on_bound)
        if v is None:
            return None, None
        if not with_line:
            return v, None
        line: list[Play] = []
        while not _terminal(st, eng):
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
    in them and every seat's permissions for them agree, :func:`_mirror`) are searched once
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
    row and family by family, so the answers it cuts do not depend on the threads either)."""
    pos = pos.settle()
    seat = pos.to_play
    if seat is None:
        return []
    _ready(pos, seat)
    lim = Limits.of(limits)
    eng, store = _engine(pos, seat, lim, engine, session)
    st = eng.state_of(pos)
    kids = list(eng.children(st))
    twins = {idx: _mirror(eng.ctx, st, idx) for idx, _ in kids}
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
        done = _rows_in_threads(pos, seat, eng, todo, lim, engine)
    else:
        done = _rows_in_order(eng, todo)
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


Row = tuple[Partial, Status]


def _rows_in_order(eng: AnyEngine, todo: list[tuple[int, State]]) -> dict[int, Row]:
    """The rows searched in one engine, family by family (:data:`FAMILIES`), each family for
    every row in turn; once a limit cuts one, the rest keep what they have (status unknown:
    their share of the limit is spent). One engine for every row, not one per row: README
    "One engine for every row", bench/bench_native.py --only share."""
    outs = {idx: Partial() for idx, _ in todo}
    for family in ROW_FAMILIES:
        for idx, ch in todo:
            outs[idx], done = _ask(eng, ch, outs[idx], family)
            if not done:
                return {i: (o, UNKNOWN) for i, o in outs.items()}
    return {i: (o, PROVEN) for i, o in outs.items()}


def _rows_in_threads(
    pos: Position,
    seat: int,
    eng: AnyEngine,
    todo: list[tuple[int, State]],
    lim: Limits,
    kind: EngineKind | None,
) -> dict[int, Row]:
    """The rows shared out between ``lim.threads`` threads: the calling thread with ``eng``,
    every other one with an engine of a fresh session made in that thread (engines are never
    shared between threads). First the first family (paradox avoidance) of every row, each
    free thread taking the next row; then, once all threads are done with it (a row that
    cannot avoid its paradox forces no count, :func:`_no_counts`, settled there for every row,
    not only for the rows a thread reaches), the rest of each
    row in turn, a thread taking the next of the rows it searched before (its tables
    hold them), else the last row left. A thread that finds no row left races a row another
    thread is still searching (the earliest started that nobody races yet, compiled engines
    only): the same questions on its own engine, whose tables and move-ordering history make
    the search another draw (README, "Racing the last rows"); the first to finish settles
    the row and stops the other. The time limit is the same deadline for all."""
    from concurrent.futures import ThreadPoolExecutor

    n = min(lim.threads, len(todo))
    lock = threading.Lock()
    turn = threading.Barrier(n)
    states = dict(todo)
    outs = {idx: Partial() for idx, _ in todo}
    cut: set[int] = set()
    owner: dict[int, int] = {}
    failed = threading.Event()  # a thread raised: the others take no further row
    first = list(todo)  # the rows of the first family, in order
    rest: list[tuple[int, State]] = []  # then the rows left
    on: dict[int, list[AnyEngine]] = {}  # the engines searching the rest of a row
    settled: set[int] = set()  # the rows done (the first family's, then the rest's)

    def take(me: int, rows: list[tuple[int, State]], mine: AnyEngine) -> int | None:
        with lock:
            if not rows or failed.is_set():
                return None
            i = 0
            if rows is rest:  # its own rows first, else the last one left
                i = next((i for i, (idx, _) in enumerate(rows) if owner[idx] == me), -1)
            idx = rows.pop(i)[0]
            owner[idx] = me
            if rows is rest:
                on[idx] = [mine]
            return idx

    def race(mine: AnyEngine) -> int | None:
        """A row another thread is searching, to race it (None: none to race)."""
        with lock:
            if failed.is_set() or not isinstance(mine, NativeEngine):
                return None
            for idx, engines in on.items():  # in the order the rows were started
                if (
                    idx not in settled
                    and len(engines) == 1
                    and isinstance(engines[0], NativeEngine)
                ):
                    engines.append(mine)
                    return idx
            return None

    def search(mine: AnyEngine, idx: int, families: tuple[Family, ...]) -> None:
        out, done = outs[idx], False
        for family in families:
            if lim.expired():
                break
            mine.set_budget(None, lim.seconds())
            out, done = _ask(mine, states[idx], out, family)
            if not done:
                break
        with lock:
            racing = on.get(idx, [])
            if mine in racing:
                racing.remove(mine)
            if idx in settled:  # another engine settled it first (and stopped this one)
                pass
            elif done:
                outs[idx] = out
                settled.add(idx)
                for other in racing:  # (only compiled engines race)
                    if isinstance(other, NativeEngine):
                        other.set_stop(True)
            else:  # cut by the limit: what either search settled of it is proven
                outs[idx] = merged(outs[idx], out)
                if not racing:
                    cut.add(idx)
        if isinstance(mine, NativeEngine):
            mine.set_stop(False)  # stopped by the winner of a race: free for the next row

    def work(me: int, mine: AnyEngine | None) -> None:
        try:
            if mine is None:
                mine, _ = Session().engine(pos, seat, fresh=True, kind=kind)
            while (idx := take(me, first, mine)) is not None:
                search(mine, idx, ROW_FAMILIES[:1])
            if turn.wait() == 0:  # one thread lists the rows left while the others wait
                rest[:] = [(idx, ch) for idx, ch in todo if idx not in cut]
                settled.clear()  # (the first family's rows)
                for idx, out in outs.items():
                    outs[idx] = _no_counts(out) or out
            turn.wait()
            while (idx := take(me, rest, mine)) is not None or (idx := race(mine)) is not None:
                search(mine, idx, ROW_FAMILIES[1:])
        except threading.BrokenBarrierError:
            return  # another thread failed: its error is raised below
        except BaseException:
            failed.set()
            turn.abort()
            raise

    with ThreadPoolExecutor(n - 1, thread_name_prefix="catbox-rows") as pool:
        helpers = [pool.submit(work, me, None) for me in range(1, n)]
        try:
            work(0, eng)
            for h in helpers:
                h.result()
        finally:
            if isinstance(eng, NativeEngine):
                eng.set_stop(False)  # the session's engine answers later questions
    return {i: (o, UNKNOWN if i in cut else PROVEN) for i, o in outs.items()}


def _mirror(ctx: Ctx, st: State, idx: int) -> int | None:
    """The play of a lower colour that play ``idx`` mirrors, if any. Blue, yellow and green
    are interchangeable in the rules (only red is special, L3 and W1, and the led colour, F2
    and W1): swapping two of them whose rows are filled alike, hold S's tokens alike (Sc3) and
    for which every seat holds the same permission maps the position onto itself, and one play
    onto the other, so both have the same answers."""
    n = ctx.max_number
    c, k0 = divmod(idx, n)
    led = st[7] if st[6] else -1
    if c < 2 or c == led:
        return None
    row = (1 << n) - 1
    occ, mine, perms = st[0], st[1], st[3]
    for c2 in range(1, c):
        if c2 == led or (occ >> (c * n) ^ occ >> (c2 * n)) & row:
            continue
        if (mine >> (c * n) ^ mine >> (c2 * n)) & row:
            continue
        if any((perms >> (4 * q + c) ^ perms >> (4 * q + c2)) & 1 for q in range(ctx.players)):
            continue
        return c2 * n + k0
    return None
