"""S's sure losers by a safe strategy (solver/search/cxx/bounds.h s_safe_losers, the switch
BOUND_SAFE_TWO): wherever the rule fires, the search without bounds agrees that S can force
"no paradox and at most ub - j more tricks"; its mutants (the permissions the losers cost
forgotten, F2 forgotten, crowding forgotten) are refuted; the switch never changes an
answer. The bounds-test pattern of tests/test_search_bounds.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from catbox.solver.deal import random_position
from catbox.solver.search import Session, analyze_moves, clear_cache
from catbox.solver.search.native import NativeEngine, flat, unflat
from catbox.solver.search.state import State

from .searching import (
    ALL_BOUNDS,
    built_3p,
    hand_word,
    s_played,
    switch_keeps_answers,
    walks,
    wins_none,
)

SAFE_TWO = 8192  # search.h BOUND_SAFE_TWO (bounds.h s_safe_losers)
# bounds.h mutants: LOST_TWO_NO_F2, LOST_TWO_NO_CROWD (the losers' own), SAFE_TWO_NO_DROP
NO_F2, NO_CROWD, NO_DROP = 1, 2, 4
# the default bounds without BOUND_SAFE_TWO (search.h Options::bounds)
DEFAULT = ALL_BOUNDS | 16 | 32 | 64 | 128 | 256 | 512 | 1024


def _fired(
    players: int, first: int, seeds: int, mutant: int
) -> Iterator[tuple[int, int, NativeEngine, NativeEngine, State, int, int]]:
    """The states of walks (up to 5 tricks left; the search without bounds from 4, 3 at 5
    players; trick starts and mid-trick, random seats) where s_safe_losers (with ``mutant``)
    fires: (seed, seat, engine, engine without bounds, state, j, ub)."""
    rng = random.Random(150 + players + 7 * mutant)
    for seed, seat, nat, off, st in walks(players, first, seeds, rng, 5):
        if st[11] > 4 - (players == 5):
            continue
        fs = flat(nat.ctx, st)
        j = nat.core.safe_lost_tricks(fs, mutant)
        if j:
            yield seed, seat, nat, off, st, j, nat.core.static_bounds(fs)[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_safe_losers_match_the_full_search(players: int) -> None:
    """Wherever s_safe_losers fires, S can force that it wins none of the j tricks it counts
    (every other seat's play enumerated, up to 3 tricks left), and the search without bounds
    proves the whole claim: "no paradox and at most ub - j more tricks" (pk -1, the "at most"
    goals). It fires often, and somewhere where S has played in the trick (the next trick's
    loser) at 3-5 players."""
    fired = done = 0
    for seed, seat, nat, off, st, j, ub in _fired(players, 14000, 100, 0):
        ctx = nat.ctx
        s_done = s_played(ctx, seat, st)
        fired += 1
        done += s_done
        if st[11] <= 3:
            k = j + (s_done and st[9] != seat)
            assert wins_none(ctx, seat, st, k), (seed, seat, st)
        assert off.core.win(flat(ctx, st), 0, max(0, ub - j)), (seed, seat, st, j)
    assert fired > 50 and (done > 0 or players == 2), (fired, done)


def test_safe_losers_count_two_somewhere() -> None:
    """Two safe losers are rare (the losers cost S up to two colours it must still be safe
    without) but they fire on the random playouts at 3 and 4 players, and the search without
    bounds proves each claim."""
    two = 0
    for players in (3, 4):
        for seed, seat, _, off, st, j, ub in _fired(players, 14000, 100, 0):
            if j == 2:
                two += 1
                assert off.core.win(flat(off.ctx, st), 0, max(0, ub - 2)), (seed, seat, st)
    assert two >= 2, two


@pytest.mark.parametrize(("players", "mutant"), [(3, NO_DROP), (5, NO_DROP), (5, NO_CROWD)])
def test_safe_losers_mutants_are_refuted(players: int, mutant: int) -> None:
    """s_safe_losers asking S's safety with every colour it holds (SAFE_TWO_NO_DROP: the
    permissions its losing plays cost forgotten, F2) or forgetting the other seats' plays into
    S's losing cells (LOST_TWO_NO_CROWD) claims what the search without bounds refutes
    somewhere on the random playouts."""
    refuted = 0
    for _, _, _, off, st, j, ub in _fired(players, 14000, 150, mutant):
        refuted += not off.core.win(flat(off.ctx, st), 0, max(0, ub - j))
        if refuted:
            break
    assert refuted


def test_safe_losers_mutant_without_f2_is_refuted() -> None:
    """The next trick's loser must drop trick 0's led colour from S's losing cells (F2): 3
    players, 2 tricks left, red broken with R5 and R6 open; seat 1 led 1B, seat 2 to play, then
    S (seat 0) with 5, 6, 6 and only its blue, yellow and red cells open, the others holding
    2-4. S must duck trick 0 in yellow (its blues and reds would win) and so loses blue; a low
    yellow lead in trick 1 then leaves it only winning plays. S is safe without blue and yellow
    (its reds), so the rule counts one safe loser; the mutant that forgets F2 claims two (at
    most 0 more tricks), which the enumeration and the search without bounds refute."""
    red, blue, yellow, green = 0, 1, 2, 3
    empty = [(blue, k) for k in (2, 3, 4, 5, 6)] + [(yellow, k) for k in (2, 3, 4, 5, 6)]
    empty += [(green, k) for k in (2, 3, 4)] + [(red, 5), (red, 6)]
    occ, nat, off = built_3p(empty)
    fs = (
        occ,
        0,
        0xFFF,
        1,
        1,
        blue,
        1,
        1,
        0,
        2,
        hand_word(5, 6, 6),
        hand_word(2, 3),
        hand_word(2, 3, 4),
    )
    st = unflat(nat.ctx, fs)
    ub = nat.core.static_bounds(fs)[0]
    assert ub == 2
    assert nat.core.safe_lost_tricks(fs) == 1
    assert off.core.win(fs, 0, ub - 1)
    assert wins_none(nat.ctx, 0, st, 1)
    assert nat.core.safe_lost_tricks(fs, NO_F2) == 2
    assert not wins_none(nat.ctx, 0, st, 2)
    assert not off.core.win(fs, 0, ub - 2)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_safe_losers_switch_keeps_every_answer(players: int) -> None:
    """BOUND_SAFE_TWO on and off (with the default bounds, and with BOUND_SAFE alone, whose
    strategy it extends): the same answers to every trick goal (lo, hi, pk) with every paradox
    part, to para and to the score, at trick starts and mid-trick, every seat as S."""
    switch_keeps_answers(players, 14600, (DEFAULT, DEFAULT | SAFE_TWO, 1 | SAFE_TWO, 0))


HORIZON_ROWS = [(3, 6, 700), (3, 6, 701), (4, 5, 700), (4, 5, 701), (5, 4, 700), (5, 4, 702)]


@pytest.mark.parametrize(("players", "left", "seed"), HORIZON_ROWS)
def test_safe_losers_switch_keeps_every_analyze_row(
    players: int, left: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BOUND_SAFE_TWO on and off: every analyze row (status, guarantee, forceable counts, best
    score) of positions at the horizon (trick start and mid-trick) is the same."""
    init = NativeEngine.__init__
    rows = []
    for mask in (DEFAULT, DEFAULT | SAFE_TWO):

        def switched(self: NativeEngine, *args: Any, mask: int = mask, **kwargs: Any) -> None:
            init(self, *args, **kwargs)
            self.core.set_bounds(mask)

        monkeypatch.setattr(NativeEngine, "__init__", switched)
        for mid in (0, 1):
            clear_cache()
            pos = random_position(players, seed, left, mid_trick=mid)
            got = analyze_moves(pos, session=Session())
            rows.append([(r.play, r.status, r.guaranteed, r.forceable, r.best_score) for r in got])
    assert rows[:2] == rows[2:]
