"""Cooperative "possible" questions (analysis.md): can a seat avoid causing a paradox, can the
round end with no paradox at all, and which final trick counts can a seat reach.

Three engines answer them, cheapest first:

- **matching** -- a seat that must still play all but one of its cards (E1) needs that many
  distinct usable cells (empty, in a colour it still holds; L1, L2). Cells of different numbers are
  disjoint, so the bipartite card-cell graph is a disjoint union of complete graphs and its maximum
  matching is ``sum(min(copies of n, usable cells of n))``. A deficiency of 2 or more proves the
  seat cannot finish the round (a Hall violator: the numbers with more copies than cells).
- **search** -- a memoised depth-first search over a compact encoding of the state (a filled-colour
  bitmask per number), for small positions. Unknown hands are dealt lazily from the unknown pool.
- **cp-sat** -- the model of :mod:`catbox.solver.cpsat` for everything larger.

Every witness is replayed through the rules engine (:meth:`Witness.verify`) and checked against
the claim before it is returned; a failure is a :class:`SolverBug`, never an answer.

>>> from .generate import random_position
>>> pos = random_position(3, seed=2, tricks_left=2)
>>> ans = paradox_possible(pos, 0)
>>> ans.status, ans.method, ans.possible is not None
('proven', 'search', True)
>>> t = tricks_possible(pos, 0)
>>> t.status, all(t.witnesses[k].verify(pos).seats[0].tricks == k for k in t.possible)
('proven', True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from .answers import PROVEN, UNKNOWN, Status, Witness
from .board import EMPTY
from .cards import Colour, Play, seat_letter
from .errors import SolverBug
from .goals import Question
from .position import Position

__all__ = [
    "Method",
    "ParadoxPossible",
    "RowPossible",
    "TricksPossible",
    "colour_classes",
    "hall_violation",
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


def hall_violation(pos: Position, seat: int) -> tuple[tuple[int, ...], int] | None:
    """A set of ``seat``'s cards (a Hall violator) that proves it cannot play all but one of its
    cards (E1) into distinct usable cells (L1: empty; L2: a colour it still holds): the cards and
    the number of usable cells between them, with ``len(cards) - cells >= 2``. None when the
    seat's hand is unknown or a matching exists. Cells only shrink (I4), so this stays true.

    >>> from .cards import Colour
    >>> from .board import cell_index
    >>> from .position import Seat
    >>> pos = Position.start(3, [(1, 1, 1, 2, 2, 3, 3, 4, 4), None, None])
    >>> hall_violation(pos, 0) is None
    True
    """
    s = pos.seats[seat]
    if s.hand is None or s.hand_size <= 1:
        return None
    n_max = pos.max_number
    cards: list[int] = []
    cells = 0
    for n, k in sorted(Counter(s.hand).items()):
        usable = sum(
            1
            for c in Colour
            if s.colours & c.bit and pos.board[c * n_max + n - 1] == EMPTY  # cell_index
        )
        if k > usable:
            cards += [n] * k
            cells += usable
    if len(cards) - cells >= 2:
        return tuple(cards), cells
    return None


def _hall_reason(pos: Position, seat: int) -> str | None:
    v = hall_violation(pos, seat)
    if v is None:
        return None
    cards, cells = v
    who = seat_letter(seat)
    return (
        f"cards {', '.join(map(str, cards))} of {who} have only {cells} usable "
        f"cell{'' if cells == 1 else 's'} left between them, and {who} must still play all but "
        "one card (E1; L1, L2)"
    )


# --------------------------------------------------------------------------- the search engine

# A state: (fc, dets, us, pool, perms, leader, trick, tricks_left)
#   fc[n]     4-bit mask of the filled colours of number n (index 0 unused)
#   dets[s]   the cards known to be in seat s's hand (its whole hand when known), sorted
#   us[s]     how many of seat s's cards are still undetermined (unknown hands, dealt lazily)
#   pool      copies of each number not yet dealt to anyone (empty tuple if all hands known)
#   perms[s]  colour permissions (L2)
#   trick     ((seat, number, colour), ...) of the trick in progress
State = tuple[
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    tuple[tuple[int, int, int], ...],
    int,
]
# A move: (kind, seat, number, colour, cards): kind 0 play a determined card, 1 play a card drawn
# from the pool, 2 commit ``cards`` from the pool (L3b red lead of an unknown hand) and play,
# 3 paradox (X1; ``cards``: the dead cards an unknown hand is dealt).
Move = tuple[int, int, int, int, tuple[int, ...]]
Result = tuple[int, bool]  # (bitmask of further tricks of the seat without its paradox, round ok)

_PLAY, _DRAW, _COMMIT, _STUCK = 0, 1, 2, 3
_NON_RED = 0b1110
_ALL = 0b1111


class SearchLimit(Exception):
    """The search ran out of its node budget or time."""


def _multisets(avail: list[tuple[int, int]], size: int) -> Iterator[tuple[int, ...]]:
    """Sorted multisets of ``size`` drawn from ``(number, copies)`` pairs."""
    if size == 0:
        yield ()
        return
    if not avail:
        return
    (n, k), rest = avail[0], avail[1:]
    for take in range(min(k, size), -1, -1):
        for tail in _multisets(rest, size - take):
            yield (n,) * take + tail


class _Search:
    """Memoised exhaustive search of every continuation (and lazy deal) from a position."""

    def __init__(self, pos: Position, seat: int, deadline: float | None = None) -> None:
        self.pos = pos
        self.p = pos.players
        self.n = pos.max_number
        self.seat = seat
        self.deadline = deadline
        self.nodes = 0
        fc = [0] * (self.n + 1)
        for i, o in enumerate(pos.board):
            if o != EMPTY:
                c, col = divmod(i, self.n)
                fc[col + 1] |= 1 << c
        unknown = any(s.hand is None for s in pos.seats)
        pool = pos.unknown_pool() if unknown else Counter[int]()
        self.root: State = (
            tuple(fc),
            tuple(s.hand if s.hand is not None else () for s in pos.seats),
            tuple(0 if s.hand is not None else s.hand_size for s in pos.seats),
            tuple(pool[k] for k in range(self.n + 1)) if unknown else (),
            tuple(s.colours for s in pos.seats),
            pos.leader,
            tuple(
                (w, p.number, int(p.colour))
                for w, p in zip(pos.trick_seats(), pos.trick, strict=True)
            ),
            pos.tricks_left,
        )
        self.memo: dict[State, Result] = {}

    # ----------------------------------------------------------------- rules on the encoding
    def expand(self, st: State) -> list[tuple[Move, State | None, int, Result | None]]:
        """Every move from ``st``: (move, child or None, trick gained by the seat, terminal
        result or None). Deterministic order."""
        fc, dets, us, pool, perms, leader, trick, _ = st
        p = (leader + len(trick)) % self.p
        pm = perms[p]
        hand = dets[p]
        u = us[p]
        leading = not trick
        red_broken = any(f & 1 for f in fc)
        out: list[tuple[Move, State | None, int, Result | None]] = []
        plays: list[tuple[int, int, int, tuple[int, ...]]] = []  # (kind, n, c, committed)
        nums = sorted(set(hand))
        red_gated = leading and not red_broken  # L3 applies to red leads
        for n in nums:
            op = pm & ~fc[n]
            for c in range(4):
                if op >> c & 1 and not (c == 0 and red_gated):
                    plays.append((_PLAY, n, c, ()))
        if u:
            for n in range(1, self.n + 1):
                if pool[n] and n not in hand:  # drawing a copy already held is dominated
                    op = pm & ~fc[n]
                    for c in range(4):
                        if op >> c & 1 and not (c == 0 and red_gated):
                            plays.append((_DRAW, n, c, ()))
        # L3(b): a red lead before red is broken only if no card can go blue/yellow/green
        if red_gated and pm & 1 and all(not (pm & ~fc[n] & _NON_RED) for n in nums):
            if u == 0:
                for n in nums:
                    if not fc[n] & 1:
                        plays.append((_PLAY, n, 0, ()))
            else:
                avail = [
                    (n, pool[n])
                    for n in range(1, self.n + 1)
                    if pool[n] and not (pm & ~fc[n] & _NON_RED)
                ]
                for ms in _multisets(avail, u):
                    full = sorted(set(hand) | set(ms))
                    for n in full:
                        if not fc[n] & 1:
                            plays.append((_COMMIT, n, 0, ms))
        # X1: a paradox when no legal play exists (for an unknown hand: for some deal)
        if u == 0:
            if not plays:
                out.append(((_STUCK, p, 0, 0, ()), None, 0, self._paradox(p)))
                return out
        elif all(not (pm & ~fc[n] & _ALL) for n in nums):
            dead = [
                (n, pool[n]) for n in range(1, self.n + 1) if pool[n] and not (pm & ~fc[n] & _ALL)
            ]
            if sum(k for _, k in dead) >= u:
                cards = next(_multisets(dead, u))
                out.append(((_STUCK, p, 0, 0, cards), None, 0, self._paradox(p)))
        for kind, n, c, ms in plays:
            out.append(self._apply(st, p, kind, n, c, ms))
        return out

    def _paradox(self, who: int) -> Result:
        return (0 if who == self.seat else 1), False

    def _apply(
        self, st: State, p: int, kind: int, n: int, c: int, ms: tuple[int, ...]
    ) -> tuple[Move, State | None, int, Result | None]:
        fc, dets, us, pool, perms, leader, trick, tleft = st
        hand = list(dets[p])
        u = us[p]
        if kind == _COMMIT:
            hand = sorted(hand + list(ms))
            pool = tuple(k - ms.count(i) for i, k in enumerate(pool))
            u = 0
        if kind == _DRAW:
            pool = tuple(k - (i == n) for i, k in enumerate(pool))
            u -= 1
        else:
            hand.remove(n)
        fcl = list(fc)
        fcl[n] |= 1 << c  # P1
        pl = list(perms)
        if trick and trick[0][2] != c:  # F2 (followers only, L4)
            pl[p] &= ~(1 << trick[0][2])
        dl = list(dets)
        dl[p] = tuple(hand)
        ul = list(us)
        ul[p] = u
        move: Move = (kind, p, n, c, ms)
        new_trick = (*trick, (p, n, c))
        gain = 0
        if len(new_trick) == self.p:  # W1, W3
            reds = [(m, s) for s, m, cc in new_trick if cc == 0]
            if reds:
                winner = max(reds)[1]
            else:
                led = new_trick[0][2]
                winner = max((m, s) for s, m, cc in new_trick if cc == led)[1]
            gain = int(winner == self.seat)
            if tleft == 1:  # E1: the round is complete
                return move, None, gain, (1, True)
            child: State = (
                tuple(fcl),
                tuple(dl),
                tuple(ul),
                pool,
                tuple(pl),
                winner,
                (),
                tleft - 1,
            )
            return move, child, gain, None
        child = (tuple(fcl), tuple(dl), tuple(ul), pool, tuple(pl), leader, new_trick, tleft)
        return move, child, gain, None

    # ----------------------------------------------------------------- exhaustive values
    def solve(self, st: State) -> Result:
        got = self.memo.get(st)
        if got is not None:
            return got
        self.nodes += 1
        if self.deadline is not None and self.nodes % 512 == 0 and time.monotonic() > self.deadline:
            raise SearchLimit
        mask = 0
        rnd = False
        for _, child, gain, term in self.expand(st):
            res = term if term is not None else self.solve(child)  # type: ignore[arg-type]
            mask |= res[0] << gain
            rnd = rnd or res[1]
        self.memo[st] = (mask, rnd)
        return mask, rnd

    def line(self, goal: Question, k: int = 0) -> list[Move]:
        """A continuation reaching ``goal`` (``k``: further tricks of the seat), following the
        first child (in expand order) whose value allows it."""
        st: State | None = self.root
        moves: list[Move] = []
        while st is not None:
            for move, child, gain, term in self.expand(st):
                res = term if term is not None else self.solve(child)  # type: ignore[arg-type]
                if goal == "round":
                    ok = res[1]
                elif goal == "avoid":
                    ok = res[0] != 0
                else:
                    ok = k - gain >= 0 and bool(res[0] >> (k - gain) & 1)
                if ok:
                    moves.append(move)
                    k -= gain
                    st = child
                    break
            else:
                raise SolverBug("search: no child realises the value of its parent")
        return moves

    def probe(
        self,
        goal: Goal,
        want: set[int],
        *,
        budget: int,
        seed: int,
        deadline: float | None = None,
    ) -> dict[int, list[Move]]:
        """A budgeted, heuristically ordered depth-first search for witness lines (a fast path
        for the yes answers; never a proof of a no). ``want``: further trick counts sought
        (tricks goal). Returns the lines found by count (key 0 for round/avoid)."""
        import random

        rng = random.Random(seed)
        found: dict[int, list[Move]] = {}
        path: list[Move] = []
        left = [budget]
        nmax = self.n

        def strength(p: int, c: int, n: int, trick: tuple[tuple[int, int, int], ...]) -> int:
            if c == 0:
                return 2 * nmax + n
            return n if not trick or c == trick[0][2] else 0

        def dfs(st: State, gained: int) -> bool:
            if left[0] <= 0:
                return True
            left[0] -= 1
            if deadline is not None and left[0] % 64 == 0 and time.monotonic() > deadline:
                left[0] = 0
                return True
            trick, tleft = st[6], st[7]
            p = (st[5] + len(trick)) % self.p
            if goal == "tricks":
                reach = [k for k in want if k not in found and gained <= k <= gained + tleft]
                if not reach:
                    return False
                need = min(reach) - gained
            else:
                need = 0
            scored = []
            for move, child, gain, term in self.expand(st):
                kind, _, n, c, _ = move
                if kind == _STUCK:
                    key = -1.0  # ending the round at once: try it first
                else:
                    s = strength(p, c, n, trick)
                    loses = 1 if trick and c != trick[0][2] else 0
                    if goal == "tricks":
                        lo = s if (p == self.seat) != (need > 0) else -s
                        key = lo + 4 * nmax * loses + rng.random() * nmax
                    else:
                        key = loses + rng.random()
                scored.append((key, move, child, gain, term))
            scored.sort(key=lambda x: x[0])
            for _, move, child, gain, term in scored:
                path.append(move)
                if term is not None:
                    mask, rnd = term
                    ok = rnd if goal == "round" else mask != 0
                    k = gained + gain
                    if ok and (goal != "tricks" or (k in want and k not in found)):
                        found[k if goal == "tricks" else 0] = list(path)
                        if goal != "tricks" or all(w in found for w in want):
                            return True
                elif child is not None and dfs(child, gained + gain):
                    return True
                path.pop()
            return False

        dfs(self.root, 0)
        return found

    def witness(self, moves: list[Move]) -> Witness:
        """The plays of ``moves`` and, for unknown hands, a deal consistent with them."""
        pos = self.pos
        dealt: list[list[int]] = [[] for _ in pos.seats]
        line: list[Play] = []
        for kind, p, n, c, cards in moves:
            if kind == _DRAW:
                dealt[p].append(n)
            elif kind in (_COMMIT, _STUCK):
                dealt[p] += cards
            if kind != _STUCK:
                line.append(Play(n, Colour(c)))
        if all(s.hand is not None for s in pos.seats):
            return Witness.of(pos, line)
        left = pos.unknown_pool() - Counter(x for d in dealt for x in d)
        spare = sorted(left.elements())
        hands: list[tuple[int, ...] | None] = []
        for i, s in enumerate(pos.seats):
            if s.hand is not None:
                hands.append(None)
                continue
            need = s.hand_size - len(dealt[i])
            hands.append(tuple(sorted(dealt[i] + spare[:need])))
            spare = spare[need:]
        return Witness(tuple(hands), tuple(line))


# --------------------------------------------------------------------------- dispatch

Goal = Question  # the cooperative question (goals.py)
_PROBE_BUDGET = 3000  # nodes of the heuristic witness probe before CP-SAT takes over
_ROW_PROBE = 3000  # per row of analyze (measured: cheaper than one CP-SAT find per count)


def _check(pos: Position, seat: int, w: Witness, goal: Goal, k: int = 0) -> Witness:
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


def _deadline(time_limit: float | None, deadline: float | None) -> float | None:
    """The earlier of an absolute ``deadline`` and ``time_limit`` seconds from now (None: no
    limit; see :class:`..limits.Limits`)."""
    mine = None if time_limit is None else time.monotonic() + time_limit
    if deadline is None:
        return mine
    return deadline if mine is None else min(mine, deadline)


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
    time_limit: float | None = 60.0,
    workers: int = 0,
    seed: int = 0,
    method: Method = "auto",
    deadline: float | None = None,
) -> ParadoxPossible:
    """Can ``seat`` avoid causing a paradox in some continuation (and some deal of the unknown
    hands), and can the round end with no paradox at all? ``method`` forces an engine."""
    pos = pos.settle()
    if pos.finished:
        return _trivial_paradox(pos, seat)
    engine = _resolve(pos, method)
    deadline = _deadline(time_limit, deadline)
    reason = _hall_reason(pos, seat)
    # matching: a known seat that cannot play all but one card rules out a full round (E1)
    blocked = any(hall_violation(pos, s) is not None for s in range(pos.players))
    if engine == "search":
        search = _Search(pos, seat, deadline)
        try:
            mask, rnd = search.solve(search.root)
        except SearchLimit:
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
    search = _Search(pos, seat)
    how = "probe"
    if blocked:
        rnd_ans, how = False, "matching"
    elif lines := search.probe("round", set(), budget=_PROBE_BUDGET, seed=seed, deadline=deadline):
        rnd_ans = True
        rw = _check(pos, seat, search.witness(lines[0]), "round")
    else:
        res = solve_possible(pos, seat, "round", deadline=deadline, workers=workers, seed=seed)
        rnd_ans, how = res.feasible, "cp-sat"
        if res.feasible is None:
            rnd_status = UNKNOWN
        elif res.witness is not None:
            rw = _check(pos, seat, res.witness, "round")
    if rnd_ans:
        return ParadoxPossible(seat, True, True, rw, rw, None, PROVEN, how)
    if lines := search.probe("avoid", set(), budget=_PROBE_BUDGET, seed=seed, deadline=deadline):
        w = _check(pos, seat, search.witness(lines[0]), "avoid")
        return ParadoxPossible(seat, True, rnd_ans, w, None, None, rnd_status, how)
    res = solve_possible(pos, seat, "avoid", deadline=deadline, workers=workers, seed=seed)
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
    time_limit: float | None = 60.0,
    workers: int = 0,
    seed: int = 0,
    method: Method = "auto",
    deadline: float | None = None,
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
    deadline = _deadline(time_limit, deadline)
    if engine == "search":
        search = _Search(pos, seat, deadline)
        try:
            mask, _ = search.solve(search.root)
        except SearchLimit:
            every = tuple(range(now, now + pos.tricks_left + 1))
            return TricksPossible(seat, (), {}, every, UNKNOWN, "search")
        ks = [j for j in range(pos.tricks_left + 1) if mask >> j & 1]
        wits = {
            now + j: _check(pos, seat, search.witness(search.line("tricks", j)), "tricks", now + j)
            for j in ks
        }
        return TricksPossible(seat, tuple(now + j for j in ks), wits, (), PROVEN, "search")
    from .cpsat.solve import solve_tricks

    search = _Search(pos, seat)
    lines = search.probe(
        "tricks",
        set(range(pos.tricks_left + 1)),
        budget=_PROBE_BUDGET,
        seed=seed,
        deadline=deadline,
    )
    wits = {
        now + j: _check(pos, seat, search.witness(m), "tricks", now + j) for j, m in lines.items()
    }
    found, undecided = solve_tricks(
        pos, seat, deadline=deadline, workers=workers, seed=seed, exclude=set(wits)
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


def rows_possible(
    pos: Position,
    plays: list[Play],
    *,
    deadline: float | None,
    workers: int = 0,
    seed: int = 0,
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
    now = pos.seats[seat].tricks
    every = set(range(now, now + pos.tricks_left + 1))
    wits: dict[Play, dict[int, Witness]] = {p: {} for p in plays}
    exact: dict[Play, bool] = dict.fromkeys(plays, False)
    rest: list[Play] = []
    for p in plays:
        child = pos.play(p)
        if deadline is not None and time.monotonic() > deadline:
            rest.append(p)
            continue
        if child.finished or _small(child):
            t = tricks_possible(child, seat, time_limit=None, deadline=deadline, seed=seed)
            wits[p] = {k: Witness(w.hands, (p, *w.line)) for k, w in t.witnesses.items()}
            exact[p] = t.status == PROVEN
            if not exact[p]:
                rest.append(p)
            continue
        search = _Search(child, seat)
        cnow = child.seats[seat].tricks
        lines = search.probe(
            "tricks",
            set(range(child.tricks_left + 1)),
            budget=_ROW_PROBE,
            seed=seed,
            deadline=deadline,
        )
        for j, mv in lines.items():
            w = search.witness(mv)
            wits[p][cnow + j] = Witness(w.hands, (p, *w.line))
        rest.append(p)
    complete = True
    if rest:
        from .cpsat.solve import solve_rows

        found, complete = solve_rows(
            pos,
            rest,
            deadline=deadline,
            workers=workers,
            seed=seed,
            exclude={p: set(wits[p]) for p in rest},
        )
        for p, ws in found.items():
            wits[p].update(ws)
    out: dict[Play, RowPossible] = {}
    for p in plays:
        ws = {k: _check(pos, seat, w, "tricks", k) for k, w in sorted(wits[p].items())}
        # every count witnessed: proven without the final infeasibility proof
        proven = exact[p] or complete or set(ws) >= every
        undecided = () if proven else tuple(sorted(every - set(ws)))
        out[p] = RowPossible(p, tuple(sorted(ws)), ws, undecided, PROVEN if proven else UNKNOWN)
    return out
