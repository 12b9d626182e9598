"""The compiled core's search switches (search.h SEARCH_*: normalised table keys, table.h
core_key; rank-normalised keys, ptable.h rank_key; equivalent numbers searched once, order.h
equivalent): every pruned play equals its
kept twin on every goal (Python engine), each switch alone, both and none give the same answers
(mid-trick too, tables down to the last trick, alpha-beta and df-pn), equal to the exhaustive
reference at shallow depth, and the lines the API returns with them replay through the rules
engine."""

from __future__ import annotations

import random

import pytest

from catbox.solver.answers import Witness
from catbox.solver.deal import random_position
from catbox.solver.scoring import seat_score
from catbox.solver.search import Target, best_score_line, clear_cache, forced, main_line, native
from catbox.solver.search.engine import Engine
from catbox.solver.search.native import NativeEngine, flat
from catbox.solver.search.state import apply, cells, legal_mask, to_play

from .searching import assert_forced_matches_reference, playout_states

# none, NORM, EQUIV, both, NORM | PN_NORM, NORM | PN_NORM | RANK, NORM | RANK (search.h)
SEARCH_MASKS = (0, 1, 2, 3, 5, 13, 9)


def _goals(left: int) -> list[tuple[int, int, int]]:
    return [(0, left, -1), (1, left, -1), (0, 1, -1), (left, left, -1), (0, left, 0), (1, 1, 0)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pruned_numbers_equal_their_kept_twin(players: int) -> None:
    """Each play equivalent() prunes has the value of the nearest kept play of its colour below
    it (the lowest number of its chain) on every trick goal and on para (Python engine)."""
    rng = random.Random(170 + players)
    pruned = 0
    for seed in range(150):
        left = 2 + seed % 2
        pos = random_position(players, 17_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        py = Engine.for_position(pos, seat)
        nat = NativeEngine.for_position(pos, seat)
        n = py.ctx.max_number
        for st in playout_states(nat, nat.state_of(pos), rng):
            p = to_play(py.ctx, st)
            lm = legal_mask(py.ctx, st)
            kept = nat.core.equivalent(flat(nat.ctx, st), lm, p)
            assert kept & ~lm == 0 and kept
            for x in cells(lm & ~kept):
                c = x // n
                twin = max(y for y in cells(kept) if y // n == c and y < x)
                a, b = apply(py.ctx, st, x), apply(py.ctx, st, twin)
                assert a[10] == b[10]  # the same trick winner (W1)
                for lo, hi, pk in _goals(a[11]):
                    assert py.win(a, lo, hi, pk) == py.win(b, lo, hi, pk), (seed, x, twin)
                assert py.exact_para(a, 0) == py.exact_para(b, 0)
                pruned += 1
    assert pruned >= 10  # the rule fires on these positions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_search_switches_keep_every_answer(players: int) -> None:
    """win (alpha-beta and df-pn), para and value with each switch alone, both and none, with
    the tables used down to the last trick: equal answers on random positions (mid-trick too)."""
    rng = random.Random(270 + players)
    for seed in range(30):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 27_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        answers = []
        for mask in SEARCH_MASKS:
            eng = NativeEngine.for_position(pos, seat)
            eng.core.set_search(mask)
            pn = (seed + mask) % 2 == 0  # df-pn from every root for half of them
            eng.core.configure(True, 1, False, False, 1 if pn else 0, 1)
            st = eng.state_of(pos)
            fs = flat(eng.ctx, st)
            got = [int(eng.core.solve(fs, lo, hi, pk)) for lo, hi, pk in _goals(st[11])]
            got += [eng.core.exact_para(fs, 0), eng.core.exact_value(fs, st[10])]
            answers.append(got)
        assert all(a == answers[0] for a in answers), (seed, answers)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_search_switches_match_the_reference(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every switch on: forced equals the exhaustive rules-engine solver (1-2 tricks, mid-trick
    too), and the main and best-score lines replay through the rules engine."""
    monkeypatch.setattr(native, "SEARCH", 31)
    for i in range(12):
        pos = random_position(players, 37_000 + i, 1 + i % 2, mid_trick=i % players)
        clear_cache()
        assert_forced_matches_reference(pos)
        for seat in range(players):
            line = main_line(pos, seat, Target("avoid-paradox"), engine="native")
            assert (line is not None) == forced(pos, seat, engine="native").guaranteed
            if line is not None:
                assert Witness.of(pos, list(line)).verify(pos).paradox != seat
            v, pv = best_score_line(pos, seat, engine="native")
            if pv is not None:
                assert seat_score(Witness.of(pos, list(pv)).verify(pos), seat) == v


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rank_keys_keep_every_answer_on_one_table(players: int) -> None:
    """Rank-normalised keys (ptable.h rank_key): one engine whose tables are shared by every
    state along several playouts of a position (tables down to the last trick, alpha-beta and
    df-pn) answers every trick goal, para and the cooperative "S avoids its paradox" question
    (avoid_possible, whose seen set takes the same keys) as an engine with exact keys does:
    states of one rank class met in any order give their own answers (red broken or not, L3a;
    mid-trick, W1's winning card so far among the ranks)."""
    rng = random.Random(470 + players)
    checked = 0
    for seed in range(20):
        left = 3 + seed % (3 if players < 4 else 2 if players == 4 else 1)
        pos = random_position(players, 47_000 + seed, left, mid_trick=seed % players)
        seat = rng.randrange(players)
        engines = []
        for mask in (0, 29):  # exact keys; NORM | PN_NORM | RANK | RANK_EVERY
            eng = NativeEngine.for_position(pos, seat)
            eng.core.set_search(mask)
            # df-pn for half; the table key before the static bounds (prefetch) for a third
            eng.core.configure(True, 1, seed % 3 == 0, False, 1 if seed % 2 else 0, 1)
            engines.append(eng)
        exact, ranked = engines
        states = []
        for _ in range(4):
            states += playout_states(exact, exact.state_of(pos), rng)
        # and each with red not broken (L3a): its red cells emptied, the other numbers as dead
        red = exact.ctx.red
        states += [(st[0] & ~red, st[1] & ~red, *st[2:]) for st in states if st[0] & red]
        for st in states:
            fs = flat(exact.ctx, st)
            for lo, hi, pk in _goals(st[11]):
                assert ranked.core.solve(fs, lo, hi, pk) == exact.core.solve(fs, lo, hi, pk), (
                    seed,
                    st,
                    (lo, hi, pk),
                )
            assert ranked.core.exact_para(fs, 0) == exact.core.exact_para(fs, 0), (seed, st)
            assert ranked.core.avoid_possible(fs) == exact.core.avoid_possible(fs), (seed, st)
            checked += 1
    assert checked >= 300
