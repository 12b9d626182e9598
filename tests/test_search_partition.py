"""Partition search (search.h SEARCH_PART, cxx/partition.h): win's answers with the switch on
equal those with it off on one table shared by many states (2-5 players, mid-trick too, trick
goals and goals with a paradox part, alpha-beta and df-pn), the exhaustive reference at shallow
depth, and the claim each answer carries: every renaming of the numbers that keeps the order
of the pairs it reports (W1's comparisons) gives a state with the same answer."""

from __future__ import annotations

import random

import pytest

from catbox.solver.deal import random_position
from catbox.solver.position import Position
from catbox.solver.rules import RED_BONUS
from catbox.solver.search import clear_cache, native
from catbox.solver.search.native import NativeEngine, flat

from .searching import assert_forced_matches_reference, playout_states

NORM = 5  # search.h SEARCH_NORM | SEARCH_PN_NORM (the default)
PART = NORM | 32  # and SEARCH_PART (sorted keys at trick starts)
PART_EVERY = PART | 64  # and SEARCH_PART_EVERY (sorted keys at every node)


def _goals(left: int) -> list[tuple[int, int, int]]:
    return [(0, left, -1), (1, left, -1), (0, 1, -1), (left, left, -1), (0, left, 0),
            (1, 1, 0), (0, left, 1), (2, left, 1)]  # fmt: skip


# the pairs {a, b} of numbers in the order of their bits (partition.h PairIndex)
PAIRS = [(a, b) for a in range(1, 10) for b in range(a + 1, 10)]


def _renamed(fs: tuple[int, ...], n: int, sigma: dict[int, int]) -> tuple[int, ...]:
    """The native state fs with every number k renamed sigma[k]: its cells (row by row), each
    hand's count, the value winning the trick so far (W1: red counts RED_BONUS + k)."""
    occ, mine, perms, leader, cnt, led, wval, wseat, t, left, *hands = fs

    def cells(x: int) -> int:
        out = 0
        for c in range(4):
            for k in range(1, n + 1):
                if x >> (c * n + k - 1) & 1:
                    out |= 1 << (c * n + sigma[k] - 1)
        return out

    def hand(h: int) -> int:
        return sum((h >> (3 * (k - 1)) & 7) << (3 * (sigma[k] - 1)) for k in range(1, n + 1))

    if wval > n:
        wval = RED_BONUS + sigma[wval - RED_BONUS]
    elif wval >= 1:
        wval = sigma[wval]
    return (cells(occ), cells(mine), perms, leader, cnt, led, wval, wseat, t, left,
            *(hand(h) for h in hands))  # fmt: skip


def _shuffled(n: int, rng: random.Random) -> dict[int, int]:
    """A random renaming of the numbers 1..n."""
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    return dict(zip(range(1, n + 1), perm, strict=True))


def _engine(pos: Position, seat: int, mask: int, pn: bool) -> NativeEngine:
    eng = NativeEngine.for_position(pos, seat)
    eng.core.set_search(mask)
    # tables down to the last trick; df-pn from every root for some
    eng.core.configure(True, 1, False, False, 1 if pn else 0, 1)
    return eng


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_partition_keeps_every_answer_on_one_table(players: int) -> None:
    """One engine with SEARCH_PART answers every goal (trick goals, paradox parts pk >= 0) of
    the states along several playouts of a position, one table for all of them (so facts
    stored by one state answer others of its class; sorted keys at trick starts or at every
    node), as an engine with the default keys does; para (which asks win's goals) too; red
    broken or not (L3a)."""
    rng = random.Random(570 + players)
    checked = 0
    for seed in range(14):
        left = 3 + seed % (3 if players < 4 else 2 if players == 4 else 1)
        pos = random_position(players, 57_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        exact = _engine(pos, seat, NORM, seed % 2 == 1)
        part = _engine(pos, seat, PART_EVERY if seed % 3 else PART, seed % 2 == 1)
        states = []
        for _ in range(4):
            states += playout_states(exact, exact.state_of(pos), rng)
        red = exact.ctx.red
        states += [(st[0] & ~red, st[1] & ~red, *st[2:]) for st in states if st[0] & red][:4]
        for st in states:
            fs = flat(exact.ctx, st)
            for lo, hi, pk in _goals(st[11]):
                got = part.core.solve(fs, lo, hi, pk)
                assert got == exact.core.solve(fs, lo, hi, pk), (seed, st, (lo, hi, pk))
            assert part.core.exact_para(fs, 0) == exact.core.exact_para(fs, 0), (seed, st)
            checked += 1
    assert checked >= 150


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_partition_answers_hold_for_every_order_keeping_renaming(players: int) -> None:
    """The claim behind every fact (partition.h): win's answer with SEARCH_PART holds for
    every renaming of the numbers that keeps the order of the pairs relevance() reports
    (answered afresh with the default keys), mid-trick too (the winning card renamed with
    them), for trick goals and goals with a paradox part; and the claim is not empty: many
    such renamings are not the identity."""
    rng = random.Random(670 + players)
    renamed = 0
    for seed in range(16):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 67_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        part = _engine(pos, seat, PART_EVERY if seed % 2 else PART, False)
        n = part.ctx.max_number
        for st in playout_states(part, part.state_of(pos), rng)[:4]:
            fs = flat(part.ctx, st)
            for lo, hi, pk in _goals(st[11])[::2]:
                got = part.core.win(fs, lo, hi, pk)
                rel = part.core.relevance()
                kept = [PAIRS[i] for i in range(36) if rel >> i & 1]
                assert all(b <= n for _, b in kept)
                for _ in range(6):
                    sigma = _shuffled(n, rng)
                    if any((sigma[a] < sigma[b]) != (a < b) for a, b in kept):
                        continue
                    if all(sigma[k] == k for k in sigma):
                        continue
                    fresh = _engine(pos, seat, NORM, False)
                    other = fresh.core.win(_renamed(fs, n, sigma), lo, hi, pk)
                    assert other == got, (seed, st, (lo, hi, pk), sigma, rel)
                    renamed += 1
    assert renamed >= 60


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_renamed_states_share_one_table(players: int) -> None:
    """States whose sorted keys meet (partition.h part_key): a state, then renamings of it
    (any order, kept or not), each also with the trick's winning card so far given another
    number of its colour class (a state whose sorted key differs from the renaming's in that
    number only), all asked on one SEARCH_PART engine after the state itself: every answer
    equals the default keys' (with SEARCH_PART_EVERY the sorted key inside a trick too)."""
    rng = random.Random(770 + players)
    checked = 0
    for seed in range(12):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 77_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        part = _engine(pos, seat, PART_EVERY if seed % 3 else PART, seed % 2 == 1)
        exact = _engine(pos, seat, NORM, False)
        n = part.ctx.max_number
        for st in playout_states(part, part.state_of(pos), rng)[:4]:
            fs = flat(part.ctx, st)
            variants = [fs]
            for _ in range(4):
                rfs = _renamed(fs, n, _shuffled(n, rng))
                variants.append(rfs)
                wval = rfs[6]
                if wval >= 1:  # another winning number, the same colour class (W1)
                    base = RED_BONUS if wval > n else 0
                    other = base + rng.randint(1, n)
                    variants.append((*rfs[:6], other, *rfs[7:]))
            for lo, hi, pk in _goals(st[11])[::2]:
                for v in variants:
                    assert part.core.win(v, lo, hi, pk) == exact.core.win(v, lo, hi, pk), (
                        seed,
                        v,
                        (lo, hi, pk),
                    )
                    checked += 1
    assert checked >= 300


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_partition_matches_the_reference(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """SEARCH_PART on (and SEARCH_PART_EVERY): forced equals the exhaustive rules-engine solver
    (1-2 tricks, mid-trick too)."""
    for i in range(8):
        monkeypatch.setattr(native, "SEARCH", PART_EVERY if i % 2 else PART)
        pos = random_position(players, 77_000 + i, 1 + i % 2, mid_trick=i % players)
        clear_cache()
        assert_forced_matches_reference(pos)
