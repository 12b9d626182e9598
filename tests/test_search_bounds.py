"""The compiled core's static bounds (solver/search/cxx/bounds.h: round_end, s_safe, s_doomed):
each claim, wherever it fires, equals the full search's answer with the bounds switched off,
and the switches never change an answer."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from catbox.solver.deal import random_position
from catbox.solver.rules import RED_BONUS
from catbox.solver.search.engine import NOPAR, Engine
from catbox.solver.search.native import NativeEngine, flat, unflat
from catbox.solver.search.state import Ctx, State, apply, cells, legal_mask, to_play

from .searching import (
    ALL_BOUNDS,
    built_3p,
    hand_word,
    s_played,
    states_along,
    switch_keeps_answers,
    walks,
    wins_none,
)


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


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_static_bounds_claims_match_the_full_search(players: int) -> None:
    """Wherever a bound fires, its claim is the answer of the search without bounds:
    ``safe`` -> S can always avoid causing a paradox (X1, X3); ``doomed`` -> the other seats
    can force S's paradox, so para is never NOPAR; ``ub`` -> S wins at most ub more tricks in
    every continuation (checked exhaustively when small); ``denied`` -> S cannot force more
    than top - denied more tricks."""
    rng = random.Random(40 + players)
    fired = {"safe": 0, "doomed": 0, "ub": 0, "denied": 0}
    for seed, seat, nat, off, st in walks(players, 9100, 60 if players == 5 else 40, rng):
        ctx = nat.ctx
        fs = flat(ctx, st)
        ub, safe, doomed, denied = nat.core.static_bounds(fs)
        avoid = off.core.win(fs, 0, st[11])
        if safe:
            fired["safe"] += 1
            assert avoid, (seed, seat, st)
        if doomed:
            fired["doomed"] += 1
            assert not avoid, (seed, seat, st)
            assert off.core.exact_para(fs, 0) != NOPAR
        assert not (safe and doomed)
        # S cannot force more than ub; over every continuation where that is cheap
        assert not off.core.win(fs, ub + 1, st[11]), (seed, seat, st)
        if st[11] <= 2:
            assert _most_tricks(ctx, seat, st) <= ub, (seed, seat, st)
        top = st[11] - (1 if s_played(ctx, seat, st) and st[9] != seat else 0)
        if ub < top:
            fired["ub"] += 1
        if denied:
            fired["denied"] += 1
            assert not off.core.win(fs, top - denied + 1, st[11]), (seed, seat, st)
    assert all(v > 5 for v in fired.values()), fired


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


def _plays_bound(ctx: Ctx, st: State, q: int) -> int:
    """Plays seat q can still make at most: per number, min(copies, open cells of it in the
    colours q holds) (L1, L2), counted number by number."""
    hand = st[2] >> (q * ctx.hb) & ctx.hmask
    free = ctx.hand_cols(hand) & ~st[0] & ctx.pc[st[3] >> (4 * q) & 15]
    return sum(
        min(hand >> 3 * (k - 1) & 7, (free & ctx.col[k]).bit_count())
        for k in range(1, ctx.max_number + 1)
    )


def _surely_makes(ctx: Ctx, st: State, q: int, plays: int, most: list[int]) -> bool:
    """bounds.h surely_makes, number by number (the proof is in its comment)."""
    if plays <= 0:
        return True
    n_pl, leader, cnt = ctx.players, st[5], st[6]

    def done(r: int) -> int:
        return int(bool(cnt) and (r - leader) % n_pl < cnt)

    def before(r: int, trick: int) -> int:
        if trick > 0:
            return trick + 1 - done(r)
        pr, pq = (r - leader) % n_pl, (q - leader) % n_pl
        return int(cnt <= pr < pq)

    def hand(r: int) -> int:
        return st[2] >> (r * ctx.hb) & ctx.hmask

    free = ctx.hand_cols(hand(q)) & ~st[0] & ctx.pc[st[3] >> (4 * q) & 15]
    if free.bit_count() < plays:
        return False
    trick = plays - 1 + done(q)
    others = [r for r in range(n_pl) if r != q]
    cap = {r: min(before(r, trick), most[r]) for r in others}
    cells = {r: free & ctx.pc[st[3] >> (4 * r) & 15] if cap[r] > 0 else 0 for r in others}
    fill = dict.fromkeys(others, 0)
    psi0 = red = 0
    for k in range(1, ctx.max_number + 1):
        f = free & ctx.col[k]
        if not f:
            continue
        h, nf = hand(q) >> 3 * (k - 1) & 7, f.bit_count()
        base = min(h, nf)
        psi0 += base
        contested = opp = 0
        for r in others:
            hr = hand(r) >> 3 * (k - 1) & 7
            if not f & cells[r] or not hr:
                continue
            contested |= f & cells[r]
            x = min((f & cells[r]).bit_count(), hr)
            fill[r] += x
            opp += min(x, cap[r])
        red += base - min(h, nf - min(contested.bit_count(), opp))
    phi = sum(min(fill[r], cap[r]) for r in others)
    return psi0 - min(red, phi) >= plays


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lane_counts_equal_a_plain_count(players: int) -> None:
    """The core counts plays per number in parallel (4-bit lanes, core.h): plays_bound and
    surely_makes of every seat equal the same counts made number by number, on states along
    random playouts (mid-trick too, permissions lost) and every play count."""
    rng = random.Random(60 + players)
    checked = sure = 0
    for seed in range(25):
        left = 3 + seed % 4
        pos = random_position(players, 9300 + seed, left, mid_trick=seed % players)
        nat = NativeEngine.for_position(pos, 0)
        ctx = nat.ctx
        for st in states_along(players, 9300 + seed, left, rng):
            most = [_plays_bound(ctx, st, q) for q in range(players)]
            for plays in range(1, st[11] + 1):
                got_most, got_sure = nat.core.play_bounds(flat(ctx, st), plays)
                assert list(got_most) == most, (seed, st)
                want = [_surely_makes(ctx, st, q, plays, most) for q in range(players)]
                assert list(got_sure) == want, (seed, st, plays)
                checked += 1
                sure += sum(want)
    assert checked > 100 and sure > 20, (checked, sure)


CROWD = 16  # search.h BOUND_CROWD (bounds.h crowded_trick): on by default since stop 23


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_crowded_doom_matches_the_full_search(players: int) -> None:
    """With BOUND_CROWD, wherever ``doomed`` fires beyond the plain bound (trick starts and
    mid-trick, every seat as S), the search without bounds agrees: S cannot avoid a paradox
    and para is never NOPAR. (The plain bound's claims: the test above.) It must fire at 3-5
    players; at 2 it never did (it only moves the plain bound's trick earlier, and 400 walks
    up to 7 tricks left gave no such state), so there the test only checks where it would."""
    rng = random.Random(70 + players)
    fired = 0
    for seed in range(200):
        left = 2 + seed % 4
        pos = random_position(players, 9500 + seed, left, mid_trick=seed % players)
        for st in states_along(players, 9500 + seed, left, rng):
            for seat in range(players):
                nat = NativeEngine.for_position(pos, seat)
                fs = flat(nat.ctx, st)
                nat.core.set_bounds(ALL_BOUNDS | CROWD)
                if not nat.core.static_bounds(fs)[2]:
                    continue
                nat.core.set_bounds(ALL_BOUNDS)
                if nat.core.static_bounds(fs)[2]:
                    continue
                fired += 1
                nat.core.set_bounds(0)
                assert not nat.core.win(fs, 0, st[11]), (seed, seat, st)
                assert nat.core.exact_para(fs, 0) != NOPAR, (seed, seat, st)
    assert fired > 2 or players == 2, fired


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_crowd_switch_keeps_every_answer(players: int) -> None:
    """BOUND_CROWD on and off: the same answers to every trick goal (lo, hi, pk), to para and
    to the score, at trick starts and mid-trick."""
    for seed in range(8):
        left = 2 + seed % (3 if players < 5 else 2)
        pos = random_position(players, 9600 + seed, left, mid_trick=seed % players)
        seat = seed % players
        goals = [(lo, hi, pk) for lo in range(left + 1) for hi in range(lo, left + 1)
                 for pk in (-1, 0, left)]  # fmt: skip
        got = []
        for mask in (ALL_BOUNDS, ALL_BOUNDS | CROWD, 2 | CROWD):
            nat = NativeEngine.for_position(pos, seat)
            nat.core.set_bounds(mask)
            fs = flat(nat.ctx, nat.state_of(pos))
            got.append(([nat.core.win(fs, lo, hi, pk) for lo, hi, pk in goals],
                        nat.core.exact_para(fs, 0), nat.core.exact_value(fs, 0)))  # fmt: skip
        assert got[0] == got[1] == got[2], seed


PARA_END = 32  # search.h BOUND_PARA_END (bounds.h para_cap): on by default


def _most_at_own_paradox(ctx: Ctx, seat: int) -> Callable[[State], int]:
    """For ``seat``: the most tricks S has won from a state when it causes a paradox, over
    every continuation (every seat cooperating); -1 when no continuation ends in S's paradox.
    One cache for every root, so the roots along one playout share their subtrees."""

    @cache
    def most(st: State) -> int:  # S's trick count at its paradox, absolute
        if st[11] == 0:
            return -1  # E1: no paradox
        lm = legal_mask(ctx, st)
        if not lm:
            return st[10] if to_play(ctx, st) == seat else -1  # X1, X3
        return max(most(apply(ctx, st, i)) for i in cells(lm))

    def from_root(root: State) -> int:
        m = most(root)
        return m - root[10] if m >= 0 else -1

    return from_root


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_para_cap_matches_the_full_search(players: int) -> None:
    """bounds.h para_cap: S's own paradox comes after at most min(ub, top - 1) more tricks of
    S (trick starts and mid-trick, random seats). Checked over every continuation from 3
    tricks left (2 at 5 players), and against the search without bounds from 4 tricks left (3
    at 5 players, over twice the playouts): S can force "no paradox, or its paradox after at
    most that many tricks". It must be below ub somewhere."""
    rng = random.Random(80 + players)
    below = 0
    mosts: dict[tuple[int, int], Callable[[State], int]] = {}  # a cache per playout and seat
    for seed, seat, nat, off, st in walks(players, 9700, 40 if players < 5 else 80, rng):
        # every continuation from 3 tricks left; at 5 players from 2, and the searches from 3
        # (a root of 3 tricks left costs 1-7 s in Python, a search without bounds from 4 up to
        # 12 s; the cap's proof does not depend on the player count)
        exhaustive, searched = (3, 4) if players < 5 else (2, 3)
        if st[11] > searched:
            continue
        ctx = nat.ctx
        most = mosts.setdefault((seed, seat), _most_at_own_paradox(ctx, seat))
        fs = flat(ctx, st)
        ub = nat.core.static_bounds(fs)[0]
        top = st[11] - (1 if s_played(ctx, seat, st) and st[9] != seat else 0)
        cap = min(ub, top - 1)
        below += cap < ub
        if st[11] <= exhaustive:
            assert most(st) <= cap, (seed, seat, st)
        assert off.core.win(fs, 0, st[11], cap), (seed, seat, st)
        assert off.core.exact_para(fs, 0) >= -cap, (seed, seat, st)
    assert below > 20, below


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_para_cap_switch_keeps_every_answer(players: int) -> None:
    """BOUND_PARA_END on and off (with the other bounds, and alone): the same answers to every
    trick goal (lo, hi, pk) with every paradox part, to para and to the score, at trick starts
    and mid-trick."""
    masks = (ALL_BOUNDS, ALL_BOUNDS | PARA_END, PARA_END, 0)
    switch_keeps_answers(players, 9800, masks, every_seat=False)


DUCK = 64  # search.h BOUND_DUCK (bounds.h s_ducks): on by default


def _at_s_turn(ctx: Ctx, seat: int, st: State, loses: Callable[[State, int], bool]) -> bool:
    """Whatever the seats before S in the current trick play, S has at its turn a legal play i
    with ``loses(state at S's turn, i)``; a seat stuck first ends the round (X3) and S has no
    turn."""
    lm = legal_mask(ctx, st)
    if not lm:
        return True
    if to_play(ctx, st) == seat:
        return any(loses(st, i) for i in cells(lm))
    return all(_at_s_turn(ctx, seat, apply(ctx, st, i), loses) for i in cells(lm))


def _loses_surely(ctx: Ctx, seat: int, st: State) -> bool:
    """_at_s_turn with a play declared neither red nor the led colour (it cannot win, W1)."""
    return _at_s_turn(ctx, seat, st, lambda at, i: i // ctx.max_number not in (0, at[7]))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_duck_matches_the_full_search(players: int) -> None:
    """bounds.h s_ducks: wherever it fires (trick starts and mid-trick, random seats), S surely
    has a losing play at its turn in the current trick (every play of the seats before it
    enumerated), and the search without bounds agrees with what win and para take from it:
    S can force "no paradox, or its paradox after at most min(ub, top - 2) more tricks"."""
    rng = random.Random(90 + players)
    fired = 0
    for seed, seat, nat, off, st in walks(players, 9900, 40 if players < 5 else 20, rng):
        ctx = nat.ctx
        fs = flat(ctx, st)
        if not nat.core.ducked(fs):
            continue
        fired += 1
        assert _loses_surely(ctx, seat, st), (seed, seat, st)
        cap = max(0, min(nat.core.static_bounds(fs)[0], st[11] - 2))
        assert off.core.win(fs, 0, st[11], cap), (seed, seat, st)
        assert off.core.exact_para(fs, 0) >= -cap, (seed, seat, st)
    assert fired > 20, fired


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_duck_switch_keeps_every_answer(players: int) -> None:
    """BOUND_DUCK on and off (with the other bounds, and alone): the same answers to every
    trick goal (lo, hi, pk) with every paradox part, to para and to the score, at trick starts
    and mid-trick, every seat as S."""
    switch_keeps_answers(
        players, 9950, (ALL_BOUNDS | PARA_END, ALL_BOUNDS | PARA_END | DUCK, DUCK, 0)
    )


def _held_below_ub(
    players: int,
    first: int,
    rng: random.Random,
    fires: Callable[[NativeEngine, int, State], bool],
    claim: Callable[[Ctx, int, State], bool],
) -> int:
    """Over the states of ``walks`` (seeds from ``first``; 120 playouts, 60 at 5 players)
    where a strategy bound ``fires``: its ``claim`` holds (enumerated), and at every third one
    the search without bounds agrees that S can force "no paradox and at most ub - 1 more
    tricks" (ub: round_end's cap). Returns how often it fired."""
    fired = 0
    for seed, seat, nat, off, st in walks(players, first, 120 if players < 5 else 60, rng):
        if not fires(nat, seat, st):
            continue
        fired += 1
        assert claim(nat.ctx, seat, st), (seed, seat, st)
        if fired % 3 == 0:
            fs = flat(nat.ctx, st)
            ub = nat.core.static_bounds(fs)[0]
            assert off.core.win(fs, 0, max(0, ub - 1)), (seed, seat, st)
    return fired


SAFE_DUCK = 128  # search.h BOUND_SAFE_DUCK (bounds.h s_safe_ducks): on by default


def _loses_below(ctx: Ctx, seat: int, st: State) -> bool:
    """_at_s_turn with a play worth less than the trick's winning play so far (W1: it cannot
    win)."""
    n = ctx.max_number

    def below(at: State, i: int) -> bool:
        c, k = divmod(i, n)
        value = RED_BONUS + k + 1 if c == 0 else (k + 1 if c == at[7] else -1)
        return value < at[8]

    return _at_s_turn(ctx, seat, st, below)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_safe_duck_matches_the_full_search(players: int) -> None:
    """bounds.h s_safe_ducks with s_safe: wherever it fires (trick starts and mid-trick,
    random seats), S surely has a losing play at its turn in the current trick (every play of
    the seats before it enumerated), and (at every third such state, the costly part) the
    search without bounds agrees with what win takes from it: S can force "no paradox and at
    most ub - 1 more tricks" (ub: round_end's cap)."""
    fired = _held_below_ub(
        players, 9600, random.Random(70 + players),
        lambda nat, seat, st: bool(nat.core.safe_ducked(flat(nat.ctx, st))), _loses_below,
    )  # fmt: skip
    assert fired > 50, fired


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_safe_duck_switch_keeps_every_answer(players: int) -> None:
    """BOUND_SAFE_DUCK on and off (with the other bounds, and with BOUND_SAFE alone, whose
    strategy it extends): the same answers to every trick goal (lo, hi, pk) with every paradox
    part, to para and to the score, at trick starts and mid-trick, every seat as S."""
    full = ALL_BOUNDS | PARA_END | DUCK
    switch_keeps_answers(players, 9650, (full, full | SAFE_DUCK, 1 | SAFE_DUCK, 0))


BEATEN = 256  # search.h BOUND_BEATEN (bounds.h s_beaten): on by default


def _not_won(ctx: Ctx, seat: int, st: State) -> bool:
    """S has a legal play after which, whatever the rest of the trick plays, S does not win
    the current trick (a seat stuck first ends the round, X3); S is to play."""

    def after(s: State, trick_left: int) -> bool:  # every line to the trick's end
        if s[11] < trick_left:  # the trick is over: did S win it?
            return s[10] == st[10]
        lm = legal_mask(ctx, s)
        if not lm:
            return True
        return all(after(apply(ctx, s, i), trick_left) for i in cells(lm))

    return any(after(apply(ctx, st, i), st[11]) for i in cells(legal_mask(ctx, st)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_beaten_matches_the_full_search(players: int) -> None:
    """bounds.h s_beaten with s_safe: wherever it fires (S to play, trick starts and
    mid-trick), S has a legal play after which it does not win the current trick whatever the
    rest of the trick plays (enumerated), and (at every third such state) the search without
    bounds agrees: S can force "no paradox and at most ub - 1 more tricks"."""
    fired = _held_below_ub(
        players, 9500, random.Random(60 + players),
        lambda nat, seat, st: to_play(nat.ctx, st) == seat and nat.core.beaten(flat(nat.ctx, st)),
        _not_won,
    )  # fmt: skip
    assert fired > 30, fired


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_beaten_switch_keeps_every_answer(players: int) -> None:
    """BOUND_BEATEN on and off (with the other bounds, and with BOUND_SAFE alone): the same
    answers to every trick goal (lo, hi, pk) with every paradox part, to para and to the score,
    at trick starts and mid-trick, every seat as S."""
    full = ALL_BOUNDS | PARA_END | DUCK | SAFE_DUCK
    switch_keeps_answers(players, 9550, (full, full | BEATEN, 1 | BEATEN, 0))


LOST_TRICK = 512  # search.h BOUND_LOST_TRICK (bounds.h s_loses_trick, lost_cap): on by default


def _loses_trick(ctx: Ctx, seat: int, st: State) -> bool:
    """S has not played in the current trick and surely does not win it: it surely has a
    losing play at its turn (_loses_surely), or, to play, one after which it does not win the
    trick whatever the rest of the trick plays (_not_won)."""
    if s_played(ctx, seat, st):
        return False
    if to_play(ctx, st) == seat and _not_won(ctx, seat, st):
        return True
    return _loses_surely(ctx, seat, st)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lost_trick_matches_the_full_search(players: int) -> None:
    """bounds.h s_loses_trick and lost_cap: wherever it fires (trick starts and mid-trick,
    random seats), S surely does not win the current trick (enumerated), and the search
    without bounds agrees with what win and para take from it: S can force "at most ub - 1
    more tricks without a paradox, or its paradox after at most min(top - 2, ub - 1)"; para is
    at least minus that cap. It must fire below the plain duck's cap (top - 2) somewhere, and
    by a play of S's own that a later seat beats somewhere."""
    rng = random.Random(110 + players)
    fired = below = own = 0
    for seed, seat, nat, off, st in walks(players, 9400, 160 if players < 5 else 80, rng, 5):
        if st[11] > 4 - (players == 5):  # the search without bounds from 4 (3) tricks left
            continue
        ctx = nat.ctx
        fs = flat(ctx, st)
        cap = nat.core.lost_trick(fs)
        if cap < 0:
            continue
        fired += 1
        assert _loses_trick(ctx, seat, st), (seed, seat, st)
        ub = nat.core.static_bounds(fs)[0]
        assert cap == max(0, min(st[11] - 2, ub - 1)), (seed, seat, st)
        below += cap < max(0, st[11] - 2)
        own += not nat.core.ducked(fs)
        assert off.core.win(fs, 0, max(0, ub - 1), cap), (seed, seat, st)
        assert off.core.exact_para(fs, 0) >= -cap, (seed, seat, st)
    assert fired > 100 and below > 3 and own > 10, (fired, below, own)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lost_trick_switch_keeps_every_answer(players: int) -> None:
    """BOUND_LOST_TRICK on and off (with the other bounds, and alone): the same answers to
    every trick goal (lo, hi, pk) with every paradox part, to para and to the score, at trick
    starts and mid-trick, every seat as S."""
    full = ALL_BOUNDS | PARA_END | DUCK | SAFE_DUCK | BEATEN
    switch_keeps_answers(players, 9450, (full, full | LOST_TRICK, LOST_TRICK | DUCK, 0))


LOST_TWO = 1024  # search.h BOUND_LOST_TWO (bounds.h s_losers): off by default
NO_F2, NO_CROWD = 1, 2  # bounds.h LOST_TWO_NO_F2, LOST_TWO_NO_CROWD: the rule's mutants


def _losers_fired(
    players: int, first: int, seeds: int, mutant: int
) -> Iterator[tuple[int, int, NativeEngine, NativeEngine, State, int, int, int]]:
    """The states of walks (up to 5 tricks left; the search without bounds from 4, 3 at 5
    players) where bounds.h s_losers (with ``mutant``) fires: (seed, seat, engine, engine
    without bounds, state, j, cap, ub)."""
    rng = random.Random(130 + players + 7 * mutant)
    for seed, seat, nat, off, st in walks(players, first, seeds, rng, 5):
        if st[11] > 4 - (players == 5):
            continue
        fs = flat(nat.ctx, st)
        j, cap = nat.core.lost_tricks(fs, mutant)
        if j:
            yield seed, seat, nat, off, st, j, cap, nat.core.static_bounds(fs)[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_losers_match_the_full_search(players: int) -> None:
    """bounds.h s_losers (BOUND_LOST_TWO): wherever it fires (trick starts and mid-trick,
    random seats), S can force that it wins none of the j tricks it counts (enumerated up to 3
    tricks left, every other seat's play), and the search without bounds agrees with what win
    and para take from it: S can force "at most ub - j more tricks without a paradox, or its
    paradox after at most cap"; para is at least minus the cap. It must fire often, and where S
    has played in the trick (the next trick's loser) somewhere: at 3-5 players (at 2 players S
    has played in an unfinished trick only as its leader, and then it is winning it)."""
    fired = done = 0
    for seed, seat, nat, off, st, j, cap, ub in _losers_fired(players, 12400, 100, 0):
        ctx = nat.ctx
        fs = flat(ctx, st)
        s_done = s_played(ctx, seat, st)
        fired += 1
        done += s_done
        # the current trick counted when S has played in it and is not winning it (top)
        if st[11] <= 3:
            k = j + (s_done and st[9] != seat)
            assert wins_none(ctx, seat, st, k), (seed, seat, st)
        assert off.core.win(fs, 0, max(0, ub - j), cap), (seed, seat, st)
        assert off.core.exact_para(fs, 0) >= -cap, (seed, seat, st)
    assert fired > 100 and (done > 0 or players == 2), (fired, done)


@pytest.mark.parametrize(("players", "mutant"), [(3, NO_CROWD), (4, NO_CROWD), (5, NO_CROWD)])
def test_losers_mutant_without_crowding_is_refuted(players: int, mutant: int) -> None:
    """s_losers without the other seats' plays into S's losing cells (LOST_TWO_NO_CROWD)
    claims a cap that the search without bounds refutes somewhere: the crowding is needed."""
    refuted = 0
    for _, _, _, off, st, j, cap, ub in _losers_fired(players, 12000, 120, mutant):
        refuted += not off.core.win(flat(off.ctx, st), 0, max(0, ub - j), cap)
        if refuted:
            break
    assert refuted


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_losers_switch_keeps_every_answer(players: int) -> None:
    """BOUND_LOST_TWO on and off (with the other bounds, and with BOUND_LOST_TRICK alone): the
    same answers to every trick goal (lo, hi, pk) with every paradox part, to para and to the
    score, at trick starts and mid-trick, every seat as S."""
    full = ALL_BOUNDS | PARA_END | DUCK | SAFE_DUCK | BEATEN | LOST_TRICK
    switch_keeps_answers(players, 12600, (full, full | LOST_TWO, LOST_TRICK | LOST_TWO, 0))


def test_losers_mutant_without_f2_is_refuted() -> None:
    """s_losers' next-trick loser must drop trick 0's led colour from S's losing cells (F2):
    3 players, 3 tricks left, every red cell filled; seat 1 led 1B, seat 2 to play, then S
    (seat 0) with 5, 5, 6, 6 and only their blue and yellow cells open, the others holding 2-4.
    S must duck trick 0 in yellow (its blues would win) and so loses blue (F2); a low yellow
    lead in trick 1 then leaves it only winning yellows. The rule counts one loser there; the
    mutant that forgets F2 (LOST_TWO_NO_F2) claims two, which the enumeration and the search
    without bounds refute."""
    blue, yellow, green = 1, 2, 3
    empty = [(blue, k) for k in (2, 3, 4, 5, 6)] + [(yellow, k) for k in (2, 3, 4, 5, 6)]
    empty += [(green, k) for k in (2, 3, 4)]
    occ, nat, off = built_3p(empty)
    fs = (occ, 0, 0xFFF, 1, 1, blue, 1, 1, 0, 3, hand_word(5, 5, 6, 6), hand_word(2, 3, 4),
          hand_word(2, 3, 4, 4))  # fmt: skip
    st = unflat(nat.ctx, fs)
    ub = nat.core.static_bounds(fs)[0]
    assert nat.core.lost_tricks(fs) == (1, 1)
    assert off.core.win(fs, 0, ub - 1, 1)
    assert wins_none(nat.ctx, 0, st, 1)
    j, cap = nat.core.lost_tricks(fs, NO_F2)
    assert (j, cap) == (2, 0)
    assert not wins_none(nat.ctx, 0, st, 2)
    assert not off.core.win(fs, 0, ub - j, cap)
