"""The compiled core's static bounds (solver/search/cxx/bounds.h: round_end, s_safe, s_doomed):
each claim, wherever it fires, equals the full search's answer with the bounds switched off,
and the switches never change an answer."""

from __future__ import annotations

import random
from functools import cache

import pytest

from catbox.solver.deal import random_position
from catbox.solver.search.engine import NOPAR, Engine
from catbox.solver.search.native import NativeEngine, flat
from catbox.solver.search.state import Ctx, State, apply, cells, legal_mask

ALL_BOUNDS = 15  # search.h Options.bounds: BOUND_SAFE | DOOMED | TRICKS | STOPPERS


def _most_tricks(ctx: Ctx, seat: int, root: State) -> int:
    """The most tricks S wins from ``root`` over every continuation (every seat cooperating),
    paradoxes included (X3: the unfinished trick counts for nobody)."""

    @cache
    def most(st: State) -> int:
        if st[11] == 0:
            return st[10]
        lm = legal_mask(ctx, st)
        if not lm:
            return st[10]
        return max(most(apply(ctx, st, i)) for i in cells(lm))

    return most(root) - root[10]


def _states(players: int, seed: int, left: int, rng: random.Random) -> list[State]:
    """States along a random playout from a random position (permissions get lost, F2)."""
    pos = random_position(players, seed, left, mid_trick=seed % players)
    ctx = Ctx(players, 0)
    py = Engine.for_position(pos, 0)
    st = py.state_of(pos)
    out = []
    while st[11] > 0:
        lm = legal_mask(ctx, st)
        if not lm:
            break
        out.append(st)
        st = apply(ctx, st, rng.choice(cells(lm)))
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_static_bounds_claims_match_the_full_search(players: int) -> None:
    """Wherever a bound fires, its claim is the answer of the search without bounds:
    ``safe`` -> S can always avoid causing a paradox (X1, X3); ``doomed`` -> the other seats
    can force S's paradox, so para is never NOPAR; ``ub`` -> S wins at most ub more tricks in
    every continuation (checked exhaustively when small); ``denied`` -> S cannot force more
    than top - denied more tricks."""
    rng = random.Random(40 + players)
    fired = {"safe": 0, "doomed": 0, "ub": 0, "denied": 0}
    for seed in range(60 if players == 5 else 40):
        left = 2 + seed % 3
        for st in _states(players, 9100 + seed, left, rng):
            seat = rng.randrange(players)
            pos = random_position(players, 9100 + seed, left, mid_trick=seed % players)
            nat = NativeEngine.for_position(pos, seat)
            ctx = nat.ctx
            fs = flat(ctx, st)
            ub, safe, doomed, denied = nat.core.static_bounds(fs)
            off = NativeEngine.for_position(pos, seat)
            off.core.set_bounds(0)
            fo = flat(ctx, st)
            avoid = off.core.win(fo, 0, st[11])
            if safe:
                fired["safe"] += 1
                assert avoid, (seed, seat, st)
            if doomed:
                fired["doomed"] += 1
                assert not avoid, (seed, seat, st)
                assert off.core.exact_para(fo, 0) != NOPAR
            assert not (safe and doomed)
            # S cannot force more than ub; over every continuation where that is cheap
            assert not off.core.win(fo, ub + 1, st[11]), (seed, seat, st)
            if st[11] <= 2:
                assert _most_tricks(ctx, seat, st) <= ub, (seed, seat, st)
            top = st[11] - (1 if _s_done(ctx, seat, st) and st[9] != seat else 0)
            if ub < top:
                fired["ub"] += 1
            if denied:
                fired["denied"] += 1
                assert not off.core.win(fo, top - denied + 1, st[11]), (seed, seat, st)
    assert all(v > 5 for v in fired.values()), fired


def _s_done(ctx: Ctx, seat: int, st: State) -> bool:
    return bool(st[6]) and (seat - st[5]) % ctx.players < st[6]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bounds_switches_keep_every_answer(players: int) -> None:
    """Every bound alone, all of them, and none: the same answers to every trick goal
    (lo, hi, pk), to para and to the score as the Python engine (the readable reference)."""
    for seed in range(10):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 9300 + seed, left, mid_trick=seed % players)
        seat = seed % players
        py = Engine.for_position(pos, seat)
        st = py.state_of(pos)
        goals = [
            (lo, hi, pk)
            for lo in range(left + 1)
            for hi in range(lo, left + 1)
            for pk in (-1, 0, left // 2, left)
        ]
        want = [py.win(st, lo, hi, pk) for lo, hi, pk in goals]
        want_para = py.exact_para(st, 0)
        want_value = py.exact_value(st)
        for mask in (0, 1, 2, 4, 8, ALL_BOUNDS):
            nat = NativeEngine.for_position(pos, seat)
            nat.core.set_bounds(mask)
            fs = flat(nat.ctx, st)
            got = [nat.core.win(fs, lo, hi, pk) for lo, hi, pk in goals]
            assert got == want, (seed, mask)
            assert nat.core.exact_para(fs, 0) == want_para, (seed, mask)
            assert nat.core.exact_value(fs, st[10]) == want_value, (seed, mask)
