"""The thread schedulers of the search: one question shared out between threads
(:func:`win_in_threads`, :class:`Split`), the root's questions on every thread
(:func:`shared_root`, :class:`SharedRoot`), the paradox regime's thresholds in parallel
(:class:`Thresholds`) and the rows of :func:`.api.analyze_moves` (:func:`rows_in_threads`).
Every answer is the one a single thread gives: the threads only change when it comes.
Engines are never shared between threads: each helper thread makes its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..answers import PROVEN, UNKNOWN
from ..limits import Limits, OutOfTime
from ..position import Position
from . import families as node_families
from .engine import Bound
from .families import (
    ROW_FAMILIES,
    Family,
    Row,
    distinct_children,
    no_counts,
    rounds_in_threads,
)
from .native import NativeEngine
from .partial import Partial, merged
from .session import AnyEngine, EngineKind, Session
from .state import LEFT, TRICKS, State, to_play

__all__ = [
    "PHASES",
    "SPLIT_FROM",
    "SPLIT_HARD",
    "SPLIT_HELP",
    "SPLIT_PROBE",
    "WHOLE",
    "RowShare",
    "SharedRoot",
    "Split",
    "SplitGoal",
    "Thresholds",
    "lent",
    "para_in_threads",
    "rows_in_threads",
    "shared_root",
    "split_children",
    "win_in_threads",
]


@contextmanager
def lent(eng: NativeEngine, lim: Limits) -> Iterator[None]:
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
def shared_root(pos: Position, seat: int, eng: AnyEngine, st: State, lim: Limits) -> Iterator[None]:
    """With threads, the questions :func:`forced` (or :func:`best_score_line`) asks at its
    root ``st`` are answered by :class:`SharedRoot` (``NativeEngine.root_asker``), on every
    thread."""
    if not isinstance(eng, NativeEngine) or (kids := split_children(eng, st, lim)) is None:
        yield
        return
    eng.root_asker = (st, SharedRoot(pos, seat, eng, st, kids, lim))
    try:
        yield
    finally:
        eng.root_asker = None


class SharedRoot:
    """The questions :func:`forced` asks at its root, on ``lim.threads`` threads. Each
    yes/no question (the trick counts') is shared out as ``can_force``'s is
    (:func:`win_in_threads`): the calling thread searches the node with the session's
    engine, the others its plays. The paradox regime score asks its thresholds j ("S's
    paradox after at most j more tricks", monotone in j) in parallel (:func:`para_in_threads`).
    The score outside the paradox regime (``value``'s windows) is searched in one thread.
    Every answer is the node's, whoever settles it: none depends on the threads
    (docs/performance-log.md, "The root's questions on every thread")."""

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
        goal = SplitGoal(self.st[TRICKS], lo, hi, pk)
        ok = win_in_threads(self.pos, self.seat, self.eng, self.st, self.kids, goal, self.lim)
        if ok is None:
            raise OutOfTime
        return ok

    def exact_para(self, guess: int, on_bound: Bound | None) -> int:
        return para_in_threads(self.pos, self.seat, self.eng, self.st, guess, self.lim, on_bound)


def para_in_threads(
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
    engine of its own, all on one :class:`Thresholds`."""
    from concurrent.futures import ThreadPoolExecutor

    board = Thresholds(st, guess, lim, on_bound)

    def helper() -> None:
        try:
            board.work(NativeEngine.for_position(pos, seat), wait=False)
        except OutOfTime:
            pass  # the time limit (the calling thread's search tells it) or a failed board
        except BaseException:
            board.fail()
            raise

    n = lim.threads - 1
    with lent(eng, lim), ThreadPoolExecutor(n, thread_name_prefix="catbox-para") as pool:
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


class Thresholds:
    """The paradox regime score at ``st`` (``exact_para``: -j for the least j such that S can
    force "no paradox, or its paradox after at most j more tricks", P(j)) searched by any
    number of engines at once, each in a thread of its own (:meth:`work`). P is monotone in j
    and P(tricks left) holds (S wins no more), so j lies in [lo, hi] with lo = 0, hi = the
    tricks left. Each engine asks the open threshold nearest the guess that no other asks
    (else races one that only one other asks): a yes lowers hi to j, a no raises lo to
    j + 1, and a search made moot by that is stopped (the core's stop flag). Whichever
    engine answers, each answer is exact, so the value does not depend on the engines or
    threads. Measured (docs/performance-log.md, "The root's questions on every thread"): the
    thresholds' costs differ tenfold and a dear no at j falls to a cheaper no at j + 1, which
    is what asking several at once harvests. Only for the paradox regime (never NOPAR)."""

    def __init__(self, st: State, guess: int, lim: Limits, on_bound: Bound | None) -> None:
        self.st, self.lim, self.on_bound = st, lim, on_bound
        self.want = min(max(-guess, 0), st[LEFT])
        self.lo, self.hi = 0, st[LEFT]
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
                ok: bool | None = mine.solve(self.st, 0, self.st[LEFT], j)
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


# A yes/no question is shared out between threads from this many tricks left (closer to the
# end one search takes well under a second and a thread would cost more than it saves).
SPLIT_FROM = 5


# The node budgets of Split's phases: a short search of each play, a longer one, each of
# its own plays (SPLIT_HELP), then to the end (None).
SPLIT_PROBE, SPLIT_HARD, SPLIT_HELP = 100_000, 5_000_000, 10_000_000


PHASES = (SPLIT_PROBE, SPLIT_HARD, SPLIT_HELP, None)


WHOLE = -1  # Split's name for the search of the whole node


@dataclass(frozen=True, slots=True)
class SplitGoal:
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
        d = st[TRICKS] - self.t
        return self.lo - d, min(self.hi - d, st[LEFT]), max(self.pk - d, -1) if self.pk >= 0 else -1


def split_children(eng: NativeEngine, st: State, lim: Limits) -> list[tuple[int, State]] | None:
    """The plays to share a question at ``st`` out between threads (:func:`win_in_threads`),
    or None when it is searched in one: one thread, a node limit (its count would depend on
    the threads), fewer than SPLIT_FROM tricks left or one play only. (Compiled engines only:
    the callers check, as they need the engine's type.)"""
    if lim.threads < 2 or lim.node_limit is not None or st[LEFT] < SPLIT_FROM:
        return None
    kids = distinct_children(eng, st)
    return kids if len(kids) > 1 else None


def win_in_threads(
    pos: Position,
    seat: int,
    eng: NativeEngine,
    root: State,
    kids: list[tuple[int, State]],
    goal: SplitGoal,
    lim: Limits,
) -> bool | None:
    """``can_force`` (or one question of :func:`forced`, :func:`shared_root`) on
    ``lim.threads`` threads: the calling thread searches the whole node
    with the session's engine ``eng`` (what one thread does), racing the other threads, which
    share out its plays (:class:`Split`); the first to settle the node stops the rest. None
    when the time limit ran out first."""
    from concurrent.futures import ThreadPoolExecutor

    split = Split(pos, seat, kids, goal, lim)
    n = min(lim.threads - 1, len(kids))
    split.barrier = threading.Barrier(n, action=split.next_phase)
    with lent(eng, lim), ThreadPoolExecutor(n, thread_name_prefix="catbox-split") as pool:
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


class Split:
    """The plays of one yes/no question (``can_force``) shared out between threads, racing
    the search of the whole node (``WHOLE``, in the calling thread: win_in_threads). At S's
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
        goal: SplitGoal,
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
        for _, ch in distinct_children(eng, st):
            ok = self.search(self.engine(), idx, ch, SPLIT_HELP)
            if ok is None:
                return
            if ok == s_next:
                self.record(idx, ok)
                return
        self.record(idx, not s_next)  # every own play went the other way


def rows_in_threads(
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
    cannot avoid its paradox forces no count, :func:`no_counts`, settled there for every row,
    not only for the rows a thread reaches), the rest of each
    row in turn, a thread taking the next of the rows it searched before (its tables
    hold them), else the last row left. A thread that finds no row left races a row another
    thread is still searching (the earliest started that nobody races yet, compiled engines
    only): the same questions on its own engine, whose tables and move-ordering history make
    the search another draw (docs/performance-log.md, "Racing the last rows"); the first to
    finish settles the row and stops the other. The time limit is the same deadline for all;
    under one, the rows go in rounds instead (:func:`.families.rounds_in_threads`)."""
    from concurrent.futures import ThreadPoolExecutor

    n = min(lim.threads, len(todo))
    if lim.deadline is not None:
        return rounds_in_threads(pos, seat, eng, todo, lim, kind, n)
    rows = RowShare(pos, seat, todo, lim, kind, n)
    with ThreadPoolExecutor(n - 1, thread_name_prefix="catbox-rows") as pool:
        helpers = [pool.submit(rows.work, me, None) for me in range(1, n)]
        try:
            rows.work(0, eng)
            for h in helpers:
                h.result()
        finally:
            if isinstance(eng, NativeEngine):
                eng.set_stop(False)  # the session's engine answers later questions
    return {i: (o, UNKNOWN if i in rows.cut else PROVEN) for i, o in rows.outs.items()}


class RowShare:
    """The rows of :func:`rows_in_threads` and who searches which: every thread runs
    :meth:`work` with its own engine (``lock`` guards the lists, ``turn`` is the barrier
    between the first family and the rest)."""

    def __init__(
        self,
        pos: Position,
        seat: int,
        todo: list[tuple[int, State]],
        lim: Limits,
        kind: EngineKind | None,
        n: int,
    ) -> None:
        self.pos, self.seat, self.todo, self.lim, self.kind = pos, seat, todo, lim, kind
        self.lock = threading.Lock()
        self.turn = threading.Barrier(n)
        self.states = dict(todo)
        self.outs = {idx: Partial() for idx, _ in todo}
        self.cut: set[int] = set()
        self.owner: dict[int, int] = {}
        self.failed = threading.Event()  # a thread raised: the others take no further row
        self.first = list(todo)  # the rows of the first family, in order
        self.rest: list[tuple[int, State]] = []  # then the rows left
        self.on: dict[int, list[AnyEngine]] = {}  # the engines searching the rest of a row
        self.settled: set[int] = set()  # the rows done (the first family's, then the rest's)

    def take(self, me: int, rows: list[tuple[int, State]], mine: AnyEngine) -> int | None:
        with self.lock:
            if not rows or self.failed.is_set():
                return None
            i = 0
            if rows is self.rest:  # its own rows first, else the last one left
                i = next((i for i, (idx, _) in enumerate(rows) if self.owner[idx] == me), -1)
            idx = rows.pop(i)[0]
            self.owner[idx] = me
            if rows is self.rest:
                self.on[idx] = [mine]
            return idx

    def race(self, mine: AnyEngine) -> int | None:
        """A row another thread is searching, to race it (None: none to race)."""
        with self.lock:
            if self.failed.is_set() or not isinstance(mine, NativeEngine):
                return None
            for idx, engines in self.on.items():  # in the order the rows were started
                if (
                    idx not in self.settled
                    and len(engines) == 1
                    and isinstance(engines[0], NativeEngine)
                ):
                    engines.append(mine)
                    return idx
            return None

    def search(self, mine: AnyEngine, idx: int, families: tuple[Family, ...]) -> None:
        out, done = self.outs[idx], False
        for family in families:
            if self.lim.expired():
                break
            mine.set_budget(None, self.lim.seconds())
            out, done = node_families.ask_family(mine, self.states[idx], out, family)
            if not done:
                break
        with self.lock:
            racing = self.on.get(idx, [])
            if mine in racing:
                racing.remove(mine)
            if idx in self.settled:  # another engine settled it first (and stopped this one)
                pass
            elif done:
                self.outs[idx] = out
                self.settled.add(idx)
                for other in racing:  # (only compiled engines race)
                    if isinstance(other, NativeEngine):
                        other.set_stop(True)
            else:  # cut by the limit: what either search settled of it is proven
                self.outs[idx] = merged(self.outs[idx], out)
                if not racing:
                    self.cut.add(idx)
        if isinstance(mine, NativeEngine):
            mine.set_stop(False)  # stopped by the winner of a race: free for the next row

    def work(self, me: int, mine: AnyEngine | None) -> None:
        try:
            if mine is None:
                mine, _ = Session().engine(self.pos, self.seat, fresh=True, kind=self.kind)
            while (idx := self.take(me, self.first, mine)) is not None:
                self.search(mine, idx, ROW_FAMILIES[:1])
            if self.turn.wait() == 0:  # one thread lists the rows left while the others wait
                self.rest[:] = [(idx, ch) for idx, ch in self.todo if idx not in self.cut]
                self.settled.clear()  # (the first family's rows)
                for idx, out in self.outs.items():
                    self.outs[idx] = no_counts(out) or out
            self.turn.wait()
            while (idx := self.take(me, self.rest, mine)) is not None or (
                idx := self.race(mine)
            ) is not None:
                self.search(mine, idx, ROW_FAMILIES[1:])
        except threading.BrokenBarrierError:
            return  # another thread failed: its error is raised below
        except BaseException:
            self.failed.set()
            self.turn.abort()
            raise
