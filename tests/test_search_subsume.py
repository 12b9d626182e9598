"""Monotone subsumption (search.h SEARCH_MONO, cxx/subsume.h): with red broken (L3a) and a goal
(lo = 0, hi, pk) with pk <= hi, giving the other seats fewer fillable cells and fewer usable
copies never turns S's yes into a no (X3: a stuck other seat ends the round in S's favour).
Checked on random pairs against the full search, on an engine whose table answers by
inclusion, and refuted without the red-broken guard (a seat left with only red leads it, L3)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from catbox.solver import Position
from catbox.solver.deal import random_position
from catbox.solver.search import Session, analyze_moves, native
from catbox.solver.search.native import NativeEngine, flat

from .searching import playout_states

NORM = 5  # search.h SEARCH_NORM | SEARCH_PN_NORM (the default)
MONO = NORM | 128  # and SEARCH_MONO
NOGUARD = MONO | 256  # the mutant: SEARCH_MONO_NOGUARD (no red-broken test)

Flat = tuple[int, ...]


def _fillable(n: int, fs: Flat, q: int) -> int:
    """F_q: the empty cells of numbers seat q holds in colours it still holds (L1, L2)."""
    occ, perms, hand = fs[0], fs[2], fs[10 + q]
    m = 0
    for k in range(1, n + 1):
        if hand >> (3 * (k - 1)) & 7:
            for c in range(4):
                if perms >> (4 * q + c) & 1:
                    m |= 1 << (c * n + k - 1)
    return m & ~occ


def _shrunk(n: int, seat: int, fs: Flat, rng: random.Random) -> Flat:
    """fs with the other seats' resources shrunk (S's part and the trick kept): a copy of a
    number dropped, a colour's permission dropped, every non-red permission dropped, or an empty
    non-red cell outside S's fillable cells filled; one to three of these."""
    occ, perms, hands = fs[0], fs[2], list(fs[10:])
    f_s = _fillable(n, fs, seat)
    others = [q for q in range(len(hands)) if q != seat]
    for _ in range(rng.randint(1, 3)):
        q = rng.choice(others)
        op = rng.randrange(4)
        if op == 0:
            ks = [k for k in range(1, n + 1) if hands[q] >> (3 * (k - 1)) & 7]
            if ks:
                hands[q] -= 1 << (3 * (rng.choice(ks) - 1))
        elif op == 1:
            cs = [c for c in range(4) if perms >> (4 * q + c) & 1]
            if cs:
                perms &= ~(1 << (4 * q + rng.choice(cs)))
        elif op == 2:
            perms &= ~(0xE << (4 * q))
        else:
            free = [x for x in range(n, 4 * n) if not (occ | f_s) >> x & 1]
            if free:
                occ |= 1 << rng.choice(free)
    return (occ, fs[1], perms, *fs[3:10], *hands)


def _pairs(
    players: int, first: int, seeds: int, broken: bool
) -> Iterator[tuple[Position, int, Flat, Flat]]:
    """(position, seat, A, B) with B's other seats' resources within A's, S's part equal:
    states along random playouts (2-3 tricks left, trick starts and mid-trick), red broken in
    both, or (broken=False) unbroken in both (the red tokens taken off the board)."""
    rng = random.Random(first)
    for seed in range(first, first + seeds):
        pos = random_position(players, seed, 2 + seed % 2, mid_trick=seed % players)
        seat = rng.randrange(players)
        eng = NativeEngine.for_position(pos, seat)
        n = eng.ctx.max_number
        red = (1 << n) - 1
        for st in playout_states(eng, eng.state_of(pos), rng):
            a = flat(eng.ctx, st)
            if not broken:
                a = (a[0] & ~red, a[1] & ~red, *a[2:])
            elif not a[0] & red:
                continue
            for _ in range(2):
                b = _shrunk(n, seat, a, rng)
                if b != a:
                    yield pos, seat, a, b


def _engine(pos: Position, seat: int, mask: int, pn: bool) -> NativeEngine:
    eng = NativeEngine.for_position(pos, seat)
    eng.core.set_search(mask)
    eng.core.configure(True, 1, False, False, 1 if pn else 0, 1)  # tables down to the last trick
    eng.core.set_mono_min_left(1)
    return eng


def _mono_goals(left: int) -> list[tuple[int, int]]:
    return [(hi, pk) for hi in range(left + 1) for pk in range(-1, hi + 1)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_smaller_coalition_keeps_every_yes(players: int) -> None:
    """The claim (subsume.h), by the full search: for random pairs B <= A (red broken), every
    goal (0, hi, pk) with pk <= hi that S can force from A it can force from B."""
    exercised = 0
    for pos, seat, a, b in _pairs(players, 39_100 + 100 * players, 16, broken=True):
        eng = _engine(pos, seat, NORM, False)
        for hi, pk in _mono_goals(a[9]):
            if eng.core.win(a, 0, hi, pk):
                assert eng.core.win(b, 0, hi, pk), (seat, a, b, hi, pk)
                exercised += 1
    assert exercised >= 200


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_subsumption_table_agrees_with_the_full_search(players: int) -> None:
    """An engine with SEARCH_MONO asked A's goals and then B's (B <= A), or B's first, on one
    table (alpha-beta and df-pn, tables down to the last trick): every trick goal (lo > 0 and
    paradox parts too) and para equal a fresh engine's without the table; and the table
    answered some of them by inclusion."""
    hits = 0
    pairs = _pairs(players, 39_500 + 100 * players, 12, broken=True)
    for i, (pos, seat, a, b) in enumerate(pairs):
        mono = _engine(pos, seat, MONO, i % 2 == 1)
        ref = _engine(pos, seat, NORM, i % 2 == 1)
        left = a[9]
        goals = [(lo, hi, pk) for lo in (0, 1) for hi in range(lo, left + 1)
                 for pk in range(-1, left + 1)]  # fmt: skip
        for st in (a, b) if i % 3 else (b, a):
            for lo, hi, pk in goals:
                got = mono.core.solve(st, lo, hi, pk)
                assert got == ref.core.solve(st, lo, hi, pk), (seat, a, b, st, (lo, hi, pk))
            assert mono.core.exact_para(st, 0) == ref.core.exact_para(st, 0), (seat, st)
        hits += sum(mono.core.mono_stats()["hits"])
    assert hits >= 10


def test_the_red_broken_guard_matters() -> None:
    """Without red broken the claim fails: a pair B <= A (3 players) where S forces a goal
    (0, hi, pk), pk <= hi, from A but not from B (B's leader, left with only red, must lead
    it, L3, and S must follow red); the mutant table without the guard (SEARCH_MONO_NOGUARD)
    then answers B wrongly after A, while SEARCH_MONO answers it right."""
    refuted = 0
    for pos, seat, a, b in _pairs(3, 39_000, 40, broken=False):
        ref = _engine(pos, seat, NORM, False)
        for hi, pk in _mono_goals(a[9]):
            if not ref.core.win(a, 0, hi, pk) or ref.core.win(b, 0, hi, pk):
                continue
            mutant = _engine(pos, seat, NOGUARD, False)
            guarded = _engine(pos, seat, MONO, False)
            for eng in (mutant, guarded):
                eng.core.set_bounds(0)  # A's yes searched (and stored), not a static answer
                assert eng.core.win(a, 0, hi, pk)
            refuted += mutant.core.win(b, 0, hi, pk)  # the wrong yes, from A's fact
            assert not guarded.core.win(b, 0, hi, pk)
    assert refuted >= 1


HORIZON_ROWS = [(3, 6, 700), (3, 6, 701), (4, 5, 700), (4, 5, 701), (5, 4, 700), (5, 4, 702)]


@pytest.mark.parametrize(("players", "left", "seed"), HORIZON_ROWS)
def test_mono_switch_keeps_every_analyze_row(
    players: int, left: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SEARCH_MONO on and off: every analyze row (status, guarantee, forceable counts, best
    score) of positions at the horizon (trick start and mid-trick) is the same, and the table
    answered goals there."""
    rows = []
    hits = 0
    for mask in (NORM, MONO):
        monkeypatch.setattr(native, "SEARCH", mask)
        for mid in (0, 1):
            pos = random_position(players, seed, left, mid_trick=mid)
            session = Session()
            got = analyze_moves(pos, session=session)
            rows.append([(r.play, r.status, r.guaranteed, r.forceable, r.best_score) for r in got])
            assert pos.to_play is not None
            eng = session.engine(pos, pos.to_play)[0]
            assert isinstance(eng, NativeEngine)
            hits += sum(eng.core.mono_stats()["hits"])
    assert rows[:2] == rows[2:]
    assert hits > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mono_switch_keeps_every_answer(players: int) -> None:
    """SEARCH_MONO on (from 1 or 2 tricks left) and off, on the positions of the bounds'
    switch tests (2-4 tricks left, 2-3 at 5 players; trick starts and mid-trick), every seat
    as S: every trick goal (lo, hi, pk) with every paradox part, para and the score equal."""
    for seed in range(10):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 12_600 + seed, left, mid_trick=seed % players)
        goals = [(lo, hi, pk) for lo in range(left + 1) for hi in range(lo, left + 1)
                 for pk in range(-1, left + 1)]  # fmt: skip
        for seat in range(players):
            got = []
            for mask, low in ((NORM, 2), (MONO, 1), (MONO, 2)):
                eng = NativeEngine.for_position(pos, seat)
                eng.core.set_search(mask)
                eng.core.set_mono_min_left(low)
                fs = flat(eng.ctx, eng.state_of(pos))
                got.append(([eng.core.win(fs, lo, hi, pk) for lo, hi, pk in goals],
                            eng.core.exact_para(fs, 0), eng.core.exact_value(fs, 0)))  # fmt: skip
            assert got[1] == got[0] and got[2] == got[0], (seed, seat)
