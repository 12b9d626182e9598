"""Deals of the unknown hands for "for every deal" questions (analysis.md): every deal when
there are few (up to :data:`EXACT_DEALS`), else a seeded sample; and the Wilson bound on a
failure rate seen on sampled deals."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

from .errors import PositionError
from .position import Position

__all__ = ["EXACT_DEALS", "SAMPLED_DEALS", "deals_of", "wilson_upper"]

EXACT_DEALS = 64  # enumerate every deal up to this many; sample beyond
SAMPLED_DEALS = 24


# ---------------------------------------------------------------------------- deals
def _count_splits(pool: Counter[int], sizes: list[int], cap: int | None = None) -> int:
    """How many ways to deal ``pool`` into hands of ``sizes`` (multisets, hands ordered; cards
    left over stay unseen); with ``cap``, counting stops at ``cap`` (the answer is then
    ``min(count, cap)``: enough to choose between enumerating and sampling, in a few steps
    however large the count)."""
    counts = [k for _, k in sorted(pool.items())]
    after = [sum(counts[i:]) for i in range(len(counts) + 1)]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def rec(i: int, room: tuple[int, ...]) -> int:
        if sum(room) > after[i]:  # not enough cards left to fill the hands
            return 0
        if i == len(counts):
            return 1
        key = (i, room)
        got = memo.get(key)
        if got is not None:
            return got
        total = 0
        for split in compositions(counts[i], room):
            total += rec(i + 1, tuple(r - t for r, t in zip(room, split, strict=True)))
            if cap is not None and total >= cap:
                total = cap
                break
        memo[key] = total
        return total

    return rec(0, tuple(sizes))


def compositions(k: int, caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to give k copies to hands with room ``caps`` (any left go to nobody)."""
    if not caps:
        yield ()
        return
    for first in range(min(k, caps[0]) + 1):
        for rest in compositions(k - first, caps[1:]):
            yield (first, *rest)


def _splits(pool: Counter[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    seen = set()
    for combo in combinations(sorted(pool.elements()), sizes[0]):
        if combo in seen:
            continue
        seen.add(combo)
        for tail in _splits(pool - Counter(combo), sizes[1:]):
            yield [combo, *tail]


def deals_of(
    pos: Position, *, limit: int = EXACT_DEALS, samples: int = SAMPLED_DEALS, seed: int = 0
) -> tuple[list[Position], bool]:
    """Positions with every unknown hand filled from the unknown pool: all of them when there
    are at most ``limit`` (exact=True), else ``samples`` drawn with a fixed seed (exact=False)."""
    unknown = [i for i, s in enumerate(pos.seats) if s.hand is None]
    if not unknown:
        return [pos.settle()], True
    pool = pos.unknown_pool()
    sizes = [pos.seats[i].hand_size for i in unknown]
    if sum(sizes) > sum(pool.values()):
        raise PositionError("the unknown hands need more cards than are unseen", rule="S1")

    def fill(hands: list[tuple[int, ...]]) -> Position:
        seats = list(pos.seats)
        for i, h in zip(unknown, hands, strict=True):
            seats[i] = replace(seats[i], hand=tuple(sorted(h)))
        return replace(pos, seats=tuple(seats)).settle()

    if _count_splits(pool, sizes, cap=limit + 1) <= limit:
        return [fill(h) for h in _splits(pool, sizes)], True
    rng = random.Random(seed)
    cards = sorted(pool.elements())
    out = []
    for _ in range(samples):
        rng.shuffle(cards)
        hands, at = [], 0
        for size in sizes:
            hands.append(tuple(cards[at : at + size]))
            at += size
        out.append(fill(hands))
    return out, False


def wilson_upper(failures: int, n: int, z: float = 1.96) -> float:
    """Upper end of the Wilson 95% interval for a failure rate seen as failures/n."""
    if n == 0:
        return 1.0
    p = failures / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return min(1.0, (centre + margin) / (1 + z * z / n))
