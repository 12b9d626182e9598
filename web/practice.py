"""Practice: catbox plays the other seats. One function, :func:`bot_play`, so that the policy
behind it can be switched in one place.

Today it is catbox's playout policy (:func:`catbox.solver.estimates.policy.choose`, the one
``advise --method playouts`` plays with), given only what the seat to play can see: its own
hand and set-aside card, the board, permissions, tricks and predictions. The hands it cannot
see are filled with one deal drawn at random from the unseen cards (the policy reads only the
seat's own hand, so the draw changes nothing but the random tie-breaks).

>>> from catbox.solver.deal import deal_round
>>> pos = deal_round(4, seed=7, predictions=True).position
>>> play = bot_play(pos, seed=1)
>>> play in pos.legal_plays(), bot_play(pos, seed=1) == play
(True, True)
"""

from __future__ import annotations

import random

from catbox.solver.cards import Colour, Play, seat_letter
from catbox.solver.errors import PositionError
from catbox.solver.estimates.deals import DealSpace
from catbox.solver.estimates.policy import Sim, choose
from catbox.solver.position import Position

__all__ = ["bot_play"]


def bot_play(pos: Position, seed: int = 0) -> Play:
    """catbox's play for the seat to play of ``pos``, from that seat's view; the same
    position and seed give the same play.

    Raises:
        PositionError: the round is over, or the hand of the seat to play is unknown.
    """
    pos = pos.settle()
    seat = pos.to_play
    if seat is None:
        raise PositionError("the round is over: nobody is to play", rule="E1")
    if pos.seats[seat].hand is None:
        raise PositionError(f"catbox cannot play for {seat_letter(seat)}: its hand is unknown")
    rng = random.Random(f"catbox-practice/{seed}")
    view = pos.hide(s for s in range(pos.players) if s != seat)
    sim = Sim.of(DealSpace.of(view).sample(rng))
    number, colour = choose(sim, rng)
    play = Play(number, Colour(colour))
    pos.check_play(play)  # the policy's twin agrees with the rules (tests/test_estimates_policy)
    return play
