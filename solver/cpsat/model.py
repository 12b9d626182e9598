"""A CP-SAT model of the rest of a round (rules.md L1-L4, F1-F2, W1-W3, E1, X1-X3).

The remaining plays are laid out trick by trick: in trick ``t`` the seat ``(leader_t + k) % P``
fills slot ``k``. Slots are played as a prefix (``done``); the round stops either after the last
trick (E1) or at the first slot whose seat has no legal play (X1), which is then the paradox.
Because nothing is played after a paradox (X3), the paradox condition only needs the *final*
board, hand and permissions of the stuck seat.

The builders follow one constraint family each (the CP-SAT Primer's style): cards and cells,
turn order and winners, permissions (F2), the red rule (L3), paradox and termination, unknown
deals, and the facts I1-I5 as redundant constraints. ``ortools`` is imported inside
:func:`build` only, so importing this module stays cheap.

>>> from catbox.solver.deal import random_position
>>> m = build(random_position(3, seed=1, tricks_left=2), seat=0, mode="round")
>>> m.tricks_left, len(m.players_seats)
(2, 3)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..board import EMPTY
from ..cards import COPIES, Colour
from ..goals import Question
from ..position import Position

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Mode", "RoundModel", "build"]

Mode = Question  # the cooperative question (goals.py)
_R = int(Colour.R)
_NON_RED = (int(Colour.B), int(Colour.Y), int(Colour.G))


@dataclass
class RoundModel:
    """The model and every variable family of one position (the variables container)."""

    pos: Position
    seat: int
    mode: Mode
    model: cp_model.CpModel
    tricks_left: int
    players_seats: tuple[int, ...]
    # x[s, t, n, c]: seat s plays number n declared c in trick t (L1: each cell once)
    x: dict[tuple[int, int, int, int], Any] = field(default_factory=dict)
    act: dict[tuple[int, int], Any] = field(default_factory=dict)  # s plays in trick t
    col: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # s declares c in t
    lead: dict[tuple[int, int], Any] = field(default_factory=dict)  # (t, s): s leads trick t
    done: dict[tuple[int, int], Any] = field(default_factory=dict)  # (t, k): slot k of t played
    led: dict[tuple[int, int], Any] = field(default_factory=dict)  # (t, c): trick t led c
    perm: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # (s, t, c) at start of t
    red_broken: dict[int, Any] = field(default_factory=dict)  # at the start of trick t (L3a)
    win: dict[tuple[int, int], Any] = field(default_factory=dict)  # (s, t): s wins trick t
    paradox: dict[int, Any] = field(default_factory=dict)  # s causes the paradox (X1)
    deal: dict[tuple[int, int], Any] = field(default_factory=dict)  # (s, n): copies of n dealt
    tricks: Any = None  # the seat's final trick count (tricks mode)
    complete: Any = None  # the round ends after its last trick (no paradox)
    # static data
    hands: dict[int, Counter[int]] = field(default_factory=dict)  # known hands
    pool: Counter[int] = field(default_factory=Counter)
    numbers: dict[int, tuple[int, ...]] = field(default_factory=dict)  # numbers seat may hold
    fixed: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> play in trick 0

    row: dict[tuple[int, int], list[tuple[int, int, Any]]] = field(default_factory=dict)
    by_cell: dict[tuple[int, int], list[tuple[int, Any]]] = field(default_factory=dict)
    by_card: dict[tuple[int, int], list[tuple[int, Any]]] = field(default_factory=dict)

    def index(self) -> None:
        """Index the plays by cell (n, c) and by card (s, n), each with its trick."""
        for (s, t, n, c), v in self.x.items():
            self.by_cell.setdefault((n, c), []).append((t, v))
            self.by_card.setdefault((s, n), []).append((t, v))

    def used(self, n: int, c: int, before: int | None = None) -> Any:
        """How many times cell (c, n) is filled from here (in tricks before ``before``; L1)."""
        return sum(v for t, v in self.by_cell.get((n, c), []) if before is None or t < before)

    def played(self, s: int, n: int, before: int | None = None) -> Any:
        """Copies of n seat s plays (in tricks before ``before``)."""
        return sum(v for t, v in self.by_card.get((s, n), []) if before is None or t < before)

    def held(self, s: int, n: int) -> Any:
        """Copies of n in seat s's hand now (a constant, or the deal variable)."""
        return self.deal[s, n] if (s, n) in self.deal else self.hands[s][n]


def _empty(pos: Position, n: int, c: int) -> bool:
    return pos.board[c * pos.max_number + n - 1] == EMPTY  # cell_index


# --------------------------------------------------------------------------- builders


def _add_if(m: cp_model.CpModel, cons: Any, lits: list[Any]) -> None:
    """``cons`` enforced by ``lits``; ``cons`` may have folded to a Python bool."""
    if isinstance(cons, bool):
        if not cons:
            m.add_bool_or([lit.Not() for lit in lits])
        return
    m.add(cons).only_enforce_if(lits)


def _add_cards(rm: RoundModel) -> None:
    """Plays: each seat plays at most one card per trick, only cards it holds (or may be dealt),
    only into empty cells (L1) of colours it held here (L2 is refined per trick below)."""
    m, pos = rm.model, rm.pos
    tl = rm.tricks_left
    for s in rm.players_seats:
        seat = pos.seats[s]
        for t in range(tl):
            if t == 0 and s in rm.fixed:
                rm.act[s, t] = m.new_constant(0)
                continue
            row: list[tuple[int, int, Any]] = []
            for n in rm.numbers[s]:
                for c in range(4):
                    if seat.colours >> c & 1 and _empty(pos, n, c):
                        v = m.new_bool_var(f"x_{s}_{t}_{n}{'RBYG'[c]}")
                        rm.x[s, t, n, c] = v
                        row.append((n, c, v))
            rm.row[s, t] = row
            a = m.new_bool_var(f"act_{s}_{t}")
            m.add(sum(v for _, _, v in row) == a)
            rm.act[s, t] = a
            for c in range(4):
                cv = [v for _, cc, v in row if cc == c]
                if cv:
                    b = m.new_bool_var(f"col_{s}_{t}_{'RBYG'[c]}")
                    m.add(sum(cv) == b)
                    rm.col[s, t, c] = b
    rm.index()
    # L1: a cell is filled once; I1 follows (4 cells per number)
    for vs in rm.by_cell.values():
        m.add_at_most_one(v for _, v in vs)
    # hands: seats play only cards they hold (or are dealt)
    for s in rm.players_seats:
        for n in rm.numbers[s]:
            if (s, n) in rm.by_card:
                m.add(rm.played(s, n) <= rm.held(s, n))


def _add_deals(rm: RoundModel) -> None:
    """Unknown hands are decision variables over the unknown pool (analysis.md: possible means
    "for some deal of the unseen cards")."""
    m, pos = rm.model, rm.pos
    unknown = [s for s in rm.players_seats if pos.seats[s].hand is None]
    for s in unknown:
        size = pos.seats[s].hand_size
        for n in rm.numbers[s]:
            rm.deal[s, n] = m.new_int_var(0, min(rm.pool[n], size), f"deal_{s}_{n}")
        m.add(sum(rm.deal[s, n] for n in rm.numbers[s]) == size)
    if unknown:
        for n in sorted(rm.pool):
            vs = [rm.deal[s, n] for s in unknown if (s, n) in rm.deal]
            if len(vs) > 1:
                m.add(sum(vs) <= rm.pool[n])


def _add_turns(rm: RoundModel) -> None:
    """Turn order: slots are played as a prefix; the leader of trick t+1 is the winner of trick
    t (W3); the seat at slot k of trick t is (leader + k) % P."""
    m, pos = rm.model, rm.pos
    p, tl = pos.players, rm.tricks_left
    q = len(pos.trick)
    prev: Any = None
    for t in range(tl):
        for k in range(p):
            if t == 0 and k < q:
                rm.done[t, k] = m.new_constant(1)
            else:
                d = m.new_bool_var(f"done_{t}_{k}")
                if prev is not None:
                    m.add_implication(d, prev)
                rm.done[t, k] = d
            prev = rm.done[t, k]
        for s in range(p):
            if t == 0:
                rm.lead[t, s] = m.new_constant(int(s == pos.leader))
            else:
                rm.lead[t, s] = m.new_bool_var(f"lead_{t}_{s}")
        if t > 0:
            m.add_exactly_one([rm.lead[t, s] for s in range(p)])
        # the seat at slot k plays exactly when the slot is done
        for ell in range(p):
            for s in range(p):
                if t == 0 and (s in rm.fixed or ell != pos.leader):
                    continue
                d = rm.done[t, (s - ell) % p]
                if t == 0:
                    m.add(rm.act[s, t] == d)
                else:
                    m.add(rm.act[s, t] == d).only_enforce_if(rm.lead[t, ell])
    rm.complete = rm.done[tl - 1, p - 1]


def _add_permissions(rm: RoundModel) -> None:
    """L2 and F2: a follower declaring another colour than the led one loses the led colour for
    the rest of the round (also when red is led); the leader never loses one (L4)."""
    m, pos = rm.model, rm.pos
    p, tl = pos.players, rm.tricks_left
    # led colour of each trick
    for t in range(tl):
        if t == 0 and pos.trick:
            for c in range(4):
                rm.led[t, c] = m.new_constant(int(c == int(pos.trick[0].colour)))
            continue
        for c in range(4):
            rm.led[t, c] = m.new_bool_var(f"led_{t}_{'RBYG'[c]}")
        m.add(sum(rm.led[t, c] for c in range(4)) == rm.done[t, 0])
        for s in range(p):
            for c in range(4):
                if (s, t, c) in rm.col:
                    m.add_bool_or([rm.col[s, t, c].Not(), rm.led[t, c]]).only_enforce_if(
                        rm.lead[t, s]
                    )
    for s in range(p):
        start = pos.seats[s].colours
        for c in range(4):
            if not start >> c & 1:
                continue
            rm.perm[s, 0, c] = m.new_constant(1)
            for t in range(tl):
                cur = rm.perm[s, t, c]
                if (s, t, c) in rm.col:  # L2: a declared colour must still be held
                    m.add_implication(rm.col[s, t, c], cur)
                nxt = m.new_bool_var(f"perm_{s}_{t + 1}_{'RBYG'[c]}")
                rm.perm[s, t + 1, c] = nxt
                if t == 0 and s in rm.fixed:  # F2 already applied to the position
                    m.add(nxt == cur)
                    continue
                act, led = rm.act[s, t], rm.led[t, c]
                lead = rm.lead[t, s]
                colv = rm.col.get((s, t, c))
                keep = [act.Not(), lead, led.Not()] + ([colv] if colv is not None else [])
                m.add_implication(nxt, cur)
                m.add_bool_or(keep).only_enforce_if(nxt)  # lost: follows led c in another colour
                for lit in keep:  # kept otherwise
                    m.add_bool_or([cur.Not(), lit.Not(), nxt])


def _add_red_rule(rm: RoundModel) -> None:
    """L3: the leader may declare red only once red is broken (a) or when none of its cards can
    be declared blue, yellow or green (b). Red broken stays broken (I4)."""
    m, pos = rm.model, rm.pos
    p, tl, nmax = pos.players, rm.tricks_left, pos.max_number
    if any(o != EMPTY for o in pos.board[:nmax]):  # the red row is cells 0..N-1
        return
    rb: Any = m.new_constant(0)
    for t in range(tl):
        rm.red_broken[t] = rb
        reds = [rm.col[s, t, _R] for s in range(p) if (s, t, _R) in rm.col]
        nb = m.new_bool_var(f"rb_{t + 1}")
        m.add_max_equality(nb, [rb, *reds])
        rb = nb
    for t in range(tl):
        if t == 0 and pos.trick:
            continue  # the leader of the current trick has played
        for s in range(p):
            if (s, t, _R) not in rm.col:
                continue
            nnr = m.new_bool_var(f"nnr_{s}_{t}")  # no card can be declared B, Y or G (L3b)
            m.add_bool_or([rm.red_broken[t], nnr]).only_enforce_if(
                [rm.lead[t, s], rm.col[s, t, _R]]
            )
            for n in rm.numbers[s]:
                for c in _NON_RED:
                    if (s, 0, c) not in rm.perm or not _empty(pos, n, c):
                        continue
                    filled = rm.used(n, c, before=t)
                    still = rm.held(s, n) - rm.played(s, n, before=t)
                    _add_if(m, still <= COPIES * filled, [nnr, rm.perm[s, t, c]])


def _add_winners(rm: RoundModel) -> None:
    """W1: the highest red wins, else the highest card of the led colour; the winner leads the
    next trick (W3). A play is valued N+n if red, n if in the led (non-red) colour, else 0."""
    m, pos = rm.model, rm.pos
    p, tl, nmax = pos.players, rm.tricks_left, pos.max_number
    for t in range(tl):
        vals: dict[int, Any] = {}
        for s in range(p):
            if t == 0 and s in rm.fixed:
                n, c = rm.fixed[s]
                led0 = int(pos.trick[0].colour)
                vals[s] = m.new_constant(nmax + n if c == _R else (n if c == led0 else 0))
                continue
            red = sum((nmax + n) * v for n, c, v in rm.row[s, t] if c == _R)
            num = sum(n * v for n, _, v in rm.row[s, t])
            follows = []
            for c in _NON_RED:
                if (s, t, c) in rm.col:
                    f = m.new_bool_var(f"fl_{s}_{t}_{'RBYG'[c]}")  # col and led
                    m.add_implication(f, rm.col[s, t, c])
                    m.add_implication(f, rm.led[t, c])
                    m.add_bool_or([rm.col[s, t, c].Not(), rm.led[t, c].Not(), f])
                    follows.append(f)
            ledpart = m.new_int_var(0, nmax, f"ledv_{s}_{t}")
            if follows:
                fl = m.new_bool_var(f"follows_{s}_{t}")
                m.add(sum(follows) == fl)
                m.add(ledpart == num).only_enforce_if(fl)
                m.add(ledpart == 0).only_enforce_if(fl.Not())
            else:
                m.add(ledpart == 0)
            v = m.new_int_var(0, 2 * nmax, f"val_{s}_{t}")
            m.add(v == red + ledpart)
            vals[s] = v
        complete = rm.done[t, p - 1]
        for s in range(p):
            rm.win[s, t] = m.new_bool_var(f"win_{s}_{t}")
        m.add(sum(rm.win[s, t] for s in range(p)) == complete)
        for s in range(p):
            w = rm.win[s, t]
            for o in range(p):
                if o != s:
                    m.add(vals[s] >= vals[o] + 1).only_enforce_if(w)
            if t + 1 < tl:
                m.add_implication(w, rm.lead[t + 1, s])
        if t + 1 < tl:  # no next trick: fix its (unused) leader, removing symmetry
            m.add_implication(complete.Not(), rm.lead[t + 1, 0])


def _add_paradox(rm: RoundModel) -> None:
    """X1-X3: the round stops at the first slot whose seat has no legal play. Nothing is played
    after it, so that seat's final hand, permissions and the final board decide: every card it
    still holds has every colour it still holds filled. L3 alone never causes one (X1)."""
    m, pos = rm.model, rm.pos
    p, tl = pos.players, rm.tricks_left
    for s in range(p):
        rm.paradox[s] = m.new_bool_var(f"paradox_{s}")
    m.add(sum(rm.paradox.values()) + rm.complete == 1)
    q = len(pos.trick)
    prev: Any = None
    for t in range(tl):
        for k in range(p):
            if t == 0 and k < q:
                prev = rm.done[t, k]
                continue
            stop = [rm.done[t, k]] + ([prev.Not()] if prev is not None else [])
            for ell in range(p):
                lit = rm.lead[t, ell]
                if t == 0 and ell != pos.leader:
                    continue
                m.add_bool_or([*stop, lit.Not(), rm.paradox[(ell + k) % p]])
            prev = rm.done[t, k]
    for s in range(p):
        start = pos.seats[s].colours
        for n in rm.numbers[s]:
            for c in range(4):
                if not start >> c & 1 or not _empty(pos, n, c):
                    continue
                still = rm.held(s, n) - rm.played(s, n)
                _add_if(m, still <= COPIES * rm.used(n, c), [rm.paradox[s], rm.perm[s, tl, c]])
    if pos.completed_tricks == 0:  # I5: no paradox in trick 1
        m.add(rm.done[0, p - 1] == 1)


def _add_facts(rm: RoundModel) -> None:
    """Redundant constraints from I2/I3: a full round fills every empty cell at 3-4 players, so
    each number is played exactly as often as it has empty cells."""
    m, pos = rm.model, rm.pos
    if pos.players not in (3, 4):
        return
    nmax = pos.max_number
    for n in range(1, nmax + 1):
        cells = [c for c in range(4) if _empty(pos, n, c)]
        for c in cells:
            _add_if(m, rm.used(n, c) == 1, [rm.complete])
        plays = [v for c in range(4) for _, v in rm.by_cell.get((n, c), [])]
        _add_if(m, sum(plays) == len(cells), [rm.complete])


def _add_query(rm: RoundModel) -> None:
    """round: no paradox at all; avoid: not by the seat; tricks: also expose its final count."""
    m = rm.model
    if rm.mode == "round":
        m.add(rm.complete == 1)
        return
    m.add(rm.paradox[rm.seat] == 0)
    if rm.mode == "tricks":
        now = rm.pos.seats[rm.seat].tricks
        k = m.new_int_var(now, now + rm.tricks_left, "tricks")
        m.add(k == now + sum(rm.win[rm.seat, t] for t in range(rm.tricks_left)))
        rm.tricks = k


def build(pos: Position, seat: int, mode: Mode) -> RoundModel:
    """The model of every continuation of ``pos`` (running, all slots from the seat to play)."""
    from ortools.sat.python import cp_model

    p = pos.players
    pool = pos.unknown_pool()
    rm = RoundModel(
        pos=pos,
        seat=seat,
        mode=mode,
        model=cp_model.CpModel(),
        tricks_left=pos.tricks_left,
        players_seats=tuple(range(p)),
        pool=pool,
    )
    for s, st in enumerate(pos.seats):
        if st.hand is not None:
            rm.hands[s] = Counter(st.hand)
            rm.numbers[s] = tuple(sorted(set(st.hand)))
        else:
            rm.numbers[s] = tuple(n for n in sorted(pool) if pool[n] > 0)
    for w, play in zip(pos.trick_seats(), pos.trick, strict=True):
        rm.fixed[w] = (play.number, int(play.colour))
    _add_deals(rm)
    _add_cards(rm)
    _add_turns(rm)
    _add_permissions(rm)
    _add_red_rule(rm)
    _add_winners(rm)
    _add_paradox(rm)
    _add_facts(rm)
    _add_query(rm)
    return rm
