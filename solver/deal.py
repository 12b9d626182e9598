"""Dealing a new round from a seed (S1-S3, 2P1-2P3).

Deterministic: the same players, seed and options give the same deal on every run.

>>> d = deal_round(3, seed=1)
>>> [len(h) for h in d.dealt], [s.hand_size for s in d.position.seats]
([10, 10, 10], [9, 9, 9])
>>> deal_round(2, seed=5).position.revealed == tuple(sorted(deal_round(2, seed=5).revealed))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import COPIES, variant
from .position import Position

__all__ = ["Deal", "deal_round"]


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
