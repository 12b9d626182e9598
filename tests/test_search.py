"""catbox.solver.search against the exhaustive reference solver (tests/reference.py), plus the
consistency of its answers, lines, budgets and determinism."""

from __future__ import annotations

from dataclasses import replace

import pytest

from catbox.solver import Position, PositionError
from catbox.solver.answers import Witness
from catbox.solver.deal import random_position
from catbox.solver.limits import Limits
from catbox.solver.scoring import seat_score
from catbox.solver.search import (
    Session,
    Target,
    analyze_moves,
    best_score_line,
    can_force,
    clear_cache,
    forced,
    main_line,
)

from .reference import forced_answers

# (players, tricks left, plays already made in the current trick, seeds): several hundred
# (position, seat) pairs, every seat asked
CROSS = [
    (2, 1, 0, 8),
    (2, 1, 1, 8),
    (2, 2, 0, 8),
    (2, 2, 1, 8),
    (2, 3, 0, 6),
    (2, 3, 1, 6),
    (3, 1, 0, 5),
    (3, 1, 2, 5),
    (3, 2, 0, 6),
    (3, 2, 1, 6),
    (3, 2, 2, 6),
    (3, 3, 1, 3),
    (3, 3, 2, 3),
    (4, 1, 0, 4),
    (4, 1, 3, 4),
    (4, 2, 0, 4),
    (4, 2, 1, 4),
    (4, 2, 2, 4),
    (4, 2, 3, 4),
    (4, 3, 3, 2),
    (5, 1, 0, 3),
    (5, 2, 0, 3),
    (5, 2, 2, 3),
    (5, 2, 4, 3),
]


def _answers(pos: Position, seat: int) -> tuple[object, ...]:
    f = forced(pos, seat)
    assert f.status == "proven"
    return (f.guaranteed, frozenset(f.forceable or ()), f.at_least, f.at_most, f.best_score)


@pytest.mark.parametrize(("players", "tricks_left", "mid", "seeds"), CROSS)
def test_agrees_with_reference(players: int, tricks_left: int, mid: int, seeds: int) -> None:
    for seed in range(seeds):
        pos = random_position(players, 1000 + seed, tricks_left, mid_trick=mid)
        if seed % 2:
            clear_cache()  # half the positions start from an empty transposition table
        for seat in range(players):
            ref = forced_answers(pos, seat)
            expect = (ref.guaranteed, ref.forceable, ref.at_least, ref.at_most, ref.best_score)
            assert _answers(pos, seat) == expect, (players, tricks_left, mid, seed, seat)


def test_unknown_prediction_agrees_with_reference() -> None:
    for players in (3, 4, 5):
        for seed in range(4):
            pos = random_position(players, 50 + seed, 2, predictions=False)
            for seat in range(players):
                assert _answers(pos, seat)[4] == forced_answers(pos, seat).best_score


def test_finished_positions() -> None:
    pos = random_position(4, 7, 1)
    while not pos.finished:
        pos = pos.play(pos.legal_plays()[-1])
    for seat in range(4):
        ref = forced_answers(pos, seat)
        got = _answers(pos, seat)
        assert got == (ref.guaranteed, ref.forceable, ref.at_least, ref.at_most, ref.best_score)
        assert best_score_line(pos, seat) == (ref.best_score, ())
        assert best_score_line(pos, seat, with_line=False) == (ref.best_score, None)
    assert analyze_moves(pos) == []


# ---------------------------------------------------------------------- consistency
MID_POSITIONS = [
    random_position(players, seed, tricks_left, mid_trick=mid)
    for players, tricks_left in ((3, 3), (4, 2), (5, 2), (2, 3))
    for seed, mid in ((11, 0), (12, 1))
]


@pytest.mark.parametrize("pos", MID_POSITIONS)
def test_forced_is_consistent(pos: Position) -> None:
    for seat in range(pos.players):
        f = forced(pos, seat)
        assert f.status == "proven"
        if not f.guaranteed:
            assert f.forceable == () and f.at_least is None and f.at_most is None
            continue
        assert f.at_least is not None and f.at_most is not None
        for k in f.forceable or ():
            assert f.at_most <= k <= f.at_least
        t = pos.seats[seat].tricks
        assert t <= f.at_most and f.at_least <= t + pos.tricks_left
        assert can_force(pos, seat, Target("at-least", f.at_least)) == (True, "proven")
        if f.at_least < t + pos.tricks_left:
            assert can_force(pos, seat, Target("at-least", f.at_least + 1))[0] is False
        assert can_force(pos, seat, Target("at-most", f.at_most)) == (True, "proven")
        if f.at_most > t:
            assert can_force(pos, seat, Target("at-most", f.at_most - 1))[0] is False
        for k in range(t, t + pos.tricks_left + 1):
            assert can_force(pos, seat, Target("exactly", k))[0] == (k in (f.forceable or ()))


@pytest.mark.parametrize("pos", MID_POSITIONS)
def test_rows_agree_with_children(pos: Position) -> None:
    seat = pos.to_play
    assert seat is not None
    rows = analyze_moves(pos)
    assert [r.play for r in rows] == pos.legal_plays()
    for row in rows:
        clear_cache()
        child = forced(pos.play(row.play), seat)
        assert row.status == child.status == "proven"
        assert (row.guaranteed, row.forceable, row.best_score) == (
            child.guaranteed,
            child.forceable,
            child.best_score,
        )
    root = forced(pos, seat)
    assert root.guaranteed == any(r.guaranteed for r in rows)
    assert set(root.forceable or ()) == {k for r in rows for k in r.forceable or ()}
    assert root.best_score == max(r.best_score for r in rows if r.best_score is not None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_rows_counts_ask_at_most_only_as_far_as_they_need(players: int) -> None:
    """search api._row_tricks (the trick counts of an analyze_moves row) against ask_tricks (of
    forced): the same forceable counts and at least, and at most either the same or left
    None exactly when it lies above at least; the root's answers combined from the rows
    (partial.combine) are the root's own whenever they are decided, and undecided only when a
    row's at most is unknown and could be the smallest."""
    from catbox.solver.search.api import _engine
    from catbox.solver.search.families import ask_row_tricks, ask_tricks
    from catbox.solver.search.partial import Partial, combine

    lazy = stored = undecided = 0
    for seed in range(12):
        pos = random_position(players, 300 + seed, 3, mid_trick=seed % 2)
        seat = pos.to_play
        assert seat is not None
        eng, _ = _engine(pos, seat, None, None, Session())
        outs = []
        for _, ch in eng.children(eng.state_of(pos)):
            g = Partial(guaranteed=eng.win(ch, 0, ch[11]))
            row, full = [list(f(eng, ch, g))[-1] for f in (ask_row_tricks, ask_tricks)]
            assert (row.forceable, row.at_least) == (full.forceable, full.at_least)
            if row.at_most is None and g.guaranteed:
                assert full.at_most is not None and row.at_least is not None
                assert full.at_most > row.at_least and full.forceable == ()
                lazy += 1
            else:
                assert row.at_most == full.at_most
            outs.append(replace(row, best_score=0))
        s = Session()
        rows = analyze_moves(pos, session=s)
        root = forced(pos, seat, session=s)
        _, store = s.engine(pos, seat)
        assert store is not None
        if store:  # combined from the rows: no search, the root's own answers
            assert root.nodes == 0
            stored += 1
        else:
            assert combine(outs) is None
            undecided += 1
        again = forced(pos, seat, session=Session())
        assert replace(root, nodes=0) == replace(again, nodes=0)
        assert set(again.forceable or ()) == {k for r in rows for k in r.forceable or ()}
    assert lazy >= 1 and stored >= 1, (lazy, stored, undecided)


def _check_line(pos: Position, seat: int, target: Target, line: tuple[object, ...]) -> None:
    """The line replays; at every S turn the goal is still forceable after S's play, and at
    every other seat's turn every reply (not just the line's) leaves it forceable."""
    p = pos.settle()
    for play in line:
        if p.to_play == seat:
            assert can_force(p, seat, target)[0] is True
        else:
            for reply in p.legal_plays():
                assert can_force(p.play(reply), seat, target)[0] is True
        p = p.play(play)  # type: ignore[arg-type]
    assert p.finished and p.paradox != seat
    lo, hi = target.interval(p.seats[seat].tricks, 0)
    assert lo <= 0 <= hi


@pytest.mark.parametrize("pos", MID_POSITIONS[:8])
def test_main_lines_reach_the_goal(pos: Position) -> None:
    for seat in range(pos.players):
        f = forced(pos, seat)
        targets = [Target("avoid-paradox")]
        if f.guaranteed:
            assert f.at_least is not None and f.at_most is not None
            targets += [Target("at-least", f.at_least), Target("at-most", f.at_most)]
            targets += [Target("exactly", k) for k in f.forceable or ()]
        for target in targets:
            ok = can_force(pos, seat, target)[0]
            line = main_line(pos, seat, target)
            if not ok:
                assert line is None
                continue
            assert line is not None
            Witness.of(pos, line).verify(pos)
            _check_line(pos, seat, target, line)
        t = pos.seats[seat].tricks
        too_many = Target("at-least", t + pos.tricks_left + 1)
        assert main_line(pos, seat, too_many) is None


@pytest.mark.parametrize("pos", MID_POSITIONS)
def test_best_score_line(pos: Position) -> None:
    for seat in range(pos.players):
        value, line = best_score_line(pos, seat)
        assert value == forced(pos, seat).best_score
        assert line is not None
        end = Witness.of(pos, line).verify(pos)
        assert seat_score(end, seat) == value
        assert best_score_line(pos, seat, session=Session(), with_line=False) == (value, None)


# ---------------------------------------------------------------------- budgets, determinism
def test_limits_never_guess() -> None:
    pos = random_position(4, 3, 3)
    seat = pos.to_play
    assert seat is not None
    clear_cache()
    exact = forced(pos, seat)
    for limit in (1, 50, 500, 5000):
        f = forced(pos, seat, limits=Limits(node_limit=limit))
        if f.status == "unknown":
            for name in ("guaranteed", "forceable", "at_least", "at_most", "best_score"):
                got = getattr(f, name)
                assert got is None or got == getattr(exact, name), name
            assert f.best_score is None
        else:
            assert f == replace(exact, nodes=f.nodes)
        assert forced(pos, seat, limits=Limits(node_limit=limit)) == f  # the same every run
    assert forced(pos, seat, limits=Limits(node_limit=1)).status == "unknown"
    # one node may already settle "avoid paradox" by a static proof (never a guess)
    assert can_force(pos, seat, Target("avoid-paradox"), limits=Limits(node_limit=1)) in (
        (None, "unknown"),
        (exact.guaranteed, "proven"),
    )
    line = main_line(pos, seat, Target("avoid-paradox"), limits=Limits(node_limit=1))
    if line is not None:
        assert Witness.of(pos, line).verify(pos).paradox != seat
    assert best_score_line(pos, seat, limits=Limits(node_limit=1)) == (None, None)
    rows = analyze_moves(pos, limits=Limits(node_limit=1))
    assert rows and all(r.status == "unknown" and r.best_score is None for r in rows)
    f0 = forced(pos, seat, limits=Limits(0.0))  # no time at all: unknown, or (cached) exact
    if f0.status == "proven":
        assert f0 == replace(exact, nodes=f0.nodes)
    else:
        assert f0.status == "unknown"
        for name in ("guaranteed", "forceable", "at_least", "at_most", "best_score"):
            assert getattr(f0, name) in (None, getattr(exact, name)), name


def test_deterministic() -> None:
    pos = random_position(4, 21, 3, mid_trick=1)
    seat = pos.to_play
    assert seat is not None
    runs = []
    for fresh in (True, False, True):
        if fresh:
            clear_cache()
        f = forced(pos, seat)
        runs.append(
            (
                replace(f, nodes=0),
                analyze_moves(pos),
                main_line(pos, seat, Target("avoid-paradox")),
                best_score_line(pos, seat),
            )
        )
    assert runs[0] == runs[1] == runs[2]


def test_needs_known_hands() -> None:
    pos = random_position(3, 1, 2).hide([1])
    with pytest.raises(PositionError):
        forced(pos, 0)
    with pytest.raises(PositionError):
        Target("exactly")


# ---------------------------------------------------------------------- engine goals
@pytest.mark.parametrize(
    ("players", "tricks_left", "mid"), [(3, 2, 1), (4, 2, 2), (5, 2, 0), (4, 3, 3)]
)
def test_paradox_allowance_goal_agrees_with_reference(
    players: int, tricks_left: int, mid: int
) -> None:
    """``win(st, lo, hi, pk)``: no paradox by S with lo..hi more tricks, or a paradox by S with
    at most pk more tricks (the score's negative regime, Sc1)."""
    from catbox.solver.search.engine import Engine

    from .reference import forced as ref_forced

    for seed in range(3):
        pos = random_position(players, 2000 + seed, tricks_left, mid_trick=mid).settle()
        for seat in range(players):
            eng = Engine.for_position(pos, seat)
            st = eng.state_of(pos)
            t = pos.seats[seat].tricks
            goals = [(0, tricks_left, 0), (0, tricks_left, 1), (1, 0, 1), (1, 1, 0)]
            goals += [(0, tricks_left - 1, -1), (0, 0, -1), (1, tricks_left, -1)]
            for lo, hi, pk in goals:

                def goal(
                    p: Position, lo: int = lo, hi: int = hi, pk: int = pk, s: int = seat, t: int = t
                ) -> bool:
                    got = p.seats[s].tricks - t
                    if p.paradox == s:
                        return got <= pk
                    return lo <= got <= hi

                assert eng.win(st, lo, hi, pk) == ref_forced(pos, seat, goal), (
                    seed,
                    seat,
                    lo,
                    hi,
                    pk,
                )


def test_never_stuck_certificate_is_sound() -> None:
    """Whenever the static "S can never be stuck" proof fires, the reference agrees that S can
    always avoid causing a paradox (positions along random playouts, so permissions get lost)."""
    import random

    from catbox.solver.search.engine import Engine

    from .reference import forced as ref_forced

    rng = random.Random(7)
    fired = checked = 0
    for players, left in ((3, 3), (4, 2), (4, 3), (5, 2)):
        for seed in range(6):
            pos = random_position(players, 3000 + seed, left).settle()
            while not pos.finished and pos.tricks_left >= 1:
                for seat in range(players):
                    eng = Engine.for_position(pos, seat)
                    st = eng.state_of(pos)
                    cnt = st[6]
                    s_done = 1 if cnt and (seat - st[5]) % players < cnt else 0
                    if eng.never_stuck(st, s_done):
                        fired += 1
                        assert ref_forced(pos, seat, lambda p, s=seat: p.paradox != s)
                    checked += 1
                moves = pos.legal_plays()
                if not moves:
                    break
                pos = pos.play(rng.choice(moves)).settle()
    assert fired > 20 and checked > fired


def _ref_para(pos: Position, seat: int, t0: int) -> int:
    """Engine.para by the rules engine alone: NOPAR when S causes no paradox, else minus the
    tricks S won since ``t0``; S maximises, the other seats minimise."""
    from catbox.solver.search.engine import NOPAR

    pos = pos.settle()
    if pos.finished:
        return -(pos.seats[seat].tricks - t0) if pos.paradox == seat else NOPAR
    vals = [_ref_para(pos.play(m), seat, t0) for m in pos.legal_plays()]
    return max(vals) if pos.to_play == seat else min(vals)


@pytest.mark.parametrize(
    ("players", "tricks_left", "mid"),
    [(2, 3, 1), (3, 3, 0), (3, 3, 1), (3, 3, 2), (4, 2, 2), (4, 3, 3), (5, 2, 3), (5, 1, 0)],
)
def test_para_agrees_with_reference(players: int, tricks_left: int, mid: int) -> None:
    """``Engine.para`` (the paradox regime of the score) and its MTD(f) driver against the
    rules-engine minimax, with random windows on a shared table (fail-soft bounds must stay
    sound when later searches reuse them), along random playouts."""
    import random

    from catbox.solver.search.engine import NOPAR, Engine

    rng = random.Random(players * 100 + tricks_left * 10 + mid)
    bounds = [-5, -4, -3, -2, -1, 0, 1, 2, 30, 40, NOPAR - 1, NOPAR, NOPAR + 1]
    checked = 0
    for seed in range(10):
        root = random_position(players, 5000 + seed, tricks_left, mid_trick=mid).settle()
        for seat in range(players):
            eng = Engine.for_position(root, seat)
            pos = root
            while not pos.finished:
                st = eng.state_of(pos)
                exact = _ref_para(pos, seat, pos.seats[seat].tricks)
                windows = [(0, 1), (-1, 0), (0, NOPAR)]  # (0, 1): "NOPAR or not" probes
                windows += [tuple(sorted(rng.sample(bounds, 2))) for _ in range(3)]
                for a, b in windows:
                    v = eng.para(st, a, b)
                    if v <= a:
                        assert exact <= v, (seed, seat, a, b)
                    elif v >= b:
                        assert exact >= v, (seed, seat, a, b)
                    else:
                        assert v == exact, (seed, seat, a, b)
                assert eng.para(st, -st[11] - 1, NOPAR + 1) == exact
                assert eng.exact_para(st, rng.choice(bounds)) == exact
                checked += 1
                pos = pos.play(rng.choice(pos.legal_plays())).settle()
    assert checked > 20


def _most_plays(pos: Position, seat: int) -> int:
    """The most plays ``seat`` makes in any continuation (rules engine only)."""
    pos = pos.settle()
    if pos.finished:
        return 0
    own = 1 if pos.to_play == seat else 0
    return own + max(_most_plays(pos.play(m), seat) for m in pos.legal_plays())


def test_s_plays_bound_is_sound() -> None:
    """``Engine.s_plays_bound`` never undercounts the plays S can still make (it caps the
    tricks S can still win in ``para``), and is tight somewhere below the hand size."""
    import random

    from catbox.solver.search.engine import Engine

    rng = random.Random(11)
    short = 0
    for players, left in ((3, 3), (4, 2), (5, 2), (2, 3)):
        for seed in range(4):
            pos = random_position(players, 6000 + seed, left).settle()
            while not pos.finished:
                for seat in range(players):
                    eng = Engine.for_position(pos, seat)
                    bound = eng.s_plays_bound(eng.state_of(pos))
                    most = _most_plays(pos, seat)
                    assert most <= bound, (players, left, seed, seat)
                    short += bound < pos.tricks_left
                pos = pos.play(rng.choice(pos.legal_plays())).settle()
    assert short > 0


def _ref_score(pos: Position, seat: int) -> int:
    """The best round score ``seat`` can guarantee, by the rules engine alone (Sc1-Sc3)."""
    pos = pos.settle()
    if pos.finished:
        return seat_score(pos, seat)
    vals = [_ref_score(pos.play(m), seat) for m in pos.legal_plays()]
    return max(vals) if pos.to_play == seat else min(vals)


@pytest.mark.parametrize(("players", "tricks_left", "mid"), [(3, 2, 1), (3, 3, 2), (4, 2, 0)])
def test_value_windows_agree_with_reference(players: int, tricks_left: int, mid: int) -> None:
    """``Engine.value`` is fail-soft on any window, also when its paradox regime is answered by
    ``para`` and tables are shared along random playouts."""
    import random

    from catbox.solver.search.engine import Engine

    rng = random.Random(players + 7 * tricks_left + mid)
    bounds = [-6, -4, -3, -2, -1, 0, 1, 2, 3, 5, 8]
    for seed in range(6):
        root = random_position(players, 7000 + seed, tricks_left, mid_trick=mid).settle()
        for seat in range(players):
            eng = Engine.for_position(root, seat)
            pos = root
            while not pos.finished:
                st = eng.state_of(pos)
                exact = _ref_score(pos, seat)
                for _ in range(4):
                    a, b = sorted(rng.sample(bounds, 2))
                    v = eng.value(st, a, b)
                    if v <= a:
                        assert exact <= v, (seed, seat, a, b)
                    elif v >= b:
                        assert exact >= v, (seed, seat, a, b)
                    else:
                        assert v == exact, (seed, seat, a, b)
                assert eng.exact_value(st) == exact
                pos = pos.play(rng.choice(pos.legal_plays())).settle()
