"""The playout state obeys the rules engine (L1-L3, F2, L4, W1, W3, E1, X1, Sc1-Sc3) step by step
on random playouts at every player count, and every policy plays only legal plays."""

from __future__ import annotations

import random

import pytest

from catbox.solver import Position
from catbox.solver.cards import Colour, Play
from catbox.solver.deal import deal_round
from catbox.solver.estimates.policy import POLICIES, Sim, playout
from catbox.solver.generate import random_position
from catbox.solver.scoring import seat_score


def _walk(pos: Position, rng: random.Random, policy: str) -> int:
    sim = Sim.of(pos)
    pos = pos.settle()
    steps = 0
    choose = POLICIES[policy]
    while True:
        assert sim.over == pos.finished
        assert sim.paradox == pos.paradox
        assert sim.tricks == [s.tricks for s in pos.seats]
        assert sim.perms == [s.colours for s in pos.seats]
        assert sim.board == list(pos.board)
        if pos.finished:
            for seat in range(pos.players):
                assert sim.score(seat) == seat_score(pos, seat)
            return steps
        assert sim.to_play == pos.to_play
        legal = [Play(n, Colour(c)) for n, c in sim.legal()]
        assert legal == pos.legal_plays()
        num, c = choose(sim, rng)
        assert Play(num, Colour(c)) in legal
        sim.play(num, c)
        pos = pos.play(Play(num, Colour(c)))
        steps += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_sim_matches_position(players: int, policy: str) -> None:
    rng = random.Random(players)
    steps = 0
    for seed in range(12):
        steps += _walk(deal_round(players, seed, predictions=True).position, rng, policy)
    for seed in range(6):
        pos = random_position(players, seed=seed, tricks_left=3, mid_trick=seed % players)
        steps += _walk(pos, rng, policy)
    assert steps > 100


def test_playout_is_deterministic_for_a_seed() -> None:
    pos = deal_round(4, seed=11, predictions=True).position
    a = playout(Sim.of(pos), random.Random(5))
    b = playout(Sim.of(pos), random.Random(5))
    assert a.board == b.board and a.tricks == b.tricks and a.paradox == b.paradox


def test_sim_needs_known_hands() -> None:
    from catbox.solver.errors import PositionError
    from catbox.solver.generate import hide_hands

    pos = hide_hands(deal_round(3, 1).position, [1])
    with pytest.raises(PositionError):
        Sim.of(pos)
