"""The compiled search core (``_native``, C++17 under ``cxx/``) behind the interface of
:class:`.engine.Engine`: the same questions (``win``, ``para``, ``value``, the MTD(f) drivers,
``avoid_possible``) over the same packed states, answered by the native code. One addition:
from deep roots (:data:`PN_FROM` tricks left) the yes/no questions are answered by a short
alpha-beta probe and then a proof-number search (df-pn, ``cxx/pn.cpp``), checked against the
native alpha-beta in tests/test_search_native.py. The score searches (``para``, ``value``) ask
their windows as trick goals of ``win`` where that decides them (``Options::score`` in
``cxx/search.h``; each switch checked in tests/test_search_score.py).

The Python :class:`.engine.Engine` stays the readable reference; the native core is checked
against it and against the rules engine (tests/test_search_native.py). States cross the
boundary as flat tuples (:func:`flat`), hands as one packed count word per seat.

If the extension cannot be imported (not built), :func:`available` is False and
:data:`IMPORT_ERROR` says why; :func:`.session.default_engine` then warns once and uses the Python
engine, and the test suite fails (tests/test_search_native.py asserts the core is in use).
"""

from __future__ import annotations

import os
from typing import Protocol

from ..limits import OutOfTime
from ..position import Position
from ..rules import RED_BONUS
from ..scoring import TWO_PLAYER_BONUS_MAX
from .engine import Bound, mtdf
from .state import LEFT, TRICKS, Ctx, State, from_position

__all__ = [
    "DEFAULT_TT_BYTES",
    "IMPORT_ERROR",
    "PN_FROM",
    "PN_OTHER",
    "SEARCH",
    "TABLELESS_UP_TO",
    "NativeEngine",
    "RootAsker",
    "adjacency",
    "available",
    "flat",
]

try:
    from . import _native
except ImportError as exc:  # pragma: no cover - exercised only without a build
    _native = None  # type: ignore[assignment]
    IMPORT_ERROR: str | None = f"cannot import catbox.solver.search._native: {exc}"
else:
    IMPORT_ERROR = None
    _native.set_budget_exception(OutOfTime)

# questions from at most this many tricks left search their last two tricks without tables
TABLELESS_UP_TO = 5
# win computes its table key first and fetches its bucket while the static bounds run (cxx
# search.h Options::prefetch). Measured, analyze rows one thread (3p / 7 seeds 701-702, 4p / 6
# seed 701, 5p / 5 seed 702, two runs each side by side): off 56.4 / 52.7 s, on 54.2 / 50.3 s;
# bench --only speed's alpha-beta at 3p / 6 seeds 900-902: 0 %, -13 %, -3 % CPU
PREFETCH = True
# the proof-number search (pn.cpp) answers yes/no questions from roots with this many tricks
# left or more, per player count
PN_FROM = {2: 5, 3: 5, 4: 4, 5: 4}
# df-pn: another seat's new node starts with the disproof number ceil(S's open cells / d)
# (cxx/search.h Options::pn_other, measured there; 0 = 1, the plain move-count start). From
# the 4-player round start it halves the nodes (seeds 800-806: median 45.4 -> 25.1 M; held
# out 807-812: 1 -> 3 of 6 answered within 60 M nodes); at 3 players it measured +40 %
# nodes on the round start (all < 5 s) and no change on analyze rows: off there
PN_OTHER = {2: 0, 3: 0, 4: 3, 5: 3}
# table keys and move pruning of new engines (search.h SEARCH_*: 1 normalised keys in the
# alpha-beta tables, 2 equivalent numbers searched once, 4 normalised keys in the proof-number
# table too, 8 rank-normalised keys at trick starts, 16 at every node). Measured
# (bench/bench_native.py --only core; nodes of every analyze answer on one engine, 18
# positions 3p/5-6, 4p/4-5, 5p/4): none 211 M, normalised keys 182 M (-14 %, CPU -14 % in the
# same run), equivalent numbers 221 M (+4 %, CPU +13 %: the rule rarely fires).
# From the round start (df-pn, avoid a paradox) they measured no gain in nodes (3p, 6 seeds:
# 7.3 M -> 8.2 M; 4p seeds 800-802: 23 / 60 / 95 M -> 26 / 57 / 78 M, with a spread of
# 78-243 M between builds that only moved the hash: a full table) and cost ~20 % CPU per node;
# normalised keys in the alpha-beta tables only (1) need a second key per df-pn node and did no
# better (23 / 57 / 156 M). One key kind everywhere (5) is kept for its analyze gain. Tried
# and dropped: normalised keys only from 4 tricks left (round start 4p seed 800: 25.8 M nodes
# -> 22.4 M, but analyze 3p / 6 seeds 704-705: 34.7 / 22.1 M -> 40.1 / 35.8 M).
# Rank-normalised keys (8, cxx/ptable.h: the live numbers renumbered in order, a first partition
# of the states) on 9 of those positions (3p/6, 4p/5, 5p/4 seeds 700-702): 134.9 M -> 134.7 M
# nodes at trick starts (CPU 45.8 s -> 46.0 s), 133.4 M at every node (16; CPU 50.3 s); on 12
# more (seeds 703-708 / 703-705) 321.9 M -> 318.6 M at trick starts (CPU 80.3 -> 75.2 s): off.
SEARCH = 5
# memory cap of every table of every native engine in the process together, and of the memory
# dropped tables leave to the next ones (cxx/table.h Pool; CATBOX_TT_MB overrides, in MiB); at
# the cap a new entry replaces the cheapest of its bucket
DEFAULT_TT_BYTES = 1 << 30


def table_bytes() -> int:
    """The memory cap of one process's search tables: ``CATBOX_TT_MB`` MiB, or the default."""
    mb = os.environ.get("CATBOX_TT_MB")
    if mb and mb.isdigit() and int(mb) > 0:
        return int(mb) << 20
    return DEFAULT_TT_BYTES


def available() -> bool:
    return _native is not None


def adjacency(max_number: int) -> tuple[int, ...]:
    """Orthogonal neighbours of every cell on the ascending layout (B4): same colour and
    numbers k, k+1, or same number and neighbouring rows. The native core takes the layout as
    this data."""
    n = max_number
    out = []
    for i in range(4 * n):
        c, k = divmod(i, n)
        m = 0
        if k > 0:
            m |= 1 << (i - 1)
        if k < n - 1:
            m |= 1 << (i + 1)
        if c > 0:
            m |= 1 << (i - n)
        if c < 3:
            m |= 1 << (i + n)
        out.append(m)
    return tuple(out)


def flat(ctx: Ctx, st: State) -> tuple[int, ...]:
    """The native form of a packed state: the trick fields, then one hand word per seat."""
    occ, mine, hands, perms, _tot, leader, cnt, led, wval, wseat, t, left = st
    hb, hm = ctx.hb, ctx.hmask
    return (
        occ,
        mine,
        perms,
        leader,
        cnt,
        led,
        wval,
        wseat,
        t,
        left,
        *(hands >> (p * hb) & hm for p in range(ctx.players)),
    )


def unflat(ctx: Ctx, fs: tuple[int, ...]) -> State:
    """The Python packed state of a native one (inverse of :func:`flat`)."""
    occ, mine, perms, leader, cnt, led, wval, wseat, t, left = fs[:10]
    hands = tot = 0
    for p, h in enumerate(fs[10:]):
        hands |= h << (p * ctx.hb)
        tot += h
    return (occ, mine, hands, perms, tot, leader, cnt, led, wval, wseat, t, left)


class RootAsker(Protocol):
    """Answers in place of an engine's own search at one state (``NativeEngine.root_asker``)."""

    def win(self, lo: int, hi: int, pk: int) -> bool: ...

    def exact_para(self, guess: int, on_bound: Bound | None) -> int: ...


class NativeEngine:
    """One asking seat, one set of native tables (interface of :class:`.engine.Engine`)."""

    native = True

    def __init__(
        self, players: int, seat: int, prediction: int | None, tt_bytes: int | None = None
    ) -> None:
        if _native is None:
            raise RuntimeError(
                "the native search core (catbox.solver.search._native) is not built: "
                f"{IMPORT_ERROR}"
            )
        ctx = Ctx(players, seat)
        self.ctx = ctx
        self.seat = seat
        self.players = players
        self.prediction = prediction
        self.core = _native.Engine(
            players,
            seat,
            ctx.max_number,
            -1 if prediction is None else prediction,
            adjacency(ctx.max_number),
            table_bytes() if tt_bytes is None else tt_bytes,
            (RED_BONUS, TWO_PLAYER_BONUS_MAX),  # the rule numbers, defined once in Python
        )
        self.para_guess = 0
        # who answers the questions at one state instead (api.forced with threads shares them
        # out between threads there, api._SharedRoot): (state, answerer); None: none
        self.root_asker: tuple[State, RootAsker] | None = None
        self._tuned = -1
        # roots with this many tricks left or more are searched by proof numbers (measured:
        # bench/bench_native.py; alpha-beta is faster closer to the end)
        self.pn_from = PN_FROM[players]
        self.core.configure(True, 2, PREFETCH, False, self.pn_from)
        self.core.set_search(SEARCH)
        self.core.set_pn_other(PN_OTHER[players])

    def _flat(self, st: State) -> tuple[int, ...]:
        """The native state, with the table depth tuned to the question's size: measured
        (bench/bench_native.py), searching the last two tricks without the tables is about
        twice as fast up to 5 tricks left, and slower from 6 on (transpositions pay there)."""
        tt_min_left = 3 if st[LEFT] <= TABLELESS_UP_TO else 2
        if tt_min_left != self._tuned:
            self._tuned = tt_min_left
            self.core.configure(True, tt_min_left, PREFETCH)
        return flat(self.ctx, st)

    @classmethod
    def for_position(cls, pos: Position, seat: int) -> NativeEngine:
        return cls(pos.players, seat, pos.seats[seat].prediction)

    @property
    def nodes(self) -> int:
        return self.core.nodes()

    def state_of(self, pos: Position) -> State:
        return from_position(pos, self.seat, self.ctx)[1]

    def size(self) -> int:
        return self.core.size()

    def set_budget(self, node_limit: int | None, time_limit: float | None) -> None:
        self.core.set_budget(
            -1 if node_limit is None else node_limit, -1.0 if time_limit is None else time_limit
        )

    def set_stop(self, on: bool) -> None:
        """Ask a search running in another thread to stop at its next budget check (it raises
        OutOfTime); the flag stays until ``set_stop(False)``. The one call that may come from
        another thread while this engine searches."""
        self.core.set_stop(on)

    def win(self, st: State, lo: int, hi: int, pk: int = -1) -> bool:
        """The AND-OR question (Engine.win); from deep roots by proof-number search (pn.cpp).
        At the state of ``root_asker`` its stand-in answers instead."""
        if (asker := self._asker(st)) is not None:
            return asker.win(lo, hi, pk)
        return self.core.solve(self._flat(st), lo, hi, pk)

    def _asker(self, st: State) -> RootAsker | None:
        """``root_asker``'s answerer when ``st`` is its state."""
        if self.root_asker is not None and st == self.root_asker[0]:
            return self.root_asker[1]
        return None

    def solve(self, st: State, lo: int, hi: int, pk: int = -1) -> bool:
        """:meth:`win` searched by this engine, whatever ``root_asker`` says."""
        return self.core.solve(self._flat(st), lo, hi, pk)

    def para(self, st: State, alpha: int, beta: int) -> int:
        return self.core.para(self._flat(st), alpha, beta)

    def value(self, st: State, alpha: int, beta: int) -> int:
        return self.core.value(self._flat(st), alpha, beta)

    def exact_para(self, st: State, guess: int, on_bound: Bound | None = None) -> int:
        """Engine.exact_para: each MTD(f) window asked as one yes/no question of the portfolio
        (``solve``: "no paradox, or S's paradox after at most j more tricks", win with pk = j;
        df-pn from deep roots), cxx/search.h ``Options::para_pn``. Before the paradox part's
        own bounds (bounds.h para_cap, s_ducks) this was 4-5x slower than para's alpha-beta
        (3 players, 5 and 6 tricks left); with them it is the faster (measured there).
        With ``on_bound`` the core's own probes (``para_probe``) are driven from Python
        (:func:`.engine.mtdf`), which tells it every bound they prove; at the state of
        ``root_asker`` it answers instead."""
        if (asker := self._asker(st)) is not None:
            return asker.exact_para(guess, on_bound)
        if on_bound is not None:
            fs = self._flat(st)
            return mtdf(lambda a, b: self.core.para_probe(fs, a, b), guess, on_bound)
        return self.core.exact_para(self._flat(st), guess)

    def exact_value(
        self, st: State, guess: int | None = None, on_bound: Bound | None = None
    ) -> int:
        g = st[TRICKS] if guess is None else guess
        if on_bound is not None:
            return mtdf(lambda a, b: self.value(st, a, b), g, on_bound)
        return self.core.exact_value(self._flat(st), g)

    def avoid_possible(self, st: State) -> bool:
        return self.core.avoid_possible(self._flat(st))

    def proof_size(
        self, st: State, lo: int, hi: int, pk: int = -1
    ) -> tuple[int, int, tuple[int, ...]] | None:
        """A measurement: the proof of a yes of :meth:`win` this engine's tables hold (asked
        after it), as (inner nodes, leaves, inner nodes by tricks left 0..8); each inner
        (state, goal) counted once, a leaf (a static answer) once per inner node above it. S's
        play at each of its nodes is the first (in cell order) the tables or the static bounds
        prove. None when the goal does not hold."""
        return self.core.proof_size(self._flat(st), lo, hi, pk)

    def children(self, st: State) -> list[tuple[int, State]]:
        """Legal moves in play order (number, then R, B, Y, G) with their states."""
        if st[LEFT] == 0:
            return []
        ctx = self.ctx
        fs = flat(ctx, st)
        lm = self.core.legal_mask(fs)
        return [(i, unflat(ctx, self.core.apply(fs, i))) for i in ctx.order if lm >> i & 1]
