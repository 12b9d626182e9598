"""Positions shared by several test modules (a plain helper module: test modules never import
each other)."""

from __future__ import annotations

from catbox.solver.deal import random_position
from catbox.solver.position import Position


def hidden(players: int, seed: int, tricks_left: int, mid: int = 0) -> Position:
    """A random running position in which only the seat to play knows its hand."""
    pos = random_position(players, seed=seed, tricks_left=tricks_left, mid_trick=mid)
    assert pos.to_play is not None
    return pos.hide([i for i in range(players) if i != pos.to_play])
