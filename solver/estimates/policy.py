"""A light, mutable round state for simulated play, and catbox's own playing policy.

:class:`Sim` re-implements just what a playout needs — legal plays (L1-L3), following (F2, L4),
trick winners (W1), the end of the round (E1) and paradoxes (X1), scores (Sc1-Sc3, ascending
layout) — on plain lists, for speed. It is checked play by play against :class:`Position` on
random playouts (tests/test_estimates_policy.py).

The policy (docs/player.md, "catbox's own players") scores every legal play of the seat to
play, from what that seat knows (its hand and set-aside card, the board, every seat's
permissions, tricks and prediction; never another hand):

1. **Keeps a last card in mind.** Every number has one cell fewer than copies (4 cells, 5
   copies; a revealed card takes one of each, 2P2), so every number needs a copy out of play at
   the end — a set-aside card or a last, never played card (E1). The seat means to keep the
   number with the fewest copies it cannot see (never its own set-aside number, which is
   covered already), and avoids playing its last copy early. More generally, before playing
   the last copy of any number it estimates the chance that every other number it could still
   keep is covered already by the other seats' set-aside cards (and the 2-player hidden pair):
   the unseen copies drawn uniformly into those slots (:func:`covered_chance`, from public hand
   sizes only). Its last card would then double a covered number and leave a needed cell empty
   (at 3-4 players a certain paradox, I2); the chance, times a heavy weight, is a penalty.
2. **Paradox-aware.** For every other card still to play it counts the *open cells*: empty cells
   of that number in a colour the seat still holds (L1, L2). Fewer open cells than copies is a
   paradox in waiting (a heavy penalty); few open cells per copy, with many unseen copies
   competing for them, is tight (a penalty growing as the slack shrinks). Declaring off the
   led colour loses that permission (F2) and closes that colour's cells for every number: a
   fixed penalty on top. In the second-to-last trick either remaining card may become the
   last one, so it counts the open cells of both together.
3. **Prediction-aware.** While the seat needs tricks to reach its prediction (3-5 players; at 2
   players: stay at 4 or fewer, Sc2) it prefers a play that wins the trick so far (certainly
   when it plays last), the cheapest such; once it has enough, it prefers to duck.
4. **Table-aware**, a little: it prefers filling cells in colours the other seats have lost,
   and, on its very last play, numbers nobody else can hold; a play next to its own tokens
   grows its group (Sc3).
5. Ties are broken by the seeded random stream.

>>> from ..deal import deal_round
>>> import random
>>> sim = Sim.of(deal_round(4, seed=3, predictions=True).position)
>>> rng = random.Random(1)
>>> while not sim.over:
...     _ = sim.play(*choose(sim, rng))
>>> sim.completed == 8 or sim.paradox is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

from ..board import EMPTY
from ..cards import COPIES, variant
from ..errors import PositionError
from ..position import Position
from ..rules import RED_BONUS
from ..scoring import TWO_PLAYER_BONUS_MAX

__all__ = [
    "HAZARD",
    "POLICIES",
    "Sim",
    "choose",
    "choose_follow",
    "choose_random",
    "hazard_at",
    "values",
]

RED = 0
TWO_PLAYER_TARGET = TWO_PLAYER_BONUS_MAX  # Sc2: at 2 players the bonus needs 4 or fewer

Move = tuple[int, int]  # (number, colour)


class Sim:
    """A round in progress, every hand known; mutated in place by :meth:`play`."""

    __slots__ = (
        "aside",
        "board",
        "completed",
        "hands",
        "leader",
        "n",
        "paradox",
        "perms",
        "players",
        "preds",
        "red_broken",
        "total_tricks",
        "trick",
        "tricks",
        "win_seat",
        "win_val",
    )

    def __init__(self) -> None:
        self.players = 0
        self.n = 0
        self.board: list[int] = []
        self.hands: list[list[int]] = []  # counts per number (index 1..n)
        self.perms: list[int] = []
        self.tricks: list[int] = []
        self.preds: list[int | None] = []
        self.aside: list[int | None] = []  # set-aside cards (S2), None when unknown
        self.leader = 0
        self.trick: list[Move] = []
        self.win_val = -1  # value of the play winning the trick so far (W1: red counts 16+n)
        self.win_seat = -1
        self.completed = 0
        self.total_tricks = 0
        self.paradox: int | None = None
        self.red_broken = False

    @classmethod
    def of(cls, pos: Position) -> Sim:
        if not pos.all_hands_known:
            raise PositionError("a playout needs every hand known (deal the unseen cards first)")
        pos = pos.settle()
        v = variant(pos.players)
        s = cls()
        s.players, s.n = pos.players, v.max_number
        s.board = list(pos.board)
        s.hands = []
        for seat in pos.seats:
            counts = [0] * (v.max_number + 1)
            for c in seat.hand or ():
                counts[c] += 1
            s.hands.append(counts)
        s.perms = [seat.colours for seat in pos.seats]
        s.tricks = [seat.tricks for seat in pos.seats]
        s.preds = [seat.prediction for seat in pos.seats]
        s.aside = [seat.set_aside for seat in pos.seats]
        s.leader = pos.leader
        s.trick = []
        s.total_tricks = v.tricks
        s.completed = pos.completed_tricks
        s.paradox = pos.paradox
        s.red_broken = pos.red_broken
        for p in pos.trick:
            s._place(p.number, int(p.colour))
        return s

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.players, s.n = self.players, self.n
        s.board = self.board[:]
        s.hands = [h[:] for h in self.hands]
        s.perms = self.perms[:]
        s.tricks = self.tricks[:]
        s.preds = self.preds
        s.aside = self.aside
        s.leader = self.leader
        s.trick = self.trick[:]
        s.win_val, s.win_seat = self.win_val, self.win_seat
        s.completed, s.total_tricks = self.completed, self.total_tricks
        s.paradox, s.red_broken = self.paradox, self.red_broken
        return s

    # ------------------------------------------------------------------ rules
    @property
    def over(self) -> bool:
        return self.paradox is not None or self.completed >= self.total_tricks

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal(self) -> list[Move]:
        """Legal plays of the seat to play, sorted by number then colour R, B, Y, G."""
        seat = self.to_play
        hand, perms, board, n = self.hands[seat], self.perms[seat], self.board, self.n
        out: list[Move] = []
        non_red = False
        for num in range(1, n + 1):
            if hand[num]:
                for c in range(4):
                    if perms >> c & 1 and board[c * n + num - 1] == EMPTY:
                        out.append((num, c))
                        if c:
                            non_red = True
        if not self.trick and not self.red_broken and non_red:  # L3
            out = [m for m in out if m[1] != RED]
        return out

    def _place(self, num: int, colour: int) -> None:
        """Put the play of the seat to play on the board and into the trick (no hand change)."""
        seat = self.to_play
        self.board[colour * self.n + num - 1] = seat  # P1
        if colour == RED:
            self.red_broken = True
        if self.trick:
            led = self.trick[0][1]
            if colour != led:  # F2 (L4: the leader keeps every permission)
                self.perms[seat] &= ~(1 << led)
        else:
            self.win_val = -1
        val = (
            RED_BONUS + num
            if colour == RED
            else (num if not self.trick or colour == self.trick[0][1] else -1)
        )
        if val > self.win_val:
            self.win_val, self.win_seat = val, seat
        self.trick.append((num, colour))

    def play(self, num: int, colour: int) -> bool:
        """Make a legal play (not checked); True when the round is over afterwards."""
        self.hands[self.to_play][num] -= 1
        self._place(num, colour)
        if len(self.trick) == self.players:  # W1, W3
            self.tricks[self.win_seat] += 1
            self.leader = self.win_seat
            self.trick = []
            self.completed += 1
            if self.completed >= self.total_tricks:  # E1
                return True
        if not self.legal():  # X1
            self.paradox = self.to_play
            return True
        return False

    # ------------------------------------------------------------------ scores
    def largest_group(self, seat: int) -> int:
        """Sc3 on the ascending layout: rows are colours, columns numbers."""
        n, board = self.n, self.board
        seen = [False] * (4 * n)
        best = 0
        for start in range(4 * n):
            if board[start] != seat or seen[start]:
                continue
            seen[start] = True
            stack, size = [start], 0
            while stack:
                i = stack.pop()
                size += 1
                row, col = divmod(i, n)
                for j in (
                    i - n if row > 0 else -1,
                    i + n if row < 3 else -1,
                    i - 1 if col > 0 else -1,
                    i + 1 if col < n - 1 else -1,
                ):
                    if j >= 0 and not seen[j] and board[j] == seat:
                        seen[j] = True
                        stack.append(j)
            best = max(best, size)
        return best

    def score(self, seat: int) -> int | None:
        """Sc1-Sc3 as the round stands; None when the prediction is unknown."""
        t = self.tricks[seat]
        if self.paradox == seat:
            return -t
        if self.players == 2:
            eligible = t <= TWO_PLAYER_TARGET
        else:
            pred = self.preds[seat]
            if pred is None:
                return None
            eligible = t == pred
        return t + (self.largest_group(seat) if eligible else 0)


# ---------------------------------------------------------------------- policies
def _wants(sim: Sim, seat: int) -> float:
    """+1: the seat wants this trick; -1: it wants to duck; in between: a mild preference."""
    t = sim.tricks[seat]
    left = sim.total_tricks - sim.completed
    if sim.players == 2:
        target: int | None = TWO_PLAYER_TARGET
    else:
        target = sim.preds[seat]
    if target is None:
        return 0.0
    need = target - t
    if need <= 0:
        return -1.0
    if need >= left:
        return 1.0
    return 2.0 * need / left - 0.5


W_LOSE = 4.0  # declaring off the led colour (F2)
W_RISK = 3.0
W_TRICK = 1.0
W_DEMAND = 0.3
W_KEEP = 2.0  # playing the last copy of the card the seat means to keep
W_OR = 1
W_COOP = 0.5
W_SHARE = 0.5  # filling a cell in a colour the other seats still hold
W_COVER = 30.0  # playing a last copy when the numbers left may all be covered by others (E1, I2)


def covered_chance(rest: list[int], unseen: list[int], slots: int, draws: int) -> float:
    """The chance that every number in ``rest`` has a copy among ``draws`` cards drawn from the
    ``slots`` cards the seat cannot see (``unseen[m]`` of them are m's): the other seats'
    set-aside cards (and the 2-player hidden pair) as a uniform draw, by inclusion-exclusion.
    Every number needs one copy out of play (I1); when every number the seat could keep is
    covered by the others already, its last card leaves a cell empty that a play needed."""
    if len(rest) > draws or slots < draws:
        return 0.0
    total = comb(slots, draws)
    p = 0.0
    k = len(rest)
    for mask in range(1 << k):
        u = 0
        bits = 0
        for i in range(k):
            if mask >> i & 1:
                u += unseen[rest[i]]
                bits += 1
        p += (-1 if bits & 1 else 1) * comb(slots - u, draws)
    return max(0.0, p / total)


def keep_target(sim: Sim, seat: int, unseen: list[int], opens: list[int]) -> int:
    """The number the seat means to keep as its last, never played card (E1). The board has
    one cell fewer per number than copies (4 cells, 5 copies; a revealed card takes one of each,
    2P2), so every number needs a copy out of play at the end: its own set-aside card covers its
    number, and a number with few unseen copies is the least likely to be covered by another
    seat's set-aside or last card. Among those, the one with fewest open cells (the hardest to
    play)."""
    hand, aside = sim.hands[seat], sim.aside[seat]
    nums = [m for m in range(1, sim.n + 1) if hand[m] and m != aside]
    if not nums:
        nums = [m for m in range(1, sim.n + 1) if hand[m]]
    return min(nums, key=lambda m: (unseen[m], opens[m], m))


def choose(sim: Sim, rng: random.Random) -> Move:
    """catbox's policy (module docstring): the best-scoring legal play of the seat to play."""
    moves = sim.legal()
    if len(moves) == 1:
        return moves[0]
    best: Move = moves[0]
    best_v = float("-inf")
    for v, move in values(sim, rng, moves):
        if v > best_v:
            best, best_v = move, v
    return best


class _Facts:
    """What :func:`values` reads once per decision: the seat's hand, permissions and set-aside
    card, per number its open cells and unseen copies, the number it means to keep, how many
    other seats hold each colour, the trick's led colour, whether this is its last play, the
    chance each last copy leaves its other numbers covered, and how much it wants the trick."""

    __slots__ = (
        "aside",
        "board",
        "cover",
        "hand",
        "held",
        "keep",
        "last",
        "led",
        "n",
        "opens",
        "perms",
        "seat",
        "unseen",
        "want",
    )  # fmt: skip

    def __init__(self, sim: Sim) -> None:
        seat = sim.to_play
        n, board, hand, perms = sim.n, sim.board, sim.hands[seat], sim.perms[seat]
        aside = sim.aside[seat]
        opens = [0] * (n + 1)
        unseen = [0] * (n + 1)  # copies the seat cannot see (other hands, set-aside, hidden)
        for num in range(1, n + 1):
            if hand[num]:
                opens[num] = sum(
                    1 for c in range(4) if perms >> c & 1 and board[c * n + num - 1] == EMPTY
                )
                seen = sum(1 for c in range(4) if board[c * n + num - 1] != EMPTY)
                unseen[num] = max(0, COPIES - seen - hand[num] - (1 if aside == num else 0))
        self.seat, self.n, self.board, self.hand, self.perms = seat, n, board, hand, perms
        self.aside, self.opens, self.unseen = aside, opens, unseen
        self.keep = keep_target(sim, seat, unseen, opens)
        self.held = [0, 0, 0, 0]  # how many other seats still hold each colour
        for other in range(sim.players):
            if other != seat:
                for c in range(4):
                    self.held[c] += sim.perms[other] >> c & 1
        self.led = sim.trick[0][1] if sim.trick else -1
        self.last = len(sim.trick) == sim.players - 1
        draws = sim.players - 1 + (2 if sim.players == 2 else 0)  # others' set-aside, hidden
        slots = draws + sum(sum(sim.hands[o]) for o in range(sim.players) if o != seat)
        self.cover: dict[int, float] = {}
        for num in range(1, n + 1):
            if hand[num] == 1 and num != aside:
                rest = [m for m in range(1, n + 1) if hand[m] and m != num and m != aside]
                self.cover[num] = 1.0 if not rest else covered_chance(rest, unseen, slots, draws)
        self.want = _wants(sim, seat)


def _stuck_risk(f: _Facts, num: int, c: int, lose: int) -> tuple[float, int]:
    """After playing (num, c) (already taken from ``f.hand``): the risk of the seat's other
    numbers running out of cells, and how many cards have no cell left at all (F2 closes the
    led colour when ``lose`` is set)."""
    n, board, hand, opens = f.n, f.board, f.hand, f.opens
    risk = 0.0
    deficit = 0
    for m in range(1, n + 1):
        k = hand[m]
        if not k:
            continue
        if m == f.keep:
            k -= 1
            if not k:
                continue
        o = opens[m]
        if m == num and f.perms >> c & 1:
            o -= 1  # this play fills one of m's cells
        if lose >= 0 and board[lose * n + m - 1] == EMPTY and not (m == num and c == lose):
            o -= 1  # F2: the led colour closes for every number
        if o < k:
            deficit += k - o
            k = max(o, 0)
        if k:
            risk += k / max(0.25, o + 0.5 - W_DEMAND * f.unseen[m])
    return risk, deficit


def _last_trick_risk(f: _Facts, num: int, c: int, lose: int) -> tuple[float, int]:
    """The last trick: either remaining card may be the one played (E1)."""
    n, board, hand = f.n, f.board, f.hand
    usable = 0
    for m in range(1, n + 1):
        if hand[m]:
            for cc in range(4):
                if cc == lose or not f.perms >> cc & 1:
                    continue
                if board[cc * n + m - 1] == EMPTY and not (m == num and cc == c):
                    usable += 1
    demand = W_DEMAND * sum(f.unseen[m] for m in range(n + 1) if hand[m]) / 2
    return 1.0 / (usable + 0.5 - demand), 0 if usable else 1


def _trick_and_group(f: _Facts, sim: Sim, num: int, c: int, v: float) -> float:
    """``v`` plus the trick the play wins or ducks (by how much the seat wants it) and the
    tokens it grows a group next to (Sc3)."""
    led, want, n, board, seat = f.led, f.want, f.n, f.board, f.seat
    if want:
        val = RED_BONUS + num if c == RED else (num if led < 0 or c == led else -1)
        wins = val > sim.win_val or led < 0
        strength = (num / n + (1.0 if c == RED else 0.0)) if led < 0 else (1.0 if wins else 0.0)
        if led >= 0 and wins and not f.last:
            strength = 0.5 + 0.5 * num / n + (0.5 if c == RED else 0.0)
        v += W_TRICK * want * strength
        if want > 0 and wins:
            v -= 0.05 * num  # win cheaply
    idx = c * n + num - 1
    row, col = c, num - 1
    if (row > 0 and board[idx - n] == seat) or (row < 3 and board[idx + n] == seat):
        v += 0.3
    if (col > 0 and board[idx - 1] == seat) or (col < n - 1 and board[idx + 1] == seat):
        v += 0.3
    return v


def values(
    sim: Sim, rng: random.Random, moves: list[Move] | None = None
) -> list[tuple[float, Move]]:
    """The policy's value of every legal play of the seat to play (higher is better; the
    seeded tie-break included), in the order of :meth:`Sim.legal`."""
    if moves is None:
        moves = sim.legal()
    f = _Facts(sim)
    hand, keep, led = f.hand, f.keep, f.led
    out: list[tuple[float, Move]] = []
    for num, c in moves:
        hand[num] -= 1
        lose = led if led >= 0 and c != led else -1
        left = sum(hand) - 1  # cards still to play after this one (E1: one is kept)
        if left == 1 and W_OR:
            risk, deficit = _last_trick_risk(f, num, c, lose)
        else:
            risk, deficit = _stuck_risk(f, num, c, lose)
        v = -W_RISK * (12.0 * deficit + risk)
        if left == 0:  # this is the seat's last play: spare the cells the others still need
            v -= W_COOP * f.unseen[num]
        if num == keep and not hand[keep] and left > 0:
            v -= W_KEEP
        hand[num] += 1
        if num in f.cover and left > 0:
            v -= W_COVER * f.cover[num]
        if lose >= 0:
            v -= W_LOSE
        v -= W_SHARE * f.held[c] / max(1, sim.players - 1)
        v = _trick_and_group(f, sim, num, c, v)
        v += rng.random() * 0.01
        out.append((v, (num, c)))
    return out


def choose_random(sim: Sim, rng: random.Random) -> Move:
    """Baseline: a uniformly random legal play."""
    moves = sim.legal()
    return moves[rng.randrange(len(moves))]


def choose_follow(sim: Sim, rng: random.Random) -> Move:
    """Baseline: declare the led colour when possible (keeping every permission), else random."""
    moves = sim.legal()
    if sim.trick:
        led = sim.trick[0][1]
        same = [m for m in moves if m[1] == led]
        if same:
            moves = same
    return moves[rng.randrange(len(moves))]


POLICIES: dict[str, Callable[[Sim, random.Random], Move]] = {
    "catbox": choose,
    "random": choose_random,
    "follow": choose_follow,
}


def playout(
    sim: Sim,
    rng: random.Random,
    policy: Callable[[Sim, random.Random], Move] = choose,
    starts: tuple[int, list[int]] | None = None,
) -> Sim:
    """Play ``sim`` to the end of the round with ``policy`` for every seat (in place); with
    ``starts`` (a seat, a list), that seat's score (Sc1-Sc3) at every trick start after the
    first is appended to the list (:func:`hazard_value`)."""
    while not sim.over:
        if starts is not None and not sim.trick and sim.completed:
            starts[1].append(sim.score(starts[0]) or 0)
        sim.play(*policy(sim, rng))
    return sim


# the player's playouts (its plays' rollouts and endgame playouts, its round start's) credit S's
# score at each later trick start at HAZARD[players] per trick: another seat's paradox ending
# the round early (X3), more often at a real table than among the policy's seats (at 4 players
# 0.60 a round in its self-play; 0.77 and 0.80 in the peer arena's rounds against the heuristic
# bot and ISMCTS), so a playout sees the round run on and is in no hurry for S's tricks. A
# playout in which S causes its own paradox gets no such credit (another seat's paradox saving
# S is no plan). On at 3 and 4 players, where the peer arena measured it level or ahead; off
# (absent) at 5, where it lost hits and leaned over, and at 2, never measured (docs/player.md,
# "Cut short")
HAZARD: dict[int, float] = {3: 0.1, 4: 0.1}


def hazard_at(players: int) -> float:
    """The credit per trick for an early end at ``players`` (:data:`HAZARD`; 0: off)."""
    return HAZARD.get(players, 0.0)


def credit_note(hazard: float) -> str:
    """What a value ranked at ``hazard`` adds to the plain score, in words (one text for the
    CLI, the board and JSON; docs/player.md, "Cut short"); empty when ``hazard`` is 0."""
    if not hazard:
        return ""
    return (
        f"the round score with, at {hazard:g} per trick, the seat's score at each later "
        "trick start credited (another seat's paradox may end the round there, X3)"
    )


def hazard_value(sim: Sim, seat: int, final: float, starts: Sequence[int], hazard: float) -> float:
    """``seat``'s value of the finished playout ``sim`` that it scored ``final`` in when, at
    ``hazard`` per trick, another seat's paradox may end the round during each trick that began
    with the seat's score at ``starts`` (X3: the seat keeps the score it had). A playout in which
    the seat caused its own paradox keeps ``final``: another seat's paradox saving it is no
    plan."""
    if not hazard or not starts or sim.paradox == seat:
        return final
    got, alive = 0.0, 1.0
    for s in starts:
        got += alive * hazard * s
        alive *= 1 - hazard
    return got + alive * final
