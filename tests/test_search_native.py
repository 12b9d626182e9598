"""The compiled search core (catbox.solver.search._native) is built, in use, and agrees with
the rules engine (move generation step by step on random playouts), with the Python engine's
static bounds, and with the Python engine and tests/reference.py on every answer family."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from catbox.solver import Position
from catbox.solver.answers import Witness
from catbox.solver.deal import random_position
from catbox.solver.limits import Limits
from catbox.solver.scoring import seat_score
from catbox.solver.search import (
    Target,
    _native,
    analyze_moves,
    api,
    best_score_line,
    can_force,
    clear_cache,
    forced,
    main_line,
    native,
)
from catbox.solver.search.engine import Engine
from catbox.solver.search.families import mirror_play
from catbox.solver.search.native import NativeEngine, flat, unflat
from catbox.solver.search.state import apply, cells, from_position, legal_mask, to_play

from .searching import assert_forced_matches_reference, s_played


def test_native_core_is_built_and_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI fails if the extension did not build: the slow fallback never passes silently."""
    assert native.IMPORT_ERROR is None, native.IMPORT_ERROR
    import catbox.solver.search._native as mod

    assert mod.__file__ is not None and mod.__file__.endswith(".so")
    monkeypatch.delenv("CATBOX_ENGINE", raising=False)
    assert api.default_engine() == "native"
    pos = random_position(3, 1, 2)
    assert isinstance(api._engine(pos, 0, None, None, None)[0], NativeEngine)
    monkeypatch.setenv("CATBOX_ENGINE", "python")
    assert api.default_engine() == "python"


# ---------------------------------------------------------------------- move generation
def _playout(pos: Position, seat: int, rng: random.Random) -> int:
    """A random playout compared step by step: the native legal mask with the rules engine's
    plays (L1-L3, X1), the native transition with the rules engine's next position (P1, F2,
    W1, W3) and with the Python packed state."""
    ctx, st = from_position(pos, seat)
    eng = NativeEngine(pos.players, seat, pos.seats[seat].prediction)
    fs = flat(ctx, st)
    steps = 0
    while True:
        pos = pos.settle()
        steps += 1
        assert unflat(ctx, fs) == st
        if st[11] == 0:
            assert pos.finished and pos.paradox is None
            return steps
        lm = eng.core.legal_mask(fs)
        assert lm == legal_mask(ctx, st)
        plays = pos.legal_plays() if pos.paradox is None else []
        assert sorted(ctx.play_of(i) for i in cells(lm)) == plays
        if not lm:
            assert pos.paradox == to_play(ctx, st)
            return steps
        idx = rng.choice(cells(lm))
        pos = pos.play(ctx.play_of(idx))
        fs = eng.core.apply(fs, idx)
        st = apply(ctx, st, idx)
        assert unflat(ctx, fs) == from_position(replace(pos, paradox=None), seat)[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_movegen_matches_rules_engine(players: int) -> None:
    rng = random.Random(players)
    steps = 0
    for seed in range(40):
        tricks = 1 + seed % (7 if players == 5 else 8)
        pos = random_position(players, 7000 + seed, tricks, mid_trick=seed % players)
        for seat in range(players):
            steps += _playout(pos, seat, rng)
    assert steps > 500


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bounds_and_merge_match_python(players: int) -> None:
    """never_stuck, s_plays_bound, group_bound, the largest group (Sc3) and merged plays."""
    rng = random.Random(100 + players)
    for seed in range(30):
        pos = random_position(players, 8000 + seed, 1 + seed % 6, mid_trick=seed % players)
        seat = seed % players
        py = Engine.for_position(pos, seat)
        nat = NativeEngine.for_position(pos, seat)
        ctx, st = from_position(pos, seat)
        while st[11] > 0:
            lm = legal_mask(ctx, st)
            if not lm:
                break
            fs = flat(ctx, st)
            s_done = int(s_played(ctx, seat, st))
            plays = rng.randrange(0, st[11] + 1)
            got = nat.core.bounds(fs, s_done, plays)
            assert got == (
                py.never_stuck(st, s_done),
                py.s_plays_bound(st),
                py.group_bound(st, plays),
                py.group(st[1]),
            )
            p = to_play(ctx, st)
            if st[6]:
                assert nat.core.merge(fs, lm, p) == py.merge(st, lm, p)
            st = apply(ctx, st, rng.choice(cells(lm)))


# ---------------------------------------------------------------------- answers
def _forced_tuple(pos: Position, seat: int, engine: api.EngineKind) -> tuple[object, ...]:
    f = forced(pos, seat, engine=engine)
    assert f.status == "proven"
    return (f.guaranteed, f.forceable, f.at_least, f.at_most, f.best_score)


def _targets(pos: Position, seat: int) -> list[Target]:
    t = pos.seats[seat].tricks
    out = [Target("avoid-paradox")]
    for k in range(t, t + pos.tricks_left + 1):
        out += [Target("exactly", k), Target("at-least", k), Target("at-most", k)]
    return out


def _check_line(pos: Position, seat: int, target: Target, line: tuple[object, ...]) -> None:
    end = Witness.of(pos, list(line)).verify(pos)  # type: ignore[arg-type]
    assert end.finished and end.paradox != seat
    k = end.seats[seat].tricks
    lo, hi = target.interval(0, pos.tricks_left + end.seats[seat].tricks)
    assert lo <= k <= hi


def _walk(players: int, seed: int, tricks_left: int) -> list[Position]:
    """Every position of one random playout from a random position (each ply: mid-trick ones
    too) until the round ends; random_position is slow at few tricks left, a playout is not."""
    rng = random.Random(seed)
    pos = random_position(players, seed, tricks_left).settle()
    out = []
    while not pos.finished:
        out.append(pos)
        pos = pos.play(rng.choice(pos.legal_plays())).settle()
    return out


# (players, tricks left at the start of the playouts, positions): 2,000+ positions in all
FAMILY = [(2, 4, 500), (3, 4, 600), (4, 4, 30), (4, 3, 500), (5, 3, 50), (5, 2, 600)]


@pytest.mark.parametrize(("players", "tricks_left", "positions"), FAMILY)
def test_every_answer_family_agrees_with_python(
    players: int, tricks_left: int, positions: int
) -> None:
    """forced (guaranteed, forceable, at_least, at_most, best_score), analyze_moves rows,
    can_force on every target, main_line validity and best_score_line: native == Python, on
    every position of random playouts (1-4 tricks left, mid-trick too)."""
    count = w = 0
    while count < positions:
        w += 1
        for i, pos in enumerate(_walk(players, 20_000 + 100 * players + w, tricks_left)):
            count += 1
            clear_cache()
            seats = sorted({pos.to_play or 0, (w + i) % players})
            for seat in seats:
                got = _forced_tuple(pos, seat, "native")
                assert got == _forced_tuple(pos, seat, "python"), (players, w, i, seat)
            assert analyze_moves(pos, engine="native") == analyze_moves(pos, engine="python")
            if i % 3 == 0:
                seat = seats[-1]
                for target in _targets(pos, seat):
                    nat = can_force(pos, seat, target, engine="native")
                    assert nat == can_force(pos, seat, target, engine="python")
                    line = main_line(pos, seat, target, engine="native")
                    assert (line is not None) == bool(nat[0])
                    if line is not None:
                        _check_line(pos, seat, target, line)
                v, pv = best_score_line(pos, seat, engine="native")
                assert v == best_score_line(pos, seat, engine="python")[0]
                if pv is not None:
                    assert seat_score(Witness.of(pos, list(pv)).verify(pos), seat) == v


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_agrees_with_reference(players: int) -> None:
    """The exhaustive rules-engine solver on small positions (1-2 tricks, mid-trick too)."""
    for i in range(40):
        tl = 1 + i % 2
        pos = random_position(players, 30_000 + 100 * players + i, tl, mid_trick=i % players)
        clear_cache()
        assert_forced_matches_reference(pos)


def test_node_limit_is_deterministic_and_never_a_guess() -> None:
    pos = random_position(4, 4242, 4)
    full = forced(pos, pos.to_play or 0, engine="native")
    runs = {
        forced(pos, pos.to_play or 0, limits=Limits(node_limit=500), engine="native")
        for _ in range(3)
    }
    assert len(runs) == 1
    (small,) = runs
    if small.status == "unknown":
        for field in ("guaranteed", "at_least", "at_most", "best_score"):
            got = getattr(small, field)
            assert got is None or got == getattr(full, field)


def test_the_node_profile_counts_every_node_once() -> None:
    """Engine.profile (cxx/search.h Profile): its node kinds add up to the node count, by
    tricks left and side, over alpha-beta, df-pn and score questions; the static answers it
    counts beside them appear; clear() resets it."""
    pos = random_position(4, 4243, 5)
    seat = pos.to_play or 0
    nat = NativeEngine.for_position(pos, seat)
    fs = nat._flat(nat.state_of(pos))
    nat.core.configure(True, 2, False, False, 2, 2, True, 4.0, True, False, 0)
    nat.core.solve(fs, 0, 5)  # df-pn from 2 tricks left, without the alpha-beta probe first
    nat.core.win(fs, 0, 5, 2)  # alpha-beta
    nat.core.set_para_pn(0)
    nat.core.set_score_bounds(0)
    nat.core.exact_para(fs, 0)  # para's and value's alpha-beta
    nat.core.exact_value(fs, 0)
    rows = nat.core.profile()
    assert sum(sum(r[2:6]) for r in rows) == nat.core.nodes() > 0
    assert {r[0] for r in rows} <= set(range(6)) and max(r[0] for r in rows) == 5
    assert {r[1] for r in rows} == {0, 1}  # S to play, and the others
    for kind in range(2, 8):  # win, pn_eval, pn_mid, score, static yes, static no
        assert sum(r[kind] for r in rows) > 0, kind
    nat.core.clear()
    assert nat.core.profile() == []


def test_memory_cap_keeps_answers() -> None:
    """A tiny table cap (for every native engine in the process) forces replacements in full
    buckets; answers stay exact."""
    try:
        for seed in range(6):
            pos = random_position(4, 5000 + seed, 3, mid_trick=seed % 4)
            seat = pos.to_play or 0
            py = Engine.for_position(pos, seat)
            tiny = NativeEngine(pos.players, seat, pos.seats[seat].prediction, tt_bytes=1)
            st = tiny.state_of(pos)
            for lo, hi in ((0, st[11]), (1, st[11]), (0, 1), (2, 2)):
                assert tiny.win(st, lo, hi) == py.win(st, lo, hi)
            assert tiny.exact_value(st) == py.exact_value(st)
            assert tiny.core.bytes() < 2 << 20  # four tables at their first size
    finally:
        NativeEngine(3, 0, None)  # the default cap again


def test_tables_keep_every_entry_when_they_grow() -> None:
    """The tables double in place (cxx/table.h Table::grow splits each bucket in two; past
    2 MiB the memory grows by mremap): after two questions that grew the AND-OR table from its
    first 4,096 slots to over 100 MiB, asking them again costs one node each (the root's
    entry is still there)."""
    pos = random_position(3, 700, 6)
    seat = pos.to_play
    assert seat is not None
    eng = NativeEngine.for_position(pos, seat)
    # without the paradox part's bounds (search.h BOUND_PARA_END, BOUND_DUCK) the second
    # question is large enough to grow the table that far (with them it takes ~18 MiB)
    eng.core.set_bounds(15)
    st = eng.state_of(pos)
    fs, left = flat(eng.ctx, st), st[11]
    goals = ((0, left, -1), (0, left, 3))  # avoid a paradox; or S's paradox within 3 tricks
    assert [eng.core.win(fs, *g) for g in goals] == [False, True]
    assert eng.core.bytes() > 100 << 20
    before = eng.core.nodes()
    assert [eng.core.win(fs, *g) for g in goals] == [False, True]
    assert eng.core.nodes() - before == len(goals)


def _grown(seed: int) -> tuple[tuple[list[bool], int, int], int]:
    """test_tables_keep_every_entry_when_they_grow's two questions at 3p / 6 seed `seed` on a
    new engine, dropped after: (the answers, the nodes, the table memory), and the pool's
    memory before the engine was dropped."""
    pos = random_position(3, seed, 6)
    eng = NativeEngine.for_position(pos, pos.to_play or 0)
    eng.core.set_bounds(15)
    st = eng.state_of(pos)
    fs, left = flat(eng.ctx, st), st[11]
    answers = [eng.core.win(fs, *g) for g in ((0, left, -1), (0, left, 3))]
    return (answers, eng.core.nodes(), eng.core.bytes()), _native.pool_bytes()


def test_new_tables_grow_on_the_memory_dropped_tables_left() -> None:
    """A dropped engine's tables leave their memory to the next tables (cxx/table.h Pool,
    which spares the kernel zeroing fresh pages). Pages that still hold another search's
    entries change nothing: a slot is read only under its tag, and the tags are zeroed, so the
    same questions take the same nodes as on fresh memory."""
    _native.drop_pool()
    fresh, _ = _grown(700)  # on fresh memory
    assert fresh[2] > 100 << 20 and _native.pool_bytes() > 100 << 20  # left when dropped
    _grown(701)  # another search writes over that memory, and leaves it again
    kept = _native.pool_bytes()
    again, pool = _grown(700)
    assert again == fresh  # answers, nodes, table size
    assert pool < kept - (100 << 20)  # it grew on the memory left
    _native.drop_pool()
    assert _native.pool_bytes() == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork: POSIX only")
def test_a_forked_worker_grows_its_tables_on_the_memory_it_inherited() -> None:
    """A worker forked from a process holding dropped tables' memory (a batch's pool of
    workers) inherits it as its own copy and grows its tables on it (the pool's lock is
    held across the fork, so a fork during another thread's table growth cannot leave it
    locked in the child); the parent's pool is unchanged."""
    _native.drop_pool()
    fresh, _ = _grown(700)
    kept = _native.pool_bytes()
    assert kept > 100 << 20
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer and report, then leave without pytest's teardown
        try:
            again, pool = _grown(700)
            os.write(write, repr((again == fresh, pool < kept - (100 << 20))).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        told = got.read()
    os.waitpid(pid, 0)
    assert told == "(True, True)"
    assert _native.pool_bytes() == kept
    _native.drop_pool()


# (players, tricks left, seed, plays made in the trick): positions where some of the seat to
# play's plays mirror each other under B/Y/G symmetry (found by scanning seeds 0-99)
MIRRORED = [(2, 6, 36, 0), (3, 5, 83, 2), (3, 6, 26, 2), (3, 6, 39, 0)]


@pytest.mark.parametrize(("players", "tricks_left", "seed", "mid"), MIRRORED)
def test_mirrored_rows_match_their_own_search(
    players: int, tricks_left: int, seed: int, mid: int
) -> None:
    """analyze_moves searches one play per symmetry class; every row equals the answers of
    its own position searched from scratch (so the symmetry claim is checked, not assumed)."""
    pos = random_position(players, seed, tricks_left, mid_trick=mid)
    seat = pos.to_play
    assert seat is not None
    eng = NativeEngine.for_position(pos, seat)
    st = eng.state_of(pos)
    twins = [i for i, _ in eng.children(st) if mirror_play(eng.ctx, st, i) is not None]
    assert twins
    clear_cache()
    rows = {r.play: r for r in analyze_moves(pos)}
    for idx in twins:
        for play in (eng.ctx.play_of(idx), eng.ctx.play_of(mirror_play(eng.ctx, st, idx) or 0)):
            clear_cache()
            f = forced(pos.play(play), seat)
            row = rows[play]
            assert row.status == f.status == "proven"
            assert (row.guaranteed, row.forceable, row.best_score) == (
                f.guaranteed,
                f.forceable,
                f.best_score,
            ), play


@pytest.mark.parametrize("players", [3, 4])
def test_algorithm_switches_keep_answers(players: int) -> None:
    """Every measured switch (no symmetric-play merge, tables down to the last trick, sibling
    prefetch, colour-canonical keys) gives the Python engine's answers."""
    for seed in range(8):
        pos = random_position(players, 6000 + seed, 3, mid_trick=seed % players)
        seat = seed % players
        py = Engine.for_position(pos, seat)
        st = py.state_of(pos)
        want: list[int] = [py.win(st, lo, hi) for lo, hi in ((0, 3), (1, 3), (0, 1))]
        want.append(py.exact_value(st))
        for switches in ((False, 0, False, False), (True, 1, True, True), (True, 3, False, True)):
            nat = NativeEngine.for_position(pos, seat)
            nat.core.configure(*switches)
            nat._tuned = switches[1]
            fs = flat(nat.ctx, st)
            got: list[int] = [nat.core.win(fs, lo, hi) for lo, hi in ((0, 3), (1, 3), (0, 1))]
            got.append(nat.core.exact_value(fs, st[10]))
            assert got == want, (seed, switches)


# ---------------------------------------------------------------------- proof numbers
def _pn_engine(
    pos: Position,
    seat: int,
    leaf: int,
    eps: float,
    probe: int,
    lazy: bool = False,
    other: int | None = None,
    refuters: bool = False,
    age: int = 0,
) -> NativeEngine:
    """Every root by proof numbers (after an alpha-beta probe of `probe` nodes: 0, none;
    `lazy`: children's numbers guessed until one is the most proving, search.h pn_lazy;
    `other`: the other seats' initial disproof numbers, search.h pn_other, else the default;
    `refuters`: the other seats' plays ordered by their refutations per tricks left, search.h
    pn_refuters; `age`: the history divided by 2^age before each question, search.h
    hist_age)."""
    eng = NativeEngine.for_position(pos, seat)
    eng.pn_from = 1
    eng.core.configure(True, 2, False, False, 1, leaf, True, eps, True, False, probe, lazy)
    if other is not None:
        eng.core.set_pn_other(other)
    eng.core.set_pn_refuters(int(refuters))
    eng.core.set_hist_age(age)
    return eng


def _shallow_roots(players: int, seed: int, n: int) -> list[tuple[Position, int]]:
    """n random roots with 1-4 tricks left (1-3 at 5 players), every seat's turn mid-trick in
    turn, with the seat to play."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        left = 1 + i % (3 if players == 5 else 4)
        pos = random_position(players, rng.randrange(10**6), left, mid_trick=i % players)
        assert pos.to_play is not None
        out.append((pos, pos.to_play))
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_proof_number_search_agrees_with_alpha_beta(players: int) -> None:
    """df-pn (pn.cpp) and alpha-beta (win) answer every goal alike: avoid a paradox (X1),
    trick intervals, and the goals with a paradox allowed after pk more tricks, from roots of 1-4
    tricks left (1-3 at 5 players; mid-trick too), with proof-number nodes down to 1 trick
    left; a third of them after an alpha-beta probe that runs out mid-search (solve's
    portfolio); half of them with children guessed until first the most proving (pn_lazy);
    the other seats' initial disproof numbers from S's open cells (pn_other) off, 1 and 3;
    the other seats' plays ordered by their refutations per tricks left (pn_refuters) in
    three of every seven; the history aged before each question by 0, 1 or 2 (hist_age), the
    seven goals asked of one engine."""
    checked = 0
    for i, (pos, seat) in enumerate(_shallow_roots(players, 90 + players, 150)):
        ab = NativeEngine.for_position(pos, seat)
        pn = _pn_engine(
            pos,
            seat,
            leaf=1 + i % 3,
            eps=(0.25, 4.0)[i % 2],
            probe=(0, 0, 300)[i % 3],
            lazy=i % 4 >= 2,
            other=(0, 1, 3)[i % 5 % 3],
            refuters=i % 7 >= 4,
            age=i // 2 % 3,
        )
        st = ab.state_of(pos)
        n = st[11]
        goals = [(0, n, -1), (1, n, -1), (0, 1, -1), (n, n, -1), (0, n, 0), (0, n, 1), (1, 1, 0)]
        for lo, hi, pk in goals:
            assert pn.core.solve(flat(pn.ctx, st), lo, hi, pk) == ab.core.win(
                flat(ab.ctx, st), lo, hi, pk
            ), (players, i, lo, hi, pk)
            checked += 1
    assert checked == 150 * 7


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_proof_size_walks_a_proof_exactly_when_the_goal_holds(players: int) -> None:
    """NativeEngine.proof_size (a measurement for bench --only proof): None exactly when win
    says no; for a yes, its inner nodes by tricks left add up, lie at or below the root's
    tricks left, and end in static leaves; a root the static bounds decide is one leaf; a
    second walk counts the same, and the engine's answers after it are unchanged."""
    walked = 0
    for i, (pos, seat) in enumerate(_shallow_roots(players, 170 + players, 40)):
        eng = NativeEngine.for_position(pos, seat)
        st = eng.state_of(pos)
        n = st[11]
        for lo, hi, pk in [(0, n, -1), (1, n, -1), (0, 1, -1), (0, n, 0), (0, n, 1)]:
            yes = eng.win(st, lo, hi, pk)
            size = eng.proof_size(st, lo, hi, pk)
            assert (size is not None) == yes, (players, i, lo, hi, pk)
            if size is None:
                continue
            inner, leaves, by_left = size
            assert sum(by_left) == inner and leaves >= 1
            assert all(k == 0 for at, k in enumerate(by_left) if at > n)
            if inner == 0:
                assert leaves == 1  # the static bounds answer the root
            assert eng.proof_size(st, lo, hi, pk) == size
            assert eng.win(st, lo, hi, pk)
            walked += 1
    assert walked >= 40
