"""Practice: catbox plays the other seats. One function, :func:`bot_play`, so that the policy
behind it can be switched in one place.

It is catbox's player (:func:`catbox.solver.player.choose_play`, the one ``advise`` recommends
with): it is given only what the seat to play can see (its own hand and set-aside card, the
board, permissions, tricks and predictions) and plays the policy early and exact endgames over
sampled deals late. It runs in a worker process (web/worker.py), never in a request thread.

>>> from catbox.solver.deal import deal_round
>>> pos = deal_round(4, seed=7, predictions=True).position
>>> play = bot_play(pos, seed=1)
>>> play in pos.legal_plays(), bot_play(pos, seed=1) == play
(True, True)
"""

from __future__ import annotations

from catbox.solver.cards import Play
from catbox.solver.player import DEFAULT_LEVEL, choose_play
from catbox.solver.position import Position

__all__ = ["bot_play"]


def bot_play(pos: Position, seed: int = 0, level: int = DEFAULT_LEVEL) -> Play:
    """catbox's play for the seat to play of ``pos``, from that seat's view; the same
    position, seed and level give the same play (``level``: :func:`choose_play`'s budget,
    0 the policy alone).

    Raises:
        PositionError: the round is over, or the hand of the seat to play is unknown.
    """
    pos = pos.settle()
    seat = pos.to_play
    view = pos if seat is None else pos.hide(s for s in range(pos.players) if s != seat)
    return choose_play(view, seed=seed, level=level)
