"""Random positions for tests, benchmarks and puzzle hunting (deterministic per seed).

A position is reached from a seeded deal by a randomised depth-first playout that never lets a
paradox happen, so positions with few tricks left are real, still-running rounds.

>>> pos = random_position(4, seed=3, tricks_left=2)
>>> pos.tricks_left, pos.paradox, pos.trick
(2, None, ())
>>> random_position(4, seed=3, tricks_left=2) == pos
True
>>> h = random_position(3, seed=1, tricks_left=3, mid_trick=1, hide=(1, 2))
>>> len(h.trick), h.seats[1].hand, h.seats[1].hand_size
(1, None, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from .cards import Play
from .deal import deal_round
from .errors import PositionError
from .position import Position

__all__ = ["hide_hands", "random_position"]

_NODE_BUDGET = 4000
_ATTEMPTS = 200


def _playout(pos: Position, plays: int, rng: random.Random, budget: list[int]) -> Position | None:
    if plays == 0:
        return pos
    if budget[0] <= 0:
        return None
    moves: list[Play] = pos.legal_plays()
    led = pos.led
    # random order, biased towards plays that keep every permission (so fewer dead ends)
    moves.sort(key=lambda m: rng.random() + (0.6 if led is not None and m.colour != led else 0))
    for m in moves:
        budget[0] -= 1
        nxt = pos.play(m)
        if nxt.paradox is not None:
            continue
        found = _playout(nxt, plays - 1, rng, budget)
        if found is not None:
            return found
        if budget[0] <= 0:
            return None
    return None


def random_position(
    players: int,
    seed: int,
    tricks_left: int,
    *,
    mid_trick: int = 0,
    hide: Iterable[int] = (),
    predictions: bool = True,
) -> Position:
    """A running position with ``tricks_left`` tricks to go (the current one included) and
    ``mid_trick`` plays already made in the current trick; seats in ``hide`` get unknown hands
    (and unknown set-aside cards)."""
    v_tricks = deal_round(players, 0).position.variant.tricks
    if not 1 <= tricks_left <= v_tricks or not 0 <= mid_trick < players:
        raise PositionError(f"cannot make a position with {tricks_left} tricks left")
    plays = (v_tricks - tricks_left) * players + mid_trick
    for attempt in range(_ATTEMPTS):
        deal = deal_round(players, seed * 7919 + attempt, predictions=predictions)
        rng = random.Random(seed * 104729 + attempt)
        found = _playout(deal.position, plays, rng, [_NODE_BUDGET])
        if found is not None:
            return hide_hands(found, hide)
    raise PositionError(f"no paradox-free playout found for seed {seed}")


def hide_hands(pos: Position, seats: Iterable[int]) -> Position:
    """The same position with the hands and set-aside cards of ``seats`` unknown."""
    new = list(pos.seats)
    for i in seats:
        new[i] = replace(new[i], hand=None, set_aside=None)
    return replace(pos, seats=tuple(new))
