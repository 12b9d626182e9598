"""The search engine: AND-OR search for trick-interval goals and alpha-beta for the score.

One :class:`Engine` serves one asking seat S (perfect information; the other seats act together
against S, analysis.md "guaranteed"). Its transposition tables are keyed by the canonical state:

* other seats' tricks never matter to S, and S's own tricks enter the trick goals only relative
  to the goal, so the AND-OR table is keyed without any trick count (goals are stored as
  intervals of tricks still to win);
* cells of numbers that no hand holds any more can never be played again: they are dropped from
  the key (only "red is broken", L3a, is kept as one bit);
* S's own cells enter only the score table, and only while the group bonus is still reachable
  (Sc2, Sc3).

A goal ``[lo, hi]`` (relative: tricks S still wins from here) means "S causes no paradox (X1)
and finishes with between lo and hi more tricks". Every trick question is such an interval:
avoid paradox ``[0, left]``, exactly k ``[k, k]``, at least k ``[k, left]``, at most k ``[0, k]``.
Winning an interval proves every wider one, losing it refutes every narrower one; the table
stores both kinds of fact per state, so searches for different k share work.

>>> from ..deal import random_position
>>> pos = random_position(4, seed=3, tricks_left=2)
>>> eng = Engine.for_position(pos, seat=pos.to_play)
>>> root = eng.state_of(pos)
>>> from .api import forced
>>> eng.win(root, 0, root[11]) == forced(pos, pos.to_play).guaranteed  # the compiled twin
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from ..limits import OutOfTime, now
from ..position import Position
from ..scoring import TWO_PLAYER_BONUS_MAX
from .state import Ctx, State, apply, cells, from_position, legal_mask

__all__ = ["INF", "NOPAR", "Engine"]

INF = 1 << 20
NOPAR = 64  # para(): the continuation ends without S causing a paradox
_GAP = NOPAR // 2  # para() windows: bounds below this are shifted with the values
_CHECK_EVERY = 2048


def _components(cells: int, n: int) -> list[int]:
    """The orthogonally connected components of a cell mask on the ascending layout (B4):
    same colour and numbers k, k+1, or same number and neighbouring rows."""
    row = (1 << n) - 1
    not_last = 0  # cells that have a right-hand neighbour in their row
    for c in range(4):
        not_last |= (row >> 1) << (c * n)
    not_first = not_last << 1
    out = []
    rest = cells
    while rest:
        comp = rest & -rest
        while True:
            grow = comp | ((comp & not_last) << 1) | ((comp & not_first) >> 1)
            grow |= (comp << n) | (comp >> n)
            grow &= cells
            if grow == comp:
                break
            comp = grow
        out.append(comp)
        rest &= ~comp
    return out


def _playable(ctx: Ctx, hand: int, cells: int) -> int:
    """How many plays a packed ``hand`` can make into ``cells`` at most: each play fills a
    distinct cell of its number (L1), so sum over k of min(copies of k, cells of k)."""
    total = 0
    for k in range(1, ctx.max_number + 1):
        m = cells & ctx.col[k]
        if m:
            total += min(hand >> (3 * (k - 1)) & 7, m.bit_count())
    return total


Bound: TypeAlias = Callable[[int, int], None]


def mtdf(probe: Callable[[int, int], int], guess: int, on_bound: Bound | None = None) -> int:
    """MTD(f): null-window probes ``probe(beta - 1, beta)`` of a fail-soft alpha-beta search,
    from ``guess``, until the lower and upper bounds meet at the exact value. Each probe
    proves a bound; ``on_bound(lower, upper)``, when given, is told the interval proven so far
    after every probe (so a limit that cuts the search still leaves it)."""
    g = guess
    lower, upper = -INF, INF
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = probe(beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
        if on_bound is not None:
            on_bound(lower, upper)
    return g


def _minimax_step(
    is_s: bool, v: int, idx: int, best: int, bm: int, a: int, b: int
) -> tuple[int, int, int, int]:
    """One child's value ``v`` folded into a fail-soft alpha-beta node: S maximises, the
    others minimise; returns (best, best move, alpha, beta)."""
    if is_s:
        if v > best:
            best, bm = v, idx
            a = max(a, v)
    elif v < best:
        best, bm = v, idx
        b = min(b, v)
    return best, bm, a, b


def _group_sizes_max(mine: int, n: int) -> int:
    """Largest connected group of the cells in ``mine`` (Sc3, ascending layout)."""
    return max((c.bit_count() for c in _components(mine, n)), default=0)


class Engine:
    """Searches for one asking seat from one root position (all hands known)."""

    def __init__(self, players: int, seat: int, prediction: int | None) -> None:
        ctx = Ctx(players, seat)
        self.ctx: Ctx = ctx
        self.seat = seat
        self.players = players
        self.prediction = prediction
        self.nodes = 0
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self._next_check = _CHECK_EVERY
        self.tt: dict[tuple[int, ...], list[list[int]]] = {}  # AND-OR facts per state
        self.vtt: dict[tuple[int, ...], list[int]] = {}  # score bounds per state
        self.ptt: dict[tuple[int, ...], list[int]] = {}  # para() bounds per state
        self.para_guess = 0  # MTD(f) start for exact_para: the last value found
        self.hint: dict[tuple[int, ...], int] = {}  # best/refuting move per state
        self._groups: dict[int, int] = {}
        self._bounds: dict[tuple[int, int, int], int] = {}
        self._alive: dict[int, int] = {}
        self._broken_bit = 1 << (4 * ctx.max_number)
        # history heuristic: moves that produced cutoffs before are tried first
        self.history: list[list[int]] = [[0] * (4 * ctx.max_number) for _ in range(players)]
        # final trick counts that earn the bonus (Sc2)
        self._bonus_window = (
            (0, TWO_PLAYER_BONUS_MAX) if players == 2 else (prediction or 0, prediction or 0)
        )

    @classmethod
    def for_position(cls, pos: Position, seat: int) -> Engine:
        return cls(pos.players, seat, pos.seats[seat].prediction)

    def state_of(self, pos: Position) -> State:
        return from_position(pos, self.seat, self.ctx)[1]

    def size(self) -> int:
        return len(self.tt) + len(self.vtt) + len(self.ptt)

    # ------------------------------------------------------------------ budget
    def _tick(self) -> None:
        self._next_check = self.nodes + _CHECK_EVERY
        if self.node_limit is not None:
            if self.nodes > self.node_limit:
                raise OutOfTime("node limit")
            self._next_check = min(self._next_check, self.node_limit + 1)
        if self.deadline is not None and now() > self.deadline:
            raise OutOfTime("time limit")

    def set_budget(self, node_limit: int | None, seconds: float | None) -> None:
        """Limits for the next call, counted from now (a limit that runs out raises
        :class:`..limits.OutOfTime`)."""
        self.node_limit = None if node_limit is None else self.nodes + node_limit
        self.deadline = None if seconds is None else now() + seconds
        step = _CHECK_EVERY if node_limit is None else max(1, min(_CHECK_EVERY, node_limit))
        self._next_check = self.nodes + step

    # ------------------------------------------------------------------ keys
    def core_key(self, st: State) -> tuple[int, ...]:
        """The canonical state for the rest of the round, without any trick count."""
        tot = st[4]
        alive = self._alive.get(tot)
        if alive is None:
            alive = self.ctx.hand_cols(tot)
            self._alive[tot] = alive
        occ = st[0]
        key_occ = occ & alive
        if occ & self.ctx.red:
            key_occ |= self._broken_bit
        if st[6] == 0:
            return (key_occ, st[2], st[3], st[5])
        return (key_occ, st[2], st[3], st[5], st[6], st[7], st[8], st[9])

    def group(self, mine: int) -> int:
        g = self._groups.get(mine)
        if g is None:
            g = _group_sizes_max(mine, self.ctx.max_number)
            self._groups[mine] = g
        return g

    def group_bound(self, st: State, plays: int) -> int:
        """An upper bound on S's largest group at the end of the round (Sc3) when S makes at
        most ``plays`` more plays: S's new tokens lie in ``free`` (open cells of S's numbers in
        colours S holds, L1/L2, I4), so the final group lies in one component of mine | free
        and holds at most ``plays`` of its free cells."""
        ctx = self.ctx
        seat = self.seat
        mine = st[1]
        free = (
            ctx.hand_cols(st[2] >> (seat * ctx.hb) & ctx.hmask)
            & ~st[0]
            & ctx.pc[st[3] >> (4 * seat) & 15]
        )
        key = (mine, free, plays)
        b = self._bounds.get(key)
        if b is None:
            b = 0
            for comp in _components(mine | free, ctx.max_number):
                b = max(b, (comp & mine).bit_count() + min(plays, (comp & free).bit_count()))
            self._bounds[key] = b
        return b

    # ------------------------------------------------------------------ equivalent plays
    def merge(self, st: State, lm: int, p: int) -> int:
        """``lm`` without plays that are equivalent to a kept one for the rest of the round.

        A follower's plays of one number k in colours that are neither red nor led have the
        same effect on the trick (they cannot win it, W1) and on permissions (the led colour
        is lost, F2; no other). They differ only in the cell filled (P1). A cell (c, k) can
        matter later only to a seat that still holds a k and still holds permission c (L1,
        L2; permissions and hands only shrink, I4); red cells matter for L3a but red is
        never a candidate here. So among the candidate cells of k that no such seat can use,
        only the first (lowest colour) is kept. The caller excludes S's own plays when S's
        cells matter for the score (Sc3)."""
        led = st[7]
        ctx = self.ctx
        cand = lm & ctx.offcol[led]
        if not cand & (cand - 1):
            return lm
        hands = st[2]
        perms = st[3]
        hb = ctx.hb
        players = ctx.players
        pc = ctx.pc
        col = ctx.col
        for k in range(1, ctx.max_number + 1):
            m = cand & col[k]
            if not m & (m - 1):
                continue
            sh = 3 * (k - 1)
            permk = 0
            for q in range(players):
                h = hands >> (q * hb + sh) & 7
                if h > 1 or (h == 1 and q != p):
                    permk |= perms >> (4 * q) & 15
            irr = m & ~pc[permk]
            if irr & (irr - 1):
                lm &= ~(irr & (irr - 1))
        return lm

    # ------------------------------------------------------------------ ordering
    def ordered(self, lm: int, key: tuple[int, ...], p: int) -> list[int]:
        moves = cells(lm)
        if len(moves) > 1:
            # stable: ties keep the ascending cell order (deterministic)
            moves.sort(key=self.history[p].__getitem__, reverse=True)
            h = self.hint.get(key)
            if h is not None and moves[0] != h and h in moves:
                moves.remove(h)
                moves.insert(0, h)
        return moves

    def _credit(self, p: int, idx: int, depth_left: int) -> None:
        self.history[p][idx] += depth_left * depth_left

    # ------------------------------------------------------------------ AND-OR
    def win(self, st: State, lo: int, hi: int, pk: int = -1) -> bool:
        """Can S force: either no paradox caused by S and between ``lo`` and ``hi`` more
        tricks, or (when ``pk >= 0``) a paradox caused by S with at most ``pk`` more tricks?
        (The second kind of goal serves the score, Sc1: a paradox with few tricks.)"""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        left = st[11]
        if lo < 0:
            lo = 0
        if hi > left:
            hi = left
        if pk > left:
            pk = left
        if lo > hi:
            if pk < 0:
                return False
            lo, hi = 1, 0  # the canonical empty interval
        if left == 0:  # E1: the round is over
            return lo == 0
        ctx = self.ctx
        cnt = st[6]
        s_done = 1 if cnt and (self.seat - st[5]) % ctx.players < cnt else 0
        top = left  # the most tricks S can still win
        if s_done and st[9] != self.seat:
            # S has played in this trick and is not winning it: it cannot win it any more (W1)
            top = left - 1
            if hi == left:
                hi -= 1
            if left == 1:  # nor cause a paradox: the last trick is all that is left
                return lo == 0 and hi >= 0
            if lo > hi:
                if pk < 0:
                    return False
                lo, hi = 1, 0
        lm = legal_mask(ctx, st)
        p = (st[5] + st[6]) % ctx.players
        if not lm:  # X1, X3: a paradox ends the round; S keeps its tricks
            return lo == 0 if p != self.seat else pk >= 0
        if pk < 0:
            pk = -1
        key = self.core_key(st)
        facts = self.tt.get(key)
        if facts is not None:
            for f_lo, f_hi, f_pk, res in facts:
                if res:
                    if f_lo >= lo and f_hi <= hi and f_pk <= pk:
                        return True
                elif f_lo <= lo and f_hi >= hi and f_pk >= pk:
                    return False
        if lo == 0 and hi >= top and self.never_stuck(st, s_done):
            return True  # every trick count is fine and S can always avoid a paradox
        t = st[10]
        is_s = p == self.seat
        result = not is_s
        best = -1
        if cnt:
            lm = self.merge(st, lm, p)
        for idx in self.ordered(lm, key, p):
            ch = apply(ctx, st, idx)
            d = ch[10] - t
            if self.win(ch, lo - d, hi - d, pk - d) == is_s:
                result = is_s
                best = idx
                break
        if best >= 0:
            self.hint[key] = best
            self._credit(p, best, left)
        self._store(key, lo, hi, pk, result)
        return result

    def never_stuck(self, st: State, s_done: int) -> bool:
        """A static proof that S can always avoid causing a paradox from ``st`` (I4).

        A cell (c, k) is *safe* for S when it is empty, S holds k and permission c, and no
        other seat holding a k holds permission c (so only S can ever fill it; hands and
        permissions only shrink). If S's remaining plays can be matched to distinct safe cells
        (sum over k of min(copies of k, safe cells of k) >= plays left), S has the strategy:
        when the led colour has a matched cell, follow there (no permission lost, F2);
        otherwise play any matched cell (only the led colour is lost, and no matched cell is
        in it); when leading play a matched cell, or, if red may not be led yet (L3), any legal
        non-red play (leading loses nothing, L4, and a card spent keeps the count)."""
        ctx = self.ctx
        seat = self.seat
        hb = ctx.hb
        hmask = ctx.hmask
        hands = st[2]
        perms = st[3]
        hand = hands >> (seat * hb) & hmask
        plays = st[11] - s_done
        if plays <= 0:
            return True
        pc = ctx.pc
        hand_cols = ctx.hand_cols
        mine = hand_cols(hand) & ~st[0] & pc[perms >> (4 * seat) & 15]
        if mine.bit_count() < plays:
            return False
        for q in range(ctx.players):
            if q != seat:
                mine &= ~(hand_cols(hands >> (q * hb) & hmask) & pc[perms >> (4 * q) & 15])
        if mine.bit_count() < plays:
            return False
        return _playable(ctx, hand, mine) >= plays

    def s_plays_bound(self, st: State) -> int:
        """An upper bound on the plays S can still make (L1, L2, I4): each play fills a
        distinct empty cell of its number in a colour S still holds, so S makes at most
        sum over k of min(copies of k in S's hand, such cells of k) more plays."""
        ctx = self.ctx
        seat = self.seat
        hand = st[2] >> (seat * ctx.hb) & ctx.hmask
        free = ctx.hand_cols(hand) & ~st[0] & ctx.pc[st[3] >> (4 * seat) & 15]
        return _playable(ctx, hand, free)

    def _store(self, key: tuple[int, ...], lo: int, hi: int, pk: int, res: bool) -> None:
        facts = self.tt.get(key)
        if facts is None:
            self.tt[key] = [[lo, hi, pk, res]]
            return
        if res:  # a win implies wins of every wider goal
            facts[:] = [f for f in facts if not (f[3] and f[0] <= lo and f[1] >= hi and f[2] >= pk)]
        else:  # a loss implies losses of every narrower goal
            facts[:] = [f for f in facts if f[3] or not (f[0] >= lo and f[1] <= hi and f[2] <= pk)]
        facts.append([lo, hi, pk, res])

    # ------------------------------------------------------------------ paradox regime
    def para(self, st: State, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta for the score's paradox regime (Sc1): the value is ``NOPAR``
        when the continuation ends without S causing a paradox, else minus the tricks S wins
        from ``st`` before its paradox; S maximises, the other seats minimise. So S can force
        "no paradox, or a paradox with at most j more tricks" (``win(st, 0, left, j)``) exactly
        when the value is at least ``-j``. Values are relative to ``st`` (keyed like ``win``)."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        left = st[11]
        if left == 0:  # E1: the round is over without S's paradox
            return NOPAR
        ctx = self.ctx
        seat = self.seat
        cnt = st[6]
        s_done = 1 if cnt and (seat - st[5]) % ctx.players < cnt else 0
        top = left
        if s_done and st[9] != seat:
            if left == 1:  # S has made its last play: no paradox of S any more
                return NOPAR
            top = left - 1  # S cannot win this trick any more (W1)
        lm = legal_mask(ctx, st)
        p = (st[5] + cnt) % ctx.players
        if not lm:  # X1, X3
            return 0 if p == seat else NOPAR
        key = self.core_key(st)
        ent = self.ptt.get(key)
        if ent is None:
            # S wins at most ``top`` more tricks, and at most one per play it can still make
            # (plus the current trick when S has played in it)
            most = self.s_plays_bound(st)
            if most >= left - s_done and self.never_stuck(st, s_done):
                self.ptt[key] = [NOPAR, NOPAR]
                return NOPAR
            cap = most + (1 if s_done and st[9] == seat else 0)
            ent = [-min(top, cap), NOPAR]
            self.ptt[key] = ent
        lower, upper = ent
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        a = max(alpha, lower)
        b = min(beta, upper)
        a0, b0 = a, b
        is_s = p == seat
        best = -INF if is_s else INF
        bm = -1
        t = st[10]
        if cnt:
            lm = self.merge(st, lm, p)
        for idx in self.ordered(lm, key, p):
            ch = apply(ctx, st, idx)
            dt = ch[10] - t
            if dt:
                # child values are relative to the child: v maps to v - 1, NOPAR stays. No
                # value lies strictly between 0 and NOPAR, so a bound in that gap is shifted
                # too (it stays in the gap, and the window never becomes empty)
                v = self.para(ch, a + 1 if a < _GAP else a, b + 1 if b < _GAP else b)
                if v != NOPAR:
                    v -= 1
            else:
                v = self.para(ch, a, b)
            best, bm, a, b = _minimax_step(is_s, v, idx, best, bm, a, b)
            if a >= b:
                break
        return self._close_node(key, ent, p, left, best, bm, a0, b0)

    def _close_node(
        self,
        key: tuple[int, ...],
        ent: list[int],
        p: int,
        left: int,
        best: int,
        bm: int,
        a0: int,
        b0: int,
    ) -> int:
        """The end of a fail-soft alpha-beta node (para and value alike): remember the best
        move, and store ``best`` in the bound table entry ``ent`` as an upper bound (it failed
        low), a lower bound (it failed high) or the exact value."""
        if bm >= 0:
            self.hint[key] = bm
            self._credit(p, bm, left)
        if best <= a0:
            ent[1] = min(ent[1], best)
        elif best >= b0:
            ent[0] = max(ent[0], best)
        else:
            ent[0] = ent[1] = best
        return best

    def exact_para(self, st: State, guess: int, on_bound: Bound | None = None) -> int:
        """The exact :meth:`para` value by MTD(f) null-window probes from ``guess``
        (``on_bound``: see :func:`mtdf`)."""
        return mtdf(lambda a, b: self.para(st, a, b), guess, on_bound)

    # ------------------------------------------------------------------ score
    def bonus_possible(self, t: int, left: int) -> bool:
        if self.players == 2:
            return t <= TWO_PLAYER_BONUS_MAX  # Sc2 at 2 players
        pred = self.prediction
        return pred is not None and t <= pred <= t + left

    def terminal_score(self, st: State, paradox_by_s: bool) -> int:
        """Sc1-Sc3 for S at the end of the round."""
        t = st[10]
        if paradox_by_s:
            return -t
        if self.players == 2:
            eligible = t <= TWO_PLAYER_BONUS_MAX
        else:
            eligible = self.prediction is not None and t == self.prediction
        return t + (self.group(st[1]) if eligible else 0)

    def value(self, st: State, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the best score S can guarantee (exact inside the window)."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        left = st[11]
        if left == 0:
            return self.terminal_score(st, False)
        ctx = self.ctx
        seat = self.seat
        cnt = st[6]
        s_played = cnt > 0 and (seat - st[5]) % ctx.players < cnt
        if left == 1 and s_played and st[9] != seat:
            # S has made its last play and cannot win the last trick: the score is settled
            return self.terminal_score(st, False)
        lm = legal_mask(ctx, st)
        p = (st[5] + cnt) % ctx.players
        if not lm:
            return self.terminal_score(st, p == seat)
        t = st[10]
        bonus = self.bonus_possible(t, left)
        ub = t + left
        if bonus:
            top = (
                min(t + left, TWO_PLAYER_BONUS_MAX) if self.players == 2 else (self.prediction or 0)
            )
            ub = max(ub, top + self.group_bound(st, left - (1 if s_played else 0)))
        if ub <= alpha:
            return ub
        core = self.core_key(st)
        key = (*core, t, st[1] if bonus else -1)
        ent = self.vtt.get(key)
        if ent is None:
            ent = [-INF, ub]
            self.vtt[key] = ent
        lower, upper = ent
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        a = max(alpha, lower)
        b = min(beta, upper)
        # Oracle bounds from the AND-OR table (coarser keys, shared with the trick questions):
        # if S can always avoid a paradox its score is at least t (Sc1, Sc2 never subtract),
        # otherwise the other seats can force S's paradox and it is at most -t (Sc1).
        if b <= t or a >= -t:
            if self.win(st, 0, left):
                if t >= b:
                    if t > ent[0]:
                        ent[0] = t
                    return t
                if t > a:
                    a = t
                    if t > ent[0]:
                        ent[0] = t
            else:
                # the other seats can force S's paradox: the score is -(t + j) for the fewest
                # more tricks j at a paradox S can hold them to (Sc1; a paradox-free end scores
                # at least 0 > or = every paradox score), i.e. para's value minus t. Fail-soft
                # para on the shifted window; ent's bounds keep the result fail-soft for
                # (alpha, beta) as well.
                v = self.para(st, a + t, b + t) - t
                if v <= a:
                    if v < ent[1]:
                        ent[1] = v
                elif v >= b:
                    if v > ent[0]:
                        ent[0] = v
                else:
                    ent[0] = ent[1] = v
                return v
        # above t + left every continuation must earn the bonus: S must force its trick window
        if bonus and b > t + left:
            blo, bhi = self._bonus_window
            if not self.win(st, blo - t, bhi - t):
                cap = t + left
                if cap < ent[1]:
                    ent[1] = cap
                if cap <= a:
                    return cap
                b = cap
        lower, upper = ent
        a0, b0 = a, b
        is_s = p == seat
        best = -INF if is_s else INF
        bm = -1
        if cnt and not (is_s and bonus):
            lm = self.merge(st, lm, p)
        for idx in self.ordered(lm, key, p):
            v = self.value(apply(ctx, st, idx), a, b)
            best, bm, a, b = _minimax_step(is_s, v, idx, best, bm, a, b)
            if a >= b:
                break
        return self._close_node(key, ent, p, left, best, bm, a0, b0)

    def exact_value(
        self, st: State, guess: int | None = None, on_bound: Bound | None = None
    ) -> int:
        """The exact minimax score by MTD(f): null-window alpha-beta probes that converge on
        the value, sharing the bound table (``on_bound``: see :func:`mtdf`)."""
        g = st[10] if guess is None else guess
        return mtdf(lambda a, b: self.value(st, a, b), g, on_bound)

    # ------------------------------------------------------------------ possible
    def avoid_possible(self, st: State) -> bool:
        """Is there any continuation (every seat cooperating) in which S causes no paradox?"""
        seen: set[tuple[int, ...]] = set()
        ctx = self.ctx

        def rec(s: State) -> bool:
            self.nodes += 1
            if self.nodes >= self._next_check:
                self._tick()
            if s[11] == 0:
                return True
            lm = legal_mask(ctx, s)
            if not lm:
                return (s[5] + s[6]) % ctx.players != self.seat
            k = self.core_key(s)
            if k in seen:
                return False
            seen.add(k)
            if s[6]:
                lm = self.merge(s, lm, (s[5] + s[6]) % ctx.players)
            return any(rec(apply(ctx, s, i)) for i in cells(lm))

        return rec(st)

    # ------------------------------------------------------------------ children
    def children(self, st: State) -> list[tuple[int, State]]:
        """Legal moves in play order (number, then R, B, Y, G) with their states."""
        ctx = self.ctx
        if st[11] == 0:
            return []
        lm = legal_mask(ctx, st)
        return [(i, apply(ctx, st, i)) for i in ctx.order if lm >> i & 1]
