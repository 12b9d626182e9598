"""Dealing a new round from a seed (S1-S3, 2P1-2P3).

Deterministic: the same players, seed and options give the same deal on every run.

>>> d = deal_round(3, seed=1)
>>> [len(h) for h in d.dealt], [s.hand_size for s in d.position.seats]
([10, 10, 10], [9, 9, 9])
>>> deal_round(2, seed=5).position.revealed == tuple(sorted(deal_round(2, seed=5).revealed))
True

A running position from a seeded deal, by a randomised depth-first playout that never lets a
paradox happen (so positions with few tricks left are real, still-running rounds):

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
from dataclasses import dataclass

from .cards import COPIES, Play, variant
from .errors import PositionError
from .position import Position

__all__ = ["Deal", "deal_round", "random_position"]


@dataclass(frozen=True, slots=True)
class Deal:
    players: int
    seed: int
    round_start: int
    dealt: tuple[tuple[int, ...], ...]  # each seat's 10 (9 at 5 players) cards, sorted
    set_aside: tuple[int, ...]
    predictions: tuple[int | None, ...]
    revealed: tuple[int, ...]  # 2 players: three revealed undealt cards (2P1)
    hidden: tuple[int, ...]  # 2 players: the hidden pair (2P3)
    position: Position


def deal_round(players: int, seed: int, *, round_start: int = 0, predictions: bool = False) -> Deal:
    """Shuffle the deck with ``random.Random(seed)``, deal evenly (S1), set aside one random
    card per seat (S2) and, if asked, choose random allowed predictions (S3).

    Raises:
        FormatError: players is not 2 to 5.
    """
    v = variant(players)
    rng = random.Random(seed)
    deck = [n for n in v.numbers for _ in range(COPIES)]
    rng.shuffle(deck)
    dealt = [tuple(sorted(deck[i * v.dealt : (i + 1) * v.dealt])) for i in range(players)]
    rest = deck[players * v.dealt :]
    revealed, hidden = tuple(sorted(rest[:3])), tuple(sorted(rest[3:]))
    set_aside = tuple(rng.choice(h) for h in dealt)
    preds: tuple[int | None, ...] = tuple(
        rng.choice(v.predictions) if predictions and v.predictions else None for _ in dealt
    )
    hands: list[tuple[int, ...] | None] = []
    for h, a in zip(dealt, set_aside, strict=True):
        rest_hand = list(h)
        rest_hand.remove(a)
        hands.append(tuple(rest_hand))
    pos = Position.start(
        players,
        hands,
        round_start=round_start,
        predictions=list(preds),
        set_aside=list(set_aside),
        revealed=revealed,
    ).settle()
    return Deal(players, seed, round_start, tuple(dealt), set_aside, preds, revealed, hidden, pos)


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
            return found.hide(hide)
    raise PositionError(f"no paradox-free playout found for seed {seed}")
