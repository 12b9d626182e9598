"""Rule numbers are defined once in Python and every twin sees the same value: W1's red
offset (``rules.RED_BONUS``), Sc2's two-player threshold (``scoring.TWO_PLAYER_BONUS_MAX``)
and the copy count (``cards.COPIES``). Each twin is asked through its own behaviour (a red
play's trick value, the bonus window), and the compiled core through ``Engine.rules()``, the
values it was constructed with."""

from __future__ import annotations

import random

from catbox.solver.cards import COPIES, Colour, Play, variant
from catbox.solver.deal import random_position
from catbox.solver.estimates import policy
from catbox.solver.estimates.policy import Sim
from catbox.solver.position import Position
from catbox.solver.rules import RED_BONUS, trick_value, trick_winner
from catbox.solver.scoring import TWO_PLAYER_BONUS_MAX
from catbox.solver.search.engine import Engine
from catbox.solver.search.native import NativeEngine, flat, unflat
from catbox.solver.search.state import Ctx, apply, from_position


def _first_red_plays(count: int) -> list[tuple[Position, Play]]:
    """Positions (some mid-trick) with a legal red play, found along seeded playouts."""
    out: list[tuple[Position, Play]] = []
    rng = random.Random(7)
    seed = 0
    while len(out) < count:
        seed += 1
        pos = random_position(2 + seed % 4, seed, variant(2 + seed % 4).tricks - 1)
        while not pos.finished and len(out) < count:
            plays = pos.legal_plays()
            if not plays:
                break
            red = [p for p in plays if p.colour == Colour.R]
            if red and len(pos.trick) + 1 < pos.players:  # the trick goes on after it
                out.append((pos, red[0]))
            pos = pos.play(rng.choice(plays))
    return out


def test_W1_red_offset_is_one_number_for_every_twin() -> None:
    assert max(variant(p).max_number for p in range(2, 6)) < RED_BONUS  # above every number
    assert trick_value(Play(1, Colour.R), Colour.B) == RED_BONUS + 1
    assert trick_winner([Play(9, Colour.B), Play(1, Colour.R)]) == 1
    for pos, play in _first_red_plays(40):
        seat = pos.to_play
        assert seat is not None
        ctx = Ctx(pos.players, seat)
        st = from_position(pos, seat, ctx)[1]
        # the value winning the trick so far: a red play beats every non-red one
        want = max(st[8], RED_BONUS + play.number)
        idx = int(play.colour) * ctx.max_number + play.number - 1
        after = apply(ctx, st, idx)  # the packed state (Python)
        assert after[8] == want
        nat = NativeEngine.for_position(pos, seat)
        assert nat.core.rules() == (RED_BONUS, TWO_PLAYER_BONUS_MAX)
        assert unflat(ctx, nat.core.apply(flat(ctx, st), idx)) == after  # the compiled core
        sim = Sim.of(pos)  # the playout simulator
        sim.play(play.number, int(play.colour))
        assert sim.win_val == want


def test_Sc2_two_player_threshold_is_one_number_for_every_twin() -> None:
    pos = random_position(2, 3, 4)
    seat = pos.to_play
    assert seat is not None
    eng = Engine.for_position(pos, seat)
    assert eng._bonus_window == (0, TWO_PLAYER_BONUS_MAX)
    nat = NativeEngine.for_position(pos, seat)
    assert nat.core.rules()[1] == TWO_PLAYER_BONUS_MAX
    assert policy.TWO_PLAYER_TARGET == TWO_PLAYER_BONUS_MAX


def test_copy_count_fits_every_encoding() -> None:
    for players in range(2, 6):
        v = variant(players)
        assert v.deck_size == v.max_number * COPIES
        ctx = Ctx(players, 0)
        # the packed hands (Python and compiled, 3 bits per number) hold every copy
        assert ctx.hb == 3 * v.max_number and COPIES < 1 << 3
        deck = tuple(k for k in range(1, v.max_number + 1) for _ in range(COPIES))
        st = (0, 0, ctx.pack(deck), 0, 0, 0, 0, 0, 0, 0, 0, 0)
        assert ctx.hand(st, 0) == deck
