"""An exhaustive reference solver, written only for tests.

It knows nothing but the rules engine (``Position.legal_plays`` / ``Position.play``) and
enumerates every continuation (and, for unknown hands, every deal of the unknown pool). It is
slow by design and only used on small positions (1-3 tricks left). The fast solvers are checked
against it.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations

from catbox.solver import Position
from catbox.solver.scoring import seat_score


@dataclass(frozen=True)
class Possible:
    avoid: bool  # some continuation in which `seat` causes no paradox
    round: bool  # some continuation in which nobody causes one
    tricks: frozenset[int]  # seat's final tricks over continuations where it causes no paradox
    scores: frozenset[int]  # seat's final round scores over all continuations (None skipped)


def terminals(pos: Position) -> Iterator[Position]:
    """Every finished position reachable from ``pos`` (all hands known)."""
    if pos.finished:
        yield pos
        return
    for m in pos.legal_plays():
        yield from terminals(pos.play(m))


def _multiset_splits(pool: Counter[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    cards = sorted(pool.elements())
    seen = set()
    for combo in combinations(cards, sizes[0]):
        if combo in seen:
            continue
        seen.add(combo)
        rest = pool - Counter(combo)
        for tail in _multiset_splits(rest, sizes[1:]):
            yield [combo, *tail]


def deals(pos: Position) -> Iterator[Position]:
    """Every way to fill the unknown hands from the unknown pool (formats.md: cards not
    accounted for by anything the position knows)."""
    unknown = [i for i, s in enumerate(pos.seats) if s.hand is None]
    if not unknown:
        yield pos.settle()
        return
    sizes = [pos.seats[i].hand_size for i in unknown]
    for split in _multiset_splits(pos.unknown_pool(), sizes):
        seats = list(pos.seats)
        for i, hand in zip(unknown, split, strict=True):
            seats[i] = replace(seats[i], hand=tuple(sorted(hand)))
        yield replace(pos, seats=tuple(seats)).settle()


def possible(pos: Position, seat: int) -> Possible:
    avoid = rnd = False
    tricks: set[int] = set()
    scores: set[int] = set()
    for full in deals(pos):
        for end in terminals(full):
            if end.paradox != seat:
                avoid = True
                tricks.add(end.seats[seat].tricks)
            if end.paradox is None:
                rnd = True
            sc = seat_score(end, seat)
            if sc is not None:
                scores.add(sc)
    return Possible(avoid, rnd, frozenset(tricks), frozenset(scores))


def forced(pos: Position, seat: int, goal: Callable[[Position], bool]) -> bool:
    """Can ``seat`` force every continuation to end in a position satisfying ``goal``?
    (All hands known; the other seats act together against ``seat``.)"""

    @cache
    def win(p: Position) -> bool:
        if p.finished:
            return goal(p)
        nexts = (win(p.play(m)) for m in p.legal_plays())
        return any(nexts) if p.to_play == seat else all(nexts)

    return win(pos)


@dataclass(frozen=True)
class Forced:
    guaranteed: bool  # seat can always avoid causing a paradox
    forceable: frozenset[int]
    at_least: int | None
    at_most: int | None
    best_score: int | None


def forced_answers(pos: Position, seat: int) -> Forced:
    pos = pos.settle()
    now = pos.seats[seat].tricks
    ks = range(now, now + pos.tricks_left + 1)

    def ok(p: Position) -> bool:
        return p.paradox != seat

    def tricks(rel: Callable[[int, int], bool], k: int) -> Callable[[Position], bool]:
        return lambda p: ok(p) and rel(p.seats[seat].tricks, k)

    guaranteed = forced(pos, seat, ok)
    forceable = frozenset(k for k in ks if forced(pos, seat, tricks(operator.eq, k)))
    at_least = at_most = None
    if guaranteed:
        at_least = max(k for k in ks if forced(pos, seat, tricks(operator.ge, k)))
        at_most = min(k for k in ks if forced(pos, seat, tricks(operator.le, k)))
    return Forced(guaranteed, forceable, at_least, at_most, best_score(pos, seat))


def best_score(pos: Position, seat: int) -> int | None:
    """The best round score ``seat`` can guarantee (None if it depends on an unknown
    prediction)."""

    @cache
    def value(p: Position) -> int | None:
        if p.finished:
            return seat_score(p, seat)
        vals = [value(p.play(m)) for m in p.legal_plays()]
        if any(v is None for v in vals):
            return None
        ints = [v for v in vals if v is not None]
        return max(ints) if p.to_play == seat else min(ints)

    return value(pos.settle())
