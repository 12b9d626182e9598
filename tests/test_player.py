"""catbox's player (solver/player.py): legal, deterministic for a seed, reads only the view of the
seat to play, and in exact endgames plays a play that keeps S's paradox avoidance guaranteed on
every consistent deal whenever one exists (checked against the compiled core's answers)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from catbox.solver import Position
from catbox.solver.cards import Colour, Play
from catbox.solver.deal import deal_round, random_position
from catbox.solver.errors import PositionError
from catbox.solver.estimates import player, policy
from catbox.solver.estimates.advise import advise
from catbox.solver.estimates.deals import DealSpace
from catbox.solver.estimates.decision import choose_play, play_out
from catbox.solver.estimates.player import (
    AVOID_TOLERANCE,
    HORIZON,
    Scored,
    endgame_choice,
    score_plays,
)


def seat_of(pos: Position) -> int:
    seat = pos.to_play
    assert seat is not None
    return seat


def view_of(pos: Position) -> Position:
    seat = seat_of(pos)
    return pos.hide([s for s in range(pos.players) if s != seat])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_choose_play_is_legal_and_deterministic_over_a_round(players: int) -> None:
    for seed in range(2 if players == 2 else 1):
        pos = deal_round(players, seed, predictions=True).position
        while not pos.finished:
            view = view_of(pos)
            a = choose_play(view, seed=seed)
            assert a in pos.legal_plays()
            if pos.tricks_left <= HORIZON[players]:
                assert choose_play(view, seed=seed) == a
            pos = pos.play(a)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_choose_play_reads_only_the_view(players: int) -> None:
    """Two different deals of the hidden cards, consistent with one view, give the same play
    for the same seed (the player never sees the hidden hands)."""
    checked = 0
    for seed in range(6):
        tricks_left = (HORIZON[players] - 1, HORIZON[players] + 2)[seed % 2]
        full = random_position(players, seed=seed, tricks_left=tricks_left, mid_trick=seed % 2)
        view = view_of(full)
        other = DealSpace.of(view).sample(random.Random(seed))
        # the other deal keeps the set-aside cards hidden, as the view has them
        assert view_of(other) == view
        if other == full.settle():
            continue
        for lvl in (0, 1):
            a = choose_play(view_of(full), seed=seed, level=lvl)
            b = choose_play(view_of(other), seed=seed, level=lvl)
            assert a == b and a in full.legal_plays()
        checked += 1
    assert checked >= 4


def test_choose_play_needs_the_own_hand_and_a_running_round() -> None:
    pos = random_position(3, seed=1, tricks_left=2)
    with pytest.raises(PositionError):
        choose_play(pos.hide([seat_of(pos)]))
    done = pos
    while not done.finished:
        done = done.play(done.legal_plays()[0])
    with pytest.raises(PositionError):
        choose_play(done)


@pytest.mark.parametrize("players", [2, 3])
def test_exact_endgame_plays_a_proven_safe_play(players: int) -> None:
    """Where every consistent deal is enumerated and solved (advise's exact pimc, the compiled
    core's answers per deal) and some play keeps avoiding S's paradox on all of them, the player
    makes such a play; its own per-play counts agree with advise's."""
    found = 0
    for seed in range(60):
        full = random_position(players, seed=seed, tricks_left=2, mid_trick=seed % players)
        view = view_of(full)
        if len(view.legal_plays()) < 2:
            continue
        exact = advise(view, seat_of(view), method="pimc", exact_limit=400)
        if exact.status != "proven":
            continue
        safe = {m.play for m in exact.moves if m.avoid_paradox.value == 1.0}
        if not safe or len(safe) == len(exact.moves):
            continue
        rows = score_plays(view, samples=400)
        by_play = {m.play: m.avoid_paradox.value for m in exact.moves}
        for r in rows:
            assert r.avoids / r.weight == pytest.approx(by_play[r.play])
        # the player keeps to the plays within AVOID_TOLERANCE of the safest
        near = {
            m.play for m in exact.moves if m.avoid_paradox.value >= 1.0 - AVOID_TOLERANCE - 1e-9
        }
        assert choose_play(view, level=20) in near
        found += 1
    assert found >= 3


def test_the_endgame_choice_ranks_near_safe_plays_by_their_playouts() -> None:
    """endgame_choice: a play less safe than the best by more than the tolerance is never made;
    within it, the best mean score of S in the policy's playouts wins, then Scored.key."""
    a, b, c = Play(1, Colour.B), Play(2, Colour.B), Play(3, Colour.B)
    safe = Scored(a, 20.0, 20.0, 40.0, 20.0, follow_score=30.0)
    near = Scored(b, 19.0, 20.0, 30.0, 20.0, follow_score=60.0)
    risky = Scored(c, 10.0, 20.0, None, 20.0, follow_score=90.0)
    rows = [safe, near, risky]
    assert endgame_choice(rows) == b
    assert endgame_choice(rows, tolerance=0.0) == a
    assert endgame_choice(rows, tolerance=0.6) == c
    assert endgame_choice([safe, replace(near, follow_score=30.0)]) == a  # tie: Scored.key
    # risk: points off per share of the deals without the guarantee. With tolerance 0.6 and
    # risk 10: a 30/20 = 1.5, b 60/20 - 10 * 1/20 = 2.5, c 90/20 - 10 * 10/20 = -0.5
    assert endgame_choice(rows, tolerance=0.6, risk=10.0) == b
    assert endgame_choice(rows, tolerance=0.6, risk=1.0) == c  # c: 4.5 - 0.5 = 4.0


def test_a_seat_without_prediction_still_gets_a_play() -> None:
    """An unknown prediction of S (Sc2 undecidable) scores by paradox avoidance alone."""
    full = random_position(4, seed=3, tricks_left=2)
    seat = seat_of(full)
    seats = list(full.seats)
    seats[seat] = replace(seats[seat], prediction=None)
    view = view_of(replace(full, seats=tuple(seats)))
    assert choose_play(view) in view.legal_plays()


def test_play_out_is_every_seat_choosing_on_its_own_view() -> None:
    """play_out (the model of the seats in advise's playouts at level >= 1) makes, at every
    step, the play choose_play makes on that seat's view: from the horizon on at the same
    level, before it the policy's (level 0; the rollouts are left out for speed)."""
    for players in (3, 4):
        full = random_position(players, seed=7, tricks_left=HORIZON[players] + 1)
        end = play_out(full, seed=2)
        pos = full.settle()
        while not pos.finished:
            level = 1 if pos.tricks_left <= HORIZON[players] else 0
            pos = pos.play(choose_play(view_of(pos), seed=2, level=level))
        assert pos == end


@pytest.mark.parametrize("hazard", [0.0, 0.1])
def test_rollouts_score_the_policys_best_plays_by_playing_on(
    monkeypatch: pytest.MonkeyPatch, hazard: float
) -> None:
    """Before the horizon the player rolls out the policy's best plays: each mean is S's score
    (Sc1-Sc3, through the rules engine) over the same sampled deals played on by the policy in
    every seat, mixed at CUT_SHARE with S's score as the round stood at the start of the last
    trick, then (HAZARD on, unless S caused the paradox) at HAZARD per trick with its score at
    each trick start after the play, less HORIZON_RISK on the rollouts in which S could no
    longer guarantee avoiding its paradox at the first trick start of the exact horizon (asked
    here of the pure-Python engine on Position), recomputed play by play; the player makes the
    best one."""
    from catbox.solver.estimates.player import _rng, rollout_plays
    from catbox.solver.estimates.policy import Sim, choose
    from catbox.solver.scoring import seat_score
    from catbox.solver.search.engine import Engine

    monkeypatch.setattr(player, "PROBE_NODES", None)  # every probe answered, as here
    monkeypatch.setattr(player, "HORIZON_RISK", 2.0)  # whatever the defaults, both terms count
    monkeypatch.setattr(player, "CUT_SHARE", 0.5)
    for n in (3, 4, 5):
        monkeypatch.setitem(policy.HAZARD, n, hazard)
    # the pure-Python engine answers the probes below: at 5 players it asks at 2 tricks left
    # here (the player's horizon there is deeper; the formula is the same at any horizon)
    monkeypatch.setitem(player.HORIZON, 5, 2)

    for players, seed in ((3, 1), (4, 2), (5, 3)):
        full = random_position(players, seed=seed, tricks_left=HORIZON[players] + 2)
        view = view_of(full).settle()
        seat = seat_of(view)
        rows = rollout_plays(view, seed=seed, deals=4, top=3)
        assert rows == rollout_plays(view, seed=seed, deals=4, top=3)
        assert len(rows) == min(3, len(view.legal_plays()))
        assert choose_play(view, seed=seed, level=1) == rollout_plays(view, seed=seed)[0][0]
        rng = _rng(seed, view)
        space = DealSpace.of(view)
        deals = [space.sample(random.Random(rng.random())) for _ in range(4)]
        streams = [rng.random() for _ in range(4)]
        for play, got, _ in rows:
            total = 0.0
            for deal, r in zip(deals, streams, strict=True):
                pos, stream = deal.play(play).settle(), random.Random(r)
                asked, cut = False, None
                starts: list[int] = []
                while not pos.finished:
                    if not asked and not pos.trick and pos.tricks_left <= HORIZON[players]:
                        asked = True
                        eng = Engine.for_position(pos, seat)
                        st = eng.state_of(pos)
                        total -= 0 if eng.win(st, 0, st[11]) else 2.0
                    if not pos.trick and pos.tricks_left == 1:
                        cut = seat_score(pos, seat) or 0
                    if not pos.trick:
                        starts.append(seat_score(pos, seat) or 0)
                    num, colour = choose(Sim.of(pos), stream)
                    pos = pos.play(Play(num, Colour(colour))).settle()
                final = seat_score(pos, seat) or 0
                value = final if cut is None else (final + cut) / 2
                if hazard and pos.paradox != seat:
                    alive = 1.0
                    for s in starts:
                        total += alive * hazard * s
                        alive *= 1 - hazard
                    value *= alive
                total += value
            assert got == pytest.approx(total / 4)
        assert [r[1] for r in rows] == sorted((r[1] for r in rows), reverse=True)


def test_advise_playouts_can_model_the_seats_by_the_player() -> None:
    from catbox.solver.estimates.advise import advise as run

    full = random_position(3, seed=4, tricks_left=3)
    view = view_of(full)
    seat = seat_of(full)
    a = run(view, seat, method="playouts", samples=6, level=1)
    b = run(view, seat, method="playouts", samples=6, level=1)
    assert a == b and a.samples == 6
    assert {m.play for m in a.moves} == set(view.legal_plays())


def test_policy_playouts_after_each_play_are_a_share_of_the_deals() -> None:
    """score_plays(playouts=k) (a measure tried in the arena): the share of solved deals on which
    the policy, played by every seat after the play, ends the round paradox-free lies in
    [0, weight]; it is deterministic and leaves the exact counts unchanged."""
    full = random_position(4, seed=11, tricks_left=2)
    view = view_of(full)
    plain = score_plays(view, seed=3)
    rows = score_plays(view, seed=3, playouts=2)
    assert rows == score_plays(view, seed=3, playouts=2)
    by_play = {r.play: r for r in plain}
    for r in rows:
        assert 0.0 <= r.follow <= r.weight + 1e-9
        p = by_play[r.play]
        assert (r.avoids, r.possible, r.clear, r.weight) == (
            p.avoids,
            p.possible,
            p.clear,
            p.weight,
        )
        assert p.follow == 0.0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_rollouts_search_state_is_the_positions(players: int) -> None:
    """The rollouts ask the search core about a playout state (``sim_state``): the same packed
    state as ``from_position`` on the Position the rules engine reaches by the same plays, for
    every asking seat, at every ply (mid-trick included) of policy-played rounds."""
    from catbox.solver.estimates.player import sim_state
    from catbox.solver.estimates.policy import Sim, choose
    from catbox.solver.search.state import Ctx, from_position

    for seed in range(6):
        pos = random_position(players, seed=seed, tricks_left=HORIZON[players] + 1).settle()
        sim, rng = Sim.of(pos), random.Random(seed)
        while True:
            for seat in range(players):
                ctx = Ctx(players, seat)
                assert sim_state(sim, ctx) == from_position(pos, seat, ctx)[1]
            if pos.finished:
                break
            num, colour = choose(sim, rng)
            sim.play(num, colour)
            pos = pos.play(Play(num, Colour(colour))).settle()
        assert sim.over and sim.paradox == pos.paradox
