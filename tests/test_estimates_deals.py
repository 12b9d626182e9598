"""Deals consistent with a seat's knowledge (analysis.md, "The player's view"): the enumerator's
weights are the physical arrangements (they sum to the multinomial of the slot sizes), and the
seeded sampler draws deals with exactly those frequencies (chi-square, fixed seed)."""

from __future__ import annotations

from collections import Counter
from math import sqrt

import pytest

from catbox.solver import Position
from catbox.solver.deal import random_position
from catbox.solver.estimates.deals import DealSpace, sample_rng
from tests.fixtures import hidden


def _key(pos: Position, seats: tuple[int, ...]) -> tuple[tuple[int, ...] | None, ...]:
    return tuple(pos.seats[i].hand for i in seats)


@pytest.mark.parametrize(("players", "seed", "left"), [(2, 1, 1), (3, 2, 1), (3, 5, 2), (4, 3, 1)])
def test_enumeration_weights_are_physical_arrangements(players: int, seed: int, left: int) -> None:
    space = DealSpace.of(hidden(players, seed, left))
    deals = space.enumerate(limit=100_000)
    assert deals is not None
    assert len(deals) == space.count()
    assert sum(w for _, w in deals) == space.total_weight()
    keys = [_key(d, space.seats) for d, _ in deals]
    assert len(set(keys)) == len(keys)
    pool = Counter(dict(space.pool))
    for d, _ in deals:
        used = Counter(c for i in space.seats for c in d.seats[i].hand or ())
        assert not used - pool  # drawn from the unknown pool only
        assert [len(d.seats[i].hand or ()) for i in space.seats] == list(space.sizes)


@pytest.mark.parametrize(("players", "seed", "left"), [(3, 2, 1), (2, 1, 1), (2, 3, 1)])
def test_sampler_frequencies_match_weights(players: int, seed: int, left: int) -> None:
    space = DealSpace.of(hidden(players, seed, left))
    deals = space.enumerate(limit=100_000)
    assert deals is not None and 2 <= len(deals) <= 60
    total = space.total_weight()
    expect = {_key(d, space.seats): w / total for d, w in deals}
    n = 4000
    seen = Counter(_key(space.sample(sample_rng(7, i)), space.seats) for i in range(n))
    assert set(seen) <= set(expect)
    chi2 = sum((seen[k] - n * p) ** 2 / (n * p) for k, p in expect.items())
    df = len(expect) - 1
    assert chi2 < df + 5 * sqrt(2 * df) + 5, (chi2, df)


def test_an_unweighted_sampler_would_fail_the_check() -> None:
    """The check has teeth: uniform over deals of numbers differs from the weighted law."""
    space = DealSpace.of(hidden(3, 2, 1))
    deals = space.enumerate(limit=1000)
    assert deals is not None
    weights = {w for _, w in deals}
    assert len(weights) > 1


def test_known_hands_are_one_deal() -> None:
    pos = random_position(3, seed=1, tricks_left=2)
    space = DealSpace.of(pos)
    assert space.trivial and space.enumerate(10) == [(pos.settle(), 1)]
    assert space.sample(sample_rng(0, 0)) == pos.settle()


def test_sampling_is_seeded() -> None:
    space = DealSpace.of(hidden(4, 1, 5))
    a = [space.sample(sample_rng(3, i)) for i in range(5)]
    b = [space.sample(sample_rng(3, i)) for i in range(5)]
    assert a == b and len(set(a)) > 1
    assert space.enumerate(limit=10) is None  # too many to enumerate
