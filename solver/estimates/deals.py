"""Deals consistent with what one seat knows (analysis.md, "The player's view").

The cards not accounted for by the position (deck minus every known hand and set-aside card,
the board and the revealed cards: :meth:`Position.unknown_pool`) lie in the unknown hands, the
unknown set-aside cards (S2) and, at 2 players, the two hidden cards (2P3). Every physical card
is equally likely to lie anywhere (a fair shuffle), so a deal of *numbers* weighs in proportion
to the number of ways the physical copies can realise it: a product of multinomial
coefficients, one per number.

>>> from ..deal import random_position
>>> pos = random_position(3, seed=1, tricks_left=2, hide=(1, 2))
>>> space = DealSpace.of(pos)
>>> space.sizes, space.leftover
((3, 3), 2)
>>> deals = space.enumerate(limit=1000)
>>> deals is not None and sum(w for _, w in deals) == space.total_weight()
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from math import comb

from ..errors import PositionError
from ..position import Position
from ..sampling import compositions

__all__ = ["DealSpace", "sample_rng"]


def sample_rng(seed: int, index: int) -> random.Random:
    """The random stream of sample ``index`` under ``seed``: independent of the worker that
    draws it, so any number of workers gives the same samples."""
    return random.Random(f"catbox-estimates/{seed}/{index}")


def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    out, left = 1, total
    for p in parts:
        out *= comb(left, p)
        left -= p
    return out


@dataclass(frozen=True, slots=True)
class DealSpace:
    """Where the unseen cards can be: the unknown hands (seats and sizes) and ``leftover``
    cards that lie face down out of play (unknown set-aside cards, 2P3's hidden pair)."""

    pos: Position
    seats: tuple[int, ...]  # seats whose hand is unknown
    sizes: tuple[int, ...]  # their hand sizes
    pool: tuple[tuple[int, int], ...]  # (number, copies) not accounted for, ascending
    leftover: int

    @classmethod
    def of(cls, pos: Position) -> DealSpace:
        seats = tuple(i for i, s in enumerate(pos.seats) if s.hand is None)
        sizes = tuple(pos.seats[i].hand_size for i in seats)
        pool = pos.unknown_pool()
        total = sum(pool.values())
        if sum(sizes) > total:
            raise PositionError(
                f"the unknown hands hold {sum(sizes)} cards but only {total} are unseen",
                rule="S1",
            )
        return cls(pos, seats, sizes, tuple(sorted(pool.items())), total - sum(sizes))

    @property
    def trivial(self) -> bool:
        return not self.seats

    def fill(self, hands: list[tuple[int, ...]]) -> Position:
        seats = list(self.pos.seats)
        for i, h in zip(self.seats, hands, strict=True):
            seats[i] = replace(seats[i], hand=tuple(sorted(h)))
        return replace(self.pos, seats=tuple(seats)).settle()

    def sample(self, rng: random.Random) -> Position:
        """One deal drawn by a fair shuffle of the physical unseen cards."""
        if self.trivial:
            return self.pos.settle()
        cards = [n for n, k in self.pool for _ in range(k)]
        rng.shuffle(cards)
        hands, at = [], 0
        for size in self.sizes:
            hands.append(tuple(cards[at : at + size]))
            at += size
        return self.fill(hands)

    def total_weight(self) -> int:
        """Ways to share the physical unseen cards among the unknown hands and the leftover
        (order within each irrelevant): the multinomial of the sizes over the card count."""
        total = sum(k for _, k in self.pool)
        return _multinomial(total, (*self.sizes, self.leftover))

    def count(self) -> int:
        """How many distinct deals of numbers there are."""
        counts = tuple(k for _, k in self.pool)

        @cache
        def rec(i: int, room: tuple[int, ...], left: int) -> int:
            if i == len(counts):
                return 1 if not any(room) and left == 0 else 0
            return sum(
                rec(i + 1, tuple(r - t for r, t in zip(room, split, strict=True)), left - rest)
                for split in compositions(counts[i], room)
                if 0 <= (rest := counts[i] - sum(split)) <= left
            )

        return rec(0, self.sizes, self.leftover)

    def enumerate(self, limit: int) -> list[tuple[Position, int]] | None:
        """Every deal of numbers with its weight (the number of physical arrangements realising
        it), or None if there are more than ``limit``. Weights sum to :meth:`total_weight`."""
        if self.trivial:
            return [(self.pos.settle(), 1)]
        if self.count() > limit:
            return None
        out: list[tuple[Position, int]] = []
        k = len(self.sizes)

        def rec(i: int, room: tuple[int, ...], left: int, acc: list[Counter[int]], w: int) -> None:
            if i == len(self.pool):
                if not any(room) and left == 0:
                    hands = [tuple(sorted(c.elements())) for c in acc]
                    out.append((self.fill(hands), w))
                return
            number, copies = self.pool[i]
            for split in compositions(copies, room):
                rest = copies - sum(split)
                if not 0 <= rest <= left:
                    continue
                nxt = [c.copy() for c in acc]
                for j in range(k):
                    if split[j]:
                        nxt[j][number] += split[j]
                rec(
                    i + 1,
                    tuple(r - t for r, t in zip(room, split, strict=True)),
                    left - rest,
                    nxt,
                    w * _multinomial(copies, (*split, rest)),
                )

        rec(0, self.sizes, self.leftover, [Counter() for _ in range(k)], 1)
        return out
