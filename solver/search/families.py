"""The forced questions at one node, on one engine: paradox avoidance, the trick counts, the
score (each a *family* of yes/no searches, cheapest first), asked one family at a time so that
a limit leaves the cheaper answers settled (:class:`.partial.Partial`); and the plays of a node
searched once under colour symmetry. :mod:`.api` asks them of a root, :mod:`.threads` of the
plays it shares out between threads."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from ..answers import PROVEN, UNKNOWN, Status
from ..limits import Limits, OutOfTime
from ..position import Position
from ..scoring import lowest_score
from .engine import NOPAR, Bound
from .native import NativeEngine
from .partial import Partial, merged, within
from .session import AnyEngine, EngineKind, Session
from .state import CNT, LEADER, LED, LEFT, MINE, OCC, PERMS, TRICKS, WSEAT, Ctx, State, legal_mask

__all__ = [
    "FAMILIES",
    "ROUND_FAMILIES",
    "ROUND_FIRST",
    "ROUND_GROWTH",
    "ROW_FAMILIES",
    "Family",
    "Row",
    "RowRounds",
    "ask_all",
    "ask_family",
    "ask_row_tricks",
    "ask_safe",
    "ask_score",
    "ask_top",
    "ask_tricks",
    "distinct_children",
    "fewest_more",
    "guaranteed_score",
    "is_terminal",
    "mirror_play",
    "most_more",
    "no_counts",
    "round_budget",
    "rounds_in_threads",
    "rows_in_order",
    "rows_in_rounds",
    "score_value",
]


def is_terminal(st: State, eng: AnyEngine) -> bool:
    return st[LEFT] == 0 or not legal_mask(eng.ctx, st)


# ---------------------------------------------------------------------- answers
def ask_safe(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """Paradox avoidance, guaranteed (I4)."""
    yield replace(out, guaranteed=eng.win(st, 0, st[LEFT]))


def ask_tricks(eng: AnyEngine, st: State, out: Partial, extremes: bool = True) -> Iterator[Partial]:
    """The trick counts S can force without causing a paradox (none when it cannot avoid
    one), each as soon as it is settled. Exactly k implies at least k and at most k, so only
    at_most <= k <= at_least qualify. ``extremes=False`` (:func:`ask_row_tricks`) searches
    ``at_most`` only as far as those counts need it and leaves it None above at_least."""
    left, t = st[LEFT], st[TRICKS]
    if (none := no_counts(out)) is not None:
        yield none
        return
    a = most_more(eng, st, left)
    out = replace(out, at_least=t + a)
    yield out
    b = fewest_more(eng, st, left if extremes else a + 1)  # a + 1: "more than a", never asked
    if extremes or b <= a:
        out = replace(out, at_most=t + b)
        yield out
    yield replace(out, forceable=tuple(t + k for k in range(b, a + 1) if eng.win(st, k, k)))


def no_counts(out: Partial) -> Partial | None:
    """``out`` with no forceable count when paradox avoidance is settled as no (the counts are
    without a paradox), which needs no search; else None."""
    return replace(out, forceable=()) if out.guaranteed is False else None


def ask_row_tricks(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """The trick counts S can force, for a row of :func:`analyze_moves`: :func:`ask_tricks`
    with ``at_most`` asked only for k <= at_least. A row shows the forceable counts, not at
    least / at most, and an exact count k needs "at most k" with k <= at_least; when no such
    k is forceable the row's at_most stays None (it is above at_least) and no count is
    forceable. What this saves is the proof that the others can hold S above a count S could
    never force exactly anyway: on 4 players, 6 tricks left, seed 701, row 5Y's "at most 3
    more" alone took 135 M nodes (no), and the row needs just "at most 0 more"
    (docs/performance-log.md, "The rows' trick counts, lazily")."""
    return ask_tricks(eng, st, out, extremes=False)


def ask_top(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """One probe of the best score from the top of its range (a null window at the most it
    can be, Sc1-Sc3): the fail-soft value it returns is a proven upper bound, often the core's
    static one, found in a node or few where paradox avoidance may take millions (a full
    4-player deal). Nothing when the score depends on S's unknown prediction."""
    if eng.players > 2 and eng.prediction is None and eng.avoid_possible(st):
        return
    low, top = _score_range(eng, st)
    g = eng.value(st, top - 1, top)
    got = (low, min(g, top)) if g < top else (max(g, low), top)
    yield replace(out, score_bounds=within(out.score_bounds, got))


def _score_range(eng: AnyEngine, st: State) -> tuple[int, int]:
    """The least and the most S's score can be from ``st``: :func:`.scoring.lowest_score`
    (S has played in the current trick and another seat's play wins it, or not), and every
    trick and a group of every cell of the board (Sc1, Sc3)."""
    left, t = st[LEFT], st[TRICKS]
    beaten = (
        st[CNT] > 0 and (eng.seat - st[LEADER]) % eng.players < st[CNT] and st[WSEAT] != eng.seat
    )
    return lowest_score(t, left, beaten), t + left + 4 * eng.ctx.max_number


def ask_score(eng: AnyEngine, st: State, out: Partial) -> Iterator[Partial]:
    """The best score S guarantees (Sc1-Sc3); when a limit cuts it, the interval its probes
    proved before the cut (then the limit's OutOfTime goes on)."""
    proven: list[tuple[int, int]] = []
    try:
        v = score_value(eng, st, out.at_least, lambda lo, hi: proven.append((lo, hi)))
    except OutOfTime:
        if proven:  # with what an earlier search of the row proved (rows_in_rounds)
            yield replace(out, score_bounds=within(out.score_bounds, proven[-1]))
        raise
    yield replace(out, best_score=v)


Family = Callable[[AnyEngine, State, Partial], Iterator[Partial]]


# the question families of a node, cheapest first; analyze_moves asks each of them for every
# row before the next, so a limit that cuts the search leaves the cheaper columns answered
FAMILIES: tuple[Family, ...] = (ask_safe, ask_tricks, ask_score)


# the families of a row of analyze_moves (ask_row_tricks: the counts a row shows)
ROW_FAMILIES: tuple[Family, ...] = (ask_safe, ask_row_tricks, ask_score)


# the same under a limit (rows_in_rounds), after a first probe of the score from its top
ROUND_FAMILIES: tuple[Family, ...] = (ask_top, *ROW_FAMILIES)


def ask_family(eng: AnyEngine, st: State, out: Partial, family: Family) -> tuple[Partial, bool]:
    """One family's answers added to ``out``; False (with what was settled before the cut)
    when a limit runs out."""
    try:
        for settled in family(eng, st, out):
            out = settled
    except OutOfTime:
        return out, False
    return out, True


def ask_all(eng: AnyEngine, st: State) -> tuple[Partial, Status]:
    """Every answer at ``st`` in turn; when a limit runs out, what was settled before it
    (status ``unknown``)."""
    out = Partial()
    for family in FAMILIES:
        out, done = ask_family(eng, st, out, family)
        if not done:
            return out, UNKNOWN
    return out, PROVEN


def most_more(eng: AnyEngine, st: State, left: int) -> int:
    """The largest k with "at least k more tricks" forceable (monotone in k)."""
    lo, hi = 0, left
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if eng.win(st, mid, left):
            lo = mid
        else:
            hi = mid - 1
    return lo


def fewest_more(eng: AnyEngine, st: State, left: int) -> int:
    """The smallest k with "at most k more tricks" forceable, if it is below ``left`` (else
    ``left``, never asked: "at most left" is paradox avoidance, and ask_row_tricks passes a
    smaller ``left`` to mean "more than that")."""
    lo, hi = 0, left
    while lo < hi:
        mid = (lo + hi) // 2
        if eng.win(st, 0, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def score_value(
    eng: AnyEngine, st: State, guess: int | None = None, on_bound: Bound | None = None
) -> int | None:
    """Sc1-Sc3 minimax. With S's prediction unknown (3-5 players) the score is unknown unless
    every continuation ends with S causing a paradox (then it is -tricks, prediction-free).
    ``guess`` (e.g. at_least: without a paradox the score is at least the tricks) seeds
    MTD(f). ``on_bound(lo, hi)``, when given, is told the interval of the score proven so far
    after every probe (a limit that cuts the search leaves it)."""
    if eng.players > 2 and eng.prediction is None and eng.avoid_possible(st):
        return None
    left, t = st[LEFT], st[TRICKS]
    low = _score_range(eng, st)[0]

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
    return score_value(eng, st)


def distinct_children(eng: AnyEngine, st: State) -> list[tuple[int, State]]:
    """The plays of the seat to play with their states, without plays that mirror a kept one
    under colour symmetry (:func:`mirror_play`: their answers are the same)."""
    kids = list(eng.children(st))
    idxs = {idx for idx, _ in kids}
    return [(idx, ch) for idx, ch in kids if mirror_play(eng.ctx, st, idx) not in idxs]


Row = tuple[Partial, Status]


def rows_in_order(eng: AnyEngine, todo: list[tuple[int, State]]) -> dict[int, Row]:
    """The rows searched in one engine, family by family (:data:`FAMILIES`), each family for
    every row in turn; once a limit cuts one, the rest keep what they have (status unknown:
    their share of the limit is spent). One engine for every row, not one per row:
    docs/performance-log.md, "One engine for every row", bench/bench_native.py --only share."""
    outs = {idx: Partial() for idx, _ in todo}
    for family in ROW_FAMILIES:
        for idx, ch in todo:
            outs[idx], done = ask_family(eng, ch, outs[idx], family)
            if not done:
                return {i: (o, UNKNOWN) for i, o in outs.items()}
    return {i: (o, PROVEN) for i, o in outs.items()}


# Under a limit the rows are searched in rounds (rows_in_rounds, RowRounds): in round r every
# row still open gets ROUND_FIRST * ROUND_GROWTH**r nodes for each question family it asks, so
# every row has its first probes (and the score interval they prove) before any row is dug to
# the end; a family a round's budget cuts is asked again in the next round, where the
# engine's tables hold what the cut search found.
ROUND_FIRST, ROUND_GROWTH = 50_000, 4


def round_budget(served: int, family: Family | None = None) -> int | None:
    """The node budget of a row's question ``family`` in its round ``served`` (from 0); None
    (the rest of the limit) for paradox avoidance, which every other answer of the row needs:
    it is asked of every row in turn (after the score's first probe), each to its end, as
    before the rounds (measured on a full 4-player deal at ``--time-limit 60``: in rounds its
    hardest row never got it, one after the other every row did)."""
    return None if family is ask_safe else int(ROUND_FIRST * ROUND_GROWTH**served)


def rows_in_rounds(eng: AnyEngine, todo: list[tuple[int, State]], lim: Limits) -> dict[int, Row]:
    """The rows searched in one engine under a limit, in rounds (:func:`round_budget`): in
    each round, family by family (:data:`ROUND_FAMILIES`), every row whose next family it is
    asks it with the round's budget (a node limit's remainder when smaller); a family the
    budget cuts waits for the next round. A row is proven once all its families are; the
    rest keep what they settled, the score's interval included (status unknown). Every
    budget is a node count, so a node limit cuts the same answers on every run."""
    outs = {idx: Partial() for idx, _ in todo}
    nxt = dict.fromkeys(outs, 0)  # the index of each row's next family
    start, served = eng.nodes, 0
    while True:
        for f, family in enumerate(ROUND_FAMILIES):
            for idx, ch in todo:
                if nxt[idx] != f:
                    continue
                budget = round_budget(served, family)
                if lim.node_limit is not None:
                    rest = lim.node_limit - (eng.nodes - start)
                    budget = rest if budget is None else min(budget, rest)
                if (budget is not None and budget <= 0) or lim.expired():
                    return _rows_left(outs, nxt)
                eng.set_budget(budget, lim.seconds())
                outs[idx], done = ask_family(eng, ch, outs[idx], family)
                nxt[idx] += done
        if all(n == len(ROUND_FAMILIES) for n in nxt.values()):
            return _rows_left(outs, nxt)
        served += 1


def _rows_left(outs: dict[int, Partial], nxt: dict[int, int]) -> dict[int, Row]:
    """The rows as they stand: proven when every family is, and no count forceable where
    paradox avoidance is settled as no (:func:`no_counts`, which needs no search)."""
    every = len(ROUND_FAMILIES)
    return {i: (no_counts(o) or o, PROVEN if nxt[i] == every else UNKNOWN) for i, o in outs.items()}


@dataclass(slots=True)
class _RoundRow:
    """One row of :class:`RowRounds`: what is settled of it, its next family, the rounds it
    was given, the engines searching it now and the thread that searched it last."""

    st: State
    out: Partial = field(default_factory=Partial)
    nxt: int = 0
    served: int = 0
    on: list[AnyEngine] = field(default_factory=list)
    owner: int = -1


class RowRounds:
    """The rows of :func:`.threads.rows_in_threads` under a time limit, in rounds as
    :func:`rows_in_rounds`, shared between threads: each thread (:meth:`work`, an engine of
    its own) takes the free row given the fewest rounds (then the earliest family, its own
    rows first, then row order: its tables hold them) and searches its families with that
    round's budget. A thread that finds no free row races the row most searched that one
    engine alone is on, to the end on its own engine (compiled engines only, as
    :class:`.threads.RowShare`); the first to settle a row stops the others on it."""

    def __init__(self, todo: list[tuple[int, State]], lim: Limits) -> None:
        self.lim = lim
        self.order = [idx for idx, _ in todo]
        self.rows = {idx: _RoundRow(st) for idx, st in todo}
        self.lock = threading.Lock()
        self.failed = threading.Event()  # a thread raised: the others take no further row

    def rows_left(self) -> dict[int, Row]:
        return _rows_left(
            {i: r.out for i, r in self.rows.items()}, {i: r.nxt for i, r in self.rows.items()}
        )

    def _take(self, me: int, mine: AnyEngine) -> tuple[int, bool] | None:
        """A row, and whether to race it (to the end), or None when none is left."""
        every = len(ROUND_FAMILIES)
        with self.lock:
            if self.failed.is_set() or self.lim.expired():
                return None
            open_ = [i for i in self.order if self.rows[i].nxt < every]
            free = [i for i in open_ if not self.rows[i].on]
            if free:
                pos = {i: k for k, i in enumerate(self.order)}

                def rank(i: int) -> tuple[int, int, bool, int]:
                    r = self.rows[i]
                    return r.served, r.nxt, r.owner != me, pos[i]

                idx = min(free, key=rank)
                row = self.rows[idx]
                row.on.append(mine)
                row.owner = me
                return idx, False
            if not isinstance(mine, NativeEngine):
                return None
            lone = [i for i in open_ if len(self.rows[i].on) == 1]
            if not lone:
                return None
            idx = max(lone, key=lambda i: self.rows[i].served)
            self.rows[idx].on.append(mine)
            return idx, True

    def _search(self, mine: AnyEngine, idx: int, race: bool) -> None:
        """The row's next family with its round's budget (every family to the end when
        racing), what it settled kept."""
        with self.lock:
            row = self.rows[idx]
            out, nxt, served = row.out, row.nxt, row.served
        done = False
        while nxt < len(ROUND_FAMILIES) and not self.lim.expired():
            family = ROUND_FAMILIES[nxt]
            mine.set_budget(None if race else round_budget(served, family), self.lim.seconds())
            out, done = ask_family(mine, row.st, out, family)
            nxt += done
            if not done or not race:
                break
        with self.lock:
            row.on.remove(mine)
            if row.nxt < len(ROUND_FAMILIES):  # not settled by another engine meanwhile
                row.out = merged(row.out, out)  # both proven: they agree
                row.nxt = max(row.nxt, nxt)
                if row.nxt == len(ROUND_FAMILIES):
                    for other in row.on:
                        if isinstance(other, NativeEngine):
                            other.set_stop(True)
                elif not done and not race:
                    row.served += 1
        if isinstance(mine, NativeEngine):
            mine.set_stop(False)  # stopped by the winner of a race: free for the next row

    def work(self, me: int, mine: AnyEngine) -> None:
        try:
            while (job := self._take(me, mine)) is not None:
                self._search(mine, *job)
        except BaseException:
            self.failed.set()
            raise


def rounds_in_threads(
    pos: Position,
    seat: int,
    eng: AnyEngine,
    todo: list[tuple[int, State]],
    lim: Limits,
    kind: EngineKind | None,
    n: int,
) -> dict[int, Row]:
    """:func:`.threads.rows_in_threads` under a time limit: the rows in rounds (:class:`RowRounds`),
    so that every row has its first probes before any is dug to the end."""
    from concurrent.futures import ThreadPoolExecutor

    rows = RowRounds(todo, lim)

    def helper(me: int) -> None:
        rows.work(me, Session().engine(pos, seat, fresh=True, kind=kind)[0])

    with ThreadPoolExecutor(n - 1, thread_name_prefix="catbox-rows") as pool:
        helpers = [pool.submit(helper, me) for me in range(1, n)]
        try:
            rows.work(0, eng)
            for h in helpers:
                h.result()
        finally:
            if isinstance(eng, NativeEngine):
                eng.set_stop(False)
    return rows.rows_left()


def mirror_play(ctx: Ctx, st: State, idx: int) -> int | None:
    """The play of a lower colour that play ``idx`` mirrors, if any. Blue, yellow and green
    are interchangeable in the rules (only red is special, L3 and W1, and the led colour, F2
    and W1): swapping two of them whose rows are filled alike, hold S's tokens alike (Sc3) and
    for which every seat holds the same permission maps the position onto itself, and one play
    onto the other, so both have the same answers."""
    n = ctx.max_number
    c, k0 = divmod(idx, n)
    led = st[LED] if st[CNT] else -1
    if c < 2 or c == led:
        return None
    row = (1 << n) - 1
    occ, mine, perms = st[OCC], st[MINE], st[PERMS]
    for c2 in range(1, c):
        if c2 == led or (occ >> (c * n) ^ occ >> (c2 * n)) & row:
            continue
        if (mine >> (c * n) ^ mine >> (c2 * n)) & row:
            continue
        if any((perms >> (4 * q + c) ^ perms >> (4 * q + c2)) & 1 for q in range(ctx.players)):
            continue
        return c2 * n + k0
    return None
