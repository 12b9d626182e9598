"""The playout state obeys the rules engine (L1-L3, F2, L4, W1, W3, E1, X1, Sc1-Sc3) step by step
on random playouts at every player count, and every policy plays only legal plays."""

from __future__ import annotations

import random

import pytest

from catbox.solver import Position
from catbox.solver.cards import Colour, Play
from catbox.solver.deal import deal_round, random_position
from catbox.solver.estimates.policy import POLICIES, Sim, playout
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

    pos = deal_round(3, 1).position.hide([1])
    with pytest.raises(PositionError):
        Sim.of(pos)


def test_covered_chance_matches_enumeration() -> None:
    """The inclusion-exclusion of covered_chance equals counting every draw of the unseen cards
    (which numbers the others' set-aside cards cover, I1/I2)."""
    from itertools import combinations

    from catbox.solver.estimates.policy import covered_chance

    pool = [1, 1, 2, 3, 3, 3, 4, 5]  # the cards a seat cannot see
    unseen = [0] * 6
    for m in pool:
        unseen[m] += 1
    for draws in (1, 2, 3):
        for rest in ([1], [3], [1, 2], [1, 3], [2, 4], [1, 3, 5]):
            hits = total = 0
            for pick in combinations(range(len(pool)), draws):
                total += 1
                got = {pool[i] for i in pick}
                hits += all(m in got for m in rest)
            assert covered_chance(rest, unseen, len(pool), draws) == pytest.approx(hits / total)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_policy_choice_is_legal_and_deterministic(players: int) -> None:
    from catbox.solver.estimates.policy import choose

    for seed in range(4):
        sim = Sim.of(deal_round(players, seed, predictions=True).position)
        rng = random.Random(seed)
        while not sim.over:
            state = rng.getstate()
            a = choose(sim.copy(), rng)
            rng.setstate(state)
            b = choose(sim.copy(), rng)
            assert a == b and a in sim.legal()
            sim.play(*a)


def test_policy_beats_random_on_a_small_sample() -> None:
    """Cheap and seeded (the real comparison is bench/bench_estimates.py): over the same deals
    catbox's policy causes fewer paradoxes than a uniformly random player."""
    for players in (3, 5):
        counts = {}
        for name in ("catbox", "random"):
            counts[name] = sum(
                playout(
                    Sim.of(deal_round(players, 500 + r, predictions=True).position),
                    random.Random(r),
                    POLICIES[name],
                ).paradox
                is not None
                for r in range(40)
            )
        assert counts["catbox"] < counts["random"]
