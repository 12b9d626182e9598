"""A fast, integer-packed round state for game-tree search, and its transition function.

The state is a plain tuple of ints (hashable, cheap to copy)::

    (occ, mine, hands, perms, tot, leader, cnt, led, wval, wseat, t, left)

* ``occ`` — bitmask of filled cells (player and neutral tokens; cell index ``colour*N + n-1``,
  as in :mod:`..board`);
* ``mine`` — bitmask of the asking seat's own tokens (only the score needs it, Sc3);
* ``hands`` — every seat's hand as counts, 3 bits per number, ``3*N`` bits per seat;
* ``perms`` — every seat's colour permissions, 4 bits per seat (L2, F2);
* ``tot`` — the counts of all hands together (which numbers can still be played at all);
* ``leader``, ``cnt`` — the leader of the current trick and how many plays it has;
* ``led`` — the led colour (-1 before the lead); ``wval``/``wseat`` — the value and seat of the
  play winning the trick so far (W1: red plays count ``16 + n``, led-colour plays ``n``);
* ``t`` — tricks won by the asking seat; ``left`` — tricks not yet completed.

The rules are not re-encoded blindly: :func:`legal_mask` and :func:`apply` are tested against
:mod:`..rules` / :class:`..position.Position` on thousands of random positions and playouts
(tests/test_search_state.py).

>>> from ..deal import random_position
>>> pos = random_position(4, seed=3, tricks_left=2)
>>> ctx, st = from_position(pos, seat=pos.to_play)
>>> sorted(str(ctx.play_of(i)) for i in cells(legal_mask(ctx, st))) == sorted(
...     str(p) for p in pos.legal_plays())
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..board import EMPTY
from ..cards import Colour, Play, variant
from ..errors import PositionError
from ..position import Position
from ..rules import RED_BONUS

__all__ = [
    "CNT",
    "HANDS",
    "LEADER",
    "LED",
    "LEFT",
    "MINE",
    "OCC",
    "PERMS",
    "TOT",
    "TRICKS",
    "WSEAT",
    "WVAL",
    "Ctx",
    "State",
    "apply",
    "board_masks",
    "cells",
    "from_position",
    "legal_mask",
    "to_play",
]

State = tuple[int, int, int, int, int, int, int, int, int, int, int, int]
#: The packed state's fields by name (the compiled core's ``State`` in cxx/core.h names them
#: the same; ``tot`` is Python's alone, and ``t`` is the core's ``tricks``). Readers outside
#: the Python engine's hot loops use these names, never the numbers.
OCC, MINE, HANDS, PERMS, TOT, LEADER, CNT, LED, WVAL, WSEAT, TRICKS, LEFT = range(12)


class Ctx:
    """Constants of one search: player count, asking seat and bit tables."""

    __slots__ = (
        "_hand_cols",
        "cell_c",
        "cell_n",
        "col",
        "hb",
        "hmask",
        "max_number",
        "offcol",
        "order",
        "pc",
        "players",
        "red",
        "seat",
        "unit",
    )

    def __init__(self, players: int, seat: int) -> None:
        n = variant(players).max_number
        self.players = players
        self.seat = seat
        self.max_number = n
        self.hb = 3 * n  # bits per packed hand
        self.hmask = (1 << (3 * n)) - 1
        self.red = (1 << n) - 1  # the red row (B1: row 0)
        row = (1 << n) - 1
        # pc[m]: every cell of the colours held in permission mask m (L2)
        self.pc = [sum(row << (c * n) for c in range(4) if m >> c & 1) for m in range(16)]
        # offcol[led]: cells of the colours that are neither red nor led (F2 discards)
        self.offcol = [self.pc[14 & ~(1 << c)] for c in range(4)]
        self.cell_c = [i // n for i in range(4 * n)]
        self.cell_n = [i % n + 1 for i in range(4 * n)]
        # col[k]: the four cells of number k (index 0 unused)
        self.col = [0] + [sum(1 << (c * n + k - 1) for c in range(4)) for k in range(1, n + 1)]
        self.unit = [0] + [1 << (3 * (k - 1)) for k in range(1, n + 1)]
        # cell indices in the play order of the JSON output: number, then R, B, Y, G
        self.order = tuple(sorted(range(4 * n), key=lambda i: (i % n, i // n)))
        self._hand_cols: dict[int, int] = {}

    def hand_cols(self, hand: int) -> int:
        """Cells of every number present in a packed hand (cached)."""
        m = self._hand_cols.get(hand)
        if m is None:
            m = 0
            for k in range(1, self.max_number + 1):
                if hand >> (3 * (k - 1)) & 7:
                    m |= self.col[k]
            self._hand_cols[hand] = m
        return m

    def play_of(self, idx: int) -> Play:
        return Play(self.cell_n[idx], Colour(self.cell_c[idx]))

    def pack(self, hand: tuple[int, ...]) -> int:
        return sum(self.unit[k] for k in hand)

    def hand(self, st: State, seat: int) -> tuple[int, ...]:
        h = st[2] >> (seat * self.hb) & self.hmask
        return tuple(k for k in range(1, self.max_number + 1) for _ in range(h >> 3 * (k - 1) & 7))


def cells(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def to_play(ctx: Ctx, st: State) -> int:
    return (st[5] + st[6]) % ctx.players


def legal_mask(ctx: Ctx, st: State) -> int:
    """Cells the seat to play may fill now (L1 empty cell, L2 permission held, L3 red lead).
    Zero means a paradox (X1). Only meaningful while ``left > 0``."""
    p = (st[5] + st[6]) % ctx.players
    hand = st[2] >> (p * ctx.hb) & ctx.hmask
    occ = st[0]
    m = ctx.hand_cols(hand) & ~occ & ctx.pc[st[3] >> (4 * p) & 15]
    if st[6] == 0 and not occ & ctx.red:  # L3: leading red needs red broken or no other play
        non_red = m & ~ctx.red
        if non_red:
            m = non_red
    return m


def apply(ctx: Ctx, st: State, idx: int) -> State:
    """The state after the seat to play fills cell ``idx`` (P1), with F2, W1 and W3."""
    occ, mine, hands, perms, tot, leader, cnt, led, wval, wseat, t, left = st
    players = ctx.players
    p = (leader + cnt) % players
    c = ctx.cell_c[idx]
    k = ctx.cell_n[idx]
    bit = 1 << idx
    occ |= bit
    if p == ctx.seat:
        mine |= bit
    u = ctx.unit[k]
    hands -= u << (p * ctx.hb)
    tot -= u
    if cnt == 0:  # L4: the leader keeps every permission
        led = c
        wval = k + RED_BONUS if c == 0 else k
        wseat = p
    else:
        if c != led:  # F2 (also when red was led)
            perms &= ~(1 << (4 * p + led))
        v = k + RED_BONUS if c == 0 else (k if c == led else -1)  # W1
        if v > wval:
            wval, wseat = v, p
    cnt += 1
    if cnt == players:  # W3: the winner scores and leads the next trick
        if wseat == ctx.seat:
            t += 1
        return (occ, mine, hands, perms, tot, wseat, 0, -1, -1, -1, t, left - 1)
    return (occ, mine, hands, perms, tot, leader, cnt, led, wval, wseat, t, left)


def board_masks(board: Sequence[int], seat: int) -> tuple[int, int]:
    """The occupied cells and ``seat``'s own cells of a board (owner per cell, ``EMPTY`` when
    free) as bit masks: the first two fields of a :data:`State`."""
    occ = mine = 0
    for i, owner in enumerate(board):
        if owner != EMPTY:
            occ |= 1 << i
            if owner == seat:
                mine |= 1 << i
    return occ, mine


def from_position(pos: Position, seat: int, ctx: Ctx | None = None) -> tuple[Ctx, State]:
    """The fast state of a running position with every hand known, for asking seat ``seat``."""
    if not pos.all_hands_known:
        raise PositionError("game-tree search needs every hand known (a double-dummy question)")
    if not 0 <= seat < pos.players:
        raise PositionError(f"seat {seat} out of range at {pos.players} players", where="seat")
    if ctx is None or ctx.players != pos.players or ctx.seat != seat:
        ctx = Ctx(pos.players, seat)
    occ, mine = board_masks(pos.board, seat)
    hands = perms = tot = 0
    for p, s in enumerate(pos.seats):
        assert s.hand is not None
        h = ctx.pack(s.hand)
        hands |= h << (p * ctx.hb)
        tot += h
        perms |= s.colours << (4 * p)
    led = wval = wseat = -1
    for j, play in enumerate(pos.trick):
        p = (pos.leader + j) % pos.players
        c = int(play.colour)
        if j == 0:
            led = c
        v = play.number + RED_BONUS if c == 0 else (play.number if c == led else -1)
        if v > wval:
            wval, wseat = v, p
    st: State = (
        occ,
        mine,
        hands,
        perms,
        tot,
        pos.leader,
        len(pos.trick),
        led,
        wval,
        wseat,
        pos.seats[seat].tricks,
        pos.tricks_left,
    )
    return ctx, st
