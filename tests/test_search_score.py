"""The compiled core's score bounds (search.h SCORE_*: the trick cap, S surely safe, the
bonus window with S's group now, per-number group bounds, the score window as trick goals in
value and in para): every switch alone, all and none give the same fail-soft answers on every
window, equal to the exhaustive reference at shallow depth."""

from __future__ import annotations

import random

import pytest

from catbox.solver.deal import random_position
from catbox.solver.search.engine import NOPAR
from catbox.solver.search.native import NativeEngine, flat

from .reference import best_score
from .searching import playout_states

SCORE_BITS = (1, 2, 4, 8, 16, 32, 64)  # search.h SCORE_CAP ... SCORE_PARA
SCORE_ALL = sum(SCORE_BITS)


def _fail_soft(v: int, a: int, b: int, exact: int) -> bool:
    """v is a correct fail-soft answer of the window (a, b) for the exact value."""
    if v <= a:
        return exact <= v
    if v >= b:
        return exact >= v
    return v == exact


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_score_switches_keep_every_answer(players: int) -> None:
    """value and para on windows around the exact answer: each score bound alone, all of them
    and none give correct fail-soft answers (and equal exact values) on random states along
    playouts (mid-trick too)."""
    rng = random.Random(70 + players)
    checked = 0
    for seed in range(8):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 9500 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        ref = NativeEngine.for_position(pos, seat)
        ref.core.set_score_bounds(0)
        for st in playout_states(ref, ref.state_of(pos), rng)[:3]:
            fs = flat(ref.ctx, st)
            want_v = ref.core.exact_value(fs, st[10])
            want_p = ref.core.exact_para(fs, 0)
            for mask in (*SCORE_BITS, SCORE_ALL):
                eng = NativeEngine.for_position(pos, seat)
                eng.core.set_score_bounds(mask)
                assert eng.core.exact_value(fs, st[10]) == want_v, (seed, mask)
                assert eng.core.exact_para(fs, 0) == want_p, (seed, mask)
                for d in (-2, -1, 0, 1, 2):
                    a = want_v + d - 1
                    v = eng.core.value(fs, a, a + 1 + (d & 1))
                    assert _fail_soft(v, a, a + 1 + (d & 1), want_v), (seed, mask, a, v)
                    if want_p != NOPAR:
                        a = want_p + d - 1
                        p = eng.core.para(fs, a, a + 1)
                        assert _fail_soft(p, a, a + 1, want_p), (seed, mask, a, p)
            checked += 1
    assert checked >= 16


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_score_with_every_bound_matches_the_reference(players: int) -> None:
    """The best score from every score bound equals the exhaustive reference (1-2 tricks left,
    mid-trick too), for the seat to play and the next one."""
    for seed in range(10):
        left = 1 + seed % 2
        pos = random_position(players, 9700 + seed, left, mid_trick=seed % players)
        assert pos.to_play is not None
        for seat in {pos.to_play, (pos.to_play + 1) % players}:
            want = best_score(pos, seat)
            if want is None:
                continue
            eng = NativeEngine.for_position(pos, seat)
            eng.core.set_score_bounds(SCORE_ALL)
            st = eng.state_of(pos)
            fs = flat(eng.ctx, st)
            if eng.core.win(fs, 0, st[11]):
                got = eng.core.exact_value(fs, st[10])
            else:
                got = eng.core.exact_para(fs, 0) - st[10]
            assert got == want, (seed, seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_para_by_solve_keeps_every_answer(players: int) -> None:
    """search.h Options::para_pn (exact_para's windows as yes/no goals of solve, df-pn from
    deep roots) on and off, from several guesses, and its windows driven from Python
    (NativeEngine.exact_para with on_bound): the same exact para as the alpha-beta para,
    on random states along playouts (trick starts and mid-trick, every seat as S), with df-pn
    from 2 tricks left (with and without the alpha-beta probe first) so it answers them."""
    rng = random.Random(110 + players)
    checked = 0
    seen: list[tuple[int, int]] = []  # the intervals on_bound is told
    for seed in range(6):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 9400 + seed, left, mid_trick=seed % players)
        for seat in range(players):
            base = NativeEngine.for_position(pos, seat)
            base.core.set_para_pn(0)  # para's alpha-beta
            for st in playout_states(base, base.state_of(pos), rng)[:3]:
                fs = flat(base.ctx, st)
                want = base.core.exact_para(fs, 0)
                for pn in (0, 1):  # the same probes driven from Python (para_probe)
                    seen.clear()
                    nat = NativeEngine.for_position(pos, seat)
                    nat.core.set_para_pn(pn)
                    assert nat.exact_para(st, -1, lambda lo, hi: seen.append((lo, hi))) == want
                    assert seen[-1] == (want, want), (seed, seat, st)
                for probe in (0, 100):
                    for guess in (0, -2, NOPAR):
                        nat = NativeEngine.for_position(pos, seat)
                        nat.core.configure(True, 2, False, False, 2, 2, True, 4.0, True, False,
                                           probe)  # fmt: skip
                        nat.core.set_para_pn(1)
                        assert nat.core.exact_para(fs, guess) == want, (seed, seat, st)
                checked += 1
    assert checked > 20, checked
