"""The cooperative search: a memoised depth-first search over a compact encoding of the state
(a filled-colour bitmask per number), unknown hands dealt lazily from the unknown pool. A twin of
the rules engine, checked against ``Position`` in tests/test_cooperative_search.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .answers import Witness
from .board import EMPTY
from .cards import Colour, Play
from .errors import SolverBug
from .goals import Question
from .limits import Limits, OutOfTime, now
from .position import Position

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


class CoopSearch:
    """Memoised exhaustive search of every continuation (and lazy deal) from a position."""

    def __init__(self, pos: Position, seat: int, limits: Limits | None = None) -> None:
        self.pos = pos
        self.p = pos.players
        self.n = pos.max_number
        self.seat = seat
        self.deadline = Limits.of(limits).deadline  # exhaustive search: OutOfTime after it
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
        if self.deadline is not None and self.nodes % 512 == 0 and now() > self.deadline:
            raise OutOfTime
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
        goal: Question,
        want: set[int],
        *,
        budget: int,
        seed: int,
        limits: Limits | None = None,
    ) -> dict[int, list[Move]]:
        """A budgeted, heuristically ordered depth-first search for witness lines (a fast path
        for the yes answers; never a proof of a no). ``want``: further trick counts sought
        (tricks goal). Returns the lines found by count (key 0 for round/avoid)."""
        import random

        rng = random.Random(seed)
        deadline = Limits.of(limits).deadline
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
            if deadline is not None and left[0] % 64 == 0 and now() > deadline:
                left[0] = 0
                return True
            *_, leader, trick, tleft = st
            p = (leader + len(trick)) % self.p
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
