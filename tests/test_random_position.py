"""The random-position generator (`deal.random_position`) used by tests and benchmarks."""

from __future__ import annotations

import pytest

from catbox.solver import PositionError
from catbox.solver.deal import random_position


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_positions_are_running_valid_and_deterministic(players: int) -> None:
    for tricks_left in (1, 3):
        for mid in (0, players - 1):
            pos = random_position(players, 9, tricks_left, mid_trick=mid)
            pos.validate()
            assert pos.paradox is None and pos.tricks_left == tricks_left
            assert len(pos.trick) == mid
            assert pos == random_position(players, 9, tricks_left, mid_trick=mid)


def test_hidden_hands() -> None:
    pos = random_position(5, 2, 2, hide=[0, 3])
    assert pos.seats[0].hand is None and pos.seats[3].hand is None
    assert pos.seats[1].hand is not None
    pos.validate()


def test_impossible_requests() -> None:
    with pytest.raises(PositionError):
        random_position(4, 1, 9)
    with pytest.raises(PositionError):
        random_position(4, 1, 2, mid_trick=4)
